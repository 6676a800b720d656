"""The CLI's common options and its error reporting, below the root app and the rulesets' groups.

``common`` (the root app) and ``rulesets`` (the rulesets' commands, which the root app is
built from) both read them, so they live here, importing neither.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, NoReturn

import typer

from conteur.i18n import (
    LANGS,
    ConteurError,
    Lang,
    env_lang,
    env_lang_refusal,
    known_lang,
    parse_lang,
    t,
)


def help_text(key: str) -> str:
    """The help text ``key`` in the language of ``CONTEUR_LANG`` (French by default)."""
    return t(key, env_lang())


LangOption = Annotated[
    str | None,
    typer.Option("--lang", help=help_text("cli.help.lang")),
]
JsonOption = Annotated[bool, typer.Option("--json", help=help_text("cli.help.json"))]
SeedOption = Annotated[int | None, typer.Option("--seed", help=help_text("cli.help.seed"))]
DiceOption = Annotated[str | None, typer.Option("--dice", help=help_text("cli.help.dice"))]


def resolve_lang(option: str | None) -> Lang:
    """``--lang`` when given, else ``CONTEUR_LANG``, else French. A ``--lang`` that names
    neither French nor English (``fr``, ``en``, ``fr_FR``, ``en-GB``, any case) is refused —
    in ``CONTEUR_LANG``'s language — rather than read as French: exit code 2."""
    if not option:
        return env_lang()
    if not known_lang(option):
        fail(ConteurError("cli.lang_bad", value=option[:40], known=", ".join(LANGS)), env_lang())
    return parse_lang(option)


def refuse_bad_env_lang() -> None:
    """Exit 2 with the refusal in every language when ``CONTEUR_LANG`` names a language
    conteur does not speak (``conteur.i18n.env_lang_refusal``)."""
    refusal = env_lang_refusal()
    if refusal is not None:
        sys.stderr.write(refusal + "\n")
        raise typer.Exit(2)


def fail(error: ConteurError, lang: Lang, as_json: bool = False) -> NoReturn:
    """Report a user error in ``lang`` (JSON on stdout with ``--json``) and exit 2."""
    if as_json:
        print_json(error.to_dict(lang))
    else:
        sys.stderr.write(t("cli.error", lang, message=error.message(lang)) + "\n")
    raise typer.Exit(2)


def print_json(data: Any) -> None:
    """Write ``data`` as JSON on stdout."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
