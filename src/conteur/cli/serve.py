"""``conteur serve``: the live combat tracker in a browser (FastAPI + uvicorn).

At start it prints the game master's link with a fresh secret token (only its
hash is stored; it opens one session, then stops working: the first one asks
for a password), Jupyter-style, last; before it, the address phones join at —
with ``--host 0.0.0.0``, the machine's on the local network (``lan_address``), or
the public one. ``--demo`` first loads the French demo campaign (the saloon,
1899) when the database is empty. Behind a reverse proxy,
``--public-url`` (or ``CONTEUR_PUBLIC_URL``) is the address of every link and
``--forwarded-allow-ips`` the proxies believed; ``--workers N`` runs N processes
on one PostgreSQL database (``conteur.web.hosting``, docs/hosting.*.md).
"""

from __future__ import annotations

import dataclasses
import os
from typing import Annotated, Any

import typer

import conteur.i18n
from conteur.i18n import ConteurError, t

from .common import LangOption, fail, help_text, resolve_lang

conteur.i18n.register_package_catalog("conteur.cli", "messages-serve.yaml")


MAX_WORKERS = 64


def serve(
    host: Annotated[
        str, typer.Option("--host", help=help_text("cli.help.serve.host"))
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help=help_text("cli.help.serve.port"))] = 8000,
    demo: Annotated[bool, typer.Option("--demo", help=help_text("cli.help.serve.demo"))] = False,
    public_url: Annotated[
        str | None, typer.Option("--public-url", help=help_text("cli.help.serve.public_url"))
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option("--forwarded-allow-ips", help=help_text("cli.help.serve.forwarded_allow_ips")),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", help=help_text("cli.help.serve.workers"))
    ] = 1,
    lang: LangOption = None,
) -> None:
    """Serve the game master's and the players' pages."""
    import uvicorn

    from conteur.store import database_url, open_store
    from conteur.store.db import normalize_url
    from conteur.web import create_app
    from conteur.web.demo import load_demo
    from conteur.web.hosting import (
        ALL_INTERFACES,
        FORWARDED_ENV,
        LAN_URL_ENV,
        PUBLIC_URL_ENV,
        check_can_listen,
        check_listen,
        hosting_from,
        is_loopback,
        join_base,
        secret_from_env,
    )

    chosen = resolve_lang(lang)
    try:
        # every option and variable checked before the database is opened: a refused
        # command leaves nothing behind
        check_listen(host, port)
        check_can_listen(host, port)
        hosting = hosting_from(public_url, forwarded_allow_ips)
        secret = secret_from_env()
        if not 1 <= workers <= MAX_WORKERS:
            raise ConteurError("web.serve.workers_bad", workers=workers)
        if workers > 1 and normalize_url(database_url()).get_backend_name() != "postgresql":
            raise ConteurError("web.serve.workers_sqlite", workers=workers)
        store = open_store()
        if demo:
            loaded = load_demo(store)
            if loaded is not None:
                typer.echo(t("web.serve.demo_loaded", chosen, name=loaded.name))
        token = store.new_gm_token()
        first = not store.has_gm_password()
    except ConteurError as error:
        fail(error, chosen, False)
    shown = "127.0.0.1" if host in ALL_INTERFACES else host
    shown = f"[{shown}]" if ":" in shown else shown
    base = hosting.public_url or f"http://{shown}:{port}"
    # Where phones join: the public address, else (listening beyond this machine) the
    # local network's, which the players' links and QR codes then carry.
    local_only = hosting.public_url is None and is_loopback(host)
    join = join_base(host, port, hosting.public_url)
    if not local_only and hosting.public_url is None and hosting.lan_url is None:
        hosting = dataclasses.replace(hosting, lan_url=join)
    typer.echo(t("web.serve.database", chosen, url=store.url))
    if local_only:
        typer.echo(t("web.serve.local_only", chosen))
    else:
        typer.echo(t("web.serve.join", chosen, url=join + "/"))
    if workers > 1:
        typer.echo(t("web.serve.workers", chosen, workers=workers, listen=f"{shown}:{port}"))
    note = t("web.serve.first_password" if first else "web.serve.single_use", chosen)
    typer.echo(t("web.serve.open", chosen, url=f"{base}/?token={token}") + " " + note)
    options: dict[str, Any] = {
        "host": host.strip("[]"),  # uvicorn takes an IPv6 address bare
        "port": port,
        "log_level": "warning",
        "timeout_graceful_shutdown": 2,
        "proxy_headers": False,  # the app reads the forwarded headers itself (web.hosting)
    }
    if workers == 1:
        app = create_app(store, secret=secret, hosting=hosting, warm=True)
        uvicorn.run(app, **options)
        return
    # Each worker process builds its app from the environment (web.hosting.app_from_env):
    # the same database, address, trusted proxies and signing key for all.
    os.environ["CONTEUR_DATABASE_URL"] = store.engine.url.render_as_string(hide_password=False)
    os.environ[PUBLIC_URL_ENV] = hosting.public_url or ""
    os.environ[FORWARDED_ENV] = hosting.forwarded_allow_ips
    os.environ[LAN_URL_ENV] = hosting.lan_url or ""
    # No CONTEUR_SECRET_KEY: every process reads the same signing key from the database.
    store.close()
    uvicorn.run("conteur.web.hosting:app_from_env", factory=True, workers=workers, **options)
