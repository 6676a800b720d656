"""The vtm ruleset on the terminal: the odds tables of ``conteur odds vtm``, roll reports, demo.

Declared in ``.cli`` and loaded only when used; no Typer (``conteur roll vtm`` is in
``.roll_command``), so the odds print without it. Rich, Babel and numpy are imported
inside the functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from conteur.cli.render import Report, faces, listing
from conteur.dice import RollRecord
from conteur.dice.rolls import DieNote
from conteur.i18n import ConteurError, Lang, percent, t

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.table import Table

    from conteur.cli.demo import DemoPart

    from .charts import VtmChart
    from .dice import VtmPool


# ------------------------------------------------------------------ conteur odds vtm


def show_odds(
    lang: Lang,
    *,
    pool: int | None,
    difficulty: int,
    no_cancel: bool,
    willpower: bool,
    table: bool,
    max_pool: int,
) -> None:
    """The human answer of ``conteur odds vtm``: one roll's odds, or the chart (``--table``)."""
    from conteur.cli.odds import print_roll_odds
    from conteur.dice.odds import check_max_pool

    from .dice import VtmPool, asked_odds

    if table:
        from .charts import vtm_chart

        check_max_pool(max_pool, minimum=1)
        _print_chart(vtm_chart(max_pool), lang)
        return
    if pool is None:
        raise ConteurError("odds.need_pool")
    odds = asked_odds(pool, difficulty, no_cancel, willpower)
    request = VtmPool(pool, difficulty)
    notes: list[str] = []
    if request.clamped:
        notes.append(
            t("result.clamped", lang, asked=difficulty, difficulty=request.effective_difficulty)
        )
    if no_cancel:
        notes.append(t("odds.note.no_cancel", lang))
    if willpower:
        notes.append(t("odds.note.willpower", lang))
    print_roll_odds(odds, request.describe(lang), notes, lang, special_key="result.botch")


def _print_chart(chart: VtmChart, lang: Lang) -> None:
    from conteur.cli.odds import console, new_table
    from conteur.cli.odds import percent as odds_percent

    out = console()
    for key, values in (
        ("odds.chart.vtm.success", chart.p_success),
        ("odds.chart.vtm.botch", chart.p_botch),
    ):
        table = new_table(t(key, lang))
        table.add_column(t("odds.col.pool", lang), justify="right")
        for d in chart.difficulties:
            table.add_column(t("odds.col.difficulty", lang, difficulty=d), justify="right")
        for i, pool in enumerate(chart.pools):
            table.add_row(str(pool), *(odds_percent(float(p), lang, 1) for p in values[i]))
        out.print(table)


# ------------------------------------------------------------------ roll reports


class VtmReport:
    """A vtm roll: the faces, the 1s and what they cancel, automatic successes, the botch."""

    def rules(self, record: RollRecord[Any]) -> list[str]:
        return []

    def fields(self, record: RollRecord[Any]) -> dict[str, Any]:
        req: VtmPool = record.request
        return {
            "effective_difficulty": req.effective_difficulty,
            "clamped": req.clamped,
            "rolled_dice": req.rolled_dice,
        }

    def report(self, record: RollRecord[Any], notes: Sequence[DieNote], lang: Lang) -> Report:
        req, res = record.request, record.result
        report = Report(t("cli.title.vtm", lang, roll=req))
        if req.clamped:
            report.add(
                t("cli.label.difficulty", lang),
                t(
                    "result.clamped",
                    lang,
                    asked=req.difficulty,
                    difficulty=req.effective_difficulty,
                ),
                style="yellow",
            )
        if req.rolled_dice != req.dice:
            report.add(t("cli.label.pool", lang), t("cli.vtm.min_one", lang, asked=req.dice))
        report.add(
            t("cli.label.dice", lang),
            faces(notes) if notes else t("cli.no_dice", lang),
        )
        hits = [n.face for n in notes if n.role in ("success", "cancelled")]
        report.add(t("cli.label.successes", lang), listing(hits, lang), style="green")
        ones = [n for n in notes if n.face == 1]
        if ones:
            parts: list[str] = []
            if req.ones_cancel:
                cancelled = sorted(n.face for n in notes if n.role == "cancelled")
                parts = [t("cli.vtm.cancels", lang, face=face) for face in cancelled]
                left = sum(1 for n in ones if n.role == "one")
                if left:
                    parts.append(t("cli.vtm.ones_left", lang, count=left))
            else:
                parts.append(t("cli.vtm.ones_no_cancel", lang, count=len(ones)))
            report.add(t("cli.label.ones", lang), t("cli.sep", lang).join(parts))
        if req.auto:
            report.add(t("cli.label.auto", lang), t("cli.vtm.auto", lang, count=req.auto))
        result = res.describe(lang)
        if res.botch:
            result += " (" + t("cli.vtm.botch_why", lang) + ")"
        elif not hits and ones and not req.can_botch and not req.auto:
            result += " (" + t("cli.vtm.no_botch", lang) + ")"
        report.add(t("cli.label.result", lang), result, style="bold red" if res.botch else "bold")
        return report


REPORT = VtmReport()


# ------------------------------------------------------------------ conteur demo

POOLS = range(1, 11)
DIFFICULTIES = range(4, 10)


def vtm_chart(
    pools: Iterable[int] = POOLS, difficulties: Iterable[int] = DIFFICULTIES
) -> dict[tuple[int, int], tuple[float, float]]:
    """``{(pool, difficulty): (P(at least one success), P(botch))}`` for plain vtm rolls.

    Computed simply, from each pool's exact outcomes (``VtmPool.outcomes()``); the
    dedicated, faster chart is ``conteur odds vtm --table`` (``.charts``).
    """
    from .dice import VtmPool

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


def samples() -> list[tuple[VtmPool, int]]:
    """The vtm sample rolls of the demo, each with its seed offset (from the default 1899):
    1s cancelling, a botch, a damage roll."""
    from .dice import VtmPool

    return [
        (VtmPool(7, 6), 1),
        (VtmPool(5, 7), 0),
        (VtmPool(3, 6, ones_cancel=False, can_botch=False, min_one=True), 2),
    ]


def _opening(lang: Lang) -> list[RenderableType]:
    from rich.text import Text

    chart = vtm_chart()
    return [
        chart_table(chart, 0, t("demo.odds.success", lang), lang),
        chart_table(chart, 1, t("demo.odds.botch", lang), lang),
        Text(t("demo.odds.note", lang), style="dim"),
    ]


def demo_part() -> DemoPart:
    """The vtm part of ``conteur demo``: the chart of plain pools, three sample rolls."""
    from conteur.cli.demo import DemoPart, Sample

    return DemoPart(
        opening=_opening,
        samples=[
            Sample(request, offset, ["V-DMG-4"] if request.min_one else [])
            for request, offset in samples()
        ],
        hint="demo.next",
    )
