"""The ``conteur`` console script: a fast path for ``conteur odds ... --json``, else the Typer app.

Loading the Typer app costs more than the odds themselves: Typer, and the
pydantic adapters it builds for every option, take ~0.2 s before a command
runs. Scripts that call ``conteur odds ... --json`` in a loop pay that each
time, so this entry point answers those calls directly:

* only ``conteur odds vtm|hunter|western`` followed by options of that
  command, written ``--option value``, with ``--json`` among them;
* the answer comes from the same function the Typer command prints
  (``conteur.dice.odds.odds_answer``), and errors are reported as the Typer
  command reports them (JSON on stdout, exit code 2);
* anything else — another command, ``--help``, ``--option=value``, a value
  that is not a plain integer, an unknown option — goes to the Typer app
  unchanged, which then gives its usual answer or error.

Tests run the same argument lists through both paths and compare the output.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from typing import Any

_INT = re.compile(r"-?[0-9]+")

# For each command: its flags, and its options taking a value (with the keyword
# argument of ``odds_answer`` each sets, or None for ``--lang``).
_FLAGS: dict[str, dict[str, str]] = {
    "vtm": {"--no-cancel": "no_cancel", "--willpower": "willpower", "--table": "table"},
    "hunter": {"--rote": "rote", "--table": "table"},
    "western": {},
}
_VALUES: dict[str, dict[str, str]] = {
    "vtm": {"--pool": "pool", "--difficulty": "difficulty", "--max-pool": "max_pool"},
    "hunter": {"--pool": "pool", "--again": "again", "--max-pool": "max_pool"},
    "western": {"--skill": "skill"},
}
_REQUIRED: dict[str, tuple[str, ...]] = {"vtm": (), "hunter": (), "western": ("skill",)}


def parse_fast_odds(argv: Sequence[str]) -> tuple[str, dict[str, Any], str | None] | None:
    """``(game, keyword arguments, --lang value)`` when ``argv`` is a fast-path call, else None."""
    if len(argv) < 2 or argv[0] != "odds" or argv[1] not in _FLAGS:
        return None
    game = argv[1]
    flags, values = _FLAGS[game], _VALUES[game]
    kwargs: dict[str, Any] = {}
    lang: str | None = None
    as_json = False
    i = 2
    while i < len(argv):
        token = argv[i]
        if token == "--json":
            as_json = True
        elif token in flags:
            kwargs[flags[token]] = True
        elif token in values or token == "--lang":
            if i + 1 >= len(argv):
                return None
            value = argv[i + 1]
            if token == "--lang":
                if value.startswith("-"):
                    return None
                lang = value
            elif _INT.fullmatch(value):
                kwargs[values[token]] = int(value)
            else:
                return None
            i += 1
        else:
            return None
        i += 1
    if not as_json or any(name not in kwargs for name in _REQUIRED[game]):
        return None
    return game, kwargs, lang


def run_fast_odds(game: str, kwargs: dict[str, Any], lang_option: str | None) -> int:
    """Print the JSON answer (or the JSON error) and return the exit code."""
    from conteur.i18n import ConteurError, env_lang, parse_lang

    lang = parse_lang(lang_option) if lang_option else env_lang()
    try:
        from conteur.dice.odds import odds_answer

        data = odds_answer(game, **kwargs)  # type: ignore[arg-type]
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
    fast = parse_fast_odds(args)
    if fast is not None:
        sys.exit(run_fast_odds(*fast))
    if argv is None:
        from conteur.cli import main as typer_main

        typer_main()
    else:
        from conteur.cli import app

        app(args=args, prog_name="conteur")
