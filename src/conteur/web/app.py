"""The FastAPI application: the game master's pages, the players' pages, live streams;
``create_app`` assembles it from one ``AppContext`` (``web.context``), the error handlers
(``web.errors``) and the routers of ``web.routes``.

Security: the game master opens ``/?token=…`` (printed by ``conteur serve``: the
token opens one session, then stops working), or types the password in the login
form of any GM page (``POST /login``, so it never lands in a URL); when no password
has been chosen yet, the token's session first asks for one (``/password``). A valid
secret (checked against the stored hash, in a worker thread) opens a session, stored
(``sessions``: it survives restarts, the settings page lists and revokes them) and
kept in an HttpOnly cookie, and redirects to a path of this site only. Failed attempts
slow the next ones from the same address down (``throttle``). Every POST carries a
CSRF token (hidden field ``csrf`` or header ``X-CSRF-Token``) derived from the session
(or, on a player's page, from the player's token). A refused input answers with a
message in the reader's language and changes nothing; an undo names the seq
its page showed, and a stale one is refused (409) with the fresh state.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from importlib import resources

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from conteur.engine.visibility import GM
from conteur.store import Store

from .address import Hosting, SecureCookies
from .context import AppContext
from .errors import add_error_handlers
from .live import listen_for_changes
from .login import TokenLogin
from .routes import auth, campaigns, characters, encounters, odds, player, rolls, settings, table
from .routes.auth import login_with_token
from .sessions import idle_seconds
from .warmup import warm_up

FROM_ENVIRONMENT = -1.0
"""``create_app``'s ``session_idle``: read ``CONTEUR_SESSION_IDLE`` (``idle_seconds``)."""
SWITCH_SECONDS = 0.001
ROUTERS = (
    auth.router,
    settings.router,
    campaigns.router,
    characters.router,
    encounters.router,
    rolls.router,
    odds.router,
    player.router,
    table.router,
)
"""Every part of the site (``routes``)."""


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """While the app serves: the live streams are not kept waiting behind worker threads,
    other processes' changes (PostgreSQL) wake them, and they end when the server stops."""
    ctx: AppContext = app.state.context
    # Worker threads (commands, snapshots) hand the interpreter back to the event loop
    # often, so the live streams are not kept waiting behind them.
    previous = sys.getswitchinterval()
    sys.setswitchinterval(min(previous, SWITCH_SECONDS))
    # On PostgreSQL, other processes' commands wake this one's streams at once.
    listening = listen_for_changes(ctx.store, ctx.notifier, ctx.panels.forget)
    if app.state.warm:  # the first page after a start renders at its steady speed
        app.state.warmed = await run_in_threadpool(
            warm_up, ctx.store, lambda e: ctx.panels.snapshot(e, "fr", viewer=GM)
        )
    app.state.listener = listening[1] if listening else None
    try:
        yield
    finally:
        sys.setswitchinterval(previous)
        if listening is not None:
            listening[0].cancel()
        ctx.notifier.close()  # open streams end, so the server can stop


def create_app(
    store: Store,
    *,
    secret: bytes | None = None,
    hosting: Hosting | None = None,
    session_idle: float | None = FROM_ENVIRONMENT,
    warm: bool = False,
) -> FastAPI:
    """The web app over ``store`` (the game master's token is set with ``store.new_gm_token``).

    ``secret`` signs the sessions and the CSRF tokens (default: the key the database keeps,
    ``Store.signing_key``, the same for every process and after a restart); ``hosting`` is
    the public address and the trusted proxies (``web.hosting``; default: links follow the
    request, a proxy on 127.0.0.1); ``session_idle``: the seconds a GM's session may stay
    unseen before it expires (None: never; default: ``CONTEUR_SESSION_IDLE``, in hours, else
    ``sessions.IDLE_HOURS``); ``warm``: before its first request the server compiles its
    templates, reads the rule catalogues and draws the open encounters (``web.warmup``: a
    restart does not make the first reader wait; tests' apps skip it).
    """
    if session_idle is not None and session_idle < 0:
        session_idle = idle_seconds()
    ctx = AppContext(
        store,
        secret=secret or store.signing_key(),
        hosting=hosting or Hosting(),
        session_idle=session_idle,
    )
    app = FastAPI(
        title="conteur", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan
    )
    app.state.context = ctx
    app.state.warm = warm
    # The parts on their own too (the tests reach them).
    app.state.store = store
    app.state.notifier = ctx.notifier
    app.state.secret = ctx.secret
    app.state.hosting = ctx.hosting
    app.state.throttle = ctx.throttle
    app.state.sessions = ctx.sessions
    app.state.panels = ctx.panels

    static = resources.files("conteur.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    add_error_handlers(app)
    app.add_middleware(TokenLogin, login=partial(login_with_token, ctx))
    for router in ROUTERS:  # the routes themselves: ``app.routes`` lists every one
        app.router.routes.extend(router.routes)
    # Outermost: the forwarded headers first (the client, the scheme), then cookies made
    # Secure over https — every cookie any route or middleware sets.
    hosting = ctx.hosting
    app.add_middleware(SecureCookies, https=hosting.https if hosting.public_url else None)
    if hosting.trusted():
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=hosting.trusted())
    return app
