"""Game reviews: a seat's review of a finished hand, kept so that it is computed once.

Revision 0002.  A new table only: nothing of the earlier tables changes.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hg_reviews",
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("hand_number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("method", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("accuracy", sa.Float(), nullable=True),
        sa.Column("points_lost", sa.Float(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["hg_matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "hand_number", "seat", "method"),
    )


def downgrade() -> None:
    op.drop_table("hg_reviews")
