"""What the fight's summary counts in vtm's events (``conteur.engine.report``).

An attack is its attack roll (V-ATK-5); it hits when a damage roll follows (V-DMG-1);
the damage is the health levels taken after soak (V-DMG-5). Every roll is its
roller's: attack, defence, damage (the attacker's, or the parrying defender's),
soak, initiative, and the other rolls a fighter makes. A result's score is its net
successes, a botch below none; an initiative die scores its face.
"""

from __future__ import annotations

from collections.abc import Sequence

from conteur.engine.events import Event
from conteur.engine.report import Fact, attacked, result_score, rolled

from .close import BreakFreeRolled
from .events import (
    AttackRolled,
    DamageRolled,
    DamageTaken,
    DefenceRolled,
    InitiativeRolled,
    RollMade,
    SoakRolled,
)


def fight_facts(event: Event) -> Sequence[Fact]:
    """The summary's facts in one vtm event."""
    if isinstance(event, AttackRolled):
        return attacked(event, event.attacker, event.target)
    if isinstance(event, DamageRolled):
        return (Fact("hit", None, event.target), *rolled(event, None, target=event.target))
    if isinstance(event, DamageTaken):
        return (Fact("damage", None, event.target, event.levels),)
    if isinstance(event, DefenceRolled):
        return rolled(event, event.defender)
    if isinstance(event, SoakRolled):
        return rolled(event, event.target)
    if isinstance(event, InitiativeRolled | RollMade):
        return rolled(event, event.fighter)
    if isinstance(event, BreakFreeRolled) and len(event.rolls) == 2:
        mine, theirs = event.rolls
        return (
            Fact("roll", event.fighter, roll=mine, score=result_score),
            Fact("roll", event.other, roll=theirs, score=result_score),
        )
    return ()
