"""Where the server is seen from outside (``Hosting``) and the cookies that follow from it.

The app (``web.app``) is built from these; ``web.hosting`` reads them from the command
line and the environment, and builds each process's app (``app_from_env``) on top, so
they live below both (``web.hosting`` re-exports them).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

DEFAULT_FORWARDED = "127.0.0.1"
"""The proxies trusted by default: one on the same machine."""


@dataclass(frozen=True)
class Hosting:
    """Where the server is seen from outside, and which proxies it believes."""

    public_url: str | None = None
    """``scheme://host[:port]``, no trailing slash; None: links follow each request."""
    forwarded_allow_ips: str = DEFAULT_FORWARDED
    """Proxies whose ``X-Forwarded-*`` headers count (comma-separated; ``*``: any; ``""``:
    none)."""
    lan_url: str | None = None
    """``http://<address on the local network>:<port>``, when the server listens there: the
    base of the links a page opened at a loopback address gives the players."""

    @property
    def https(self) -> bool:
        """Whether the public address is https."""
        return self.public_url is not None and self.public_url.startswith("https://")

    def trusted(self) -> list[str]:
        """The trusted proxies as a list (empty: forwarded headers are ignored)."""
        return [p.strip() for p in self.forwarded_allow_ips.split(",") if p.strip()]

    def base(self, request_base: str) -> str:
        """The base of absolute links, ending with ``/``: the public address, else the
        local network's when the request came to a loopback address, else the request's
        own (``request.base_url``)."""
        if self.public_url is not None:
            return self.public_url + "/"
        if self.lan_url is not None and is_loopback(urlsplit(request_base).hostname or ""):
            return self.lan_url + "/"
        return request_base if request_base.endswith("/") else request_base + "/"


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) is this machine only (127.x, ::1, localhost)."""
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class SecureCookies:
    """Marks every cookie the app sets ``Secure`` when the page is served over https:
    always (``https=True``: the public address is https), never (``False``), or when the
    request's scheme — as the trusted proxy forwarded it — is https (``None``)."""

    def __init__(self, app: ASGIApp, https: bool | None) -> None:
        self.app = app
        self.https = https

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        secure = self.https if self.https is not None else scope.get("scheme") == "https"
        if scope["type"] != "http" or not secure:
            await self.app(scope, receive, send)
            return

        async def send_secure(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = []
                for name, value in message.get("headers", []):
                    attributes = [a.strip().lower() for a in value.split(b";")[1:]]
                    if name.lower() == b"set-cookie" and b"secure" not in attributes:
                        value = value + b"; Secure"
                    headers.append((name, value))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_secure)
