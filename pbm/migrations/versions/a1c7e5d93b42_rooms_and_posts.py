"""rooms, posts, room readers, post reports; games.talk: the players' talk (issue 30)

Revision ID: a1c7e5d93b42
Revises: b8e4d2a6c913
Create Date: 2026-11-29 04:00:00
"""
from alembic import op
import sqlalchemy as sa

from pbm.models import UTCDateTime

revision = 'a1c7e5d93b42'
down_revision = 'b8e4d2a6c913'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('talk', sa.JSON(), nullable=False, server_default='{}'))
    op.create_table(
        'rooms',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('games.id'), nullable=False, index=True),
        sa.Column('key', sa.String(40), nullable=False),
        sa.Column('kind', sa.String(10), nullable=False),
        sa.Column('locked', sa.Boolean(), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.Column('opened_by', sa.Integer(), sa.ForeignKey('seats.id'), nullable=True),
        sa.UniqueConstraint('game_id', 'key'),
    )
    op.create_table(
        'whisper_members',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('room_id', sa.Integer(), sa.ForeignKey('rooms.id'), nullable=False, index=True),
        sa.Column('seat_id', sa.Integer(), sa.ForeignKey('seats.id'), nullable=False),
        sa.UniqueConstraint('room_id', 'seat_id'),
    )
    op.create_table(
        'posts',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('room_id', sa.Integer(), sa.ForeignKey('rooms.id'), nullable=False),
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('games.id'), nullable=False, index=True),
        sa.Column('seat_id', sa.Integer(), sa.ForeignKey('seats.id'), nullable=True),
        sa.Column('author_id', sa.Integer(), sa.ForeignKey('users.id'), nullable=True),
        sa.Column('signature', sa.String(120), nullable=False),
        sa.Column('heading', sa.JSON(), nullable=False),
        sa.Column('body', sa.Text(), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.Column('via', sa.String(10), nullable=False),
        sa.Column('status', sa.String(10), nullable=False),
        sa.Column('moderated_by', sa.Integer(), sa.ForeignKey('users.id'), nullable=True),
        sa.Column('moderated_at', UTCDateTime(), nullable=True),
        sa.Column('parent_id', sa.Integer(), sa.ForeignKey('posts.id'), nullable=True),
        sa.Column('inbound_id', sa.Integer(), sa.ForeignKey('inbound.id'), nullable=True),
    )
    op.create_index('ix_posts_room_id', 'posts', ['room_id', 'id'])
    op.create_table(
        'room_readers',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('room_id', sa.Integer(), sa.ForeignKey('rooms.id'), nullable=False, index=True),
        sa.Column('user_id', sa.Integer(), sa.ForeignKey('users.id'), nullable=False),
        sa.Column('token', sa.String(64), nullable=False, unique=True, index=True),
        sa.Column('delivery', sa.String(10), nullable=False),
        sa.Column('digest_hours', sa.JSON(), nullable=False),
        sa.Column('last_read_id', sa.Integer(), nullable=False),
        sa.Column('mailed_through_id', sa.Integer(), nullable=False),
        sa.Column('last_digest_at', UTCDateTime(), nullable=True),
        sa.Column('muted', sa.Boolean(), nullable=False),
        sa.Column('silenced_until', UTCDateTime(), nullable=True),
        sa.UniqueConstraint('room_id', 'user_id'),
    )
    op.create_table(
        'post_reports',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('post_id', sa.Integer(), sa.ForeignKey('posts.id'), nullable=False, index=True),
        sa.Column('user_id', sa.Integer(), sa.ForeignKey('users.id'), nullable=False),
        sa.Column('at', UTCDateTime(), nullable=False),
        sa.Column('note', sa.Text(), nullable=False),
        sa.Column('seen', sa.Boolean(), nullable=False),
        sa.UniqueConstraint('post_id', 'user_id'),
    )


def downgrade() -> None:
    op.drop_table('post_reports')
    op.drop_table('room_readers')
    op.drop_index('ix_posts_room_id', table_name='posts')
    op.drop_table('posts')
    op.drop_table('whisper_members')
    op.drop_table('rooms')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('talk')
