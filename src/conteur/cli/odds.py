"""``conteur odds``: exact odds of a roll (one command per ruleset), and the rendering they share.

``conteur odds <ruleset>`` is declared by the ruleset (``conteur.cli_parts.OddsCommand``)
and answered by the console script (``conteur.launch``), or built in the Typer app when
asked for (``conteur.cli.rulesets``); ``conteur odds attack`` is the generic one and the
group's home (``odds_attack``). No Typer here; numpy, Rich and Babel are imported inside
the functions, so that the JSON answers start fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conteur.cli_parts import CHART_POOL
from conteur.i18n import Lang, t

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from conteur.dice.odds import RollOdds

SHOWN_TAIL = 5e-5
"""Readable tables list success counts one by one while P(at least k) stays above this."""

__all__ = [
    "CHART_POOL",
    "SHOWN_TAIL",
    "console",
    "new_table",
    "percent",
    "print_roll_odds",
]


# ------------------------------------------------------------------ rendering


def _locale(lang: Lang) -> str:
    return "fr_FR" if lang == "fr" else "en_US"


def percent(p: float, lang: Lang, digits: int = 2) -> str:
    """``p`` as a percentage in the locale's style (``72,34 %``, ``72.34%``)."""
    from babel import Locale
    from babel.numbers import format_percent

    locale = Locale.parse(_locale(lang))
    pattern = locale.percent_formats[None].pattern
    if digits:
        pattern = pattern.replace("0", "0." + "0" * digits, 1)
    text: str = format_percent(p, pattern, locale=locale)
    smallest = 10.0 ** -(digits + 2)
    if 0.0 < p < smallest / 2:
        less = format_percent(smallest, pattern, locale=locale)
        return f"< {less}"
    return text


def console() -> Console:
    """The console of the odds tables (wide enough for a chart when not a terminal)."""
    from rich.console import Console

    out = Console()
    if not out.is_terminal:
        out = Console(width=max(out.width, 120))
    return out


def new_table(title: str, caption: str | None = None) -> Table:
    """An odds table: a title, an optional caption, simple head."""
    from rich import box
    from rich.table import Table

    return Table(
        title=title,
        caption=caption,
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
        min_width=len(title) + 2,
    )


def print_roll_odds(
    odds: RollOdds,
    described: str,
    notes: list[str],
    lang: Lang,
    special_key: str,
    exceptional_from: int | None = None,
) -> None:
    """One roll: the special failure (its label ``special_key``), then each success count
    with P(at least that many); counts from ``exceptional_from`` on read "exceptional"."""
    table = new_table(t("odds.title.roll", lang, roll=described))
    table.add_column(t("odds.col.result", lang))
    table.add_column(t("odds.col.probability", lang), justify="right")
    table.add_column(t("odds.col.at_least", lang), justify="right")
    if odds.p_special > 0.0:
        table.add_row(t(special_key, lang), percent(odds.p_special, lang), "")
    last = max(
        [k for k in range(1, len(odds.successes)) if odds.at_least(k) >= SHOWN_TAIL],
        default=0,
    )
    for k in range(last + 1):
        if odds.successes[k] == 0.0:
            continue
        if k == 0:
            label = t("result.failure", lang)
        elif exceptional_from is not None and k >= exceptional_from:
            label = t("result.exceptional", lang, count=k)
        else:
            label = t("result.successes", lang, count=k)
        at_least = percent(odds.at_least(k), lang) if k > 0 else ""
        table.add_row(label, percent(odds.successes[k], lang), at_least)
    rest = odds.at_least(last + 1)
    if rest > 0.0:
        p = percent(rest, lang)
        table.add_row(t("odds.row.or_more", lang, count=last + 1), p, p)
    out = console()
    out.print(table)
    summary = t("odds.summary.success", lang, p=percent(odds.p_success, lang))
    out.print(summary, highlight=False)
    for note in notes:
        out.print(f"• {note}", highlight=False)
