"""A small local stand-in for the engine's "rolls at the table" interface.

The engine side (``conteur.dice.asks.RollAsk``, ``conteur.dice.table.TableDice`` and
``RollNeeded``, ``conteur.engine.plan.next_roll``, ``conteur.dice.marked.marked_faces``) is
being built at the same time; the tracker codes against this module until it lands, then
imports the real ones (``conteur.web.rolls`` is the one place that imports this module).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from conteur.dice.rolls import Roll, RollRecord
from conteur.dice.sources import _fewest_faces, _typed_face
from conteur.engine.commands import Command
from conteur.engine.encounter import Encounter
from conteur.engine.ruleset import Resolution
from conteur.i18n import ConteurError, Lang, Msg


@dataclass(frozen=True)
class RollAsk:
    """What the table is asked to roll, in words."""

    who: str | None
    what: Msg
    breakdown: tuple[tuple[Msg, int], ...] = ()
    detail: Msg | None = None
    hidden: bool = False

    def describe(self, lang: Lang | None = None) -> str:
        return self.what.describe(lang)


class RollNeeded(ConteurError):
    """A roll needs faces the table has not given yet."""

    def __init__(
        self,
        *,
        index: int,
        wave: int,
        count: int,
        sides: int,
        request: Roll[Any],
        ask: RollAsk,
        faces_so_far: tuple[int, ...],
    ) -> None:
        super().__init__("web.rolls.needed", roll=request.describe(), count=count)
        self.index = index
        self.wave = wave
        self.count = count
        self.sides = sides
        self.request = request
        self.ask = ask
        self.faces_so_far = faces_so_far


class _Short(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class TableDice:
    """One list of faces per roll, in the rules' order."""

    def __init__(self, rolls: Sequence[Sequence[int]], actor: str | None = None) -> None:
        self.rolls = [list(r) for r in rolls]
        self.index = 0
        self.actor = actor

    def roll(self, request: Roll[Any]) -> RollRecord[Any]:
        index = self.index
        faces = self.rolls[index] if index < len(self.rolls) else []
        cursor = 0

        def draw(sides: int) -> int:
            nonlocal cursor
            if cursor >= len(faces):
                raise _Short(sides)
            face = _typed_face(faces[cursor], sides)
            if not 1 <= face <= sides:
                raise ConteurError(
                    "dice.bad_face", face=faces[cursor], sides=sides, position=cursor + 1
                )
            cursor += 1
            return face

        try:
            record = request.roll(draw)
        except _Short as short:
            needed = _fewest_faces(request, faces)
            ask = RollAsk(
                who=self.actor if index == 0 else None,
                what=Msg("web.rolls.ask.generic", roll=request.describe()),
            )
            raise RollNeeded(
                index=index,
                wave=1 if faces else 0,
                count=max(needed - len(faces), 1),
                sides=short.sides,
                request=request,
                ask=ask,
                faces_so_far=tuple(faces),
            ) from None
        if cursor < len(faces):
            raise ConteurError(
                "dice.left_over",
                count=len(faces) - cursor,
                faces=" ".join(map(str, faces[cursor:])),
            )
        self.index += 1
        return record

    def mark(self) -> object:
        return self.index

    def reset(self, mark: object) -> None:
        assert isinstance(mark, int)
        self.index = mark


def next_roll(
    encounter: Encounter, command: Command, rolls: Sequence[Sequence[int]]
) -> RollNeeded | None:
    """The next roll ``command`` needs after ``rolls`` (None: it can run); changes nothing."""
    work = copy.deepcopy(encounter.state)
    ctx = Resolution(work, TableDice(rolls, command.actor), encounter.ruleset.visibility)
    try:
        encounter.ruleset.resolve(ctx, command)
    except RollNeeded as need:
        return need
    return None


_MARKS = {
    "success": "success",
    "failure": "failure",
    "one": "one",
    "cancels": "cancels",
    "cancelled": "cancelled",
    "replaced": "rerolled",
    "counted": "counted",
}


def marked_faces(record: RollRecord[Any]) -> list[tuple[int, str]]:
    """Each face of ``record`` with its marking (success, failure, cancels, rerolled...)."""
    notes = getattr(record.request, "notes", None)
    if notes is None or not record.faces:
        return [(f, "counted") for f in record.faces]
    out = []
    for note in notes(record.faces):
        mark = _MARKS.get(note.role, "counted")
        if note.explodes:
            mark = "again"
        out.append((note.face, mark))
    return out
