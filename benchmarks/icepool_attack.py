"""The vtm attack chain written in icepool, as fast as we could: the benchmark's reference.

Input: the ``Strike`` conteur drafted (pool, difficulty, defence, damage, soak,
armour — the numbers, not conteur's dice code) and the target's health track.
Every roll is an icepool die: one d10 mapped to (success, one) vectors, summed
over the pool (``n @ die``) and read as net successes or a botch, pool
distributions cached by their parameters as conteur caches its own. Where the
rules allow, a stage is one ``icepool.map`` over two independent dice (attack
and defence; damage and soak — a soak rolled against no damage changes
nothing), which was the fastest form we found; the damage pool, which depends
on the net successes, is a mixture (``Die.map`` returning dice). What the
levels lost do to the target (fate, dazed) is read per levels value with the
health track — a handful of values, the same for both sides.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import icepool

from conteur.rulesets.vtm.health import HealthTrack, fate
from conteur.rulesets.vtm.strike import Strike

BOTCH = -1
"""The attack die's outcome for a botch (successes are 0 or more)."""
KILLED = ("dead", "torpor", "final_death")


@cache
def _face(difficulty: int) -> icepool.Die:
    d = min(10, max(2, difficulty))
    return icepool.d10.map(lambda x: icepool.Vector((int(x >= d), int(x == 1))))


@cache
def pool(n: int, difficulty: int, ones_cancel: bool, can_botch: bool, auto: int) -> icepool.Die:
    """A vtm roll: net successes (+ auto), or BOTCH (no success and a 1)."""
    if n <= 0:
        return icepool.Die([auto])
    summed = n @ _face(difficulty)

    def read(v: Any) -> int:
        hits, ones = int(v[0]), int(v[1])
        if can_botch and auto == 0 and hits == 0 and ones > 0:
            return BOTCH
        return (max(0, hits - ones) if ones_cancel else hits) + auto

    return summed.map(read)


def _probs(die: icepool.Die) -> dict[int, float]:
    total = die.denominator()
    return {int(k): q / total for k, q in die.items()}


def consequences(
    lost: dict[int, float], damage_type: str, track: HealthTrack, kind: str, dazed_above: int
) -> tuple[float, float, float]:
    """P(incapacitated), P(killed), P(dazed) from the levels lost, read per levels value
    with the health track's own code (shared by the reference convolution)."""
    incap = killed = dazed = 0.0
    for k, p in lost.items():
        work = copy.deepcopy(track)
        if k:
            work.take(k, damage_type)  # type: ignore[arg-type]
        end = fate(work, kind)
        incap += p if end != "alive" else 0.0
        killed += p if end in KILLED else 0.0
        dazed += p if k > dazed_above and end == "alive" else 0.0
    return incap, killed, dazed


def attack_odds(s: Strike, track: HealthTrack, kind: str, dazed_above: int) -> dict[str, Any]:
    """Exact odds of strike ``s`` on a target with this track, in icepool."""
    attack = pool(s.pool, s.difficulty, True, True, s.auto_successes)
    d = s.defence
    defence = None if d is None else pool(d.pool, d.difficulty, True, True, 0)

    if defence is None:
        net = attack
    else:
        # One pass over (attack, defence) pairs; a defence botch counts as no success.
        net = icepool.map(lambda k, x: k if k <= 0 else max(k - max(x, 0), 0), attack, defence)

    def damage_of(k: int) -> Any:
        if k <= 0 or s.no_damage:
            return 0
        extra = k if s.every_success_adds else k - 1
        n = max(1, s.damage_dice + extra + s.extra_damage_dice)
        return pool(n, 6, s.damage_ones_cancel, False, s.damage_auto)

    dealt = net.map(damage_of)  # a mixture: the damage pool depends on the net successes
    halve = s.halve_bashing and s.damage_type == "bashing"
    disarm = s.disarm_above

    def levels_of(x: int, y: int = 0) -> int:
        if disarm is not None and x > disarm:
            return 0
        left = max(x - y, 0)
        return left // 2 if halve else left

    if s.soak > 0:
        soak = pool(s.soak, 6, s.damage_ones_cancel, False, 0)
        levels = icepool.map(levels_of, dealt, soak)
    else:
        levels = dealt.map(levels_of)

    successes = _probs(net)
    p_botch = successes.pop(BOTCH, 0.0)
    successes[0] = successes.get(0, 0.0) + p_botch
    damage = _probs(dealt)
    lost = _probs(levels)
    p_armour = (
        float(dealt.probability(">=", 2 * s.armour_rating))
        if s.armour_rating > 0 and not s.no_damage
        else 0.0
    )
    incap, killed, dazed = consequences(lost, s.damage_type, track, kind, dazed_above)
    return {
        "p_hit": sum(p for k, p in successes.items() if k > 0),
        "p_botch": p_botch,
        "successes": successes,
        "damage": damage,
        "levels": lost,
        "p_armour_destroyed": p_armour,
        "p_incapacitated": incap,
        "p_killed": killed,
        "p_dazed": dazed,
    }
