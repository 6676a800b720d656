"""Western odds over the shot's stages equal the shot's dice run branch by branch.

The oracle is the computation the odds made before (issue 17): ``roll_shot`` explored
over every outcome of its rolls (``explore``; the hit faces it cannot tell apart
grouped, or every face), the target's fate from ``lose_pv`` on a deep copy of the whole
state per PV lost. It states nothing of the rules: it runs the shot as a fight plays it.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conteur.dice import DiceSource, explore
from conteur.engine import Encounter
from conteur.engine.odds import AttackQuery
from conteur.i18n import ConteurError
from conteur.rulesets.western.dice import Percentile
from conteur.rulesets.western.events import lose_pv
from conteur.rulesets.western.odds import attack_odds
from conteur.rulesets.western.shooting import ShotOutcome, draft_shot, roll_shot
from conteur.rulesets.western.state import WesternState

from .fight import gunman

TOL = 1e-12
WEAPONS = ("colt_saa", "derringer", "winchester_1873", "coach_gun", "bowie_knife", "whip")
ZONES = (None, None, None, "head", "chest", "right_hand", "left_shin", "neck")
"""Aimed at a zone (W-CRIT-3) or, more often, not (the location roll, W-LOC-2)."""


def _hit_groups(percent: int) -> list[tuple[int, float]]:
    """The hit faces ``roll_shot`` tells apart: each critical, all plain hits, all misses."""
    groups: dict[str, tuple[int, float]] = {}
    out: list[tuple[int, float]] = []
    for i, (r, p) in enumerate(Percentile(percent).outcomes()):
        if r.success and r.critical:
            out.append((i, p))
            continue
        key = "hit" if r.success else "miss"
        first, total = groups.get(key, (i, 0.0))
        groups[key] = (first, total + p)
    return out + list(groups.values())


def oracle(
    state: WesternState, attacker: str, target: str, params: dict[str, Any], *, every_face: bool
) -> dict[str, Any]:
    """The odds as the shot's dice give them, branch by branch (see the module's text)."""
    t = state.fighters[target]
    shot = draft_shot(
        state, attacker, target, "main", params.get("zone"), int(params.get("modifier") or 0)
    )

    def run(dice: DiceSource) -> ShotOutcome:
        return roll_shot(shot, state.tables, dice)

    if every_face:
        branches = [(o, p) for _, o, p in explore(run)]
    else:
        branches = [
            (o, p) for i, w in _hit_groups(shot.percent) for _, o, p in explore(run, (i,), w)
        ]
    out: dict[str, Any] = {"p_hit": 0.0, "p_critical": 0.0, "p_incapacitated": 0.0}
    out.update(p_killed=0.0, levels={}, locations={})
    fates: dict[int, str] = {}
    for o, p in branches:
        out["levels"][o.pv_lost] = out["levels"].get(o.pv_lost, 0.0) + p
        if not o.success:
            continue
        out["p_hit"] += p
        out["p_critical"] += p if o.critical else 0.0
        zone = o.zone or "body"
        out["locations"][zone] = out["locations"].get(zone, 0.0) + p
        if o.pv_lost not in fates:
            work = copy.deepcopy(state)
            lose_pv(work, target, o.pv_lost)
            fates[o.pv_lost] = work.fighters[target].fate
        fate = fates[o.pv_lost]
        out["p_incapacitated"] += p if fate in ("out", "dead") and t.fate == "alive" else 0.0
        out["p_killed"] += p if fate == "dead" and t.fate != "dead" else 0.0
    out["expected_levels"] = math.fsum(k * p for k, p in out["levels"].items())
    return out


def assert_equal(state: WesternState, params: dict[str, Any], *, every_face: bool) -> None:
    try:
        expected = oracle(state, "bill", "joe", params, every_face=every_face)
    except ConteurError as error:
        with pytest.raises(ConteurError) as raised:
            attack_odds(state, AttackQuery(attacker="bill", target="joe", params=params))
        assert raised.value.key == error.key
        return
    got = attack_odds(state, AttackQuery(attacker="bill", target="joe", params=params))
    data = got.to_dict()
    for key in ("p_hit", "p_critical", "p_incapacitated", "p_killed", "expected_levels"):
        assert math.isclose(data[key], expected[key], abs_tol=TOL), key
    for key, lost in (("levels", got.levels), ("damage", got.damage)):
        assert set(data[key]) == {str(k) for k in expected["levels"]}, key
        for k, p in expected["levels"].items():
            assert math.isclose(lost.prob(k), p, abs_tol=TOL), (key, k)
    assert set(data["locations"]) == set(expected["locations"])
    for zone, p in expected["locations"].items():
        assert math.isclose(data["locations"][zone], p, abs_tol=TOL), zone


def start(weapon: str, skill: int, pv: int, human: bool, x: float) -> WesternState:
    skills = {
        "tir visé au pistolet": skill,
        "tir instinctif au pistolet": skill,
        "tir au fusil": skill,
        "bagarre": skill,
    }
    joe = gunman("joe", x=x, pv=pv, human=human)
    data = {
        "ruleset": "western",
        "combatants": [gunman("bill", skills=skills, weapons=[weapon]), joe],
    }
    state = Encounter.start(data).state
    assert isinstance(state, WesternState)
    return state


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    weapon=st.sampled_from(WEAPONS),
    skill=st.integers(5, 100),
    pv=st.integers(1, 16),
    human=st.sampled_from((True, True, True, False)),
    x=st.sampled_from((1.0, 3.0, 10.0, 30.0)),
    zone=st.sampled_from(ZONES),
    modifier=st.integers(-40, 40),
)
def test_odds_over_the_stages_equal_the_shot_explored(
    weapon: str, skill: int, pv: int, human: bool, x: float, zone: str | None, modifier: int
) -> None:
    """W-CRIT-1/2/3, W-LOC-2: random shots (weapon, skill, target, aim, modifier) priced over
    the stages equal the old computation over ``roll_shot``'s branches, within 1e-12."""
    state = start(weapon, skill, pv, human, x)
    params: dict[str, Any] = {"modifier": modifier}
    if zone is not None:
        params["zone"] = zone
    assert_equal(state, params, every_face=False)


@pytest.mark.parametrize(
    ("weapon", "skill", "pv", "human", "zone"),
    [
        ("whip", 95, 3, True, None),  # criticals with margins of 86 to 94
        ("whip", 35, 2, True, None),  # criticals on both sides of a 30 margin (W-CRIT-2)
        ("whip", 65, 2, True, None),  # and of a 60 margin
        ("colt_saa", 56, 5, True, None),
        ("derringer", 70, 2, False, None),  # no zones: the multiplier is 1
        ("colt_saa", 80, 4, True, "head"),  # aimed at: no location roll, no shift
    ],
)
def test_odds_equal_every_branch_of_the_shot(
    weapon: str, skill: int, pv: int, human: bool, zone: str | None
) -> None:
    """The whole shot enumerated face by face (hit, location, damage) gives the same odds."""
    state = start(weapon, skill, pv, human, 1.0)
    assert_equal(state, {} if zone is None else {"zone": zone}, every_face=True)
