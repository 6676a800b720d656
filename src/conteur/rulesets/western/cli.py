"""What the western ruleset adds to the command line (entry-point group ``conteur.cli``).

``conteur roll western``, ``conteur odds western``, the report of a d100 roll and its
part of ``conteur demo``. Light on purpose (no Typer, not the ruleset): the console
script reads it before anything else; the commands are in ``.terminal``.
"""

from __future__ import annotations

from conteur.cli_parts import CliParts, CommandRef, OddsCommand, OddsOption

MIN_SKILL = 0
"""An adjusted percentage is 0 or more (above 100 it still rolls for a critical, W-CRIT-1)."""

CLI = CliParts(
    commands={
        "roll": CommandRef("conteur.rulesets.western.roll_command:roll", "cli.help.roll.western")
    },
    odds=OddsCommand(
        help="odds.help.western",
        options=(
            OddsOption("skill", "--skill", help="odds.help.skill", required=True, low=MIN_SKILL),
        ),
        answer="conteur.rulesets.western.dice:odds_answer",
        show="conteur.rulesets.western.terminal:show_odds",
    ),
    reports={"percentile": "conteur.rulesets.western.terminal:REPORT"},
    demo="conteur.rulesets.western.terminal:demo_part",
)
