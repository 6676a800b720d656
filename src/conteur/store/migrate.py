"""Applying the Alembic migrations shipped in ``conteur/store/migrations``.

``upgrade(engine)`` runs in one transaction that first takes a lock (SQLite:
``BEGIN IMMEDIATE``; PostgreSQL: an advisory lock), so two processes opening a
new database at once do not both create the tables. Opening a database that
is already up to date reads its revision and nothing else (Alembic itself is
not even imported), so processes start fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, inspect, text

from .db import WRITE_OPTION

if TYPE_CHECKING:
    from alembic.config import Config

SCRIPT_LOCATION = "conteur.store:migrations"
HEAD = "0004"
"""The latest revision in ``migrations/versions`` (a test checks it against the scripts)."""
ADVISORY_LOCK = 0x636F6E74  # "cont"


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration pointing at the shipped migrations (no ``alembic.ini`` needed)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str | None:
    """The latest revision shipped with this version of conteur, read from the scripts."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None for an empty database)."""
    with engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return None
        value = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        return str(value) if value is not None else None


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database up to ``revision`` (the latest by default); idempotent."""
    if revision in ("head", HEAD) and current_revision(engine) == HEAD:
        return
    from alembic import command

    with engine.connect() as conn:
        conn = conn.execution_options(**{WRITE_OPTION: True})
        with conn.begin():
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_LOCK})
            command.upgrade(alembic_config(conn), revision)
