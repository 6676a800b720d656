"""``conteur roll``: make one roll, by the program or from the table's dice."""

from __future__ import annotations

import typer

roll_app = typer.Typer(help="Lancer les dés / roll the dice.", no_args_is_help=True)
