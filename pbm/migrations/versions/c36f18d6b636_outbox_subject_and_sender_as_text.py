"""outbox subject and sender as text

A Re: of a stranger's subject, and a From with the game's name in accented
letters encoded as RFC 2047 words, have no length a column could promise;
PostgreSQL refused them where SQLite stored them.

Revision ID: c36f18d6b636
Revises: 252055677c2e
Create Date: 2026-11-23 13:25:22.584102
"""
from alembic import op
import sqlalchemy as sa


revision = 'c36f18d6b636'
down_revision = '252055677c2e'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.alter_column('from_addr',
               existing_type=sa.VARCHAR(length=254),
               type_=sa.Text(),
               existing_nullable=False)
        batch_op.alter_column('subject',
               existing_type=sa.VARCHAR(length=300),
               type_=sa.Text(),
               existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.alter_column('subject',
               existing_type=sa.Text(),
               type_=sa.VARCHAR(length=300),
               existing_nullable=False)
        batch_op.alter_column('from_addr',
               existing_type=sa.Text(),
               type_=sa.VARCHAR(length=254),
               existing_nullable=False)
