"""``conteur odds <ruleset>``: its command line read from the ruleset's declaration, and its
answer — the one code path of the command, with or without ``--json``.

A ruleset declares its odds command option by option (``conteur.cli_parts.OddsCommand``).
The console script (``conteur.launch``) reads the argument list with ``read_odds_args``
and answers with ``answer_odds``, without loading Typer. The Typer app builds the same
command from the same declaration (``conteur.cli.rulesets.odds_command``) for what only
it renders — ``--help`` and Click's usage errors, which ``read_odds_args`` leaves to it —
and its command runs ``answer_odds`` too.

No Typer here, and nothing heavy at import: numpy, Rich and Babel come with the answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from conteur.cli_parts import OddsCommand, resolve

from .plain import print_json, user_errors

_INT = re.compile(r"-?[0-9]+")


OddsArgs = tuple[dict[str, Any], str | None, bool]
"""The options of an odds command, its ``--lang`` value and whether ``--json`` was given."""


def read_odds_args(spec: OddsCommand, args: Sequence[str]) -> OddsArgs | None:
    """``(options, --lang value, --json)`` of ``conteur odds <ruleset> ARGS``, or None.

    The options hold every declared option (its default when not given); a repeated option
    keeps its last value, as Click has it. None for anything Click has to answer: ``--help``,
    an unknown option or argument, a value that is not a plain integer, a value missing, a
    required option missing — the Typer app then prints its help or its usage error.
    """
    flags = {o.flag: o.name for o in spec.options if o.kind == "flag"}
    values = {o.flag: o.name for o in spec.options if o.kind == "int"}
    given: dict[str, Any] = {}
    lang: str | None = None
    as_json = False
    i = 0
    while i < len(args):
        token, sep, attached = args[i].partition("=")
        if token in flags and not sep:
            given[flags[token]] = True
        elif token == "--json" and not sep:
            as_json = True
        elif token in values or token == "--lang":
            if sep:
                value = attached
            elif i + 1 < len(args):
                i += 1
                value = args[i]
            else:
                return None
            if token == "--lang":
                if value.startswith("-") and not sep:
                    return None
                lang = value
            elif _INT.fullmatch(value):
                given[values[token]] = int(value)
            else:
                return None
        else:
            return None
        i += 1
    if any(o.required and o.name not in given for o in spec.options):
        return None
    return {**spec.defaults(), **given}, lang, as_json


def answer_odds(spec: OddsCommand, values: dict[str, Any], lang: str | None, as_json: bool) -> None:
    """Print the answer of ``conteur odds <ruleset>``: ``spec.answer(**values)`` as JSON with
    ``--json``, else ``spec.show(lang, **values)``. A ``ConteurError`` is reported in the
    chosen language (as JSON with ``--json``) and ends the process with exit code 2."""
    with user_errors(lang, as_json) as chosen:
        spec.check(values)
        if not as_json:
            resolve(spec.show)(chosen, **values)
            return
        data = resolve(spec.answer)(**values)
    print_json(data)


__all__ = ["answer_odds", "read_odds_args"]
