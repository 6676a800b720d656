"""Roll requests: immutable requests that know how to read their faces.

A *request* holds a pool and its options: ``Expr`` (a plain ``NdX±M``) here, the
others in the rulesets that roll them (each registers its kinds with
``conteur.dice.kinds``). ``request.roll(draw)`` takes faces one at a time from
``draw`` (a seeded generator or the faces typed in at the table) and returns a
``RollRecord``: the request, the faces in roll order, and the *result*, the
summary the rules read. ``request.outcomes()`` gives every possible result with
its exact probability, so the same rule code can run over a distribution
(see ``conteur.dice.sources``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

from conteur.i18n import ConteurError, Lang, Msg, t
from conteur.records import lean

from .kinds import register_roll_kind, roll_kind

Draw = Callable[[int], int]
"""Gives the next face of a die with the given number of sides (1..sides)."""

R = TypeVar("R", covariant=True)
RT = TypeVar("RT", covariant=True)

MAX_POOL = 200
"""The largest pool (or number of dice in an expression) a request accepts."""

MAX_SIDES = 1000
"""The most sides a die of a plain expression may have."""

DieRole = Literal["success", "cancelled", "cancels", "one", "failure", "replaced", "counted"]
"""What one face did in its roll.

* ``success`` — counts as a success;
* ``cancelled`` — would succeed, but a 1 cancelled it (pools where 1s cancel successes);
* ``cancels`` — a 1 that cancels one success;
* ``one`` — a 1 that cancels nothing but can make a botch or a dramatic failure;
* ``failure`` — neither succeeds nor matters otherwise;
* ``replaced`` — a failed die rolled again by a rote action; its face no longer counts;
* ``counted`` — a face added to a total (plain expressions, the d100).
"""

DieStage = Literal["roll", "rote", "again"]
"""When a face was rolled: with the pool, as a rote reroll, or in an again-wave."""


@lean
@dataclass(frozen=True)
class DieNote:
    """One face of a roll and what it did, for display (every face in roll order)."""

    face: int
    role: DieRole
    stage: DieStage = "roll"
    wave: int = 0
    """The again-wave (1, 2, ...) of a face rolled by a 10-, 9- or 8-again."""
    explodes: bool = False
    """True when this face made another die be rolled (10-again and the like)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def replay(faces: Sequence[int]) -> Draw:
    """A draw that hands back recorded faces in order (for ``notes``)."""
    it = iter(faces)

    def draw(sides: int) -> int:
        try:
            return next(it)
        except StopIteration:
            raise ValueError("fewer faces than the roll needs") from None

    return draw


class Roll(Protocol[R]):
    """A roll request: reads its faces from a source, or lists its exact outcomes.

    A request whose dice are known before it is rolled (a fixed number of one kind,
    as a plain expression) may also have ``dice_needed() -> (sides, count)`` and
    ``record(faces) -> RollRecord``, what its ``roll`` does with the faces it draws;
    ``SeededDice`` then draws them in one go.
    """

    kind: ClassVar[str]

    def roll(self, draw: Draw) -> RollRecord[R]: ...

    def outcomes(self) -> Sequence[tuple[R, float]]: ...

    def describe(self, lang: Lang | None = None) -> str: ...


@lean
@dataclass(frozen=True)
class RollRecord(Generic[RT]):
    """One roll as it happened: the request, every face in roll order, and its result.

    In an exact enumeration ``faces`` is empty: only the result is known.
    """

    request: Any
    faces: tuple[int, ...]
    result: RT

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form, enough to rebuild the record (``record_from_dict``)."""
        req = asdict(self.request)
        return {
            "kind": self.request.kind,
            "request": req,
            "faces": list(self.faces),
            "result": asdict(self.result),  # type: ignore[call-overload]
        }


def check_count(field_name: str, value: int, limit: int = MAX_POOL) -> None:
    """Refuse a count of dice above ``limit`` (ConteurError ``dice.bad_pool``)."""
    if value > limit:
        raise ConteurError(
            "dice.bad_pool",
            field=field_name,
            value=value,
            reason=Msg("dice.reason.too_large", limit=limit),
        )


# -------------------------------------------------------------------- NdX±M

_EXPR = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$", re.ASCII)


def successes_text(successes: int, lang: Lang | None) -> str:
    """A pool's result in words (its special failure aside, a botch...: the pool's own
    words): a failure with no success, else its successes."""
    if successes <= 0:
        return t("result.failure", lang)
    return t("result.successes", lang, count=successes)


@lean
@dataclass(frozen=True)
class ExprResult:
    """The total of a plain dice expression."""

    total: int

    @property
    def score(self) -> float:
        """How good the roll is for its roller (``engine.report``): its total."""
        return float(self.total)

    def describe(self, lang: Lang | None = None) -> str:
        return t("result.total", lang, total=self.total)


@lean
@dataclass(frozen=True)
class Expr:
    """A plain roll ``NdX±M`` (``1D20``, ``3D10``, ``4D6-3``): the sum of the faces plus M."""

    kind: ClassVar[str] = "expr"

    count: int
    sides: int
    modifier: int = 0

    def __post_init__(self) -> None:
        check_count("count", self.count)
        if self.count < 1 or not 1 <= self.sides <= MAX_SIDES:
            raise ConteurError("dice.bad_expression", text=self.text)

    @classmethod
    def parse(cls, text: str) -> Expr:
        """Read ``NdX±M`` with the French ``D`` or ``d`` (N defaults to 1)."""
        m = _EXPR.match(text)
        if not m:
            raise ConteurError("dice.bad_expression", text=text)
        count = int(m.group(1)) if m.group(1) else 1
        sides = int(m.group(2))
        if count < 1 or not 1 <= sides <= MAX_SIDES:
            raise ConteurError("dice.bad_expression", text=text)
        mod = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
        return cls(count, sides, mod)

    @property
    def text(self) -> str:
        """The canonical French spelling, e.g. ``4D6-3``."""
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}D{self.sides}{mod}"

    def roll(self, draw: Draw) -> RollRecord[ExprResult]:
        sides = self.sides
        return self.record(tuple([draw(sides) for _ in range(self.count)]))

    def dice_needed(self) -> tuple[int, int]:
        """(sides, count): the dice of the expression (see ``SeededDice.roll``)."""
        return self.sides, self.count

    def record(self, faces: tuple[int, ...]) -> RollRecord[ExprResult]:
        """The record of this roll with these faces."""
        return RollRecord(self, faces, ExprResult(sum(faces) + self.modifier))

    def notes(self, faces: Sequence[int]) -> tuple[DieNote, ...]:
        """Every face counts toward the total."""
        return tuple(DieNote(f, "counted") for f in faces)

    def outcomes(self) -> Sequence[tuple[ExprResult, float]]:
        return _expr_outcomes(self.count, self.sides, self.modifier)

    def describe(self, lang: Lang | None = None) -> str:
        return t("roll.expr", lang, expr=self.text)


@lru_cache(maxsize=512)
def _expr_outcomes(count: int, sides: int, modifier: int) -> tuple[tuple[ExprResult, float], ...]:
    from . import exact  # numpy: only the odds of an expression need it

    dist = exact.sum_of_dice(count, sides)
    return tuple((ExprResult(count + k + modifier), float(p)) for k, p in enumerate(dist) if p > 0)


register_roll_kind(Expr, ExprResult)


def record_from_dict(data: dict[str, Any]) -> RollRecord[Any]:
    """Rebuild a record stored by ``RollRecord.to_dict`` (its ``kind`` names its classes)."""
    kind = roll_kind(data["kind"])
    request = kind.request(**data["request"])
    result = kind.result(**data["result"])
    return RollRecord(request, tuple(data["faces"]), result)
