"""The vtm attack chain as a direct convolution of dictionaries: the benchmark's floor.

Input: the ``Strike`` conteur drafted and the target's health track, as for
``icepool_attack``. Each roll's distribution is read from the pool's exact
odds (``VtmPool.outcomes``, cached as conteur's own); the chain is written out
by hand, loop inside loop — attack against defence, the damage pool of each
net value, soak — with no stage functions, no replay of the strike and no
events: the least a Python program can do to get the same numbers. What the
levels lost do to the target (fate, dazed) is read per levels value with the
same health track code as the icepool chain (``icepool_attack.consequences``).
Not the rules code (it states the rules a second time): a yardstick, never
used by conteur.
"""

from __future__ import annotations

from typing import Any

from conteur.rulesets.vtm.dice import VtmPool
from conteur.rulesets.vtm.health import HealthTrack
from conteur.rulesets.vtm.strike import Strike
from icepool_attack import consequences


def attack_odds(s: Strike, track: HealthTrack, kind: str, dazed_above: int) -> dict[str, Any]:
    """Exact odds of strike ``s`` on a target with this track, by direct convolution."""
    p_botch = 0.0
    net: dict[int, float] = {}
    d = s.defence
    defence = None if d is None else VtmPool(d.pool, d.difficulty).outcomes()
    for r, p in VtmPool(s.pool, s.difficulty, auto=s.auto_successes).outcomes():
        if r.botch:
            p_botch += p
            continue
        k = r.successes
        if defence is None or k <= 0:
            net[k] = net.get(k, 0.0) + p
            continue
        for x, q in defence:
            n = max(k - x.successes, 0)
            net[n] = net.get(n, 0.0) + p * q
    successes = dict(net)
    successes[0] = successes.get(0, 0.0) + p_botch

    dealt: dict[int, float] = {0: successes.get(0, 0.0)}
    for k, p in net.items():
        if k <= 0:
            continue
        if s.no_damage:
            dealt[0] += p
            continue
        n = s.damage_dice + (k if s.every_success_adds else k - 1) + s.extra_damage_dice
        if n <= 0 and not s.min_one_die:
            dealt[0] += p
            continue
        pool = VtmPool(
            n, 6, s.damage_ones_cancel, can_botch=False, min_one=True, auto=s.damage_auto
        ).outcomes()
        for r, q in pool:
            dealt[r.successes] = dealt.get(r.successes, 0.0) + p * q

    soak = VtmPool(s.soak, 6, s.damage_ones_cancel, can_botch=False).outcomes() if s.soak else ()
    halve = s.halve_bashing and s.damage_type == "bashing"
    lost: dict[int, float] = {}
    p_armour = 0.0
    for x, p in dealt.items():
        if s.disarm_above is not None and x > s.disarm_above:
            lost[0] = lost.get(0, 0.0) + p
            continue
        if s.armour_rating > 0 and x >= 2 * s.armour_rating:
            p_armour += p
        if x <= 0:
            lost[0] = lost.get(0, 0.0) + p
            continue
        if not soak:
            n = x // 2 if halve else x
            lost[n] = lost.get(n, 0.0) + p
            continue
        for r, q in soak:
            n = max(x - r.successes, 0)
            if halve:
                n //= 2
            lost[n] = lost.get(n, 0.0) + p * q

    incap, killed, dazed = consequences(lost, s.damage_type, track, kind, dazed_above)
    return {
        "p_hit": sum(p for k, p in successes.items() if k > 0),
        "p_botch": p_botch,
        "successes": successes,
        "damage": dealt,
        "levels": lost,
        "p_armour_destroyed": p_armour,
        "p_incapacitated": incap,
        "p_killed": killed,
        "p_dazed": dazed,
    }
