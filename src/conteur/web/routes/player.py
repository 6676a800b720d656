"""A player's pages (``/p/<token>``, one link a character): their panel (their own
character in full, the others' status), its live stream, the odds of their attacks, their
commands and moves when the campaign allows them, their rolls on the pad."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup

from conteur.engine import Encounter
from conteur.engine.commands import Command
from conteur.engine.hidden import mentioned
from conteur.i18n import ConteurError
from conteur.store import CharacterInfo, EncounterInfo

from .. import view
from ..context import AppContext, Ctx, NotFound, call, execute
from ..panels import CSRF_SLOT, LOG_SLOT, TOKEN_SLOT, Snapshot, table_viewer
from ..streams import StreamView, cached_view, following, stream, waiting
from .odds import odds_answer
from .rolls import faces_entered, pad_of, rolls_action, rolls_response, rolls_view

router = APIRouter()

CSRF_BYTES = CSRF_SLOT.encode()
TOKEN_BYTES = TOKEN_SLOT.encode()


def player_csrf(ctx: AppContext, token: str) -> str:
    """The CSRF token of a player's page (derived from their link)."""
    return ctx.csrf_for(f"player:{token}")


async def player_of(ctx: AppContext, token: str, request: Request | None = None) -> CharacterInfo:
    if not token or len(token) > 200:
        raise NotFound()
    char = await call(ctx.store.character_by_token, token)
    if char is None:
        raise NotFound()
    if request is not None:  # the campaign's language, unless the reader chose one
        campaign = await call(ctx.store.get_campaign, char.campaign_id)
        request.state.lang_default = campaign.settings.get("lang")
        request.state.campaign = campaign
    return char


async def player_encounter(
    ctx: AppContext, char: CharacterInfo
) -> tuple[EncounterInfo | None, str | None]:
    """The open encounter the character is in (the latest), and its combatant id."""
    items = await call(ctx.store.list_encounters, char.campaign_id, "open")
    for info in sorted(items, key=lambda i: i.id, reverse=True):
        for cid, char_id in info.characters.items():
            if char_id == char.id:
                return info, cid
    return None, None


async def player_fight(
    ctx: AppContext, request: Request, token: str
) -> tuple[CharacterInfo, EncounterInfo, str]:
    """The player's character, the open encounter they are in and their combatant id
    (404 when they are in none)."""
    char = await player_of(ctx, token, request)
    info, me = await player_encounter(ctx, char)
    if info is None or me is None:
        raise NotFound()
    return char, info, me


def player_panel_html(ctx: AppContext, snap: Snapshot, char: CharacterInfo, me: str | None) -> str:
    """A player's panel, rendered once per character for each state, with ``CSRF_SLOT``
    and ``TOKEN_SLOT`` standing for the CSRF token and the link, which differ from one
    view to the next (each stream fills in its own: ``stream``'s ``fill``)."""

    def build() -> str:
        context = player_panel_context(ctx, snap, char, TOKEN_SLOT, me, csrf=CSRF_SLOT)
        context["log_html"] = LOG_SLOT  # the page keeps its log and adds the news
        return ctx.render_fragment("_player_panel.html", snap.lang, **context)

    return cached_view(snap, ("player", char.id, me), build)


def player_panel_context(
    ctx: AppContext,
    snap: Snapshot | None,
    char: CharacterInfo,
    token: str,
    me: str | None,
    csrf: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """What a player's panel shows: their own character in full, the others' status only."""
    context: dict[str, Any] = {
        "char": char,
        "token": token,
        "me": me,
        "csrf": csrf or player_csrf(ctx, token),
        "info": snap.info if snap else None,
        "seq": snap.number if snap else -1,
        **extra,
    }
    if snap is None:
        return context
    roster = snap.roster  # a players' roster: no NPC's exact health in it
    context.update(
        mine=next((r for r in roster.rows if r.id == me), None),
        others=[r for r in roster.public if r.id != me],
        # The other players' characters in full, where the campaign shows allies' health.
        allies={r.id: r for r in roster.rows if r.id != me}
        if snap.privacy.ally_health == "exact"
        else {},
        names=snap.names,
        sit=snap.sit,
        turn_html=snap.turn_html,
        log_html=snap.log_html,
        forms=snap.forms.get(me or "", []) if snap.player_input else [],
        forms_html=snap.forms_for(me or "", context["csrf"], token)
        if snap.player_input
        else Markup(""),
        player_input=snap.player_input and me is not None,
        odds=snap.odds and me is not None,
        odds_kinds=snap.kinds.get(me or "", []),
        battle_map=snap.battle_map,
        player_moves=snap.player_moves and me is not None,
    )
    return context


async def player_context(
    ctx: AppContext, request: Request, token: str, **extra: Any
) -> dict[str, Any]:
    char = await player_of(ctx, token, request)
    info, me = await player_encounter(ctx, char)
    snap = None
    if info is not None:
        viewer = table_viewer(info, me)
        snap = await ctx.snapshot_or_404(info.id, ctx.lang_of(request), viewer=viewer, info=info)
    context = player_panel_context(ctx, snap, char, token, me, **extra)
    context["campaign"] = request.state.campaign
    return context


@router.get("/p/{token}", response_class=HTMLResponse)
async def player_page(ctx: Ctx, request: Request, token: str) -> Response:
    return ctx.render(request, "player.html", **await player_context(ctx, request, token))


@router.get("/p/{token}/panel", response_class=HTMLResponse)
async def player_panel(ctx: Ctx, request: Request, token: str) -> Response:
    context = await player_context(ctx, request, token)
    return ctx.render(request, "_player_panel.html", **context)


@router.get("/p/{token}/stream")
async def player_stream(
    ctx: Ctx,
    request: Request,
    token: str,
    since: int = -1,
    limit: int = 0,
    pad: int = 0,
    e: int = -1,
) -> Response:
    """The player's live stream; ``pad``: with the pad's news (``rolls`` events); ``e``:
    the encounter the page shows (0: none), told ``moved`` when the player's fight is
    another one (the page loads it)."""
    char = await player_of(ctx, token, request)
    info, me = await player_encounter(ctx, char)

    async def current() -> EncounterInfo | None:
        return (await player_encounter(ctx, char))[0]

    follow = following(e, info, current)
    if info is None:
        return waiting(ctx, request, char.campaign_id, follow)
    lang = ctx.lang_of(request)

    def panel(snap: Snapshot) -> str:
        return player_panel_html(ctx, snap, char, me)

    csrf = player_csrf(ctx, token).encode()
    link = token.encode()

    def fill(html: bytes) -> bytes:
        return html.replace(CSRF_BYTES, csrf).replace(TOKEN_BYTES, link)

    shows = StreamView(
        viewer=table_viewer(info, me),
        panel=panel,
        audience=("player", char.id, me),
        fill=fill,
        follow=follow,
        pad=pad_of(ctx, info, lang, f"/p/{token}/rolls", csrf.decode(), me=me, gm=False)
        if pad and me is not None
        else None,
    )
    return stream(ctx, request, info.id, since, limit, shows)


@router.get("/p/{token}/odds", response_class=HTMLResponse)
async def player_odds(
    ctx: Ctx, request: Request, token: str, target: str = "", maneuver: str = ""
) -> Response:
    """The odds of the player's own attack (never another combatant's)."""
    _, info, me = await player_fight(ctx, request, token)
    viewer = table_viewer(info, me)
    url = f"/p/{token}/odds"
    labels = request.state.campaign.privacy.npc_names == "labels"
    return await odds_answer(ctx, request, info.id, me, target, maneuver, url, viewer, labels)


@router.post("/p/{token}/move")
async def player_move(ctx: Ctx, request: Request, token: str) -> Response:
    """A player drags their own token: the map's ``place`` command for their character,
    when the campaign allows it, checked as any other command."""
    char = await player_of(ctx, token, request)
    lang = ctx.lang_of(request)
    values = await ctx.form_of(request, f"player:{token}")
    campaign = request.state.campaign
    info, me = await player_encounter(ctx, char)
    if info is None or me is None or not campaign.settings.get("player_moves"):
        raise ConteurError("web.player_no_moves")

    def action() -> object:
        def read(enc: Encounter) -> Command:
            bmap = enc.ruleset.battle_map(enc.state, lang)
            if bmap is None or not bmap.place or me in enc.hidden:
                raise ConteurError("web.player_no_moves")
            asked = {"type": bmap.place, "actor": "", "fighter": me, "to": values.get("to", "")}
            return view.command_from_form(enc, asked)

        command = ctx.store.read_encounter(info.id, read)
        return execute(ctx.store, info.id, command, {})

    return await player_answer(ctx, request, token, info.id, action)


async def player_answer(
    ctx: AppContext, request: Request, token: str, eid: int, action: Callable[[], object]
) -> Response:
    """A player's command run: their panel again, or with the refusal beside it (422)."""
    try:
        await call(action)
    except ConteurError as error:
        message = error.message(ctx.lang_of(request))
        context = await player_context(ctx, request, token, message=message, kind="error")
        return ctx.render(request, "_player_panel.html", 422, **context)
    ctx.notifier.notify(eid)
    context = await player_context(ctx, request, token)
    return ctx.render(request, "_player_panel.html", **context)


@router.post("/p/{token}/command")
async def player_command(ctx: Ctx, request: Request, token: str) -> Response:
    char = await player_of(ctx, token, request)
    values = await ctx.form_of(request, f"player:{token}")
    campaign = request.state.campaign
    info, me = await player_encounter(ctx, char)
    if info is None or not campaign.settings.get("player_input"):
        raise ConteurError("web.player_watch_only")
    if values.get("actor") != me:
        raise ConteurError("web.not_legal", command=values.get("type", ""))

    def action() -> object:
        # Read under the store's lock: another command may be changing the live state.
        def read(enc: Encounter) -> Command:
            command = view.command_from_form(enc, values)
            for name, value in command.args.items():  # refused as an unknown choice is
                if mentioned(value, enc.hidden):
                    raise ConteurError("web.bad_choice", field=name, value=values.get(name))
            return command

        command = ctx.store.read_encounter(info.id, read)
        return execute(ctx.store, info.id, command, values)

    return await player_answer(ctx, request, token, info.id, action)


@router.get("/p/{token}/rolls", response_class=HTMLResponse)
async def player_rolls(ctx: Ctx, request: Request, token: str) -> Response:
    """The roll the player is asked for, if any (never an NPC's, a hidden one, another's)."""
    _, info, me = await player_fight(ctx, request, token)
    rolls = await rolls_view(ctx, request, info, me=me, gm=False)
    return rolls_response(ctx, request, rolls, f"/p/{token}/rolls", player_csrf(ctx, token))


@router.post("/p/{token}/rolls/faces", response_class=HTMLResponse)
async def player_rolls_faces(ctx: Ctx, request: Request, token: str) -> Response:
    _, info, me = await player_fight(ctx, request, token)
    values = await ctx.form_of(request, f"player:{token}")
    if not request.state.campaign.settings.get("player_input"):
        raise ConteurError("web.player_watch_only")
    work = faces_entered(ctx, info, values, who=me)
    csrf = player_csrf(ctx, token)
    return await rolls_action(ctx, request, info, f"/p/{token}/rolls", csrf, work, me=me, gm=False)
