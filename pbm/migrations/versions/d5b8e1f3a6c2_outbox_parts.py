"""outbox_parts: the end of an HTML alternative many messages share, stored once

Revision ID: d5b8e1f3a6c2
Revises: a7c3e91d5f20
Create Date: 2026-11-26 18:30:00
"""
from alembic import op
import sqlalchemy as sa


revision = 'd5b8e1f3a6c2'
down_revision = 'a7c3e91d5f20'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'outbox_parts',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('html', sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('html_part_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key('fk_outbox_html_part_id_outbox_parts', 'outbox_parts',
                                    ['html_part_id'], ['id'])
        # Retention looks for the parts no mail points to any more.
        batch_op.create_index('ix_outbox_html_part_id', ['html_part_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_html_part_id')
        batch_op.drop_constraint('fk_outbox_html_part_id_outbox_parts', type_='foreignkey')
        batch_op.drop_column('html_part_id')
    op.drop_table('outbox_parts')
