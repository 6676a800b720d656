"""What players see, chosen per campaign (``campaigns.privacy``: ally health, NPC names,
NPC dice); an empty mapping keeps every default.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from conteur.store.migrations import columns as col

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    privacy = sa.Column("privacy", col.JSON_TYPE, nullable=False, server_default=sa.text("'{}'"))
    col.add_column("campaigns", privacy)


def downgrade() -> None:
    col.drop_column("campaigns", "privacy")
