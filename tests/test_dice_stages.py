"""``conteur.dice.propagate``: staged rule code over exact dice, mass merged between stages."""

from __future__ import annotations

import math

from conteur.dice import DiceSource, distribution_of, propagate
from conteur.rulesets.vtm.dice import VtmPool

State = tuple[str, int] | None


def step(state: State, dice: DiceSource) -> State:
    """A toy attack in three stages: roll, resisted roll, then a pool of what is left + 1."""
    if state is None:
        return ("rolled", dice.roll(VtmPool(5, 6)).result.successes)
    if state[0] == "rolled":
        left = state[1] - dice.roll(VtmPool(3, 6)).result.successes
        return ("left", max(left, 0))
    if state[0] == "left":
        return ("done", dice.roll(VtmPool(state[1] + 1, 6, can_botch=False)).result.successes)
    return state


def done(state: State) -> bool:
    return state is not None and state[0] == "done"


def whole(dice: DiceSource) -> State:
    state: State = None
    while not done(state):
        state = step(state, dice)
    return state


def test_propagate_equals_the_enumeration_of_every_branch() -> None:
    stages = propagate(step, None, done)
    expected = distribution_of(whole)
    assert stages[0] == {None: 1.0}
    assert set(stages[-1]) == set(expected)
    for k, p in expected.items():
        assert math.isclose(stages[-1][k], p, abs_tol=1e-15)
    for dist in stages:
        assert math.isclose(sum(dist.values()), 1.0, abs_tol=1e-12)
    # After the first stage: the 3-dice roll's own outcomes (botch and net successes).
    first = {k[1]: p for k, p in stages[1].items()}
    assert math.isclose(first[0], sum(q for r, q in VtmPool(5, 6).outcomes() if r.successes == 0))
    assert len(stages) == 4


def test_propagate_runs_each_stage_once_per_distinct_state_and_outcome() -> None:
    """Merging: the second stage runs from each distinct count, not once per first-roll path."""
    calls = {"staged": 0, "whole": 0}

    def counted(state: State, dice: DiceSource) -> State:
        calls["staged"] += 1
        return step(state, dice)

    def counted_whole(dice: DiceSource) -> State:
        calls["whole"] += 1
        return whole(dice)

    propagate(counted, None, done)
    distribution_of(counted_whole)
    assert calls["staged"] < calls["whole"]


def test_a_final_start_is_its_own_answer() -> None:
    assert propagate(step, ("done", 2), done) == [{("done", 2): 1.0}]
