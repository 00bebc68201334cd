"""outbox: index on kind and created_at

The day's receipts to an address and about a game, and the day's mail anyone asked
for, are counted at every receipt and request (issue 29): the index reads a kind's
rows of the last day, not the whole outbox.

Revision ID: b8e4d2a6c913
Revises: f3a9c5d2e781
Create Date: 2026-11-28 09:00:00
"""
from alembic import op


revision = 'b8e4d2a6c913'
down_revision = 'f3a9c5d2e781'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.create_index('ix_outbox_kind_created_at', ['kind', 'created_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_kind_created_at')
