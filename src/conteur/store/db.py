"""Where the database is and how to connect to it.

SQLite by default, in the user's data directory (``platformdirs``;
``CONTEUR_DATA_DIR`` names another folder), in WAL mode with foreign keys on;
any PostgreSQL server when ``CONTEUR_DATABASE_URL`` is set
(``postgresql://user:password@host:port/name``, driven by psycopg 3).

SQLite transactions that will write start with ``BEGIN IMMEDIATE`` (they take
the write lock before reading, so two writers wait for each other instead of
failing on a stale read); read-only ones start with a plain ``BEGIN``.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

from sqlalchemy import URL, Engine, create_engine, event, make_url
from sqlalchemy.exc import ArgumentError

from conteur.i18n import ConteurError, Msg, os_reason

DB_FILE = "conteur.db"
WRITE_OPTION = "conteur_write"
"""Execution option marking a connection whose transaction will write (``BEGIN IMMEDIATE``)."""
BUSY_TIMEOUT_MS = 30_000
"""How long a SQLite writer waits for another one before giving up."""


DATA_DIR_ENV = "CONTEUR_DATA_DIR"


def data_dir() -> Path:
    """The folder of conteur's own files: ``CONTEUR_DATA_DIR``, else the user's data directory."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("conteur", appauthor=False))


def database_url() -> str:
    """``CONTEUR_DATABASE_URL`` when set, else the SQLite file in ``data_dir()``."""
    url = os.environ.get("CONTEUR_DATABASE_URL")
    if url:
        return url
    return f"sqlite:///{data_dir() / DB_FILE}"


def normalize_url(url: str | URL) -> URL:
    """``url`` with the driver conteur uses (psycopg 3 for PostgreSQL); ConteurError if unusable."""
    try:
        parsed = make_url(url) if isinstance(url, str) else url
    except ArgumentError:
        raise ConteurError("store.url.bad", url=str(url)) from None
    backend = parsed.get_backend_name()
    if backend == "postgresql":
        if parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+psycopg")
    elif backend != "sqlite":
        raise ConteurError("store.url.backend", backend=backend)
    return parsed


def make_engine(url: str | URL, **kwargs: Any) -> Engine:
    """An engine for ``url`` set up for conteur (SQLite: WAL, foreign keys, immediate writes)."""
    parsed = normalize_url(url)
    if parsed.get_backend_name() == "postgresql":
        kwargs.setdefault("pool_pre_ping", True)
        return create_engine(parsed, **kwargs)
    database = parsed.database
    if database and database != ":memory:" and not database.startswith("file:"):
        folder = Path(database).expanduser().parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # the folder is named, and why in words where they are known
            words = {
                errno.ENOENT: "store.folder.missing",
                errno.EACCES: "store.folder.denied",
                errno.EROFS: "store.folder.read_only",
                errno.ENOTDIR: "store.folder.not_folder",
                errno.EEXIST: "store.folder.not_folder",
            }
            why: Any = Msg(words[exc.errno]) if exc.errno in words else exc.strerror or str(exc)
            raise ConteurError(
                "store.folder.unusable", folder=str(folder), variable=DATA_DIR_ENV, reason=why
            ) from None
    engine = create_engine(parsed, **kwargs)
    _setup_sqlite(engine)
    return engine


def _setup_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event below issue BEGIN itself (pysqlite would
        # otherwise begin lazily, after the first read).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA foreign_keys = ON")
            cursor.execute("PRAGMA synchronous = FULL")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        write = connection.get_execution_options().get(WRITE_OPTION, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def display_url(url: str | URL) -> str:
    """The URL with its password hidden, for messages."""
    try:
        return normalize_url(url).render_as_string(hide_password=True)
    except ConteurError:
        return str(url)


_DRIVER_REASONS = (
    ("connection refused", "store.why.refused"),
    ("password authentication failed", "store.why.password"),
    ("no password supplied", "store.why.password"),
    ("does not exist", "store.why.no_database"),
    ("could not translate host name", "store.why.host"),
    ("name or service not known", "store.why.host"),
    ("nodename nor servname", "store.why.host"),
    ("timeout", "store.why.timeout"),
    ("timed out", "store.why.timeout"),
    ("unable to open database file", "store.why.file"),
    ("readonly database", "store.why.read_only"),
    ("file is not a database", "store.why.not_database"),
)


def unreachable(target: str | URL, exc: BaseException) -> ConteurError:
    """``store.unreachable`` for ``exc``, raised opening or upgrading the database at
    ``target``: the URL without its password, and why in the reader's words when the
    driver's message is a common one (server down, password refused, no such database or
    host, a file that is no database); else the driver's own first line — never the
    wrapper's ``(psycopg.OperationalError) …`` and its link."""
    if isinstance(exc, OSError):
        reason: Any = os_reason(exc)
    else:
        driver = str(getattr(exc, "orig", None) or exc).strip()
        lowered = driver.lower()
        found = next((key for text, key in _DRIVER_REASONS if text in lowered), None)
        reason = Msg(found) if found else (driver.splitlines() or [""])[0].strip()
    return ConteurError("store.unreachable", url=display_url(target), reason=reason)
