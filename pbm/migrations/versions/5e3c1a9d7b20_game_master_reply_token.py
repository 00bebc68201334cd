"""game master reply token

A Master was recognised by the From address alone, which anyone can write:
each Master now has a reply token per game, as each player has per seat.
Existing Masters get a fresh random token.

Revision ID: 5e3c1a9d7b20
Revises: 4d7a1c2e9b60
Create Date: 2026-11-25 09:10:00
"""
import secrets

import sqlalchemy as sa
from alembic import op

revision = '5e3c1a9d7b20'
down_revision = '4d7a1c2e9b60'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('game_masters', schema=None) as batch_op:
        batch_op.add_column(sa.Column('token', sa.String(length=64), nullable=True))
    masters = sa.table('game_masters', sa.column('id', sa.Integer), sa.column('token', sa.String))
    connection = op.get_bind()
    for (row_id,) in connection.execute(sa.select(masters.c.id)).all():
        connection.execute(masters.update().where(masters.c.id == row_id)
                           .values(token=secrets.token_urlsafe(12)))
    with op.batch_alter_table('game_masters', schema=None) as batch_op:
        batch_op.alter_column('token', existing_type=sa.String(length=64), nullable=False)
        batch_op.create_index(batch_op.f('ix_game_masters_token'), ['token'], unique=True)


def downgrade() -> None:
    with op.batch_alter_table('game_masters', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_masters_token'))
        batch_op.drop_column('token')
