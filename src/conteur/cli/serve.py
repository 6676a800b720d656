"""``conteur serve``: the live combat tracker in a browser (FastAPI + uvicorn).

At start it prints the game master's link with a fresh secret token (only its
hash is stored), Jupyter-style; ``--demo`` first loads the French demo
campaign (the saloon, 1899) when the database is empty.
"""

from __future__ import annotations

from typing import Annotated

import typer

import conteur.i18n
from conteur.i18n import ConteurError, t

from .common import LangOption, fail, help_text, resolve_lang

conteur.i18n.register_package_catalog("conteur.cli", "messages-serve.yaml")


def serve(
    host: Annotated[
        str, typer.Option("--host", help=help_text("cli.help.serve.host"))
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help=help_text("cli.help.serve.port"))] = 8000,
    demo: Annotated[bool, typer.Option("--demo", help=help_text("cli.help.serve.demo"))] = False,
    lang: LangOption = None,
) -> None:
    """Serve the game master's and the players' pages."""
    import uvicorn

    from conteur.store import open_store
    from conteur.web import create_app
    from conteur.web.demo import load_demo

    chosen = resolve_lang(lang)
    try:
        store = open_store()
        if demo:
            loaded = load_demo(store)
            if loaded is not None:
                typer.echo(t("web.serve.demo_loaded", chosen, name=loaded.name))
        token = store.new_gm_token()
    except ConteurError as error:
        fail(error, chosen, False)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    typer.echo(t("web.serve.database", chosen, url=store.url))
    typer.echo(t("web.serve.open", chosen, url=f"http://{shown}:{port}/?token={token}"))
    app = create_app(store)
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)
