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

from conteur.engine import Encounter
from conteur.engine.encounter import entry_from_dict, in_force
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


__all__ = ["Fault", "locate"]
