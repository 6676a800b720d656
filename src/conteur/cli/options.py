"""The CLI's common options, below the root app and the rulesets' groups.

``common`` (the root app) and ``rulesets`` (the rulesets' commands, which the root app is
built from) both read them, so they live here, importing neither. The language, the error
reports and JSON come from ``plain`` (no Typer), re-exported.
"""

from __future__ import annotations

from typing import Annotated

import typer

from .plain import fail as fail
from .plain import help_text as help_text
from .plain import print_json as print_json
from .plain import refuse_bad_env_lang as refuse_bad_env_lang
from .plain import resolve_lang as resolve_lang

LangOption = Annotated[
    str | None,
    typer.Option("--lang", help=help_text("cli.help.lang")),
]
JsonOption = Annotated[bool, typer.Option("--json", help=help_text("cli.help.json"))]
SeedOption = Annotated[int | None, typer.Option("--seed", help=help_text("cli.help.seed"))]
DiceOption = Annotated[str | None, typer.Option("--dice", help=help_text("cli.help.dice"))]
