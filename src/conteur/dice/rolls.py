"""The rolls of the four texts, as immutable requests that know how to read their faces.

A *request* (``VtmPool``, ``HunterPool``, ``Percentile``, ``Expr``) holds a pool
and its options. ``request.roll(draw)`` takes faces one at a time from ``draw``
(a seeded generator or the faces typed in at the table) and returns a
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

from . import exact

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
* ``cancelled`` — would succeed, but a 1 cancelled it (``vtm``);
* ``cancels`` — a 1 that cancels one success (``vtm``);
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


def _replay(faces: Sequence[int]) -> Draw:
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

    A request whose dice are known before it is rolled (a fixed number of one kind:
    a vtm pool, an expression, a d100) may also have ``dice_needed() -> (sides,
    count)`` and ``record(faces) -> RollRecord``, what its ``roll`` does with the
    faces it draws; ``SeededDice`` then draws them in one go.
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


def _check_count(field_name: str, value: int, limit: int = MAX_POOL) -> None:
    if value > limit:
        raise ConteurError(
            "dice.bad_pool",
            field=field_name,
            value=value,
            reason=Msg("dice.reason.too_large", limit=limit),
        )


# --------------------------------------------------------------------------- vtm


@lean
@dataclass(frozen=True)
class VtmResult:
    """Net successes (automatic ones included) and whether the roll botched."""

    successes: int
    botch: bool

    @property
    def success(self) -> bool:
        return self.successes > 0

    def describe(self, lang: Lang | None = None) -> str:
        if self.botch:
            return t("result.botch", lang)
        if self.successes <= 0:
            return t("result.failure", lang)
        return t("result.successes", lang, count=self.successes)


@lean
@dataclass(frozen=True)
class VtmPool:
    """A d10 pool against a difficulty (``vtm``; core dice rules, V-DMG-4).

    Each die >= difficulty succeeds; with ``ones_cancel`` each 1 cancels one
    success; a *botch* (when ``can_botch``) is no die >= difficulty and at
    least one 1. ``auto`` successes (Willpower, Potence) are added after the
    1s and cannot be cancelled. ``min_one`` rolls one die when the pool is
    smaller (damage pools, V-DMG-4). The difficulty asked is clamped to 2..10.
    """

    kind: ClassVar[str] = "vtm"

    dice: int
    difficulty: int = 6
    ones_cancel: bool = True
    can_botch: bool = True
    auto: int = 0
    min_one: bool = False

    def __post_init__(self) -> None:
        _check_count("dice", self.dice)
        if self.auto < 0:
            raise ConteurError(
                "dice.bad_pool", field="auto", value=self.auto, reason=Msg("dice.reason.negative")
            )

    @property
    def effective_difficulty(self) -> int:
        """The difficulty actually rolled against (2..10)."""
        return min(10, max(2, self.difficulty))

    @property
    def clamped(self) -> bool:
        """True when the difficulty asked was outside 2..10."""
        return self.effective_difficulty != self.difficulty

    @property
    def rolled_dice(self) -> int:
        """How many dice are thrown (never negative; at least one with ``min_one``)."""
        return max(1 if self.min_one else 0, self.dice)

    def read(self, faces: Sequence[int]) -> VtmResult:
        """The result of these faces (one per rolled die)."""
        diff = self.effective_difficulty
        hits = len([f for f in faces if f >= diff])
        ones = faces.count(1)
        net = max(0, hits - ones) if self.ones_cancel else hits
        botch = self.can_botch and hits == 0 and ones > 0 and self.auto == 0
        return VtmResult(successes=net + self.auto, botch=botch)

    def roll(self, draw: Draw) -> RollRecord[VtmResult]:
        return self.record(tuple([draw(10) for _ in range(self.rolled_dice)]))

    def dice_needed(self) -> tuple[int, int]:
        """(sides, count): the dice this roll takes, known before it is rolled (see
        ``SeededDice.roll``)."""
        return 10, self.rolled_dice

    def record(self, faces: tuple[int, ...]) -> RollRecord[VtmResult]:
        """The record of this roll with these faces (as many as ``dice_needed`` says)."""
        return RollRecord(self, faces, self.read(faces))

    def notes(self, faces: Sequence[int]) -> tuple[DieNote, ...]:
        """What each face did: successes, the 1s that cancel, the successes they cancel.

        A 1 cancels the lowest success left (the choice does not change the
        result; showing "the 1 cancels the 6" reads naturally at the table).
        """
        diff = self.effective_difficulty
        roles: list[DieRole] = [
            "success" if f >= diff else "one" if f == 1 else "failure" for f in faces
        ]
        if self.ones_cancel:
            hits = sorted((i for i, f in enumerate(faces) if f >= diff), key=lambda i: faces[i])
            ones = [i for i, f in enumerate(faces) if f == 1]
            for one, hit in zip(ones, hits, strict=False):
                roles[one] = "cancels"
                roles[hit] = "cancelled"
        return tuple(DieNote(f, role) for f, role in zip(faces, roles, strict=True))

    def outcomes(self) -> Sequence[tuple[VtmResult, float]]:
        return _vtm_outcomes(
            self.rolled_dice, self.effective_difficulty, self.ones_cancel, self.can_botch, self.auto
        )

    def describe(self, lang: Lang | None = None) -> str:
        return t("roll.vtm", lang, dice=self.rolled_dice, difficulty=self.effective_difficulty)


@lru_cache(maxsize=4096)
def _vtm_outcomes(
    n: int, difficulty: int, ones_cancel: bool, can_botch: bool, auto: int
) -> tuple[tuple[VtmResult, float], ...]:
    net, botch = exact.vtm_net(n, difficulty, ones_cancel, can_botch and auto == 0)
    out: list[tuple[VtmResult, float]] = []
    if botch > 0:
        out.append((VtmResult(auto, True), botch))
    for k, p in enumerate(net):
        if p > 0:
            out.append((VtmResult(k + auto, False), float(p)))
    return tuple(out)


# ------------------------------------------------------------------------ hunter


@lean
@dataclass(frozen=True)
class HunterResult:
    """Successes of a new-WoD roll, and its dramatic failure."""

    successes: int
    dramatic_failure: bool
    chance: bool

    EXCEPTIONAL: ClassVar[int] = 5

    @property
    def exceptional(self) -> bool:
        """Five successes or more (H-EXC-1)."""
        return self.successes >= self.EXCEPTIONAL

    @property
    def success(self) -> bool:
        return self.successes > 0

    def describe(self, lang: Lang | None = None) -> str:
        if self.dramatic_failure:
            return t("result.dramatic_failure", lang)
        if self.successes <= 0:
            return t("result.failure", lang)
        if self.exceptional:
            return t("result.exceptional", lang, count=self.successes)
        return t("result.successes", lang, count=self.successes)


@lean
@dataclass(frozen=True)
class HunterPool:
    """A new-WoD d10 pool: 8+ succeeds, ``again``-again, optional rote (``hunter``).

    A pool of 0 or less rolls one *chance die* (H-CHANCE-1): only a 10
    succeeds (and is rolled again), a 1 is a dramatic failure. A normal roll
    with no success and a 1 among its original dice is a dramatic failure
    (H-FAIL-1, as this table plays it). With ``rote`` each original die that
    fails is rolled once more and the new face replaces it.

    Faces are read in this order: the original dice; then the rote rerolls,
    in the order of the dice they replace; then one wave of again-dice for
    every die that showed ``again`` or more, in order, wave after wave.
    """

    kind: ClassVar[str] = "hunter"
    SUCCESS: ClassVar[int] = 8

    dice: int
    again: int = 10
    rote: bool = False

    def __post_init__(self) -> None:
        _check_count("dice", self.dice)
        if self.again not in (8, 9, 10):
            raise ConteurError(
                "dice.bad_pool", field="again", value=self.again, reason=Msg("dice.reason.again")
            )

    @property
    def chance(self) -> bool:
        """True when the pool is down to the chance die."""
        return self.dice <= 0

    def roll(self, draw: Draw) -> RollRecord[HunterResult]:
        faces, _, result = self._play(draw, notes=False)
        return RollRecord(self, faces, result)

    def notes(self, faces: Sequence[int]) -> tuple[DieNote, ...]:
        """What each face did, in roll order: originals, rote rerolls, again-waves."""
        return self._play(_replay(faces))[1]

    def _play(
        self, draw: Draw, notes: bool = True
    ) -> tuple[tuple[int, ...], tuple[DieNote, ...], HunterResult]:
        """Roll the pool once: the faces, what each did (unless ``notes`` is False: then
        ``()``), and the result (one copy of the rule)."""
        faces: list[int] = []
        stages: list[tuple[DieStage, int]] = []

        def d10(stage: DieStage, wave: int = 0) -> int:
            faces.append(draw(10))
            stages.append((stage, wave))
            return len(faces) - 1

        n = 1 if self.chance else self.dice
        succeeds = 10 if self.chance else self.SUCCESS
        kept = [d10("roll") for _ in range(n)]
        replaced: set[int] = set()
        if self.rote:
            for slot, pos in enumerate(kept):
                if faces[pos] < succeeds:
                    replaced.add(pos)
                    kept[slot] = d10("rote")
        successes = sum(1 for pos in kept if faces[pos] >= succeeds)
        if self.chance:
            dramatic = faces[kept[0]] == 1
            wave = [pos for pos in kept if faces[pos] == 10]
        else:
            dramatic = successes == 0 and any(faces[pos] == 1 for pos in kept)
            wave = [pos for pos in kept if faces[pos] >= self.again]
        exploding = set(wave)
        number = 0
        while wave:
            number += 1
            new = [d10("again", number) for _ in wave]
            successes += sum(1 for pos in new if faces[pos] >= self.SUCCESS)
            wave = [pos for pos in new if faces[pos] >= self.again]
            exploding.update(wave)
        result = HunterResult(successes, dramatic, self.chance)
        if not notes:
            return tuple(faces), (), result
        counted = set(kept)
        roles: list[DieNote] = []
        for pos, (face, (stage, wave_no)) in enumerate(zip(faces, stages, strict=True)):
            role: DieRole
            if pos in replaced:
                role = "replaced"
            elif face >= (succeeds if pos in counted else self.SUCCESS):
                role = "success"
            elif face == 1 and pos in counted:
                role = "one"
            else:
                role = "failure"
            roles.append(DieNote(face, role, stage, wave_no, pos in exploding))
        return tuple(faces), tuple(roles), result

    def outcomes(self) -> Sequence[tuple[HunterResult, float]]:
        return _hunter_outcomes(self.dice, self.again, self.rote)

    def describe(self, lang: Lang | None = None) -> str:
        rote = t("roll.hunter.rote", lang) if self.rote else ""
        if self.chance:
            return t("roll.hunter.chance", lang, rote=rote)
        return t("roll.hunter", lang, dice=self.dice, again=self.again, rote=rote)


@lru_cache(maxsize=4096)
def _hunter_outcomes(n: int, again: int, rote: bool) -> tuple[tuple[HunterResult, float], ...]:
    succ, dramatic = exact.hunter_successes(n, again, rote)
    chance = n <= 0
    out: list[tuple[HunterResult, float]] = []
    if dramatic > 0:
        out.append((HunterResult(0, True, chance), dramatic))
    for k, p in enumerate(succ):
        if p > 0:
            out.append((HunterResult(k, False, chance), float(p)))
    return tuple(out)


# -------------------------------------------------------------------- percentile


@lean
@dataclass(frozen=True)
class PercentileResult:
    """A d100 roll against a percentage: success, critical and margin (skill − roll)."""

    roll: int
    success: bool
    critical: bool
    margin: int

    def describe(self, lang: Lang | None = None, skill: int | None = None) -> str:
        s = self.roll + self.margin if skill is None else skill
        if self.critical:
            key = "result.percentile.critical"
        elif self.success:
            key = "result.percentile.success"
        else:
            return t("result.percentile.failure", lang, roll=self.roll, skill=s)
        return t(key, lang, roll=self.roll, skill=s, margin=self.margin)


@lean
@dataclass(frozen=True)
class Percentile:
    """1D100 at or under the adjusted skill succeeds; critical when roll × 10 < skill (W-CRIT-1)."""

    kind: ClassVar[str] = "percentile"

    skill: int

    def read(self, face: int) -> PercentileResult:
        success = face <= self.skill
        critical = face * 10 < self.skill
        return PercentileResult(face, success, critical, self.skill - face)

    def roll(self, draw: Draw) -> RollRecord[PercentileResult]:
        return self.record((draw(100),))

    def dice_needed(self) -> tuple[int, int]:
        """(sides, count): one d100, known before it is rolled (see ``SeededDice.roll``)."""
        return 100, 1

    def record(self, faces: tuple[int, ...]) -> RollRecord[PercentileResult]:
        """The record of this roll with this face."""
        return RollRecord(self, faces, self.read(faces[0]))

    def notes(self, faces: Sequence[int]) -> tuple[DieNote, ...]:
        """The one d100 face, a success when at or under the skill."""
        return tuple(DieNote(f, "success" if f <= self.skill else "failure") for f in faces)

    def outcomes(self) -> Sequence[tuple[PercentileResult, float]]:
        return _percentile_outcomes(self.skill)

    def describe(self, lang: Lang | None = None) -> str:
        return t("roll.percentile", lang, skill=self.skill)


@lru_cache(maxsize=512)
def _percentile_outcomes(skill: int) -> tuple[tuple[PercentileResult, float], ...]:
    req = Percentile(skill)
    return tuple((req.read(face), 0.01) for face in range(1, 101))


# -------------------------------------------------------------------- NdX±M

_EXPR = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$", re.ASCII)


@lean
@dataclass(frozen=True)
class ExprResult:
    """The total of a plain dice expression."""

    total: int

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
        _check_count("count", self.count)
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
    dist = exact.sum_of_dice(count, sides)
    return tuple((ExprResult(count + k + modifier), float(p)) for k, p in enumerate(dist) if p > 0)


REQUEST_KINDS: dict[str, type[Any]] = {
    cls.kind: cls for cls in (VtmPool, HunterPool, Percentile, Expr)
}
RESULT_KINDS: dict[str, type[Any]] = {
    "vtm": VtmResult,
    "hunter": HunterResult,
    "percentile": PercentileResult,
    "expr": ExprResult,
}


def record_from_dict(data: dict[str, Any]) -> RollRecord[Any]:
    """Rebuild a record stored by ``RollRecord.to_dict``."""
    kind = data["kind"]
    request = REQUEST_KINDS[kind](**data["request"])
    result = RESULT_KINDS[kind](**data["result"])
    return RollRecord(request, tuple(data["faces"]), result)
