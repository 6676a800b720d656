"""``conteur odds``'s group and ``conteur odds attack``: the exact odds of a whole attack in a
scenario, for any ruleset (answered by ``conteur.cli.attack_line``, as the console script
answers it)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .attack_line import AttackArgs, answer_attack
from .chrome import ChromeCommand
from .common import JsonOption, LangOption, help_text
from .rulesets import ruleset_group

odds_app = typer.Typer(
    cls=ruleset_group("odds"), help=help_text("odds.help.group"), no_args_is_help=True
)
"""``conteur odds``: ``attack`` here, then one command per ruleset that declares one."""


@odds_app.command("attack", cls=ChromeCommand, help=help_text("odds.help.attack"))
def attack_command(
    scenario: Annotated[Path, typer.Argument(help="SCENARIO.yaml")],
    attacker: Annotated[str, typer.Option("--attacker")],
    target: Annotated[str, typer.Option("--target")],
    maneuver: Annotated[str | None, typer.Option("--maneuver")] = None,
    param: Annotated[list[str] | None, typer.Option("--param", help="NAME=VALUE")] = None,
    lang: LangOption = None,
    as_json: JsonOption = False,
) -> None:
    """Exact odds of ``attacker`` attacking ``target`` in the scenario's starting state."""
    answer_attack(AttackArgs(scenario, attacker, target, maneuver, param or [], lang, as_json))
