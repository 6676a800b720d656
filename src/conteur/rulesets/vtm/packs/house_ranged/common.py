"""What every rule of the pack shares: its name, what a weapon may fire."""

from __future__ import annotations

from dataclasses import replace

from conteur.i18n import ConteurError

from ... import equipment
from ...ranged import shot_weapon, spray_targets
from ...state import Action, Fighter, VtmState
from ...tables import Labels, Maneuver, Weapon
from .config import pack_data

PACK = "house_ranged"


def kind_of(state: VtmState, a: Action) -> str:
    """The maneuver id an action names (its kind, or the maneuver its word finds)."""
    return equipment.maneuver_id(equipment.maneuver(state, a.kind))


def named_targets(state: VtmState, f: Fighter, a: Action, rule: str) -> list[str]:
    """``target`` then ``targets``: every one a combatant other than the shooter."""
    ids = spray_targets(a)
    if not ids:
        raise ConteurError("vtm.attack.no_target", rule=rule, fighter=f.name)
    for fid in ids:
        if fid not in state.fighters:
            raise ConteurError("vtm.unknown_fighter", name=fid)
        if fid == f.id:
            raise ConteurError("vtm.attack.self", rule=rule, fighter=f.name)
    return ids


def firearm(state: VtmState, f: Fighter, a: Action, rule: str) -> Weapon:
    """The ranged weapon a pack maneuver fires (a firearm, not a thrown weapon)."""
    w = shot_weapon(state, f, a)
    if w.category != "ranged":
        raise ConteurError(
            "house_ranged.needs_firearm", rule=rule, fighter=f.name, weapon=Labels([w])
        )
    return w


def volley(
    state: VtmState, f: Fighter, a: Action, targets_rule: str, weapon_rule: str
) -> tuple[Maneuver, list[str], Action, Weapon]:
    """What a volley at several targets fires: its maneuver, the targets named
    (``named_targets``), the action aimed at the first of them, and the firearm."""
    m = equipment.maneuver(state, a.kind)
    ids = named_targets(state, f, a, targets_rule)
    a = replace(a, target=ids[0])
    return m, ids, a, firearm(state, f, a, weapon_rule)


def no_wound_penalties(f: Fighter) -> bool:
    """R-CALL-6: apparitions and whatever the game master marks so (``no_wound_penalties``)."""
    return not f.wound_penalties


FIREARM_ONLY = ("short_burst", "long_burst", "shotgun_spread", "suppressive_fire", "called_shot")
"""Pack maneuvers only a firearm fires (not a thrown weapon)."""


def weapon_allows(maneuver: str, w: Weapon) -> bool:
    """Whether ``w`` can fire this pack maneuver: a burst needs its cadence (R-BURST-1:
    semi-automatic or automatic; R-BURST-2: automatic), a spread a smooth bore loaded with
    shot or buckshot (R-SPREAD-1), suppressive fire and a called shot any firearm (R-SUPP-1,
    R-CALL-1)."""
    data = pack_data()
    if maneuver in FIREARM_ONLY and w.category != "ranged":
        return False
    if maneuver in data.burst_cadences:
        return w.fire_cadence in data.burst_cadences[maneuver]
    if maneuver == "shotgun_spread":
        return bool(w.smooth_bore) and w.load in data.spread_loads
    return True


def weapons_at_hand(state: VtmState, f: Fighter) -> list[Weapon]:
    """The weapon in hand and every weapon the fighter carries."""
    held = equipment.weapon_in_hand(state, f)
    out = [equipment.weapon(state, w) for w in equipment.owned_weapons(f)]
    return [*out, held] if held is not None and held not in out else out
