"""A shot or a blow, from the skill used to the PV lost (W-SEQ-1, W-SKL-*, W-LOC-*, W-CRIT-*).

``draft_shot`` reads the state and fixes every number of one shot into a frozen
``Shot``; ``roll_shot`` is the dice chain, a pure function of the shot and the
dice: hit roll → hit location (or the zone aimed at) → critical shift → damage
× multiplier, each stage a function of the values rolled (``rolls_location``,
``rolled_zone``, ``hit_zone``, ``zone_multiplier``, ``damage_of``, ``pv_lost``) that
the odds (``odds.shot_odds``) call over the exact outcomes of each roll.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from conteur.dice import DiceSource, Expr, RollRecord
from conteur.dice.asks import RollAsk, label, percent_detail
from conteur.engine.geometry import distance
from conteur.i18n import ConteurError, Msg, catalog

from .dice import Percentile, expr_ask
from .state import Fighter, WesternState
from .tables import Tables, Weapon


@dataclass(frozen=True, kw_only=True)
class ShotAim:
    """Who shoots (or strikes) at whom, with what, and at what chance: the fields a ``Shot``
    and the ``ShotRolled`` event it ends in share."""

    attacker: str
    target: str
    weapon: str
    hand: str
    skill: str
    percent: int
    """The percentage adjusted by every modifier."""


@dataclass(frozen=True, kw_only=True)
class Shot(ShotAim):
    """Every number one shot or blow needs."""

    modifiers: tuple[tuple[str, int], ...]
    zone: str | None
    """The zone aimed at, or None (then 1D100 on the table)."""
    human: bool
    damage: str
    rules: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class ShotOutcome:
    """What the dice made of a shot."""

    hit: RollRecord[Any]
    location: RollRecord[Any] | None
    rolled_zone: str | None
    zone: str | None
    damage: RollRecord[Any] | None
    multiplier: float
    pv_lost: int

    @classmethod
    def missed(cls, hit: RollRecord[Any]) -> ShotOutcome:
        """A shot that missed: no location, no damage."""
        return cls(
            hit=hit,
            location=None,
            rolled_zone=None,
            zone=None,
            damage=None,
            multiplier=1.0,
            pv_lost=0,
        )

    @property
    def success(self) -> bool:
        return bool(self.hit.result.success)

    @property
    def critical(self) -> bool:
        return bool(self.hit.result.success and self.hit.result.critical)


def instinctive_now(state: WesternState, f: Fighter) -> tuple[str, ...] | None:
    """The rules that make ``f`` fire instinctively this round, whatever the distance
    (None: it aims).

    From the moment it draws (its gun not ready, in round 1) or is surprised by a
    sudden adversary, it fires instinctively at ALL its adversaries for the round
    (W-SKL-2); a surprise brings instinctive fire back after round 1 (W-SKL-3).
    """
    if f.instinctive_round == state.turn:
        return ("W-SKL-2",)
    if f.surprised == "sudden" and f.surprised_round == state.turn:
        return ("W-SKL-2", "W-SKL-3")
    if not f.ready and state.turn <= 1:
        return ("W-SKL-2",)
    return None


def pistol_skill(state: WesternState, f: Fighter, metres: float) -> tuple[str, tuple[str, ...]]:
    """Aimed or instinctive pistol for a revolver shot (W-SKL-1..4)."""
    tables = state.tables
    far = metres > tables.instinctive_max_range and not state.options.get("instinctive_beyond")
    if far:
        return "aimed_pistol", ("W-SKL-4",)
    why = instinctive_now(state, f)
    if why is not None:
        return "instinctive_pistol", why
    if not f.ready:
        return "aimed_pistol", ("W-SKL-3",)
    return "aimed_pistol", ("W-SKL-1",)


def weapon_in(state: WesternState, f: Fighter, hand: str) -> Weapon:
    tables = state.tables
    if hand == "off":
        if f.off_hand is None:
            raise ConteurError("western.no_off_hand", fighter=f.name)
        return tables.weapon(f.off_hand)
    return tables.weapon(f.weapons[0]) if f.weapons else tables.weapon("fists")


def draft_shot(
    state: WesternState,
    attacker: str,
    target: str,
    hand: str = "main",
    zone: str | None = None,
    modifier: int = 0,
) -> Shot:
    """The shot ``attacker`` would fire at ``target`` now (ConteurError when it cannot)."""
    tables = state.tables
    f = state.fighters[attacker]
    t = state.fighters[target]
    if attacker == target:
        raise ConteurError("western.self_target", fighter=f.name)
    if t.fate == "dead":
        raise ConteurError("western.target_dead", target=t.name)
    w = weapon_in(state, f, hand)
    metres = distance(f.position, t.position)
    rules: list[str] = ["W-SEQ-1"]
    if w.kind in ("melee", "fists") or (w.kind == "whip" and metres <= tables.close_reach):
        if metres > max(tables.close_reach, w.range):
            raise ConteurError(
                "western.out_of_reach",
                target=t.name,
                metres=round(metres, 1),
                reach=w.range,
                rule="W-CC-1",
            )
        rules.append("W-CC-1")
    else:
        if metres > w.range:
            raise ConteurError(
                "western.out_of_range",
                weapon=w.label("fr"),
                target=t.name,
                metres=round(metres, 1),
                range=w.range,
                rule="W-RNG-1",
            )
        rules.append("W-RNG-1" if metres > tables.close_reach else "W-CC-1")
        if hand in f.ammo and f.ammo[hand] <= 0:
            raise ConteurError("western.empty", fighter=f.name, weapon=w.id)
    if w.kind == "revolver":
        skill, why = pistol_skill(state, f, metres)
        rules.extend(why)
    else:
        skill = w.skill
    if f.off_hand is not None:
        rules.append("W-SPD-3")
    percent = f.skills.get(skill, 0)
    mods: list[tuple[str, int]] = []
    if zone is not None:
        if not t.human:
            raise ConteurError("western.no_zones", target=t.name, rule="W-LOC-1")
        loc = tables.location(zone)
        mods.append((loc.id, loc.aim))
        rules.append("W-CRIT-3")
    if modifier:
        mods.append(("gm_modifier", modifier))
    total = percent + sum(m for _, m in mods)
    rules.extend(("W-CRIT-1", "W-LOC-1"))
    if t.human and zone is None:
        rules.extend(("W-LOC-2", "W-CRIT-2"))
    return Shot(
        attacker=attacker,
        target=target,
        weapon=w.id,
        hand=hand,
        skill=skill,
        percent=total,
        modifiers=tuple(mods),
        zone=zone,
        human=t.human,
        damage=w.damage,
        rules=tuple(dict.fromkeys(rules)),
    )


def shifted_zone(tables: Tables, zone: str, margin: int) -> str:
    """The zone a critical hit lands on: up the ladder as far as the margin goes (W-CRIT-2).

    Margins count from the zone rolled; the ladder only goes one way.
    """
    reached = zone
    for step in tables.shifts.get(zone, ()):
        if margin >= step.margin:
            reached = step.to
    return reached


# The stages of a hit (W-LOC-*, W-CRIT-2/3, W-DMG-*): the rules of one shot as functions of
# the values the dice gave, which ``roll_shot`` calls with the table's dice and the odds
# (``odds.shot_odds``) over each roll's exact outcomes, once per distinct value.

LOCATION = Expr(1, 100)
"""The hit location roll (W-LOC-2)."""


def rolls_location(shot: Shot) -> bool:
    """A hit on a human rolls 1D100 for its location unless a zone was aimed at (W-CRIT-3)."""
    return shot.human and shot.zone is None


def rolled_zone(tables: Tables, face: int) -> str:
    """The zone the location roll lands on (W-LOC-2)."""
    return tables.zone_of(face).id


def hit_zone(shot: Shot, tables: Tables, hit: Any, rolled: str | None) -> str | None:
    """The zone the hit lands on: the zone aimed at (no shift, W-CRIT-3), the zone rolled
    moved by a critical's margin (W-CRIT-2), or None for a target without zones."""
    if not shot.human:
        return None
    if shot.zone is not None:
        return shot.zone
    assert rolled is not None
    return shifted_zone(tables, rolled, hit.margin) if hit.critical else rolled


def zone_multiplier(tables: Tables, zone: str | None) -> float:
    """The damage multiplier of the zone hit (1 without zones)."""
    return 1.0 if zone is None else tables.location(zone).multiplier


def damage_of(shot: Shot) -> Expr:
    """The weapon's damage roll."""
    return Expr.parse(shot.damage)


def pv_lost(total: int, multiplier: float) -> int:
    """Damage times the zone's multiplier, rounded down, at least 1 PV."""
    return max(1, math.floor(total * multiplier + 1e-9))


def shot_parts(shot: Shot) -> tuple[tuple[Msg, int], ...]:
    """The shot's chance part by part: the skill's percentage, then each modifier."""
    base = shot.percent - sum(amount for _, amount in shot.modifiers)
    mods = tuple((_word(what), amount) for what, amount in shot.modifiers if amount)
    return ((Msg(f"western.skill.{shot.skill}"), base), *mods)


def _word(what: str) -> Msg:
    """A shot modifier's name: its western word, or the id as written."""
    key = f"word.western.{what}"
    return Msg(key) if key in catalog() else label(what.replace("_", " "))


def roll_shot(
    shot: Shot, tables: Tables, dice: DiceSource, names: Mapping[str, str] | None = None
) -> ShotOutcome:
    """The dice of one shot, in the text's order (W-SEQ-1); ``names`` says whose they are
    to the table (each roll's ``RollAsk``)."""
    named = names or {}
    shooter = named.get(shot.attacker, shot.attacker)
    target = named.get(shot.target, shot.target)
    hit = dice.roll(
        Percentile(shot.percent),
        RollAsk(
            who=shot.attacker,
            what=Msg("ask.what.shot", name=shooter),
            detail=percent_detail(shot.percent, shot_parts(shot)),
            dice=1,
        ),
    )
    if not hit.result.success:
        return ShotOutcome.missed(hit)
    location: RollRecord[Any] | None = None
    if rolls_location(shot):
        location = dice.roll(
            LOCATION, expr_ask(LOCATION, shot.attacker, Msg("ask.what.location", name=target))
        )
    rolled = None if location is None else rolled_zone(tables, location.result.total)
    zone = hit_zone(shot, tables, hit.result, rolled)
    multiplier = zone_multiplier(tables, zone)
    damage_roll = damage_of(shot)
    damage = dice.roll(
        damage_roll, expr_ask(damage_roll, shot.attacker, Msg("ask.what.damage", name=target))
    )
    return ShotOutcome(
        hit=hit,
        location=location,
        rolled_zone=zone if location is None else rolled,  # aimed at: the zone itself
        zone=zone,
        damage=damage,
        multiplier=multiplier,
        pv_lost=pv_lost(damage.result.total, multiplier),
    )
