"""The GM's settings: choosing or changing the password, the open sessions (each
revocable), and the reader's language (``/lang/<choice>``, anyone's)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from conteur.i18n import ConteurError, parse_lang
from conteur.store.auth import MIN_PASSWORD

from ..context import LANG_COOKIE, AppContext, Ctx, NotFound, call, int_id
from ..login import client_of, local_path
from ..sessions import describe_agent, format_moment

router = APIRouter()


def password_page(
    ctx: AppContext,
    request: Request,
    sid: str,
    target: str,
    first: bool,
    status: int = 200,
    **extra: Any,
) -> Response:
    return ctx.render(
        request,
        "password.html",
        status,
        csrf=ctx.csrf_for(sid),
        next=local_path(target),
        first=first,
        min_length=MIN_PASSWORD,
        **extra,
    )


@router.get("/password", response_class=HTMLResponse)
async def password_form(ctx: Ctx, request: Request, next: str = "/") -> Response:
    """Choosing the GM's password (the first visit is sent here), or changing it."""
    sid = await ctx.gm_session(request)
    first = not await call(ctx.store.has_gm_password)
    return password_page(ctx, request, sid, next, first)


@router.post("/password")
async def password_set(ctx: Ctx, request: Request) -> Response:
    sid = await ctx.gm_session(request)
    values = await ctx.form_of(request, sid)
    target = local_path(values.get("next", "/"))
    first = not await call(ctx.store.has_gm_password)
    password, confirm = values.get("password", ""), values.get("confirm", "")

    def refused(error: ConteurError, status: int = 422) -> Response:
        message = error.message(ctx.lang_of(request))
        return password_page(ctx, request, sid, target, first, status, message=message)

    if not first:  # changing it: the current one first (slowed down like a login)
        current = values.get("current", "")
        ok = await ctx.throttle.attempt(
            client_of(request.scope), lambda: call(ctx.store.check_gm_password, current)
        )
        if ok is None:
            return refused(ConteurError("web.login.wait"), 429)
        if not ok:
            return refused(ConteurError("web.password.current_wrong"), 403)
    if password != confirm:
        return refused(ConteurError("web.password.mismatch"))
    try:
        await call(ctx.store.set_gm_password, password)
    except ConteurError as error:
        return refused(error)
    return RedirectResponse(target if first else "/settings?changed=1", status_code=303)


@router.get("/settings", response_class=HTMLResponse)
async def settings_page(ctx: Ctx, request: Request, changed: str = "") -> Response:
    """The GM's settings: the password, and the open sessions (each revocable)."""
    sid = await ctx.gm_session(request)
    lang = ctx.lang_of(request)
    items = await call(ctx.store.list_gm_sessions)
    return ctx.render(
        request,
        "settings.html",
        csrf=ctx.csrf_for(sid),
        sessions=items,
        current=request.state.gm_session_id,
        when=lambda moment: format_moment(moment, lang),
        device=describe_agent,
        changed=bool(changed),
        min_length=MIN_PASSWORD,
        first=not await call(ctx.store.has_gm_password),
        next="/settings",
    )


@router.post("/settings/sessions/{session_id}/revoke")
async def revoke_session(ctx: Ctx, request: Request, session_id: str) -> Response:
    sid = await ctx.gm_session(request)
    await ctx.form_of(request, sid)
    if not await ctx.sessions.revoke(int_id(session_id)):
        raise NotFound()
    return RedirectResponse("/settings", status_code=303)


@router.get("/lang/{choice}")
async def set_lang(choice: str, next: str = "/") -> Response:
    response = RedirectResponse(local_path(next), status_code=303)
    response.set_cookie(LANG_COOKIE, parse_lang(choice), samesite="lax", max_age=3600 * 24 * 365)
    return response
