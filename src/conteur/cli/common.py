"""Shared pieces of the CLI: dice sources, and (re-exported from
``options``) the common options and error reporting.

Help texts come from the message catalog, in the language of ``CONTEUR_LANG``
(French when unset): they are built once, when the CLI is imported. Rich and
the dice (numpy) are imported only by the commands that use them, so that
``conteur --help`` starts fast.
"""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING

from conteur.i18n import ConteurError

from .options import DiceOption as DiceOption
from .options import JsonOption as JsonOption
from .options import LangOption as LangOption
from .options import SeedOption as SeedOption
from .options import fail as fail
from .options import help_text as help_text
from .options import print_json as print_json
from .options import resolve_lang as resolve_lang
from .plain import name_values as name_values

if TYPE_CHECKING:
    from rich.console import Console

    from conteur.dice import DiceSource


def console() -> Console:
    """A Rich console on the current stdout (no automatic highlighting of numbers)."""
    from rich.console import Console

    return Console(file=sys.stdout, highlight=False, soft_wrap=False)


def new_seed() -> int:
    """A fresh seed, short enough to type back with ``--seed``."""
    return random.SystemRandom().randrange(1, 1_000_000)


def dice_source(seed: int | None, dice: str | None) -> tuple[DiceSource, int | None]:
    """The source named by ``--seed`` / ``--dice``, and the seed used (``None`` for typed dice).

    Neither option: the program rolls with a fresh seed, reported so the roll
    can be made again. Both: ``ConteurError('cli.seed_and_dice')``.
    """
    from conteur.dice import SeededDice, TypedDice

    if seed is not None and dice is not None:
        raise ConteurError("cli.seed_and_dice")
    if dice is not None:
        return TypedDice(dice), None
    used = new_seed() if seed is None else seed
    return SeededDice(used), used


__all__ = [
    "DiceOption",
    "JsonOption",
    "LangOption",
    "SeedOption",
    "console",
    "dice_source",
    "fail",
    "help_text",
    "new_seed",
    "print_json",
    "resolve_lang",
]
