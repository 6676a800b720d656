"""Attacks: pools (H-ATK-1), Defense and armour (H-ATK-2), damage (H-ATK-3), chance die.

``plan_attack`` builds one attack roll against one target from the state and
the command's parameters (every modifier labelled and cited); ``strike``
rolls it and marks its damage. The same code serves the fight, the odds
(``odds.py``) and the simulation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from conteur.dice.asks import RollAsk
from conteur.dice.rolls import RollRecord
from conteur.engine import Resolution, geometry
from conteur.i18n import ConteurError, Msg

from .asks import pool_ask, word
from .cover import COVER_PENALTY, NO_COVER, cover_of, full
from .dice import HunterPool, HunterResult
from .events import (
    HunterAimLost,
    HunterAllOut,
    HunterAllyHit,
    HunterAmmoSpent,
    HunterAttackRolled,
    HunterCoverChanged,
    HunterShieldTakesShot,
    HunterShotHitsCover,
)
from .health_events import mark_damage
from .rolls import roll_rules
from .state import Fighter, HunterState
from .tables import Weapon

RANGED = frozenset({"shoot", "burst", "throw"})
BANDS = ("short", "medium", "long")
RANGE_PENALTY = {"short": 0, "medium": 2, "long": 4}
"""H-RNG-1: dice lost at each range band."""
BURSTS = {"short": (3, 1), "medium": (10, 2), "long": (20, 3)}
"""H-AUTO-1..3: rounds fired and bonus dice of each burst."""
LEFT_COVER = "substantial"
"""H-COV-3: the cover of a fighter who leaves full cover to shoot."""


@dataclass(frozen=True, kw_only=True)
class AttackPlan:
    """One attack roll, ready to roll: the pool and everything that made it."""

    attacker: str
    target: str
    maneuver: str
    base: tuple[tuple[str, int], ...]
    modifiers: tuple[tuple[str, int], ...]
    defense: int
    armour: int
    again: int
    damage_type: str
    rules: tuple[str, ...]
    ally: str | None = None
    opposed: str = "defense"
    weapon: str | None = None
    """The weapon (or thrown object) the attack uses, None bare-handed."""

    @property
    def pool(self) -> int:
        """Attribute + skill + modifiers − Defense − armour (0 or less: the chance die)."""
        return (
            sum(v for _, v in self.base)
            + sum(v for _, v in self.modifiers)
            - self.defense
            - self.armour
        )


def weapon_in_hand(state: HunterState, f: Fighter) -> Weapon | None:
    return state.weapon_of(f)


def maneuver_for(state: HunterState, f: Fighter) -> str:
    """What a plain ``attack`` is with the weapon in hand (H-ATK-1)."""
    w = weapon_in_hand(state, f)
    if w is None:
        return "unarmed"
    return {"firearm": "shoot", "melee": "melee", "thrown": "throw"}[w.category]


def defense_of(
    state: HunterState, t: Fighter, maneuver: str, attacker: Fighter, athletics_dodge: bool
) -> tuple[int, tuple[str, ...]]:
    """The Defense ``t`` opposes to this attack now, and the rules that set it."""
    rules: list[str] = ["H-ATK-2"]
    if not t.able or t.immobilised:
        return 0, (*rules, "H-GRP-3")
    if t.all_out:
        return 0, (*rules, "H-AOA-1")
    if t.aim > 0:
        return 0, (*rules, "H-AIM-1")
    if t.no_defense:
        return 0, (*rules, "H-RLD-1")
    if maneuver in ("shoot", "burst") and state.options["no_defense_vs_firearms"]:
        return 0, tuple(rules)
    armour = state.tables.armour[t.armour] if t.armour else None
    base = max(0, t.base_defense + (armour.defense if armour else 0))
    w = weapon_in_hand(state, t)
    if maneuver == "unarmed" and w is not None and w.defense_vs_unarmed:
        base += w.defense_vs_unarmed
    if t.dodging:
        value = 2 * base
        rules.append("H-DODGE-1")
    elif maneuver == "throw" and athletics_dodge:
        value = t.trait("dexterity") + t.trait("athletics")
        rules.append("H-DODGE-1")
    else:
        value = base
    if t.attacks_received:
        rules.append("H-DODGE-1" if t.dodging else "H-ATK-2")
    return max(0, value - t.attacks_received), tuple(dict.fromkeys(rules))


def armour_of(state: HunterState, t: Fighter, maneuver: str, w: Weapon | None) -> int:
    """General armour, ballistic against firearms (H-ATK-2); a rapier ignores a point."""
    if not t.armour:
        return 0
    a = state.tables.armour[t.armour]
    value = a.ballistic if maneuver in ("shoot", "burst") else a.general
    return max(0, value - (w.pierce if w else 0))


def range_band(
    state: HunterState,
    params: Mapping[str, Any],
    ranges: tuple[int, int, int],
    a: Fighter | None = None,
    t: Fighter | None = None,
) -> str:
    """The band (H-RNG-1) from ``distance`` (yards, against the weapon's ranges), or
    ``range`` (the band named), or else from where ``a`` and ``t`` stand on the map."""
    distance = params.get("distance")
    if distance is not None:
        return band_at(int(distance), ranges)
    band = params.get("range")
    if not band and a is not None and t is not None:
        return band_at(yards_between(a, t), ranges)
    band = str(band or "short")
    if band not in BANDS:
        raise ConteurError("hunter.attack.bad_range", value=band, rule="H-RNG-1")
    return band


def yards_between(a: Fighter, t: Fighter) -> float:
    """The distance between two fighters on the map, in yards (to the hundredth)."""
    return round(geometry.distance(a.position, t.position), 2)


def band_at(d: float, ranges: tuple[int, int, int]) -> str:
    """The band ``d`` yards fall in with these ranges (ConteurError beyond the long one)."""
    for band, limit in zip(BANDS, ranges, strict=True):
        if d <= limit:
            return band
    shown: float | int = int(d) if float(d).is_integer() else d
    raise ConteurError("hunter.attack.out_of_range", distance=shown, long=ranges[2], rule="H-RNG-1")


def throw_ranges(f: Fighter, w: Weapon, far: bool) -> tuple[int, int, int]:
    """H-THR-1..4: Str + Dex + Athletics − size yards short, ×2 medium, ×4 long."""
    short = f.trait("strength") + f.trait("dexterity") + f.trait("athletics") - w.size
    if w.aerodynamic:
        short *= 2
    if far:
        short *= 2
    short = max(0, short)
    return (short, 2 * short, 4 * short)


def _fighter(state: HunterState, fid: Any) -> Fighter:
    if not isinstance(fid, str) or fid not in state.fighters:
        raise ConteurError("hunter.unknown_fighter", name=str(fid), known=", ".join(state.fighters))
    return state.fighters[fid]


def plan_attack(
    state: HunterState,
    attacker: str,
    target: str,
    maneuver: str,
    params: Mapping[str, Any],
    *,
    targets: int = 1,
) -> AttackPlan:
    """Build one attack roll (ConteurError when the rules forbid it)."""
    a = _fighter(state, attacker)
    t = _fighter(state, target)
    if t.id == a.id:
        raise ConteurError("hunter.attack.self")
    if not t.able and t.fate == "dead":
        raise ConteurError("hunter.attack.target_down", target=t.name)
    rules: list[str] = ["H-ATK-1", "H-ATK-2", "H-ATK-3"]
    mods: list[tuple[str, int]] = []
    w: Weapon | None
    if maneuver == "throw":
        thrown = params.get("object") or a.weapon
        if not thrown:
            raise ConteurError("hunter.attack.no_object", rule="H-THR-1")
        w = state.tables.weapon(str(thrown))
        if w.category == "firearm":
            raise ConteurError("hunter.attack.not_throwable", weapon=w.id, rule="H-THR-1")
        base = (("dexterity", a.trait("dexterity")), ("athletics", a.trait("athletics")))
    else:
        w = weapon_in_hand(state, a) if maneuver in ("shoot", "burst", "melee") else None
        if maneuver == "shoot" and (w is None or w.category != "firearm"):
            raise ConteurError("hunter.attack.no_firearm", rule="H-ATK-1")
        if maneuver == "burst" and (w is None or not w.autofire):
            raise ConteurError("hunter.attack.no_autofire", rule="H-AUTO-1")
        if maneuver == "melee" and (w is None or w.category != "melee"):
            raise ConteurError("hunter.attack.no_melee_weapon", rule="H-ATK-1")
        skill = {"unarmed": "brawl", "melee": "weaponry"}.get(maneuver, "firearms")
        attr = "strength" if maneuver in ("unarmed", "melee") else "dexterity"
        base = ((attr, a.trait(attr)), (skill, a.trait(skill)))
    if w is not None and w.damage:
        mods.append(("weapon", w.damage))
    need = w.strength if w is not None else 0
    if w is not None and a.trait("strength") < need:
        mods.append(("strength_needed", a.trait("strength") - need))
    if params.get("all_out"):
        mods.append(("all_out", int(state.options["all_out_bonus"])))
        rules.append("H-AOA-1")
    if params.get("off_hand"):
        mods.append(("off_hand", -2))
        rules.append("H-OFF-1")
    if a.aim and a.aim_target == t.id and maneuver != "burst":
        mods.append(("aim", a.aim))
        rules.append("H-AIM-1")
    if maneuver in RANGED:
        mods += _ranged_modifiers(state, a, t, maneuver, w, params, targets, rules)
    if a.health.penalty:
        mods.append(("wounds", a.health.penalty))
        rules.append("H-HLT-1")
    defense, drules = defense_of(state, t, maneuver, a, bool(params.get("athletics_dodge")))
    rules += drules
    armour = armour_of(state, t, maneuver, w)
    damage_type = w.damage_type if w is not None else a.unarmed_type
    if w is not None and set(w.tags) & set(t.vulnerable):
        damage_type = "aggravated"
    ally = params.get("ally")
    if ally is not None:
        _fighter(state, ally)
    return AttackPlan(
        attacker=a.id,
        target=t.id,
        maneuver=maneuver,
        base=base,
        modifiers=tuple(mods),
        defense=defense,
        armour=armour,
        again=w.again if w is not None else 10,
        damage_type=damage_type,
        rules=tuple(dict.fromkeys(rules)),
        ally=str(ally) if ally is not None else None,
        weapon=w.id if w is not None else None,
    )


def _ranged_modifiers(
    state: HunterState,
    a: Fighter,
    t: Fighter,
    maneuver: str,
    w: Weapon | None,
    params: Mapping[str, Any],
    targets: int,
    rules: list[str],
) -> list[tuple[str, int]]:
    mods: list[tuple[str, int]] = []
    assert w is not None
    if maneuver == "throw":
        if w.size >= a.trait("strength"):
            raise ConteurError(
                "hunter.attack.too_heavy",
                size=w.size,
                strength=a.trait("strength"),
                rule="H-THR-3",
            )
        far = bool(params.get("far"))
        ranges = throw_ranges(a, w, far)
        rules += ["H-THR-1"] + (["H-THR-2"] if w.aerodynamic else [])
        if far:
            mods.append(("throw_far", -int(state.options["throw_far_penalty"])))
            rules.append("H-THR-4")
    else:
        ranges = w.ranges
    band = range_band(state, params, ranges, a, t)
    if RANGE_PENALTY[band]:
        mods.append((f"range_{band}", -RANGE_PENALTY[band]))
    rules.append("H-RNG-1")
    if maneuver == "burst":
        burst = str(params.get("burst") or "short")
        mods.append((f"burst_{burst}", BURSTS[burst][1]))
        rules.append({"short": "H-AUTO-1", "medium": "H-AUTO-2", "long": "H-AUTO-3"}[burst])
        rules.append("H-AUTO-4")
        if targets > 1:
            per = targets if state.options["autofire_penalty"] == "text" else targets - 1
            mods.append(("targets", -per))
    theirs = cover_of(state, t)
    if COVER_PENALTY[theirs] > 0:
        mods.append(("concealment", -COVER_PENALTY[theirs]))
        rules.append("H-COV-1")
    own = cover_of(state, a)
    if full(own) and params.get("leave_cover"):
        own = LEFT_COVER
    if COVER_PENALTY[own] > 1:
        mods.append(("own_cover", -(COVER_PENALTY[own] - 1)))
    if own != NO_COVER:
        rules.append("H-COV-2")
    avoid = int(params.get("avoid") or 0)
    if avoid:
        if maneuver == "burst":
            raise ConteurError("hunter.attack.avoid_single_shot", rule="H-MEL-1")
        per = 4 if params.get("avoid_grappling") else 2
        mods.append(("avoid", -per * avoid))
        rules.append("H-MEL-1")
    return mods


def plan_pool(plan: AttackPlan) -> HunterPool:
    """The dice of the plan's roll: its pool, or the chance die at 0 or less (H-CHANCE-1)."""
    return HunterPool(max(0, plan.pool), again=plan.again)


def roll_plan(plan: AttackPlan, ctx: Resolution) -> HunterResult:
    """Roll the plan (the chance die when the pool is 0 or less) and report it. The roll's
    ask is built only if the dice read it (the table's; not a simulation's seeded dice)."""
    record = ctx.dice.roll(plan_pool(plan), lambda: plan_ask(ctx, plan))
    ctx.emit(attack_rolled(plan, record.result, (record,)))
    return record.result


def attack_rolled(
    plan: AttackPlan, result: HunterResult, rolls: tuple[RollRecord[Any], ...] = ()
) -> HunterAttackRolled:
    """The event of the plan's roll with this result."""
    return HunterAttackRolled(
        actor=plan.attacker,
        target=plan.target,
        maneuver=plan.maneuver,
        pool=plan.pool,
        modifiers=(*plan.base, *plan.modifiers),
        defense=plan.defense,
        armour=plan.armour,
        successes=result.successes,
        dramatic=result.dramatic_failure,
        exceptional=result.exceptional,
        chance=result.chance,
        opposed=plan.opposed,
        rolls=rolls,
        rules=tuple(dict.fromkeys((*plan.rules, *roll_rules(result)))),
    )


def plan_ask(ctx: Resolution, plan: AttackPlan) -> RollAsk:
    """The attack roll as the table is asked for it: attribute + skill + modifiers − the
    target's Defense − its armour (H-ATK-1), its again-rule, or the chance die."""
    state: HunterState = ctx.state
    attacker = state.fighters[plan.attacker]
    target = state.fighters[plan.target]
    items: list[tuple[Msg, int]] = [(word(w), v) for w, v in (*plan.base, *plan.modifiers)]
    items.append((Msg("ask.part.defense", name=target.name), -plan.defense))
    items.append((Msg("ask.part.armour", name=target.name), -plan.armour))
    return pool_ask(
        attacker.id,
        Msg("ask.what.attack", name=attacker.name),
        items,
        plan.pool,
        plan.again,
    )


def ally_plan(state: HunterState, plan: AttackPlan) -> AttackPlan:
    """H-MEL-1 (reading): the shot a dramatic failure sends into the ally is a normal attack
    on it with the pool unpenalised (no dice off for the people to avoid), against the
    ally's own Defense and armour."""
    assert plan.ally is not None
    a = state.fighters[plan.attacker]
    ally = _fighter(state, plan.ally)
    w = state.tables.weapon(plan.weapon) if plan.weapon else None
    defense, drules = defense_of(state, ally, plan.maneuver, a, False)
    damage_type = w.damage_type if w is not None else a.unarmed_type
    if w is not None and set(w.tags) & set(ally.vulnerable):
        damage_type = "aggravated"
    return replace(
        plan,
        target=ally.id,
        modifiers=tuple(m for m in plan.modifiers if m[0] != "avoid"),
        defense=defense,
        armour=armour_of(state, ally, plan.maneuver, w),
        damage_type=damage_type,
        rules=tuple(dict.fromkeys((*plan.rules, *drules, "H-MEL-1"))),
        ally=None,
    )


@dataclass(frozen=True, kw_only=True)
class Landing:
    """What an attack roll's result does (H-ATK-3, H-MEL-1, H-GRP-3): the ally's attack
    follows, or ``amount`` points go to ``victim`` (the target, or the human shield it
    holds), or nothing."""

    ally: bool = False
    victim: str | None = None
    amount: int = 0
    shield: bool = False


NOTHING = Landing()
"""A roll that marks no damage and sends no shot elsewhere."""


def landing(state: HunterState, plan: AttackPlan, result: HunterResult) -> Landing:
    """Where the result of ``plan``'s roll goes: one point of damage per success (H-ATK-3).

    A dramatic failure shooting into close combat hits the ally (H-MEL-1); gunfire at a
    fighter holding a human shield hits the shield (H-GRP-3)."""
    if result.dramatic_failure and plan.ally is not None:
        return Landing(ally=True)
    if result.successes <= 0:
        return NOTHING
    t = state.fighters[plan.target]
    if plan.maneuver in ("shoot", "burst") and t.shield and t.holding == t.shield:
        return Landing(victim=t.shield, amount=result.successes, shield=True)
    return Landing(victim=plan.target, amount=result.successes)


def strike(ctx: Resolution, plan: AttackPlan) -> HunterResult:
    """Roll an attack and mark its damage where it lands (``landing``).

    A dramatic failure shooting into close combat hits the ally (H-MEL-1): a normal
    attack on it with the unpenalised pool is rolled and marked.
    """
    state: HunterState = ctx.state
    result = roll_plan(plan, ctx)
    land = landing(state, plan, result)
    if land.ally:
        assert plan.ally is not None
        ctx.emit(HunterAllyHit(actor=plan.attacker, target=plan.ally, rules=("H-MEL-1",)))
        strike(ctx, ally_plan(state, plan))
        return result
    if land.victim is None:
        return result
    if land.shield:
        ctx.emit(
            HunterShieldTakesShot(
                actor=plan.attacker, target=plan.target, shield=land.victim, rules=("H-GRP-3",)
            )
        )
    mark_damage(ctx, land.victim, land.amount, plan.damage_type)
    return result


def cover_refusal(state: HunterState, a: Fighter, params: Mapping[str, Any]) -> ConteurError | None:
    """H-COV-3: a fully covered shooter shoots only by leaving its cover (None: it may)."""
    if full(cover_of(state, a)) and not params.get("leave_cover"):
        return ConteurError("hunter.attack.in_full_cover", rule="H-COV-3")
    return None


def prepare_ranged(ctx: Resolution, a: Fighter, params: Mapping[str, Any]) -> None:
    """Leaving full cover to shoot (H-COV-3); a fully covered shooter cannot shoot otherwise."""
    if not full(cover_of(ctx.state, a)):
        return
    refusal = cover_refusal(ctx.state, a, params)
    if refusal is not None:
        raise refusal
    ctx.emit(HunterCoverChanged(actor=a.id, cover=LEFT_COVER, rules=("H-COV-3",)))


def ammo_refusal(a: Fighter, w: Weapon, rounds: int) -> ConteurError | None:
    """Why ``a`` cannot fire ``rounds`` from ``w`` (None: it has them)."""
    left = a.ammo.get(w.id, 0)
    if left < rounds:
        return ConteurError("hunter.attack.no_ammo", weapon=w.id, left=left, needed=rounds)
    return None


def spend_ammo(ctx: Resolution, a: Fighter, w: Weapon, rounds: int) -> None:
    refusal = ammo_refusal(a, w, rounds)
    if refusal is not None:
        raise refusal
    left = a.ammo.get(w.id, 0)
    ctx.emit(HunterAmmoSpent(actor=a.id, weapon=w.id, rounds=rounds, left=left - rounds))


def rounds_fired(maneuver: str, params: Mapping[str, Any]) -> int:
    """The rounds the attack spends: one a shot, a burst's (H-AUTO-1..3), none else."""
    if maneuver == "burst":
        return BURSTS[str(params.get("burst") or "short")][0]
    return 1 if maneuver == "shoot" else 0


def ready_attack(
    state: HunterState, attacker: str, maneuver: str, params: Mapping[str, Any]
) -> tuple[AttackPlan, ...]:
    """The attack's rolls as planned before the first (one per target: a burst's targets
    in order), or the refusal the attack meets before its dice: the plans' own, the
    burst's targets (H-AUTO-4), a fully covered shooter (H-COV-3), the ammunition."""
    a = _fighter(state, attacker)
    if maneuver == "burst":
        targets = _burst_targets(state, params)
        plans = tuple(
            plan_attack(state, a.id, t, "burst", params, targets=len(targets)) for t in targets
        )
    else:
        plans = (plan_attack(state, a.id, str(params.get("target")), maneuver, params),)
    refusal = cover_refusal(state, a, params) if maneuver in RANGED else None
    w = weapon_in_hand(state, a)
    rounds = rounds_fired(maneuver, params)
    if refusal is None and rounds and w is not None:
        refusal = ammo_refusal(a, w, rounds)
    if refusal is not None:
        raise refusal
    return plans


def shot_hits_cover(state: HunterState, plan: AttackPlan) -> bool:
    """H-COV-1: a shot at a fully covered target hits the cover (no roll)."""
    return plan.maneuver in RANGED and full(cover_of(state, state.fighters[plan.target]))


def attack(ctx: Resolution, attacker: str, maneuver: str, params: Mapping[str, Any]) -> None:
    """Carry out an attack of ``maneuver`` (unarmed, melee, shoot, throw, burst): its
    rolls planned (``ready_attack``), the attacker's part (``open_attack``), one strike
    per target (``strike_at``); a single attack loses the aim after its roll (H-AIM-1)."""
    state: HunterState = ctx.state
    a = _fighter(state, attacker)
    plans = ready_attack(state, a.id, maneuver, params)
    open_attack(ctx, a, maneuver, params)
    for plan in plans:
        strike_at(ctx, plan, params, len(plans))
    if maneuver != "burst" and a.aim:
        ctx.emit(HunterAimLost(actor=a.id, rules=("H-AIM-1",)))


def open_attack(ctx: Resolution, a: Fighter, maneuver: str, params: Mapping[str, Any]) -> None:
    """What the attacker does before its rolls: leaving full cover (H-COV-3), the rounds
    fired, a burst's aim lost (H-AIM-1), the all-out attack (H-AOA-1)."""
    if maneuver in RANGED:
        prepare_ranged(ctx, a, params)
    rounds = rounds_fired(maneuver, params)
    if rounds:
        w = weapon_in_hand(ctx.state, a)
        assert w is not None
        spend_ammo(ctx, a, w, rounds)
    if maneuver == "burst" and a.aim:
        ctx.emit(HunterAimLost(actor=a.id, rules=("H-AIM-1",)))
    _all_out(ctx, a, params)


def strike_at(ctx: Resolution, plan: AttackPlan, params: Mapping[str, Any], targets: int) -> None:
    """One roll of the attack at its target: a fully covered one, the cover takes the shot
    (H-COV-1); a burst's roll is planned again when it comes (earlier rolls may have
    dropped the target's Defense, H-AUTO-4)."""
    state: HunterState = ctx.state
    if shot_hits_cover(state, plan):
        ctx.emit(HunterShotHitsCover(actor=plan.attacker, target=plan.target, rules=("H-COV-1",)))
        return
    if plan.maneuver == "burst":
        plan = plan_attack(state, plan.attacker, plan.target, "burst", params, targets=targets)
    strike(ctx, plan)


def _all_out(ctx: Resolution, a: Fighter, params: Mapping[str, Any]) -> None:
    if params.get("all_out"):
        ctx.emit(HunterAllOut(actor=a.id, rules=("H-AOA-1",)))


def burst_targets(state: HunterState, params: Mapping[str, Any]) -> list[str]:
    """The burst's targets: a list of ids, or ids in one text (``"bete goule"``, a form's field)."""
    raw = params.get("targets") or params.get("target")
    names = re.split(r"[\s,;]+", raw.strip()) if isinstance(raw, str) else list(raw or [])
    return [str(n) for n in names if str(n)]


BURST_WORDS = {
    "short": "hunter.mod.burst_short",
    "medium": "hunter.mod.burst_medium",
    "long": "hunter.mod.burst_long",
}
"""Each burst's name in the reader's words (H-AUTO-1..3)."""


def _burst_targets(state: HunterState, params: Mapping[str, Any]) -> list[str]:
    """H-AUTO-1..4: the burst's targets (a refusal for an unknown burst, too many targets,
    or one twice)."""
    burst = str(params.get("burst") or "short")
    if burst not in BURSTS:
        raise ConteurError("hunter.attack.bad_burst", value=burst, rule="H-AUTO-1")
    targets = burst_targets(state, params)
    limit = {"short": 1, "medium": 3}.get(burst, int(state.options["long_burst_max_targets"]))
    said = Msg(BURST_WORDS[burst])  # the burst in words, not its id
    if not targets or (limit and len(targets) > limit):
        raise ConteurError(
            "hunter.attack.burst_targets", burst=said, count=len(targets), rule="H-AUTO-4"
        )
    if len(set(targets)) != len(targets):
        raise ConteurError("hunter.attack.burst_targets", burst=said, count=len(targets))
    return targets
