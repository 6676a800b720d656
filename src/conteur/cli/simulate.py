"""``conteur simulate``: a whole scenario fought thousands of times with the real rules.

The simulator (``conteur.sim``), Rich and matplotlib are imported inside the
command, so that ``conteur --help`` stays fast.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from conteur.i18n import ConteurError, Lang, percent, register_package_catalog, t

from .common import LangOption, app, fail, help_text, print_json, resolve_lang

if TYPE_CHECKING:
    from conteur.sim.encounters import SimulationResult

register_package_catalog("conteur.sim")


@app.command("simulate", help=help_text("sim.help.simulate"))
def simulate_command(
    scenario: Annotated[Path, typer.Argument(help="SCENARIO.yaml")],
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
    lang: LangOption = None,
    as_json: Annotated[bool, typer.Option("--json", help=help_text("sim.help.json"))] = False,
) -> None:
    """Fight SCENARIO ``runs`` times and report win rates, turns and casualties."""
    chosen = resolve_lang(lang)
    from conteur.sim.encounters import default_workers, simulate
    from conteur.sim.tactics import parse_tactic_option

    try:
        overrides = dict(parse_tactic_option(x) for x in tactic or [])
        with progress_bar(runs, chosen) as advance:
            result = simulate(
                scenario,
                runs,
                seed=seed,
                workers=workers if workers is not None else default_workers(),
                tactics=overrides,
                max_turns=max_turns,
                dask=dask,
                progress=advance,
            )
    except ConteurError as error:
        fail(error, chosen, as_json)
    written: list[Path] = []
    if not no_plot:
        from conteur.sim.report import write_plot

        written = write_plot(result, plot or Path(f"{scenario.stem}-simulation"), chosen)
    if as_json:
        data = result.to_dict()
        data["plot"] = [str(p) for p in written]
        print_json(data)
        return
    show(result, written, chosen)


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
    out.print(
        t(
            "sim.speed",
            lang,
            rate=decimal(result.fights_per_second, lang, 1),
            workers=result.workers,
            backend=result.backend,
            elapsed=decimal(result.elapsed, lang, 1),
        )
    )
    if written:
        out.print(t("sim.plot_written", lang, paths=", ".join(str(p) for p in written)))
