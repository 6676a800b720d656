"""The staged exact odds of an attack against the whole attack run over every branch.

``attack_odds`` carries the strike's stages as merged mass and runs what
follows the dice once per group of equal outcomes (``odds.py``). Here the
oracle is the plain way: the whole ``attack`` on a copy of the state, over
every outcome of every roll, nothing merged. Every probability must agree to
1e-12. Also: the same answers as the attack chain written in icepool
(``benchmarks/icepool_attack.py``), and a hook reading more of the outcome
than the groups assume is still priced exactly (or refused).
"""

from __future__ import annotations

import copy
import dataclasses
import math
import sys
from pathlib import Path
from typing import Any

import pytest

from conteur.dice import DiceSource, distribution_of
from conteur.engine import Resolution
from conteur.engine.odds import AttackQuery
from conteur.rulesets.vtm import hooks, rulebook
from conteur.rulesets.vtm import odds as odds_module
from conteur.rulesets.vtm.attack import after_hooks, attack
from conteur.rulesets.vtm.events import ConditionSet
from conteur.rulesets.vtm.odds import AttackOdds, odds_for_scenario
from conteur.rulesets.vtm.state import Action, VtmState

from .fight import Fight

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
TOL = 1e-12


def ready(state: VtmState, fid: str, defence: str) -> VtmState:
    """``fid`` holds ``defence`` ready (as after a delayed action turned into it)."""
    state.fighters[fid].progress.ready_defence = defence
    state.fighters[fid].progress.ready_via = "delayed"
    return state


def oracle(state: VtmState, maneuver: str) -> dict[str, Any]:
    """Every branch of the whole attack of ``a`` on ``t``, on a fresh copy each time."""
    before = state.fighters["t"]

    def run(dice: DiceSource) -> tuple[Any, ...]:
        work = copy.deepcopy(state)
        o = attack(Resolution(work, dice), work.fighters["a"], Action(maneuver, "t"))
        t = work.fighters["t"]
        return (
            o.net,
            o.damage,
            o.levels,
            o.hit,
            o.botch,
            t.fate,
            bool(t.conditions.get("knocked_down")),
            bool(t.conditions.get("dazed")),
            t.armour_destroyed and not before.armour_destroyed,
        )

    dist = distribution_of(run)

    def total(test: Any) -> float:
        return math.fsum(p for k, p in dist.items() if test(k))

    def marginal(i: int) -> dict[int, float]:
        out: dict[int, float] = {}
        for k, p in dist.items():
            out[k[i]] = out.get(k[i], 0.0) + p
        return out

    return {
        "successes": marginal(0),
        "damage": marginal(1),
        "levels": marginal(2),
        "p_hit": total(lambda k: k[3]),
        "p_botch": total(lambda k: k[4]),
        "p_incapacitated": total(lambda k: k[5] != "alive"),
        "p_killed": total(lambda k: k[5] in ("dead", "torpor", "final_death")),
        "p_knocked_down": total(lambda k: k[6]),
        "p_dazed": total(lambda k: k[7]),
        "p_armour_destroyed": total(lambda k: k[8]),
    }


def assert_agree(odds: AttackOdds, expected: dict[str, Any]) -> None:
    for key, value in expected.items():
        got = odds.chances[key] if key in odds.chances else getattr(odds, key)
        if isinstance(value, dict):
            got = got.to_dict()
            for k in set(value) | set(got):
                assert math.isclose(got.get(k, 0.0), value.get(k, 0.0), abs_tol=TOL), (key, k)
        else:
            assert math.isclose(got, value, abs_tol=TOL), key


CASES = {
    "punch_dodged_vampire_halves": (
        """
combatants:
  - {id: a, side: x, position: [0, 0], dexterity: 2, brawl: 1, strength: 2}
  - {id: t, side: y, position: [1, 0], kind: vampire, stamina: 1, dexterity: 2, dodge: 1}
""",
        "punch",
        "dodge",
    ),
    "punch_parried_by_a_knife_ripostes": (
        """
combatants:
  - {id: a, side: x, position: [0, 0], dexterity: 2, brawl: 1, strength: 1, stamina: 1}
  - {id: t, side: y, position: [1, 0], dexterity: 2, melee: 1, stamina: 1, weapons: [knife]}
""",
        "punch",
        "parry",
    ),
    "armour_breaks_and_the_target_is_near_death": (
        """
era: modern
combatants:
  - {id: a, side: x, position: [0, 0], dexterity: 2, melee: 1, strength: 2, weapons: [club]}
  - {id: t, side: y, position: [1, 0], stamina: 1, armour: reinforced_clothing,
     health: [lethal, lethal, lethal, lethal, bashing]}
""",
        "weapon_strike",
        None,
    ),
    "sweep_knockdown_check_rolls_after_the_dice": (
        """
combatants:
  - {id: a, side: x, position: [0, 0], dexterity: 2, brawl: 1, strength: 1}
  - {id: t, side: y, position: [1, 0], stamina: 1, dexterity: 1, athletics: 1}
""",
        "sweep",
        None,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_V_DMG_1_staged_odds_equal_the_whole_attack_over_every_branch(name: str) -> None:
    """V-ATK-5, V-DEF-2, V-DEF-5, V-DMG-1, V-DMG-6, V-DMG-7, V-ARM-3, V-SOAK-1, V-CC-1."""
    scenario, maneuver, defence = CASES[name]
    state = Fight(scenario).state
    if defence:
        ready(state, "t", defence)
    expected = oracle(state, maneuver)
    odds = odds_for_scenario(state, AttackQuery(attacker="a", target="t", maneuver=maneuver))
    assert_agree(odds, expected)
    assert math.isclose(odds.levels.total(), 1.0, abs_tol=TOL)


def test_the_odds_leave_the_state_untouched() -> None:
    scenario, maneuver, defence = CASES["punch_parried_by_a_knife_ripostes"]
    state = ready(Fight(scenario).state, "t", str(defence))
    before = copy.deepcopy(state)
    odds_for_scenario(state, AttackQuery(attacker="a", target="t", maneuver=maneuver))
    assert state == before


def extra_hook(state: Any, fn: Any) -> Any:
    """The state with one more after-attack hook in its rulebook (its own, for this test)."""
    book = rulebook.rules_of(state)
    listed = {**book.listed, "after_attack": (*book.of(hooks.after_attack), fn)}
    state.meta["rules"] = dataclasses.replace(book, listed=listed)
    return state


def test_a_hook_reading_the_damage_successes_is_priced_outcome_by_outcome() -> None:
    """A hook that reads ``outcome.damage`` (left out of the groups) still gets exact odds."""

    def stunned_by_three(ctx: Resolution, d: Any, outcome: Any) -> None:
        if outcome.hit and outcome.damage >= 3:
            ctx.emit(
                ConditionSet(target=d.target.id, condition="dazed", value=True, rules=("V-DMG-7",))
            )

    scenario, maneuver, _ = CASES["armour_breaks_and_the_target_is_near_death"]
    state = extra_hook(Fight(scenario).state, stunned_by_three)
    odds = odds_for_scenario(state, AttackQuery(attacker="a", target="t", maneuver=maneuver))
    assert_agree(odds, oracle(state, maneuver))
    assert odds.chance("p_dazed") > 0


def test_a_hook_reading_the_merged_net_successes_is_refused() -> None:
    """The stages merge the net successes away after the damage roll: reading them is an error."""

    def reads_net(ctx: Resolution, d: Any, outcome: Any) -> None:
        if outcome.net > 2:
            ctx.emit(
                ConditionSet(target=d.target.id, condition="dazed", value=True, rules=("V-DMG-7",))
            )

    scenario, maneuver, _ = CASES["armour_breaks_and_the_target_is_near_death"]
    state = extra_hook(Fight(scenario).state, reads_net)
    with pytest.raises(AssertionError, match="net"):
        odds_for_scenario(state, AttackQuery(attacker="a", target="t", maneuver=maneuver))


def test_the_same_answers_as_the_chain_written_in_icepool() -> None:
    """A handful of the benchmark's queries: conteur and icepool agree within 1e-12."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import attack_odds as bench
        from attack_queries import distinct_queries
    finally:
        sys.path.remove(str(BENCHMARKS))
    import icepool_attack

    for q in distinct_queries(12, seed=29):
        state = q.state()
        ours = bench.conteur_answer(state, q.maneuver)
        theirs = icepool_attack.attack_odds(*bench.icepool_inputs(state, q.maneuver))
        assert bench.difference(ours, theirs) <= TOL, q.key


# The after-dice hooks declared ``hooks.outside_odds`` (every hook of these attacks): the
# odds read each end of the dice from the strike's stages and run none of them. Oracle:
# the whole attack over every branch (hooks, events, V-DMG-7 included), and the same odds
# with the declarations taken away (what follows the dice run per group on copies).

DECLARED = {
    "grapple_a_target_near_death": (
        """
combatants:
  - {id: a, side: x, position: [0, 0], dexterity: 3, brawl: 2, strength: 3}
  - {id: t, side: y, position: [1, 0], stamina: 1, health: [lethal, lethal, lethal, lethal]}
""",
        "grapple",
        None,
    ),
    "hold_a_dazed_and_fallen_target": (
        """
combatants:
  - {id: a, side: x, position: [0, 0], dexterity: 2, brawl: 2, strength: 2}
  - {id: t, side: y, position: [1, 0], stamina: 2, dexterity: 2, brawl: 1,
     conditions: {knocked_down: true, dazed: true}}
""",
        "hold",
        "block",
    ),
    "disarm_a_parrying_knife": (
        """
combatants:
  - {id: a, side: x, position: [0, 0], dexterity: 3, melee: 2, strength: 2, weapons: [club]}
  - {id: t, side: y, position: [1, 0], stamina: 1, strength: 1, dexterity: 2, melee: 1,
     weapons: [knife]}
""",
        "disarm",
        "parry",
    ),
    "shot_at_a_dodger_whose_armour_breaks": (
        """
era: modern
combatants:
  - {id: a, side: x, position: [0, 0], dexterity: 3, firearms: 3, weapons: [heavy_revolver]}
  - {id: t, side: y, position: [6, 0], kind: vampire, stamina: 1, fortitude: 1, dexterity: 2,
     dodge: 1, armour: reinforced_clothing, health: [bashing, lethal, aggravated]}
""",
        "shoot",
        "dodge",
    ),
}


def without_declarations(monkeypatch: pytest.MonkeyPatch) -> None:
    """The odds as for an attack with a hook not declared ``outside_odds``: run, on copies."""
    monkeypatch.setattr(hooks, "OUTSIDE_ODDS", set())


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_V_DMG_7_ends_read_without_the_hooks_equal_the_whole_attack(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """V-CC-6, V-CC-7, V-CC-8, V-DEF-4, V-ARM-3, V-DMG-6, V-DMG-7."""
    scenario, maneuver, defence = DECLARED[name]
    state = Fight(scenario).state
    if defence:
        ready(state, "t", defence)
    query = AttackQuery(attacker="a", target="t", maneuver=maneuver)
    book = rulebook.rules_of(state)
    maneuver_table = odds_module.equipment.maneuver(state, maneuver)
    assert all(h in hooks.OUTSIDE_ODDS for h in after_hooks(book, maneuver_table)), name
    expected = oracle(state, maneuver)
    assert 0 < expected["p_hit"] < 1
    assert_agree(odds_for_scenario(state, query), expected)
    without_declarations(monkeypatch)
    assert_agree(odds_for_scenario(state, query), expected)


def test_ends_read_equal_the_hooks_run_on_the_benchmark_queries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """40 of the benchmark's queries (shots, strikes, punches, kicks; defences; tracks
    marked): every probability the same whether the hooks are run or left out."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        from attack_queries import distinct_queries
    finally:
        sys.path.remove(str(BENCHMARKS))
    queries = [(q.state(), q.maneuver) for q in distinct_queries(40, seed=31)]
    read = [
        odds_for_scenario(s, AttackQuery(attacker="a", target="t", maneuver=m)).to_dict()
        for s, m in queries
    ]
    without_declarations(monkeypatch)
    for (s, m), fast in zip(queries, read, strict=True):
        run = odds_for_scenario(s, AttackQuery(attacker="a", target="t", maneuver=m)).to_dict()
        assert set(run) == set(fast)
        for key, value in run.items():
            if isinstance(value, float):
                assert math.isclose(fast[key], value, abs_tol=TOL), key
            elif isinstance(value, dict):
                assert set(fast[key]) == set(value), key
                assert all(math.isclose(fast[key][k], p, abs_tol=TOL) for k, p in value.items())
            else:
                assert fast[key] == value, key
