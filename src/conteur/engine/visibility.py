"""Who may see an event: everyone, the game master only, or one combatant's player and the GM.

The ruleset decides each event's ``Visibility`` when it is emitted (``Ruleset.visibility``);
the stored log keeps every event, and each reader filters with its ``Viewer``.

An event *owned* by a combatant (its dice, its pool, its exact health) is seen by the
game master and by that combatant's player; when that combatant is itself played by a
player (a player character rolls in front of the table) the other players see it too.
Owned by a combatant no player plays — an NPC — it is the game master's alone, and the
others read the event's veiled line instead (``Event.veiled``: "Sam attacks Jack: hit").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

if TYPE_CHECKING:
    from .events import Event

Audience = Literal["public", "gm", "owner", "secret"]
"""``secret``: the game master's alone, and the others read nothing of it, not even a
veiled line (a command he made secret: ``conteur.engine.shown``)."""


@dataclass(frozen=True, repr=False)
class Visibility:
    """The audience of one event; ``owner`` is the combatant an ``owner`` event belongs to."""

    audience: Audience = "public"
    owner: str | None = None
    hides: tuple[str, ...] = ()
    """The hidden combatants the event names (``conteur.engine.hidden``): while one is named
    here, no player reads the event, not even its veiled line — but the player of the one
    hidden combatant it names (their own phone shows what their character does); the GM
    reads it as usual."""

    def __repr__(self) -> str:
        hides = f", hides={self.hides!r}" if self.hides else ""
        return f"Visibility(audience={self.audience!r}, owner={self.owner!r}{hides})"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"audience": ..., "owner": ...}`` (and ``hides`` when it names one)."""
        out: dict[str, Any] = {"audience": self.audience, "owner": self.owner}
        if self.hides:
            out["hides"] = list(self.hides)
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Visibility:
        """Read back ``to_dict`` (a missing or malformed value is public)."""
        if isinstance(data, Visibility):
            return data
        if not isinstance(data, dict):
            return PUBLIC
        audience = data.get("audience", "public")
        if audience not in ("public", "gm", "owner", "secret"):
            audience = "public"
        owner = data.get("owner")
        hides = data.get("hides") or ()
        return cls(
            audience,
            str(owner) if owner is not None else None,
            tuple(str(h) for h in hides) if isinstance(hides, list | tuple) else (),
        )


PUBLIC = Visibility("public")
GM_ONLY = Visibility("gm")
SECRET = Visibility("secret")


def owned_by(fighter: str | None) -> Visibility:
    """The visibility of what belongs to ``fighter`` (GM-only when no one is named): one
    shared record per fighter (records are frozen), so that stamping an event compares
    by identity first."""
    if not fighter:
        return GM_ONLY
    seen = _OWNED.get(fighter)
    if seen is None:
        if len(_OWNED) > 4096:  # a long-running server sees many fighters: stay bounded
            _OWNED.clear()
        seen = _OWNED[fighter] = Visibility("owner", fighter)
    return seen


_OWNED: dict[str, Visibility] = {}


@dataclass(frozen=True)
class Audiences:
    """Who sees each event type, as a ruleset declares it: the table its ``visibility``
    reads first, and the column of ``docs/events.md``.

    Types are named by their ``type_name``. ``gm``: the game master's alone; ``owned``:
    owned by the combatant the given field names; ``decided``: decided from the event's
    content or the state when it is emitted, with a sentence (English, for the docs) saying
    how. An event marked ``public=False`` is the game master's whatever its type; a type
    the table does not name falls to ``fallback`` (a sentence; empty: public).
    """

    gm: frozenset[str] = frozenset()
    owned: Mapping[str, str] = field(default_factory=dict)
    decided: Mapping[str, str] = field(default_factory=dict)
    fallback: str = ""

    def of(self, event: Event) -> Visibility | None:
        """The visibility the table gives ``event``; None when it is ``decided`` or unnamed."""
        name = event.type_name
        if not event.public or name in self.gm:
            return GM_ONLY
        owner_field = self.owned.get(name)
        if owner_field is None:
            return None
        owner = getattr(event, owner_field, None)
        return owned_by(owner if isinstance(owner, str) else None)

    def describe(self, type_name: str) -> str:
        """How the table decides an event type's visibility, for the docs (English)."""
        if type_name in self.gm:
            return "game master only"
        if type_name in self.owned:
            return f"owned by `{self.owned[type_name]}`"
        if type_name in self.decided:
            return f"decided: {self.decided[type_name]}"
        return self.fallback or "public"


@dataclass(frozen=True)
class Viewer:
    """Who reads: the game master, or the player of ``character``, at a table where
    ``players`` are the combatants that players play."""

    gm: bool = False
    character: str | None = None
    players: frozenset[str] = frozenset()
    npc_dice: bool = False
    """The campaign shows the players the dice NPCs roll (``Privacy.npc_dice``)."""
    npc_labels: bool = False
    """The campaign names NPCs to the players by generic labels (``Privacy.npc_names``)."""

    def sees(self, visibility: Visibility) -> bool:
        """Whether this reader may see an event of ``visibility``."""
        if self.gm:
            return True
        if visibility.hides and set(visibility.hides) != {self.character}:
            return False  # a hidden one's player knows what it does; no one else does
        if visibility.audience == "public":
            return True
        if visibility.audience in ("gm", "secret"):
            return False
        owner = visibility.owner
        return owner is not None and (owner == self.character or owner in self.players)

    def sees_roll(self, visibility: Visibility) -> bool:
        """Whether this reader may see a roll of ``visibility`` (an event with dice): as
        ``sees``, and an NPC's own roll too where the campaign shows NPCs' dice."""
        if self.sees(visibility):
            return True
        return self.npc_dice and visibility.audience == "owner" and not visibility.hides


@dataclass(frozen=True)
class Privacy:
    """What the players of one campaign see, as its game master chose (stored per campaign:
    ``campaigns.privacy``); the defaults are the tracker's own behaviour.

    ``ally_health``: ``words`` (the other player characters' health as the ruleset's words)
    or ``exact`` (their boxes or points, as each player reads their own); ``npc_names``:
    ``names`` or ``labels`` (every combatant no player plays read as « Adversaire 1 »,
    "Opponent 1"...: the GM's names stay his); ``npc_dice``: whether the public log shows
    the dice an NPC rolled (its rolls' own lines, not its exact health).
    """

    ally_health: str = "words"
    npc_names: str = "names"
    npc_dice: bool = False

    CHOICES: ClassVar[dict[str, tuple[Any, ...]]] = {
        "ally_health": ("words", "exact"),
        "npc_names": ("names", "labels"),
        "npc_dice": (False, True),
    }

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, every choice named."""
        return {
            "ally_health": self.ally_health,
            "npc_names": self.npc_names,
            "npc_dice": self.npc_dice,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Privacy:
        """Read the stored choices (missing: the default). ConteurError ``privacy.unknown``
        or ``privacy.bad`` naming the field for anything else."""
        from conteur.i18n import ConteurError

        values = dict(data or {})
        for key, value in values.items():
            if key not in cls.CHOICES:
                raise ConteurError("privacy.unknown", field=key, known=", ".join(cls.CHOICES))
            allowed = cls.CHOICES[key]
            if value not in allowed or type(value) is not type(allowed[0]):
                shown = ", ".join(str(a).lower() for a in allowed)
                raise ConteurError("privacy.bad", field=key, value=value, allowed=shown)
        return cls(**values)


DEFAULT_PRIVACY = Privacy()


GM = Viewer(gm=True)
"""The game master: sees every event."""


def player(character: str | None, players: frozenset[str] | None = None) -> Viewer:
    """The player of ``character`` (None: a spectator), ``players`` the table's characters."""
    table = frozenset(players or ())
    if character is not None:
        table |= {character}
    return Viewer(gm=False, character=character, players=table)


__all__ = [
    "DEFAULT_PRIVACY",
    "GM",
    "GM_ONLY",
    "PUBLIC",
    "SECRET",
    "Audience",
    "Audiences",
    "Privacy",
    "Viewer",
    "Visibility",
    "owned_by",
    "player",
]
