"""The campaigns: the GM's home (the list, a new one), a campaign's page and its settings
(players' input, privacy, the table's link), its characters imported and exported."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from conteur.engine.registry import available_rulesets, get_ruleset
from conteur.engine.sheetform import FormErrors
from conteur.i18n import ConteurError, t
from conteur.store import CampaignInfo

from .. import view
from ..context import AppContext, Ctx, call, int_id
from ..qr import qr_svg

router = APIRouter()

NPC_ROWS = 3
"""The encounter builder's rows for quick NPCs and archetypes."""


def campaign_flags(values: Mapping[str, str]) -> dict[str, bool]:
    """A campaign's settings from its form: players send their actions (``player_input``),
    players drag their own token on the map (``player_moves``)."""
    return {name: bool(values.get(name)) for name in ("player_input", "player_moves")}


async def gm_campaign(ctx: AppContext, request: Request, cid: str) -> tuple[str, CampaignInfo]:
    """A GM's page or form on a campaign: the session, and the campaign (404)."""
    sid = await ctx.gm_session(request)
    campaign = await ctx.campaign_or_404(int_id(cid))
    return sid, campaign


def download(text: str, filename: str, fmt: str) -> Response:
    media = "application/json" if fmt == "json" else "application/yaml"
    return Response(
        text,
        media_type=f"{media}; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/", response_class=HTMLResponse)
async def home(ctx: Ctx, request: Request) -> Response:
    sid = await ctx.gm_session(request)
    campaigns = await call(ctx.store.list_campaigns)
    return ctx.render(
        request,
        "campaigns.html",
        campaigns=campaigns,
        csrf=ctx.csrf_for(sid),
        rulesets=available_rulesets(),
        eras={r: eras for r in available_rulesets() if (eras := get_ruleset(r).eras())},
    )


@router.post("/campaigns")
async def create_campaign(ctx: Ctx, request: Request) -> Response:
    sid = await ctx.gm_session(request)
    values = await ctx.form_of(request, sid)
    ruleset = values.get("ruleset", "")
    if ruleset not in available_rulesets():
        raise ConteurError("web.bad_choice", field="ruleset", value=ruleset)
    era = values.get("era", "").strip() or None
    campaign = await call(
        ctx.store.create_campaign,
        values.get("name", ""),
        ruleset,
        era=era,
        settings=campaign_flags(values),
    )
    return RedirectResponse(f"/c/{campaign.id}", status_code=303)


@router.get("/c/{cid}", response_class=HTMLResponse)
async def campaign_page(ctx: Ctx, request: Request, cid: str) -> Response:
    _, campaign = await gm_campaign(ctx, request, cid)
    return await campaign_view(ctx, request, campaign)


async def campaign_view(
    ctx: AppContext, request: Request, campaign: CampaignInfo, status: int = 200, **forms: Any
) -> Response:
    """The campaign page; ``forms``: a refused form's values and errors, to show again."""
    characters = await call(ctx.store.list_characters, campaign.id)
    encounters = await call(ctx.store.list_encounters, campaign.id)
    table_token = await call(ctx.store.table_token, campaign.id)
    ruleset = get_ruleset(campaign.ruleset)
    lang = ctx.lang_of(request)
    archetypes, quick = view.npc_choices(ruleset, lang, campaign.era)
    context: dict[str, Any] = {
        "sheet_values": {},
        "sheet_errors": FormErrors(),
        "builder_error": "",
        "foundry_error": "",
        **forms,
    }
    return ctx.render(
        request,
        "campaign.html",
        status,
        campaign=campaign,
        characters=characters,
        encounters=encounters,
        table_token=table_token,
        csrf=ctx.gm_csrf(request),
        qr=qr_svg,
        sheet_form=ruleset.sheet_form(campaign.era),
        formats=sorted(ruleset.importers()),
        builder=view.Builder(archetypes, quick, NPC_ROWS),
        **context,
    )


@router.post("/c/{cid}/settings")
async def campaign_settings(ctx: Ctx, request: Request, cid: str) -> Response:
    sid, campaign = await gm_campaign(ctx, request, cid)
    values = await ctx.form_of(request, sid)
    await call(
        ctx.store.update_campaign,
        campaign.id,
        settings=campaign_flags(values),
    )
    ctx.panels.forget()
    return RedirectResponse(f"/c/{campaign.id}", status_code=303)


@router.post("/c/{cid}/privacy")
async def campaign_privacy(ctx: Ctx, request: Request, cid: str) -> Response:
    """What the campaign's players see (``Privacy``): ally health, NPC names, NPC dice."""
    sid, campaign = await gm_campaign(ctx, request, cid)
    values = await ctx.form_of(request, sid)
    chosen = {
        "ally_health": values.get("ally_health", "words"),
        "npc_names": values.get("npc_names", "names"),
        "npc_dice": view.checked(values.get("npc_dice")),
    }
    await call(ctx.store.set_privacy, campaign.id, chosen)
    ctx.panels.forget()
    for info in await call(ctx.store.list_encounters, campaign.id, "open"):
        ctx.notifier.notify(info.id)  # the open pages follow at once
    return RedirectResponse(f"/c/{campaign.id}", status_code=303)


@router.post("/c/{cid}/characters")
async def import_characters(ctx: Ctx, request: Request, cid: str) -> Response:
    sid, campaign = await gm_campaign(ctx, request, cid)
    values = await ctx.form_of(request, sid)
    fmt = values.get("format", "yaml")
    if fmt not in ("yaml", "json"):
        raise ConteurError("web.bad_choice", field="format", value=fmt)
    text = values.get("text", "")
    if not text.strip():
        raise ConteurError("web.missing", field="text")
    if len(text) > 200_000:
        raise ConteurError("web.too_long", field="text")
    source = t("web.sheet.source", ctx.lang_of(request))  # « formulaire », "form"
    await call(ctx.store.import_characters, campaign.id, text, fmt, source=source)
    return RedirectResponse(f"/c/{campaign.id}", status_code=303)


@router.get("/c/{cid}/export")
async def export_characters(ctx: Ctx, request: Request, cid: str, fmt: str = "yaml") -> Response:
    await ctx.gm_session(request)
    campaign = await ctx.campaign_or_404(int_id(cid))
    if fmt not in ("yaml", "json"):
        raise ConteurError("web.bad_choice", field="fmt", value=fmt)
    text = await call(ctx.store.export_characters, campaign.id, fmt)
    return download(text, f"campaign-{campaign.id}.{fmt}", fmt)


@router.post("/c/{cid}/table")
async def campaign_table_token(ctx: Ctx, request: Request, cid: str) -> Response:
    """A new table-screen link for the campaign (the old one stops working)."""
    sid, campaign = await gm_campaign(ctx, request, cid)
    await ctx.form_of(request, sid)
    await call(ctx.store.new_table_token, campaign.id)
    return RedirectResponse(f"/c/{campaign.id}", status_code=303)
