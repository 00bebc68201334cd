"""outbox.login_link: mail carrying a link that logs its reader in or sets a password

Such mail is the addressee's alone: no Master's page shows it (docs/security.md).

Revision ID: f3b9a6d2c417
Revises: d5b8e1f3a6c2
Create Date: 2026-11-27 04:10:00
"""
from alembic import op
import sqlalchemy as sa


revision = 'f3b9a6d2c417'
down_revision = 'd5b8e1f3a6c2'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('login_link', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    # Mail queued before this revision: the kinds that always carry such a link, and
    # welcome mails that carried a set-password link.
    outbox = sa.table('outbox', sa.column('kind', sa.String), sa.column('body', sa.Text),
                      sa.column('login_link', sa.Boolean))
    op.execute(outbox.update().where(sa.or_(
        outbox.c.kind.in_(('set_password', 'password_reset', 'signup')),
        sa.and_(outbox.c.kind.in_(('welcome', 'substitute_welcome')),
                outbox.c.body.like('%/password-reset/%')))).values(login_link=True))


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_column('login_link')
