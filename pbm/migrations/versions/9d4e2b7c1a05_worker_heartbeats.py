"""worker heartbeats

Each worker writes its last sign of life here; GET /healthz reads it.

Revision ID: 9d4e2b7c1a05
Revises: 5e3c1a9d7b20
Create Date: 2026-11-25 09:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '9d4e2b7c1a05'
down_revision = '5e3c1a9d7b20'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'worker_heartbeats',
        sa.Column('worker', sa.String(length=300), nullable=False),
        sa.Column('started_at', sa.DateTime(), nullable=False),
        sa.Column('beat_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('worker'),
    )
    with op.batch_alter_table('worker_heartbeats', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_worker_heartbeats_beat_at'), ['beat_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('worker_heartbeats', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_worker_heartbeats_beat_at'))
    op.drop_table('worker_heartbeats')
