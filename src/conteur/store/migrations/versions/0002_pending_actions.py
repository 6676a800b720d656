"""Pending actions: a command waiting for the table's dice, and the faces entered so far.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_TYPE = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "pending_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("encounter_id", sa.Integer(), nullable=False),
        sa.Column("command", JSON_TYPE, nullable=False),
        sa.Column("rolls", JSON_TYPE, nullable=False),
        sa.Column("base_seq", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["encounter_id"], ["encounters.id"], name="fk_pending_actions_encounter_id_encounters"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_pending_actions"),
        sa.UniqueConstraint("encounter_id", name="uq_pending_actions_encounter_id"),
    )


def downgrade() -> None:
    op.drop_table("pending_actions")
