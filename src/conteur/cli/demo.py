"""``conteur demo``: what ``make run`` shows today — a Vampire odds chart and sample rolls.

The chart is computed here, simply, from each pool's exact outcomes
(``VtmPool.outcomes()``); the dedicated, faster chart code lives in
``conteur odds``. Rich and the dice are imported inside the functions, so that
registering the command costs nothing at start-up.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated, Any

import typer

from conteur.i18n import Lang, percent, t

from .common import LangOption, console, help_text, resolve_lang

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from conteur.dice import Roll

POOLS = range(1, 11)
DIFFICULTIES = range(4, 10)
DEMO_SEED = 1899


def vtm_chart(
    pools: Iterable[int] = POOLS, difficulties: Iterable[int] = DIFFICULTIES
) -> dict[tuple[int, int], tuple[float, float]]:
    """``{(pool, difficulty): (P(at least one success), P(botch))}`` for plain vtm rolls."""
    from conteur.dice import VtmPool

    chart: dict[tuple[int, int], tuple[float, float]] = {}
    diffs = list(difficulties)
    for pool in pools:
        for difficulty in diffs:
            hit = botch = 0.0
            for result, p in VtmPool(pool, difficulty).outcomes():
                if result.botch:
                    botch += p
                elif result.successes > 0:
                    hit += p
            chart[pool, difficulty] = (hit, botch)
    return chart


def chart_table(
    chart: dict[tuple[int, int], tuple[float, float]], which: int, title: str, lang: Lang
) -> Table:
    """One Rich table of ``chart``: column ``which`` (0: success, 1: botch), pools by rows."""
    from rich.table import Table

    pools = sorted({pool for pool, _ in chart})
    diffs = sorted({diff for _, diff in chart})
    table = Table(title=title, title_justify="left", title_style="bold")
    table.add_column(t("demo.odds.pool", lang), justify="right", style="bold")
    for diff in diffs:
        table.add_column(t("demo.odds.difficulty", lang, difficulty=diff), justify="right")
    for pool in pools:
        table.add_row(str(pool), *(percent(chart[pool, d][which], lang) for d in diffs))
    return table


def samples() -> list[tuple[Roll[Any], int]]:
    """The sample requests shown by the demo, each with its seed offset.

    Offsets from the default seed 1899 were picked to show a little of
    everything: 1s cancelling, a botch, a damage roll, a 10 rolled again, a
    chance die, a critical d100, plain expressions.
    """
    from conteur.dice import Expr, HunterPool, Percentile, VtmPool

    return [
        (VtmPool(7, 6), 1),
        (VtmPool(5, 7), 0),
        (VtmPool(3, 6, ones_cancel=False, can_botch=False, min_one=True), 2),
        (HunterPool(6), 8),
        (HunterPool(0), 25),
        (Percentile(56), 1),
        (Expr.parse("3D10"), 3),
        (Expr.parse("4D6-3"), 4),
    ]


def show_demo(out: Console, lang: Lang, seed: int = DEMO_SEED) -> None:
    """Print the whole demo on ``out``."""
    from rich.text import Text

    from conteur.dice import SeededDice, VtmPool

    from .render import render

    out.print(Text(t("demo.title", lang), style="bold magenta"))
    out.print()
    chart = vtm_chart()
    out.print(chart_table(chart, 0, t("demo.odds.success", lang), lang))
    out.print(chart_table(chart, 1, t("demo.odds.botch", lang), lang))
    out.print(Text(t("demo.odds.note", lang), style="dim"))
    out.print()
    out.print(Text(t("demo.samples", lang), style="bold"))
    for request, offset in samples():
        out.print()
        # A fresh source per roll, so that ``conteur roll ... --seed S`` gives the same dice.
        rules = ["V-DMG-4"] if isinstance(request, VtmPool) and request.min_one else []
        record = SeededDice(seed + offset).roll(request)
        out.print(render(record, lang, seed=seed + offset, rules=rules))
    out.print()
    out.print(Text(t("demo.next", lang), style="italic"))


def demo(
    seed: Annotated[int, typer.Option("--seed", help=help_text("cli.help.demo_seed"))] = DEMO_SEED,
    lang: LangOption = None,
) -> None:
    """The odds chart and a few sample rolls, in French (English with ``--lang en``)."""
    show_demo(console(), resolve_lang(lang), seed)
