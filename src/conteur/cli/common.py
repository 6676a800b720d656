"""Shared pieces of the CLI: the root app, the language option, error reporting."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, NoReturn

import typer

from conteur.i18n import ConteurError, Lang, env_lang, parse_lang

app = typer.Typer(
    name="conteur",
    help="conteur — moteur de règles et suivi de combat / rules engine and combat tracker.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

LangOption = Annotated[
    str | None,
    typer.Option("--lang", help="Langue des messages : fr (défaut) ou en / message language."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Sortie JSON / JSON output.")]


def resolve_lang(option: str | None) -> Lang:
    """``--lang`` when given, else ``CONTEUR_LANG``, else French."""
    return parse_lang(option) if option else env_lang()


def fail(error: ConteurError, lang: Lang, as_json: bool = False) -> NoReturn:
    """Report a user error in ``lang`` (JSON on stdout with ``--json``) and exit 2."""
    if as_json:
        sys.stdout.write(json.dumps(error.to_dict(lang), ensure_ascii=False) + "\n")
    else:
        prefix = "erreur :" if lang == "fr" else "error:"
        sys.stderr.write(f"{prefix} {error.message(lang)}\n")
    raise typer.Exit(2)


def print_json(data: Any) -> None:
    """Write ``data`` as JSON on stdout."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
