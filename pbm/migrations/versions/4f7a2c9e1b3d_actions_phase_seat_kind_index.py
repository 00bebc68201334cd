"""actions: index on (phase_id, seat_id, kind)

A player's latest submission of each kind in a phase (the reserved page after a
vote) is read from this index, so it costs the same however many submissions the
phase holds. It leads with phase_id, so it replaces the index on phase_id alone.

Revision ID: 4f7a2c9e1b3d
Revises: e7a2c4f18b3d
Create Date: 2026-11-25 12:00:00
"""
from alembic import op


revision = '4f7a2c9e1b3d'
down_revision = 'e7a2c4f18b3d'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('actions', schema=None) as batch_op:
        batch_op.create_index('ix_actions_phase_seat_kind', ['phase_id', 'seat_id', 'kind'], unique=False)
        batch_op.drop_index(batch_op.f('ix_actions_phase_id'))


def downgrade() -> None:
    with op.batch_alter_table('actions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_actions_phase_id'), ['phase_id'], unique=False)
        batch_op.drop_index('ix_actions_phase_seat_kind')
