"""Campaigns, characters and their versions, encounters and their append-only log, GM secrets.

Revision ID: 0001
Revises:
Create Date: 2025-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_TYPE = sa.JSON().with_variant(JSONB(), "postgresql")
APPEND_ONLY = ("encounter_log", "character_versions")


def _when() -> sa.Column[object]:
    return sa.Column("created_at", sa.DateTime(timezone=True), nullable=False)


def upgrade() -> None:
    op.create_table(
        "campaigns",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("ruleset", sa.String(40), nullable=False),
        sa.Column("packs", JSON_TYPE, nullable=False),
        sa.Column("options", JSON_TYPE, nullable=False),
        sa.Column("era", sa.String(40), nullable=True),
        sa.Column("settings", JSON_TYPE, nullable=False),
        _when(),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_campaigns"),
    )
    op.create_table(
        "characters",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(100), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("sheet", JSON_TYPE, nullable=False),
        sa.Column("state", JSON_TYPE, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(100), nullable=False),
        _when(),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"], ["campaigns.id"], name="fk_characters_campaign_id_campaigns"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_characters"),
        sa.UniqueConstraint("campaign_id", "slug", name="uq_characters_campaign_slug"),
        sa.UniqueConstraint("token", name="uq_characters_token"),
    )
    op.create_index("ix_characters_campaign_id", "characters", ["campaign_id"])
    op.create_table(
        "encounters",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("scenario", JSON_TYPE, nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        _when(),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["campaign_id"], ["campaigns.id"], name="fk_encounters_campaign_id_campaigns"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_encounters"),
    )
    op.create_index("ix_encounters_campaign_id", "encounters", ["campaign_id"])
    op.create_table(
        "character_versions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("sheet", JSON_TYPE, nullable=False),
        sa.Column("state", JSON_TYPE, nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("encounter_id", sa.Integer(), nullable=True),
        _when(),
        sa.ForeignKeyConstraint(
            ["character_id"],
            ["characters.id"],
            name="fk_character_versions_character_id_characters",
        ),
        sa.ForeignKeyConstraint(
            ["encounter_id"],
            ["encounters.id"],
            name="fk_character_versions_encounter_id_encounters",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_character_versions"),
        sa.UniqueConstraint(
            "character_id", "version", name="uq_character_versions_character_version"
        ),
    )
    op.create_table(
        "encounter_characters",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("encounter_id", sa.Integer(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=False),
        sa.Column("combatant_id", sa.String(100), nullable=False),
        sa.ForeignKeyConstraint(
            ["encounter_id"],
            ["encounters.id"],
            name="fk_encounter_characters_encounter_id_encounters",
        ),
        sa.ForeignKeyConstraint(
            ["character_id"],
            ["characters.id"],
            name="fk_encounter_characters_character_id_characters",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_encounter_characters"),
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
    op.create_table(
        "encounter_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("encounter_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("entry", JSON_TYPE, nullable=False),
        _when(),
        sa.ForeignKeyConstraint(
            ["encounter_id"], ["encounters.id"], name="fk_encounter_log_encounter_id_encounters"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_encounter_log"),
        sa.UniqueConstraint("encounter_id", "seq", name="uq_encounter_log_encounter_seq"),
    )
    op.create_table(
        "gm_secrets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("hash", sa.Text(), nullable=False),
        _when(),
        sa.PrimaryKeyConstraint("id", name="pk_gm_secrets"),
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
