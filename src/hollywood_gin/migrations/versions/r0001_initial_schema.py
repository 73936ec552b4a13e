"""The tables of the releases before migrations (what store.py made with create_all).

Revision 0001, the first.  A database those releases made holds exactly this and is
stamped 0001 by ``hollywood-gin db upgrade`` instead of being created again.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hg_matches",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("first_dealer", sa.Integer(), nullable=False),
        sa.Column("players", sa.Text(), nullable=False),
        sa.Column("meta", sa.Text(), nullable=False),
        sa.Column("action_count", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("totals", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "hg_actions",
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hand_number", sa.Integer(), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["hg_matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "seq"),
    )
    op.create_table(
        "hg_hands",
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("hand_number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("knocker", sa.Integer(), nullable=True),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["hg_matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "hand_number"),
    )
    op.create_table(
        "hg_seats",
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["hg_matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "seat"),
        sa.UniqueConstraint("token_hash"),
    )


def downgrade() -> None:
    op.drop_table("hg_seats")
    op.drop_table("hg_hands")
    op.drop_table("hg_actions")
    op.drop_table("hg_matches")
