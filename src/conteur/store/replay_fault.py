"""Where a backup's log stops replaying, in words: the entry, the command, the event.

``conteur db import`` replays every encounter's log from its scenario before anything is
written (``conteur.store.backup``). When that replay fails on something other than a
rule's refusal — an entry the engine cannot read (an event type these rules do not know, a
field missing), or an event that does not apply to the state the log has reached — the
replay is done again here one entry at a time, so the refusal names the entry of the log
(``log[4]``), its command (« attack » by cid) and the event, rather than quoting Python's
``KeyError: 'Nope'``. Only run after a failure: an import that plays pays nothing for it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from conteur.dice.table import TableDice
from conteur.engine import Encounter
from conteur.engine.encounter import UndoEntry, entry_from_dict, in_force
from conteur.engine.events import event_from_dict, event_types
from conteur.engine.inputs import short
from conteur.i18n import ConteurError, Lang, Msg, t


@dataclass(frozen=True)
class Fault:
    """The field of the encounter that does not replay, and why (a ``Msg``), or the rules'
    own refusal (``error``) when they refused."""

    field: str
    why: Msg | None = None
    error: ConteurError | None = None


class _Said:
    """A command of the log as a reader names it: « attack » by cid, an undo."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        command = raw.get("command")
        self.undo = raw.get("kind") == "undo"
        self.type = command.get("type") if isinstance(command, Mapping) else None
        self.actor = command.get("actor") if isinstance(command, Mapping) else None

    def describe(self, lang: Lang | None = None) -> str:
        if self.undo:
            return t("store.backup.command.undo", lang)
        if not isinstance(self.type, str):
            return t("store.backup.command.unnamed", lang)
        if isinstance(self.actor, str) and self.actor:
            return t(
                "store.backup.command.by", lang, type=short(self.type), actor=short(self.actor)
            )
        return t("store.backup.command.gm", lang, type=short(self.type))


def _unreadable(n: int, raw: Any) -> Fault:
    """Why the log's entry ``n`` (0-based) cannot be read back."""
    field = f"log[{n + 1}].entry"
    if not isinstance(raw, Mapping):
        return Fault(field, Msg("input.reason.not_mapping", value=short(raw)))
    said = _Said(raw)
    needed = ("seq", "undoes") if said.undo else ("seq", "command", "events")
    for name in needed:
        if name not in raw:
            return Fault(f"{field}.{name}", Msg("store.backup.reason.entry_missing", command=said))
    if not said.undo:
        command = raw["command"]
        if not isinstance(command, Mapping) or not isinstance(command.get("type"), str):
            why = Msg("store.backup.reason.entry_unreadable", command=said)
            return Fault(f"{field}.command", why)
        events = raw["events"]
        if not isinstance(events, list):
            return Fault(f"{field}.events", Msg("input.reason.not_list", value=short(events)))
        known = event_types()
        for k, event in enumerate(events):
            where = f"{field}.events[{k + 1}]"
            kind = event.get("type") if isinstance(event, Mapping) else None
            if not isinstance(kind, str) or kind not in known:
                why = Msg("store.backup.reason.event_unknown", command=said, type=short(kind))
                return Fault(f"{where}.type", why)
            cls = known[kind]
            for f in dataclasses.fields(cls):
                required = f.default is dataclasses.MISSING
                if required and f.default_factory is dataclasses.MISSING and f.name not in event:
                    why = Msg("store.backup.reason.event_missing", command=said, type=kind)
                    return Fault(f"{where}.{f.name}", why)
            try:
                event_from_dict(dict(event))
            except Exception:  # a value of the wrong shape (a roll, who saw it)
                why = Msg("store.backup.reason.event_unreadable", command=said, type=kind)
                return Fault(where, why)
    return Fault(field, Msg("store.backup.reason.entry_unreadable", command=said))


def locate(scenario: Mapping[str, Any], log: list[Mapping[str, Any]]) -> Fault:
    """Where ``log`` stops replaying from ``scenario`` (``Encounter.replay`` failed on it)."""
    try:
        enc = Encounter.start(scenario)
    except ConteurError as error:
        return Fault("scenario", error=error)
    except Exception:
        return Fault("scenario", Msg("store.backup.reason.scenario"))
    entries = []
    for n, raw in enumerate(log):
        try:
            entries.append(entry_from_dict(raw))
        except Exception:
            return _unreadable(n, raw)
    position = {entry.seq: n for n, entry in enumerate(entries)}
    state = enc.state
    for entry in in_force(entries):
        n = position[entry.seq]
        for k, event in enumerate(entry.events):
            try:
                event.apply(state)
            except ConteurError as error:
                return Fault(f"log[{n + 1}]", error=error)
            except Exception:
                why = Msg(
                    "store.backup.reason.event_unapplied",
                    command=_Said(log[n]),
                    number=k + 1,
                    type=type(event).__name__,
                )
                return Fault(f"log[{n + 1}].entry.events[{k + 1}]", why)
    return Fault("log", Msg("store.backup.reason.replay"))


def recheck(scenario: Mapping[str, Any], log: list[Mapping[str, Any]]) -> Fault | None:
    """Where ``log``'s events are not what the rules make of its commands (None: nowhere).

    A log that replays may still have been written by hand: an ``ActionTaken`` naming an
    action never declared, a field no event has, a number written as text. Each command is
    resolved again from the scenario, with the dice its own events recorded, and its events
    must be the stored ones, field by field (undos and redos taken as the log has them).
    Only run on a log that replays (``locate`` names what does not)."""
    enc = Encounter.start(scenario)
    for n, raw in enumerate(log):
        said = _Said(raw)
        try:
            entry = entry_from_dict(raw)
            if isinstance(entry, UndoEntry):
                enc.undo()
                continue
            if entry.redoes is not None:
                events = list(enc.redo().events)
            else:
                dice = TableDice([list(r.faces) for ev in entry.events for r in ev.rolls])
                events = list(enc.execute(entry.command, dice))
        except ConteurError as error:
            return Fault(f"log[{n + 1}]", error=error)
        except Exception:  # a command the rules cannot even read as written
            why = Msg("store.backup.reason.command_unresolved", command=said)
            return Fault(f"log[{n + 1}].entry.command", why)
        fault = _differs(f"log[{n + 1}].entry.events", said, raw["events"], events)
        if fault is not None:
            return fault
    return None


def _differs(field: str, said: _Said, stored: list[Any], made: list[Any]) -> Fault | None:
    """The first place where the ``stored`` events differ from those the rules ``made``."""
    for k, (old, new) in enumerate(zip(stored, made, strict=False)):
        where = f"{field}[{k + 1}]"
        fresh = _plain(new.to_dict())
        kind = fresh["type"]
        if old.get("type") != kind:
            found = short(old.get("type"))
            why = Msg("store.backup.reason.event_other", command=said, found=found, expected=kind)
            return Fault(f"{where}.type", why)
        for name in old:
            if name not in fresh:
                return Fault(f"{where}.{name}", Msg("store.backup.reason.event_field", type=kind))
        for name, value in fresh.items():
            given = _plain(old.get(name))
            if given != value and name in old and _other_kind(given, value):
                key = _KIND_REASONS[_kind(value)]
                return Fault(f"{where}.{name}", Msg(key, value=short(given)))
            if given != value:
                why = Msg(
                    "store.backup.reason.event_value",
                    command=said,
                    type=kind,
                    found=short(old.get(name)),
                    expected=short(value),
                )
                return Fault(f"{where}.{name}", why)
    if len(stored) != len(made):
        why = Msg(
            "store.backup.reason.event_count", command=said, found=len(stored), expected=len(made)
        )
        return Fault(field, why)
    return None


_KIND_REASONS = {
    "int": "input.reason.not_int",
    "float": "input.reason.not_number",
    "bool": "input.reason.not_bool",
    "str": "input.reason.not_text",
    "list": "input.reason.not_list",
    "dict": "input.reason.not_mapping",
}


def _kind(value: Any) -> str:
    """What JSON calls ``value``'s type (a whole number stays one when it is a float's)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "int" if float(value).is_integer() else "float"
    return type(value).__name__


def _other_kind(given: Any, wanted: Any) -> bool:
    """Whether ``given`` is not even of the kind the rules give the field (text for a
    number...); two numbers, or a value the rules leave empty, are told by value."""
    kinds = {_kind(given), _kind(wanted)}
    return _kind(wanted) in _KIND_REASONS and len(kinds) == 2 and kinds != {"int", "float"}


def _plain(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples as lists), for comparing."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


__all__ = ["Fault", "locate", "recheck"]
