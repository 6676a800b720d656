"""A referee that asks after every command whether the fight is decided (``decided``)
answers what ``standing`` says: fewer than two sides with a fighter able and not fled."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from conteur.dice import SeededDice
from conteur.engine import Encounter
from conteur.sim.referee import Bout, EscapeReferee, get_referee
from conteur.sim.tactics import make_tactic

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CASES = [
    ("vtm", EXAMPLES / "simulation" / "4v4_1899.yaml", ("chasseurs", "vampires"), pair)
    for pair in (("flee", "nearest"), ("nearest", "flee"), ("dodge", "aim"))
] + [
    ("western", EXAMPLES / "western" / "saloon.yaml", ("earp", "clantons"), pair)
    for pair in (("flee", "nearest"), ("weakest", "flee"), ("nearest", "nearest"))
]


def checked(referee: EscapeReferee) -> Any:
    """``referee``'s class, asserting at each ``decided`` that it agrees with ``standing``."""

    class Checked(type(referee)):  # type: ignore[misc]
        asked = decisive = fleeing = 0

        def decided(self, state: Any, bout: Bout) -> bool:
            answer = super().decided(state, bout)
            assert answer == (len(self.standing(state, bout)) < 2)
            self.asked += 1
            self.decisive += answer
            self.fleeing += any(bout.tactics[f.side].fleeing(state, f) for f in self.able(state))
            return answer

    return Checked()


@pytest.mark.parametrize(("ruleset", "path", "sides", "tactics"), CASES)
def test_decided_is_fewer_than_two_sides_standing(
    ruleset: str, path: Path, sides: tuple[str, str], tactics: tuple[str, str]
) -> None:
    base = get_referee(ruleset)
    assert isinstance(base, EscapeReferee)
    referee = checked(base)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for seed in range(6):
        enc = Encounter.start(data, path.parent, keep_history=False)
        pairs = zip(sides, tactics, strict=True)
        chosen = {side: make_tactic(ruleset, name, {}) for side, name in pairs}
        record = referee.fight(enc, SeededDice(seed), chosen, 20, 30.0)
        assert record.error is None, record.error
    assert referee.asked > 30 and referee.decisive > 0
    assert referee.fleeing > 0 or "flee" not in tactics  # the answer read from ``standing``
