"""What the tracker offers a fighter under the pack: only the maneuvers its weapons can fire
(R-BURST-1, R-BURST-2, R-SPREAD-1, R-SUPP-1, R-CALL-1)."""

from __future__ import annotations

from ...hooks import offer_check
from ...state import Fighter, VtmState
from ...tables import Maneuver
from .common import FIREARM_ONLY, weapon_allows, weapons_at_hand


@offer_check
def weapon_can_fire(state: VtmState, f: Fighter, m: Maneuver) -> bool:
    """A pack maneuver is offered when one of the fighter's weapons can fire it (the one
    in hand or one it carries, as ``weapon`` may name it)."""
    if m.id not in FIREARM_ONLY:
        return True
    return any(weapon_allows(m.id, w) for w in weapons_at_hand(state, f))
