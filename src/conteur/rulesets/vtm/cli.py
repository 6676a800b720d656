"""What the vtm ruleset adds to the command line (entry-point group ``conteur.cli``).

``conteur roll vtm``, ``conteur odds vtm``, the report of a vtm roll and its part of
``conteur demo``. Light on purpose (no Typer, no numpy, not the ruleset): the console
script reads it before anything else; the commands are in ``.terminal``.
"""

from __future__ import annotations

from conteur.cli_parts import CHART_OPTIONS, CliParts, CommandRef, OddsCommand, OddsOption

MIN_DIFFICULTY, MAX_DIFFICULTY = 2, 10
"""A difficulty stays within 2..10 (the d10 system of ``000``/``001``)."""
MAX_POOL = 200
"""The largest pool a command line takes (``conteur.dice.rolls.MAX_POOL``)."""

CLI = CliParts(
    commands={"roll": CommandRef("conteur.rulesets.vtm.roll_command:roll", "cli.help.roll.vtm")},
    odds=OddsCommand(
        help="odds.help.vtm",
        options=(
            OddsOption("pool", "--pool", help="odds.help.pool", low=0, high=MAX_POOL),
            OddsOption(
                "difficulty",
                "--difficulty",
                default=6,
                help="odds.help.difficulty",
                low=MIN_DIFFICULTY,
                high=MAX_DIFFICULTY,
            ),
            OddsOption("no_cancel", "--no-cancel", "flag", help="odds.help.no_cancel"),
            OddsOption("willpower", "--willpower", "flag", help="odds.help.willpower"),
            *CHART_OPTIONS,
        ),
        answer="conteur.rulesets.vtm.dice:odds_answer",
        show="conteur.rulesets.vtm.terminal:show_odds",
    ),
    reports={"vtm": "conteur.rulesets.vtm.terminal:REPORT"},
    demo="conteur.rulesets.vtm.terminal:demo_part",
)
