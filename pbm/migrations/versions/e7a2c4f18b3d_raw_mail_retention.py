"""raw mail retention

When the raw text of an inbound message, or the body of a mail sent, was
deleted after RAW_MAIL_DAYS (pbm/retention.py); the indexes let the hourly
job find what is due without reading every stored message.

Revision ID: e7a2c4f18b3d
Revises: 9b3d51c0e7a4
Create Date: 2026-11-25 12:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = 'e7a2c4f18b3d'
down_revision = '9b3d51c0e7a4'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('inbound', schema=None) as batch_op:
        batch_op.add_column(sa.Column('pruned_at', sa.DateTime(), nullable=True))
        batch_op.create_index('ix_inbound_pruned_at_received_at', ['pruned_at', 'received_at'], unique=False)
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('pruned_at', sa.DateTime(), nullable=True))
        batch_op.create_index('ix_outbox_pruned_at_created_at', ['pruned_at', 'created_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_pruned_at_created_at')
        batch_op.drop_column('pruned_at')
    with op.batch_alter_table('inbound', schema=None) as batch_op:
        batch_op.drop_index('ix_inbound_pruned_at_received_at')
        batch_op.drop_column('pruned_at')
