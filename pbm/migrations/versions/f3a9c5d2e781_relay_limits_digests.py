"""relay limits and digests: outbox.priority (the class of each mail), an index
on sent_at (the quota's count), relay_state (the relay's back-off), users.bulletins

Revision ID: f3a9c5d2e781
Revises: f3b9a6d2c417
Create Date: 2026-11-27 10:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = 'f3a9c5d2e781'
down_revision = 'f3b9a6d2c417'
branch_labels = None
depends_on = None

# pbm/mail_classes.py as it was when this ran: mail waiting at the upgrade keeps
# its place (everything else is 3, the bulk, the column's default).
_URGENT = ("receipt", "receipt_error", "window", "signup", "password_reset", "set_password", "welcome",
           "substitute_welcome", "on_behalf_copy")
_PRIVATE = ("role_letter", "phase_results", "master_report", "master_game_report", "draft_ready")


def upgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('priority', sa.SmallInteger(), server_default='3', nullable=False))
        batch_op.create_index('ix_outbox_status_priority_id', ['status', 'priority', 'id'], unique=False)
        batch_op.create_index('ix_outbox_sent_at', ['sent_at'], unique=False)
    outbox = sa.table('outbox', sa.column('kind', sa.String), sa.column('priority', sa.SmallInteger),
                      sa.column('status', sa.String))
    for priority, kinds in ((1, _URGENT), (2, _PRIVATE)):
        op.execute(outbox.update().where(outbox.c.kind.in_(kinds)).values(priority=priority))
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bulletins', sa.String(length=8), server_default='each', nullable=False))
    op.create_table(
        'relay_state',
        sa.Column('relay', sa.String(length=300), nullable=False),
        sa.Column('paused_until', sa.DateTime(), nullable=True),
        sa.Column('strikes', sa.Integer(), nullable=False),
        sa.Column('last_answer', sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint('relay'),
    )


def downgrade() -> None:
    op.drop_table('relay_state')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('bulletins')
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_sent_at')
        batch_op.drop_index('ix_outbox_status_priority_id')
        batch_op.drop_column('priority')
