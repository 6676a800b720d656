"""``conteur db``: create, upgrade and describe the database (``init``, ``upgrade``, ``info``),
back a campaign up and restore it (``export``, ``import``: ``conteur.store.backup``).

The database is the one ``conteur.store`` opens: ``--url``, else
``CONTEUR_DATABASE_URL``, else the SQLite file in the user's data folder
(``CONTEUR_DATA_DIR``). SQLAlchemy is imported only when a command runs.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

import conteur.i18n
from conteur.i18n import ConteurError, os_reason, t

from .chrome import ChromeCommand, ChromeGroup
from .common import JsonOption, LangOption, fail, help_text, print_json, resolve_lang
from .plain import user_errors

conteur.i18n.register_package_catalog("conteur.cli", "messages-db.yaml")

db_app = typer.Typer(cls=ChromeGroup, help=help_text("cli.help.db"), no_args_is_help=True)


UrlOption = Annotated[str | None, typer.Option("--url", help=help_text("cli.help.db.url"))]


def _upgrade(url: str | None, lang_option: str | None, key: str) -> None:
    lang = resolve_lang(lang_option)
    try:
        from conteur.store import current_revision, database_url, display_url, make_engine
        from conteur.store.db import unreachable
        from conteur.store.migrate import HEAD, upgrade

        target = url or database_url()
        engine = make_engine(target)
        try:
            before = current_revision(engine)
            upgrade(engine)
        finally:
            engine.dispose()
    except ConteurError as error:
        fail(error, lang)
    except Exception as exc:  # the database could not be reached or written
        fail(unreachable(url or database_url(), exc), lang)
    typer.echo(t(key, lang, url=display_url(target), before=before or "-", revision=HEAD))


@db_app.command("init", cls=ChromeCommand, help=help_text("cli.help.db.init"))
def init(url: UrlOption = None, lang: LangOption = None) -> None:
    _upgrade(url, lang, "cli.db.ready")


@db_app.command("upgrade", cls=ChromeCommand, help=help_text("cli.help.db.upgrade"))
def upgrade_command(url: UrlOption = None, lang: LangOption = None) -> None:
    _upgrade(url, lang, "cli.db.upgraded")


@db_app.command("info", cls=ChromeCommand, help=help_text("cli.help.db.info"))
def info(url: UrlOption = None, lang: LangOption = None, as_json: JsonOption = False) -> None:
    chosen = resolve_lang(lang)
    try:
        from conteur.store import Store, current_revision, database_url, display_url, make_engine
        from conteur.store.db import unreachable
        from conteur.store.migrate import HEAD

        target = url or database_url()
        engine = make_engine(target)
        store = Store(engine)
        try:
            revision = current_revision(engine)
            counts = store.counts() if revision is not None else {}
        finally:
            store.close()
    except ConteurError as error:
        fail(error, chosen, as_json)
    except Exception as exc:
        fail(unreachable(url or database_url(), exc), chosen, as_json)
    shown = display_url(target)
    if as_json:
        print_json({"url": shown, "revision": revision, "head": HEAD, **counts})
    elif revision is None:
        typer.echo(t("cli.db.empty", chosen, url=shown))
    else:
        typer.echo(t("cli.db.info", chosen, url=shown, revision=revision, head=HEAD, **counts))


def _open(url: str | None) -> Any:
    """The store at ``url`` (else the default database), its schema brought up to date."""
    from conteur.store import database_url, open_store
    from conteur.store.db import unreachable

    target = url or database_url()
    try:
        return open_store(target)
    except ConteurError:
        raise
    except Exception as exc:
        raise unreachable(target, exc) from None


@db_app.command("export", cls=ChromeCommand, help=help_text("cli.help.db.export"))
def export_command(
    campaign: Annotated[int, typer.Option("--campaign", help=help_text("cli.help.db.campaign"))],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help=help_text("cli.help.db.output"))
    ] = None,
    url: UrlOption = None,
    lang: LangOption = None,
) -> None:
    with user_errors(lang) as chosen:
        from conteur.store.backup import dump

        store = _open(url)
        try:
            data = store.export_campaign(campaign)
        finally:
            store.close()
        text = dump(data)
        if output is not None:
            try:
                output.write_text(text, encoding="utf-8")
            except OSError as exc:
                raise ConteurError(
                    "cli.db.unwritable", source=str(output), reason=os_reason(exc)
                ) from None
    if output is None:
        sys.stdout.write(text)
        return
    entries = sum(len(e["log"]) for e in data["encounters"])
    typer.echo(
        t(
            "cli.db.exported",
            chosen,
            name=data["campaign"]["name"],
            file=str(output),
            characters=len(data["characters"]),
            encounters=len(data["encounters"]),
            log=entries,
        )
    )


@db_app.command("import", cls=ChromeCommand, help=help_text("cli.help.db.import"))
def import_command(
    file: Annotated[Path, typer.Argument(help=help_text("cli.help.db.file"), show_default=False)],
    url: UrlOption = None,
    lang: LangOption = None,
    as_json: JsonOption = False,
) -> None:
    chosen = resolve_lang(lang)
    try:
        from conteur.engine.inputs import not_utf8
        from conteur.store.backup import parse, read_backup

        try:
            text = file.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise not_utf8(file, exc) from None
        except OSError as exc:
            reason = os_reason(exc)
            raise ConteurError("cli.db.unreadable", source=str(file), reason=reason) from None
        # read and checked whole before the database is opened: a refused file changes
        # nothing, not even a database that did not exist yet
        checked = read_backup(parse(text, str(file)), str(file))
        store = _open(url)
        try:
            done = store.import_campaign(checked, str(file))
        finally:
            store.close()
    except ConteurError as error:
        if error.key != "input.invalid" or as_json:
            fail(error, chosen, as_json)
        # the file is refused whole (the strict input layer): say that nothing changed
        sys.stderr.write(t("cli.error", chosen, message=error.message(chosen)) + "\n")
        sys.stderr.write(t("cli.db.nothing_imported", chosen) + "\n")
        raise typer.Exit(2) from None
    if as_json:
        print_json(
            {
                "campaign": done.campaign.id,
                "name": done.campaign.name,
                "characters": {str(k): v for k, v in done.characters.items()},
                "encounters": {str(k): v for k, v in done.encounters.items()},
                "log": done.entries,
            }
        )
        return
    typer.echo(
        t(
            "cli.db.imported",
            chosen,
            name=done.campaign.name,
            file=str(file),
            id=done.campaign.id,
            characters=len(done.characters),
            encounters=len(done.encounters),
            log=done.entries,
        )
    )
