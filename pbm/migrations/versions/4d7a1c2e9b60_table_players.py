"""table players: seats without an account, and their photos

A game at the table (run from the narrator's phone) seats players who
have no account and no address: ``seats.user_id`` becomes nullable. Their faces,
taken with the phone when they join, live in ``seat_photos``.

Revision ID: 4d7a1c2e9b60
Revises: 9c4e2b7d1a05
Create Date: 2026-11-25 09:30:00
"""
from alembic import op
import sqlalchemy as sa


revision = '4d7a1c2e9b60'
down_revision = '9c4e2b7d1a05'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.alter_column('user_id', existing_type=sa.Integer(), nullable=True)
    op.create_table(
        'seat_photos',
        sa.Column('seat_id', sa.Integer(), nullable=False),
        sa.Column('content_type', sa.String(length=40), nullable=False),
        sa.Column('data', sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(['seat_id'], ['seats.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('seat_id'),
    )


def downgrade() -> None:
    op.drop_table('seat_photos')
    # The old schema has no place for a seat without an account: refuse to go back
    # while table games exist rather than drop their players silently.
    conn = op.get_bind()
    if conn.execute(sa.text("SELECT COUNT(*) FROM seats WHERE user_id IS NULL")).scalar():
        raise RuntimeError("seats without an account exist (table games): remove them before "
                           "downgrading past 4d7a1c2e9b60")
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.alter_column('user_id', existing_type=sa.Integer(), nullable=False)
