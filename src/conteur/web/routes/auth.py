"""The GM's login: the single-use token link (``login_with_token``, run by the
``TokenLogin`` middleware), the login form (``POST /login``), the logout."""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.types import Scope

from conteur.i18n import ConteurError

from ..context import GM_COOKIE, SESSION_COOKIE_SECONDS, AppContext, Ctx, call, read_form
from ..login import client_of, local_path, without_token
from ..view import msg

router = APIRouter()


async def open_session(ctx: AppContext, scope: Scope, target: str) -> Response:
    """A new GM session (stored; its cookie), and a redirection to ``target`` (a local
    path) — first to the choice of a password when none has been chosen yet."""
    headers = dict(Request(scope).headers)
    sid = await ctx.sessions.open(agent=headers.get("user-agent", ""), address=client_of(scope))
    target = local_path(target)
    if not await call(ctx.store.has_gm_password):
        target = "/password?" + urlencode({"next": target})
    response: Response = RedirectResponse(target, status_code=303)
    response.set_cookie(
        GM_COOKIE, sid, httponly=True, samesite="lax", max_age=SESSION_COOKIE_SECONDS
    )
    return response


async def check_login(ctx: AppContext, client: str, secret: str) -> str | None:
    """What ``secret`` is (``Store.gm_login``: ``password``, ``token`` — used up now —,
    ``used`` or None), once ``client``'s delay has passed; ``wait``: too many attempts at
    once, refused unchecked. The scrypt checks run in a worker thread."""
    found: list[str | None] = []

    async def check() -> bool:
        kind = await call(ctx.store.gm_login, secret)
        found.append(kind)
        return kind in ("password", "token")

    ok = await ctx.throttle.attempt(client, check)
    if ok is None:
        return "wait"
    return found[0] if found else None


def login_page(
    ctx: AppContext,
    request: Request,
    status: int,
    error: str | None,
    target: str,
    used: bool = False,
) -> Response:
    lang = ctx.lang_of(request)
    message = msg(error, lang) if error else None
    return ctx.render(
        request, "login.html", status, next=target, login_error=message, used_link=used
    )


async def used_link_page(ctx: AppContext, request: Request, target: str) -> Response:
    """A token link met again: it has opened its session; the password opens the next."""
    password = await call(ctx.store.has_gm_password)
    error = "login.used" if password else "login.used_no_password"
    return login_page(ctx, request, 410, error, target, used=True)


async def login_with_token(ctx: AppContext, token: str, scope: Scope) -> Response | None:
    """``GET /…?token=`` with the GM's token: a new session, and the page without the token
    (a used token: a page saying so; a wrong one: the page itself answers, the login form
    for a GM page)."""
    target = without_token(str(scope["path"]), scope["query_string"].decode("latin-1"))
    kind = await check_login(ctx, client_of(scope), token)
    if kind == "wait":
        return login_page(ctx, Request(scope), 429, "login.wait", target)
    if kind == "used":
        return await used_link_page(ctx, Request(scope), target)
    return await open_session(ctx, scope, target) if kind else None


@router.post("/login")
async def login_form(ctx: Ctx, request: Request) -> Response:
    """The login form (POST: the secret stays out of the URL and the history)."""
    form = await read_form(request)
    secret, target = form.get("token", ""), form.get("next", "/")
    if not isinstance(secret, str) or not isinstance(target, str):
        raise ConteurError("web.bad_form")
    path, _, query = target.partition("?")
    target = local_path(without_token(path, query))
    kind = await check_login(ctx, client_of(request.scope), secret)
    if kind in ("password", "token"):
        return await open_session(ctx, request.scope, target)
    if kind == "used":
        return await used_link_page(ctx, request, target)
    wait = kind == "wait"
    return login_page(
        ctx, request, 429 if wait else 401, "login.wait" if wait else "login.wrong", target
    )


@router.post("/logout")
async def logout(ctx: Ctx, request: Request) -> Response:
    """The game master leaves: this browser's session is revoked (its cookie opens
    nothing any more, here and after a restart) and the cookie goes."""
    sid = await ctx.gm_session(request)
    await ctx.form_of(request, sid)
    await ctx.sessions.revoke(request.state.gm_session_id)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(GM_COOKIE, httponly=True, samesite="lax")
    return response
