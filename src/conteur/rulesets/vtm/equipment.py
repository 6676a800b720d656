"""What the rules read from the tables: weapons in hand, armour worn, maneuvers.

The tables themselves (``tables.py``, data files) are loaded once per
encounter and shared by every copy of the state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from conteur.i18n import ConteurError

from . import hooks
from .hooks import reads_effect
from .packs import find_misplaced
from .rulebook import rules_of
from .state import Action, Fighter, VtmState
from .tables import Armour, Maneuver, Tables, Weapon
from .tables import TablesRef as TablesRef  # re-exported: it was defined here

UNARMED = {"punch", "kick", "claws", "grapple", "hold", "bite", "kiss", "tackle"}


def tables(state: VtmState) -> Tables:
    """The tables of this encounter (its era, the GM's own files)."""
    tables_of: Tables = state.meta["tables"].tables  # ``state.tables_ref``, on this hot path inline
    return tables_of


# ------------------------------------------------------------------ maneuvers


def maneuver(state: VtmState, kind: str) -> Maneuver:
    """The maneuver record for an action kind (custom maneuvers first, V-CC-0)."""
    custom = state.custom_maneuvers
    if custom and kind in custom:
        return custom_maneuver(kind, custom[kind])
    t: Tables = state.meta["tables"].tables  # ``tables(state)``, on this hot path inline
    found = t.maneuvers.get(kind)
    if found is not None:
        return found
    try:
        return t.find_maneuver(kind)
    except ConteurError:
        misplaced = find_misplaced(state, kind)
        if misplaced is not None:
            raise misplaced.error(kind) from None  # an option pack's, or one it replaces
        raise


def maneuver_or_none(state: VtmState, kind: str) -> Maneuver | None:
    """The maneuver an action kind names, or None for actions that are not maneuvers (a
    move, an ``other`` action): ``maneuver`` without the error and its suggestions."""
    if kind in state.custom_maneuvers:
        return custom_maneuver(kind, state.custom_maneuvers[kind])
    return tables(state).maneuver_named(kind)


def custom_maneuver(mid: str, spec: dict[str, Any]) -> Maneuver:
    """A maneuver defined during play (V-CC-0), validated like the tables' own."""
    data = {"kind": "close", "rule": "V-CC-0", "names": {"fr": mid, "en": mid}, **spec, "id": mid}
    try:
        return Maneuver.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise ConteurError(
            "vtm.gm.maneuver_invalid",
            maneuver=mid,
            field=".".join(str(p) for p in err.get("loc", ())),
            reason=err.get("msg", ""),
        ) from None


def maneuver_id(m: Any) -> str:
    return str(getattr(m, "id", m))


def maneuver_traits(m: Maneuver) -> list[list[str]]:
    return [list(alt) for alt in m.traits] or [["dexterity", "brawl"]]


def configured_traits(state: VtmState, m: Maneuver, chosen: list[str]) -> list[str]:
    """Apply a table option that replaces the maneuver's traits (kick, V-CC-4)."""
    if m.traits_option and m.traits_option in state.options:
        return m.traits_for(state.options)[0]
    return chosen


def is_attack(m: Maneuver) -> bool:
    """Maneuvers that roll against a target (close or ranged)."""
    return m.kind in ("close", "ranged")


# ------------------------------------------------------------------ weapons


def weapon(state: VtmState, weapon_id: str) -> Weapon:
    """A weapon of the tables (ConteurError naming it when unknown or not of the era)."""
    t: Tables = state.meta["tables"].tables  # ``tables(state)``, on this hot path inline
    return t.weapon(weapon_id)


def weapon_in_hand(state: VtmState, f: Fighter) -> Weapon | None:
    """The weapon the fighter holds, or None when empty-handed."""
    return weapon(state, f.weapon) if f.weapon else None


def weapon_for(
    state: VtmState, f: Fighter, action: Action, m: Maneuver | None = None
) -> Weapon | None:
    """The weapon an action uses: the one named, else the one in hand; None for bare hands.

    ``m``: the action's maneuver (``maneuver(state, action.kind)``), when the caller has it."""
    if m is None:
        m = maneuver(state, action.kind)
    if action.weapon:
        w = weapon(state, action.weapon)
        if w.id not in f.sheet.weapons:  # ``owned_weapons(f)``, without the list
            raise ConteurError(
                "vtm.weapon.not_carried", rule="V-ATK-1", fighter=f.name, weapon=w.label()
            )
        return w
    if m.id in UNARMED:
        return None
    held = weapon_in_hand(state, f)
    wanted = tuple(m.requires.weapon) or ("ranged", "thrown")
    if m.kind == "ranged" and (held is None or held.category not in wanted):
        held = next(
            (weapon(state, w) for w in owned_weapons(f) if weapon(state, w).category in wanted),
            None,
        )
    if m.kind == "ranged" and held is None:
        raise ConteurError("vtm.weapon.none_ranged", rule="V-GEN-2", fighter=f.name)
    if m.id in ("weapon_strike", "disarm", "parry") and (held is None or held.category != "melee"):
        raise ConteurError("vtm.weapon.none_melee", rule="V-CC-2", fighter=f.name)
    return held


def owned_weapons(f: Fighter) -> list[str]:
    return list(f.sheet.weapons)  # ids (the sheet validates them as strings)


def weapon_category(w: Weapon | None) -> str:
    """melee, brawl, ranged or thrown (bare hands are brawl)."""
    return "brawl" if w is None else str(w.category)


def is_ranged(m: Maneuver, w: Weapon | None) -> bool:
    return m.kind == "ranged" or (
        w is not None and w.category in ("ranged", "thrown") and m.kind != "close"
    )


FIRE = "fire"
"""The tables' damage type for fire: aggravated, soaked by Fortitude alone (V-DMG-3, V-ARM-1)."""


def health_damage(dtype: str, source: str) -> tuple[str, str]:
    """The health track's damage type and the source of a table's damage type: ``fire`` is
    aggravated damage whose source is fire, which armour never soaks (V-DMG-3, V-ARM-1)."""
    return ("aggravated", FIRE) if dtype == FIRE else (dtype, source)


def melee_damage(state: VtmState, f: Fighter, w: Weapon | None) -> tuple[int, str]:
    """Damage dice and type of a melee weapon in ``f``'s hands (Strength + weapon)."""
    if w is None:
        return f.trait("strength"), "bashing"
    plus = w.damage.strength_plus or 0
    return f.trait("strength") + plus, health_damage(str(w.damage_type), "weapon")[0]


def damage_of(state: VtmState, d: Any) -> tuple[int, int, str, str]:
    """Damage dice, Potence's automatic successes, damage type and source of an attack (V-DMG-2).

    The source (``weapon``, ``claws``, ``fangs``, ``fire``...) decides what
    armour soaks (V-ARM-1); a weapon or maneuver dealing ``fire`` deals aggravated
    damage from fire (V-DMG-3).
    """
    parts, auto, dtype, source = damage_parts_of(state, d)
    return sum(n for _, n in parts), auto, dtype, source


def damage_parts_of(state: VtmState, d: Any) -> tuple[tuple[tuple[str, int], ...], int, str, str]:
    """``damage_of`` with the damage dice part by part, as the log and the table's ask say
    them: Strength (``strength``), the weapon's dice or its bonus to Strength (its id), the
    maneuver's bonus (its id) — « Force 3 + couteau 1 = 4 dés »."""
    f: Fighter = d.attacker
    m: Maneuver = d.maneuver
    w: Weapon | None = d.weapon
    base = m.damage.base
    potence = f.trait("potence")
    source = "weapon" if w is not None else "body"
    if m.id == "claws":
        source = "claws"
    elif m.id in ("bite", "kiss"):
        source = "fangs"
    if base == "none":
        return (), 0, "bashing", source
    strength_based = base == "strength" or (base == "strength_or_weapon" and w is None)
    parts: tuple[tuple[str, int], ...]
    if strength_based or (
        base in ("weapon", "strength_or_weapon", "special")
        and w is not None
        and w.damage.strength_plus is not None
    ):
        weapon_plus = 0 if strength_based else (w.damage.strength_plus or 0)  # type: ignore[union-attr]
        dtype = strength_damage_type(f, m) if strength_based or w is None else str(w.damage_type)
        parts = (("strength", f.trait("strength")),)
        if weapon_plus and w is not None:
            parts += ((w.id, weapon_plus),)
        auto = potence
    elif w is not None and w.damage.dice is not None:
        parts, auto, dtype = ((w.id, w.damage.dice),), 0, str(w.damage_type)
    else:
        return (("strength", f.trait("strength")),), potence, "bashing", source
    if m.damage.plus:
        parts += ((m.id, m.damage.plus),)
    if dtype == FIRE:
        return (parts, auto, *health_damage(dtype, source))  # no V-DMG-6 option turns fire
    dtype = adjusted_damage_type(state, d, w, dtype)
    return parts, auto, dtype, source


def strength_damage_type(f: Fighter, m: Maneuver) -> str:
    """Type of Strength-based damage: the maneuver's, or the one its power gives (V-CC-3)."""
    for power, dtype in m.damage_type_by_power.items():
        if power in f.sheet.powers:
            return str(dtype)
    return str(m.damage_type or "bashing")


def adjusted_damage_type(state: VtmState, d: Any, w: Weapon | None, dtype: str) -> str:
    """V-DMG-6 options: blunt weapons bash unless aimed at the head; firearms may bash vampires."""
    at_head = d.action.param("location") == "head"
    if w is not None and w.blunt and state.options.get("blunt_bashing_unless_head", True):
        return "lethal" if at_head else "bashing"
    if (
        w is not None
        and w.category == "ranged"
        and d.target.kind == "vampire"
        and state.options.get("firearms_bashing_vs_vampires", False)
        and not at_head
    ):
        return "bashing"
    return dtype


# ------------------------------------------------------------------ armour


def armour_of(state: VtmState, f: Fighter) -> Armour | None:
    """The armour a fighter wears, None when it has none or it was destroyed (V-ARM-3)."""
    if not f.armour or f.armour_destroyed:
        return None
    return tables(state).find_armour(f.armour)


def armour_id(a: Armour | None) -> str | None:
    return a.id if a is not None else None


# ------------------------------------------------------------------ reach


def check_reach(state: VtmState, attacker: Fighter, target: Fighter, action: Action) -> None:
    """V-GEN-1 / V-GEN-2: unarmed within 1 m, melee within 2 m, ranged within twice short range."""
    m = maneuver(state, action.kind)
    own = rules_of(state).at(hooks.own_reach).get(maneuver_id(m))
    if own is not None:  # a maneuver with a reach of its own (a pack's spread...)
        own(state, attacker, replace(action, target=target.id))
        return
    w = weapon_for(state, attacker, action, m)
    dist = state.distance(attacker.id, target.id)

    def too_far(key: str, rule: str, **why: Any) -> ConteurError:
        return ConteurError(key, rule=rule, target=target.name, metres=round(dist, 1), **why)

    if is_ranged(m, w):
        # Maximum range: the last range band (V-RNG-5: twice the short range).
        if w is not None and w.range and tables(state).range_band(dist, w) is None:
            limit = max(band.limit(w.range) for band in tables(state).ranges)
            raise too_far("vtm.attack.out_of_range", "V-GEN-2", limit=limit)
        return
    limit = 2.0 if weapon_category(w) == "melee" else 1.0
    closer = closing_distance(state) if outreached(state, w, target) else None
    if closer is not None and limit > closer:
        limit = closer
        if dist > limit + 1e-9:
            reach = weapon_in_hand(state, target).label()  # type: ignore[union-attr]
            raise too_far("vtm.attack.close_in", "V-CC-9", weapon=reach)
    if dist > limit + 1e-9:
        raise too_far("vtm.attack.too_far", "V-GEN-1", limit=limit)


@reads_effect("close_in", needs=("value",), of="weapon_length")
def closing_distance(state: VtmState) -> float | None:
    """V-CC-9: the metres a short weapon must close to against a long one (the
    ``weapon_length`` maneuver's ``close_in`` value, 1), None when the tables have none."""
    effect = maneuver(state, "weapon_length").effect("close_in")
    return float(effect.value) if effect is not None and effect.value is not None else None


def outreached(state: VtmState, w: Weapon | None, target: Fighter) -> bool:
    """V-CC-9: fists or a short weapon (knife) against a long one (staff, sword) in hand."""
    mine = w.length if w is not None else "short"
    theirs = weapon_in_hand(state, target)
    return mine == "short" and theirs is not None and theirs.length == "long"
