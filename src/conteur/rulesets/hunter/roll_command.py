"""``conteur roll hunter``: the Typer command of a new-WoD pool (declared in ``.cli``)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from conteur.cli.common import help_text
from conteur.cli.roll import roll_command
from conteur.cli_parts import check_range
from conteur.dice import Roll

from .cli import MAX_POOL


@roll_command
def roll(
    pool: Annotated[int, typer.Option("--pool", "-p", help=help_text("cli.help.pool.hunter"))],
    again: Annotated[int, typer.Option("--again", help=help_text("cli.help.again"))] = 10,
    rote: Annotated[bool, typer.Option("--rote", help=help_text("cli.help.rote"))] = False,
) -> Roll[Any]:
    """A new-WoD pool: 8+ succeeds, 10-again (or 9, 8), optional rote; chance die at 0."""
    from .dice import HunterPool

    check_range("--pool", pool, None, MAX_POOL)  # 0 or less: the chance die (H-CHANCE-1)
    return HunterPool(dice=pool, again=again, rote=rote)
