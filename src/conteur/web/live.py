"""Waking the live views: a command bumps its encounter's version; streams wait for a change.

Everything runs on the server's event loop (commands are awaited there), so a
stream reads the version, then waits, without missing a bump in between.

Commands written by another process: on PostgreSQL, the store announces every
change (``conteur.store.changes``) and ``listen_for_changes`` wakes this
process's streams as soon as the notification arrives. On SQLite (and on
PostgreSQL as a safety net) a stream also wakes every few seconds to look at
the database itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable

from conteur.store import Store, changes


def campaign_key(campaign_id: int) -> tuple[str, int]:
    """The key a campaign's streams wait on for its encounters to change (one opens, one
    closes): the table's screen and the players' pages follow the campaign's fight."""
    return ("campaign", campaign_id)


class Notifier:
    """Per-encounter (or per-campaign: ``campaign_key``) versions and the streams waiting on
    them."""

    def __init__(self) -> None:
        self._versions: dict[Hashable, int] = {}
        self._waiters: dict[Hashable, set[asyncio.Future[bool]]] = {}
        self.closed = False

    def version(self, encounter_id: Hashable) -> int:
        return self._versions.get(encounter_id, 0)

    def notify(self, encounter_id: Hashable) -> None:
        """A command changed this encounter: wake its streams (in the order they waited)."""
        self._versions[encounter_id] = self.version(encounter_id) + 1
        for waiter in self._waiters.pop(encounter_id, set()):
            if not waiter.done():
                waiter.set_result(True)

    def notify_all(self) -> None:
        """Something may have changed anywhere (a listener reconnected): wake every stream."""
        for encounter_id in list(self._waiters):
            self.notify(encounter_id)

    async def wait(self, encounter_id: Hashable, seen: int, timeout: float) -> bool:
        """Wait until the version passes ``seen`` (True) or ``timeout`` seconds (False).

        A bare future, woken directly by ``notify``: the stream runs on the next turn of
        the event loop (``asyncio.wait_for`` would add a task and a few turns).
        """
        if self.version(encounter_id) != seen or self.closed:
            return True
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[bool] = loop.create_future()
        self._waiters.setdefault(encounter_id, set()).add(waiter)

        def expire() -> None:
            if not waiter.done():
                waiter.set_result(False)

        timer = loop.call_later(timeout, expire)
        try:
            return await waiter
        finally:
            timer.cancel()
            self._waiters.get(encounter_id, set()).discard(waiter)

    def close(self) -> None:
        """The server stops: wake every stream so it ends."""
        self.closed = True
        for waiters in self._waiters.values():
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_result(True)
        self._waiters.clear()


def listen_for_changes(
    store: Store, notifier: Notifier, forget: Callable[[int | None], None]
) -> tuple[asyncio.Task[None], changes.ChangeListener] | None:
    """On PostgreSQL, a task (on the running loop) that wakes ``notifier``'s streams when
    another process adds to an encounter's log or closes it, and ``forget``s what it knew
    of a closed encounter (its status) or of every encounter (a campaign's settings), with
    the listener (its
    ``ready`` is set while it listens); None on SQLite."""
    if store.engine.dialect.name != "postgresql":
        return None

    def on_change(kind: str, ident: int) -> None:
        if kind == changes.ENCOUNTER:  # a new entry: the status and settings known still hold
            notifier.notify(ident)
        elif kind == changes.CLOSED:
            forget(ident)
            notifier.notify(ident)
        elif kind == changes.CAMPAIGN:
            forget(None)
        else:
            forget(None)
            notifier.notify_all()

    listener = changes.ChangeListener(store.engine.url, store.origin, on_change)
    task = asyncio.get_running_loop().create_task(listener.run(), name="conteur-changes")
    return task, listener
