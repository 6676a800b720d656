"""The dice pad at the table: the roll the waiting action asks for, the faces entered one
roll at a time (or rolled by the program), the action cancelled. The GM's pad's routes are
here; the players' (``/p/<token>/rolls``) are in ``routes.player``, over the same helpers."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from conteur.i18n import ConteurError, Lang
from conteur.i18n import t as msg_of
from conteur.store import EncounterInfo

from .. import rolls as table_rolls
from ..context import AppContext, Ctx, call, int_id
from ..streams import Pad

router = APIRouter()

_STEP = re.compile(r"[0-9]{1,9}")


def _step_of(values: dict[str, str]) -> int:
    """The step of the waiting action the pad showed (its ``step`` field)."""
    raw = values.get("step", "").strip()
    if not _STEP.fullmatch(raw):
        raise ConteurError("web.missing", field="step")
    return int(raw)


def faces_entered(
    ctx: AppContext, info: EncounterInfo, values: dict[str, str], who: str | None = None
) -> Callable[[], bool]:
    """The pad's form of faces (``faces``; ``auto``: the program rolls them) as the store's
    work; ``who``: the player entering them."""
    step = _step_of(values)
    raw = None if values.get("auto") else values.get("faces", "")

    def work() -> bool:
        return table_rolls.enter(ctx.store, info.id, raw, step=step, who=who)

    return work


async def rolls_view(
    ctx: AppContext,
    request: Request,
    info: EncounterInfo,
    *,
    me: str | None = None,
    gm: bool = True,
) -> table_rolls.RollsView | None:
    request.state.rolls_at = time.time()
    return await rolls_now(ctx, info, ctx.lang_of(request), me=me, gm=gm)


async def rolls_now(
    ctx: AppContext, info: EncounterInfo, lang: Lang, *, me: str | None = None, gm: bool = True
) -> table_rolls.RollsView | None:
    campaign = await ctx.campaign_or_404(info.campaign_id)
    return await call(
        table_rolls.view_of,
        ctx.store,
        info.id,
        lang,
        player_input=bool(campaign.settings.get("player_input")),
        players=info.characters,
        me=me,
        gm=gm,
    )


def rolls_box(
    rolls: table_rolls.RollsView | None,
    lang: Lang,
    url: str,
    csrf: str,
    status: int = 200,
    error: str | None = None,
    at: float = 0.0,
) -> dict[str, Any]:
    """What ``_rolls.html`` needs to show the waiting action's pad (filled). ``at``: when
    the pad was read (before reading it), so that a page shows no box older than the one
    it has: a stream's news read before a command's answer may come after it."""
    return {
        "rolls_at": f"{at:.6f}",
        "rolls": rolls,
        "rolls_url": url,
        "csrf": csrf,
        "rolls_error": error,
        "rolls_version": rolls.version if rolls else table_rolls.NONE_VERSION,
        "rolls_filled": True,
        "rolls_stale_text": msg_of("store.pending.stale", lang),
    }


def pad_of(
    ctx: AppContext,
    info: EncounterInfo,
    lang: Lang,
    url: str,
    csrf: str,
    *,
    me: str | None,
    gm: bool,
) -> Pad:
    """A stream's reading of the pad its page shows: the version, and its box's HTML."""

    async def read() -> tuple[str, Callable[[], str]]:
        at = time.time()
        rolls = await rolls_now(ctx, info, lang, me=me, gm=gm)
        version = rolls.version if rolls else table_rolls.NONE_VERSION
        return version, lambda: ctx.render_fragment(
            "_rolls.html", lang, **rolls_box(rolls, lang, url, csrf, at=at)
        )

    return read


def rolls_response(
    ctx: AppContext,
    request: Request,
    rolls: table_rolls.RollsView | None,
    url: str,
    csrf: str,
    status: int = 200,
    error: str | None = None,
) -> Response:
    since = request.query_params.get("v")
    at = getattr(request.state, "rolls_at", 0.0)
    box = rolls_box(rolls, ctx.lang_of(request), url, csrf, status, error, at=at)
    if since is not None and since == box["rolls_version"] and status == 200 and not error:
        return Response(status_code=204)
    return ctx.render(request, "_rolls.html", status, **box)


async def rolls_action(
    ctx: AppContext,
    request: Request,
    info: EncounterInfo,
    url: str,
    csrf: str,
    work: Callable[[], object],
    *,
    me: str | None = None,
    gm: bool = True,
) -> Response:
    error: str | None = None
    status = 200
    try:
        await call(work)
    except ConteurError as exc:
        error, status = exc.message(ctx.lang_of(request)), 422
        if exc.key in ("store.pending.moved", "store.pending.stale"):
            status = 409
            ctx.notifier.notify(info.id)  # a stale action was dropped: the pads show it
    else:
        ctx.notifier.notify(info.id)
    rolls = await rolls_view(ctx, request, info, me=me, gm=gm)
    return rolls_response(ctx, request, rolls, url, csrf, status, error)


@router.get("/e/{eid}/rolls", response_class=HTMLResponse)
async def rolls_get(ctx: Ctx, request: Request, eid: str) -> Response:
    sid = await ctx.gm_session(request)
    info = await ctx.encounter_or_404(int_id(eid))
    rolls = await rolls_view(ctx, request, info)
    return rolls_response(ctx, request, rolls, f"/e/{info.id}/rolls", ctx.csrf_for(sid))


@router.post("/e/{eid}/rolls/faces", response_class=HTMLResponse)
async def rolls_faces(ctx: Ctx, request: Request, eid: str) -> Response:
    sid, info, values = await ctx.gm_encounter(request, eid)
    work = faces_entered(ctx, info, values)
    return await rolls_action(ctx, request, info, f"/e/{info.id}/rolls", ctx.csrf_for(sid), work)


@router.post("/e/{eid}/rolls/cancel", response_class=HTMLResponse)
async def rolls_cancel(ctx: Ctx, request: Request, eid: str) -> Response:
    sid, info, _ = await ctx.gm_encounter(request, eid)
    return await rolls_action(
        ctx,
        request,
        info,
        f"/e/{info.id}/rolls",
        ctx.csrf_for(sid),
        lambda: table_rolls.cancel(ctx.store, info.id),
    )
