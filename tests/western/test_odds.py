"""Odds of a shot: an aimed zone, the hands, and a Monte Carlo of the engine (the stages against
every branch of the shot: ``test_odds_stages.py``)."""

from __future__ import annotations

import copy
import random

import pytest

from conteur.dice import SeededDice
from conteur.engine import Command, Encounter

from .fight import gunman


def start(**bill: object) -> Encounter:
    return Encounter.start(
        {"ruleset": "western", "combatants": [gunman("bill", **bill), gunman("joe", x=10, pv=12)]}
    )


def test_odds_aimed_zone_has_one_location() -> None:
    """W-CRIT-3: aimed at the head (−40 %): every hit lands on the head."""
    enc = start()
    odds = enc.ruleset.attack_odds(enc.state, "bill", "joe", None, {"zone": "head"}).to_dict()
    assert odds["pool"] == 16 and set(odds["locations"]) == {"head"}
    assert odds["p_hit"] == pytest.approx(0.16)


def test_attack_kinds() -> None:
    enc = start(off_hand="colt_saa")
    assert enc.ruleset.attack_kinds(enc.state, "bill") == ["main", "off"]  # type: ignore[attr-defined]


def test_odds_match_a_monte_carlo_of_the_engine() -> None:
    """The exact odds against 3000 shots played through ``Encounter.execute``."""
    enc = start()
    odds = enc.ruleset.attack_odds(enc.state, "bill", "joe").to_dict()
    enc.execute(Command("round"), SeededDice(1))
    rng = random.Random(7)
    n = 3000
    hits = outs = 0
    lost = 0
    for _ in range(n):
        trial = Encounter(enc.ruleset, enc.scenario, copy.deepcopy(enc.state), keep_history=False)
        pv = trial.state.fighters["joe"].pv
        trial.execute(
            Command("attack", "bill", {"target": "joe"}), SeededDice(rng.randrange(2**32))
        )
        after = trial.state.fighters["joe"]
        hits += after.pv < pv
        outs += after.fate in ("out", "dead")
        lost += pv - after.pv
    for observed, p in ((hits / n, odds["p_hit"]), (outs / n, odds["p_incapacitated"])):
        sigma = (p * (1 - p) / n) ** 0.5
        assert abs(observed - p) < 4 * sigma + 1e-9
    assert abs(lost / n - odds["expected_levels"]) < 0.5
