"""Pending actions: a command waiting for the table's dice, and the faces entered so far.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from conteur.store.migrations import columns as col

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    col.create_table(
        "pending_actions",
        col.integer("encounter_id"),
        col.json("command"),
        col.json("rolls"),
        col.integer("base_seq"),
        col.integer("step"),
        col.moment(),
        col.moment("updated_at"),
        col.reference("pending_actions", "encounter_id", "encounters"),
        sa.UniqueConstraint("encounter_id", name="uq_pending_actions_encounter_id"),
    )


def downgrade() -> None:
    op.drop_table("pending_actions")
