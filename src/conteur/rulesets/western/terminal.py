"""The western ruleset on the terminal: the odds of ``conteur odds western``, the report of a
d100 roll, its part of the demo.

Declared in ``.cli`` and loaded only when used; no Typer (``conteur roll western`` is in
``.roll_command``). Rich and Babel are imported inside the functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from conteur.cli.render import Report, faces
from conteur.dice import RollRecord
from conteur.dice.rolls import DieNote
from conteur.i18n import Lang, t

if TYPE_CHECKING:
    from conteur.cli.demo import DemoPart


def show_odds(lang: Lang, *, skill: int) -> None:
    """The human answer of ``conteur odds western``: success and critical chances."""
    from conteur.cli.odds import console, new_table, percent

    from .dice import Percentile, western_odds

    odds = western_odds(skill)
    table = new_table(t("odds.title.roll", lang, roll=Percentile(skill)))
    table.add_column(t("odds.col.result", lang))
    table.add_column(t("odds.col.probability", lang), justify="right")
    table.add_row(t("odds.western.success", lang, skill=skill), percent(odds.p_success, lang))
    table.add_row(t("odds.western.critical", lang, skill=skill), percent(odds.p_critical, lang))
    console().print(table)


class PercentileReport:
    """A d100 roll: the face, whether it is a critical success (W-CRIT-1), the result."""

    def rules(self, record: RollRecord[Any]) -> list[str]:
        return ["W-CRIT-1"] if record.result.critical else []

    def fields(self, record: RollRecord[Any]) -> dict[str, Any]:
        return {}

    def report(self, record: RollRecord[Any], notes: Sequence[DieNote], lang: Lang) -> Report:
        req, res = record.request, record.result
        report = Report(t("cli.title.western", lang, roll=req))
        report.add(t("cli.label.dice", lang), faces(notes))
        if res.success:
            key = "cli.western.critical" if res.critical else "cli.western.not_critical"
            report.add(
                t("cli.label.critical", lang),
                t(
                    key,
                    lang,
                    roll=res.roll,
                    tenfold=res.roll * 10,
                    skill=req.skill,
                    margin=res.margin,
                ),
            )
        style = "bold green" if res.critical else "bold"
        report.add(t("cli.label.result", lang), res.describe(lang, req.skill), style=style)
        return report


REPORT = PercentileReport()


def demo_part() -> DemoPart:
    """The western part of ``conteur demo``: a critical d100."""
    from conteur.cli.demo import DemoPart, Sample

    from .dice import Percentile

    return DemoPart(samples=[Sample(Percentile(56), 1)])
