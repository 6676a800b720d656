"""What the vtm ruleset adds to the command line (entry-point group ``conteur.cli``).

``conteur roll vtm``, ``conteur odds vtm``, the report of a vtm roll and its part of
``conteur demo``. Light on purpose (no Typer, no numpy, not the ruleset): the console
script reads it before anything else; the commands are in ``.terminal``.
"""

from __future__ import annotations

from conteur.cli_parts import CHART_POOL, CliParts, CommandRef, OddsCommand, OddsOption

CLI = CliParts(
    commands={"roll": CommandRef("conteur.rulesets.vtm.terminal:roll", "cli.help.roll.vtm")},
    odds=OddsCommand(
        help="odds.help.vtm",
        options=(
            OddsOption("pool", "--pool", help="odds.help.pool"),
            OddsOption("difficulty", "--difficulty", default=6, help="odds.help.difficulty"),
            OddsOption("no_cancel", "--no-cancel", "flag", help="odds.help.no_cancel"),
            OddsOption("willpower", "--willpower", "flag", help="odds.help.willpower"),
            OddsOption("table", "--table", "flag", help="odds.help.table"),
            OddsOption("max_pool", "--max-pool", default=CHART_POOL, help="odds.help.max_pool"),
        ),
        answer="conteur.rulesets.vtm.dice:odds_answer",
        show="conteur.rulesets.vtm.terminal:show_odds",
    ),
    reports={"vtm": "conteur.rulesets.vtm.terminal:REPORT"},
    demo="conteur.rulesets.vtm.terminal:demo_part",
)
