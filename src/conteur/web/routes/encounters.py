"""The encounter, the GM's side: a fight started from the campaign page, its page and
panel, the commands (forms, script lines, undo and redo, a combatant joining, a secret
shown, the pad's action begun), its closing, its live stream."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from conteur.dice import TypedDice
from conteur.engine import Encounter
from conteur.engine.commands import Command
from conteur.engine.hidden import parse_line
from conteur.engine.npcs import Entry
from conteur.engine.registry import get_ruleset
from conteur.engine.shown import SHOW
from conteur.engine.visibility import GM
from conteur.i18n import ConteurError
from conteur.store import EncounterInfo, Participant

from .. import rolls as table_rolls
from .. import view
from ..context import AppContext, Ctx, call, execute, form_command, int_id
from ..panels import LOG_SLOT, Snapshot
from ..streams import EVENT_ID, StreamView, stream
from .campaigns import NPC_ROWS, campaign_view, gm_campaign
from .rolls import pad_of

router = APIRouter()


@router.post("/c/{cid}/encounters")
async def start_encounter(ctx: Ctx, request: Request, cid: str) -> Response:
    sid, campaign = await gm_campaign(ctx, request, cid)
    form = await request.form()
    values = await ctx.form_of(request, sid)
    chosen = [str(v) for v in form.getlist("characters")]
    characters = {str(c.id): c for c in await call(ctx.store.list_characters, campaign.id)}
    participants = []
    for raw in chosen:
        char = characters.get(raw)
        if char is None:
            raise ConteurError("web.bad_choice", field="characters", value=raw)
        side = values.get(f"side_{raw}", "").strip() or None
        extra = {"hidden": True} if values.get(f"hidden_{raw}") else {}
        participants.append(Participant(char.id, side=side, extra=extra))
    ruleset = get_ruleset(campaign.ruleset)
    lang = ctx.lang_of(request)
    npcs: list[dict[str, Any]] = []
    try:  # a refused NPC row: said on the page, the rows kept
        for row in range(1, NPC_ROWS + 1):
            prefix = f"npc{row}_"
            mine = {k[len(prefix) :]: v for k, v in values.items() if k.startswith(prefix)}
            if mine.get("who", "") == "":
                continue
            entry = view.npc_entry(ruleset, mine, lang, campaign.era)
            taken = {str(n.get("id")) for n in npcs} | {c.slug for c in characters.values()}
            base, number = str(entry.get("id") or "npc"), 1
            while str(entry.get("id")) in taken:  # two thugs: thug, thug-2
                number += 1
                entry["id"] = f"{base}-{number}"
            npcs.append(entry)
    except ConteurError as error:
        return await campaign_view(ctx, request, campaign, 422, builder_error=error.message(lang))
    if not participants and not npcs:
        raise ConteurError("web.no_participant")
    info = await call(
        ctx.store.start_encounter, campaign.id, values.get("name", ""), participants, npcs=npcs
    )
    await ctx.follow_campaign(campaign.id)
    return RedirectResponse(f"/e/{info.id}", status_code=303)


def gm_context(
    ctx: AppContext, snap: Snapshot, sid: str, *, streamed: bool = False, **extra: Any
) -> dict[str, Any]:
    csrf = ctx.csrf_for(sid)
    return {
        "info": snap.info,
        "seq": snap.seq,
        "csrf": csrf,
        "roster": snap.roster,
        "names": snap.names,
        "sit": snap.sit,
        "forms_html": snap.forms_for("turn", csrf),
        "tools_html": snap.forms_for("tools", csrf),
        "current_html": snap.forms_for("current", csrf),
        "turn_html": snap.turn_html,
        "log_html": LOG_SLOT if streamed else snap.log_html,
        "odds": snap.odds,
        "odds_kinds": snap.all_kinds(),
        "current": snap.current,
        "hidden": snap.hidden,
        "redo": snap.redo,
        "report": snap.report,
        "joining": snap.joining,
        "battle_map": snap.battle_map,
        **extra,
    }


async def gm_panel(
    ctx: AppContext,
    request: Request,
    eid: int,
    sid: str,
    info: EncounterInfo | None = None,
    **extra: Any,
) -> dict[str, Any]:
    lang = ctx.lang_of(request)
    snap = await ctx.snapshot_or_404(eid, lang, viewer=GM, info=info)
    if snap.joining is not None:  # the campaign's characters as they are now
        extra.setdefault("joining", await call(ctx.panels.joining, eid, lang))
    return gm_context(ctx, snap, sid, **extra)


@router.get("/e/{eid}", response_class=HTMLResponse)
async def encounter_page(ctx: Ctx, request: Request, eid: str) -> Response:
    sid = await ctx.gm_session(request)
    context = await gm_panel(ctx, request, int_id(eid), sid)
    return ctx.render(request, "encounter.html", **context)


@router.get("/e/{eid}/panel", response_class=HTMLResponse)
async def encounter_panel(ctx: Ctx, request: Request, eid: str) -> Response:
    sid = await ctx.gm_session(request)
    context = await gm_panel(ctx, request, int_id(eid), sid)
    return ctx.render(request, "_gm_panel.html", **context)


async def after_command(
    ctx: AppContext,
    request: Request,
    info: EncounterInfo,
    sid: str,
    action: Callable[[], object],
) -> Response:
    """Run ``action`` (a store call); the refreshed panel, or the panel and the refusal."""
    lang = ctx.lang_of(request)
    try:
        await call(action)
    except ConteurError as error:
        context = await gm_panel(
            ctx, request, info.id, sid, info, message=error.message(lang), kind="error"
        )
        moved = error.key in ("store.encounter.moved", "store.encounter.moved_redo")
        status = 409 if moved else 422  # and the fresh state
        return ctx.render(request, "_gm_panel.html", status, **context)
    ctx.notifier.notify(info.id)
    await asyncio.sleep(0)  # the woken streams go first
    woken = ("v", ctx.notifier.version(info.id))
    building = [t for k, t in ctx.pending.items() if k[0] == info.id and k[3] == woken]
    if building:  # their snapshot before this answer's (both want the store's lock)
        await asyncio.wait(building)
    if request.headers.get("hx-request"):
        context = await gm_panel(ctx, request, info.id, sid, info)
        return ctx.render(request, "_gm_panel.html", **context)
    return RedirectResponse(f"/e/{info.id}", status_code=303)


def seen_seq(values: dict[str, str]) -> int:
    """The seq the page showed (its ``seq`` field), which an undo must name: a stale tab's
    undo is refused rather than retracting what someone else just did."""
    raw = values.get("seq", "").strip()
    if not EVENT_ID.fullmatch(raw):
        raise ConteurError("web.missing", field="seq")
    return int(raw)


@router.post("/e/{eid}/command")
async def encounter_command(ctx: Ctx, request: Request, eid: str) -> Response:
    sid, info, values = await ctx.gm_encounter(request, eid)

    def action() -> object:
        command = form_command(ctx.store, info.id, values)
        return execute(ctx.store, info.id, command, values)

    return await after_command(ctx, request, info, sid, action)


@router.post("/e/{eid}/rolls")
async def rolls_begin(ctx: Ctx, request: Request, eid: str) -> Response:
    """Start the action of a command form with the table's dice, one roll at a time."""
    sid, info, values = await ctx.gm_encounter(request, eid)

    def action() -> object:
        command = form_command(ctx.store, info.id, values)
        return table_rolls.begin(ctx.store, info.id, command)

    return await after_command(ctx, request, info, sid, action)


@router.post("/e/{eid}/script")
async def encounter_script(ctx: Ctx, request: Request, eid: str) -> Response:
    sid, info, values = await ctx.gm_encounter(request, eid)

    def action() -> object:
        line = values.get("line", "").strip()
        if not line:
            raise ConteurError("web.missing", field="line")
        if len(line) > 1000:
            raise ConteurError("web.too_long", field="line")
        lang = ctx.lang_of(request)
        command = ctx.store.read_encounter(info.id, lambda enc: parse_line(enc, line, lang))
        if command.type == "undo":
            return ctx.store.undo(info.id, seen=seen_seq(values))
        return execute(ctx.store, info.id, command, values)

    return await after_command(ctx, request, info, sid, action)


async def seen_action(
    ctx: AppContext, request: Request, eid: str, act: Callable[[int, int], object]
) -> Response:
    """An undo or a redo: ``act(encounter id, the seq the page showed)``."""
    sid, info, values = await ctx.gm_encounter(request, eid)
    return await after_command(ctx, request, info, sid, lambda: act(info.id, seen_seq(values)))


@router.post("/e/{eid}/undo")
async def encounter_undo(ctx: Ctx, request: Request, eid: str) -> Response:
    return await seen_action(ctx, request, eid, lambda e, seen: ctx.store.undo(e, seen=seen))


@router.post("/e/{eid}/redo")
async def encounter_redo(ctx: Ctx, request: Request, eid: str) -> Response:
    return await seen_action(ctx, request, eid, lambda e, seen: ctx.store.redo(e, seen=seen))


@router.post("/e/{eid}/join")
async def encounter_join(ctx: Ctx, request: Request, eid: str) -> Response:
    sid, info, values = await ctx.gm_encounter(request, eid)
    hidden = view.checked(values.get("hidden"))

    def action() -> object:
        who = values.get("who", "")
        side = values.get("side", "").strip() or None
        if who.startswith("c:") and who[2:].isdigit():
            extra = {"hidden": True} if hidden else {}
            joining = Participant(character_id=int(who[2:]), side=side, extra=extra)
            return ctx.store.add_combatant(info.id, participant=joining)
        lang = ctx.lang_of(request)

        def read(enc: Encounter) -> Entry:  # under the store's lock: the live state changes
            era = info.scenario.get("era")
            entry = view.npc_entry(enc.ruleset, values, lang, None if era is None else str(era))
            if "side" not in entry:  # an NPC with no side typed: the opponents'
                entry["side"] = view.npc_side(enc, frozenset(info.characters))
            return entry

        entry = ctx.store.read_encounter(info.id, read)
        if hidden:
            entry["hidden"] = True
        return ctx.store.add_combatant(info.id, npc=entry)

    return await after_command(ctx, request, info, sid, action)


@router.post("/e/{eid}/show")
async def encounter_show(ctx: Ctx, request: Request, eid: str) -> Response:
    """The GM shows the players a secret entry of his (``engine.shown``): logged, undone
    as any other command; the players' pages read it at once, live."""
    sid, info, values = await ctx.gm_encounter(request, eid)
    raw = values.get("seq", "").strip()
    if not raw.isdigit() or len(raw) > 12:
        raise ConteurError("engine.show.which", seq=raw)
    command = Command(SHOW, None, {"seq": int(raw)})

    def action() -> object:
        return ctx.store.execute(info.id, command, TypedDice(""))

    return await after_command(ctx, request, info, sid, action)


@router.post("/e/{eid}/close")
async def encounter_close(ctx: Ctx, request: Request, eid: str) -> Response:
    _, info, _ = await ctx.gm_encounter(request, eid)
    await call(ctx.store.close_encounter, info.id)
    ctx.panels.forget(info.id)
    ctx.notifier.notify(info.id)
    await ctx.follow_campaign(info.campaign_id)
    return RedirectResponse(f"/c/{info.campaign_id}", status_code=303)


@router.get("/e/{eid}/stream")
async def encounter_stream(
    ctx: Ctx, request: Request, eid: str, since: int = -1, limit: int = 0, pad: int = 0
) -> Response:
    sid = await ctx.gm_session(request)
    info = await ctx.encounter_or_404(int_id(eid))
    lang = ctx.lang_of(request)
    url = f"/e/{info.id}/rolls"

    def panel(snap: Snapshot) -> str:
        context = gm_context(ctx, snap, sid, streamed=True)
        return ctx.render_fragment("_gm_panel.html", lang, **context)

    async def alive() -> bool:
        return await ctx.sessions.check(sid) is not None

    shows = StreamView(
        viewer=GM,
        panel=panel,
        audience=("gm", sid),
        alive=alive,
        pad=pad_of(ctx, info, lang, url, ctx.csrf_for(sid), me=None, gm=True) if pad else None,
    )
    return stream(ctx, request, info.id, since, limit, shows)
