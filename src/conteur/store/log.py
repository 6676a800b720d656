"""An encounter's log and its live state: the ``Store``'s commands, undos and redos
(``LogStore``).

Encounters are their log. ``execute`` loads the encounter (the live ``Encounter`` is
cached per store with the seq of its last entry, and brought up to date from the
database when another process wrote newer rows), executes the command and appends its
entry in the same transaction. Two writers racing on one encounter cannot both store
the same ``seq``: the unique ``(encounter_id, seq)`` constraint refuses the second, which
reloads and tries again (on SQLite, writers queue on ``BEGIN IMMEDIATE`` instead). The
log is never updated or deleted from: undo appends a row, and the database refuses
UPDATE and DELETE on it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, defer

from conteur.dice import DiceSource
from conteur.engine import Command, CommandEntry, Encounter, EventList, UndoEntry, entry_from_dict
from conteur.engine.encounter import LogEntry
from conteur.engine.joining import JOIN
from conteur.i18n import ConteurError

from . import changes
from .base import Live, StoreBase
from .models import EncounterCharacter, EncounterRow, LogRow

MAX_ATTEMPTS = 20
"""Tries of one command when other writers keep winning the race for the next seq."""

T = TypeVar("T")

_LAST_SEQ = select(func.max(LogRow.seq))


# ------------------------------------------------------------------ rows


def encounter_row(
    s: Session, encounter_id: int, lock: str | None = None, *, scenario: bool = True
) -> EncounterRow:
    """The encounter's row; ``scenario=False`` leaves its (large) scenario to be read on use."""
    row = None
    if isinstance(encounter_id, int):
        query = select(EncounterRow).where(EncounterRow.id == encounter_id)
        if not scenario:
            query = query.options(defer(EncounterRow.scenario))
        if lock == "share":
            query = query.with_for_update(read=True)
        elif lock == "update":
            query = query.with_for_update()
        row = s.scalar(query)
    if row is None:
        raise ConteurError("store.encounter.unknown", id=encounter_id)
    return row


def open_row(s: Session, encounter_id: int, lock: str, *, scenario: bool = False) -> EncounterRow:
    """The row of an encounter still open, locked (ConteurError ``store.encounter.closed``)."""
    row = encounter_row(s, encounter_id, lock, scenario=scenario)
    if row.status != "open":
        raise ConteurError("store.encounter.closed", name=row.name)
    return row


def last_stored_seq(s: Session, encounter_id: int) -> int:
    """The seq of the encounter's last stored entry (-1 for an empty log)."""
    last = s.scalar(select(func.max(LogRow.seq)).where(LogRow.encounter_id == encounter_id))
    return -1 if last is None else int(last)


def links(s: Session, encounter_id: int) -> dict[str, int]:
    """Combatant id → character id, for the encounter's campaign characters."""
    rows = s.execute(
        select(EncounterCharacter.combatant_id, EncounterCharacter.character_id)
        .where(EncounterCharacter.encounter_id == encounter_id)
        .order_by(EncounterCharacter.id)
    )
    return {cid: char_id for cid, char_id in rows}


def _sync_links(s: Session, encounter_id: int, encounter: Encounter, entry: LogEntry) -> None:
    """Keep the player links in step with the joins in force: the undo of a character's
    joining drops its link (its player's phone leaves the fight), its redo links it again."""
    if isinstance(entry, UndoEntry):
        undone = next((e for e in encounter.log if e.seq == entry.undoes), None)
        if not isinstance(undone, CommandEntry) or undone.command.type != JOIN:
            return
        joined = undone.command.args.get("combatant")
        cid = joined.get("id") if isinstance(joined, Mapping) else None
        if isinstance(cid, str):
            s.execute(
                delete(EncounterCharacter).where(
                    EncounterCharacter.encounter_id == encounter_id,
                    EncounterCharacter.combatant_id == cid,
                )
            )
        return
    if not isinstance(entry, CommandEntry) or entry.redoes is None:
        return
    command = entry.command
    joined = command.args.get("combatant")
    char_id = command.args.get("character")
    if command.type != JOIN or not isinstance(joined, Mapping) or not isinstance(char_id, int):
        return
    cid = str(joined.get("id"))
    if cid not in links(s, encounter_id):
        s.add(EncounterCharacter(encounter_id=encounter_id, character_id=char_id, combatant_id=cid))


def _is_busy(exc: OperationalError) -> bool:
    text = str(exc.orig).lower()
    return "locked" in text or "busy" in text or "deadlock" in text or "serialize" in text


def _entries(s: Session, encounter_id: int, after: int = -1) -> list[dict[str, Any]]:
    """The stored entries after seq ``after``, in order, as ``LogEntry.to_dict`` forms."""
    rows = s.scalars(
        select(LogRow.entry)
        .where(LogRow.encounter_id == encounter_id, LogRow.seq > after)
        .order_by(LogRow.seq)
    )
    return list(rows)


# ------------------------------------------------------------------ the store's log


class LogStore(StoreBase):
    """The ``Store``'s live encounters: read, and changed by commands, undos and redos, each
    entry stored in the transaction that made it."""

    def encounter(self, encounter_id: int) -> Encounter:
        """The live encounter, up to date with the database (read it; change it only by this store).

        Its state changes in place while a command runs: read it with ``read_encounter``
        (under the store's lock) when other threads may be running commands.

        The same object is kept between calls while no other writer adds rows:
        then one query (the last seq) is all it costs.
        """
        with self._lock:
            live = self._live.get(encounter_id)
            if live is not None:
                with self.engine.connect() as conn:  # one plain query, no ORM session
                    last = conn.scalar(_LAST_SEQ.where(LogRow.encounter_id == encounter_id))
                if live.last_seq == (-1 if last is None else int(last)):
                    return live.encounter
            with self._read() as s:
                row = encounter_row(s, encounter_id, scenario=False)  # read only if replayed
                return self._load(s, row).encounter

    def read_encounter(self, encounter_id: int, read: Callable[[Encounter], T]) -> T:
        """``read(encounter)`` on the live, up-to-date encounter while no command of this
        store changes it (the views of a page are built from one consistent state)."""
        with self._lock:
            return read(self.encounter(encounter_id))

    def last_seq(self, encounter_id: int) -> int:
        """The seq of the encounter's last log entry (-1 for an empty log)."""
        with self._read() as s:
            encounter_row(s, encounter_id)
            return last_stored_seq(s, encounter_id)

    def events_since(self, encounter_id: int, seq: int = -1) -> list[LogEntry]:
        """The log entries after ``seq``, in order (all of them for -1): what a live view missed."""
        with self._read() as s:
            encounter_row(s, encounter_id)
            return [entry_from_dict(e) for e in _entries(s, encounter_id, seq)]

    def log(self, encounter_id: int) -> list[dict[str, Any]]:
        """The whole stored log, as JSON-ready dicts (``CommandEntry.to_dict`` forms)."""
        with self._read() as s:
            encounter_row(s, encounter_id)
            return _entries(s, encounter_id)

    def run_command(
        self,
        encounter_id: int,
        command: Command,
        dice: DiceSource,
        *,
        all_dice_used: bool = False,
    ) -> EventList:
        """Execute ``command`` and store it, in one transaction; its events (see ``execute``)."""
        entry = self.execute(encounter_id, command, dice, all_dice_used=all_dice_used)
        return EventList(entry.events)

    def execute(
        self,
        encounter_id: int,
        command: Command,
        dice: DiceSource,
        *,
        all_dice_used: bool = False,
    ) -> CommandEntry:
        """Execute ``command`` and store it, in one transaction; the stored entry (seq, events).

        A refused command (ConteurError: illegal, dice running short) stores
        nothing and consumes no dice. With ``all_dice_used``, typed-in faces the
        command did not use refuse it too (``dice.left_over``). When another
        writer stored the next entry first, the encounter is reloaded and the
        command tried again (with the same dice).
        """
        try:
            json.dumps(command.to_dict())
        except (TypeError, ValueError) as exc:
            raise ConteurError(
                "store.command.not_json", command=command.type, reason=str(exc)
            ) from None

        def step(encounter: Encounter, s: Session) -> None:
            encounter.execute(command, dice)
            check = getattr(dice, "check_all_used", None)
            if all_dice_used and callable(check):
                check()

        entry = self._append_rolled(encounter_id, step, dice)
        assert isinstance(entry, CommandEntry)
        return entry

    def undo(self, encounter_id: int, *, seen: int | None = None) -> UndoEntry:
        """Retract the last command in force by appending an undo entry; that entry.

        ``entry.undoes`` is the seq of the retracted command. ConteurError
        ``engine.nothing_to_undo`` when no command is left. With ``seen`` (the last
        seq the caller showed), ConteurError ``store.encounter.moved`` and nothing
        undone when the log has moved on since (another tab, another writer): the
        check and the undo happen under the same lock and transaction.
        """

        def step(encounter: Encounter, s: Session) -> None:
            if seen is not None and len(encounter.log) - 1 != seen:
                raise ConteurError("store.encounter.moved", seen=seen, last=len(encounter.log) - 1)
            encounter.undo()

        entry = self._append(encounter_id, step)
        assert isinstance(entry, UndoEntry)
        return entry

    def redo(self, encounter_id: int, *, seen: int | None = None) -> CommandEntry:
        """Put the last command undone back in force with its very events (the same dice);
        the new entry (``entry.redoes`` names the one redone). ConteurError from
        ``Encounter.redo``; with ``seen``, ``store.encounter.moved_redo`` and nothing redone
        when the log has moved on since the page was shown (as ``undo``)."""

        def step(encounter: Encounter, s: Session) -> None:
            if seen is not None and len(encounter.log) - 1 != seen:
                raise ConteurError(
                    "store.encounter.moved_redo", seen=seen, last=len(encounter.log) - 1
                )
            encounter.redo()

        entry = self._append(encounter_id, step)
        assert isinstance(entry, CommandEntry)
        return entry

    def _append_rolled(
        self, encounter_id: int, step: Callable[[Encounter, Session], None], dice: DiceSource
    ) -> LogEntry:
        """``_append`` of a step that rolls ``dice``: they are rewound before each new try,
        and when nothing is stored (a refused command consumes no dice)."""
        mark = dice.mark()
        try:
            return self._append(encounter_id, step, lambda: dice.reset(mark))
        except BaseException:
            dice.reset(mark)
            raise

    def _append(
        self,
        encounter_id: int,
        step: Callable[[Encounter, Session], None],
        before_retry: Callable[[], None] = lambda: None,
    ) -> LogEntry:
        """Run ``step`` on the live encounter (and the transaction's session) and store the
        entry it appended, retrying races."""
        with self._lock:
            for attempt in range(MAX_ATTEMPTS):
                live: Live | None = None
                length = 0
                try:
                    with self._write() as s:
                        row = open_row(s, encounter_id, "share")
                        live = self._load(s, row)
                        length = len(live.encounter.log)
                        step(live.encounter, s)
                        entry = live.encounter.log[-1]
                        _sync_links(s, encounter_id, live.encounter, entry)
                        data = entry.to_dict()
                        s.add(
                            LogRow(
                                encounter_id=encounter_id,
                                seq=entry.seq,
                                kind=data["kind"],
                                entry=data,
                            )
                        )
                        changes.announce(s, changes.ENCOUNTER, encounter_id, self.origin)
                    live.last_seq = entry.seq
                    return entry
                except (IntegrityError, OperationalError) as exc:
                    self._live.pop(encounter_id, None)
                    if isinstance(exc, OperationalError) and not _is_busy(exc):
                        raise
                    before_retry()
                    time.sleep(min(0.001 * 2**attempt, 0.05))
                except BaseException:
                    # The live encounter moved on but nothing was stored: forget it.
                    if live is not None and len(live.encounter.log) != length:
                        self._live.pop(encounter_id, None)
                    raise
            raise ConteurError("store.busy")

    def _load(self, s: Session, row: EncounterRow) -> Live:
        """The live encounter of ``row``; when the cache is behind (another process wrote),
        the newer entries are folded into it, else the whole log is replayed."""
        last = last_stored_seq(s, row.id)
        live = self._live.get(row.id)
        if live is not None and live.last_seq == last:
            return live
        if live is not None and live.last_seq < last:
            newer = _entries(s, row.id, live.last_seq)
            try:
                live.encounter.catch_up([entry_from_dict(e) for e in newer])
            except ValueError:
                pass  # not a continuation of what this store saw: replay it all
            else:
                live.last_seq = last
                return live
        entries: list[Mapping[str, Any]] = list(_entries(s, row.id))
        encounter = Encounter.replay(row.scenario, entries)
        live = Live(encounter, last)
        self._live[row.id] = live
        return live
