"""What the fight's summary counts in hunter's events (``conteur.engine.report``).

An attack is its attack roll; it hits when damage follows (its successes
are the damage); the damage is the health points lost. Every roll is its roller's:
attack, initiative and its roll-offs, consciousness, ambush. A result's score is
its successes, a dramatic failure below none; an initiative die scores its face.
"""

from __future__ import annotations

from collections.abc import Sequence

from conteur.engine.events import Event
from conteur.engine.report import Fact, attacked, rolled

from .events import (
    HunterAmbushChecked,
    HunterAttackRolled,
    HunterConsciousnessRolled,
    HunterDamaged,
    HunterInitiativeRolled,
    HunterRollOff,
)


def fight_facts(event: Event) -> Sequence[Fact]:
    """The summary's facts in one hunter event."""
    if isinstance(event, HunterAttackRolled):
        return attacked(event, event.actor, event.target)
    if isinstance(event, HunterDamaged):
        return (Fact("hit", None, event.target), Fact("damage", None, event.target, event.amount))
    if isinstance(
        event,
        HunterInitiativeRolled | HunterRollOff | HunterConsciousnessRolled | HunterAmbushChecked,
    ):
        return rolled(event, event.actor)
    return ()
