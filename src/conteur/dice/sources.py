"""Dice sources: the one door through which every roll of every ruleset goes.

A source takes a roll request and returns its ``RollRecord``. Three kinds:

* ``SeededDice`` — reproducible rolls from a seed;
* ``TypedDice`` — the faces rolled at the table, typed in as one flat stream
  in roll order (rerolls and again-dice take the next faces);
* ``ForcedDice`` — used by ``enumerate_outcomes`` to run ordinary rule code
  over every outcome of every roll, each with its exact probability.

Every source can ``mark()`` its position and ``reset()`` to it, so a command
that fails half-way consumes nothing.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

from conteur.i18n import ConteurError

from .asks import AskLike
from .rolls import Roll, RollRecord
from .table import fewest_faces, table_face

R = TypeVar("R")
T = TypeVar("T")
H = TypeVar("H", bound=Hashable)


class DiceSource(Protocol):
    """Where the dice of a roll come from."""

    def roll(self, request: Roll[R], ask: AskLike = None) -> RollRecord[R]: ...

    def mark(self) -> object: ...

    def reset(self, mark: object) -> None: ...


class SeededDice:
    """Reproducible dice: the same seed gives the same faces, roll after roll.

    A face is ``int(random() * sides) + 1`` from a ``random.Random(seed)``. The
    generator's numbers are drawn in blocks — 32, 64, ... up to ``BLOCK`` at a time:
    the same numbers, in the same order, as one at a time — so that ``mark()`` costs
    nothing: a position in the stream (how many numbers were used, and the
    generator's state before the block it falls in, kept once per block, not copied
    per mark). ``reset`` to a mark in an earlier block draws that block again from
    its state.
    """

    BLOCK = 256

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._block: list[float] = []
        self._base = 0
        """Numbers used before the current block."""
        self._pos = 0
        """Numbers used in the current block."""
        self._block_state = self._rng.getstate()
        """The generator's state before the current block."""

    def _fill(self) -> None:
        used = len(self._block)
        self._base += used
        self._block_state = self._rng.getstate()
        draw = self._rng.random
        # Blocks grow from 32 numbers to BLOCK: a short fight draws few.
        self._block = [draw() for _ in range(min(self.BLOCK, max(32, 2 * used)))]
        self._pos = 0

    def _draw(self, sides: int) -> int:
        pos = self._pos
        if pos == len(self._block):
            self._fill()
            pos = 0
        self._pos = pos + 1
        return int(self._block[pos] * sides) + 1

    def roll(self, request: Roll[R], ask: AskLike = None) -> RollRecord[R]:
        needed = getattr(request, "dice_needed", None)
        if needed is not None:  # dice known in advance: the faces ``_draw`` would give, at once
            sides, count = needed()
            pos = self._pos
            block = self._block
            if pos + count <= len(block):
                self._pos = pos + count
                faces = tuple([int(x * sides) + 1 for x in block[pos : pos + count]])
                record: RollRecord[R] = request.record(faces)  # type: ignore[attr-defined]
                return record
        return request.roll(self._draw)

    def mark(self) -> object:
        return (self._base + self._pos, self._base, self._block_state)

    def reset(self, mark: object) -> None:
        assert isinstance(mark, tuple)
        used, base, state = mark
        if base != self._base:
            self._rng.setstate(state)
            self._base, self._block_state = base, state
            draw = self._rng.random
            self._block = [draw() for _ in range(self.BLOCK)]
        self._pos = used - base


_INTEGER = re.compile(r"[+-]?[0-9]+")


def parse_faces(text: str | Iterable[int | str]) -> list[int]:
    """Read typed-in faces: numbers separated by spaces, commas or semicolons.

    Raises ``ConteurError('dice.not_a_number')`` naming the first bad token.
    """
    tokens: Iterable[int | str]
    if isinstance(text, str):
        tokens = [tok for tok in text.replace(",", " ").replace(";", " ").split() if tok]
    else:
        tokens = text
    faces: list[int] = []
    for position, token in enumerate(tokens, start=1):
        if isinstance(token, bool):
            raise ConteurError("dice.not_a_number", token=str(token), position=position)
        if isinstance(token, int):
            faces.append(token)
            continue
        stripped = str(token).strip()
        if not _INTEGER.fullmatch(stripped):
            raise ConteurError("dice.not_a_number", token=stripped, position=position)
        faces.append(int(stripped))
    return faces


class _Short(Exception):
    """The typed-in stream ran out in the middle of a roll."""


class TypedDice:
    """The faces the table rolled, consumed in roll order.

    A 0 typed for a d10 or a d100 reads as 10 or 100, as printed on real dice.
    A roll that runs short (``dice.too_few``, with how many faces are
    missing), or meets a face its die cannot show (``dice.bad_face``), raises
    a ``ConteurError`` naming the problem and consumes nothing: ``position``
    stays where it was.
    """

    def __init__(self, faces: str | Iterable[int | str]) -> None:
        self.faces: tuple[int, ...] = tuple(parse_faces(faces))
        self.position = 0

    @property
    def remaining(self) -> tuple[int, ...]:
        """The faces not consumed yet."""
        return self.faces[self.position :]

    def roll(self, request: Roll[R], ask: AskLike = None) -> RollRecord[R]:
        cursor = self.position

        def draw(sides: int) -> int:
            nonlocal cursor
            if cursor >= len(self.faces):
                raise _Short
            face = table_face(self.faces[cursor], sides)
            if not 1 <= face <= sides:
                raise ConteurError(
                    "dice.bad_face", face=self.faces[cursor], sides=sides, position=cursor + 1
                )
            cursor += 1
            return face

        try:
            record = request.roll(draw)
        except _Short:
            left = self.remaining
            needed = fewest_faces(request, left)
            raise ConteurError(
                "dice.too_few",
                roll=request,
                needed=needed,
                left=len(left),
                missing=needed - len(left),
            ) from None
        self.position = cursor
        return record

    def mark(self) -> object:
        return self.position

    def reset(self, mark: object) -> None:
        assert isinstance(mark, int)
        self.position = mark

    def check_all_used(self) -> None:
        """Raise ``dice.left_over`` when faces were typed that no roll used."""
        if self.remaining:
            raise ConteurError(
                "dice.left_over",
                count=len(self.remaining),
                faces=" ".join(map(str, self.remaining)),
            )


class NeedOutcome(Exception):
    """Raised by ``ForcedDice`` at the first roll past its script."""

    def __init__(self, request: Roll[Any]) -> None:
        self.request = request


class ForcedDice:
    """Answers rolls with a scripted list of outcome indices (see ``enumerate_outcomes``)."""

    def __init__(self, script: Sequence[int]) -> None:
        self.script = script
        self.position = 0

    def roll(self, request: Roll[R], ask: AskLike = None) -> RollRecord[R]:
        if self.position >= len(self.script):
            raise NeedOutcome(request)
        result, _ = request.outcomes()[self.script[self.position]]
        self.position += 1
        return RollRecord(request, (), result)

    def mark(self) -> object:
        return self.position

    def reset(self, mark: object) -> None:
        assert isinstance(mark, int)
        self.position = mark


def explore(
    run: Callable[[DiceSource], T], prefix: Sequence[int] = (), weight: float = 1.0
) -> list[tuple[tuple[int, ...], T, float]]:
    """Every branch of ``run``: the outcomes forced on its rolls, its result, its probability.

    ``run`` is ordinary rule code taking a dice source. Each time it asks for
    a roll not yet decided, the roll's exact outcomes (``request.outcomes()``)
    are branched on, and ``run`` is called again with that script forced.
    ``prefix`` fixes the first rolls (their probability is ``weight``).
    """
    out: list[tuple[tuple[int, ...], T, float]] = []
    stack: list[tuple[tuple[int, ...], float]] = [(tuple(prefix), weight)]
    while stack:
        script, p = stack.pop()
        try:
            out.append((script, run(ForcedDice(script)), p))
        except NeedOutcome as need:
            for i, (_, q) in enumerate(need.request.outcomes()):
                if q > 0.0:
                    stack.append(((*script, i), p * q))
    return out


def enumerate_outcomes(run: Callable[[DiceSource], T]) -> list[tuple[T, float]]:
    """Run ``run`` over every outcome of every roll it makes; each result with its probability.

    Results are not merged (they need not be hashable): see ``distribution_of``.
    """
    return [(value, p) for _, value, p in explore(run)]


def distribution_of(run: Callable[[DiceSource], H]) -> dict[H, float]:
    """Like ``enumerate_outcomes``, merging equal results: ``{result: probability}``."""
    merged: dict[H, float] = {}
    for value, p in enumerate_outcomes(run):
        merged[value] = merged.get(value, 0.0) + p
    return merged
