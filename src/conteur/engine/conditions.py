"""Typed conditions: what the fight has done to a combatant, one frozen record per kind.

A ruleset declares its condition kinds as records derived from ``Condition``, each with
its ``key`` given in the class statement (``class Holding(Fields, key="holding")``: the
name its events and scenario files use) and its JSON form (``json``, read back by
``parse``), and a container derived from ``Conditions`` that lists them (``kinds``). The
rules read a condition by its kind (``conditions.of(Kind)``: the record or None, typed)
and change it only by folding events (``put``, ``drop``, ``set`` from an event's name
and JSON value). An option pack's own kinds are not declared into the container: an
encounter that plays the pack reads them too, by passing its kinds (``set(..., kinds)``,
``read(..., kinds)``).

Readers that want plain data — summaries, JSON output, the tests — read the
container as a mapping from key to JSON form, the very dict a stored encounter has
always shown: a record serialises to the value its event carried, so stored logs
replay unchanged and the JSON form of a state does not move. A name no kind declares,
or a value a kind cannot read, is kept as it came (``Raw``), as before.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, TypeVar, dataclass_transform

from conteur.records import declare_record

C = TypeVar("C", bound="Condition")


@dataclass_transform(frozen_default=True, kw_only_default=True)
@dataclass(frozen=True, kw_only=True)
class Condition:
    """One condition's record (immutable: a change puts a new one).

    Every kind is a frozen record of keyword-only fields: a subclass is made one when it
    is declared (``__init_subclass__``), with no decorator of its own, and names its
    ``key`` there (a shared base, which has none, leaves it out).
    """

    key: ClassVar[str] = ""
    """The condition's name in events, scenario files and JSON."""

    def __init_subclass__(cls, *, key: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if key is not None:
            cls.key = key
        declare_record(cls)  # conditions are many: a frozen dataclass built for less

    def json(self) -> Any:
        """The JSON form: the value an event sets the condition to."""
        raise NotImplementedError

    @classmethod
    def parse(cls: type[C], value: Any) -> C | None:
        """The record a JSON form stands for; None when ``value`` is not one of this kind."""
        raise NotImplementedError

    def __deepcopy__(self, memo: dict[int, Any]) -> Condition:
        return self  # immutable


class Flag(Condition):
    """A condition that is on or off, kept with the value it was given (``true``, or the
    game master's own word): that value's truth says whether it holds."""

    given: Any = True

    def json(self) -> Any:
        return self.given

    @classmethod
    def parse(cls: type[C], value: Any) -> C | None:
        return cls(given=value)  # type: ignore[call-arg]

    def __bool__(self) -> bool:
        return bool(self.given)


def flag(key: str, doc: str) -> type[Flag]:
    """A kind of ``Flag`` named by ``key`` (``on_guard``: the class ``OnGuard``): a
    ruleset's on-or-off conditions, declared one a line."""
    name = "".join(part.title() for part in key.split("_"))
    module = sys._getframe(1).f_globals.get("__name__", __name__)  # as namedtuple does
    return type(name, (Flag,), {"__doc__": doc, "__module__": module}, key=key)


class Raw(Condition):
    """A condition under a name no kind declares, or with a value its kind cannot read:
    kept as it came, shown under its name."""

    name: str
    value: Any

    def json(self) -> Any:
        return self.value


class Fields(Condition):
    """A condition whose JSON form is an object of its fields, in their order; one with
    other keys, or a field of another type (its annotation: ``str``, ``int``, ``bool``,
    optionally ``| None``), is not of this kind."""

    def json(self) -> Any:
        return dict(self.__dict__)

    @classmethod
    def parse(cls: type[C], value: Any) -> C | None:
        checks = _checks(cls)
        if not isinstance(value, Mapping) or len(value) != len(checks):
            return None
        for name, (kind, optional) in checks.items():
            if name not in value:
                return None
            v = value[name]
            if v is None and optional:
                continue
            if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
                return None
        return cls(**value)

    @classmethod
    def read_from(cls: type[C], source: object) -> C:
        """The condition whose fields are ``source``'s attributes of the same names (the event
        that sets it carries them all)."""
        return cls(**{name: getattr(source, name) for name in _checks(cls)})


class Single(Condition):
    """A condition of one field whose JSON form is that field's value (a turn, a
    fighter's id, a number of dice); a value of another type is not of this kind."""

    def json(self) -> Any:
        return next(iter(self.__dict__.values()))

    @classmethod
    def parse(cls: type[C], value: Any) -> C | None:
        ((name, (kind, _)),) = _checks(cls).items()
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return None
        return cls(**{name: value})


_TYPES: dict[str, type] = {"str": str, "int": int, "bool": bool}


_CHECKS: dict[type, dict[str, tuple[type, bool]]] = {}


def _checks(cls: type) -> dict[str, tuple[type, bool]]:
    """Each field of ``cls`` with the type its JSON value must have, and whether None is."""
    known = _CHECKS.get(cls)
    if known is not None:
        return known
    out = {}
    for f in fields(cls):
        parts = [p.strip() for p in str(f.type).split("|")]
        optional = "None" in parts
        names = [p for p in parts if p != "None"]
        if len(names) != 1 or names[0] not in _TYPES:
            raise TypeError(f"{cls.__qualname__}.{f.name}: a condition field is str, int or bool")
        out[f.name] = (_TYPES[names[0]], optional)
    _CHECKS[cls] = out
    return out


@dataclass(eq=False)
class Conditions(Mapping[str, Any]):
    """A combatant's conditions: at most one record per key.

    A ruleset derives its own, naming its kinds in ``kinds``; as a mapping it reads
    as ``{key: JSON form}`` (and equals the dict of those).
    """

    kinds: ClassVar[Mapping[str, type[Condition]]] = {}
    """The ruleset's own kinds, by key: what a fold reads when it is given no other."""
    records: dict[str, Condition] = field(default_factory=dict)

    @classmethod
    def read(
        cls: type[CS],
        values: Mapping[str, Any] | None,
        kinds: Mapping[str, type[Condition]] | None = None,
    ) -> CS:
        """The conditions a scenario entry (or any ``{key: JSON form}``) gives, read with
        ``kinds`` (see ``set``)."""
        out = cls()
        out.update(((str(key), value) for key, value in (values or {}).items()), kinds)
        return out

    def __deepcopy__(self, memo: dict[int, Any]) -> Conditions:
        new = object.__new__(type(self))
        new.records = dict(self.records)  # the records are immutable
        return new

    # ---- the rules' side: typed

    def of(self, kind: type[C]) -> C | None:
        """The condition of ``kind``, or None."""
        found = self.records.get(kind.key)
        if found is None or found.__class__ is kind:
            return found
        return kind.parse(found.json())  # kept raw: read as the kind asks

    def put(self, record: Condition) -> None:
        """Set a condition (in place of the one of its key)."""
        self.records[record.key] = record

    def drop(self, kind: type[Condition] | str) -> None:
        """Clear a condition (nothing when it is not set)."""
        self.records.pop(kind if isinstance(kind, str) else kind.key, None)

    def set(self, key: str, value: Any, kinds: Mapping[str, type[Condition]] | None = None) -> None:
        """Fold an event's ``key: value``: None or false clears it; else the record of its
        kind among ``kinds`` (the encounter's, its packs' with them; by default the
        ruleset's own), or the value kept raw."""
        if value is None or value is False:
            self.records.pop(key, None)
            return
        kind = (self.kinds if kinds is None else kinds).get(key)
        record = kind.parse(value) if kind is not None else None
        self.records[key] = record if record is not None else Raw(name=key, value=value)

    def update(
        self,
        values: Iterable[tuple[str, Any]],
        kinds: Mapping[str, type[Condition]] | None = None,
    ) -> None:
        """Fold each ``key: value`` (``set``)."""
        for key, value in values:
            self.set(key, value, kinds)

    # ---- the readers' side: {key: JSON form}

    def __getitem__(self, key: str) -> Any:
        return self.records[key].json()

    def __contains__(self, key: object) -> bool:
        return key in self.records

    def __iter__(self) -> Iterator[str]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def json(self) -> dict[str, Any]:
        """Every condition's JSON form, by key."""
        return {k: r.json() for k, r in self.records.items()}


CS = TypeVar("CS", bound=Conditions)

__all__ = ["Condition", "Conditions", "Fields", "Flag", "Raw", "Single", "flag"]
