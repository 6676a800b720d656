"""The faces the table rolled, one list per roll, each roll asked in turn.

``TableDice(rolls)`` answers roll *i* of a command with ``rolls[i]`` (a roll that
throws no die, such as an empty pool, is not counted). When a roll needs more
faces than its list holds it raises ``RollNeeded``, naming whose roll it is,
what for, and how many dice to throw now. A roll whose dice are rolled again
(10-again, a rote action) is asked in *waves*: first its own dice, then, once
their faces are known, the rerolls they call for.

How many faces a roll still needs is found without knowing the game: the
request's ``roll(draw)`` is run with the faces given, then with one constant
face after another in place of the missing ones; the shortest completion is
what must be thrown now (a face that would call for a reroll is never assumed).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from conteur.i18n import ConteurError, Describable

from .asks import AskLike, DiceCount, RollAsk, RollCount, ask_of
from .rolls import Roll, RollRecord

R = TypeVar("R")

_LIMIT = 10_000
"""The most faces a completion may take before it counts as endless (a face that explodes)."""


class _Endless(Exception):
    """A completion that never ends (its filler face keeps calling for rerolls)."""


class _Short(Exception):
    """The roll drew a face its list does not have."""

    def __init__(self, sides: int) -> None:
        self.sides = sides


def table_face(face: int, sides: int) -> int:
    """A 0 typed for a d10 or a d100 reads 10 or 100, as printed on real dice."""
    return sides if face == 0 and sides in (10, 100) else face


def _length(request: Roll[Any], given: Sequence[int], filler: int) -> int | None:
    """How many faces ``request`` takes when ``given`` is followed by ``filler`` forever."""
    count = 0

    def draw(sides: int) -> int:
        nonlocal count
        count += 1
        if count > _LIMIT:
            raise _Endless
        if count <= len(given):
            return table_face(given[count - 1], sides)
        return min(filler, sides)

    try:
        request.roll(draw)
    except _Endless:
        return None
    return count


def fewest_faces(request: Roll[Any], given: Sequence[int]) -> int:
    """The fewest faces ``request`` can take in all, ``given`` being its first ones."""
    lengths = [_length(request, given, filler) for filler in range(1, 11)]
    finite = [n for n in lengths if n is not None]
    return min(finite) if finite else len(given) + 1


def wave_of(request: Roll[Any], given: Sequence[int]) -> int:
    """Which wave of ``request`` the faces after ``given`` belong to (0: its first dice)."""
    wave = 0
    known = 0
    while True:
        need = fewest_faces(request, given[:known])
        if need > len(given) or need <= known:
            return wave
        wave += 1
        known = need


class RollNeeded(ConteurError):
    """A roll needs faces the table has not given yet (« Il faut le jet « attaque de Jack » »).

    ``index`` is which roll of the command (0 = its first), ``wave`` which throw of
    that roll (0: its own dice; 1 and more: rerolls such as 10-again), ``count``
    how many faces to throw now, on dice of ``sides`` sides; ``faces_so_far`` the
    faces of this roll already given.
    """

    def __init__(
        self,
        *,
        index: int,
        wave: int,
        count: int,
        sides: int,
        request: Roll[Any],
        ask: RollAsk | None,
        faces_so_far: tuple[int, ...],
    ) -> None:
        what: Describable = ask.what if ask is not None else request
        if wave:
            super().__init__("dice.table.needed.more", what=what, wave=wave, dice=DiceCount(count))
        else:
            super().__init__("dice.table.needed", what=what, dice=DiceCount(count))
        self.index = index
        self.wave = wave
        self.count = count
        self.sides = sides
        self.request = request
        self.ask = ask
        self.faces_so_far = faces_so_far


class TableDice:
    """The faces the table rolled: one list per roll, in the rules' order.

    Roll *i* (rolls that throw no die are not counted) takes ``rolls[i]``. A roll
    whose list runs short raises ``RollNeeded``; a face its die does not have, or
    more faces than it used, is refused at once (``ConteurError`` naming the roll).
    ``asked`` lists every roll answered so far, with its ask, in order.
    """

    def __init__(self, rolls: Sequence[Sequence[int]]) -> None:
        self.rolls: tuple[tuple[int, ...], ...] = tuple(tuple(r) for r in rolls)
        self.index = 0
        self.asked: list[tuple[RollRecord[Any], RollAsk | None]] = []

    def roll(self, request: Roll[R], ask: AskLike = None) -> RollRecord[R]:
        none = _no_dice(request)
        if none is not None:
            return none
        said = ask_of(ask)
        index = self.index
        given = self.rolls[index] if index < len(self.rolls) else ()
        what: Describable = said.what if said is not None else request
        used = 0

        def draw(sides: int) -> int:
            nonlocal used
            if used >= len(given):
                raise _Short(sides)
            face = table_face(given[used], sides)
            if not 1 <= face <= sides:
                raise ConteurError(
                    "dice.table.bad_face",
                    what=what,
                    face=given[used],
                    sides=sides,
                    position=used + 1,
                )
            used += 1
            return face

        try:
            record = request.roll(draw)
        except _Short as short:
            raise RollNeeded(
                index=index,
                wave=wave_of(request, given),
                count=fewest_faces(request, given) - len(given),
                sides=short.sides,
                request=request,
                ask=said,
                faces_so_far=given,
            ) from None
        if used < len(given):
            raise ConteurError(
                "dice.table.too_many", what=what, given=len(given), used=DiceCount(used)
            )
        self.index = index + 1
        self.asked.append((record, said))
        return record

    def mark(self) -> object:
        return (self.index, len(self.asked))

    def reset(self, mark: object) -> None:
        assert isinstance(mark, tuple)
        self.index, asked = mark
        del self.asked[asked:]

    def check_all_used(self) -> None:
        """Raise ``dice.table.extra_rolls`` when more rolls were given than were asked."""
        if self.index < len(self.rolls):
            raise ConteurError(
                "dice.table.extra_rolls",
                given=RollCount(len(self.rolls)),
                used=RollCount(self.index),
            )


class _NoDie(Exception):
    """The roll asked for a die."""


def _no_dice(request: Roll[R]) -> RollRecord[R] | None:
    """The record of a roll that throws no die at all (an empty pool), else None."""

    def draw(sides: int) -> int:
        raise _NoDie

    try:
        return request.roll(draw)
    except _NoDie:
        return None


__all__ = ["RollNeeded", "TableDice", "fewest_faces", "table_face", "wave_of"]
