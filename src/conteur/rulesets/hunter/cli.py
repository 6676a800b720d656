"""What the hunter ruleset adds to the command line (entry-point group ``conteur.cli``).

``conteur roll hunter``, ``conteur odds hunter``, ``conteur xp hunter``, the report of
a hunter roll and its part of ``conteur demo``. Light on purpose (no Typer, no
numpy, not the ruleset): the console script reads it before anything else; the
commands are in ``.terminal`` and ``.xp_terminal``.
"""

from __future__ import annotations

from conteur.cli_parts import CHART_OPTIONS, CliParts, CommandRef, OddsCommand, OddsOption

MAX_POOL = 200
"""The largest pool a command line takes (``conteur.dice.rolls.MAX_POOL``); a pool of 0 or
less, cut down by penalties, is the chance die (H-CHANCE-1)."""

CLI = CliParts(
    commands={
        "roll": CommandRef("conteur.rulesets.hunter.roll_command:roll", "cli.help.roll.hunter"),
        "xp": CommandRef("conteur.rulesets.hunter.xp_terminal:xp", "xp.help.hunter"),
    },
    odds=OddsCommand(
        help="odds.help.hunter",
        options=(
            OddsOption("pool", "--pool", help="odds.help.pool", high=MAX_POOL),
            OddsOption("again", "--again", default=10, help="odds.help.again"),
            OddsOption("rote", "--rote", "flag", help="odds.help.rote"),
            *CHART_OPTIONS,
        ),
        answer="conteur.rulesets.hunter.dice:odds_answer",
        show="conteur.rulesets.hunter.terminal:show_odds",
    ),
    groups={"xp": "xp.help.app"},
    reports={"hunter": "conteur.rulesets.hunter.terminal:REPORT"},
    demo="conteur.rulesets.hunter.terminal:demo_part",
)
