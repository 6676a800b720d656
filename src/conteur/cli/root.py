"""The ``conteur`` Typer app (``conteur.cli.app``), French by default.

Each command group lives in its own module and is registered here; heavy
modules are imported inside the commands that need them, so the CLI starts fast.
The rulesets' own commands (``conteur roll <ruleset>``, ``conteur odds <ruleset>``,
groups such as ``conteur xp``) are declared in the entry-point group ``conteur.cli``
and loaded only when run or listed by ``--help`` (``conteur.cli.rulesets``).
"""

from __future__ import annotations

import typer

from . import imports as _imports  # noqa: F401  (registers `conteur import`)
from . import npc as _npc  # noqa: F401  (registers `conteur npc`)
from . import simulate as _simulate  # noqa: F401  (registers `conteur simulate`)
from .chrome import ChromeCommand
from .common import app, help_text
from .db import db_app  # noqa: F401  (registers `conteur db`)
from .demo import demo
from .odds_attack import odds_app  # (with `conteur odds attack`)
from .play import play
from .roll import roll_app
from .serve import serve

app.add_typer(roll_app, name="roll")
app.add_typer(odds_app, name="odds")
app.command("demo", cls=ChromeCommand, help=help_text("cli.help.demo"))(demo)
app.command("play", cls=ChromeCommand, help=help_text("cli.help.play"))(play)
app.command("serve", cls=ChromeCommand, help=help_text("cli.help.serve"))(serve)


def main() -> None:
    """Entry point of the ``conteur`` console script."""
    app()


__all__ = ["app", "main", "typer"]
