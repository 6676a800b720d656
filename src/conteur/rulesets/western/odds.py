"""Exact odds of one shot or blow, from the shot's own stages (``shooting``).

``shot_odds`` runs the stages ``roll_shot`` plays with the table's dice (the d100
against the skill, the location, the critical shift, the damage dice and the zone's
multiplier, the PV lost) over the exact outcomes of each roll, once per distinct value
each stage reads: the hit faces by what the location reads of them (a miss, a plain
success, a critical's margin), the location faces by the zone they land on, the damage
dice by their total. What follows (``events.wound``: out of the fight, dead) runs once
per distinct PV lost, on a copy of the target alone.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Any

from conteur.dice import Dist
from conteur.engine.odds import AttackOdds, AttackQuery
from conteur.i18n import ConteurError, Msg

from .dice import Percentile
from .events import labelled, wound
from .shooting import (
    LOCATION,
    Shot,
    damage_of,
    draft_shot,
    hit_zone,
    pv_lost,
    rolled_zone,
    rolls_location,
    zone_multiplier,
)
from .state import WesternState
from .tables import Tables


@dataclass(frozen=True, kw_only=True)
class ShotChances:
    """The dice of one shot over their exact outcomes (``shot_odds``)."""

    p_hit: float
    p_critical: float
    locations: dict[str, float]
    """Each zone hit (``body`` for a target without zones) and its probability."""
    pv: dict[int, float]
    """The PV lost (0: a miss) and its probability."""


def _add(masses: dict[Any, float], key: Any, p: float) -> None:
    masses[key] = masses.get(key, 0.0) + p


def shot_odds(shot: Shot, tables: Tables) -> ShotChances:
    """The shot's stages over the exact outcomes of its rolls."""
    # The hit roll, by what the later stages read of it (a critical's margin, W-CRIT-2).
    hits: dict[tuple[bool, int], tuple[Any, float]] = {}
    p_miss = 0.0
    for r, p in Percentile(shot.percent).outcomes():
        if not r.success:
            p_miss += p
            continue
        key = (True, r.margin) if r.critical else (False, 0)
        first, mass = hits.get(key, (r, 0.0))
        hits[key] = (first, mass + p)
    # The location roll, by the zone it lands on.
    rolled: dict[str | None, float] = {None: 1.0}
    if rolls_location(shot):
        rolled = {}
        for face, p in LOCATION.outcomes():
            _add(rolled, rolled_zone(tables, face.total), p)
    # The zone hit and its multiplier, once per hit value and zone rolled.
    zones: dict[str | None, float] = {}
    p_critical = 0.0
    for (critical, _), (r, p) in hits.items():
        p_critical += p if critical else 0.0
        for zone_rolled, q in rolled.items():
            _add(zones, hit_zone(shot, tables, r, zone_rolled), p * q)
    multipliers: dict[float, float] = {}
    for zone, p in zones.items():
        _add(multipliers, zone_multiplier(tables, zone), p)
    # The damage dice by their total, then the PV lost per multiplier and total.
    totals: dict[int, float] = {}
    for d, p in damage_of(shot).outcomes():
        _add(totals, d.total, p)
    pv: dict[int, float] = {0: p_miss} if p_miss > 0.0 else {}
    for multiplier, p in multipliers.items():
        for total, q in totals.items():
            _add(pv, pv_lost(total, multiplier), p * q)
    return ShotChances(
        p_hit=math.fsum(p for _, p in hits.values()),
        p_critical=p_critical,
        locations={zone or "body": p for zone, p in zones.items()},
        pv=pv,
    )


def attack_odds(state: WesternState, query: AttackQuery) -> AttackOdds:
    """The exact odds of the query's attacker shooting (or striking) its target now.

    The maneuver is the hand (``main``, ``off``); ``params`` may give ``zone`` (aimed at)
    and ``modifier``.
    """
    a = state.fighter(query.attacker)
    t = state.fighter(query.target)
    hand = query.maneuver or "main"
    if hand not in ("main", "off"):
        raise ConteurError("western.bad_hand", hand=hand)
    extra = query.params
    shot = draft_shot(state, a.id, t.id, hand, extra.get("zone"), int(extra.get("modifier") or 0))
    chances = shot_odds(shot, state.tables)
    incapacitated = killed = 0.0
    for lost, p in chances.pv.items():
        if lost == 0:  # a miss (a hit loses at least 1 PV)
            continue
        after = copy.copy(t)
        wound(after, lost, state.dead_at)
        incapacitated += p if after.fate in ("out", "dead") and t.fate not in ("out", "dead") else 0
        killed += p if after.fate == "dead" and t.fate != "dead" else 0.0
    levels = Dist.from_mapping(chances.pv)
    return AttackOdds(
        attacker=a.id,
        target=t.id,
        maneuver=hand,
        pool=shot.percent,
        difficulty="—",
        roll=Msg("western.odds.roll", chance=shot.percent, skill=f"western.skill.{shot.skill}"),
        modifiers=labelled(shot.modifiers),
        p_hit=chances.p_hit,
        damage=levels,
        levels=levels,
        p_incapacitated=incapacitated,
        p_killed=killed,
        chances={"p_critical": chances.p_critical},
        shares={"locations": chances.locations},
        words={"skill": shot.skill},
    )
