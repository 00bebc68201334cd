"""review contradictions

Revision ID: 1f14f99b0c62
Revises: b1862caeb8ee
Create Date: 2026-11-22 03:36:05.041224
"""
from alembic import op
import sqlalchemy as sa
import pbm.models


revision = '1f14f99b0c62'
down_revision = 'b1862caeb8ee'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('review_contradictions', sa.Boolean(), nullable=False, server_default=sa.false()))



def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('review_contradictions')

