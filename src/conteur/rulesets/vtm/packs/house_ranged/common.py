"""What every rule of the pack shares: its name, whether it is on, the weapon's cadence."""

from __future__ import annotations

from conteur.i18n import ConteurError

from ... import equipment
from ...ranged import shot_weapon, spray_targets
from ...state import Action, Fighter, VtmState
from ...tables import Labels, Weapon

PACK = "house_ranged"


def on(state: VtmState) -> bool:
    """The pack is switched on for this encounter."""
    return PACK in state.packs


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


def no_wound_penalties(f: Fighter) -> bool:
    """R-CALL-6: apparitions and whatever the game master marks so (``no_wound_penalties``)."""
    return bool(f.conditions.get("no_wound_penalties") or f.conditions.get("apparition"))
