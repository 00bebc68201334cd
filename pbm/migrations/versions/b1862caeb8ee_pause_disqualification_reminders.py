"""pause, disqualification, reminders

Revision ID: b1862caeb8ee
Revises: 7585c0ba9b52
Create Date: 2026-11-22 03:15:16.923412
"""
from alembic import op
import sqlalchemy as sa
import pbm.models


revision = 'b1862caeb8ee'
down_revision = '7585c0ba9b52'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('paused_at', pbm.models.UTCDateTime(), nullable=True))

    with op.batch_alter_table('phases', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reminded', sa.JSON(), nullable=False, server_default='[]'))

    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('disqualified', sa.Boolean(), nullable=False, server_default=sa.false()))



def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('disqualified')

    with op.batch_alter_table('phases', schema=None) as batch_op:
        batch_op.drop_column('reminded')

    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('paused_at')

