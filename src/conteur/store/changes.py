"""Telling other processes on the same PostgreSQL database that something changed.

Every write that live views care about (a log entry, an encounter closed, a
campaign's settings) sends, in its own transaction, a PostgreSQL notification
(``pg_notify``): it is delivered when the transaction commits, and never if it
rolls back. A server process listens (``ChangeListener``, one connection of
its own doing ``LISTEN``) and wakes its live streams as soon as the
notification arrives, whichever process — another server process, a script —
made the change.

The channel is ``conteur_`` and a hash of the database and the schema the
store works in, so two stores on one server (one per schema, as the tests
make them) do not hear each other. The payload is ``<kind>:<id>:<origin>``:
``e`` for an entry in an encounter's log, ``x`` for an encounter closed, ``c``
for a campaign's settings; ``origin`` is the writing
store's own random id, so a process ignores what it said itself (it woke its
own streams already).

SQLite has no such thing: a server process learns of another process's
writes when its streams look at the database (every few seconds).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import URL, text
from sqlalchemy.orm import Session

CHANNEL_SQL = "'conteur_' || md5(current_database() || '.' || coalesce(current_schema(), ''))"
"""The channel's name, computed by the server from the connection's database and schema."""
ANNOUNCE = text(f"SELECT pg_notify({CHANNEL_SQL}, :payload)")
ENCOUNTER = "e"
"""A new entry in an encounter's log."""
CLOSED = "x"
"""An encounter closed (its status changed)."""
CAMPAIGN = "c"
"""A campaign's settings changed."""
EVERYTHING = "*"
"""What a listener reports after (re)connecting: notifications may have been missed."""
RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)

log = logging.getLogger("conteur.store.changes")


@dataclass(frozen=True)
class Change:
    """One notification: what changed (``kind``, ``ident``) and which store said so."""

    kind: str
    ident: int
    origin: str


def announce(session: Session, kind: str, ident: int, origin: str) -> None:
    """Notify the other processes, when ``session``'s transaction commits (PostgreSQL only)."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(ANNOUNCE, {"payload": f"{kind}:{ident}:{origin}"})


def parse(payload: str) -> Change | None:
    """The change a payload describes (None for one conteur did not write)."""
    kind, _, rest = payload.partition(":")
    ident, _, origin = rest.partition(":")
    if kind not in (ENCOUNTER, CLOSED, CAMPAIGN) or not ident.isdigit() or not origin:
        return None
    return Change(kind, int(ident), origin)


def conninfo(url: URL) -> str:
    """The libpq connection string of a SQLAlchemy PostgreSQL URL (driver name dropped)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class ChangeListener:
    """Listens on the store's channel and calls ``on_change`` on the event loop, for each
    change another store announced; reconnects (and reports ``EVERYTHING``) after a loss."""

    def __init__(self, url: URL, origin: str, on_change: Callable[[str, int], None]) -> None:
        self.url = url
        self.origin = origin
        self.on_change = on_change
        self.ready = asyncio.Event()
        """Set while listening (tests and the server wait for it before relying on it)."""
        self.channel: str | None = None

    async def run(self) -> None:
        """Listen until cancelled."""
        import psycopg
        from psycopg import sql

        failures = 0
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    conninfo(self.url), autocommit=True
                ) as conn:
                    cursor = await conn.execute(f"SELECT {CHANNEL_SQL}")
                    row = await cursor.fetchone()
                    assert row is not None
                    self.channel = str(row[0])
                    await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    if failures:  # what was said while deaf is lost: every view looks again
                        self.on_change(EVERYTHING, 0)
                    failures = 0
                    self.ready.set()
                    async for notify in conn.notifies():
                        change = parse(notify.payload)
                        if change is not None and change.origin != self.origin:
                            self.on_change(change.kind, change.ident)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the server went away, or never answered
                self.ready.clear()
                delay = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
                failures += 1
                log.warning("conteur: listening for changes failed (%s); again in %ss", exc, delay)
                await asyncio.sleep(delay)
