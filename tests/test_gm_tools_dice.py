"""A form never shows a dice box for an action without dice (issue 15, item 4): every game
master's tool of every ruleset (the toy duel included) says whether it rolls
(``CommandTemplate.dice``), its form follows, and one that says it rolls none is carried
out with dice that fail the test when rolled (``tests/legality.py``'s ``NoDice``)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from conteur.engine import Command, CommandTemplate, Encounter
from conteur.web.view import forms
from legality import Reached, attempt, example_states

EXAMPLES: tuple[str | Path, ...] = (
    "saloon",
    "hunter/cellule",
    "western/saloon",
    Path(__file__).parent / "plugins" / "examples" / "duel.yaml",
)


@cache
def states(name: str | Path) -> list[Reached]:
    return example_states(name)


def _tools(reached: Reached) -> list[CommandTemplate]:
    enc = Encounter.start(reached.scenario, reached.base_dir)
    return [tp for tp in enc.ruleset.legal_commands(reached.state) if tp.actor is None]


def _first_values(tp: CommandTemplate) -> Command:
    """The command with the first value the template offers for each parameter."""
    args: dict[str, Any] = {}
    for p in tp.params:
        if p.kind == "choice" and p.choices:
            args[p.name] = p.choices[0]
        elif p.kind == "int":
            args[p.name] = p.default if p.default is not None else (p.min or 0)
        elif p.kind == "text":
            args[p.name] = "note"
        elif p.kind == "bool":
            args[p.name] = False
        elif p.kind == "position":
            args[p.name] = [1, 1]
    return Command(tp.type, tp.actor, args)


@pytest.mark.parametrize("name", EXAMPLES, ids=lambda n: Path(str(n)).stem)
def test_every_gm_tool_says_whether_it_rolls_and_its_form_follows(name: str | Path) -> None:
    seen: set[str] = set()
    for reached in states(name):
        enc = Encounter.start(reached.scenario, reached.base_dir)
        enc.state = reached.state
        tools = [tp for tp in _tools(reached) if tp.params]
        by_type = {f.type: f for f in forms(enc, "fr", templates=tools)}
        for tp in tools:
            seen.add(tp.type)
            assert tp.dice is not None, f"{reached.where}: {tp.type} does not say if it rolls"
            assert by_type[tp.type].dice is tp.dice, (reached.where, tp.type)
            if tp.dice is False:  # the claim holds: no die is rolled
                refused = attempt(reached, _first_values(tp), seed=1, no_dice=True)
                assert refused is None or refused in tp.refusals, (reached.where, tp, refused)
    assert "withdraw" in seen  # the test reads the tools it is about
