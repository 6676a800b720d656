"""An encounter: a state folded from an append-only log of commands and their events.

``execute`` resolves a command into events on the live state itself (each event
is folded in as it is emitted) and keeps them when the whole command succeeds;
a refused command (ConteurError, dice running short) is undone — the state is
what it was, and the dice consumed nothing. ``undo`` retracts the last command
still in force by appending an undo entry: history is never erased. ``redo`` puts
the last command undone back in force, with its very events (the same dice, so the
same result), as a new command entry that names it (``redoes``). ``replay``
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

from .answers import forget
from .commands import Command, CommandTemplate
from .events import Event, EventList, event_from_dict
from .hidden import (
    HIDDEN_KEYS,
    REVEAL,
    JoinedHidden,
    Revealed,
    ever_hidden,
    hidden_flag,
    hidden_now,
    reveal_events,
    reveal_template,
    split_scenario,
)
from .hidden import stamp as stamp_hidden
from .joining import JOIN
from .registry import ruleset_of
from .ruleset import Resolution, Ruleset
from .scratch import scratch_copy
from .shown import SHOW, is_secret, kept_secret, show_events, without_secret
from .visibility import GM_ONLY

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


def in_force(log: list[LogEntry]) -> list[CommandEntry]:
    """The commands of ``log`` not undone, in order."""
    undone = {e.undoes for e in log if isinstance(e, UndoEntry)}
    return [e for e in log if isinstance(e, CommandEntry) and e.seq not in undone]


def fold(state: Any, entries: list[CommandEntry]) -> Any:
    """``state`` with the events of ``entries`` folded in, in order (changed in place)."""
    forget(state)
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
    hidden_at_start: frozenset[str] = frozenset()
    """The combatants the scenario brings in hidden (``conteur.engine.hidden``)."""
    _hidden: tuple[int, frozenset[str]] = field(default=(-1, frozenset()), repr=False)
    _joined_hidden: bool = field(default=False, repr=False)
    """Whether some command of the log brought a combatant in hidden (``JoinedHidden``)."""

    def __post_init__(self) -> None:
        self._active = in_force(self.log)
        if self.origin is None and not self.log:
            self.origin = scratch_copy(self.state)

    @classmethod
    def start(
        cls,
        scenario: Mapping[str, Any],
        base_dir: Path | None = None,
        *,
        keep_history: bool = True,
        source: str = "",
    ) -> Encounter:
        """A new encounter from a scenario (its ``ruleset`` key names the ruleset).

        Its keys are checked first (``check_scenario``: an unknown one is refused with the
        nearest); every refusal names ``source``, the file it was read from."""
        from .inputs import with_file
        from .scenario import check_scenario

        ruleset = ruleset_of(scenario)
        with with_file(source):
            checked = check_scenario(scenario, ruleset, source)
            clean, hidden = split_scenario(checked)
            origin = ruleset.new_state(clean, base_dir)
        return cls(
            ruleset,
            checked,
            scratch_copy(origin),  # the live state shares nothing with the scenario
            keep_history=keep_history,
            base_dir=base_dir,
            origin=origin,
            hidden_at_start=hidden,
        )

    def execute(self, command: Command, dice: DiceSource) -> EventList:
        """Resolve ``command`` with ``dice``; all of it is applied, or nothing (ConteurError).

        The command works on the live state: when it fails half-way the state
        is restored (when it had emitted events) and the dice go back to where
        they were.
        """
        hidden = self.hidden
        if command.type == REVEAL and hidden:
            return self._append(command, reveal_events(command, hidden))
        if command.type == SHOW:
            in_force = {e.seq for e in self._active}
            return self._append(command, show_events(command, self.log, in_force))
        actor = command.actor
        reveals = actor in hidden and self.ruleset.reveals(command, self.state)
        resolved, newcomer = _joining_hidden(without_secret(command))
        mark = dice.mark()
        ctx = Resolution(self.state, dice, self.ruleset.visibility)
        try:
            self.ruleset.resolve(ctx, resolved)
        except BaseException:
            dice.reset(mark)
            if ctx.events:
                self._restore(len(self._active))
            raise
        events = tuple(ctx.events)
        if is_secret(command):  # the game master's alone, whatever the ruleset says
            events = tuple(kept_secret(events))
        if newcomer is not None:  # it joins hidden: its joining is the GM's alone too
            hidden = hidden | {newcomer}
            events = (*events, JoinedHidden(fighter=newcomer, seen=GM_ONLY))
            self._joined_hidden = True  # only the engine adds it, here (``_append`` looks not)
        if hidden:
            if reveals and actor is not None:
                hidden = hidden - {actor}
                events = (Revealed(fighter=actor, by="action"), *events)
            events = tuple(stamp_hidden(events, hidden, actor))
        return self._append(command, events)

    def _append(self, command: Command, events: tuple[Event, ...]) -> EventList:
        """Log ``command`` with ``events``, already folded into the live state (a
        ``JoinedHidden`` among them is noted by ``execute``, which adds it: no event of a
        ruleset's is one, so the events are not searched for it at every command)."""
        entry = CommandEntry(len(self.log), command, events)
        self.log.append(entry)
        active = self._active
        active.append(entry)
        if self.keep_history and len(active) % SNAPSHOT_EVERY == 0:
            self._snapshots.append((len(active), scratch_copy(self.state)))
        return EventList(events)

    @property
    def ever_hidden(self) -> frozenset[str]:
        """The combatants hidden at some time of the fight (at the start, or joining hidden):
        their players' views are their own (``web.panels.audience``)."""
        if not self._joined_hidden:
            return self.hidden_at_start
        return ever_hidden(self.hidden_at_start, (ev for e in self.log for ev in _events(e)))

    @property
    def hidden(self) -> frozenset[str]:
        """The combatants hidden now: brought in hidden and not revealed by a command in
        force (``conteur.engine.hidden``)."""
        if not self.hidden_at_start and not self._joined_hidden:
            return self.hidden_at_start
        if self._hidden[0] != len(self.log):
            self._hidden = (len(self.log), hidden_now(self.hidden_at_start, self.events()))
        return self._hidden[1]

    def _note_hidden(self, entry: LogEntry) -> None:
        if not self._joined_hidden and any(isinstance(ev, JoinedHidden) for ev in _events(entry)):
            self._joined_hidden = True

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

    def redo(self) -> CommandEntry:
        """Put the last command undone back in force, with the same events (the same dice),
        folded into the live state as another writer's entry would be (``catch_up``); the
        new entry (``redoes`` names the one redone). ConteurError from ``redoable``."""
        target = redoable(self.log)
        entry = CommandEntry(len(self.log), target.command, target.events, redoes=target.seq)
        self.catch_up([entry])
        return entry

    def _restore(self, depth: int) -> None:
        """Make the live state the state after the first ``depth`` commands in force."""
        base_depth, base = 0, self._origin()
        for kept_depth, kept in self._snapshots[::-1]:
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
            self.origin = self.ruleset.new_state(split_scenario(self.scenario)[0], self.base_dir)
        return self.origin

    def rebuild(self) -> Any:
        """The state folded again from the log, from the scenario (equal to ``state``)."""
        clean = split_scenario(self.scenario)[0]
        return fold(self.ruleset.new_state(clean, self.base_dir), self._active)

    @classmethod
    def replay(
        cls, scenario: Mapping[str, Any], log: list[Mapping[str, Any]], base_dir: Path | None = None
    ) -> Encounter:
        """Rebuild an encounter from its scenario and a stored log."""
        enc = cls.start(scenario, base_dir)
        enc.log = [entry_from_dict(e) for e in log]
        for entry in enc.log:
            enc._note_hidden(entry)
        enc._active = in_force(enc.log)
        state = enc.state
        forget(state)
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
            forget(state)
            for event in entry.events:
                event.apply(state)
            self._note_hidden(entry)
            self.log.append(entry)
            active = self._active
            active.append(entry)
            if self.keep_history and len(active) % SNAPSHOT_EVERY == 0:
                self._snapshots.append((len(active), scratch_copy(state)))

    def legal_commands(self, actor: str | None = None) -> list[CommandTemplate]:
        """What ``actor`` (or anyone) may do now (the game master's ``reveal`` included, when
        someone is hidden)."""
        templates = self.ruleset.legal_commands(self.state, actor)
        reveal = reveal_template(self.hidden) if actor is None else None
        return [*templates, reveal] if reveal is not None else templates

    def end_state(self) -> dict[str, dict[str, Any]]:
        """What each character carries out of the fight."""
        return self.ruleset.end_state(self.state)

    def log_dicts(self) -> list[dict[str, Any]]:
        """The whole log, JSON-ready."""
        return [e.to_dict() for e in self.log]


def _joining_hidden(command: Command) -> tuple[Command, str | None]:
    """A ``join`` command without its entry's hidden flag, and the newcomer's id when the
    flag was set (``conteur.engine.hidden``); any other command as it is."""
    entry = command.args.get("combatant") if command.type == JOIN else None
    if not isinstance(entry, Mapping) or not any(k in entry for k in HIDDEN_KEYS):
        return command, None
    clean, flagged = hidden_flag(entry)
    resolved = Command(command.type, command.actor, {**command.args, "combatant": clean})
    fid = clean.get("id")
    return resolved, (str(fid) if flagged and fid else None)


def _events(entry: LogEntry) -> tuple[Event, ...]:
    return entry.events if isinstance(entry, CommandEntry) else ()
