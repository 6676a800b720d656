"""The strike's stages over distributions (``strike_odds``) against the strike played
one outcome at a time.

``strike_odds`` runs the stage rules ``roll_strike`` uses (``attack_pool``,
``defence_pool``, ``damage_dice_of``, ``levels_lost``...) once per distinct
value and roll outcome. The oracles here are the older, slower ways: every
branch of ``roll_strike`` itself (``explore``: one run of the whole strike per
combination of outcomes, nothing merged), and the strike's stages carried from
state to state, each distinct state's stage run once per outcome of its rolls
(``_carried``, the path the odds took before, kept here as an oracle only).
Every probability must agree within 1e-12, and every end's script must replay
into an outcome of that end.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from conteur.dice import ForcedDice, explore
from conteur.dice.sources import DiceSource
from conteur.engine import Resolution
from conteur.engine.odds import AttackQuery
from conteur.rulesets.vtm.events import ConditionSet
from conteur.rulesets.vtm.odds import odds_for_scenario
from conteur.rulesets.vtm.strike import (
    Defence,
    Riposte,
    Rolled,
    Strike,
    StrikeOdds,
    StrikeOutcome,
    StrikeState,
    finish_strike,
    roll_attack,
    roll_strike,
    strike_odds,
    strike_step,
)

from .fight import Fight
from .test_odds_stages import CASES, assert_agree, extra_hook, oracle, ready

TOL = 1e-12
BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _class(o: StrikeOutcome) -> StrikeOutcome:
    """The outcome without what ``strike_odds`` merges away (the attack and net successes)."""
    return dataclasses.replace(o, attack_successes=0, net=0, events=())


def _close(got: dict[Any, float], want: dict[Any, float]) -> None:
    for k in set(got) | set(want):
        assert math.isclose(got.get(k, 0.0), want.get(k, 0.0), abs_tol=TOL), k


def _says(key: tuple[Any, ...], o: StrikeOutcome) -> bool:
    """Whether the outcome ``o`` is the end ``key`` names."""
    if key == ("botch",):
        return o.botch and not o.hit
    if key[0] == "miss":
        return not o.hit and not o.botch and o.parried_onto_attacker == key[1]
    if key == ("hit",):
        return o.hit and o.levels == 0 and not o.disarmed and not o.armour_destroyed
    if key[0] == "disarmed":
        return o.disarmed and o.damage == key[1] and o.levels == 0
    return o.hit and not o.disarmed and (o.levels, o.armour_destroyed) == key[1:]


def _ends_by_class(s: Strike, odds: StrikeOdds) -> dict[StrikeOutcome, float]:
    """Each end's members replayed down their scripts: the mass of each outcome class."""
    out: dict[StrikeOutcome, float] = {}
    for key, e in odds.ends.items():
        assert math.isclose(e.p, math.fsum(p for p, _ in e.members.values()), abs_tol=TOL)
        first = roll_strike(s, ForcedDice(e.script))
        assert _says(key, first), (key, first)
        for damage, (p, script) in e.members.items():
            o = roll_strike(s, ForcedDice(script))
            assert o.damage == damage
            # Members of one end differ only in their damage successes.
            assert dataclasses.replace(_class(o), damage=0) == dataclasses.replace(
                _class(first), damage=0
            )
            out[_class(o)] = out.get(_class(o), 0.0) + p
    return out


def _marginal(dist: dict[StrikeOutcome, float], read: Any) -> dict[int, float]:
    out: dict[int, float] = {}
    for o, p in dist.items():
        out[read(o)] = out.get(read(o), 0.0) + p
    return out


@st.composite
def strikes(draw: st.DrawFn) -> Strike:
    """Small random strikes (so that every branch of ``roll_strike`` can be run)."""
    defence = None
    if draw(st.booleans()):
        riposte = None
        if draw(st.booleans()):
            riposte = Riposte(
                damage_dice=draw(st.integers(0, 3)),
                damage_type=draw(st.sampled_from(["bashing", "lethal"])),
                soak=draw(st.integers(0, 2)),
            )
        defence = Defence(
            defender="t",
            kind=draw(st.sampled_from(["dodge", "parry", "block"])),
            pool=draw(st.integers(0, 4)),
            difficulty=draw(st.integers(2, 10)),
            riposte=riposte,
        )
    return Strike(
        attacker="a",
        target="t",
        maneuver="punch",
        pool=draw(st.integers(0, 6)),
        difficulty=draw(st.integers(1, 11)),
        damage_dice=draw(st.integers(-1, 5)),
        damage_type=draw(st.sampled_from(["bashing", "lethal", "aggravated"])),
        soak=draw(st.integers(0, 4)),
        armour_rating=draw(st.integers(0, 3)),
        auto_successes=draw(st.integers(0, 1)),
        damage_auto=draw(st.integers(0, 2)),
        extra_damage_dice=draw(st.integers(0, 2)),
        defence=defence,
        halve_bashing=draw(st.booleans()),
        damage_ones_cancel=draw(st.booleans()),
        every_success_adds=draw(st.booleans()),
        no_damage=draw(st.integers(0, 9)) == 0,
        disarm_above=draw(st.none() | st.integers(0, 4)),
        min_one_die=draw(st.integers(0, 3)) > 0,
    )


@settings(max_examples=80, deadline=None)
@given(strikes())
def test_V_DMG_1_strike_odds_equal_every_branch_of_roll_strike(s: Strike) -> None:
    """V-ATK-5, V-DEF-2, V-DEF-5, V-DMG-1, V-DMG-4, V-DMG-6, V-ARM-3, V-SOAK-1, V-CC-6."""
    branches = explore(lambda dice: roll_strike(s, dice))
    dist: dict[StrikeOutcome, float] = {}
    classes: dict[StrikeOutcome, float] = {}
    for _, o, p in branches:
        dist[o] = dist.get(o, 0.0) + p
        classes[_class(o)] = classes.get(_class(o), 0.0) + p
    odds = strike_odds(s)
    assert math.isclose(odds.p_botch, math.fsum(p for o, p in dist.items() if o.botch), abs_tol=TOL)
    _close(odds.net, _marginal(dist, lambda o: o.net))
    _close(odds.damage, _marginal(dist, lambda o: o.damage))
    _close(odds.levels, _marginal(dist, lambda o: o.levels))
    armour = math.fsum(p for o, p in dist.items() if o.armour_destroyed)
    assert math.isclose(odds.p_armour_destroyed, armour, abs_tol=TOL)
    _close(_ends_by_class(s, odds), classes)
    # Each end's mass is that of the outcomes it names (a hit without a damage roll and
    # one whose damage was all soaked read the same: their ends are summed together).
    replayed = {key: roll_strike(s, ForcedDice(e.script)) for key, e in odds.ends.items()}
    for key in odds.ends:
        mass = math.fsum(p for o, p in dist.items() if _says(key, o))
        said = math.fsum(e.p for k, e in odds.ends.items() if _says(key, replayed[k]))
        assert math.isclose(said, mass, abs_tol=TOL), key
    # Without the paths (``paths=False``, for odds that run nothing after the dice): the
    # same distributions, no ends.
    bare = strike_odds(s, paths=False)
    assert not bare.ends
    assert math.isclose(bare.p_botch, odds.p_botch, abs_tol=TOL)
    assert math.isclose(bare.p_armour_destroyed, odds.p_armour_destroyed, abs_tol=TOL)
    for got, want in ((bare.net, odds.net), (bare.damage, odds.damage), (bare.levels, odds.levels)):
        assert set(got) == set(want)
        _close(got, want)


def _carried(
    step: Callable[[Any, DiceSource], Any], done: Callable[[Any], bool]
) -> list[dict[Hashable, float]]:
    """The exact distribution of the state after each stage of ``step`` (from None),
    each distinct state's stage run over every branch of its rolls (``explore``) and
    equal states merged before the next stage."""
    dist: dict[Hashable, float] = {None: 1.0}
    out = [dist]
    while not all(done(state) for state in dist):
        nxt: dict[Hashable, float] = {}
        for state, p in dist.items():
            if done(state):
                nxt[state] = nxt.get(state, 0.0) + p
                continue
            for _, new, q in explore(lambda dice, state=state: step(state, dice), (), p):
                nxt[new] = nxt.get(new, 0.0) + q
        dist = nxt
        out.append(dist)
    return out


def _carried_strike(s: Strike, share: Any) -> tuple[dict[Any, float], dict[StrikeOutcome, float]]:
    """The strike's stages carried state by state (``_carried``: the odds' path before
    ``strike_odds``):
    the states after the defence (their net successes are merged away later), and the ends."""

    def step(state: StrikeState | None, dice: DiceSource) -> StrikeState:
        after = strike_step(s, state, dice)
        if state is None and share is not None and isinstance(after, Rolled):
            return Rolled(share(after.successes), after.events)
        return after

    stages = _carried(step, lambda state: isinstance(state, StrikeOutcome))
    return stages[min(2, len(stages) - 1)], stages[-1]  # type: ignore[return-value]


def test_strike_odds_equal_the_carried_stages_on_random_queries() -> None:
    """60 of the benchmark's random attacks (pools up to 12, defences, armour, vampires),
    drafted by the real drafting code: the same distributions as the carried stages."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import attack_odds as bench
        from attack_queries import distinct_queries
    finally:
        sys.path.remove(str(BENCHMARKS))
    for q in distinct_queries(60, seed=41):
        s = bench.icepool_inputs(q.state(), q.maneuver)[0]
        defended, finals = _carried_strike(s, None)
        odds = strike_odds(s)
        _close(odds.levels, _marginal(finals, lambda o: o.levels))
        _close(odds.net, _marginal(defended, lambda o: o.net))
        _close(odds.damage, _marginal(finals, lambda o: o.damage))
        classes: dict[StrikeOutcome, float] = {}
        for o, p in finals.items():
            classes[_class(o)] = classes.get(_class(o), 0.0) + p
        _close(_ends_by_class(s, odds), classes)


def test_a_volley_share_is_applied_to_the_attack_successes() -> None:
    """A roll made for several targets: the target's share of its successes goes on."""
    s = Strike(
        attacker="a",
        target="t",
        maneuver="spray",
        pool=7,
        difficulty=6,
        damage_dice=4,
        damage_type="lethal",
        soak=2,
        defence=Defence(defender="t", kind="dodge", pool=2, difficulty=6),
    )

    def share(k: int) -> int:
        return k // 2

    odds = strike_odds(s, share)
    defended, finals = _carried_strike(s, share)
    _close(odds.levels, _marginal(finals, lambda o: o.levels))
    _close(odds.net, _marginal(defended, lambda o: o.net))
    # Halving the successes loses hits: fewer than without the share.
    assert sum(p for k, p in odds.net.items() if k > 0) < sum(
        p for k, p in strike_odds(s).net.items() if k > 0
    )
    # Each end's script, replayed with the share, lands in that end's levels.
    for key, e in odds.ends.items():
        dice = ForcedDice(e.script)
        first = roll_attack(s, dice)
        if isinstance(first, Rolled):
            first = Rolled(share(first.successes), first.events)
        o = finish_strike(s, first, dice)
        assert o.levels == (key[1] if key[0] == "hit" and len(key) == 3 else 0)


# ----------------------------------------------------------------- what follows the dice
#
# ``attack_odds`` runs the after-attack hooks once for all the hits that differ only in
# the levels lost (the same armour's fate, the track spent or not after them), the
# target's track out of reach but for whether it is spent; then the damage, the fate and
# V-DMG-7 once per levels value. A hook reading more of the track falls back to one run
# per outcome. Oracle: the whole attack over every branch on a fresh copy
# (``test_odds_stages.oracle``).

NEAR_DEATH_SHOT = """
combatants:
  - {id: a, side: x, position: [0, 0], dexterity: 3, firearms: 3, weapons: [heavy_revolver]}
  - {id: t, side: y, position: [6, 0], stamina: 1, dexterity: 2, dodge: 1,
     health: [lethal, lethal, lethal, lethal, bashing]}
"""


def test_V_DEF_4_a_dodge_into_cover_read_against_the_track_spent_or_not() -> None:
    """The dodger takes cover unless the shot put it out of the fight (it reads
    ``out_of_fight``): the hits are split by whether the track is spent."""
    state = ready(Fight(NEAR_DEATH_SHOT).state, "t", "dodge")
    odds = odds_for_scenario(state, AttackQuery(attacker="a", target="t", maneuver="shoot"))
    assert_agree(odds, oracle(state, "shoot"))
    assert 0 < odds.p_incapacitated < 1


def test_a_hook_reading_the_target_track_is_priced_outcome_by_outcome() -> None:
    """A hook that reads the wound penalty (beyond whether the track is spent) still gets
    exact odds: the hits are priced one levels value at a time."""

    def hurt_falls(ctx: Resolution, d: Any, outcome: Any) -> None:
        if outcome.hit and d.target.health.penalty <= -2:
            ctx.emit(
                ConditionSet(
                    target=d.target.id, condition="knocked_down", value=True, rules=("V-DMG-7",)
                )
            )

    scenario, maneuver, _ = CASES["armour_breaks_and_the_target_is_near_death"]
    state = extra_hook(Fight(scenario).state, hurt_falls)
    odds = odds_for_scenario(state, AttackQuery(attacker="a", target="t", maneuver=maneuver))
    assert_agree(odds, oracle(state, maneuver))
    assert 0 < odds.chance("p_knocked_down") < odds.p_hit


def test_a_hook_reading_the_levels_is_priced_outcome_by_outcome() -> None:
    def two_levels_fell(ctx: Resolution, d: Any, outcome: Any) -> None:
        if outcome.hit and outcome.levels >= 2:
            ctx.emit(
                ConditionSet(
                    target=d.target.id, condition="knocked_down", value=True, rules=("V-DMG-7",)
                )
            )

    scenario, maneuver, _ = CASES["punch_dodged_vampire_halves"]
    state = extra_hook(Fight(scenario).state, two_levels_fell)
    ready(state, "t", "dodge")
    odds = odds_for_scenario(state, AttackQuery(attacker="a", target="t", maneuver=maneuver))
    assert_agree(odds, oracle(state, maneuver))
    assert odds.chance("p_knocked_down") > 0


def test_V_CC_1_a_sweep_knocks_down_only_a_target_still_standing() -> None:
    """The knock-down check is rolled for a target still in the fight (it reads
    ``out_of_fight``): on a nearly dead target the hits that spend the track are priced
    apart from those that do not."""
    scenario = """
combatants:
  - {id: a, side: x, position: [0, 0], dexterity: 3, brawl: 2, strength: 3}
  - {id: t, side: y, position: [1, 0], stamina: 1, dexterity: 1, athletics: 1,
     health: [lethal, lethal, lethal, lethal, lethal]}
"""
    state = Fight(scenario).state
    odds = odds_for_scenario(state, AttackQuery(attacker="a", target="t", maneuver="sweep"))
    assert_agree(odds, oracle(state, "sweep"))
    assert 0 < odds.p_incapacitated < 1
    assert 0 < odds.chance("p_knocked_down") < odds.p_hit
