"""The game master's link: ``GET /…?token=…`` opens a session, before any route runs.

A plain ASGI middleware (Starlette's ``BaseHTTPMiddleware`` would wrap every
response, the live streams included, in an extra task and queue).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from urllib.parse import parse_qsl

from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

Login = Callable[[str, str, str], Awaitable[Response | None]]
"""``login(token, path, query)``: the redirection that opens a session, or None."""


class TokenLogin:
    """Hands ``GET`` requests carrying ``token`` (outside the players' ``/p/`` pages) to
    ``login``; everything else goes straight to the application."""

    def __init__(self, app: ASGIApp, login: Login) -> None:
        self.app = app
        self.login = login

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] == "GET"
            and not str(scope["path"]).startswith("/p/")
            and b"token=" in scope.get("query_string", b"")
        ):
            query = scope["query_string"].decode("latin-1")
            token = next((v for k, v in parse_qsl(query) if k == "token"), "")
            if token:
                response = await self.login(token, str(scope["path"]), query)
                if response is not None:
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)
