"""The table's screen (``/t/<token>``, one link a campaign): the public view of the
players' table, every combatant's health as words, no secret, no hidden one; its stream."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from conteur.store import CampaignInfo, EncounterInfo

from ..context import AppContext, Ctx, NotFound, call
from ..panels import LOG_SLOT, Snapshot, table_viewer
from ..streams import StreamView, cached_view, following, stream, waiting

router = APIRouter()


async def table_of(
    ctx: AppContext, token: str, request: Request
) -> tuple[CampaignInfo, EncounterInfo | None]:
    """The campaign of a table-screen link and its open encounter (the latest), if any."""
    if not token or len(token) > 200:
        raise NotFound()
    campaign = await call(ctx.store.campaign_by_table_token, token)
    if campaign is None:
        raise NotFound()
    request.state.lang_default = campaign.settings.get("lang")
    items = await call(ctx.store.list_encounters, campaign.id, "open")
    info = max(items, key=lambda i: i.id) if items else None
    return campaign, info


def table_panel_context(snap: Snapshot | None, token: str) -> dict[str, Any]:
    """What the table's screen shows: the public view of the players' table (the same
    snapshot as theirs), every combatant's health as words and on the battle map, no
    secret, no hidden one."""
    if snap is None:
        return {"info": None, "seq": -1, "token": token}
    return {
        "info": snap.info,
        "seq": snap.number,
        "token": token,
        "sit": snap.sit,
        "names": snap.names,
        "others": snap.roster.public,
        "log_html": snap.log_html,
        "battle_map": snap.battle_map,
    }


async def table_context(ctx: AppContext, request: Request, token: str) -> dict[str, Any]:
    campaign, info = await table_of(ctx, token, request)
    snap = None
    if info is not None:
        viewer = table_viewer(info)
        snap = await ctx.snapshot_or_404(info.id, ctx.lang_of(request), viewer=viewer, info=info)
    return {"campaign": campaign, **table_panel_context(snap, token)}


@router.get("/t/{token}", response_class=HTMLResponse)
async def table_page(ctx: Ctx, request: Request, token: str) -> Response:
    return ctx.render(request, "table.html", **await table_context(ctx, request, token))


@router.get("/t/{token}/panel", response_class=HTMLResponse)
async def table_panel(ctx: Ctx, request: Request, token: str) -> Response:
    return ctx.render(request, "_table_panel.html", **await table_context(ctx, request, token))


@router.get("/t/{token}/stream")
async def table_stream(
    ctx: Ctx, request: Request, token: str, since: int = -1, limit: int = 0, e: int = -1
) -> Response:
    """The table's screen's stream; ``e``: the encounter the page shows (0: none), told
    ``moved`` when the campaign's fight is another one (the page loads it)."""
    campaign, info = await table_of(ctx, token, request)

    async def current() -> EncounterInfo | None:
        return (await table_of(ctx, token, request))[1]

    follow = following(e, info, current)
    if info is None:
        return waiting(ctx, request, campaign.id, follow)
    lang = ctx.lang_of(request)

    def panel(snap: Snapshot) -> str:
        def build() -> str:
            context = table_panel_context(snap, token)
            context["log_html"] = LOG_SLOT  # the page keeps its log and adds the news
            return ctx.render_fragment("_table_panel.html", lang, **context)

        return cached_view(snap, ("table", token), build)

    shows = StreamView(
        viewer=table_viewer(info),
        panel=panel,
        audience=("table", campaign.id),
        follow=follow,
    )
    return stream(ctx, request, info.id, since, limit, shows)
