"""prepared draw

Revision ID: 252055677c2e
Revises: 1f14f99b0c62
Create Date: 2026-11-22 03:38:41.538456
"""
from alembic import op
import sqlalchemy as sa
import pbm.models


revision = '252055677c2e'
down_revision = '1f14f99b0c62'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('prepared', sa.JSON(), nullable=True))



def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('prepared')

