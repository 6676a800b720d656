"""An encounter: a state folded from an append-only log of commands and their events.

``execute`` resolves a command into events on the live state itself (each event
is folded in as it is emitted) and keeps them when the whole command succeeds;
a refused command (ConteurError, dice running short) is undone — the state is
what it was, and the dice consumed nothing. ``undo`` retracts the last command
still in force by appending an undo entry: history is never erased. ``replay``
rebuilds the state from a stored log.

Nothing is copied before a command. The state changes only by folding events
(the rulesets' contract: rule code reads the state and emits events), so the
state before any command in force is its events folded again, from a copy of
the nearest *snapshot*: the state at the start (``origin``), and, with
``keep_history``, a copy of the state every ``SNAPSHOT_EVERY`` commands in force.
Undoing a command, or a refused command that had already emitted events,
refolds at most ``SNAPSHOT_EVERY - 1`` commands' events into such a copy (a refused
command that emitted nothing changed nothing: the state stays as it is).

``state`` is the live state: it changes in place at each command, and stays the
same object for the encounter's life (undo and a refusal put the restored
contents back into it). Whoever keeps something of it across commands — a view,
the odds of an attack computed later — copies it first
(``conteur.engine.scratch.scratch_copy``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conteur.dice import DiceSource
from conteur.i18n import ConteurError
from conteur.records import lean

from .commands import Command, CommandTemplate
from .events import Event, EventList, event_from_dict
from .registry import ruleset_of
from .ruleset import Resolution, Ruleset
from .scratch import scratch_copy

SNAPSHOT_EVERY = 16
"""Commands in force between two kept copies of the state (``keep_history``): an undo
or a refused command refolds fewer than this many commands' events."""


@lean
@dataclass(frozen=True)
class CommandEntry:
    """A command that was carried out, with the events it produced."""

    seq: int
    command: Command
    events: tuple[Event, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "command",
            "seq": self.seq,
            "command": self.command.to_dict(),
            "events": [e.to_dict() for e in self.events],
        }


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
    return CommandEntry(
        int(data["seq"]),
        Command.from_dict(data["command"]),
        tuple(event_from_dict(e) for e in data["events"]),
    )


def in_force(log: list[LogEntry]) -> list[CommandEntry]:
    """The commands of ``log`` not undone, in order."""
    undone = {e.undoes for e in log if isinstance(e, UndoEntry)}
    return [e for e in log if isinstance(e, CommandEntry) and e.seq not in undone]


def fold(state: Any, entries: list[CommandEntry]) -> Any:
    """``state`` with the events of ``entries`` folded in, in order (changed in place)."""
    for entry in entries:
        for event in entry.events:
            event.apply(state)
    return state


@dataclass
class Encounter:
    """A fight in progress: its ruleset, its scenario, its log and its current state.

    ``state`` is the live state, changed in place by each command (see the module's
    text). An encounter built directly owns the ``state`` it is given, and ``log``
    must be what led to it from ``origin``.
    """

    ruleset: Ruleset
    scenario: Mapping[str, Any]
    state: Any
    log: list[LogEntry] = field(default_factory=list)
    keep_history: bool = True
    """Keep a copy of the state every ``SNAPSHOT_EVERY`` commands in force, so that undo
    refolds a few commands; without it, undo (and a refused command that had emitted
    events) refolds from the start."""
    base_dir: Path | None = None
    """Where the scenario's files (sheets, tables) are read from, for every refold."""
    origin: Any = None
    """The state before the log's first command, never changed (refolds start from a copy).
    None: a copy of ``state`` when the log is empty, else the scenario's new state."""
    _active: list[CommandEntry] = field(default_factory=list, repr=False)
    _snapshots: list[tuple[int, Any]] = field(default_factory=list, repr=False)
    """(commands in force, a copy of the state after them), oldest first."""

    def __post_init__(self) -> None:
        self._active = in_force(self.log)
        if self.origin is None and not self.log:
            self.origin = scratch_copy(self.state)

    @classmethod
    def start(
        cls, scenario: Mapping[str, Any], base_dir: Path | None = None, *, keep_history: bool = True
    ) -> Encounter:
        """A new encounter from a scenario (its ``ruleset`` key names the ruleset)."""
        ruleset = ruleset_of(scenario)
        origin = ruleset.new_state(scenario, base_dir)
        return cls(
            ruleset,
            scenario,
            scratch_copy(origin),  # the live state shares nothing with the scenario
            keep_history=keep_history,
            base_dir=base_dir,
            origin=origin,
        )

    def execute(self, command: Command, dice: DiceSource) -> EventList:
        """Resolve ``command`` with ``dice``; all of it is applied, or nothing (ConteurError).

        The command works on the live state: when it fails half-way the state
        is restored (when it had emitted events) and the dice go back to where
        they were.
        """
        mark = dice.mark()
        ctx = Resolution(self.state, dice, self.ruleset.visibility)
        try:
            self.ruleset.resolve(ctx, command)
        except BaseException:
            dice.reset(mark)
            if ctx.events:
                self._restore(len(self._active))
            raise
        events = tuple(ctx.events)
        entry = CommandEntry(len(self.log), command, events)
        self.log.append(entry)
        active = self._active
        active.append(entry)
        if self.keep_history and len(active) % SNAPSHOT_EVERY == 0:
            self._snapshots.append((len(active), scratch_copy(self.state)))
        return EventList(events)

    def active(self) -> list[CommandEntry]:
        """The commands in force (not undone), in order."""
        return list(self._active)

    def events(self) -> EventList:
        """Every event in force, in order."""
        return EventList(ev for entry in self._active for ev in entry.events)

    def undo(self) -> CommandEntry:
        """Retract the last command in force (ConteurError ``engine.nothing_to_undo``)."""
        if not self._active:
            raise ConteurError("engine.nothing_to_undo")
        last = self._active.pop()
        self.log.append(UndoEntry(len(self.log), last.seq))
        depth = len(self._active)
        while self._snapshots and self._snapshots[-1][0] > depth:
            self._snapshots.pop()
        self._restore(depth)
        return last

    def _restore(self, depth: int) -> None:
        """Make the live state the state after the first ``depth`` commands in force."""
        base_depth, base = 0, self._origin()
        for kept_depth, kept in reversed(self._snapshots):
            if kept_depth <= depth:
                base_depth, base = kept_depth, kept
                break
        state = fold(scratch_copy(base), self._active[base_depth:depth])
        live = self.state
        if type(state) is type(live) and hasattr(live, "__dict__"):
            live.__dict__.clear()
            live.__dict__.update(state.__dict__)  # the same object, its contents restored
        else:
            self.state = state

    def _origin(self) -> Any:
        if self.origin is None:
            self.origin = self.ruleset.new_state(self.scenario, self.base_dir)
        return self.origin

    def rebuild(self) -> Any:
        """The state folded again from the log, from the scenario (equal to ``state``)."""
        return fold(self.ruleset.new_state(self.scenario, self.base_dir), self._active)

    @classmethod
    def replay(
        cls, scenario: Mapping[str, Any], log: list[Mapping[str, Any]], base_dir: Path | None = None
    ) -> Encounter:
        """Rebuild an encounter from its scenario and a stored log."""
        enc = cls.start(scenario, base_dir)
        enc.log = [entry_from_dict(e) for e in log]
        enc._active = in_force(enc.log)
        state = enc.state
        for depth, entry in enumerate(enc._active, start=1):
            for event in entry.events:
                event.apply(state)
            if enc.keep_history and depth % SNAPSHOT_EVERY == 0:
                enc._snapshots.append((depth, scratch_copy(state)))
        return enc

    def catch_up(self, entries: list[LogEntry]) -> None:
        """Append entries stored after this log's end by someone else (another process):
        each command's events folded into the live state as ``replay`` does, each undo
        retracting as ``undo`` does. ValueError, the encounter unchanged by that entry, when
        one does not follow on (its seq, or the command an undo names): replay it instead."""
        for entry in entries:
            if entry.seq != len(self.log):
                raise ValueError(f"entry {entry.seq} does not follow {len(self.log) - 1}")
            if isinstance(entry, UndoEntry):
                active = self._active
                if not active or active[-1].seq != entry.undoes:
                    raise ValueError(f"undo {entry.seq} names {entry.undoes}, not the last")
                self.undo()
                continue
            state = self.state
            for event in entry.events:
                event.apply(state)
            self.log.append(entry)
            active = self._active
            active.append(entry)
            if self.keep_history and len(active) % SNAPSHOT_EVERY == 0:
                self._snapshots.append((len(active), scratch_copy(state)))

    def legal_commands(self, actor: str | None = None) -> list[CommandTemplate]:
        """What ``actor`` (or anyone) may do now."""
        return self.ruleset.legal_commands(self.state, actor)

    def end_state(self) -> dict[str, dict[str, Any]]:
        """What each character carries out of the fight."""
        return self.ruleset.end_state(self.state)

    def log_dicts(self) -> list[dict[str, Any]]:
        """The whole log, JSON-ready."""
        return [e.to_dict() for e in self.log]
