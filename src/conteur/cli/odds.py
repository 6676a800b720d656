"""``conteur odds``: exact odds of a roll, and the classic charts.

numpy, Rich and Babel are imported inside the commands, so that
``conteur --help`` and the JSON answers start fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from conteur.i18n import ConteurError, Lang, env_lang, t

from .common import JsonOption, LangOption, fail, print_json, resolve_lang

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from conteur.dice.charts import HunterChart, VtmChart
    from conteur.dice.odds import RollOdds


def _help(key: str) -> str:
    """A help text in the language of ``CONTEUR_LANG`` (help is built when the CLI loads)."""
    return t(key, env_lang())


odds_app = typer.Typer(help=_help("odds.help.group"), no_args_is_help=True)

CHART_POOL = 30
"""Default largest pool of the charts (``conteur.dice.odds.CHART_POOL``, not imported here:
it would load numpy with the CLI)."""

SHOWN_TAIL = 5e-5
"""Readable tables list success counts one by one while P(at least k) stays above this."""

PoolOption = Annotated[int | None, typer.Option("--pool", help=_help("odds.help.pool"))]
TableOption = Annotated[bool, typer.Option("--table", help=_help("odds.help.table"))]
MaxPoolOption = Annotated[
    int,
    typer.Option("--max-pool", help=_help("odds.help.max_pool")),
]


@odds_app.command("vtm", help=_help("odds.help.vtm"))
def vtm_command(
    pool: PoolOption = None,
    difficulty: Annotated[
        int, typer.Option("--difficulty", help=_help("odds.help.difficulty"))
    ] = 6,
    no_cancel: Annotated[
        bool,
        typer.Option(
            "--no-cancel",
            help=_help("odds.help.no_cancel"),
        ),
    ] = False,
    willpower: Annotated[
        bool,
        typer.Option("--willpower", help=_help("odds.help.willpower")),
    ] = False,
    table: TableOption = False,
    max_pool: MaxPoolOption = CHART_POOL,
    lang: LangOption = None,
    as_json: JsonOption = False,
) -> None:
    """Exact odds of a d10 pool against a difficulty, or the classic chart (``--table``)."""
    chosen = resolve_lang(lang)
    from conteur.dice.odds import check_max_pool, odds_answer, vtm_odds
    from conteur.dice.rolls import VtmPool

    try:
        if as_json:
            print_json(
                odds_answer(
                    "vtm",
                    pool=pool,
                    difficulty=difficulty,
                    no_cancel=no_cancel,
                    willpower=willpower,
                    table=table,
                    max_pool=max_pool,
                )
            )
            return
        if table:
            from conteur.dice.charts import vtm_chart

            check_max_pool(max_pool, minimum=1)
            _print_vtm_chart(vtm_chart(max_pool), chosen)
            return
        if pool is None:
            raise ConteurError("odds.need_pool")
        odds = vtm_odds(
            pool,
            difficulty,
            ones_cancel=not no_cancel,
            can_botch=not no_cancel,
            auto=1 if willpower else 0,
        )
    except ConteurError as error:
        fail(error, chosen, as_json)
    request = VtmPool(pool, difficulty)
    notes: list[str] = []
    if request.clamped:
        notes.append(
            t("result.clamped", chosen, asked=difficulty, difficulty=request.effective_difficulty)
        )
    if no_cancel:
        notes.append(t("odds.note.no_cancel", chosen))
    if willpower:
        notes.append(t("odds.note.willpower", chosen))
    _print_roll_odds(odds, request.describe(chosen), notes, chosen, special_key="result.botch")


@odds_app.command("hunter", help=_help("odds.help.hunter"))
def hunter_command(
    pool: PoolOption = None,
    again: Annotated[int, typer.Option("--again", help=_help("odds.help.again"))] = 10,
    rote: Annotated[bool, typer.Option("--rote", help=_help("odds.help.rote"))] = False,
    table: TableOption = False,
    max_pool: MaxPoolOption = CHART_POOL,
    lang: LangOption = None,
    as_json: JsonOption = False,
) -> None:
    """Exact odds of a new-WoD pool (chance die at 0 or less), or the chart (``--table``)."""
    chosen = resolve_lang(lang)
    from conteur.dice.odds import check_again, check_max_pool, hunter_odds, odds_answer
    from conteur.dice.rolls import HunterPool

    try:
        if as_json:
            print_json(
                odds_answer(
                    "hunter", pool=pool, again=again, rote=rote, table=table, max_pool=max_pool
                )
            )
            return
        check_again(again)
        if table:
            from conteur.dice.charts import hunter_chart

            check_max_pool(max_pool, minimum=0)
            _print_hunter_chart(hunter_chart(max_pool, rote=rote), chosen)
            return
        if pool is None:
            raise ConteurError("odds.need_pool")
        odds = hunter_odds(pool, again, rote=rote)
    except ConteurError as error:
        fail(error, chosen, as_json)
    request = HunterPool(pool, again, rote)
    notes: list[str] = []
    if request.chance:
        notes.append(t("odds.note.chance", chosen, dice=pool))
    if again != 10:
        notes.append(t("odds.note.again", chosen, again=again))
    if rote:
        notes.append(t("odds.note.rote", chosen))
    _print_roll_odds(
        odds, request.describe(chosen), notes, chosen, special_key="result.dramatic_failure"
    )


@odds_app.command("western", help=_help("odds.help.western"))
def western_command(
    skill: Annotated[int, typer.Option("--skill", help=_help("odds.help.skill"))],
    lang: LangOption = None,
    as_json: JsonOption = False,
) -> None:
    """Success and critical chances of 1D100 under a percentage (W-CRIT-1)."""
    chosen = resolve_lang(lang)
    from conteur.dice.odds import odds_answer, western_odds
    from conteur.dice.rolls import Percentile

    if as_json:
        print_json(odds_answer("western", skill=skill))
        return
    odds = western_odds(skill)
    table = _new_table(t("odds.title.roll", chosen, roll=Percentile(skill)))
    table.add_column(t("odds.col.result", chosen))
    table.add_column(t("odds.col.probability", chosen), justify="right")
    table.add_row(t("odds.western.success", chosen, skill=skill), _percent(odds.p_success, chosen))
    table.add_row(
        t("odds.western.critical", chosen, skill=skill), _percent(odds.p_critical, chosen)
    )
    _console().print(table)


# ------------------------------------------------------------------ rendering


def _locale(lang: Lang) -> str:
    return "fr_FR" if lang == "fr" else "en_US"


def _percent(p: float, lang: Lang, digits: int = 2) -> str:
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


def _console() -> Console:
    from rich.console import Console

    console = Console()
    if not console.is_terminal:
        console = Console(width=max(console.width, 120))
    return console


def _new_table(title: str, caption: str | None = None) -> Table:
    from rich import box
    from rich.table import Table

    return Table(
        title=title,
        caption=caption,
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
        min_width=len(title) + 2,
    )


def _print_roll_odds(
    odds: RollOdds, described: str, notes: list[str], lang: Lang, special_key: str
) -> None:
    """One roll: the special failure, then each success count with P(at least that many)."""
    table = _new_table(t("odds.title.roll", lang, roll=described))
    table.add_column(t("odds.col.result", lang))
    table.add_column(t("odds.col.probability", lang), justify="right")
    table.add_column(t("odds.col.at_least", lang), justify="right")
    if odds.p_special > 0.0:
        table.add_row(t(special_key, lang), _percent(odds.p_special, lang), "")
    last = max(
        [k for k in range(1, len(odds.successes)) if odds.at_least(k) >= SHOWN_TAIL],
        default=0,
    )
    exceptional = special_key == "result.dramatic_failure"
    for k in range(last + 1):
        if odds.successes[k] == 0.0:
            continue
        if k == 0:
            label = t("result.failure", lang)
        elif exceptional and k >= 5:
            label = t("result.exceptional", lang, count=k)
        else:
            label = t("result.successes", lang, count=k)
        at_least = _percent(odds.at_least(k), lang) if k > 0 else ""
        table.add_row(label, _percent(odds.successes[k], lang), at_least)
    rest = odds.at_least(last + 1)
    if rest > 0.0:
        p = _percent(rest, lang)
        table.add_row(t("odds.row.or_more", lang, count=last + 1), p, p)
    console = _console()
    console.print(table)
    summary = t("odds.summary.success", lang, p=_percent(odds.p_success, lang))
    console.print(summary, highlight=False)
    for note in notes:
        console.print(f"• {note}", highlight=False)


def _print_vtm_chart(chart: VtmChart, lang: Lang) -> None:
    console = _console()
    for key, values in (
        ("odds.chart.vtm.success", chart.p_success),
        ("odds.chart.vtm.botch", chart.p_botch),
    ):
        table = _new_table(t(key, lang))
        table.add_column(t("odds.col.pool", lang), justify="right")
        for d in chart.difficulties:
            table.add_column(t("odds.col.difficulty", lang, difficulty=d), justify="right")
        for i, pool in enumerate(chart.pools):
            table.add_row(str(pool), *(_percent(float(p), lang, 1) for p in values[i]))
        console.print(table)


def _print_hunter_chart(chart: HunterChart, lang: Lang) -> None:
    title = "odds.chart.hunter.title_rote" if chart.rote else "odds.chart.hunter.title"
    table = _new_table(t(title, lang), t("odds.chart.hunter.caption", lang))
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
            _percent(float(chart.p_success[i, 0]), lang, 1),
            _percent(float(chart.p_dramatic[i, 0]), lang, 1),
            *(_percent(float(p), lang, 1) for p in chart.p_exceptional[i]),
        )
    _console().print(table)
