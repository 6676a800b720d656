"""Events: immutable, JSON-serialisable facts that change an encounter's state.

Every event names the rule ids it applied and carries the dice records it
used. Rulesets subclass ``Event``; subclasses are registered by class name so
a stored log can be read back (``event_from_dict``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, TypeVar, dataclass_transform

from conteur.dice import RollRecord, record_from_dict
from conteur.i18n import Lang, Msg, catalog, signed, t
from conteur.records import declare_record, lean_on_first_use

from .visibility import PUBLIC, Visibility

E = TypeVar("E", bound="Event")

_EVENT_TYPES: dict[str, type[Event]] = {}

ID_FIELDS = frozenset({"fighter", "attacker", "target", "defender", "actor", "other", "holder"})
"""Event fields that hold a combatant id (shown as the combatant's name in logs)."""

IDS_FIELDS = frozenset({"targets"})
"""Event fields that hold several combatant ids (shown as their names, one after another)."""

WORD_FIELDS = frozenset(
    {
        "damage_type",
        "kind",
        "maneuver",
        "reason",
        "purpose",
        "condition",
        "via",
        "context",
        "outcome",
        "weapon",
        "armour",
        "range",
        "band",
        "location",
    }
)
"""Event fields holding a word with a translation ``word.<value>`` in the catalog."""


@dataclass_transform(frozen_default=True, kw_only_default=True)
@dataclasses.dataclass(frozen=True, kw_only=True)
class Event:
    """Base of every event: the rule ids it applied and the dice it used.

    Every event type is a frozen record of keyword-only fields: a subclass is made one
    when it is declared (``__init_subclass__``), with no decorator of its own; a base
    (``base=True``) that declares fields is a ``dataclasses.dataclass`` itself.

    ``public`` is False for what only the game master may see (a hidden roll).
    ``seen`` is who may see it, stamped by the ruleset when the event is emitted
    (``Ruleset.visibility``); readers filter with ``conteur.engine.visibility.Viewer``.
    """

    rules: tuple[str, ...] = ()
    rolls: tuple[RollRecord[Any], ...] = ()
    public: bool = True
    seen: Visibility = PUBLIC

    type_name: ClassVar[str] = "Event"
    quiet: ClassVar[bool] = False
    """Bookkeeping events (a cursor moving) that logs may leave out."""
    heading: ClassVar[bool] = False
    """Events that open a new stage of play (a turn): printed logs show them as headers."""
    veil: ClassVar[str | None] = None
    """The catalog key of the line read instead of this event by a reader who may not see it
    (``veiled``), filled with its fields as in the log; None: nothing at all."""

    def __init_subclass__(cls, *, base: bool = False, **kwargs: Any) -> None:
        """Register the event type by its class name; ``base=True``: a base that event types
        share (fields, how they read or fold), never emitted nor read back itself."""
        super().__init_subclass__(**kwargs)
        if base:
            lean_on_first_use(cls)  # events are many: a lean __init__ (conteur/records.py)
            return
        declare_record(cls)  # a frozen dataclass built for less (conteur/records.py)
        cls.type_name = cls.__name__
        _EVENT_TYPES[cls.__name__] = cls

    def apply(self, state: Any) -> None:
        """Fold this event into ``state`` (events that only inform change nothing)."""

    def params(self, names: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The fields offered to the log message (fighter ids replaced by names)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if names and f.name in ID_FIELDS and isinstance(value, str):
                value = names.get(value, value)
            elif f.name in IDS_FIELDS and isinstance(value, tuple):
                value = ", ".join((names or {}).get(i, i) for i in value)
            elif f.name in WORD_FIELDS and isinstance(value, str) and f"word.{value}" in catalog():
                value = Msg(f"word.{value}")
            out[f.name] = value
        return out

    def describe(self, lang: Lang | None = None, names: Mapping[str, str] | None = None) -> str:
        """One line of prose for the log, in ``lang``, citing the rule ids applied.

        The text is the catalog message ``ev.<EventType>`` filled with the fields.
        """
        text = t(f"ev.{self.type_name}", lang, **self.params(names))
        return f"{text} ({', '.join(self.rules)})" if self.rules else text

    def veiled(
        self, lang: Lang | None = None, names: Mapping[str, str] | None = None
    ) -> str | None:
        """What a reader who may not see this event reads instead (None: nothing at all).

        An NPC's attack roll, say, is the GM's; the players read "Sam attacks Jack: hit":
        the message ``veil_key()`` filled with the fields as in the log (names for ids,
        words for kinds), which say no pool and no faces.
        """
        key = self.veil_key()
        return None if key is None else t(key, lang, **self.params(names))

    def veil_key(self) -> str | None:
        """The key of this event's veiled line: ``veil``, unless the line depends on the
        event's fields (a defence that stopped the attack or not)."""
        return self.veil

    def without(self, hidden: frozenset[str]) -> Event | None:
        """This event as told to readers who may not know of the ``hidden`` combatants it
        names (``conteur.engine.hidden``): the order of initiative without them, say. None
        (the default): nothing of it reaches them."""
        return None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form, read back by ``event_from_dict``."""
        out: dict[str, Any] = {"type": self.type_name}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "rolls":
                out["rolls"] = [r.to_dict() for r in value]
            elif f.name == "seen":
                out["seen"] = value.to_dict()
            else:
                out[f.name] = _to_json(value)
        return out


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _to_json(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    return value


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event stored by ``Event.to_dict`` (lists become tuples)."""
    cls = _EVENT_TYPES[data["type"]]
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            continue
        if f.name == "rolls":
            kwargs["rolls"] = tuple(record_from_dict(r) for r in data["rolls"])
        elif f.name == "seen":
            kwargs["seen"] = Visibility.from_dict(data["seen"])
        else:
            kwargs[f.name] = _from_json(data[f.name])
    return cls(**kwargs)


def event_types() -> dict[str, type[Event]]:
    """Every registered event class, by name."""
    return dict(_EVENT_TYPES)


class Modifiers:
    """Modifiers of a roll (``(("cover_good", 2), ("wounded", -1))``), in the reader's language.

    Each label is the catalog word ``word.<label>`` when there is one, else the
    label as written (a game master's reason).
    """

    def __init__(self, items: Iterable[tuple[str, int]]) -> None:
        self.items = tuple(items)

    def describe(self, lang: Lang | None = None) -> str:
        if not self.items:
            return ""
        shown = [
            f"{modifier_label(what, lang)} {signed(amount, lang)}" for what, amount in self.items
        ]
        return f" [{', '.join(shown)}]"


def modifier_label(what: str, lang: Lang | None = None) -> str:
    """The word for one modifier label, in ``lang``."""
    key = f"word.{what}"
    return t(key, lang) if key in catalog() else what.replace("_", " ")


class EventList(Sequence[Event]):
    """The events of one command, with helpers to find them by type."""

    def __init__(self, events: Iterable[Event]) -> None:
        self._events = tuple(events)

    def __getitem__(self, i: Any) -> Any:
        return self._events[i]

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    def of(self, cls: type[E]) -> list[E]:
        """Every event of type ``cls``."""
        return [e for e in self._events if isinstance(e, cls)]

    def one(self, cls: type[E]) -> E:
        """The single event of type ``cls`` (AssertionError when not exactly one)."""
        found = self.of(cls)
        assert len(found) == 1, f"expected one {cls.__name__}, found {len(found)}"
        return found[0]

    def rules(self) -> set[str]:
        """Every rule id the events applied."""
        return {r for e in self._events for r in e.rules}

    def __repr__(self) -> str:
        return f"EventList({list(self._events)!r})"
