"""The CLI's pieces that need no Typer: help texts, ``--lang``, error reports, JSON.

The Typer app (``options``, ``common``) and the console script's own answer to
``conteur odds <ruleset>`` (``conteur.launch``) share them; a user error ends the
process with exit code 2 (``SystemExit``, which Click lets through unchanged).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

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


def name_values(items: list[str], error: str) -> dict[str, str]:
    """``NAME=VALUE`` items (a repeated ``--param``) as a mapping, each side stripped;
    ``ConteurError(error, value=item)`` for an item without ``=`` or without a name."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ConteurError(error, value=item)
        out[name.strip()] = value.strip()
    return out


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
        raise SystemExit(2)


def fail(error: ConteurError, lang: Lang, as_json: bool = False) -> NoReturn:
    """Report a user error in ``lang`` (JSON on stdout with ``--json``) and exit 2."""
    if as_json:
        print_json(error.to_dict(lang))
    else:
        sys.stderr.write(t("cli.error", lang, message=error.message(lang)) + "\n")
    raise SystemExit(2)


@contextmanager
def user_errors(lang: str | None, as_json: bool = False) -> Iterator[Lang]:
    """The frame of a command's body: yields the reader's language (``resolve_lang`` of
    ``--lang``), and reports a ``ConteurError`` the body raises in it (``fail``: as JSON
    with ``--json``), exit code 2."""
    chosen = resolve_lang(lang)
    try:
        yield chosen
    except ConteurError as error:
        fail(error, chosen, as_json)


def print_json(data: Any) -> None:
    """Write ``data`` as JSON on stdout."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


__all__ = [
    "fail",
    "help_text",
    "name_values",
    "print_json",
    "refuse_bad_env_lang",
    "resolve_lang",
    "user_errors",
]
