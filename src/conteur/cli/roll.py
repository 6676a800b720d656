"""``conteur roll``: make one roll, by the program or from the table's dice.

Every command takes ``--seed S`` (the program rolls, reproducibly) or
``--dice 10,1,6,...`` (the faces rolled at the table, in roll order), never
both; with neither, the program rolls with a fresh seed and reports it.
Typed-in faces that are too few, not numbers, impossible on the die, or left
over are refused with a message in the chosen language and exit code 2.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from conteur.i18n import ConteurError, Lang

from .common import (
    DiceOption,
    JsonOption,
    LangOption,
    SeedOption,
    console,
    dice_source,
    fail,
    help_text,
    print_json,
    resolve_lang,
)

if TYPE_CHECKING:
    from conteur.dice import Roll, VtmPool

roll_app = typer.Typer(help=help_text("cli.help.roll"), no_args_is_help=True)


def run_roll(
    build: Callable[[], Roll[Any]],
    *,
    seed: int | None,
    dice: str | None,
    as_json: bool,
    lang: Lang,
    rules: Sequence[str] = (),
) -> None:
    """Build the request, roll it from the chosen source, and print the report.

    Every user error (bad request, bad or missing typed faces, faces left
    over, ``--seed`` with ``--dice``) is reported by ``fail`` (exit 2).
    """
    from conteur.dice import TypedDice

    from .render import record_json, render

    try:
        source, used_seed = dice_source(seed, dice)
        request = build()
        record = source.roll(request)
        if isinstance(source, TypedDice):
            source.check_all_used()
    except ConteurError as error:
        fail(error, lang, as_json)
    if as_json:
        print_json(record_json(record, lang, used_seed, rules))
    else:
        console().print(render(record, lang, used_seed, rules))


@roll_app.command("vtm", help=help_text("cli.help.roll.vtm"))
def roll_vtm(
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
        from conteur.dice import VtmPool

        return VtmPool(
            dice=pool,
            difficulty=difficulty,
            ones_cancel=(not special) if cancel is None else cancel,
            can_botch=(not special) if botch is None else botch,
            auto=auto + (1 if willpower else 0),
            min_one=min_one or damage,
        )

    run_roll(build, seed=seed, dice=dice, as_json=as_json, lang=chosen, rules=rules)


@roll_app.command("hunter", help=help_text("cli.help.roll.hunter"))
def roll_hunter(
    pool: Annotated[int, typer.Option("--pool", "-p", help=help_text("cli.help.pool.hunter"))],
    again: Annotated[int, typer.Option("--again", help=help_text("cli.help.again"))] = 10,
    rote: Annotated[bool, typer.Option("--rote", help=help_text("cli.help.rote"))] = False,
    seed: SeedOption = None,
    dice: DiceOption = None,
    as_json: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """A new-WoD pool: 8+ succeeds, 10-again (or 9, 8), optional rote; chance die at 0."""
    chosen = resolve_lang(lang)

    def build() -> Roll[Any]:
        from conteur.dice import HunterPool

        return HunterPool(dice=pool, again=again, rote=rote)

    run_roll(
        build,
        seed=seed,
        dice=dice,
        as_json=as_json,
        lang=chosen,
    )


@roll_app.command("western", help=help_text("cli.help.roll.western"))
def roll_western(
    skill: Annotated[int, typer.Option("--skill", "-s", help=help_text("cli.help.skill"))],
    seed: SeedOption = None,
    dice: DiceOption = None,
    as_json: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """1D100 at or under the skill; critical under a tenth of it (W-CRIT-1)."""
    chosen = resolve_lang(lang)

    def build() -> Roll[Any]:
        from conteur.dice import Percentile

        return Percentile(skill)

    run_roll(build, seed=seed, dice=dice, as_json=as_json, lang=chosen)


@roll_app.command("expr", help=help_text("cli.help.roll.expr"))
def roll_expr(
    expression: Annotated[str, typer.Argument(help=help_text("cli.help.expr"), metavar="NdX±M")],
    seed: SeedOption = None,
    dice: DiceOption = None,
    as_json: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """A plain ``NdX±M`` roll: the sum of the faces plus the modifier."""
    chosen = resolve_lang(lang)

    def build() -> Roll[Any]:
        from conteur.dice import Expr

        return Expr.parse(expression)

    run_roll(build, seed=seed, dice=dice, as_json=as_json, lang=chosen)
