"""Serving from behind a reverse proxy, at a public address, as one process or several.

* **Forwarded headers.** A reverse proxy (nginx, Caddy) that terminates HTTPS tells the
  server the client's address and scheme in ``X-Forwarded-For`` and
  ``X-Forwarded-Proto``. The app honours them only from the proxies it trusts
  (``forwarded_allow_ips``: addresses or networks, comma-separated, ``*`` for any; by
  default ``127.0.0.1``, a proxy on the same machine; empty: none), with uvicorn's own
  middleware, wrapped around the app itself, so the app's test client sees what a
  browser behind a proxy gets.
* **Public address.** ``public_url`` (``https://jeu.example.org``) is the address every
  absolute link is written with — the link ``conteur serve`` prints, the players' links
  on the campaign and character pages — whatever host or port the server listens on.
  Without it, links follow the request (its scheme, as forwarded, and its ``Host``).
* **The local network.** ``conteur serve --host 0.0.0.0`` listens on every interface, so
  the players' phones on the same Wi-Fi can join; the command finds the machine's address
  on the local network (``lan_address``: no packet leaves the machine) and the app writes
  the players' links and QR codes with it (``lan_url``) when the game master's own page
  was opened at a loopback address (127.0.0.1, localhost), which a phone cannot reach.
* **Secure cookies.** When the public address is https (or, without one, when the request
  came over https), the session and language cookies are marked ``Secure``.
* **Several processes.** ``conteur serve --workers N`` starts N uvicorn processes, each of
  which builds the app with ``app_from_env`` from the environment the command sets:
  ``CONTEUR_DATABASE_URL``, ``CONTEUR_PUBLIC_URL``, ``CONTEUR_FORWARDED_ALLOW_IPS`` and
  ``CONTEUR_SECRET_KEY`` — the key that signs the game master's session cookies and the
  CSRF tokens, the same in every process, so a session opened in one is valid in all.
  On PostgreSQL the processes hear each other's commands at once (``store.changes``).
"""

from __future__ import annotations

import errno
import hashlib
import ipaddress
import os
import socket
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from conteur.i18n import ConteurError
from conteur.store import open_store

from .address import DEFAULT_FORWARDED, Hosting, SecureCookies, is_loopback
from .app import create_app

if TYPE_CHECKING:
    from fastapi import FastAPI

PUBLIC_URL_ENV = "CONTEUR_PUBLIC_URL"
LAN_URL_ENV = "CONTEUR_LAN_URL"
FORWARDED_ENV = "CONTEUR_FORWARDED_ALLOW_IPS"
SECRET_ENV = "CONTEUR_SECRET_KEY"
MIN_SECRET = 32
"""Characters of ``CONTEUR_SECRET_KEY``, at least (``conteur serve`` makes 64 hex digits)."""


ALL_INTERFACES = ("0.0.0.0", "::", "")
PROBE = ("10.254.254.254", 9)
"""A private address: connecting a UDP socket to it picks the interface a packet would
leave by (the local network's) without sending anything, nor needing the internet."""


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


def lan_address() -> str:
    """The machine's IPv4 address on the local network, found without the internet: the
    interface a UDP socket "connected" to a private address would use, else an address of
    the host's name, else 127.0.0.1."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)  # UDP: no packet is sent
            address = str(probe.getsockname()[0])
        if _usable(address):
            return address
    except OSError:
        pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        address = str(info[4][0])
        if _usable(address):
            return address
    return "127.0.0.1"


def join_base(host: str, port: int, public_url: str | None) -> str:
    """The address phones join at (no trailing slash): the public address, else the local
    network's when the server listens on every interface, else the host it listens on."""
    if public_url is not None:
        return public_url
    shown = lan_address() if host in ALL_INTERFACES else host
    shown = f"[{shown}]" if ":" in shown else shown
    return f"http://{shown}:{port}"


def parse_public_url(raw: str) -> str:
    """``raw`` as a public address (``http(s)://host[:port]``, trailing ``/`` dropped);
    ConteurError ``web.public_url.bad`` naming it otherwise (a path, a query, no host)."""
    text = raw.strip()
    try:
        parts = urlsplit(text)
        port = parts.port  # ValueError for a port out of range or not a number
    except ValueError:
        raise ConteurError("web.public_url.bad", url=raw) from None
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username is not None
    ):
        raise ConteurError("web.public_url.bad", url=raw)
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    default = {"http": 80, "https": 443}[parts.scheme]
    shown = f":{port}" if port is not None and port != default else ""
    return f"{parts.scheme}://{host.lower()}{shown}"


def hosting_from(
    public_url: str | None, forwarded_allow_ips: str | None, lan_url: str | None = None
) -> Hosting:
    """A ``Hosting`` from options (None: the environment's ``CONTEUR_PUBLIC_URL``,
    ``CONTEUR_FORWARDED_ALLOW_IPS`` and ``CONTEUR_LAN_URL``, else the defaults)."""
    url = public_url if public_url is not None else os.environ.get(PUBLIC_URL_ENV, "")
    allowed = (
        forwarded_allow_ips
        if forwarded_allow_ips is not None
        else os.environ.get(FORWARDED_ENV, DEFAULT_FORWARDED)
    )
    where = "--forwarded-allow-ips" if forwarded_allow_ips is not None else FORWARDED_ENV
    lan = lan_url if lan_url is not None else os.environ.get(LAN_URL_ENV, "")
    return Hosting(
        parse_public_url(url) if url.strip() else None,
        check_proxies(allowed, where),
        parse_public_url(lan) if lan.strip() else None,
    )


def check_proxies(raw: str, where: str) -> str:
    """The trusted proxies, each an address, a network (``10.0.0.0/8``) or ``*``;
    ``ConteurError`` naming the option (or variable) and the entry otherwise — a typo such
    as ``127.0.0.l`` would silently trust no one."""
    for part in (p.strip() for p in raw.split(",")):
        if not part or part == "*":
            continue
        try:
            ipaddress.ip_network(part, strict=False)
        except ValueError:
            raise ConteurError("web.serve.proxy_bad", where=where, value=part[:60]) from None
    return raw.strip()


MAX_HOST = 253
"""The longest host name (RFC 1123)."""


def check_listen(host: str, port: int) -> None:
    """``--host`` and ``--port`` as the server can listen on them: an address or a host
    name (never looked up here), a port from 1 to 65535; ``ConteurError`` otherwise."""
    if not 1 <= port <= 65535:
        raise ConteurError("web.serve.port_bad", port=port)
    name = host.strip("[]") if host.startswith("[") else host
    if name in ALL_INTERFACES:
        return
    try:
        ipaddress.ip_address(name)
        return
    except ValueError:
        pass
    labels = name.rstrip(".").split(".")
    if (
        not name
        or len(name) > MAX_HOST
        or not all(
            0 < len(label) <= 63
            and label.isascii()
            and all(c.isalnum() or c == "-" for c in label)
            and not label.startswith("-")
            and not label.endswith("-")
            for label in labels
        )
    ):
        shown = host if len(host) <= 60 else host[:57] + "..."
        raise ConteurError("web.serve.host_bad", host=shown)


def check_can_listen(host: str, port: int) -> None:
    """That the server can listen on ``host:port``: the name is known to this machine and
    the port free — tried by binding a socket there and closing it at once (nothing is
    sent), so the game master reads why in words rather than the server's own error."""
    shown = host if len(host) <= 60 else host[:57] + "..."
    try:
        infos = socket.getaddrinfo(
            host.strip("[]") or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except (OSError, UnicodeError):
        raise ConteurError("web.serve.host_unknown", host=shown) from None
    family, kind, proto, _, address = infos[0]
    try:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        known = {errno.EADDRINUSE: "web.serve.port_taken", errno.EACCES: "web.serve.port_denied"}
        if exc.errno in known:
            raise ConteurError(known[exc.errno], host=shown, port=port) from None
        reason = exc.strerror or type(exc).__name__
        raise ConteurError(
            "web.serve.cannot_listen", host=shown, port=port, reason=reason
        ) from None


def secret_from_env() -> bytes | None:
    """The signing key named by ``CONTEUR_SECRET_KEY`` (None when unset); ConteurError
    ``web.secret.short`` when it is too short to be a secret."""
    raw = os.environ.get(SECRET_ENV, "")
    if not raw:
        return None
    if len(raw) < MIN_SECRET:
        raise ConteurError("web.secret.short", name=SECRET_ENV, min=MIN_SECRET)
    return hashlib.sha256(raw.encode("utf-8")).digest()


def app_from_env() -> FastAPI:
    """The app of one server process, from the environment (uvicorn's ``--factory``)::

        CONTEUR_DATABASE_URL=postgresql://… CONTEUR_SECRET_KEY=… \\
            uvicorn --factory conteur.web.hosting:app_from_env --port 8001
    """
    hosting = hosting_from(None, None)
    secret = secret_from_env()
    return create_app(open_store(), secret=secret, hosting=hosting, warm=True)


__all__ = [
    "ALL_INTERFACES",
    "DEFAULT_FORWARDED",
    "FORWARDED_ENV",
    "LAN_URL_ENV",
    "PUBLIC_URL_ENV",
    "SECRET_ENV",
    "Hosting",
    "SecureCookies",
    "app_from_env",
    "hosting_from",
    "is_loopback",
    "join_base",
    "lan_address",
    "parse_public_url",
    "secret_from_env",
]
