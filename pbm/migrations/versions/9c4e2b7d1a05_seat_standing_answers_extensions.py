"""seats: standing answers and extensions of the answer window used

Revision ID: 9c4e2b7d1a05
Revises: 5e1f0a7c9d21
Create Date: 2026-11-25 09:50:00
"""
from alembic import op
import sqlalchemy as sa


revision = '9c4e2b7d1a05'
down_revision = '5e1f0a7c9d21'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('standing', sa.JSON(), nullable=False, server_default='[]'))
        batch_op.add_column(sa.Column('extensions_used', sa.Integer(), nullable=False,
                                      server_default='0'))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('extensions_used')
        batch_op.drop_column('standing')
