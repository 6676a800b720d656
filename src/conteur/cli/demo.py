"""``conteur demo``: a taste of each ruleset — its charts, sample rolls — then plain dice.

Each ruleset may declare its part (``conteur.cli_parts.CliParts.demo``): a function
giving a ``DemoPart``. The demo prints every part's opening (an odds chart...), then
every part's sample rolls, the plain ``NdX±M`` samples, and the parts' closing hints.
Rich and the dice are imported inside the functions, so that registering the command
costs nothing at start-up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from conteur.i18n import Lang, t

from .common import LangOption, console, help_text, resolve_lang

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

    from conteur.dice import Roll

DEMO_SEED = 1899


@dataclass(frozen=True)
class Sample:
    """A sample roll: the request, its seed offset, the rule ids it shows (a damage roll's)."""

    request: Roll[Any]
    offset: int
    rules: Sequence[str] = ()


@dataclass(frozen=True)
class DemoPart:
    """A ruleset's part of the demo."""

    opening: Callable[[Lang], Sequence[RenderableType]] = lambda lang: ()
    """What is shown first, in the language asked (its odds chart...)."""
    samples: Sequence[Sample] = ()
    hint: str | None = None
    """The catalog key of a closing line (how to make such a roll yourself)."""


def samples() -> list[Sample]:
    """The plain ``NdX±M`` samples shown after the rulesets' own, each with its seed offset."""
    from conteur.dice import Expr

    return [Sample(Expr.parse("3D10"), 3), Sample(Expr.parse("4D6-3"), 4)]


def parts() -> list[DemoPart]:
    """Every ruleset's demo part, in the order of their names."""
    from conteur.cli_parts import all_parts, resolve

    return [resolve(p.demo)() for p in all_parts().values() if p.demo is not None]


def show_demo(out: Console, lang: Lang, seed: int = DEMO_SEED) -> None:
    """Print the whole demo on ``out``."""
    from rich.text import Text

    from conteur.dice import SeededDice

    from .render import render

    shown = parts()
    out.print(Text(t("demo.title", lang), style="bold magenta"))
    out.print()
    for part in shown:
        for renderable in part.opening(lang):
            out.print(renderable)
    out.print()
    out.print(Text(t("demo.samples", lang), style="bold"))
    for sample in [*(s for part in shown for s in part.samples), *samples()]:
        out.print()
        # A fresh source per roll, so that ``conteur roll ... --seed S`` gives the same dice.
        record = SeededDice(seed + sample.offset).roll(sample.request)
        out.print(render(record, lang, seed=seed + sample.offset, rules=sample.rules))
    for part in shown:
        if part.hint is not None:
            out.print()
            out.print(Text(t(part.hint, lang), style="italic"))


def demo(
    seed: Annotated[int, typer.Option("--seed", help=help_text("cli.help.demo_seed"))] = DEMO_SEED,
    lang: LangOption = None,
) -> None:
    """Each ruleset's chart and sample rolls, in French (English with ``--lang en``)."""
    show_demo(console(), resolve_lang(lang), seed)
