"""Exact odds of rule code written in stages: probability mass carried state by state.

``explore`` runs a rule function once per branch of all its rolls, so a chain
of rolls costs the *product* of their outcome counts. When the code is written
as stages — ``step(state, dice)`` makes the rolls of one stage and returns the
next state, a hashable value holding only what later stages read — the mass
can instead be carried from stage to stage: each distinct state runs its stage
once per outcome of that stage's rolls, and equal states are merged before
the next stage. The cost is then the *sum* over stages of (distinct states ×
outcomes), and the rule code is still the code that plays the game (with
seeded or typed dice, ``step`` is simply called until the state is final).

Pool distributions come from ``request.outcomes()`` (cached per request), so
nothing here caches an answer: each call recomputes its own states.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

from .sources import DiceSource, explore

S = TypeVar("S", bound=Hashable)


def propagate(
    step: Callable[[S, DiceSource], S], start: S, done: Callable[[S], bool]
) -> list[dict[S, float]]:
    """The exact distribution of the state after each stage, from ``start`` to the end.

    ``step(state, dice)`` plays one stage from ``state``; ``done(state)`` says a
    state is final (final states are carried on, not stepped again). Entry 0 is
    ``{start: 1.0}``, entry ``k`` the distribution after ``k`` stages; the last
    one holds final states only. States are merged by equality: two states
    that compare equal must lead to the same later stages (the rule code
    excludes from equality whatever no later stage reads).
    """
    dist: dict[S, float] = {start: 1.0}
    out = [dist]
    while not all(done(state) for state in dist):
        nxt: dict[S, float] = {}
        for state, p in dist.items():
            if done(state):
                nxt[state] = nxt.get(state, 0.0) + p
                continue
            for _, new, q in explore(lambda dice, state=state: step(state, dice), (), p):  # type: ignore[misc]
                nxt[new] = nxt.get(new, 0.0) + q
        dist = nxt
        out.append(dist)
    return out
