"""The ``conteur`` console script: ``conteur odds <ruleset>`` answered directly, else the Typer app.

Loading the Typer app costs more than an odds answer: Typer, Click's ``inspect``, the
pydantic adapters Typer builds for every option and the Rich help renderer take several
tenths of a second before a command runs. So the console script answers the rulesets'
odds commands itself, with and without ``--json``:

* ``conteur odds <ruleset> ARGS`` for a ruleset that declares an odds command
  (``conteur.cli_parts.OddsCommand``, entry-point group ``conteur.cli``, read from the
  distributions' ``entry_points.txt`` without ``importlib.metadata``): the arguments are
  read from that declaration and answered by ``conteur.cli.odds_line`` — the code the
  Typer app's command runs too, so there is one path for the command;
* ``conteur odds attack SCENARIO --attacker A --target T ...``: read by
  ``conteur.cli.attack_line.read_attack_args`` and answered by ``answer_attack``, which the
  Typer app's command runs too;
* what only Click renders — ``--help``, a usage error (an unknown option, a value that is
  not an integer, a required option missing) — and every other command go to the Typer
  app unchanged.

Tests compare the console script's output with the Typer app's on the same argument lists.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``conteur`` console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    from conteur.cli.plain import refuse_bad_env_lang

    refuse_bad_env_lang()  # as the Typer app does, before anything is read
    if args[:2] == ["odds", "attack"]:
        from conteur.cli.attack_line import answer_attack, read_attack_args

        attack = read_attack_args(args[2:])
        if attack is not None:
            answer_attack(attack)
            sys.stdout.flush()
            sys.exit(0)
    elif len(args) >= 2 and args[0] == "odds":
        from conteur.cli_parts import parts_of

        parts = parts_of(args[1])
        if parts is not None and parts.odds is not None:
            from conteur.cli.odds_line import answer_odds, read_odds_args

            read = read_odds_args(parts.odds, args[2:])
            if read is not None:
                answer_odds(parts.odds, *read)
                sys.stdout.flush()
                sys.exit(0)
    if argv is None:
        from conteur.cli import main as typer_main

        typer_main()
    else:
        from conteur.cli import app

        app(args=args, prog_name="conteur")
