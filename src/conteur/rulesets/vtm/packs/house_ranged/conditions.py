"""The pack's own conditions (``conteur.engine.conditions``), read in an encounter that plays it.

A limb hit's penalty (R-CALL-4, R-CALL-5), a careful shot lined up (R-AIM-1), being
pinned down by suppressive fire (R-SUPP-1, R-SUPP-2); each reads and writes the JSON
form its events always stored. ``CONDITIONS`` lists them for the pack's rulebook source
(``OptionPack.conditions``): an encounter's rulebook holds its kinds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from conteur.engine.conditions import Fields, Single


class LimbHit(Single):
    """A wounded limb: ``penalty`` on the difficulty of the rolls it takes part in."""

    penalty: int


class ArmHit(LimbHit, key="arm_hit"):
    """R-CALL-4: a wounded arm, its ``penalty`` on the difficulty of its attacks."""


class LegHit(LimbHit, key="leg_hit"):
    """R-CALL-5: a wounded leg, its ``penalty`` on the difficulty of its movement rolls."""


@dataclass(frozen=True, kw_only=True)
class LinedUp:
    """R-AIM-1: ``rounds`` spent lining up ``target`` with ``weapon``, the last in ``last``:
    the fields of the condition ``CarefulShot`` and of the event that puts it
    (``events.CarefulAim``)."""

    target: str
    weapon: str
    rounds: int
    last: int


class CarefulShot(LinedUp, Fields, key="careful_shot"):
    """R-AIM-1: ``rounds`` spent lining up ``target`` with ``weapon``, the last in ``last``."""


Tested = Literal["passed", "failed"]


class Suppressed(Fields, key="suppressed"):
    """R-SUPP-1: pinned down in ``turn`` by ``by``'s fire (``successes`` with ``weapon``);
    ``tested``: its Willpower test to expose itself, once taken (R-SUPP-2)."""

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

__all__ = ["CONDITIONS", "ArmHit", "CarefulShot", "LegHit", "LinedUp", "Suppressed"]
