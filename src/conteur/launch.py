"""The ``conteur`` console script: a fast path for ``conteur odds ... --json``, else the Typer app.

Loading the Typer app costs more than the odds themselves: Typer, and the
pydantic adapters it builds for every option, take ~0.2 s before a command
runs. Scripts that call ``conteur odds ... --json`` in a loop pay that each
time, so this entry point answers those calls directly:

* only ``conteur odds <ruleset>`` for a ruleset that declares an odds command
  (``conteur.cli_parts.OddsCommand``, entry-point group ``conteur.cli``), followed
  by options of that command, written ``--option value``, with ``--json`` among them;
* the options are read from that declaration — the one the Typer command is built
  from — and the answer comes from the function it names (``OddsCommand.answer``),
  the one the Typer command prints; errors are reported as the Typer command
  reports them (JSON on stdout, exit code 2);
* anything else — another command, ``--help``, ``--option=value``, a value
  that is not a plain integer, an unknown option, a required option missing —
  goes to the Typer app unchanged, which then gives its usual answer or error.

Tests run the same argument lists through both paths and compare the output.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conteur.cli_parts import OddsCommand

_INT = re.compile(r"-?[0-9]+")


def parse_fast_odds(
    argv: Sequence[str],
) -> tuple[OddsCommand, dict[str, Any], str | None] | None:
    """``(odds command, its options, --lang value)`` when ``argv`` is a fast-path call, else None.

    The options hold every declared option (its default when not given).
    """
    if len(argv) < 2 or argv[0] != "odds" or "--json" not in argv[2:]:
        return None
    from conteur.cli_parts import quick_parts_of

    parts = quick_parts_of(argv[1])
    spec = parts.odds if parts is not None else None
    if spec is None:
        return None
    flags = {o.flag: o.name for o in spec.options if o.kind == "flag"}
    values = {o.flag: o.name for o in spec.options if o.kind == "int"}
    given: dict[str, Any] = {}
    lang: str | None = None
    i = 2
    while i < len(argv):
        token = argv[i]
        if token in flags:
            given[flags[token]] = True
        elif token in values or token == "--lang":
            if i + 1 >= len(argv):
                return None
            value = argv[i + 1]
            if token == "--lang":
                if value.startswith("-"):
                    return None
                lang = value
            elif _INT.fullmatch(value):
                given[values[token]] = int(value)
            else:
                return None
            i += 1
        elif token != "--json":
            return None
        i += 1
    if any(o.required and o.name not in given for o in spec.options):
        return None
    return spec, {**spec.defaults(), **given}, lang


def run_fast_odds(spec: OddsCommand, kwargs: dict[str, Any], lang_option: str | None) -> int:
    """Print the JSON answer (or the JSON error) and return the exit code."""
    from conteur.cli_parts import resolve
    from conteur.i18n import ConteurError, env_lang, parse_lang

    lang = parse_lang(lang_option) if lang_option else env_lang()
    try:
        spec.check(kwargs)
        data = resolve(spec.answer)(**kwargs)
    except ConteurError as error:
        data, code = error.to_dict(lang), 2
    else:
        code = 0
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    sys.stdout.flush()
    return code


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``conteur`` console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    from conteur.i18n import env_lang_refusal

    refusal = env_lang_refusal()  # the Typer app refuses it too; the fast path is before it
    if refusal is not None:
        sys.stderr.write(refusal + "\n")
        sys.exit(2)
    fast = parse_fast_odds(args)
    if fast is not None:
        sys.exit(run_fast_odds(*fast))
    if argv is None:
        from conteur.cli import main as typer_main

        typer_main()
    else:
        from conteur.cli import app

        app(args=args, prog_name="conteur")
