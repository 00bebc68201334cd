"""substitutes, absences, volunteers and the HTML alternative of mail

Revision ID: 9b3d51c0e7a4
Revises: 9d4e2b7c1a05
Create Date: 2026-11-25 09:40:00
"""
from alembic import op
import sqlalchemy as sa


revision = '9b3d51c0e7a4'
down_revision = '9d4e2b7c1a05'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'seat_holders',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('seat_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('from_phase', sa.Integer(), nullable=False),
        sa.Column('to_phase', sa.Integer(), nullable=True),
        sa.Column('since', sa.DateTime(), nullable=False),
        sa.Column('announced_as', sa.String(length=120), nullable=False),
        sa.ForeignKeyConstraint(['seat_id'], ['seats.id']),
        sa.ForeignKeyConstraint(['user_id'], ['users.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_seat_holders_seat_id', 'seat_holders', ['seat_id'])
    op.create_table(
        'volunteers',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.ForeignKeyConstraint(['user_id'], ['users.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'user_id'),
    )
    op.create_index('ix_volunteers_game_id', 'volunteers', ['game_id'])
    op.create_table(
        'absences',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('seat_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('first_day', sa.Date(), nullable=False),
        sa.Column('last_day', sa.Date(), nullable=False),
        sa.Column('note', sa.Text(), nullable=False),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.ForeignKeyConstraint(['seat_id'], ['seats.id']),
        sa.ForeignKeyConstraint(['user_id'], ['users.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_absences_game_id', 'absences', ['game_id'])
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('body_html', sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_column('body_html')
    op.drop_index('ix_absences_game_id', table_name='absences')
    op.drop_table('absences')
    op.drop_index('ix_volunteers_game_id', table_name='volunteers')
    op.drop_table('volunteers')
    op.drop_index('ix_seat_holders_seat_id', table_name='seat_holders')
    op.drop_table('seat_holders')
