"""inbound.size: the whole message's size, kept when only its headers were read

Revision ID: a7c3e91d5f20
Revises: 4f7a2c9e1b3d
Create Date: 2026-11-25 12:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = 'a7c3e91d5f20'
down_revision = '4f7a2c9e1b3d'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('inbound', schema=None) as batch_op:
        batch_op.add_column(sa.Column('size', sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('inbound', schema=None) as batch_op:
        batch_op.drop_column('size')
