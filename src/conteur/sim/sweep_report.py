"""Reporting a sweep: its table rows, the line saying where the fight is closest to even, and
its plot (PNG and SVG): each side's win rate with its 95 % Wilson interval, and the draws,
against the varied value. matplotlib is imported here only, with its Agg backend."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conteur.i18n import Lang, percent, register_package_catalog, t

from .report import DRAW_COLOUR, SIDE_COLOURS, decimal, percent_range, plot_paths
from .sweep import SweepResult

register_package_catalog("conteur.sim")


def value_text(value: Any, lang: Lang) -> str:
    """A swept value as ``lang`` writes it: numbers by Babel, yes/no as words."""
    if isinstance(value, bool):
        return t("sim.sweep.yes" if value else "sim.sweep.no", lang)
    if isinstance(value, int | float):
        return decimal(value, lang)
    return str(value)


def axis_label(result: SweepResult, lang: Lang) -> str:
    """What the x axis (and the first column) shows: the trait's name and whose it is, the
    copies of whom, or the option as written."""
    axis = result.spec.axis()
    return axis if isinstance(axis, str) else axis.describe(lang)


def sweep_rows(result: SweepResult, lang: Lang) -> list[list[str]]:
    """One row per value: the value, each side's win rate with its interval, the draws."""
    rows = []
    best = result.closest()
    for i, (value, point) in enumerate(zip(result.spec.values, result.points, strict=True)):
        cells = [value_text(value, lang) + (" ◀" if i == best else "")]
        for side in result.sides:
            lo, hi = point.win_interval(side)
            cells.append(f"{percent(point.win_rate(side), lang)} ({percent_range(lo, hi, lang)})")
        cells.append(percent(point.draw_rate(), lang))
        rows.append(cells)
    return rows


def closest_line(result: SweepResult, lang: Lang) -> str:
    """Where the fight is closest to even, whether the runs can tell the sides apart there,
    and between which values the favourite changes."""
    best = result.closest()
    point = result.points[best]
    rates = ", ".join(f"{s} {percent(point.win_rate(s), lang)}" for s in result.sides)
    gap = round(100 * result.spread(point), 1)
    line = t(
        "sim.sweep.closest",
        lang,
        label=axis_label(result, lang),
        value=value_text(result.spec.values[best], lang),
        rates=rates,
        gap=gap,
    )
    verdict = "sim.sweep.overlap" if result.overlapping(point) else "sim.sweep.apart"
    lines = [f"{line} {t(verdict, lang)}"]
    values = result.spec.values
    for i, j, before, after in result.leader_changes():
        lines.append(
            t(
                "sim.sweep.tips",
                lang,
                label=axis_label(result, lang),
                low=value_text(values[i], lang),
                high=value_text(values[j], lang),
                before=before,
                after=after,
            )
        )
    return "\n".join(lines)


def write_sweep_plot(result: SweepResult, path: Path | str, lang: Lang = "fr") -> list[Path]:
    """Draw each side's win rate (95 % interval as a band and bars) and the draws against the
    swept value, mark the value closest to even, and write PNG and SVG; the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    png, svg = plot_paths(path)
    png.parent.mkdir(parents=True, exist_ok=True)
    values = list(result.spec.values)
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
    xs = [float(v) for v in values] if numeric else [float(i) for i in range(len(values))]
    fig, ax = plt.subplots(figsize=(9, 5.2))
    for i, side in enumerate(result.sides):
        colour = SIDE_COLOURS[i % len(SIDE_COLOURS)]
        rates = [100.0 * p.win_rate(side) for p in result.points]
        intervals = [p.win_interval(side) for p in result.points]
        lows = [100.0 * lo for lo, _ in intervals]
        highs = [100.0 * hi for _, hi in intervals]
        ax.fill_between(xs, lows, highs, color=colour, alpha=0.18, linewidth=0)
        ax.errorbar(
            xs,
            rates,
            yerr=[
                [r - lo for r, lo in zip(rates, lows, strict=True)],
                [hi - r for r, hi in zip(rates, highs, strict=True)],
            ],
            color=colour,
            marker="o",
            capsize=4,
            label=side,
        )
    draws = [100.0 * p.draw_rate() for p in result.points]
    if any(draws):
        ax.plot(
            xs, draws, color=DRAW_COLOUR, linestyle="--", marker=".", label=t("sim.plot.draw", lang)
        )
    ax.axhline(100.0 / len(result.sides), color="#999999", linewidth=0.8, linestyle=":")
    best = result.closest()
    ax.axvline(xs[best], color="#333333", linewidth=1.0, linestyle=":")
    ax.annotate(
        t("sim.sweep.plot.closest", lang, value=value_text(values[best], lang)),
        (xs[best], 103),
        xytext=(4, 0),
        textcoords="offset points",
        fontsize=9,
        va="center",
    )
    ax.set_xticks(xs, [value_text(v, lang) for v in values])
    ax.set_ylim(0, 108)
    ax.set_xlabel(axis_label(result, lang))
    ax.set_ylabel(t("sim.sweep.plot.rate", lang))
    ax.set_title(
        t(
            "sim.sweep.plot.title",
            lang,
            scenario=Path(result.first.scenario).name,
            runs=result.runs,
        )
    )
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    fig.savefig(svg)
    plt.close(fig)
    return [png, svg]


__all__ = ["axis_label", "closest_line", "sweep_rows", "value_text", "write_sweep_plot"]
