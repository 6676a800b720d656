"""``conteur xp hunter SESSION.yaml``: the practical experience of a session, line by line.

Declared in ``.cli`` (the ``xp`` group is the hunter ruleset's) and loaded only when used.

Exit status: 0 when the award and the spending are valid, 1 when the split or
a purchase is refused (the report still shows everything), 2 when the summary
or a log cannot be read.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from conteur.cli.common import LangOption, console, fail, help_text, print_json, resolve_lang
from conteur.i18n import ConteurError, Lang, signed, t

if TYPE_CHECKING:
    from rich.table import Table

    from .xp import Spending, XpReport


def xp(
    session: Annotated[Path, typer.Argument(help=help_text("xp.help.session"))],
    lang: LangOption = None,
    as_json: Annotated[bool, typer.Option("--json", help=help_text("xp.help.json"))] = False,
) -> None:
    """Compute and check the practical experience of SESSION (H-XP-1..H-XP-5)."""
    chosen = resolve_lang(lang)
    from .xp import session_report

    try:
        report = session_report(session)
    except ConteurError as error:
        fail(error, chosen, as_json)
    if as_json:
        print_json(report.to_dict(chosen))
    else:
        render(report, chosen)
    if report.problems():
        raise typer.Exit(1)


def render(report: XpReport, lang: Lang) -> None:
    """The breakdown table, the total, then the split with each player's verdict."""
    from rich.table import Table
    from rich.text import Text

    from .xp import lines_shown

    out = console()
    title = t("xp.title", lang) + (f" — {report.session.title}" if report.session.title else "")
    table = Table(title=Text(title, style="bold"), title_justify="left")
    table.add_column(t("xp.col.rule", lang))
    table.add_column(t("xp.col.item", lang))
    table.add_column(t("xp.col.count", lang), justify="right")
    table.add_column(t("xp.col.points", lang), justify="right")
    base = report.award.base
    table.add_row(
        "H-XP-1",
        t("xp.base", lang, players=base.players, gm_hunters=base.gm_hunters),
        str(base.points),
        signed(base.points, lang),
    )
    for line in lines_shown(report.award.lines):
        label = line.label.describe(lang)
        if line.note is not None:
            label += f" ({line.note.describe(lang)})"
        table.add_row(line.rule, Text(label), str(line.count), signed(line.points, lang))
    total = str(report.award.total)
    if report.award.raw_total != report.award.total:
        total += " " + t("xp.floored", lang, raw=report.award.raw_total)
    table.add_section()
    table.add_row("", Text(t("xp.total", lang), style="bold"), "", Text(total, style="bold"))
    out.print(table)
    for log in report.logs:
        out.print(
            Text(
                t(
                    "xp.character_counts" if log.character else "xp.encounter",
                    lang,
                    log=log.log,
                    exceptional=log.exceptional_successes,
                    dramatic=log.dramatic_failures,
                ),
                style="dim",
            )
        )
    out.print()
    if not report.spending:
        out.print(t("xp.no_split", lang, total=report.award.total))
    else:
        out.print(spending_table(report.spending, lang))
    problems = report.problems()
    if problems:
        out.print(Text(t("xp.errors", lang), style="bold red"))
        for problem in problems:
            who = problem.player or t("xp.everyone", lang)
            out.print(
                Text(
                    "  " + t("xp.error_line", lang, who=who, message=problem.message(lang)),
                    style="red",
                )
            )


def spending_table(spending: tuple[Spending, ...], lang: Lang) -> Table:
    """One row a player: share, purchases with their costs, bank, verdict (refused ones in red)."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=t("xp.split_title", lang), title_justify="left")
    for key, justify in (
        ("xp.col.player", "left"),
        ("xp.col.share", "right"),
        ("xp.col.purchases", "left"),
        ("xp.col.banked", "right"),
        ("xp.col.bank_after", "right"),
        ("xp.col.verdict", "left"),
    ):
        table.add_column(t(key, lang), justify=justify)  # type: ignore[arg-type]
    for s in spending:
        bought = Text()
        for b in s.bought:
            what = t(f"xp.buy.{b.kind.key}", lang)
            if b.purchase.trait:
                what += f" {b.purchase.trait}"
            if b.purchase.from_dots is not None and b.purchase.to_dots is not None:
                what += f" {b.purchase.from_dots}→{b.purchase.to_dots}"
            cost = "?" if b.cost is None else str(b.cost)
            what += f" ({cost}"
            what += f", {t('xp.from_bank', lang)})" if b.purchase.from_bank else ")"
            if bought:
                bought.append("\n")
            bought.append(what, style="red" if b.problems else "")
        verdict = t("xp.verdict.ok" if s.ok else "xp.verdict.refused", lang)
        table.add_row(
            Text(s.player),
            str(s.share),
            bought or "-",
            str(s.banked),
            str(s.bank_after),
            Text(verdict, style="green" if s.ok else "red"),
        )
    return table
