"""Who may see each event of a hunter fight (the line the others read instead is each
event's own ``veiled``, in ``.events``).

Decided per event type when the event is emitted (``HunterRuleset.visibility``):

* **A fighter's own numbers are its own** (``owned_by``): its initiative die and its
  roll-offs (the ranking itself is public), its ambush roll, its Stamina roll to stay
  conscious, its dodge (the value is twice its Defense), its exact track when it takes
  damage (the boxes, the fate), the rounds left in its gun, its experience counters.
* **An attack roll is owned by the party whose secrets it carries**: the line shows the
  attacker's pool and dice *and* the target's Defense (or Strength) and armour. A monster's
  or a bystander's numbers are the Storyteller's, so a roll is owned by the attacker when
  the attacker is not a hunter, else by the target when the target is not a hunter, else
  by the attacking hunter (hunters are the players' characters; ``Viewer`` decides whether
  the owner is played by a player). Readers who may not see it read who attacked whom,
  with what, and the outcome in words: « la Bête → Marc (mains nues) : coup au but »; a
  hunter's roll (owned by its target) also gives its successes, counted in front of the
  table: « Ana → la Bête (tir) : 2 succès, coup au but ».
* **Everything the table sees happen is public**: the turn, the ranking, delays and
  passes, aiming, all-out attacks, reloading, drawing, grappling and its effects, shots
  that hit cover, an ally or a human shield, the end of the fight.
* **The Storyteller's commands** (templates with no actor): ``initiative`` and
  ``ambush`` give the events above; ``gm_cover`` is public (the table sees a fighter take
  or leave cover, and every shot at it changes); ``gm_damage`` is the damage event above
  (the track is the target's, everyone reads the wound in words); ``gm_xp_reset`` is the
  hunter's own (its counters). None of them carries a note or a reason of the
  Storyteller's own, so none is GM-only; an event marked ``public=False`` still is.

A veiled line holds names and words only (and a hunter's successes): no pool, no face, no
Defense, no track.
"""

from __future__ import annotations

from conteur.engine import Event
from conteur.engine.visibility import PUBLIC, Audiences, Visibility, owned_by

from .events import (
    HunterAmbushChecked,
    HunterAmmoSpent,
    HunterAttackRolled,
    HunterConsciousnessRolled,
    HunterDamaged,
    HunterDodging,
    HunterInitiativeRolled,
    HunterRollOff,
    HunterXpReset,
)
from .state import HunterState

AUDIENCES = Audiences(
    owned={
        **dict.fromkeys(
            (
                e.type_name
                for e in (
                    HunterInitiativeRolled,
                    HunterRollOff,
                    HunterAmbushChecked,
                    HunterConsciousnessRolled,
                    HunterDodging,
                    HunterAmmoSpent,
                    HunterXpReset,
                )
            ),
            "actor",
        ),
        HunterDamaged.type_name: "target",
    },
    decided={
        HunterAttackRolled.type_name: (
            "owned by the attacker when it is not a hunter, else by the target when it is "
            "not a hunter, else by the attacking hunter"
        ),
    },
)
"""Who sees each event type: a fighter's own rolls, Defense, ammunition and counters are
its ``actor``'s; a wound is its ``target``'s; an attack roll is decided by who is a hunter."""

STAYS_HIDDEN = frozenset(("delay", "pass"))
"""What a hidden fighter may do and stay hidden: delaying its action, passing: the table
sees nothing happen."""


def visibility(event: Event, state: HunterState) -> Visibility:
    """Who may see ``event`` (see the module's docstring for each type)."""
    if event.public and isinstance(event, HunterAttackRolled):
        return owned_by(attack_owner(state, event.actor, event.target))
    return AUDIENCES.of(event) or PUBLIC


def attack_owner(state: HunterState, attacker: str, target: str) -> str:
    """The fighter whose secrets an attack roll carries: a non-hunter attacker's pool, else a
    non-hunter target's Defense, else the attacking hunter's own roll."""
    a, d = state.fighters.get(attacker), state.fighters.get(target)
    if a is not None and a.kind != "hunter":
        return attacker
    if d is not None and d.kind != "hunter":
        return target
    return attacker
