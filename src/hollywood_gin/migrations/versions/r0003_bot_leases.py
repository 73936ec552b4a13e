"""Bot leases: which server process plays the computer at a table (issue 15).

Revision 0003.  Only adds a table, so servers of the release before keep working on an
upgraded database (they never read it).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hg_leases",
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("holder", sa.String(length=32), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["hg_matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id"),
    )


def downgrade() -> None:
    op.drop_table("hg_leases")
