"""The live streams (server-sent events) of the GM's page, the players' pages and the
table's screen: each update's bytes built once per audience (``update_message``) over a
snapshot built once per command (``latest``); a page that shows no fight waits for the
next one (``waiting``)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any

from fastapi import Request
from fastapi.responses import Response, StreamingResponse

from conteur.engine.visibility import Viewer
from conteur.i18n import ConteurError, Lang
from conteur.store import EncounterInfo

from .context import AppContext, call
from .live import campaign_key
from .panels import Snapshot

PING_SECONDS = 15.0
POLL_SECONDS = 2.0
MOVED = b"event: moved\ndata: {}\n\n"
"""What a table's or a player's stream says when the campaign's fight is another one now
(one opened, the one shown closed): the page loads the new one."""
EVENT_ID = re.compile(r"-?[0-9]{1,18}")

Pad = Callable[[], Awaitable[tuple[str, Callable[[], str]]]]
"""A stream's reading of the dice pad its page shows: the version, and its box's HTML."""


def _latest(ctx: AppContext, eid: int, lang: Lang, viewer: Viewer, fresh: bool) -> Snapshot | None:
    try:
        return ctx.panels.snapshot(eid, lang, viewer=viewer, fresh=fresh)
    except ConteurError:
        return None


async def latest(
    ctx: AppContext, eid: int, lang: Lang, viewer: Viewer, when: tuple[Any, ...]
) -> Snapshot | None:
    """The encounter's snapshot, built once for every stream of the same audience woken
    by the same command (``when`` is the notifier's version) or polling in the same
    period."""
    pending = ctx.pending
    key = (eid, lang, viewer, when)  # its audience is known once the encounter is read
    task = pending.get(key)
    if task is None:
        fresh = when[0] == "poll"  # woken by a command: its status and settings are known
        task = asyncio.get_running_loop().create_task(call(_latest, ctx, eid, lang, viewer, fresh))
        pending[key] = task
        while len(pending) > 256:
            pending.pop(next(iter(pending)))
    return await asyncio.shield(task)


def update_message(
    snap: Snapshot, seen_seq: int, audience: Hashable, panel: Callable[[Snapshot], str]
) -> tuple[bytes, bytes, bytes]:
    """The update a view of ``audience`` at ``seen_seq`` receives, encoded once for every
    such view: the bytes before the panel, the panel (slots still to fill), the bytes after.

    The JSON is the one ``json.dumps`` gives of ``{"seq", "entries", "panel", "log",
    "marks"}`` (same keys, order and separators)."""
    key = ("message", audience, seen_seq)
    parts = snap.messages.get(key)
    if parts is None:
        log, marks = snap.news(seen_seq)
        entries = json.dumps(snap.entries_since(seen_seq))
        number = snap.number  # the readers' own numbers: no gap tells of a hidden entry
        head = f'id: {number}\nevent: update\ndata: {{"seq": {number}, '
        head += f'"public": {json.dumps(snap.public)}, "entries": {entries}, "panel": '
        tail = f', "log": {json.dumps(log)}, "marks": {json.dumps(marks)}}}\n\n'
        parts = (head.encode(), json.dumps(panel(snap)).encode(), tail.encode())
        snap.messages[key] = parts
    return parts


@dataclass(frozen=True, kw_only=True)
class StreamView:
    """What one page's stream shows: its ``viewer``'s snapshot, its ``panel`` rendered from
    it, shared by the views of the same ``audience``; ``fill`` puts the view's own CSRF
    token and link into its panel's slots; the stream ends when ``alive`` says no (the GM's
    session revoked), and says ``moved`` then ends when ``follow`` says the page's fight is
    no longer the one to show; ``pad``: the dice pad's version and box, sent as a ``rolls``
    event (no id: the ``Last-Event-ID`` stays the log's seq) whenever the version changes,
    and once when the stream opens."""

    viewer: Viewer
    panel: Callable[[Snapshot], str]
    audience: Hashable
    fill: Callable[[bytes], bytes] | None = None
    alive: Callable[[], Awaitable[bool]] | None = None
    follow: Callable[[], Awaitable[bool]] | None = None
    pad: Pad | None = None


def stream(
    ctx: AppContext, request: Request, eid: int, since: int, limit: int, shows: StreamView
) -> Response:
    """A view's live stream (``StreamView``): each update the view may read, from ``since``
    (or the ``Last-Event-ID`` a reconnecting stream names); ``limit``: the updates after
    which it ends (0: none). Views of the same audience share each update's bytes."""
    viewer, panel, audience = shows.viewer, shows.panel, shows.audience
    fill, alive, follow, pad = shows.fill, shows.alive, shows.follow, shows.pad
    lang = ctx.lang_of(request)
    start = _event_id(request.headers.get("last-event-id", ""), since)
    loop = asyncio.get_running_loop()
    notifier = ctx.notifier

    async def events() -> AsyncIterator[bytes]:
        seen_seq = start if viewer.gm else None  # a player's page counts in its numbers
        last = b""  # the panel last sent, its seq taken out
        sent = 0
        woken = False  # the first read, and reads after a timeout, poll the database
        idle = 0.0
        shown_pad: str | None = None
        yield b"retry: 1000\n\n"
        while not notifier.closed:
            version = notifier.version(eid)
            # A poll in the same period shares its snapshot, unless a command came since.
            period = int(loop.time() / POLL_SECONDS)
            when = ("v", version) if woken else ("poll", period, version)
            snap = await latest(ctx, eid, lang, viewer, when)
            if snap is not None and seen_seq is None:
                seen_seq = snap.seq_of(start)
                if not snap.entries_since(seen_seq):
                    # Nothing new the page may read (the GM's notes, a hidden one's deeds
                    # since its entry): it shows this state, and no update tells more.
                    seen_seq = snap.seq
                    html = update_message(snap, seen_seq, audience, panel)[1]
                    last = html.replace(f'data-seq=\\"{snap.number}\\"'.encode(), b"")
            if seen_seq is None:
                seen_seq = start
            if snap is not None and snap.seq > seen_seq:
                head, html, tail = update_message(snap, seen_seq, audience, panel)
                shown = html.replace(f'data-seq=\\"{snap.number}\\"'.encode(), b"")
                if not viewer.gm and shown == last and not snap.entries_since(seen_seq):
                    # Nothing this view may see changed (a GM's note, a hidden one's
                    # deed): no update, which would tell that something happened.
                    seen_seq = snap.seq
                else:
                    seen_seq, last = snap.seq, shown
                    yield b"".join((head, fill(html) if fill else html, tail))
                    sent += 1
            elif snap is not None and not last and not viewer.gm:  # what the page shows
                html = update_message(snap, seen_seq, audience, panel)[1]
                last = html.replace(f'data-seq=\\"{snap.number}\\"'.encode(), b"")
            if follow is not None and await follow():
                yield MOVED
                return
            if pad is not None:
                pad_version, box = await pad()
                # After any change, the box whatever its version: a roll asked and
                # answered between two readings leaves the version this stream last read,
                # while the page shows the box its own command returned (it ignores a box
                # of the version it shows).
                if pad_version != shown_pad or woken:
                    shown_pad = pad_version
                    yield b"event: rolls\ndata: " + json.dumps(box()).encode() + b"\n\n"
                    sent += 1
            if limit and sent >= limit:  # (``limit``: the tests' streams end)
                return
            woken = await notifier.wait(eid, version, POLL_SECONDS)
            if alive is not None and not await alive():
                return
            if not woken:
                if await request.is_disconnected():
                    return
                idle += POLL_SECONDS
                if idle >= PING_SECONDS:  # a comment line keeps proxies from closing it
                    idle = 0.0
                    yield b": ping\n\n"

    return event_stream(events())


def waiting(
    ctx: AppContext, request: Request, campaign_id: int, follow: Callable[[], Awaitable[bool]]
) -> Response:
    """The stream of a page that shows no fight (or a closed one): it waits for the
    campaign's next one, says ``moved`` when ``follow`` sees it, and ends."""
    notifier = ctx.notifier

    async def events() -> AsyncIterator[bytes]:
        idle = 0.0
        yield b"retry: 1000\n\n"
        while not notifier.closed:
            version = notifier.version(campaign_key(campaign_id))
            if await follow():
                yield MOVED
                return
            if not await notifier.wait(campaign_key(campaign_id), version, POLL_SECONDS):
                if await request.is_disconnected():
                    return
                idle += POLL_SECONDS
                if idle >= PING_SECONDS:
                    idle = 0.0
                    yield b": ping\n\n"

    return event_stream(events())


def event_stream(events: AsyncIterator[bytes]) -> Response:
    return StreamingResponse(
        events,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _event_id(raw: str, default: int) -> int:
    """The seq a reconnecting stream's ``Last-Event-ID`` names, or ``default`` (the stream's
    ``since``) when the header is absent or not a plain seq (``--5``, ``abc``, 10**400...)."""
    raw = raw.strip()
    if not EVENT_ID.fullmatch(raw):
        return default
    return max(int(raw), -1)


def following(
    e: int,
    info: EncounterInfo | None,
    current: Callable[[], Awaitable[EncounterInfo | None]],
) -> Callable[[], Awaitable[bool]]:
    """A page's ``follow``: whether the fight to show (``current``) is no longer the one
    the page shows (``e``; 0: none; -1: the one open now, ``info``)."""
    shown = e if e >= 0 else (info.id if info is not None else 0)

    async def follow() -> bool:
        now = await current()
        return (now.id if now is not None else 0) != shown

    return follow


def cached_view(snap: Snapshot, key: Hashable, build: Callable[[], str]) -> str:
    """A view's panel rendered once per snapshot (``build``), for all the streams of its
    audience."""
    html = snap.views.get(key)
    if html is None:
        html = build()
        snap.views[key] = html
    return html
