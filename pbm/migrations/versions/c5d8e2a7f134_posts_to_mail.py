"""posts_to_mail: the posts whose mail the worker has still to make (issue 33)

A post is stored with one row here; the worker turns it into its readers' mail and
removes it in the same transaction. Posts stored before this revision were mailed
when they were made.

Revision ID: c5d8e2a7f134
Revises: a7c3e91d4b25
Create Date: 2026-11-29 06:40:00
"""
from alembic import op
import sqlalchemy as sa


revision = 'c5d8e2a7f134'
down_revision = 'a7c3e91d4b25'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'posts_to_mail',
        sa.Column('post_id', sa.Integer(), sa.ForeignKey('posts.id'), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table('posts_to_mail')
