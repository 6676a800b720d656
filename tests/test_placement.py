"""A combatant's id, side and position, read alike by the three rulesets
(``conteur.engine.inputs.placement``): an entry with no side fights alone, on a side
named after its id; a side or a position given is kept."""

from __future__ import annotations

from typing import Any

import pytest

from conteur.engine.inputs import placement
from conteur.engine.registry import get_ruleset

ENTRIES: dict[str, list[dict[str, Any]]] = {
    "vtm": [
        {"id": "a", "position": [3, 4], "sheet": {"nom": "Ann", "type": "mortel"}},
        {"id": "b", "side": "y", "sheet": {"nom": "Bob", "type": "vampire"}},
    ],
    "hunter": [
        {"id": "a", "position": [3, 4], "nom": "Ann"},
        {"id": "b", "camp": "y", "nom": "Bob", "type": "monstre"},
    ],
    "western": [
        {"id": "a", "position": [3, 4], "nom": "Ann"},
        {"id": "b", "camp": "y", "nom": "Bob"},
    ],
}


def test_no_side_is_a_side_of_ones_own() -> None:
    assert placement("a", None, (1.0, 2.0)) == {"id": "a", "side": "a", "position": (1.0, 2.0)}
    assert placement("a", "x", (0.0, 0.0))["side"] == "x"


@pytest.mark.parametrize("ruleset", sorted(ENTRIES))
def test_each_ruleset_places_its_fighters_so(ruleset: str) -> None:
    rules = get_ruleset(ruleset)
    state = rules.new_state({"ruleset": ruleset, "combatants": ENTRIES[ruleset]})
    sides = {row.id: row.side for row in rules.roster(state).rows}
    assert sides == {"a": "a", "b": "y"}
    fighters = state.fighters
    assert (fighters["a"].position, fighters["b"].position) == ((3.0, 4.0), (0.0, 0.0))
