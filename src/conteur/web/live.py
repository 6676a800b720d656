"""Waking the live views: a command bumps its encounter's version; streams wait for a change.

Everything runs on the server's event loop (commands are awaited there), so a
stream reads the version, then waits, without missing a bump in between. A
stream also wakes every few seconds to look at the database itself, so a
command written by another process reaches it too.
"""

from __future__ import annotations

import asyncio


class Notifier:
    """Per-encounter versions and the streams waiting on them."""

    def __init__(self) -> None:
        self._versions: dict[int, int] = {}
        self._waiters: dict[int, set[asyncio.Event]] = {}
        self.closed = False

    def version(self, encounter_id: int) -> int:
        return self._versions.get(encounter_id, 0)

    def notify(self, encounter_id: int) -> None:
        """A command changed this encounter: wake its streams."""
        self._versions[encounter_id] = self.version(encounter_id) + 1
        for event in self._waiters.pop(encounter_id, set()):
            event.set()

    async def wait(self, encounter_id: int, seen: int, timeout: float) -> bool:
        """Wait until the version passes ``seen`` (True) or ``timeout`` seconds (False)."""
        if self.version(encounter_id) != seen or self.closed:
            return True
        event = asyncio.Event()
        self._waiters.setdefault(encounter_id, set()).add(event)
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            return False
        finally:
            self._waiters.get(encounter_id, set()).discard(event)
        return True

    def close(self) -> None:
        """The server stops: wake every stream so it ends."""
        self.closed = True
        for events in self._waiters.values():
            for event in events:
                event.set()
        self._waiters.clear()
