"""The one-legality property, shared by the rulesets' tests: from the states a shipped
example passes through, any command filled from a ``legal_commands`` template with values
it offers is carried out, or refused only with one of the error keys the template states
(``CommandTemplate.refusals``).

``example_states`` plays an example's script with its typed dice (the way ``conteur play``
does) and keeps the state before each command and the last one. ``fill`` draws one value
per parameter from what the template offers: a choice among its choices, a number in its
range, a yes or a no, a place on the map, and — for an optional parameter — leaving it out.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conteur.dice import SeededDice
from conteur.engine import Command, CommandTemplate, Encounter
from conteur.engine.inputs import read_data
from conteur.engine.script import play_script, script_lines, typed_dice
from conteur.i18n import ConteurError

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Reached:
    """One state an example passed through (``where``: the example and the step)."""

    where: str
    scenario: dict[str, Any]
    base_dir: Path
    state: Any

    def __repr__(self) -> str:
        return f"Reached({self.where!r})"


def example_states(name: str | Path) -> list[Reached]:
    """The states ``examples/<name>.yaml`` (or the scenario at a path) passes through, played
    with its script and dice."""
    path = name if isinstance(name, Path) else ROOT / "examples" / f"{name}.yaml"
    name = path.stem if isinstance(name, Path) else name
    scenario = read_data(path)
    enc = Encounter.start(scenario, path.parent)
    _, stopped = play_script(
        enc, script_lines(path.with_suffix(".txt")), typed_dice(path.with_suffix(".dice")), "fr"
    )
    assert stopped is None, stopped
    fresh = Encounter.start(scenario, path.parent)
    out = [Reached(f"{name}: start", scenario, path.parent, copy.deepcopy(fresh.state))]
    for step, entry in enumerate(enc.active(), start=1):
        for event in entry.events:
            event.apply(fresh.state)
        out.append(
            Reached(
                f"{name}: after {entry.command.type} #{step}",
                scenario,
                path.parent,
                copy.deepcopy(fresh.state),
            )
        )
    return out


def fill(draw: Any, template: CommandTemplate) -> Command:
    """A command from ``template``, each value one it offers (optional ones maybe left out)."""
    args: dict[str, Any] = {}
    for p in template.params:
        if not p.required and draw(st.booleans()):
            continue
        if p.kind == "choice":
            assert p.choices or not p.required, f"{template.type}: {p.name} offers no choice"
            if p.choices:
                args[p.name] = draw(st.sampled_from(p.choices))
        elif p.kind == "int":
            low = p.min if p.min is not None else -1000
            high = p.max if p.max is not None else 1000
            args[p.name] = draw(st.integers(low, high))
        elif p.kind == "bool":
            args[p.name] = draw(st.booleans())
        elif p.kind == "position":
            args[p.name] = [draw(st.integers(-50, 50)), draw(st.integers(-50, 50))]  # metres
        else:
            # A text offers no value of its own: the template must not require one.
            assert not p.required, f"{template.type}: {p.name} is free text and required"
    return Command(template.type, template.actor, args)


class NoDice(SeededDice):
    """Seeded dice that fail the test when rolled: for a template that says it rolls none."""

    def roll(self, request: Any, ask: Any = None) -> Any:
        raise AssertionError(f"a command whose template says it rolls no dice rolled {request}")


def attempt(reached: Reached, command: Command, seed: int, no_dice: bool = False) -> str | None:
    """Carry ``command`` out from ``reached`` with seeded dice (``no_dice``: dice that may not
    be rolled): None, or the refusal's key."""
    enc = Encounter.start(reached.scenario, reached.base_dir)
    enc.state = copy.deepcopy(reached.state)
    try:
        enc.execute(command, NoDice(seed) if no_dice else SeededDice(seed))
    except ConteurError as error:
        return error.key
    return None


def check_one_legality(draw: Any, states: list[Reached]) -> None:
    """One draw of the property: a state, a template offered there, values, the outcome."""
    reached = draw(st.sampled_from(states))
    enc = Encounter.start(reached.scenario, reached.base_dir)
    templates = enc.ruleset.legal_commands(reached.state)
    if not templates:
        return
    template = draw(st.sampled_from(templates))
    command = fill(draw, template)
    refused = attempt(reached, command, draw(st.integers(0, 2**32)), template.dice is False)
    assert refused is None or refused in template.refusals, (
        f"{reached.where}: {command} refused with {refused!r}, not among "
        f"{sorted(template.refusals)}"
    )
