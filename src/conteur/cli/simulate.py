"""``conteur simulate``: a whole scenario fought thousands of times with the real rules.

The simulator (``conteur.sim``), Rich and matplotlib are imported inside the
command, so that ``conteur --help`` stays fast.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from conteur.i18n import ConteurError, Lang, os_reason, percent, register_package_catalog, t

from .common import LangOption, fail, help_text, print_json, resolve_lang

if TYPE_CHECKING:
    from conteur.sim.encounters import SimulationResult
    from conteur.sim.sweep import SweepResult

register_package_catalog("conteur.sim")


def simulate_command(
    scenario: Annotated[Path, typer.Argument(help=help_text("cli.help.play.scenario"))],
    runs: Annotated[int, typer.Option("--runs", help=help_text("sim.help.runs"))] = 1000,
    seed: Annotated[int | None, typer.Option("--seed", help=help_text("sim.help.seed"))] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", help=help_text("sim.help.workers"))
    ] = None,
    tactic: Annotated[
        list[str] | None, typer.Option("--tactic", help=help_text("sim.help.tactic"))
    ] = None,
    max_turns: Annotated[
        int | None, typer.Option("--max-turns", help=help_text("sim.help.max_turns"))
    ] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help=help_text("sim.help.plot"))] = None,
    no_plot: Annotated[bool, typer.Option("--no-plot", help=help_text("sim.help.no_plot"))] = False,
    dask: Annotated[str | None, typer.Option("--dask", help=help_text("sim.help.dask"))] = None,
    sweep: Annotated[str | None, typer.Option("--sweep", help=help_text("sim.help.sweep"))] = None,
    lang: LangOption = None,
    as_json: Annotated[bool, typer.Option("--json", help=help_text("sim.help.json"))] = False,
) -> None:
    """Fight SCENARIO ``runs`` times and report win rates, turns and casualties; with
    ``--sweep SPEC``, once for each value of SPEC."""
    chosen = resolve_lang(lang)
    from conteur.sim.encounters import default_workers, simulate
    from conteur.sim.sweep import SweepResult
    from conteur.sim.sweep import sweep as run_sweep
    from conteur.sim.tactics import parse_tactic_option

    result: SimulationResult | SweepResult
    try:
        bar = progress_bar(runs, chosen)
        common: dict[str, Any] = {
            "seed": seed,
            "workers": workers if workers is not None else default_workers(),
            "tactics": dict(parse_tactic_option(x) for x in tactic or []),
            "max_turns": max_turns,
            "dask": dask,
        }
        with bar as advance:
            if sweep is None:
                result = simulate(scenario, runs, progress=advance, **common)
            else:
                result = run_sweep(
                    scenario, sweep, runs, progress=advance, planned=bar.plan, **common
                )
    except ConteurError as error:
        fail(error, chosen, as_json)
    written: list[Path] = []
    if not no_plot:
        try:
            written = write_plots(result, plot, scenario, chosen)
        except OSError as exc:  # a folder that cannot be made, a file in the way
            where = str(plot or scenario.stem)
            fail(
                ConteurError("sim.plot.unwritable", file=where, reason=os_reason(exc)),
                chosen,
                as_json,
            )
    if as_json:
        data = result.to_dict()
        data["plot"] = [str(p) for p in written]
        print_json(data)
    elif isinstance(result, SweepResult):
        show_sweep(result, written, chosen)
    else:
        show(result, written, chosen)


def write_plots(
    result: SimulationResult | SweepResult, plot: Path | None, scenario: Path, lang: Lang
) -> list[Path]:
    """The plot of a simulation (default ``SCENARIO-simulation``) or of a sweep (default
    ``SCENARIO-sweep``), as PNG and SVG; the files written."""
    from conteur.sim.sweep import SweepResult

    if isinstance(result, SweepResult):
        from conteur.sim.sweep_report import write_sweep_plot

        return write_sweep_plot(result, plot or Path(f"{scenario.stem}-sweep"), lang)
    from conteur.sim.report import write_plot

    return write_plot(result, plot or Path(f"{scenario.stem}-simulation"), lang)


def show_sweep(result: SweepResult, written: list[Path], lang: Lang) -> None:
    """A sweep as a table (one row per value) and where the fight is closest to even."""
    from rich.table import Table

    from conteur.sim.sweep_report import axis_label, closest_line, sweep_rows, value_text

    from .common import console

    out = console()
    values = result.spec.values
    out.print(
        t(
            "sim.sweep.title",
            lang,
            scenario=Path(result.first.scenario).name,
            label=axis_label(result, lang),
            first=value_text(values[0], lang),
            last=value_text(values[-1], lang),
            values=len(values),
            runs=result.runs,
            seed=result.first.seed,
            turns=result.first.max_turns,
        )
    )
    table = Table(
        axis_label(result, lang),
        *result.sides,
        t("sim.sweep.col.draws", lang),
        caption=t("sim.sweep.caption", lang),
    )
    for row in sweep_rows(result, lang):
        table.add_row(*row)
    out.print(table)
    out.print(closest_line(result, lang))
    out.print(footer(result, written, lang))


def footer(result: SimulationResult | SweepResult, written: list[Path], lang: Lang) -> str:
    """How fast the fights went, and the plot files written."""
    from conteur.sim.report import decimal

    speed = t(
        "sim.speed",
        lang,
        rate=decimal(result.fights_per_second, lang, 1),
        workers=result.workers,
        backend=result.backend,
        elapsed=decimal(result.elapsed, lang, 1),
    )
    if not written:
        return speed
    return speed + "\n" + t("sim.plot_written", lang, paths=", ".join(str(p) for p in written))


class progress_bar:
    """A Rich progress bar on stderr, advanced by the number of runs each chunk finished."""

    def __init__(self, runs: int, lang: Lang) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=Console(file=sys.stderr),
            transient=True,
        )
        self.task = self.progress.add_task(t("sim.progress", lang), total=runs)
        self.started = False

    def __enter__(self) -> Callable[[int], None]:
        return self.advance

    def plan(self, total: int) -> None:
        """The number of runs to fight, once known (a sweep's: every value's)."""
        self.progress.update(self.task, total=total)

    def advance(self, done: int) -> None:
        """Show the bar when the fights begin (a refused argument shows none), then advance it."""
        if not self.started:
            self.progress.start()
            self.started = True
        self.progress.advance(self.task, done)

    def __exit__(self, *exc: object) -> None:
        if self.started:
            self.progress.stop()


def show(result: SimulationResult, written: list[Path], lang: Lang) -> None:
    """The result as tables, in ``lang``."""
    from rich.table import Table

    from conteur.sim.report import decimal, fighter_rows, side_rows

    from .common import console

    out = console()
    out.print(
        t(
            "sim.title",
            lang,
            scenario=Path(result.scenario).name,
            runs=result.runs,
            seed=result.seed,
            turns=result.max_turns,
        )
    )
    sides = Table(
        t("sim.col.side", lang),
        t("sim.col.tactic", lang),
        t("sim.col.wins", lang),
        t("sim.col.ci", lang),
        t("sim.col.incapacitated", lang),
        t("sim.col.killed", lang),
        t("sim.col.fled", lang),
        caption=t("sim.col.caption", lang),
    )
    for row in side_rows(result, lang):
        sides.add_row(*row)
    out.print(sides)
    out.print(
        t(
            "sim.draws",
            lang,
            rate=percent(result.draw_rate(), lang),
            count=result.tally.draws,
            timeouts=result.tally.timeouts,
        )
    )
    rounds = result.outcome_dict()["rounds"]
    out.print(
        t(
            "sim.rounds",
            lang,
            mean=decimal(rounds["mean"], lang),
            median=rounds["median"],
            min=rounds["min"],
            max=rounds["max"],
        )
    )
    fighters = Table(
        t("sim.col.fighter", lang),
        t("sim.col.side", lang),
        t("sim.col.p_incapacitated", lang),
        t("sim.col.p_killed", lang),
        t("sim.col.p_fled", lang),
    )
    for row in fighter_rows(result, lang):
        fighters.add_row(*row)
    out.print(fighters)
    if result.tally.first_error is not None:
        run, message = result.tally.first_error
        out.print(t("sim.errors", lang, count=result.tally.errors, run=run, message=message))
    out.print(footer(result, written, lang))
