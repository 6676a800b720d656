"""The pack's own conditions (``conteur.engine.conditions``), read in an encounter that plays it.

A limb hit's penalty (R-CALL-4, R-CALL-5), a careful shot lined up (R-AIM-1), being
pinned down by suppressive fire (R-SUPP-1, R-SUPP-2); each reads and writes the JSON
form its events always stored. ``CONDITIONS`` lists them for the pack's rulebook source
(``OptionPack.conditions``): an encounter's rulebook holds its kinds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from conteur.engine.conditions import Fields, Single
from conteur.records import lean


@lean
@dataclass(frozen=True, kw_only=True)
class ArmHit(Single):
    """R-CALL-4: a wounded arm, ``penalty`` on the difficulty of its attacks."""

    key: ClassVar[str] = "arm_hit"
    penalty: int


@lean
@dataclass(frozen=True, kw_only=True)
class LegHit(Single):
    """R-CALL-5: a wounded leg, ``penalty`` on the difficulty of its movement rolls."""

    key: ClassVar[str] = "leg_hit"
    penalty: int


@lean
@dataclass(frozen=True, kw_only=True)
class CarefulShot(Fields):
    """R-AIM-1: ``rounds`` spent lining up ``target`` with ``weapon``, the last in ``last``."""

    key: ClassVar[str] = "careful_shot"
    target: str
    weapon: str
    rounds: int
    last: int


Tested = Literal["passed", "failed"]


@lean
@dataclass(frozen=True, kw_only=True)
class Suppressed(Fields):
    """R-SUPP-1: pinned down in ``turn`` by ``by``'s fire (``successes`` with ``weapon``);
    ``tested``: its Willpower test to expose itself, once taken (R-SUPP-2)."""

    key: ClassVar[str] = "suppressed"
    by: str
    weapon: str
    successes: int
    turn: int
    tested: str | None = None

    def json(self) -> Any:
        out = dict(self.__dict__)
        if self.tested is None:
            del out["tested"]  # the form before any test
        return out

    @classmethod
    def parse(cls, value: Any) -> Suppressed | None:
        if isinstance(value, Mapping) and "tested" not in value:
            value = {**value, "tested": None}
        return super().parse(value)

    def after_test(self, passed: bool) -> Suppressed:
        tested: Tested = "passed" if passed else "failed"
        return Suppressed(
            by=self.by,
            weapon=self.weapon,
            successes=self.successes,
            turn=self.turn,
            tested=tested,
        )


CONDITIONS = (ArmHit, LegHit, CarefulShot, Suppressed)
"""The pack's condition kinds."""

__all__ = ["CONDITIONS", "ArmHit", "CarefulShot", "LegHit", "Suppressed"]
