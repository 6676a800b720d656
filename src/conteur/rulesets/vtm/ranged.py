"""Ranged combat: firearms, bows and thrown weapons (V-GEN-2, V-ATK-3, V-RNG-1..9, V-ERA-1).

A shot goes through the common attack pipeline (``attack.attack``); this
module adds what belongs to ranged weapons:

* each shot checked against its weapon: the kind of weapon the maneuver
  needs, its fire modes (V-ERA-1: a burst needs a ``burst3`` weapon, spray
  and full auto an automatic one), targeting (V-MAN-8, V-MAN-5);
* a whole declaration checked against each weapon's rate of fire (V-RNG-9,
  V-RNG-4), against two hands (V-RNG-4), and against the rounds in the clip,
  reloads included (V-RNG-7); aiming is the turn's only action (V-RNG-1);
* the rounds every shot spends (``AmmoChanged``); an empty clip refuses the
  shot; reloading, over several turns for slow weapons (V-RNG-7);
* the attack modifiers of ranged combat: aim (V-RNG-1), range bands
  (V-RNG-5), cover (V-RNG-3), the off hand (V-RNG-4), a called shot at what
  shows above the cover (``bypass_cover``, V-MAN-8; ``bypass_armour`` is
  close.py's, for every attack);
* spray (V-RNG-2): one roll for a zone of at most 3 m, its successes shared
  among the targets named;
* a dodge against gunfire ends in cover or prone (V-DEF-4, after the roll).

Readings chosen here, as the rule text leaves them open:

* Aim (V-RNG-1) is lazy: the bonus holds while the shooter aimed through the
  previous turn, the shot is its first action this turn (no dodge before it,
  no move with it), at the same target with the same weapon, and the target
  has not moved faster than a walk since aiming began (``running``, set by a
  move longer than the walking distance, or by the game master). Anything
  else the shooter does breaks the chain, so the next aim starts again at one
  turn. The bonus goes to a single shot (``shoot``, ``throw``); any shot
  spends the aim.
* Two weapons (V-RNG-4): "recoil — no number given": the recoil is read as
  part of the multiple-action reduction, with no further penalty. A
  declaration that fires two different weapons is a two-weapon action: the
  weapon in hand is the main hand, the other the off hand (or the ``off_hand``
  parameter says so). A crew-served gun is never one of two weapons.
* Spray (V-RNG-2): the zone is the targets named (``target`` and
  ``targets``), at most 3 m apart; one roll, drafted against the hardest of
  them (highest difficulty, then fewest dice); a lone target takes half the
  successes, rounded down; leftovers go to the ``leftovers`` list (target
  ids, the attacker's choice), then in the order named; each target's share is
  its attack's successes: its dodge (at +1) opposes the share, and V-DMG-1
  applies to what is left (option ``auto_fire_every_success``: every success
  adds a die).
* Full auto (V-RNG-8): "at least half full" compares the rounds left with the
  clip's size (the chamber not counted).
* Reloading a weapon with a round still chambered keeps it chambered
  (``17+1``); from empty it holds the clip alone. A weapon whose
  ``reload_turns`` is 0 (a bow) is readied with each shot: its rounds are not
  counted.
* Cover (V-RNG-3): a fighter lying on the ground (``prone``, knocked down)
  has light cover against shots.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from conteur.engine import Event, Resolution
from conteur.engine.battlemap import MapBand, inside
from conteur.i18n import ConteurError, Lang

from . import equipment
from .actions import check_attack
from .asks import attack_ask
from .attack import attack, dazed_by_damage, defence_for, draft_attack, format_notes, strike_for
from .close import CALLED_SHOT_PAST_ARMOUR, target_size
from .conditions import Aim, Aiming, KnockedDown, Prone, Reload, Reloading, Running
from .dice import VtmPool
from .events import (
    AmmoChanged,
    AttackMissed,
    AttackRolled,
    Botched,
    ConditionSet,
    CoverTaken,
    DefenceRolled,
    ModifiersUsed,
    PutsCondition,
    SuccessesShared,
)
from .hooks import (
    AttackDraft,
    act_refusals,
    action,
    after_attack,
    declaration_check,
    difficulty_rule,
    form_refusals,
    implements,
    outside_odds,
    pool_rule,
    reads_effect,
    shows_bands,
    validator,
)
from .modifiers import LOCATION_SIZE, is_blind
from .state import Action, Declaration, Fighter, VtmState
from .strike import StrikeOutcome, resolve_successes
from .tables import Labels, Maneuver, Modifier, Weapon

BASE_DIFFICULTY = 6
"""V-ATK-4: the difficulty the range bands replace (V-RNG-5)."""

SHOTS = ("shoot", "throw", "multiple_shots", "two_weapons", "three_round_burst", "full_auto")
"""Ranged maneuvers played as one attack on one target (spray has its own handler)."""

SINGLE_SHOTS = ("shoot", "throw")
"""V-RNG-1: the shots an aim adds its dice to ("pour un tir unique")."""


# ------------------------------------------------------------------ events


class Aimed(Aim, PutsCondition):
    """A turn spent aiming at one target with one weapon (V-RNG-1)."""

    puts = Aiming

    dice: int
    """The dice the aim is worth now."""


class SprayShared(SuccessesShared):
    """A spray's successes shared among the targets of the zone (V-RNG-2)."""

    lone: bool = False
    """A lone target takes half the successes."""

    veil = "ev.SprayShared.veiled"
    """« Sam arrose la zone : Jack, Bill »: who is in the spray, not the shares (V-RNG-2)."""


class ReloadProgress(Reload, PutsCondition):
    """One more turn spent reloading a slow weapon (V-RNG-7); the last one loads it."""

    puts = Reloading

    needed: int

    def apply(self, state: VtmState) -> None:
        if self.turns >= self.needed:
            state.fighters[self.fighter].conditions.drop(Reloading)
        else:
            super().apply(state)


# ------------------------------------------------------------------ looking things up


def maneuver_or_none(state: VtmState, kind: str) -> Maneuver | None:
    """The maneuver an action kind names, or None for actions that are not maneuvers."""
    return equipment.maneuver_or_none(state, kind)


def is_shot(m: Maneuver) -> bool:
    """A ranged maneuver that fires (aiming and reloading do not)."""
    return m.kind == "ranged" and m.damage.base != "none"


def fire_modes(w: Weapon) -> tuple[str, ...]:
    """The weapon's fire modes; listing none, it fires single shots (several if its rate allows)."""
    if w.modes:
        return tuple(w.modes)
    return ("single", "multiple") if (w.rate or 1) > 1 else ("single",)


def tracks_ammo(w: Weapon) -> bool:
    """Rounds are counted for weapons with a clip, unless readied with each shot (a bow)."""
    return w.clip is not None and w.reload_turns != 0


def rounds_of(f: Fighter, w: Weapon) -> int:
    """Rounds left in the weapon (a weapon picked up during the fight comes loaded)."""
    return f.ammo.get(w.id, w.capacity or 0)


def reloaded_rounds(w: Weapon, left: int) -> int:
    """A fresh clip, plus the round still chambered if there was one (V-RNG-7)."""
    return int(w.clip or 0) + (w.chamber if left > 0 else 0)


def shot_weapon(state: VtmState, f: Fighter, a: Action) -> Weapon:
    """The weapon a shot uses (weapon_for raises when the fighter has none)."""
    w = equipment.weapon_for(state, f, a)
    if w is None:
        raise ConteurError("vtm.weapon.none_ranged", rule="V-GEN-2", fighter=f.name)
    return w


@reads_effect("empties_clip")
@reads_effect("min_clip_fraction", needs=("value", "max"))
@reads_effect("rounds", needs=("value",))
def rounds_used(m: Maneuver, w: Weapon, f: Fighter, left: int) -> int:
    """Rounds a shot spends, refusing it when the clip cannot fire it.

    One round a shot; three for a burst (V-RNG-6); the whole clip for full
    auto and spray (V-RNG-8, V-RNG-2), full auto only with the clip at least
    half full (V-RNG-8).
    """
    if not tracks_ammo(w):
        return 0
    if left <= 0:
        raise ConteurError(
            "vtm.ranged.clip_empty", rule="V-RNG-7", fighter=f.name, weapon=Labels([w])
        )
    fraction = m.effect("min_clip_fraction")
    if fraction is not None:
        num, den = int(fraction.value or 0), int(fraction.max or 0)  # (check_effects_read)
        if left * den < int(w.clip or 0) * num:
            raise ConteurError(
                "vtm.ranged.clip_fraction",
                rule=fraction.rule or m.rule,
                fighter=f.name,
                weapon=Labels([w]),
                rounds=left,
                needed=-(-int(w.clip or 0) * num // den),
            )
    if m.effect("empties_clip") is not None:
        return left
    per = m.effect("rounds")
    needed = int(per.value or 0) if per is not None else 1  # one round a shot
    check_rounds(f, m, w, left, needed)
    return needed


def check_rounds(f: Fighter, m: Maneuver, w: Weapon, left: int, needed: int) -> None:
    """``m`` fires ``needed`` rounds: refused (its rule) when the clip holds only ``left``."""
    if left < needed:
        raise ConteurError(
            "vtm.ranged.not_enough_rounds",
            rule=m.rule,
            fighter=f.name,
            weapon=Labels([w]),
            rounds=left,
            needed=needed,
        )


def reload_weapon(state: VtmState, f: Fighter, a: Action) -> Weapon:
    """The weapon a reload fills: the one named, in hand, or the first one with a clip."""
    try:
        w = equipment.weapon_for(state, f, a)
    except ConteurError:
        w = None
    if w is None or not w.clip:
        raise ConteurError("vtm.reload.nothing", rule="V-RNG-7", fighter=f.name)
    return w


def reload_turns(w: Weapon) -> int:
    """Turns of reloading the weapon needs (V-RNG-7: one; slow weapons more, as data)."""
    return max(1, int(w.reload_turns or 1))


def reload_progress(f: Fighter, w: Weapon) -> int:
    """Turns already spent reloading this weapon."""
    current = f.conditions.of(Reloading)
    return current.turns if current is not None and current.weapon == w.id else 0


def running(f: Fighter, since: int) -> bool:
    """V-RNG-1: the fighter moved faster than a walk in turn ``since`` or later."""
    ran = f.conditions.of(Running)
    return ran is not None and ran.since(since)


def cover_level(state: VtmState, f: Fighter) -> int:
    """V-RNG-3: the fighter's cover (0–3): its own, at least light cover lying on the
    ground, and that of a cover zone of the map it stands in (no line of sight drawn: a
    fighter inside a zone has that zone's cover)."""
    down = bool(f.conditions.of(Prone) or f.conditions.of(KnockedDown))
    return max(f.cover, 1 if down else 0, zone_cover(state, f))


def zone_cover(state: VtmState, f: Fighter) -> int:
    """The best cover level (1–3, the cover table's rows in order) of the map's zones the
    fighter stands in; 0 in none."""
    if not state.zones:
        return 0
    rows = list(equipment.tables(state).cover)
    return max(
        (
            rows.index(z.level) + 1
            for z in state.zones.values()
            if z.level in rows and inside(f.position, z.points)
        ),
        default=0,
    )


def cover_modifier(state: VtmState, level: int) -> Modifier:
    """The cover table's row for a level: 1 light, 2 good, 3 superior (V-RNG-3)."""
    rows = list(equipment.tables(state).cover.values())
    return rows[min(level, len(rows)) - 1]


def spray_targets(a: Action) -> list[str]:
    """The targets a spray names: ``target`` then ``targets`` (a list or "b, c")."""
    more = a.param("targets") or []
    if isinstance(more, str):
        more = [t.strip() for t in more.split(",") if t.strip()]
    ids = ([a.target] if a.target else []) + [str(t) for t in more]
    return list(dict.fromkeys(ids))


def leftover_order(a: Action) -> list[str]:
    """The attacker's choice for leftover successes (V-RNG-2), target ids."""
    raw = a.param("leftovers") or []
    if isinstance(raw, str):
        raw = [t.strip() for t in raw.split(",") if t.strip()]
    return [str(t) for t in raw]


def share_out(successes: int, order: list[str], leftovers: Iterable[str] = ()) -> dict[str, int]:
    """V-RNG-2: successes shared evenly; the attacker assigns the rest.

    With fewer successes than targets, one per target until none remain (in
    the attacker's order); otherwise the leftovers go to ``leftovers`` (a
    target may be named more than once), then in the order named.
    """
    count = len(order)
    base, rest = divmod(successes, count)
    shares = {fid: base for fid in order}
    chosen = [fid for fid in leftovers if fid in shares]
    if base == 0:
        chosen = list(dict.fromkeys(chosen))
    picks = chosen + [fid for fid in order if base or fid not in chosen]
    for fid in picks[:rest]:
        shares[fid] += 1
    return shares


def firing_weapons(state: VtmState, f: Fighter, decl: Declaration | None) -> list[str]:
    """The weapons a declaration fires, in the order declared."""
    if decl is None:
        return []
    out: list[str] = []
    for a in decl.actions:
        m = maneuver_or_none(state, a.kind)
        if m is not None and is_shot(m):
            wid = shot_weapon(state, f, a).id
            if wid not in out:
                out.append(wid)
    return out


def is_off_hand(d: AttackDraft) -> bool:
    """V-RNG-4: the shot is fired with the off hand (named, or the weapon not in hand)."""
    named = d.action.param("off_hand")
    if named is not None:
        return bool(named)
    if not d.ranged or d.weapon is None:
        return False
    weapons = firing_weapons(d.state, d.attacker, d.attacker.progress.declaration)
    if len(weapons) < 2 or d.weapon.id not in weapons:
        return False
    main = d.attacker.weapon if d.attacker.weapon in weapons else weapons[0]
    return bool(d.weapon.id != main)


@reads_effect("aim_bonus", "scope_bonus")
def aim_dice(state: VtmState, f: Fighter, turns: int, scope: bool) -> int:
    """V-RNG-1: a die per turn of aim up to Perception; a scope 2 more, beyond that cap."""
    m = equipment.maneuver(state, "aim")
    per_turn = m.effect("aim_bonus")
    lens = m.effect("scope_bonus")
    if per_turn is None:
        return 0
    dice = turns * int(per_turn.value or 0)
    if per_turn.max_trait is not None:
        dice = min(dice, f.trait(per_turn.max_trait))
    if scope and lens is not None:
        dice += int(lens.value or 0)
    return dice


def aim_holds(d: AttackDraft, aim: Aiming) -> bool:
    """V-RNG-1: whether the shooter's aim still counts for this shot (see the module's readings)."""
    f, state = d.attacker, d.state
    return (
        equipment.maneuver_id(d.maneuver) in SINGLE_SHOTS
        and aim.target == d.target.id
        and d.weapon is not None
        and aim.weapon == d.weapon.id
        and aim.last == state.turn - 1
        and f.progress.acted <= 1
        and f.progress.defences == 0
        and d.action.param("move_to") is None
        and not running(d.target, aim.since)
        and not is_blind(state, f)
    )


# ------------------------------------------------------------------ checks


@validator(*SHOTS, "spray")
def check_shot(state: VtmState, f: Fighter, a: Action) -> None:
    """A shot needs the right kind of weapon, able to fire that way (V-ATK-1, V-ERA-1)."""
    m = equipment.maneuver(state, a.kind)
    if m.id == "spray":
        check_spray_targets(state, f, a)
        targets = spray_targets(a)
        a = replace(a, target=targets[0] if targets else None)
    check_attack(state, f, a, m)
    w = shot_weapon(state, f, a)
    if m.requires.weapon and w.category not in m.requires.weapon:
        raise ConteurError(
            "vtm.ranged.wrong_weapon",
            rule="V-ATK-1",
            fighter=f.name,
            weapon=Labels([w]),
            maneuver=Labels([m]),
        )
    if m.requires.mode and m.requires.mode not in fire_modes(w):
        raise ConteurError(
            "vtm.ranged.mode", rule=m.rule, weapon=Labels([w]), maneuver=Labels([m]), era=state.era
        )
    check_targeting(state, f, a, m)


@reads_effect("no_targeting")
def check_targeting(state: VtmState, f: Fighter, a: Action, m: Maneuver) -> None:
    """V-MAN-8 for shots: a known size; none with full auto or spray; none blind (V-MAN-5)."""
    size, location = a.param("targeting"), a.param("location")
    if size is None and location is None:
        return
    if m.effect("no_targeting") is not None:
        raise ConteurError("vtm.targeting.not_with", rule=m.rule, maneuver=Labels([m]))
    if is_blind(state, f):
        raise ConteurError("vtm.targeting.blind", rule="V-MAN-5", fighter=f.name)
    if size is not None and str(size) not in equipment.tables(state).targets:
        raise ConteurError("vtm.targeting.unknown", rule="V-MAN-8", value=size)
    if location is not None and location not in LOCATION_SIZE:
        raise ConteurError("vtm.targeting.unknown", rule="V-MAN-8", value=location)
    if a.param("bypass_armour") and target_size(a) not in CALLED_SHOT_PAST_ARMOUR:
        raise ConteurError("vtm.close.bypass_needs_target", rule="V-MAN-8", fighter=f.name)


def check_spray_targets(state: VtmState, f: Fighter, a: Action) -> None:
    """V-RNG-2: the targets named exist; leftovers go only to them."""
    targets = spray_targets(a)
    for fid in targets:
        if fid not in state.fighters:
            raise ConteurError("vtm.unknown_fighter", name=fid)
        if fid == f.id:
            raise ConteurError("vtm.attack.self", rule="V-RNG-2", fighter=f.name)
    for fid in leftover_order(a):
        if fid not in targets:
            raise ConteurError("vtm.spray.leftover", rule="V-RNG-2", name=fid)


@validator("aim")
def check_aim(state: VtmState, f: Fighter, a: Action) -> None:
    """V-RNG-1: Firearms 1 and a ranged weapon; not blind (V-MAN-5); not at a running target."""
    m = equipment.maneuver(state, "aim")
    check_attack(state, f, a, m)
    if is_blind(state, f):
        raise ConteurError("vtm.aim.blind", rule="V-MAN-5", fighter=f.name)
    assert a.target is not None
    target = state.fighters[a.target]
    if running(target, state.turn):
        raise ConteurError("vtm.aim.running", rule="V-RNG-1", target=target.name)


@reads_effect("full_turn")
def whole_turn(f: Fighter, decl: Declaration, kinds: list[Maneuver | None]) -> None:
    """A maneuver with a ``full_turn`` effect is the turn's only action: aim (V-RNG-1),
    house_ranged's careful shot (R-AIM-1); the refusal cites the effect's rule."""
    if len(decl.actions) < 2:
        return
    for m in kinds:
        effect = m.effect("full_turn") if m is not None else None
        if m is not None and effect is not None:
            rule = effect.rule or m.rule
            raise ConteurError(
                "vtm.full_turn.alone", rule=rule, fighter=f.name, maneuver=Labels([m])
            )


@declaration_check
def check_ranged_declaration(state: VtmState, f: Fighter, decl: Declaration) -> None:
    """The declaration as a whole: a whole turn's maneuver alone (V-RNG-1), rate of fire
    (V-RNG-9), two hands (V-RNG-4), the rounds each shot will find in the clip (V-RNG-7,
    V-RNG-6, V-RNG-8)."""
    kinds = [maneuver_or_none(state, a.kind) for a in decl.actions]
    whole_turn(f, decl, kinds)
    shots: dict[str, int] = {}
    weapons: dict[str, Weapon] = {}
    rounds = dict(f.ammo)
    progress: dict[str, int] = {}
    for a, m in zip(decl.actions, kinds, strict=True):
        if m is None:
            continue
        if m.id == "reload":
            w = reload_weapon(state, f, a)
            done = progress.get(w.id, reload_progress(f, w)) + 1
            progress[w.id] = done
            if done >= reload_turns(w):
                rounds[w.id] = reloaded_rounds(w, rounds.get(w.id, w.capacity or 0))
                progress[w.id] = 0
            continue
        if not is_shot(m):
            continue
        w = shot_weapon(state, f, a)
        weapons[w.id] = w
        shots[w.id] = shots.get(w.id, 0) + 1
        left = rounds.get(w.id, w.capacity or 0)
        rounds[w.id] = left - rounds_used(m, w, f, left)
    for wid, count in shots.items():
        w = weapons[wid]
        if count > 1 and "multiple" not in fire_modes(w):
            raise ConteurError("vtm.ranged.no_multiple", rule="V-RNG-9", weapon=Labels([w]))
        if count > (w.rate or 1):
            raise ConteurError(
                "vtm.ranged.rate",
                rule="V-RNG-9" if len(shots) == 1 else "V-RNG-4",
                weapon=Labels([w]),
                rate=w.rate or 1,
                shots=count,
            )
    if len(shots) > 2:
        raise ConteurError("vtm.ranged.two_hands", rule="V-RNG-4", fighter=f.name)
    if len(shots) == 2:
        for w in weapons.values():
            if w.crew_served:
                raise ConteurError("vtm.ranged.crew_served", rule="V-RNG-4", weapon=Labels([w]))


form_refusals(
    "vtm.full_turn.alone",
    "vtm.ranged.no_multiple",
    "vtm.ranged.rate",
    "vtm.ranged.two_hands",
    "vtm.ranged.crew_served",
    "vtm.ranged.clip_empty",
    "vtm.ranged.clip_fraction",
    "vtm.ranged.not_enough_rounds",
)
"""``check_ranged_declaration``: what several actions declared together may not do."""

act_refusals(
    "vtm.ranged.clip_empty",
    "vtm.ranged.clip_fraction",
    "vtm.ranged.not_enough_rounds",
    "vtm.spray.zone",
    "vtm.reload.nothing",
)
"""What a shot, a spray or a reload checks as it goes: the rounds in the clip (V-RNG-6..8),
the width of the zone (V-RNG-2), a weapon to reload (V-RNG-7)."""


# ------------------------------------------------------------------ attack modifiers


@pool_rule
@implements("V-RNG-1", shots=True)
def aim(d: AttackDraft) -> None:
    """V-RNG-1: the turns spent aiming add their dice to a single shot."""
    held = d.attacker.conditions.of(Aiming)
    if d.ranged and held is not None and aim_holds(d, held):
        dice = aim_dice(d.state, d.attacker, held.turns, held.scope)
        d.add_dice("V-RNG-1", "aim", dice)


@pool_rule
@implements("V-MAN-8", shots=True)
def called_shot_past_cover(d: AttackDraft) -> None:
    """V-MAN-8: aiming at a precise spot may avoid cover: ``bypass_cover`` with a target size
    (the head showing over the wall) leaves the target's cover out (V-RNG-3)."""
    if d.ranged and d.action.param("bypass_cover") and target_size(d.action) is not None:
        d.flags["bypass_cover"] = True
        d.rules.append("V-MAN-8")


def range_bands(state: VtmState, w: Weapon, lang: Lang | None = None) -> tuple[MapBand, ...]:
    """V-RNG-5 on the map: the tables' bands (point blank, short, maximum) for ``w``."""
    tables = equipment.tables(state)
    return tuple(MapBand(b.id, b.label(lang), b.limit(w.range or 0), b.rule) for b in tables.ranges)


@difficulty_rule
@implements("V-RNG-5")
@shows_bands(range_bands)
def range_band(d: AttackDraft) -> None:
    """V-RNG-5: within 2 m difficulty 4, up to short range 6, up to twice that 8.

    The band's difficulty replaces the default 6; the maneuver's own modifier
    still adds to it (a spray at point blank: 4 + 2). Thrown weapons use the
    same bands. Beyond maximum range no shot is possible (V-GEN-2).
    """
    if not d.ranged or d.weapon is None:
        return
    band = equipment.tables(d.state).range_band(
        d.state.distance(d.attacker.id, d.target.id), d.weapon
    )
    if band is not None:
        d.add_difficulty("V-RNG-5", band.id, band.difficulty - BASE_DIFFICULTY)


@difficulty_rule
def cover(d: AttackDraft) -> None:
    """V-RNG-3: the target's cover (+1/+2/+3) and the shooter's own cover less one add up."""
    if not d.ranged:
        return
    theirs = cover_level(d.state, d.target)
    if theirs and not d.flags.get("bypass_cover"):
        row = cover_modifier(d.state, theirs)
        d.add_difficulty("V-RNG-3", f"target_cover_{row.id}", row.difficulty)
    mine = cover_level(d.state, d.attacker)
    if mine:
        row = cover_modifier(d.state, mine)
        d.add_difficulty("V-RNG-3", f"own_cover_{row.id}", row.shooter_difficulty)


@difficulty_rule
@reads_effect("off_hand", needs=("difficulty",), of="two_weapons")
def off_hand(d: AttackDraft) -> None:
    """V-RNG-4: the ``two_weapons`` maneuver's ``off_hand`` difficulty (+1) for the off hand,
    unless ambidextrous."""
    if d.attacker.sheet.ambidextrous or not is_off_hand(d):
        return
    effect = equipment.maneuver(d.state, "two_weapons").effect("off_hand")
    if effect is not None:
        d.add_difficulty("V-RNG-4", "off_hand", int(effect.difficulty or 0))


# ------------------------------------------------------------------ actions


def spend_rounds(ctx: Resolution, f: Fighter, m: Maneuver, w: Weapon) -> None:
    """Take the shot's rounds from the clip, or refuse the shot (nothing is applied)."""
    left = rounds_of(f, w)
    used = rounds_used(m, w, f, left)
    if used:
        ctx.emit(AmmoChanged(fighter=f.id, weapon=w.id, rounds=left - used, rules=(m.rule,)))
    if reload_progress(f, w):
        ctx.emit(ConditionSet(target=f.id, condition=Reloading.key, value=None, rules=("V-RNG-7",)))


def spend_aim(ctx: Resolution, f: Fighter) -> None:
    """V-RNG-1: a shot spends the aim (its bonus went to this shot, if it held)."""
    if Aiming.key in f.conditions:
        ctx.emit(ConditionSet(target=f.id, condition=Aiming.key, value=None, rules=("V-RNG-1",)))


@action(*SHOTS)
def shot(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """One shot, burst or full-auto attack on one target, paid in rounds."""
    state: VtmState = ctx.state
    m = equipment.maneuver(state, a.kind)
    spend_rounds(ctx, f, m, shot_weapon(state, f, a))
    attack(ctx, f, a, penalty, willpower)
    spend_aim(ctx, f)


@action("spray")
def spray(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """V-RNG-2: fill a zone of at most 3 m with lead: one roll, its successes shared."""
    state: VtmState = ctx.state
    m = equipment.maneuver(state, a.kind)
    ids = spray_targets(a)
    a = replace(a, target=ids[0])
    targets = [state.fighters[fid] for fid in ids]
    for t in targets:
        equipment.check_reach(state, f, t, a)
    check_zone(state, m, targets)
    spend_rounds(ctx, f, m, shot_weapon(state, f, a))
    drafts = [draft_attack(state, f, t, a, penalty) for t in targets]
    hardest = max(drafts, key=lambda d: (d.difficulty, -d.pool))
    successes = roll_volley(ctx, hardest, m, willpower)
    if successes <= 0:
        strike_shares(ctx, drafts, {}, "V-ATK-5")
        spend_aim(ctx, f)
        return
    lone = len(targets) == 1
    shares = spray_shares(m, successes, ids, leftover_order(a))
    ctx.emit(
        SprayShared(
            attacker=f.id,
            successes=successes,
            shares=tuple(shares.items()),
            lone=lone,
            rules=("V-RNG-2",),
        )
    )
    strike_shares(ctx, drafts, shares, "V-RNG-2")
    spend_aim(ctx, f)


@reads_effect("shared_successes")
def spray_shares(
    m: Maneuver, successes: int, ids: list[str], leftovers: list[str]
) -> dict[str, int]:
    """V-RNG-2: a maneuver with ``shared_successes`` shares its roll's successes among the
    targets (``share_out``; a lone target takes half, rounded down); without it, each
    target takes them all."""
    if m.effect("shared_successes") is None:
        return dict.fromkeys(ids, successes)
    shared = successes // 2 if len(ids) == 1 else successes
    return share_out(shared, ids, leftovers)


def roll_volley(ctx: Resolution, lead: AttackDraft, m: Maneuver, willpower: bool) -> int:
    """One attack roll for several targets (a spray, a pack's burst or spread), drafted as
    ``lead`` (V-ATK-5); its successes, 0 when every target is missed."""
    f = lead.attacker
    record = ctx.dice.roll(
        VtmPool(lead.pool, lead.difficulty, auto=1 if willpower else 0),
        attack_ask(lead, 1 if willpower else 0),
    )
    if ctx.state.pending_modifiers.get(f.id):
        ctx.emit(ModifiersUsed(fighter=f.id))
    successes = record.result.successes
    ctx.emit(
        AttackRolled(
            attacker=f.id,
            target=lead.target.id,
            maneuver=m.id,
            pool=lead.pool,
            difficulty=record.request.effective_difficulty,
            successes=successes,
            botch=record.result.botch,
            modifiers=format_notes(lead),
            pool_parts=tuple(lead.pool_parts),
            rules=(*dict.fromkeys(lead.rules), "V-ATK-5"),
            rolls=(record,),
        )
    )
    if record.result.botch:
        ctx.emit(Botched(fighter=f.id, context=m.id, rules=("V-ATK-5",)))
    return max(successes, 0)


def strike_shares(
    ctx: Resolution, drafts: list[AttackDraft], shares: Mapping[str, int], rule: str
) -> None:
    """Each target's share of a volley's successes against its own defence, damage and soak
    (no share: missed, citing ``rule``)."""
    for d in drafts:
        share = shares.get(d.target.id, 0)
        if share <= 0:
            ctx.emit(AttackMissed(attacker=d.attacker.id, target=d.target.id, rules=(rule,)))
            continue
        strike = strike_for(d, defence_for(ctx, d), False)
        found: list[Event] = []
        outcome = resolve_successes(strike, share, ctx.dice, found)
        for event in found:
            ctx.emit(event)
        take_cover_after_dodge(ctx, d, outcome)
        dazed_by_damage(ctx, d.target, outcome)


@reads_effect("area", needs=("value",))
def check_zone(state: VtmState, m: Maneuver, targets: list[Fighter]) -> None:
    """V-RNG-2: a spray covers at most 3 m: no two targets farther apart."""
    area = m.effect("area")
    if area is None:
        return  # a zone without a width of its own
    limit = float(area.value or 0)
    widest = max(
        (state.distance(a.id, b.id) for a in targets for b in targets if a.id < b.id), default=0.0
    )
    if widest > limit + 1e-9:
        raise ConteurError("vtm.spray.zone", rule="V-RNG-2", metres=round(widest, 1), limit=limit)


@action("aim")
def aim_action(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """V-RNG-1: a turn spent aiming; turns in a row at the same target add up."""
    state: VtmState = ctx.state
    assert a.target is not None
    w = shot_weapon(state, f, a)
    target = state.fighters[a.target]
    prev = f.conditions.of(Aiming)
    going_on = (
        prev is not None
        and prev.target == a.target
        and prev.weapon == w.id
        and prev.last == state.turn - 1
        and not running(target, prev.since)
    )
    turns = prev.turns + 1 if going_on and prev is not None else 1
    since = prev.since if going_on and prev is not None else state.turn
    ctx.emit(
        Aimed(
            fighter=f.id,
            target=a.target,
            weapon=w.id,
            turns=turns,
            since=since,
            last=state.turn,
            scope=bool(w.scope),
            dice=aim_dice(state, f, turns, bool(w.scope)),
            rules=("V-RNG-1",),
        )
    )


@action("reload")
def reload(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """V-RNG-7: reloading takes a turn (or one action of a multiple action); slow weapons more."""
    w = reload_weapon(ctx.state, f, a)
    needed = reload_turns(w)
    if needed > 1:
        done = reload_progress(f, w) + 1
        ctx.emit(
            ReloadProgress(fighter=f.id, weapon=w.id, turns=done, needed=needed, rules=("V-RNG-7",))
        )
        if done < needed:
            return
    ctx.emit(
        AmmoChanged(
            fighter=f.id,
            weapon=w.id,
            rounds=reloaded_rounds(w, rounds_of(f, w)),
            rules=("V-RNG-7",),
        )
    )


# ------------------------------------------------------------------ after the dice


@after_attack
@outside_odds
@reads_effect("take_cover")
def take_cover_after_dodge(ctx: Resolution, d: AttackDraft, outcome: StrikeOutcome) -> None:
    """V-DEF-4: dodging gunfire, the dodger moves into cover or drops prone.

    The cover reached is the declared dodge's ``cover`` level (1–3); with none
    named, a fighter not yet in cover drops prone (light cover, V-RNG-3). The
    cover then applies to later shots while the fighter stays there. The defence that
    does so is the one with a ``take_cover`` effect (the dodge).
    """
    if d.weapon is None or d.weapon.category != "ranged":
        return
    target = d.target
    dodged = any(
        isinstance(e, DefenceRolled)
        and e.defender == target.id
        and equipment.maneuver(ctx.state, e.kind).effect("take_cover") is not None
        for e in outcome.events
    )
    if not dodged or target.out_of_fight:
        return
    level = dodge_cover(target)
    if level:
        if level > target.cover:
            ctx.emit(CoverTaken(fighter=target.id, level=level, rules=("V-DEF-4", "V-RNG-3")))
    elif not cover_level(ctx.state, target):
        ctx.emit(
            ConditionSet(
                target=target.id, condition=Prone.key, value=True, rules=("V-DEF-4", "V-RNG-3")
            )
        )


def dodge_cover(f: Fighter) -> int:
    """The cover level a declared dodge names (``cover``), 0 when none."""
    decl = f.progress.declaration
    if decl is None:
        return 0
    for a in decl.actions:
        if a.kind == "dodge" and a.param("cover") is not None:
            level = int(a.param("cover"))
            return level if level in (1, 2, 3) else 0
    return 0


__all__ = [
    "Aimed",
    "ReloadProgress",
    "SprayShared",
    "cover_level",
    "share_out",
]
