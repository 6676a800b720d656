"""Reporting a simulation: the plot of its outcomes (PNG and SVG) and the rows of its tables.

The plot has three panels: each side's win rate and the draws with their
95 % Wilson intervals; the distribution of the turns fought; each fighter's
chance to end incapacitated (killed shown inside it) or fled. matplotlib is
imported here only, with its Agg backend (no display needed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conteur.i18n import Lang, percent, register_package_catalog, t

from .encounters import SimulationResult, wilson
from .referee import DOWN, KILLED

register_package_catalog("conteur.sim")

SIDE_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2")
DRAW_COLOUR = "#7f7f7f"


def plot_paths(path: Path | str) -> tuple[Path, Path]:
    """The PNG and SVG files a plot at ``path`` is written to (its suffix replaced)."""
    base = Path(path)
    if base.suffix.lower() in (".png", ".svg"):
        base = base.with_suffix("")
    return base.with_name(base.name + ".png"), base.with_name(base.name + ".svg")


def write_plot(result: SimulationResult, path: Path | str, lang: Lang = "fr") -> list[Path]:
    """Draw the outcomes of ``result`` and write them as PNG and SVG; the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    png, svg = plot_paths(path)
    png.parent.mkdir(parents=True, exist_ok=True)
    fig, (ax_out, ax_rounds, ax_cas) = plt.subplots(
        1, 3, figsize=(15, 4.8), gridspec_kw={"width_ratios": [1, 1.3, 1.5]}
    )
    colours = {side: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, side in enumerate(result.sides)}
    fig.suptitle(t("sim.plot.title", lang, scenario=Path(result.scenario).name, runs=result.runs))

    # Outcomes with their 95 % intervals.
    labels = [*result.sides, t("sim.plot.draw", lang)]
    counts = [result.tally.wins.get(s, 0) for s in result.sides] + [result.tally.draws]
    rates = [100.0 * c / result.runs for c in counts]
    lows, highs = [], []
    for c, rate in zip(counts, rates, strict=True):
        lo, hi = wilson(c, result.runs)
        lows.append(max(0.0, rate - 100.0 * lo))
        highs.append(max(0.0, 100.0 * hi - rate))
    bars = ax_out.bar(
        labels,
        rates,
        color=[colours[s] for s in result.sides] + [DRAW_COLOUR],
        yerr=[lows, highs],
        capsize=6,
    )
    for bar, rate, high in zip(bars, rates, highs, strict=True):
        ax_out.annotate(
            percent(rate / 100.0, lang),
            (bar.get_x() + bar.get_width() / 2, bar.get_height() + high),
            xytext=(0, 3),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=9,
        )
    ax_out.set_ylim(0, 110)
    ax_out.set_ylabel(t("sim.plot.rate", lang))
    ax_out.set_title(t("sim.plot.outcomes", lang))

    # Turns fought.
    rounds = sorted(result.tally.rounds)
    ax_rounds.bar(rounds, [result.tally.rounds[r] for r in rounds], color="#555555", width=0.8)
    ax_rounds.set_xlabel(t("sim.plot.rounds", lang))
    ax_rounds.set_ylabel(t("sim.plot.count", lang))
    ax_rounds.set_title(t("sim.plot.rounds", lang))
    if rounds:
        ax_rounds.set_xticks(range(min(rounds), max(rounds) + 1))

    # Casualties per fighter: incapacitated (killed inside it), fled.
    names = [name for _, _, name in result.fighters]
    down = [100.0 * result.fighter_rate(i, DOWN) for i in range(len(names))]
    killed = [100.0 * result.fighter_rate(i, KILLED) for i in range(len(names))]
    fled = [100.0 * result.fighter_rate(i, ("fled",)) for i in range(len(names))]
    ys = list(range(len(names)))
    side_colour = [colours[side] for _, side, _ in result.fighters]
    ax_cas.barh(ys, down, color=side_colour, alpha=0.45)
    ax_cas.barh(ys, killed, color=side_colour, alpha=1.0)
    handles = [
        Patch(facecolor="#444444", alpha=0.45, label=t("sim.plot.incapacitated", lang)),
        Patch(facecolor="#444444", label=t("sim.plot.killed", lang)),
    ]
    if any(fled):
        ax_cas.barh(ys, fled, left=down, color="none", edgecolor="black", hatch="//")
        handles.append(
            Patch(facecolor="none", edgecolor="black", hatch="//", label=t("sim.plot.fled", lang))
        )
    ax_cas.set_yticks(ys, names)
    ax_cas.invert_yaxis()
    ax_cas.set_xlim(0, 100)
    ax_cas.set_xlabel(t("sim.plot.rate", lang))
    ax_cas.set_title(t("sim.plot.casualties", lang))
    ax_cas.legend(
        handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=3, fontsize=8
    )

    fig.tight_layout()
    fig.savefig(png, dpi=110)
    fig.savefig(svg)
    plt.close(fig)
    return [png, svg]


def side_rows(result: SimulationResult, lang: Lang) -> list[list[str]]:
    """One row per side: name, tactic, win rate, interval, mean casualties."""
    data = result.outcome_dict()["sides"]
    rows = []
    for side in result.sides:
        s: dict[str, Any] = data[side]
        lo, hi = s["ci95"]
        rows.append(
            [
                side,
                str(s["tactic"]),
                percent(s["win_rate"], lang),
                percent_range(lo, hi, lang),
                decimal(s["incapacitated_mean"], lang),
                decimal(s["killed_mean"], lang),
                decimal(s["fled_mean"], lang),
            ]
        )
    return rows


def fighter_rows(result: SimulationResult, lang: Lang) -> list[list[str]]:
    """One row per fighter: name, side, P(incapacitated), P(killed), P(fled)."""
    rows = []
    for i, (_, side, name) in enumerate(result.fighters):
        rows.append(
            [
                name,
                side,
                percent(result.fighter_rate(i, DOWN), lang),
                percent(result.fighter_rate(i, KILLED), lang),
                percent(result.fighter_rate(i, ("fled",)), lang),
            ]
        )
    return rows


def percent_range(lo: float, hi: float, lang: Lang) -> str:
    """An interval of proportions, compactly: ``81,6–91,0 %`` or ``81.6–91.0%``."""
    from babel.numbers import format_decimal

    locale = "fr_FR" if lang == "fr" else "en_US"
    a, b = (format_decimal(100 * x, format="0.0", locale=locale) for x in (lo, hi))
    return f"{a}–{b} %" if lang == "fr" else f"{a}–{b}%"


def decimal(value: float, lang: Lang, digits: int = 2) -> str:
    """A number written the way ``lang`` writes it (``1,25`` or ``1.25``)."""
    from babel.numbers import format_decimal

    return str(format_decimal(round(value, digits), locale="fr_FR" if lang == "fr" else "en_US"))


__all__ = ["decimal", "fighter_rows", "percent_range", "plot_paths", "side_rows", "write_plot"]
