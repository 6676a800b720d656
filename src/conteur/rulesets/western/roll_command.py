"""``conteur roll western``: the Typer command of a 1D100 roll (declared in ``.cli``)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from conteur.cli.common import help_text
from conteur.cli.roll import roll_command
from conteur.cli_parts import check_range
from conteur.dice import Roll

from .cli import MIN_SKILL


@roll_command
def roll(
    skill: Annotated[int, typer.Option("--skill", "-s", help=help_text("cli.help.skill"))],
) -> Roll[Any]:
    """1D100 at or under the skill; critical under a tenth of it (W-CRIT-1)."""
    from .dice import Percentile

    check_range("--skill", skill, MIN_SKILL)
    return Percentile(skill)
