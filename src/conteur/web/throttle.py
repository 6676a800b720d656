"""Slowing down the game master's login attempts, per client address.

Each attempt costs a scrypt check (tens of milliseconds of a core): unchecked, a few
connections sending junk tokens slow the whole table down. After a failed attempt, the
next one from the same address waits a delay that doubles with each failure, up to a
cap of a few seconds; attempts arriving together wait their turn, one delay apart, and
those that would wait longer than the cap are refused at once, unchecked. The waits are
``asyncio.sleep`` (the event loop serves everyone else meanwhile), the check itself runs
in a worker thread (the caller's ``check``), and the game master is never locked out:
once the delay has passed, the right secret opens a session (and clears the record).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

BASE_SECONDS = 0.25
"""The wait after a first failure (then 0.5, 1, 2 s...)."""
CAP_SECONDS = 4.0
"""The longest wait, and the longest queue an address may have."""
FORGET_SECONDS = 900.0
"""A quiet address's failures are forgotten after this long."""
KEEP_ADDRESSES = 10_000


@dataclass
class _Record:
    failures: int
    ready: float
    """When the next attempt from the address may be checked (the clock's time)."""


class LoginThrottle:
    """Growing delays between failed login attempts, by client address."""

    def __init__(
        self,
        base: float = BASE_SECONDS,
        cap: float = CAP_SECONDS,
        *,
        forget: float = FORGET_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.base = base
        self.cap = cap
        self.forget = forget
        self.clock = clock
        self._records: dict[str, _Record] = {}

    def delay(self, failures: int) -> float:
        """The wait after ``failures`` failed attempts in a row."""
        if failures <= 0:
            return 0.0
        return min(self.cap, self.base * 2.0 ** min(failures - 1, 60))

    def failures(self, client: str) -> int:
        """The failed attempts in a row from ``client`` (still remembered)."""
        record = self._records.get(client)
        return record.failures if record else 0

    async def attempt(self, client: str, check: Callable[[], Awaitable[bool]]) -> bool | None:
        """Run ``check`` (the secret's) for ``client`` once its delay has passed: its answer,
        or None when the address already has a queue of attempts longer than the cap
        (refused unchecked: wait a few seconds)."""
        now = self.clock()
        record = self._records.get(client)
        if record is not None and now - record.ready > self.forget:
            del self._records[client]
            record = None
        if record is not None:
            start = max(now, record.ready)
            if start - now > self.cap:
                return None
            record.ready = start + self.delay(record.failures)  # the next one waits after this
            if start > now:
                await asyncio.sleep(start - now)
        if await check():
            self._records.pop(client, None)
            return True
        self._failed(client)
        return False

    def _failed(self, client: str) -> None:
        now = self.clock()
        record = self._records.get(client)
        if record is None:
            self._prune(now)
            record = self._records[client] = _Record(0, now)
        record.failures += 1
        record.ready = max(record.ready, now + self.delay(record.failures))

    def _prune(self, now: float) -> None:
        """Keep the records bounded: forget the quiet addresses, then the oldest."""
        if len(self._records) < KEEP_ADDRESSES:
            return
        for client, record in list(self._records.items()):
            if now - record.ready > self.forget:
                del self._records[client]
        while len(self._records) >= KEEP_ADDRESSES:
            del self._records[next(iter(self._records))]
