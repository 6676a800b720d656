"""Game master's sessions kept across restarts (revocable), single-use tokens, the server's
signing key.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from conteur.store.migrations import columns as col

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    col.add_column("gm_secrets", col.moment("used_at", nullable=True))
    col.create_table(
        "gm_sessions",
        col.string("digest", 64),
        col.string("agent", 200),
        col.string("address", 100),
        col.moment(),
        col.moment("seen_at"),
        col.moment("revoked_at", nullable=True),
        sa.UniqueConstraint("digest", name="uq_gm_sessions_digest"),
    )
    col.create_table(
        "server_keys",
        col.string("purpose", 20),
        sa.Column("value", sa.Text(), nullable=False),
        col.moment(),
        sa.UniqueConstraint("purpose", name="uq_server_keys_purpose"),
    )


def downgrade() -> None:
    op.drop_table("server_keys")
    op.drop_table("gm_sessions")
    col.drop_column("gm_secrets", "used_at")
