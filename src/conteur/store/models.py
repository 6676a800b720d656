"""The tables (SQLAlchemy 2 typed ORM).

Two tables are append-only, and the database itself refuses an UPDATE or a
DELETE on them (triggers created by the first migration):

* ``encounter_log`` — an encounter *is* its log: one row per command or undo,
  numbered ``seq`` from 0 without gaps, unique per encounter;
* ``character_versions`` — every sheet or state a character has had, with why.

The other rows hold current values (a campaign's settings, a character's
current sheet and state, an encounter's status) and may be updated; every
change of a character also appends a version.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

JsonType = JSON().with_variant(JSONB(), "postgresql")
"""JSON everywhere, JSONB on PostgreSQL."""

APPEND_ONLY_TABLES = ("encounter_log", "character_versions")


def now() -> datetime:
    """The current time, in UTC."""
    return datetime.now(UTC)


class UtcDateTime(TypeDecorator[datetime]):
    """A moment stored with its time zone and always read back in UTC (SQLite keeps none)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    """Base of conteur's tables."""

    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JsonType, list[Any]: JsonType}

    id: Mapped[int] = mapped_column(Integer, primary_key=True, sort_order=-1)
    """Every table's key, a number the database gives (the first column)."""


class Campaign(Base):
    """A campaign: its game, option packs, table options, era and table settings."""

    __tablename__ = "campaigns"

    name: Mapped[str] = mapped_column(String(200))
    ruleset: Mapped[str] = mapped_column(String(40))
    packs: Mapped[list[Any]] = mapped_column(default=list)
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    era: Mapped[str | None] = mapped_column(String(40))
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict)
    privacy: Mapped[dict[str, Any]] = mapped_column(default=dict)
    """What the players see (``conteur.engine.visibility.Privacy``): only the choices made."""
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=now)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=now)


class Character(Base):
    """A character of a campaign: its current sheet and carried state, and its player token."""

    __tablename__ = "characters"
    __table_args__ = (UniqueConstraint("campaign_id", "slug", name="uq_characters_campaign_slug"),)

    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id"), index=True)
    slug: Mapped[str] = mapped_column(String(100))
    """The combatant id the character has in encounters (the sheet's ``id``)."""
    name: Mapped[str] = mapped_column(String(200))
    sheet: Mapped[dict[str, Any]]
    """The sheet as the user wrote it (French or English names), validated by the ruleset."""
    state: Mapped[dict[str, Any]]
    """What the character carries from fight to fight: health, Willpower, ammunition, counters."""
    version: Mapped[int] = mapped_column(Integer, default=1)
    """Number of the latest row in ``character_versions``."""
    token: Mapped[str] = mapped_column(String(100), unique=True)
    """The secret of the player's link (``/p/<token>``)."""
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=now)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=now)


class CharacterVersion(Base):
    """One sheet and state a character had (append-only)."""

    __tablename__ = "character_versions"
    __table_args__ = (
        UniqueConstraint("character_id", "version", name="uq_character_versions_character_version"),
    )

    character_id: Mapped[int] = mapped_column(ForeignKey("characters.id"))
    version: Mapped[int] = mapped_column(Integer)
    sheet: Mapped[dict[str, Any]]
    state: Mapped[dict[str, Any]]
    reason: Mapped[str] = mapped_column(String(200))
    encounter_id: Mapped[int | None] = mapped_column(ForeignKey("encounters.id"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=now)


class EncounterRow(Base):
    """An encounter: the scenario it started from and whether it is still open."""

    __tablename__ = "encounters"

    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    scenario: Mapped[dict[str, Any]]
    status: Mapped[str] = mapped_column(String(20), default="open")
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=now)
    closed_at: Mapped[datetime | None] = mapped_column(UtcDateTime())


class EncounterCharacter(Base):
    """Which character plays which combatant of an encounter."""

    __tablename__ = "encounter_characters"
    __table_args__ = (
        UniqueConstraint(
            "encounter_id", "combatant_id", name="uq_encounter_characters_encounter_combatant"
        ),
    )

    encounter_id: Mapped[int] = mapped_column(ForeignKey("encounters.id"), index=True)
    character_id: Mapped[int] = mapped_column(ForeignKey("characters.id"), index=True)
    combatant_id: Mapped[str] = mapped_column(String(100))


class LogRow(Base):
    """One entry of an encounter's log: a command with its events, or an undo (append-only),
    numbered ``seq`` from 0 without gaps."""

    __tablename__ = "encounter_log"
    __table_args__ = (
        UniqueConstraint("encounter_id", "seq", name="uq_encounter_log_encounter_seq"),
    )

    encounter_id: Mapped[int] = mapped_column(ForeignKey("encounters.id"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))
    entry: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=now)


class PendingAction(Base):
    """An action waiting for the table's dice: its command and the faces entered so far.

    At most one per encounter. It is not part of the log: the command runs (and the row
    goes, in the same transaction) once its last roll is in; ``base_seq`` is the last seq
    when it began, so a command that lands first makes it stale.
    """

    __tablename__ = "pending_actions"

    encounter_id: Mapped[int] = mapped_column(ForeignKey("encounters.id"), unique=True)
    command: Mapped[dict[str, Any]] = mapped_column()
    rolls: Mapped[list[Any]] = mapped_column(default=list)
    base_seq: Mapped[int] = mapped_column(Integer)
    step: Mapped[int] = mapped_column(Integer, default=0)
    """How many times faces were entered: a page naming an older step is refused."""
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=now)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=now)


class GmSecret(Base):
    """A hashed secret of the game master (a password or a token); the latest of a kind counts."""

    __tablename__ = "gm_secrets"

    kind: Mapped[str] = mapped_column(String(20))
    hash: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=now)
    used_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True, default=None)
    """When a token opened its session (a token opens one only); None: not used yet."""


Index("ix_gm_secrets_kind", GmSecret.kind)


class GmSession(Base):
    """A game master's session (a browser logged in): kept across restarts, revocable.

    Only the SHA-256 of the session's random id is stored (the id itself lives in the
    browser's cookie)."""

    __tablename__ = "gm_sessions"

    digest: Mapped[str] = mapped_column(String(64), unique=True)
    agent: Mapped[str] = mapped_column(String(200), default="")
    """The browser's ``User-Agent``, cut short: how the game master tells sessions apart."""
    address: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=now)
    seen_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=now)
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True, default=None)


class ServerKey(Base):
    """A key of the server itself (``signing``: what signs the session cookies and the CSRF
    tokens when ``CONTEUR_SECRET_KEY`` is unset), made once, so restarts keep them valid."""

    __tablename__ = "server_keys"

    purpose: Mapped[str] = mapped_column(String(20), unique=True)
    value: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=now)
