"""Who may see each event of a vtm fight (``VtmRuleset.visibility``, stamped when emitted).

* **The game master's alone**: his notes, his modifiers and their reasons, the
  complications he picks for a botch (V-ATK-5), the maneuvers he approves
  (V-CC-0), what he sets by hand with a reason (``gm_override``); and a roll that
  shows two fighters' dice at once (breaking free, V-CC-7, V-CC-8), which the
  players read veiled.
* **Owned by one fighter** (its player and the game master see it; so does every
  player when that fighter is a player character, rolling in front of the table):
  its initiative die, attack pool and dice, defence, damage and soak rolls, its
  exact levels lost or healed, its Willpower, blood and rounds spent.
* **Public**: everything else — what was declared, who moved, who missed,
  conditions, locks, the order of initiative.

A player who may not see an owned or GM-only event reads its ``veiled`` line
instead: « Sam attaque Jack (coup de poing) », « Jack est touché (létal) »,
« Bill est blessé ». A damage roll names its target only, so the rule that rolls
it stamps its owner, the attacker (``strike.py``); a stamp the rules made is kept.

Option packs add their events with ``owned`` and ``gm_only``; an event with dice
that no one listed is owned by the fighter it names first (``fighter``,
``attacker``, ``defender``, ``target``), so a new roll is never public by mistake.
"""

from __future__ import annotations

from conteur.engine import Event
from conteur.engine.visibility import GM_ONLY, PUBLIC, Audiences, Visibility, owned_by

OWNER_FIELDS = ("fighter", "attacker", "defender", "target")
"""The fields that may name the fighter an event belongs to, in the order they are tried."""

OWNED: dict[str, str] = {
    "InitiativeRolled": "fighter",
    "AttackRolled": "attacker",
    "DefenceRolled": "defender",
    "SoakRolled": "target",
    "Burned": "target",
    "DamageTaken": "target",
    "Healed": "target",
    "RollMade": "fighter",
    "WillpowerSpent": "fighter",
    "BloodSpent": "fighter",
    "AmmoChanged": "fighter",
    "GrappleSqueezed": "attacker",
    "Disarmed": "attacker",
    "SprayShared": "attacker",
}
"""Event types owned by one fighter, and the field that names it."""

GM_ONLY_EVENTS: set[str] = {
    "GmNote",
    "ModifierAdded",
    "ModifiersUsed",
    "ComplicationChosen",
    "ManeuverDefined",
    "GmOverride",
    "BreakFreeRolled",
}
"""Event types only the game master sees."""


def owned(field: str, *types: str) -> None:
    """Declare event types (by name) owned by the fighter their ``field`` names."""
    for name in types:
        OWNED[name] = field


def gm_only(*types: str) -> None:
    """Declare event types (by name) that only the game master sees."""
    GM_ONLY_EVENTS.update(types)


STAYS_HIDDEN = frozenset(("declare", "pass", "ambush"))
"""What a hidden fighter may do and stay hidden: declaring (the declaration is not yet the
deed: the table learns of it when the action is taken), passing, preparing an ambush."""


STAMPED: dict[str, str] = {
    "DamageRolled": (
        "owned by the fighter who rolls the damage (the attacker; a parrying defender whose "
        "weapon strikes back), stamped by the rule that rolls it"
    ),
}
"""Event types whose owner the emitting rule stamps (the event names only the target)."""


def audiences() -> Audiences:
    """The table of who sees each event type, option packs' types included."""
    return Audiences(
        gm=frozenset(GM_ONLY_EVENTS),
        owned=dict(OWNED),
        decided=dict(STAMPED),
        fallback=(
            "public; with dice, owned by the first of "
            + ", ".join(f"`{f}`" for f in OWNER_FIELDS)
            + " it names (game master only when none)"
        ),
    )


def visibility(event: Event) -> Visibility:
    """Who may see ``event``: the game master, one fighter (and the GM), or everyone."""
    name = type(event).type_name
    if not event.public or name in GM_ONLY_EVENTS:
        return GM_ONLY
    if event.seen is not PUBLIC and event.seen != PUBLIC:
        return event.seen  # the rule that emitted it knew whose it is (a damage roll's)
    field = OWNED.get(name)
    if field is None and event.rolls:
        field = next((f for f in OWNER_FIELDS if isinstance(getattr(event, f, None), str)), None)
        if field is None:
            return GM_ONLY
    if field is None:
        return PUBLIC
    owner = getattr(event, field, None)
    return owned_by(owner if isinstance(owner, str) else None)


__all__ = [
    "GM_ONLY_EVENTS",
    "OWNED",
    "STAMPED",
    "STAYS_HIDDEN",
    "audiences",
    "gm_only",
    "owned",
    "visibility",
]
