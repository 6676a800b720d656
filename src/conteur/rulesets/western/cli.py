"""What the western ruleset adds to the command line (entry-point group ``conteur.cli``).

``conteur roll western``, ``conteur odds western``, the report of a d100 roll and its
part of ``conteur demo``. Light on purpose (no Typer, not the ruleset): the console
script reads it before anything else; the commands are in ``.terminal``.
"""

from __future__ import annotations

from conteur.cli_parts import CliParts, CommandRef, OddsCommand, OddsOption

CLI = CliParts(
    commands={
        "roll": CommandRef("conteur.rulesets.western.terminal:roll", "cli.help.roll.western")
    },
    odds=OddsCommand(
        help="odds.help.western",
        options=(OddsOption("skill", "--skill", help="odds.help.skill", required=True),),
        answer="conteur.rulesets.western.dice:odds_answer",
        show="conteur.rulesets.western.terminal:show_odds",
    ),
    reports={"percentile": "conteur.rulesets.western.terminal:REPORT"},
    demo="conteur.rulesets.western.terminal:demo_part",
)
