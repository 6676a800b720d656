"""``conteur roll vtm``: the Typer command of a Vampire pool (declared in ``.cli``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from conteur.cli.common import (
    DiceOption,
    JsonOption,
    LangOption,
    SeedOption,
    fail,
    help_text,
    resolve_lang,
)
from conteur.cli.roll import run_roll
from conteur.cli_parts import check_range
from conteur.i18n import ConteurError

from .cli import MAX_DIFFICULTY, MAX_POOL, MIN_DIFFICULTY

if TYPE_CHECKING:
    from .dice import VtmPool


def roll(
    pool: Annotated[int, typer.Option("--pool", "-p", help=help_text("cli.help.pool"))],
    difficulty: Annotated[
        int, typer.Option("--difficulty", "-d", help=help_text("cli.help.difficulty"))
    ] = 6,
    damage: Annotated[bool, typer.Option("--damage", help=help_text("cli.help.damage"))] = False,
    soak: Annotated[bool, typer.Option("--soak", help=help_text("cli.help.soak"))] = False,
    cancel: Annotated[
        bool | None, typer.Option("--cancel/--no-cancel", help=help_text("cli.help.cancel"))
    ] = None,
    botch: Annotated[
        bool | None, typer.Option("--botch/--no-botch", help=help_text("cli.help.botch"))
    ] = None,
    willpower: Annotated[
        bool, typer.Option("--willpower", help=help_text("cli.help.willpower"))
    ] = False,
    auto: Annotated[int, typer.Option("--auto", help=help_text("cli.help.auto"))] = 0,
    min_one: Annotated[bool, typer.Option("--min-one", help=help_text("cli.help.min_one"))] = False,
    seed: SeedOption = None,
    dice: DiceOption = None,
    as_json: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """A Vampire pool: each die at or above the difficulty succeeds, each 1 cancels one."""
    chosen = resolve_lang(lang)
    if damage and soak:
        fail(ConteurError("cli.damage_and_soak"), chosen, as_json)
    special = damage or soak
    rules = ["V-DMG-4"] if damage else ["V-SOAK-3"] if soak else []

    def build() -> VtmPool:
        from .dice import VtmPool

        check_range("--pool", pool, 0, MAX_POOL)
        check_range("--difficulty", difficulty, MIN_DIFFICULTY, MAX_DIFFICULTY)
        check_range("--auto", auto, 0, MAX_POOL)
        return VtmPool(
            dice=pool,
            difficulty=difficulty,
            ones_cancel=(not special) if cancel is None else cancel,
            can_botch=(not special) if botch is None else botch,
            auto=auto + (1 if willpower else 0),
            min_one=min_one or damage,
        )

    run_roll(build, seed=seed, dice=dice, as_json=as_json, lang=chosen, rules=rules)
