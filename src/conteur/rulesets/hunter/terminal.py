"""The hunter ruleset on the terminal: the odds tables of ``conteur odds hunter``, roll
reports, its part of the demo.

Declared in ``.cli`` and loaded only when used; no Typer (``conteur roll hunter`` is in
``.roll_command``), so the odds print without it. Rich, Babel and numpy are imported
inside the functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from conteur.cli.render import STYLES, Report, faces, listing
from conteur.dice import RollRecord
from conteur.dice.rolls import DieNote
from conteur.i18n import ConteurError, Lang, t

if TYPE_CHECKING:
    from conteur.cli.demo import DemoPart

    from .charts import HunterChart


# ------------------------------------------------------------------ conteur odds hunter


def show_odds(
    lang: Lang, *, pool: int | None, again: int, rote: bool, table: bool, max_pool: int
) -> None:
    """The human answer of ``conteur odds hunter``: one roll's odds, or the chart (``--table``)."""
    from conteur.cli.odds import print_roll_odds
    from conteur.dice.odds import check_max_pool

    from .dice import HunterPool, HunterResult, check_again, hunter_odds

    check_again(again)
    if table:
        from .charts import hunter_chart

        check_max_pool(max_pool, minimum=0)
        _print_chart(hunter_chart(max_pool, rote=rote), lang)
        return
    if pool is None:
        raise ConteurError("odds.need_pool")
    odds = hunter_odds(pool, again, rote=rote)
    request = HunterPool(pool, again, rote)
    notes: list[str] = []
    if request.chance:
        notes.append(t("odds.note.chance", lang, dice=pool))
    if again != 10:
        notes.append(t("odds.note.again", lang, again=again))
    if rote:
        notes.append(t("odds.note.rote", lang))
    print_roll_odds(
        odds,
        request.describe(lang),
        notes,
        lang,
        special_key="result.dramatic_failure",
        exceptional_from=HunterResult.EXCEPTIONAL,
    )


def _print_chart(chart: HunterChart, lang: Lang) -> None:
    from conteur.cli.odds import console, new_table, percent

    title = "odds.chart.hunter.title_rote" if chart.rote else "odds.chart.hunter.title"
    table = new_table(t(title, lang), t("odds.chart.hunter.caption", lang))
    table.add_column(t("odds.col.pool", lang), justify="right")
    table.add_column(t("odds.col.success", lang), justify="right")
    table.add_column(t("odds.col.dramatic", lang), justify="right")
    for again in chart.agains:
        table.add_column(t("odds.col.exceptional", lang, again=again), justify="right")
    for i, pool in enumerate(chart.pools):
        label = t("odds.chart.hunter.chance", lang) if pool == 0 else str(pool)
        # Success and dramatic failure do not depend on the again option.
        table.add_row(
            label,
            percent(float(chart.p_success[i, 0]), lang, 1),
            percent(float(chart.p_dramatic[i, 0]), lang, 1),
            *(percent(float(p), lang, 1) for p in chart.p_exceptional[i]),
        )
    console().print(table)


# ------------------------------------------------------------------ roll reports


class HunterReport:
    """A hunter roll: the original dice, rote rerolls, again-waves, the dramatic failure."""

    def rules(self, record: RollRecord[Any]) -> list[str]:
        """H-CHANCE-1 for the chance die, else H-FAIL-1 for a dramatic failure; H-EXC-1."""
        res = record.result
        ids = ["H-CHANCE-1"] if res.chance else ["H-FAIL-1"] if res.dramatic_failure else []
        return [*ids, *(["H-EXC-1"] if res.exceptional else [])]

    def fields(self, record: RollRecord[Any]) -> dict[str, Any]:
        return {"exceptional": record.result.exceptional}

    def report(self, record: RollRecord[Any], notes: Sequence[DieNote], lang: Lang) -> Report:
        from rich.text import Text

        req, res = record.request, record.result
        report = Report(t("cli.title.hunter", lang, roll=req))
        if req.chance:
            report.add(t("cli.label.pool", lang), t("cli.hunter.chance", lang, dice=req.dice))
        originals = [n for n in notes if n.stage == "roll"]
        report.add(t("cli.label.dice", lang), faces(originals))
        rerolls = [n for n in notes if n.stage == "rote"]
        if rerolls:
            replaced = [n for n in originals if n.role == "replaced"]
            pairs = Text()
            for i, (old, new) in enumerate(zip(replaced, rerolls, strict=True)):
                if i:
                    pairs.append(", ")
                pairs.append(f"{old.face} → ")
                pairs.append(str(new.face), style=STYLES[new.role])
            report.add(t("cli.label.rote", lang), pairs)
        waves = sorted({n.wave for n in notes if n.stage == "again"})
        if waves:
            text = Text()
            for i, number in enumerate(waves):
                if i:
                    text.append(t("cli.sep", lang))
                wave = [n for n in notes if n.stage == "again" and n.wave == number]
                text.append(t("cli.hunter.wave", lang, number=number, faces=""))
                text.append_text(faces(wave, sep=", "))
            report.add(t("cli.label.again", lang, again=10 if req.chance else req.again), text)
        hits = [n.face for n in notes if n.role == "success"]
        report.add(t("cli.label.successes", lang), listing(hits, lang), style="green")
        result = res.describe(lang)
        if res.dramatic_failure:
            why = "cli.hunter.chance_dramatic_why" if req.chance else "cli.hunter.dramatic_why"
            result += " (" + t(why, lang) + ")"
        style = "bold red" if res.dramatic_failure else "bold green" if res.exceptional else "bold"
        report.add(t("cli.label.result", lang), result, style=style)
        return report


REPORT = HunterReport()


# ------------------------------------------------------------------ conteur demo


def demo_part() -> DemoPart:
    """The hunter part of ``conteur demo``: a 10 rolled again, a chance die."""
    from conteur.cli.demo import DemoPart, Sample

    from .dice import HunterPool

    return DemoPart(samples=[Sample(HunterPool(6), 8), Sample(HunterPool(0), 25)])


__all__ = ["REPORT", "HunterReport", "demo_part", "show_odds"]
