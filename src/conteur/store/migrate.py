"""Applying the Alembic migrations shipped in ``conteur/store/migrations``.

``upgrade(engine)`` runs in one transaction that first takes a lock (SQLite:
``BEGIN IMMEDIATE``; PostgreSQL: an advisory lock), so two processes opening a
new database at once do not both create the tables.
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, text

from .db import WRITE_OPTION

SCRIPT_LOCATION = "conteur.store:migrations"
ADVISORY_LOCK = 0x636F6E74  # "cont"


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration pointing at the shipped migrations (no ``alembic.ini`` needed)."""
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str | None:
    """The latest revision shipped with this version of conteur."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None for an empty database)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database up to ``revision`` (the latest by default); idempotent."""
    if revision == "head" and current_revision(engine) == head_revision():
        return
    with engine.connect() as conn:
        conn = conn.execution_options(**{WRITE_OPTION: True})
        with conn.begin():
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_LOCK})
            command.upgrade(alembic_config(conn), revision)
