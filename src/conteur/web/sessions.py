"""The game master's sessions: stored, so they survive a restart, and revocable.

A session's cookie is ``<nonce>.<mac>``: a random id and its HMAC under the server's
signing key (``CONTEUR_SECRET_KEY``, else the key the database keeps,
``Store.signing_key``). The MAC turns forged cookies away without a database read; the
database then says whether the session is still open (only the SHA-256 of the nonce is
stored, beside the browser's ``User-Agent`` and address, for the settings page's list).
A session expires after ``idle`` seconds unseen (``CONTEUR_SESSION_IDLE``, in hours, default
``IDLE_HOURS``; 0 keeps sessions until revoked): the next request finds it revoked.
The game master's « Se déconnecter » / "Log out" revokes the session at once.
The answer is kept a few seconds per process (``CACHE_SECONDS``), so a page's requests
cost one read at most; a revocation is immediate in the process that made it and reaches
the others within those seconds, open live streams included (they ask again as they
poll).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import time
from collections.abc import Callable
from datetime import datetime

from babel.dates import format_datetime
from starlette.concurrency import run_in_threadpool

from conteur.i18n import Lang
from conteur.store import Store

CACHE_SECONDS = 5.0
"""How long a process trusts its last answer about a session."""
KEEP_ANSWERS = 1000
IDLE_HOURS = 12.0
"""How long a session may stay unseen before it expires, by default (hours)."""
IDLE_VARIABLE = "CONTEUR_SESSION_IDLE"


def idle_seconds(environ: dict[str, str] | None = None) -> float | None:
    """The idle time after which a session expires: ``CONTEUR_SESSION_IDLE`` hours (a number;
    0: never), else ``IDLE_HOURS``. ConteurError naming the variable when it is no number."""
    from conteur.i18n import ConteurError

    raw = (environ if environ is not None else dict(os.environ)).get(IDLE_VARIABLE, "").strip()
    if not raw:
        return IDLE_HOURS * 3600
    try:
        hours = float(raw.replace(",", "."))
    except ValueError:
        raise ConteurError("web.session_idle", name=IDLE_VARIABLE, value=raw) from None
    if hours != hours or hours < 0 or hours == float("inf"):
        raise ConteurError("web.session_idle", name=IDLE_VARIABLE, value=raw)
    return hours * 3600 if hours > 0 else None


class GmSessions:
    """Opening, checking and revoking the game master's sessions."""

    def __init__(
        self,
        store: Store,
        key: bytes,
        *,
        clock: Callable[[], float] = time.monotonic,
        idle: float | None = IDLE_HOURS * 3600,
    ) -> None:
        self.store = store
        self.key = key
        self.clock = clock
        self.idle = idle
        """Seconds unseen after which a session expires (None: never)."""
        self._answers: dict[str, tuple[int | None, float]] = {}

    def mac(self, subject: str) -> str:
        """The HMAC of ``subject`` under the signing key (hex)."""
        return hmac.new(self.key, subject.encode("utf-8"), hashlib.sha256).hexdigest()

    async def open(self, *, agent: str, address: str) -> str:
        """A new session, stored; its cookie's value."""
        nonce = secrets.token_urlsafe(24)
        await run_in_threadpool(self.store.open_gm_session, nonce, agent=agent, address=address)
        return f"{nonce}.{self.mac('session:' + nonce)}"

    def signed(self, cookie: str) -> str | None:
        """The nonce of a well-signed cookie, else None (forged, malformed, another key)."""
        nonce, _, mac = cookie.partition(".")
        expected = self.mac("session:" + nonce).encode()
        if not nonce or not hmac.compare_digest(mac.encode("utf-8", "replace"), expected):
            return None
        return nonce

    async def check(self, cookie: str) -> int | None:
        """The stored id of the open session ``cookie`` carries, else None."""
        nonce = self.signed(cookie)
        if nonce is None:
            return None
        now = self.clock()
        known = self._answers.get(nonce)
        if known is not None and now - known[1] < CACHE_SECONDS:
            return known[0]
        found: int | None = await run_in_threadpool(
            lambda: self.store.gm_session_id(nonce, idle=self.idle)
        )
        if len(self._answers) >= KEEP_ANSWERS:
            self._answers.clear()
        self._answers[nonce] = (found, now)
        return found

    async def revoke(self, session_id: int) -> bool:
        """Close a session for good (False: it was not open)."""
        done: bool = await run_in_threadpool(self.store.revoke_gm_session, session_id)
        self._answers.clear()  # this process forgets at once; the others within seconds
        return done


def format_moment(moment: datetime, lang: Lang) -> str:
    """A moment in the server's time zone, the reader's way (« 1 déc. 2026, 17:42 »)."""
    return str(format_datetime(moment.astimezone(), "medium", locale=lang))


_BROWSERS = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("Firefox/", "Firefox"),
    ("Chrome/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Safari/", "Safari"),
)
_SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
)


def describe_agent(agent: str) -> str:
    """A ``User-Agent`` as a browser and a system (« Chrome · Android »), so the game master
    tells sessions apart; the raw text, cut short, when neither is recognised."""
    browser = next((name for mark, name in _BROWSERS if mark in agent), "")
    system = next((name for mark, name in _SYSTEMS if mark in agent), "")
    if "HeadlessChrome/" in agent:
        browser = "Chrome"
    shown = " · ".join(part for part in (browser, system) if part)
    return shown or re.sub(r"\s+", " ", agent).strip()[:60]
