"""The characters: made from the sheet form or imported from another program's file, a
character's page (its sheet, its written-back state), corrected through their forms or as
YAML, exported, and their player's link."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel

from conteur.engine.inputs import safe_yaml
from conteur.engine.registry import get_ruleset
from conteur.engine.sheetform import FormErrors, SheetForm, build_sheet, sheet_values
from conteur.i18n import ConteurError
from conteur.i18n import t as msg_of
from conteur.store import CampaignInfo, CharacterInfo

from ..context import AppContext, Ctx, NotFound, call, int_id
from ..qr import qr_svg
from .campaigns import campaign_view, download, gm_campaign

router = APIRouter()

MAX_UPLOAD = 2_000_000
"""The largest file the campaign page imports (bytes)."""


async def sent_lists(request: Request) -> dict[str, list[str]]:
    """Every field of the request's form, with all its values (a sheet form's lists)."""
    form = await request.form()
    return {k: [str(v) for v in form.getlist(k)] for k in form}


async def gm_character(
    ctx: AppContext, request: Request, char_id: str
) -> tuple[str, CharacterInfo, dict[str, str]]:
    """A GM's form on a character: the session, the character (404), the form (CSRF
    checked)."""
    sid = await ctx.gm_session(request)
    char = await ctx.character_or_404(char_id)
    values = await ctx.form_of(request, sid)
    return sid, char, values


@router.post("/c/{cid}/sheet")
async def sheet_from_form(ctx: Ctx, request: Request, cid: str) -> Response:
    """A character from the sheet form: built from the ruleset's description, then checked
    exactly as an import is (``Store.add_character``); a refusal shown beside its field."""
    sid, campaign = await gm_campaign(ctx, request, cid)
    await ctx.form_of(request, sid)
    sent = await sent_lists(request)
    sheet_form = get_ruleset(campaign.ruleset).sheet_form(campaign.era)
    if sheet_form is None:
        raise NotFound()
    sheet = build_sheet(sheet_form, lambda name: sent.get(name, []))
    state = sheet.pop("state", {})
    lang = ctx.lang_of(request)
    try:
        char = await call(
            ctx.store.add_character,
            campaign.id,
            sheet,
            state,
            source=msg_of("web.sheet.source", lang),
        )
    except ConteurError as error:
        errors = FormErrors.of(sheet_form, error, lang)
        return await campaign_view(
            ctx, request, campaign, 422, sheet_values=sent, sheet_errors=errors
        )
    return RedirectResponse(f"/characters/{char.id}", status_code=303)


@router.post("/c/{cid}/import-file")
async def import_file(ctx: Ctx, request: Request, cid: str) -> Response:
    """A file of another program (``Ruleset.importers``: Foundry VTT's actor export) as a
    character; what could not be carried over is listed on the character's page."""
    sid, campaign = await gm_campaign(ctx, request, cid)
    values = await ctx.form_of(request, sid)
    form = await request.form()
    upload = form.get("file")
    lang = ctx.lang_of(request)
    importers = get_ruleset(campaign.ruleset).importers()
    fmt = values.get("format", "")
    try:
        if fmt not in importers:
            raise ConteurError("web.bad_choice", field="format", value=fmt)
        if upload is None or isinstance(upload, str):
            raise ConteurError("web.missing", field="file")
        raw = await upload.read(MAX_UPLOAD + 1)
        name = str(upload.filename or "actor.json")
        if len(raw) > MAX_UPLOAD:
            raise ConteurError("web.too_long", field="file")
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise ConteurError("web.import.not_json", file=name) from None
        result = importers[fmt](data, name)
        char = await call(
            ctx.store.add_character, campaign.id, result.sheet, result.state, source=name
        )
    except ConteurError as error:
        return await campaign_view(ctx, request, campaign, 422, foundry_error=error.message(lang))
    unmapped = [u.to_dict(lang) for u in result.unmapped]
    return await character_view(ctx, request, char, unmapped=unmapped)


@router.get("/characters/{char_id}/export")
async def export_character(ctx: Ctx, request: Request, char_id: str, fmt: str = "yaml") -> Response:
    await ctx.gm_session(request)
    if fmt not in ("yaml", "json"):
        raise ConteurError("web.bad_choice", field="fmt", value=fmt)
    try:
        text = await call(ctx.store.export_character, int_id(char_id), fmt)
    except ConteurError:
        raise NotFound() from None
    return download(text, f"character-{char_id}.{fmt}", fmt)


@router.get("/characters/{char_id}", response_class=HTMLResponse)
async def character_page(ctx: Ctx, request: Request, char_id: str) -> Response:
    await ctx.gm_session(request)
    char = await ctx.character_or_404(char_id)
    return await character_view(ctx, request, char)


async def character_view(
    ctx: AppContext, request: Request, char: CharacterInfo, status: int = 200, **extra: Any
) -> Response:
    """A character's page: its sheet, its written-back state in words and as a form."""
    history = await call(ctx.store.character_history, char.id)
    campaign = await ctx.campaign_or_404(char.campaign_id)
    state_form = get_ruleset(campaign.ruleset).state_form(char.state or {}, campaign.era)
    state_values = sheet_values(state_form, {"state": char.state or {}}) if state_form else {}
    sheet_form = editable_form(campaign, char)
    context: dict[str, Any] = {
        "state_values": state_values,
        "state_errors": FormErrors(),
        "unmapped": None,
        "sheet_form": sheet_form,
        "sheet_values": (
            sheet_values(sheet_form, {**char.sheet, "state": char.state or {}})
            if sheet_form
            else {}
        ),
        "sheet_errors": FormErrors(),
        **extra,
    }
    return ctx.render(
        request,
        "character.html",
        status,
        char=char,
        csrf=ctx.gm_csrf(request),
        qr=qr_svg,
        sheet_yaml=_yaml(char.sheet),
        state_yaml=_yaml(char.state) if char.state else "",
        state_form=state_form,
        history=list(reversed(history)),
        reason=lambda v: v.describe_reason(ctx.lang_of(request)),
        **context,
    )


def editable_form(campaign: CampaignInfo, char: CharacterInfo) -> SheetForm | None:
    """The ruleset's sheet form, when it gives back this very sheet (a sheet written in
    YAML with fields the form has not stays editable as YAML only)."""
    ruleset = get_ruleset(campaign.ruleset)
    form = ruleset.sheet_form(campaign.era)
    if form is None:
        return None
    values = sheet_values(form, {**char.sheet, "state": char.state or {}})
    built = build_sheet(form, lambda name: values.get(name, []))
    built.pop("state", None)
    if built == char.sheet:
        return form
    try:
        ours, theirs = ruleset.load_sheet(built), ruleset.load_sheet(char.sheet)
    except ConteurError:
        return None
    return form if isinstance(ours, BaseModel) and ours == theirs else None


async def update_or_refuse(
    ctx: AppContext,
    request: Request,
    char: CharacterInfo,
    form: SheetForm,
    sent: dict[str, list[str]],
    part: str,
    **changes: Any,
) -> Response:
    """The character updated with ``changes`` (checked as an import), then its page again;
    refused: the page with the form of ``part`` (``sheet`` or ``state``) as it was sent, the
    refusal beside its field (422)."""
    try:
        await call(ctx.store.update_character, char.id, **changes, source=char.name)
    except ConteurError as error:
        errors = FormErrors.of(form, error, ctx.lang_of(request))
        again = {f"{part}_values": sent, f"{part}_errors": errors}
        return await character_view(ctx, request, char, 422, **again)
    return RedirectResponse(f"/characters/{char.id}", status_code=303)


@router.post("/characters/{char_id}/sheet-form")
async def character_sheet_form(ctx: Ctx, request: Request, char_id: str) -> Response:
    """The sheet corrected through its form (checked as an import; side in the state)."""
    _, char, _ = await gm_character(ctx, request, char_id)
    sent = await sent_lists(request)
    campaign = await ctx.campaign_or_404(char.campaign_id)
    sheet_form = editable_form(campaign, char)
    if sheet_form is None:
        raise NotFound()
    sheet = build_sheet(sheet_form, lambda name: sent.get(name, []))
    side = sheet.pop("state", {}).get("side")
    state = {k: v for k, v in (char.state or {}).items() if k != "side"}
    if side:
        state["side"] = side
    return await update_or_refuse(
        ctx, request, char, sheet_form, sent, "sheet", sheet=sheet, state=state
    )


@router.post("/characters/{char_id}/state")
async def character_state(ctx: Ctx, request: Request, char_id: str) -> Response:
    """The GM corrects the written-back state between fights (checked as an import)."""
    _, char, _ = await gm_character(ctx, request, char_id)
    sent = await sent_lists(request)
    campaign = await ctx.campaign_or_404(char.campaign_id)
    state_form = get_ruleset(campaign.ruleset).state_form(char.state or {}, campaign.era)
    if state_form is None:
        raise NotFound()
    edited = build_sheet(state_form, lambda name: sent.get(name, [])).get("state", {})
    kept = {k: v for k, v in (char.state or {}).items() if not state_form.field(f"state.{k}")}
    kept = {
        k: v
        for k, v in kept.items()
        if not any(f.key.startswith(f"state.{k}.") for f in state_form.fields())
    }
    return await update_or_refuse(
        ctx, request, char, state_form, sent, "state", state={**kept, **edited}
    )


@router.post("/characters/{char_id}")
async def character_edit(ctx: Ctx, request: Request, char_id: str) -> Response:
    _, char, values = await gm_character(ctx, request, char_id)
    sheet = _parse_mapping(values.get("sheet", ""), "sheet")
    await call(ctx.store.update_character, char.id, sheet=sheet, source=char.name)
    return RedirectResponse(f"/characters/{char.id}", status_code=303)


@router.post("/characters/{char_id}/token")
async def character_token(ctx: Ctx, request: Request, char_id: str) -> Response:
    _, char, _ = await gm_character(ctx, request, char_id)
    await call(ctx.store.new_player_token, char.id)
    return RedirectResponse(f"/characters/{char.id}", status_code=303)


def _yaml(data: Any) -> str:
    import yaml

    return str(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))


def _parse_mapping(text: str, field: str) -> dict[str, Any]:
    """A YAML (or JSON) mapping typed in a form (ConteurError naming the field otherwise)."""
    import yaml

    if not text.strip():
        raise ConteurError("web.missing", field=field)
    if len(text) > 100_000:
        raise ConteurError("web.too_long", field=field)
    try:
        data = safe_yaml(text)
    except yaml.YAMLError:
        raise ConteurError("web.bad_yaml", field=field) from None
    if not isinstance(data, dict):
        raise ConteurError("web.bad_yaml", field=field)
    return {str(k): v for k, v in data.items()}
