"""The soak pool against one attack (V-SOAK-1, V-SOAK-2, V-ARM-1), part by part.

Below the attack (``.attack``, which re-exports it), the defences (a riposte's damage is
soaked too) and the game master's commands (``gm_damage``).
"""

from __future__ import annotations

from . import equipment
from .state import Fighter, VtmState


def soak_pool(
    target: Fighter, damage_type: str, source: str, state: VtmState, *, with_armour: bool = True
) -> int:
    """Soak dice against one attack (V-SOAK-1, V-SOAK-2, V-ARM-1): the sum of ``soak_parts``."""
    return sum(
        n for _, n in soak_parts(target, damage_type, source, state, with_armour=with_armour)
    )


def soak_parts(
    target: Fighter, damage_type: str, source: str, state: VtmState, *, with_armour: bool = True
) -> list[tuple[str, int]]:
    """The soak dice against one attack, part by part (V-SOAK-1, V-SOAK-2, V-ARM-1).

    Stamina soaks bashing for all, lethal only for vampires and other
    supernatural beings; Fortitude adds to both and alone soaks aggravated;
    armour adds against bashing, lethal and claws or fangs, never fire or
    sunlight. A mortal soaks lethal with its armour alone (reading).
    ``with_armour`` False: a called shot slipped past the armour (V-MAN-8).
    """
    stamina = target.trait("stamina")
    fortitude = target.trait("fortitude")
    armour = equipment.armour_of(state, target) if with_armour else None
    rating = armour.rating if armour is not None else 0
    if source in ("fire", "sunlight"):
        rating = 0
    if damage_type == "bashing":
        parts = [("stamina", stamina), ("fortitude", fortitude), ("armour", rating)]
    elif damage_type == "lethal":
        parts = [
            ("stamina", stamina if target.supernatural else 0),
            ("fortitude", fortitude),
            ("armour", rating),
        ]
    else:
        claws_or_fangs = source in ("claws", "fangs")
        parts = [("fortitude", fortitude), ("armour", rating if claws_or_fangs else 0)]
    return [(what, n) for what, n in parts if n]


__all__ = ["soak_parts", "soak_pool"]
