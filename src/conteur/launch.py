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

While it reads and answers an odds command, the console script pauses the cyclic garbage
collector: the answer's start is mostly imports — thousands of classes, functions and
models, none of them garbage — and the collector's passes over that growing heap (about a
hundred for ``conteur odds attack``, the oldest generation's among them) cost a tenth of
its CPU. It is switched on again before ``main`` returns or raises, and before the Typer
app gets a command the console script does not answer (``conteur serve`` runs with the
collector as ever). When the console script has printed its answer the process ends: the
objects the start made are frozen first (``gc.freeze``), so that neither the collection
that would follow nor the interpreter's last one at exit walks them all once more (~20 ms
each for ``odds attack``). A caller of ``main(argv)`` (a test) gets the collector back as
it was, with nothing frozen.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``conteur`` console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    collecting = gc.isenabled()
    gc.disable()
    answered = False
    try:
        answered = _answer_odds(args)
    finally:
        if collecting:
            if answered and argv is None:
                gc.freeze()  # the process ends with its answer (see the module's text)
            gc.enable()
    if answered:
        sys.exit(0)
    if argv is None:
        from conteur.cli import main as typer_main

        typer_main()
    else:
        from conteur.cli import app

        app(args=args, prog_name="conteur")


def _answer_odds(args: list[str]) -> bool:
    """Print the answer of ``conteur odds <ruleset> ARGS`` or ``conteur odds attack ARGS``
    (True), or leave ``args`` to the Typer app (False); a user error exits with status 2."""
    from conteur.cli.plain import refuse_bad_env_lang

    refuse_bad_env_lang()  # as the Typer app does, before anything is read
    if args[:2] == ["odds", "attack"]:
        from conteur.cli.attack_line import answer_attack, read_attack_args

        attack = read_attack_args(args[2:])
        if attack is not None:
            answer_attack(attack)
            sys.stdout.flush()
            return True
    elif len(args) >= 2 and args[0] == "odds":
        from conteur.cli_parts import parts_of

        parts = parts_of(args[1])
        if parts is not None and parts.odds is not None:
            from conteur.cli.odds_line import answer_odds, read_odds_args

            read = read_odds_args(parts.odds, args[2:])
            if read is not None:
                answer_odds(parts.odds, *read)
                sys.stdout.flush()
                return True
    return False
