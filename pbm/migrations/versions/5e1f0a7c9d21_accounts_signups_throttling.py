"""accounts: session tokens, time zones, login throttling, sign-ups

Every user gets a session token of their own (old remember cookies, which
carried the bare id, stop working: everyone logs in once more). Welcome mails
already sent kept the password they carried in the outbox: it is removed.

Revision ID: 5e1f0a7c9d21
Revises: c36f18d6b636
Create Date: 2026-11-25 09:10:00
"""
import re
import secrets

from alembic import op
import sqlalchemy as sa
import pbm.models


revision = '5e1f0a7c9d21'
down_revision = 'c36f18d6b636'
branch_labels = None
depends_on = None

# "Password: xyz" / "Password: quella che usi già" in the old welcome mail, both languages.
_PASSWORD_LINE = re.compile(r"^(Password:) (?!the one you already use|quella che usi già).*$", re.MULTILINE)


def upgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('tz', sa.String(length=64), nullable=False, server_default=''))
        batch_op.add_column(sa.Column('session_token', sa.String(length=64), nullable=False,
                                      server_default=''))
    op.create_table(
        'auth_attempts',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('at', pbm.models.UTCDateTime(), nullable=False),
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('email', sa.String(length=254), nullable=False),
        sa.Column('client', sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('auth_attempts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auth_attempts_at'), ['at'], unique=False)
        batch_op.create_index(batch_op.f('ix_auth_attempts_email'), ['email'], unique=False)
        batch_op.create_index(batch_op.f('ix_auth_attempts_client'), ['client'], unique=False)
    op.create_table(
        'signups',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('token', sa.String(length=64), nullable=False),
        sa.Column('is_open', sa.Boolean(), nullable=False),
        sa.Column('closes_at', pbm.models.UTCDateTime(), nullable=False),
        sa.Column('max_players', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id'),
    )
    with op.batch_alter_table('signups', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_signups_token'), ['token'], unique=True)

    bind = op.get_bind()
    users = sa.table('users', sa.column('id', sa.Integer), sa.column('session_token', sa.String))
    for (user_id,) in bind.execute(sa.select(users.c.id)).all():
        bind.execute(users.update().where(users.c.id == user_id)
                     .values(session_token=secrets.token_urlsafe(16)))
    outbox = sa.table('outbox', sa.column('id', sa.Integer), sa.column('kind', sa.String),
                      sa.column('body', sa.Text))
    for row_id, body in bind.execute(sa.select(outbox.c.id, outbox.c.body)
                                     .where(outbox.c.kind == 'welcome')).all():
        scrubbed = _PASSWORD_LINE.sub(r"\1 [removed]", body)
        if scrubbed != body:
            bind.execute(outbox.update().where(outbox.c.id == row_id).values(body=scrubbed))


def downgrade() -> None:
    with op.batch_alter_table('signups', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_signups_token'))
    op.drop_table('signups')
    with op.batch_alter_table('auth_attempts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auth_attempts_client'))
        batch_op.drop_index(batch_op.f('ix_auth_attempts_email'))
        batch_op.drop_index(batch_op.f('ix_auth_attempts_at'))
    op.drop_table('auth_attempts')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('session_token')
        batch_op.drop_column('tz')
