"""Groups and seasons, and the statistics of their finished games (issue 34)

A game belongs to at most one season of a group (season_games); each finished game is
counted once when it ends (game_records, seat_records) and added to running totals
(stat_totals). Games finished before this revision have no record and are not counted.

Revision ID: c4e8a2f61d37
Revises: c5d8e2a7f134
Create Date: 2026-11-29 06:50:00
"""
from alembic import op
import sqlalchemy as sa

from pbm.models import UTCDateTime


revision = 'c4e8a2f61d37'
down_revision = 'c5d8e2a7f134'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'play_groups',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('slug', sa.String(length=64), nullable=False),
        sa.Column('name', sa.String(length=120), nullable=False),
        sa.Column('owner_id', sa.Integer(), nullable=False),
        sa.Column('points', sa.JSON(), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['owner_id'], ['users.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index(op.f('ix_play_groups_slug'), 'play_groups', ['slug'], unique=True)
    op.create_table(
        'seasons',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('group_id', sa.Integer(), nullable=False),
        sa.Column('slug', sa.String(length=64), nullable=False),
        sa.Column('name', sa.String(length=120), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['play_groups.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('group_id', 'slug'),
    )
    op.create_index(op.f('ix_seasons_group_id'), 'seasons', ['group_id'], unique=False)
    op.create_table(
        'season_games',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('season_id', sa.Integer(), nullable=False),
        sa.Column('fair_deal', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.ForeignKeyConstraint(['season_id'], ['seasons.id']),
        sa.PrimaryKeyConstraint('game_id'),
    )
    op.create_index(op.f('ix_season_games_season_id'), 'season_games', ['season_id'], unique=False)
    op.create_table(
        'stats_privacy',
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('private', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['users.id']),
        sa.PrimaryKeyConstraint('user_id'),
    )
    op.create_table(
        'game_records',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('season_id', sa.Integer(), nullable=True),
        sa.Column('ruleset', sa.String(length=40), nullable=False),
        sa.Column('winner', sa.String(length=120), nullable=False),
        sa.Column('moments', sa.Integer(), nullable=False),
        sa.Column('players', sa.Integer(), nullable=False),
        sa.Column('ended_at', UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.ForeignKeyConstraint(['season_id'], ['seasons.id']),
        sa.PrimaryKeyConstraint('game_id'),
    )
    op.create_index(op.f('ix_game_records_season_id'), 'game_records', ['season_id'], unique=False)
    op.create_table(
        'seat_records',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('seat_id', sa.Integer(), nullable=False),
        sa.Column('season_id', sa.Integer(), nullable=True),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('substitute', sa.Boolean(), nullable=False),
        sa.Column('figures', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.ForeignKeyConstraint(['seat_id'], ['seats.id']),
        sa.ForeignKeyConstraint(['season_id'], ['seasons.id']),
        sa.ForeignKeyConstraint(['user_id'], ['users.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'user_id', 'seat_id'),
    )
    op.create_index(op.f('ix_seat_records_game_id'), 'seat_records', ['game_id'], unique=False)
    op.create_index(op.f('ix_seat_records_user_id'), 'seat_records', ['user_id'], unique=False)
    op.create_index(op.f('ix_seat_records_season_id'), 'seat_records', ['season_id'], unique=False)
    op.create_table(
        'stat_totals',
        sa.Column('scope', sa.String(length=40), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('counts', sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint('scope', 'user_id'),
    )


def downgrade() -> None:
    op.drop_table('stat_totals')
    for index in ('ix_seat_records_season_id', 'ix_seat_records_user_id', 'ix_seat_records_game_id'):
        op.drop_index(op.f(index), table_name='seat_records')
    op.drop_table('seat_records')
    op.drop_index(op.f('ix_game_records_season_id'), table_name='game_records')
    op.drop_table('game_records')
    op.drop_table('stats_privacy')
    op.drop_index(op.f('ix_season_games_season_id'), table_name='season_games')
    op.drop_table('season_games')
    op.drop_index(op.f('ix_seasons_group_id'), table_name='seasons')
    op.drop_table('seasons')
    op.drop_index(op.f('ix_play_groups_slug'), table_name='play_groups')
    op.drop_table('play_groups')
