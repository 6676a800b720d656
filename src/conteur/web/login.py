"""The game master's link: ``GET /…?token=…`` opens a session, before any route runs.

A plain ASGI middleware (Starlette's ``BaseHTTPMiddleware`` would wrap every
response, the live streams included, in an extra task and queue). The login form
itself POSTs to ``/login`` (a route of the app), so the secret it carries never
lands in a URL; either way the session opens on a redirection to a path of this
site only (``local_path``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from urllib.parse import parse_qsl, urlencode

from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

Login = Callable[[str, Scope], Awaitable[Response | None]]
"""``login(token, scope)``: the redirection that opens a session (or the refusal of a client
trying too often), or None to let the application answer."""


def client_of(scope: Scope) -> str:
    """The client's address (the unit login attempts are slowed down by)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


def local_path(target: str) -> str:
    """``target`` when it is a path of this site, else ``/``.

    Refused: anything not starting with one ``/``; ``//host`` and ``/\\host`` (browsers
    read a backslash as a slash); and control characters anywhere (browsers drop tabs
    and newlines from a URL, so ``/\\t/host`` would become ``//host``).
    """
    if not target.startswith("/") or target[1:2] in ("/", "\\"):
        return "/"
    if any(c == "\\" or ord(c) < 0x20 or ord(c) == 0x7F for c in target):
        return "/"
    return target


def without_token(path: str, query: str) -> str:
    """``path?query`` without its ``token`` parameter (the secret stays out of the URL)."""
    rest = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if k != "token"]
    return path + (f"?{urlencode(rest)}" if rest else "")


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
                response = await self.login(token, scope)
                if response is not None:
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)
