"""Actions waiting for the table's dice (``PendingStore``).

When the players roll their own dice, an action is kept waiting (``pending_actions``, at
most one per encounter) while the faces are entered roll by roll; it runs, and its row
goes, in one transaction once its last roll is in. It is not part of the log: a command
that lands after it began makes it stale, and it can then only be dropped.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from conteur.dice import DiceSource
from conteur.engine import Command, CommandEntry, Encounter
from conteur.i18n import ConteurError

from .log import LogStore, encounter_row, last_stored_seq, open_row
from .models import PendingAction, now


@dataclass(frozen=True, kw_only=True)
class PendingInfo:
    """An action waiting for the table's dice (see ``Store.begin_pending``)."""

    encounter_id: int
    command: Command
    rolls: tuple[tuple[int, ...], ...]
    """The faces entered so far, one tuple per roll in the rules' order."""
    base_seq: int
    step: int
    stale: bool
    """Another command landed after it began: it can only be dropped."""


def _waiting(s: Session, encounter_id: int) -> PendingAction | None:
    return s.scalar(select(PendingAction).where(PendingAction.encounter_id == encounter_id))


def _pending_row(s: Session, encounter_id: int, step: int) -> PendingAction:
    row = _waiting(s, encounter_id)
    if row is None:
        raise ConteurError("store.pending.none")
    if row.step != step:
        raise ConteurError("store.pending.moved")
    return row


def _pending_info(row: PendingAction, last_seq: int) -> PendingInfo:
    return PendingInfo(
        encounter_id=row.encounter_id,
        command=Command.from_dict(dict(row.command)),
        rolls=tuple(tuple(int(f) for f in r) for r in row.rolls),
        base_seq=row.base_seq,
        step=row.step,
        stale=row.base_seq != last_seq,
    )


def _drop(s: Session, row: PendingAction) -> None:
    s.execute(delete(PendingAction).where(PendingAction.id == row.id))


class PendingStore(LogStore):
    """The ``Store``'s waiting actions: begun, their faces stored, dropped or run."""

    def pending(self, encounter_id: int) -> PendingInfo | None:
        """The action waiting for the table's dice in that encounter, if any."""
        with self._read() as s:
            encounter_row(s, encounter_id, scenario=False)
            row = _waiting(s, encounter_id)
            if row is None:
                return None
            return _pending_info(row, last_stored_seq(s, encounter_id))

    def begin_pending(self, encounter_id: int, command: Command) -> PendingInfo:
        """Keep ``command`` waiting for the table's dice (a stale one is replaced;
        ConteurError ``store.pending.exists`` while another one is under way)."""
        data = command.to_dict()
        json.dumps(data)
        with self._lock, self._write() as s:
            open_row(s, encounter_id, "update")
            last = last_stored_seq(s, encounter_id)
            old = _waiting(s, encounter_id)
            if old is not None:
                if old.base_seq == last:
                    raise ConteurError("store.pending.exists")
                _drop(s, old)
                s.flush()
            new = PendingAction(encounter_id=encounter_id, command=data, rolls=[], base_seq=last)
            s.add(new)
            s.flush()
            return _pending_info(new, last)

    def update_pending(
        self, encounter_id: int, rolls: Sequence[Sequence[int]], *, step: int
    ) -> PendingInfo:
        """Store the faces entered so far; ``step`` is the one the page showed (an older one:
        ConteurError ``store.pending.moved``, nothing changed)."""
        with self._lock, self._write() as s:
            encounter_row(s, encounter_id, lock="update", scenario=False)
            row = _pending_row(s, encounter_id, step)
            row.rolls = [list(r) for r in rolls]
            row.step = step + 1
            row.updated_at = now()
            s.flush()
            return _pending_info(row, last_stored_seq(s, encounter_id))

    def drop_pending(self, encounter_id: int) -> bool:
        """Forget the waiting action (cancelled, or stale); whether there was one."""
        with self._lock, self._write() as s:
            encounter_row(s, encounter_id, lock="update", scenario=False)
            row = _waiting(s, encounter_id)
            if row is None:
                return False
            _drop(s, row)
            return True

    def commit_pending(self, encounter_id: int, dice: DiceSource, *, step: int) -> CommandEntry:
        """Execute the waiting action with ``dice`` and delete it, in one transaction.

        ConteurError ``store.pending.stale`` when another command landed since it began,
        ``store.pending.moved`` when ``step`` is not the stored one."""

        def run(encounter: Encounter, s: Session) -> None:
            row = _pending_row(s, encounter_id, step)
            if row.base_seq != len(encounter.log) - 1:
                raise ConteurError("store.pending.stale")
            command = Command.from_dict(dict(row.command))
            _drop(s, row)
            encounter.execute(command, dice)

        entry = self._append_rolled(encounter_id, run, dice)
        assert isinstance(entry, CommandEntry)
        return entry
