"""Exact odds of one shot or blow, from the real dice chain (``shooting.roll_shot``).

``explore`` runs ``roll_shot`` over every outcome of its rolls. To keep it
quick, the hit roll's faces that ``roll_shot`` cannot tell apart (every miss;
every success that is not a critical, whose margin the rules never read) are
explored once with their summed probability; critical faces, whose margin
moves the location (W-CRIT-2), are explored one by one. ``brute=True``
explores every face (the tests check both agree).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from conteur.dice import explore
from conteur.i18n import ConteurError

from .dice import Percentile
from .events import labelled, lose_pv
from .shooting import Shot, ShotOutcome, draft_shot, roll_shot
from .state import WesternState


@dataclass(kw_only=True)
class ShotOdds:
    """The odds of one shot: hit, location, PV lost, out of the fight, killed."""

    attacker: str
    target: str
    maneuver: str
    skill: str
    pool: int
    modifiers: tuple[tuple[str, int], ...]
    p_hit: float = 0.0
    p_critical: float = 0.0
    locations: dict[str, float] = field(default_factory=dict)
    levels: dict[int, float] = field(default_factory=dict)
    expected_levels: float = 0.0
    p_incapacitated: float = 0.0
    p_killed: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, shaped like the vtm answer (``levels`` are PV lost)."""
        return {
            "attacker": self.attacker,
            "target": self.target,
            "maneuver": self.maneuver,
            "skill": self.skill,
            "pool": self.pool,
            "difficulty": "—",
            "roll": {
                "key": "western.odds.roll",
                "params": {"chance": self.pool, "skill": f"western.skill.{self.skill}"},
            },
            "modifiers": [[what, amount] for what, amount in labelled(self.modifiers)],
            "p_hit": self.p_hit,
            "p_critical": self.p_critical,
            "locations": dict(sorted(self.locations.items())),
            "levels": {str(k): v for k, v in sorted(self.levels.items())},
            "damage": {str(k): v for k, v in sorted(self.levels.items())},
            "expected_levels": self.expected_levels,
            "p_incapacitated": self.p_incapacitated,
            "p_killed": self.p_killed,
        }


def hit_groups(percent: int) -> list[tuple[int, float]]:
    """(outcome index of the hit roll, probability) for the faces ``roll_shot`` tells apart."""
    outcomes = Percentile(percent).outcomes()
    groups: dict[str, tuple[int, float]] = {}
    out: list[tuple[int, float]] = []
    for i, (r, p) in enumerate(outcomes):
        if r.success and r.critical:
            out.append((i, p))
            continue
        key = "hit" if r.success else "miss"
        first, total = groups.get(key, (i, 0.0))
        groups[key] = (first, total + p)
    return out + list(groups.values())


def outcomes_of(
    shot: Shot, state: WesternState, brute: bool = False
) -> list[tuple[ShotOutcome, float]]:
    """Every outcome of ``roll_shot`` with its probability."""
    tables = state.tables

    def run(dice: Any) -> ShotOutcome:
        return roll_shot(shot, tables, dice)

    if brute:
        return [(o, p) for _, o, p in explore(run)]
    found: list[tuple[ShotOutcome, float]] = []
    for index, weight in hit_groups(shot.percent):
        found.extend((o, p) for _, o, p in explore(run, (index,), weight))
    return found


def attack_odds(
    state: WesternState,
    attacker: str,
    target: str,
    maneuver: str | None = None,
    params: Mapping[str, Any] | None = None,
    *,
    brute: bool = False,
) -> ShotOdds:
    """The exact odds of ``attacker`` shooting (or striking) ``target`` now.

    ``maneuver`` is the hand (``main``, ``off``); ``params`` may give ``zone``
    (aimed at) and ``modifier``.
    """
    a = state.fighter(attacker)
    t = state.fighter(target)
    hand = maneuver or "main"
    if hand not in ("main", "off"):
        raise ConteurError("western.bad_hand", hand=hand)
    extra = dict(params or {})
    shot = draft_shot(state, a.id, t.id, hand, extra.get("zone"), int(extra.get("modifier") or 0))
    odds = ShotOdds(
        attacker=a.id,
        target=t.id,
        maneuver=hand,
        skill=shot.skill,
        pool=shot.percent,
        modifiers=shot.modifiers,
    )
    fates: dict[int, str] = {}
    for o, p in outcomes_of(shot, state, brute):
        odds.levels[o.pv_lost] = odds.levels.get(o.pv_lost, 0.0) + p
        if not o.success:
            continue
        odds.p_hit += p
        if o.critical:
            odds.p_critical += p
        zone = o.zone or "body"
        odds.locations[zone] = odds.locations.get(zone, 0.0) + p
        if o.pv_lost not in fates:
            work = copy.deepcopy(state)
            lose_pv(work, t.id, o.pv_lost)
            fates[o.pv_lost] = work.fighters[t.id].fate
        fate = fates[o.pv_lost]
        if fate in ("out", "dead") and t.fate not in ("out", "dead"):
            odds.p_incapacitated += p
        if fate == "dead" and t.fate != "dead":
            odds.p_killed += p
    odds.expected_levels = sum(k * p for k, p in odds.levels.items())
    return odds
