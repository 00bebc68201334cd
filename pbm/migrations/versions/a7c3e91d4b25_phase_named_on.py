"""phases.named_on: the day a calendar phase is named by, fixed when it opens; games.listing

A phase's name ("notte 2, lunedì 30 novembre") never changes once a player has read it,
whether the Masters close it early or move its deadline (issue 31). Phases opened before
this revision keep being named by the day they end.

A game is listed on the home page (public), or readable by its link only (unlisted), or
only by its players and Masters (private). Games of before stay public.

Revision ID: a7c3e91d4b25
Revises: a1c7e5d93b42
Create Date: 2026-11-29 03:20:00
"""
from alembic import op
import sqlalchemy as sa


revision = 'a7c3e91d4b25'
down_revision = 'a1c7e5d93b42'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('phases', schema=None) as batch_op:
        batch_op.add_column(sa.Column('named_on', sa.Date(), nullable=True))
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('listing', sa.String(length=16), nullable=False,
                                      server_default='public'))


def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('listing')
    with op.batch_alter_table('phases', schema=None) as batch_op:
        batch_op.drop_column('named_on')
