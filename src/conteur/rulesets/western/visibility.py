"""Who may see each event of a western fight (the line the others read instead is each
event's own ``veiled``, in ``.events``).

Decided per event type when the event is emitted (``WesternRuleset.visibility``):

* **A shooter's roll is its own** (``owned_by``): the skill and its percentage, the
  modifiers (the Storyteller's too), the d100 (``ShotRolled``); a critical's margin, which
  tells the shooter's roll (``LocationShifted``, owned by whoever fired the shot just
  rolled); a knock-out's 1D20 against FORCE and RÉSISTANCE (``KnockOutRolled``); the
  shots a fighter's speed gives it (``VolleyCounted``: the order of combat is public).
  The others read who shot whom with what, and the outcome in words.
* **A wound is the victim's**: where the shot landed with its d100 (``LocationRolled``),
  the damage dice and the PV lost (``DamageDealt``, ``KnockOutHurt``), the rounds it stays
  unconscious (``KnockedOut``, ``StillUnconscious``), the cartridges it loads
  (``Reloaded``). The others read where it was hit, that it is hurt, out or awake again.
* **Creeping up is the sneaker's alone**: the stealth rolls needed and rolled, and an
  approach that ends right behind the victim (no veiled line: the victim must not know);
  an approach that fails is public (the victim saw it coming).
* **Everything the table sees happen is public**: the round and its order, a pass, a run,
  the end of the round, a fighter tied up, reputation (it is, by nature, what everyone
  knows).
* **The Storyteller's commands** (templates with no actor): ``round`` and ``surprise``
  (``RoundStarted``, ``Surprised``: the table sees who is caught unawares), ``bind``
  (``Bound``) and ``duel_won`` (``DuelJudged``, ``ReputationGained``) are all public: none
  carries a note or a reason of the Storyteller's own. A modifier the Storyteller gives a
  shot (``modifier``) is in that shot's roll, owned by the shooter. An event marked
  ``public=False`` is the Storyteller's alone.

A veiled line holds names and words only: no percentage, no face, no PV.
"""

from __future__ import annotations

from conteur.engine import Event
from conteur.engine.visibility import PUBLIC, Audiences, Visibility, owned_by

from .events import (
    Approached,
    DamageDealt,
    KnockedOut,
    KnockOutHurt,
    KnockOutRolled,
    LocationRolled,
    LocationShifted,
    Reloaded,
    ShotRolled,
    StealthNeeded,
    StealthRolled,
    StillUnconscious,
    VolleyCounted,
)
from .state import WesternState

AUDIENCES = Audiences(
    owned={
        **{e.type_name: "attacker" for e in (ShotRolled, KnockOutRolled)},
        **{
            e.type_name: "fighter"
            for e in (VolleyCounted, StillUnconscious, Reloaded, StealthNeeded, StealthRolled)
        },
        **{e.type_name: "target" for e in (LocationRolled, DamageDealt, KnockOutHurt, KnockedOut)},
    },
    decided={
        LocationShifted.type_name: "owned by whoever fired the shot just rolled",
        Approached.type_name: (
            "owned by the sneaker when the approach ends behind its victim; public when it fails"
        ),
    },
)
"""Who sees each event type: a shooter's rolls are its ``attacker``'s, a fighter's shots,
reloads and stealth its ``fighter``'s, a wound its ``target``'s."""


STAYS_HIDDEN = frozenset(("pass", "approach"))
"""What a hidden fighter may do and stay hidden: passing, and creeping up on someone (its
approach is its own until it strikes; a failed one names the sneaker publicly, and that
event still names a hidden fighter: it stays the GM's until the reveal)."""


def visibility(event: Event, state: WesternState) -> Visibility:
    """Who may see ``event`` (see the module's docstring for each type)."""
    if event.public and isinstance(event, LocationShifted):
        return owned_by(last_shooter(state))
    if event.public and isinstance(event, Approached):
        return owned_by(event.fighter) if event.success else PUBLIC
    return AUDIENCES.of(event) or PUBLIC


def last_shooter(state: WesternState) -> str | None:
    """Who fired the shot just rolled: the slot of the order of combat last done."""
    if 0 < state.done <= len(state.slots):
        return state.slots[state.done - 1][0]
    return None
