"""An encounter: a state folded from an append-only log of commands and their events.

``execute`` resolves a command into events on a scratch copy and keeps them
only when the whole command succeeds (a refused command changes nothing and
consumes no dice). ``undo`` retracts the last command still in force by
appending an undo entry: history is never erased. ``redo`` puts the last
command undone back in force, with its very events (the same dice, so the
same result), as a new command entry that names it (``redoes``). ``replay``
rebuilds the state from a stored log.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conteur.dice import DiceSource
from conteur.i18n import ConteurError

from .commands import Command, CommandTemplate
from .events import Event, EventList, event_from_dict
from .registry import ruleset_of
from .ruleset import Resolution, Ruleset


@dataclass(frozen=True)
class CommandEntry:
    """A command that was carried out, with the events it produced."""

    seq: int
    command: Command
    events: tuple[Event, ...]
    redoes: int | None = None
    """The seq of the undone entry this one puts back in force (a redo), or None."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": "command",
            "seq": self.seq,
            "command": self.command.to_dict(),
            "events": [e.to_dict() for e in self.events],
        }
        if self.redoes is not None:
            out["redoes"] = self.redoes
        return out


@dataclass(frozen=True)
class UndoEntry:
    """The retraction of an earlier command (``undoes`` is its seq)."""

    seq: int
    undoes: int

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "undo", "seq": self.seq, "undoes": self.undoes}


LogEntry = CommandEntry | UndoEntry


def entry_from_dict(data: Mapping[str, Any]) -> LogEntry:
    """Read back a stored log entry."""
    if data["kind"] == "undo":
        return UndoEntry(int(data["seq"]), int(data["undoes"]))
    redoes = data.get("redoes")
    return CommandEntry(
        int(data["seq"]),
        Command.from_dict(data["command"]),
        tuple(event_from_dict(e) for e in data["events"]),
        None if redoes is None else int(redoes),
    )


def redoable(log: list[LogEntry]) -> CommandEntry:
    """The entry ``redo`` would put back in force: the last one undone, provided that no new
    command was recorded since (ConteurError ``engine.nothing_to_redo``, or
    ``engine.redo_after_command`` when a new command came after the undo).

    Undos and redos form a stack: an undo pushes the entry it retracts, a redo pops it,
    and a new command (no redo) empties it: what was undone before it is lost to redo.
    """
    by_seq: dict[int, CommandEntry] = {}
    stack: list[int] = []
    lost = False
    for entry in log:
        if isinstance(entry, UndoEntry):
            stack.append(entry.undoes)
        elif entry.redoes is not None:
            if stack:
                stack.pop()
        else:
            lost = lost or bool(stack)
            stack = []
        if isinstance(entry, CommandEntry):
            by_seq[entry.seq] = entry
    if stack:
        return by_seq[stack[-1]]
    if lost:
        raise ConteurError("engine.redo_after_command")
    raise ConteurError("engine.nothing_to_redo")


@dataclass
class Encounter:
    """A fight in progress: its ruleset, its scenario, its log and its current state."""

    ruleset: Ruleset
    scenario: Mapping[str, Any]
    state: Any
    log: list[LogEntry] = field(default_factory=list)
    keep_history: bool = True
    """Keep the state before each command, so that undo needs no refold."""
    base_dir: Path | None = None
    """Where the scenario's files (sheets, tables) are read from, for every refold."""
    _history: list[tuple[int, Any]] = field(default_factory=list, repr=False)

    @classmethod
    def start(
        cls, scenario: Mapping[str, Any], base_dir: Path | None = None, *, keep_history: bool = True
    ) -> Encounter:
        """A new encounter from a scenario (its ``ruleset`` key names the ruleset)."""
        ruleset = ruleset_of(scenario)
        state = ruleset.new_state(scenario, base_dir)
        return cls(ruleset, scenario, state, keep_history=keep_history, base_dir=base_dir)

    def execute(self, command: Command, dice: DiceSource) -> EventList:
        """Resolve ``command`` with ``dice``; all of it is applied, or nothing (ConteurError).

        The command works on a copy of the state: when it fails half-way the
        copy is dropped and the dice go back to where they were.
        """
        mark = dice.mark()
        work = copy.deepcopy(self.state)
        ctx = Resolution(work, dice, self.ruleset.visibility)
        try:
            self.ruleset.resolve(ctx, command)
        except BaseException:
            dice.reset(mark)
            raise
        seq = len(self.log)
        if self.keep_history:
            self._history.append((seq, self.state))
        self.state = work
        entry = CommandEntry(seq, command, tuple(ctx.events))
        self.log.append(entry)
        return EventList(ctx.events)

    def active(self) -> list[CommandEntry]:
        """The commands in force (not undone), in order."""
        undone = {e.undoes for e in self.log if isinstance(e, UndoEntry)}
        return [e for e in self.log if isinstance(e, CommandEntry) and e.seq not in undone]

    def events(self) -> EventList:
        """Every event in force, in order."""
        return EventList(ev for entry in self.active() for ev in entry.events)

    def undo(self) -> CommandEntry:
        """Retract the last command in force (ConteurError ``engine.nothing_to_undo``)."""
        active = self.active()
        if not active:
            raise ConteurError("engine.nothing_to_undo")
        last = active[-1]
        self.log.append(UndoEntry(len(self.log), last.seq))
        if self._history and self._history[-1][0] == last.seq:
            self.state = self._history.pop()[1]
        else:
            self.state = self._fold(active[:-1])
        return last

    def redo(self) -> CommandEntry:
        """Put the last command undone back in force, with the same events (the same dice);
        the new entry (``redoes`` names the one redone). ConteurError from ``redoable``."""
        target = redoable(self.log)
        work = copy.deepcopy(self.state)
        for event in target.events:
            event.apply(work)
        seq = len(self.log)
        if self.keep_history:
            self._history.append((seq, self.state))
        self.state = work
        entry = CommandEntry(seq, target.command, target.events, redoes=target.seq)
        self.log.append(entry)
        return entry

    def _fold(self, entries: list[CommandEntry]) -> Any:
        state = self.ruleset.new_state(self.scenario, self.base_dir)
        for entry in entries:
            for event in entry.events:
                event.apply(state)
        return state

    def rebuild(self) -> Any:
        """The state folded again from the log (equal to ``state``)."""
        return self._fold(self.active())

    @classmethod
    def replay(
        cls, scenario: Mapping[str, Any], log: list[Mapping[str, Any]], base_dir: Path | None = None
    ) -> Encounter:
        """Rebuild an encounter from its scenario and a stored log."""
        enc = cls.start(scenario, base_dir)
        enc.log = [entry_from_dict(e) for e in log]
        enc.state = enc._fold(enc.active())
        enc._history = []
        return enc

    def catch_up(self, entries: list[LogEntry]) -> None:
        """Append entries stored after this log's end by someone else (another process):
        each command's events folded in as ``replay`` does, each undo retracting as
        ``undo`` does. ValueError, the encounter unchanged by that entry, when one does
        not follow on (its seq, or the command an undo names): replay it instead."""
        for entry in entries:
            if entry.seq != len(self.log):
                raise ValueError(f"entry {entry.seq} does not follow {len(self.log) - 1}")
            if isinstance(entry, UndoEntry):
                active = self.active()
                if not active or active[-1].seq != entry.undoes:
                    raise ValueError(f"undo {entry.seq} names {entry.undoes}, not the last")
                self.undo()
                continue
            state = copy.deepcopy(self.state)
            for event in entry.events:
                event.apply(state)
            if self.keep_history:
                self._history.append((entry.seq, self.state))
            self.state = state
            self.log.append(entry)

    def legal_commands(self, actor: str | None = None) -> list[CommandTemplate]:
        """What ``actor`` (or anyone) may do now."""
        return self.ruleset.legal_commands(self.state, actor)

    def end_state(self) -> dict[str, dict[str, Any]]:
        """What each character carries out of the fight."""
        return self.ruleset.end_state(self.state)

    def log_dicts(self) -> list[dict[str, Any]]:
        """The whole log, JSON-ready."""
        return [e.to_dict() for e in self.log]
