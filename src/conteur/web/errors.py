"""How the web app answers what it refuses: a page (or, for htmx, a message) in the reader's
language, with the status that says why; a GM page asked without a session: the login."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from conteur.i18n import ConteurError

from .context import BadCsrf, NeedGm, NotFound, app_context
from .login import without_token
from .routes.auth import login_page


async def need_gm(request: Request, exc: NeedGm) -> Response:
    # After the login, back to the page asked for (a form sent without a session: home).
    target = "/"
    if request.method == "GET":
        target = without_token(request.url.path, request.url.query)
    return login_page(app_context(request), request, 401, None, target)


async def bad_csrf(request: Request, exc: BadCsrf) -> Response:
    return app_context(request).error_response(request, ConteurError("web.bad_csrf"), 403)


async def not_found(request: Request, exc: NotFound) -> Response:
    return app_context(request).error_response(request, ConteurError("web.not_found"), 404)


async def conteur_error(request: Request, exc: ConteurError) -> Response:
    return app_context(request).error_response(request, exc, 400)


async def bad_request(request: Request, exc: RequestValidationError) -> Response:
    return app_context(request).error_response(request, ConteurError("web.bad_form"), 400)


async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
    ctx = app_context(request)
    if exc.status_code == 404:
        return ctx.error_response(request, ConteurError("web.not_found"), 404)
    if exc.status_code == 405:
        return ctx.error_response(request, ConteurError("web.bad_method"), 405)
    return ctx.error_response(request, ConteurError("web.bad_form"), exc.status_code)


def add_error_handlers(app: FastAPI) -> None:
    """Every refusal's answer, on ``app``."""
    app.exception_handler(NeedGm)(need_gm)
    app.exception_handler(BadCsrf)(bad_csrf)
    app.exception_handler(NotFound)(not_found)
    app.exception_handler(ConteurError)(conteur_error)
    app.exception_handler(RequestValidationError)(bad_request)
    app.exception_handler(StarletteHTTPException)(http_error)
