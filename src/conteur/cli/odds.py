"""``conteur odds``: exact odds of a roll, and the classic charts."""

from __future__ import annotations

import typer

odds_app = typer.Typer(help="Probabilités exactes / exact odds.", no_args_is_help=True)
