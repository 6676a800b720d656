"""Campaigns, characters and their versions, encounters and their append-only log, GM secrets.

Revision ID: 0001
Revises:
Create Date: 2025-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from conteur.store.migrations import columns as col

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APPEND_ONLY = ("encounter_log", "character_versions")


def upgrade() -> None:
    col.create_table(
        "campaigns",
        col.string("name", 200),
        col.string("ruleset", 40),
        col.json("packs"),
        col.json("options"),
        col.string("era", 40, nullable=True),
        col.json("settings"),
        col.moment(),
        col.moment("updated_at"),
    )
    col.create_table(
        "characters",
        col.integer("campaign_id"),
        col.string("slug", 100),
        col.string("name", 200),
        col.json("sheet"),
        col.json("state"),
        col.integer("version"),
        col.string("token", 100),
        col.moment(),
        col.moment("updated_at"),
        col.reference("characters", "campaign_id", "campaigns"),
        sa.UniqueConstraint("campaign_id", "slug", name="uq_characters_campaign_slug"),
        sa.UniqueConstraint("token", name="uq_characters_token"),
    )
    op.create_index("ix_characters_campaign_id", "characters", ["campaign_id"])
    col.create_table(
        "encounters",
        col.integer("campaign_id"),
        col.string("name", 200),
        col.json("scenario"),
        col.string("status", 20),
        col.moment(),
        col.moment("closed_at", nullable=True),
        col.reference("encounters", "campaign_id", "campaigns"),
    )
    op.create_index("ix_encounters_campaign_id", "encounters", ["campaign_id"])
    col.create_table(
        "character_versions",
        col.integer("character_id"),
        col.integer("version"),
        col.json("sheet"),
        col.json("state"),
        col.string("reason", 200),
        col.integer("encounter_id", nullable=True),
        col.moment(),
        col.reference("character_versions", "character_id", "characters"),
        col.reference("character_versions", "encounter_id", "encounters"),
        sa.UniqueConstraint(
            "character_id", "version", name="uq_character_versions_character_version"
        ),
    )
    col.create_table(
        "encounter_characters",
        col.integer("encounter_id"),
        col.integer("character_id"),
        col.string("combatant_id", 100),
        col.reference("encounter_characters", "encounter_id", "encounters"),
        col.reference("encounter_characters", "character_id", "characters"),
        sa.UniqueConstraint(
            "encounter_id",
            "combatant_id",
            name="uq_encounter_characters_encounter_combatant",
        ),
    )
    op.create_index(
        "ix_encounter_characters_encounter_id", "encounter_characters", ["encounter_id"]
    )
    op.create_index(
        "ix_encounter_characters_character_id", "encounter_characters", ["character_id"]
    )
    col.create_table(
        "encounter_log",
        col.integer("encounter_id"),
        col.integer("seq"),
        col.string("kind", 20),
        col.json("entry"),
        col.moment(),
        col.reference("encounter_log", "encounter_id", "encounters"),
        sa.UniqueConstraint("encounter_id", "seq", name="uq_encounter_log_encounter_seq"),
    )
    col.create_table(
        "gm_secrets",
        col.string("kind", 20),
        sa.Column("hash", sa.Text(), nullable=False),
        col.moment(),
    )
    op.create_index("ix_gm_secrets_kind", "gm_secrets", ["kind"])
    _append_only_triggers()


def _append_only_triggers() -> None:
    """Make the database itself refuse UPDATE and DELETE on the append-only tables."""
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        op.execute(
            "CREATE FUNCTION conteur_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN RAISE EXCEPTION 'conteur: % is append-only', TG_TABLE_NAME; END; $$"
        )
        for table in APPEND_ONLY:
            op.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION conteur_append_only()"
            )
    elif dialect == "sqlite":
        for table in APPEND_ONLY:
            for action in ("UPDATE", "DELETE"):
                op.execute(
                    f"CREATE TRIGGER {table}_no_{action.lower()} BEFORE {action} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, 'conteur: {table} is append-only'); END"
                )


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    for table in APPEND_ONLY:
        if dialect == "postgresql":
            op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        elif dialect == "sqlite":
            for action in ("update", "delete"):
                op.execute(f"DROP TRIGGER IF EXISTS {table}_no_{action}")
    if dialect == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS conteur_append_only()")
    op.drop_index("ix_gm_secrets_kind", table_name="gm_secrets")
    op.drop_table("gm_secrets")
    op.drop_table("encounter_log")
    op.drop_index("ix_encounter_characters_character_id", table_name="encounter_characters")
    op.drop_index("ix_encounter_characters_encounter_id", table_name="encounter_characters")
    op.drop_table("encounter_characters")
    op.drop_table("character_versions")
    op.drop_index("ix_encounters_campaign_id", table_name="encounters")
    op.drop_table("encounters")
    op.drop_index("ix_characters_campaign_id", table_name="characters")
    op.drop_table("characters")
    op.drop_table("campaigns")
