"""What the fight's summary counts in western's events (``conteur.engine.report``).

An attack is a shot or blow (its hit roll, W-SEQ-1) or a knock-out attempt (W-KO-2);
it hits when the roll succeeds; the damage is the PV lost (a shot's damage, a
knock-out's hurt, W-KO-4). The rolls counted for luck are the shooter's hit roll
(its margin: the lower the d100 under the skill, the better), the damage dice
(the higher the better, the shooter's), the knock-out roll (the lower the 1D20,
the better) and a stealth roll; the hit location and the game master's own rolls
are nobody's luck.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from conteur.engine.events import Event
from conteur.engine.report import Fact, attacked, result_score, rolled

from .events import DamageDealt, KnockOutHurt, KnockOutRolled, ShotRolled, StealthRolled


def low_is_good(result: Any) -> float:
    """A roll under a threshold (the knock-out's 1D20): the lower, the better."""
    return -result_score(result)


def fight_facts(event: Event) -> Sequence[Fact]:
    """The summary's facts in one western event."""
    if isinstance(event, ShotRolled):
        return attacked(event, event.attacker, event.target, hit=event.hit)
    if isinstance(event, KnockOutRolled):
        hit = (Fact("hit", event.attacker, event.target),) if event.success else ()
        luck = () if event.automatic else rolled(event, event.attacker, low_is_good)
        return (Fact("attack", event.attacker, event.target), *hit, *luck)
    if isinstance(event, DamageDealt):
        damage = Fact("damage", None, event.target, event.pv_lost)
        return (damage, *rolled(event, None, target=event.target))
    if isinstance(event, KnockOutHurt):
        return (Fact("damage", None, event.target, event.pv_lost),)
    if isinstance(event, StealthRolled):
        return rolled(event, event.fighter)
    return ()
