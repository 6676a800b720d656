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

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("gm_secrets") as batch:
        batch.add_column(sa.Column("used_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "gm_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("agent", sa.String(length=200), nullable=False),
        sa.Column("address", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_gm_sessions"),
        sa.UniqueConstraint("digest", name="uq_gm_sessions_digest"),
    )
    op.create_table(
        "server_keys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("purpose", sa.String(length=20), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_server_keys"),
        sa.UniqueConstraint("purpose", name="uq_server_keys_purpose"),
    )


def downgrade() -> None:
    op.drop_table("server_keys")
    op.drop_table("gm_sessions")
    with op.batch_alter_table("gm_secrets") as batch:
        batch.drop_column("used_at")
