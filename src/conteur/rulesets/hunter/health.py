"""Health (H-HLT-1): Stamina + Size boxes, wound penalties, damage past the track."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from conteur.engine.views import Rungs, band_ladder

SEVERITY = {"bashing": 1, "lethal": 2, "aggravated": 3}
MARKS = {0: " ", 1: "/", 2: "X", 3: "*"}
NAMES = {1: "bashing", 2: "lethal", 3: "aggravated"}


@dataclass
class HealthTrack:
    """Boxes from left to right, most severe first: 0 empty, 1 bashing, 2 lethal, 3 aggravated."""

    boxes: list[int]

    @classmethod
    def empty(cls, size: int) -> HealthTrack:
        return cls([0] * size)

    @property
    def size(self) -> int:
        return len(self.boxes)

    @property
    def filled(self) -> int:
        return sum(1 for b in self.boxes if b)

    def marks(self) -> str:
        """``[X][/][ ]``: ``/`` bashing, ``X`` lethal, ``*`` aggravated."""
        return "".join(f"[{MARKS[b]}]" for b in self.boxes)

    @property
    def penalty(self) -> int:
        """H-HLT-1: the last three boxes give −1, −2, −3 once marked."""
        return -max(0, min(3, self.filled - (self.size - 3)))

    def with_damage(self, amount: int, damage_type: str) -> HealthTrack:
        """The track after ``amount`` points of ``damage_type`` (H-HLT-1, core rules).

        A point with an empty box left fills one; past the track, a point
        upgrades the least severe box one step (bashing → lethal → aggravated),
        aggravated damage straight to aggravated.
        """
        boxes = list(self.boxes)
        severity = SEVERITY[damage_type]
        for _ in range(max(0, amount)):
            if 0 in boxes:
                boxes[boxes.index(0)] = severity
            else:
                least = min(range(len(boxes)), key=lambda i: (boxes[i], -i))
                boxes[least] = 3 if severity == 3 else min(3, boxes[least] + 1)
            boxes.sort(reverse=True)
        return HealthTrack(boxes)

    def healed(self, amount: int) -> HealthTrack:
        """The track with ``amount`` of its least severe boxes cleared."""
        boxes = sorted(self.boxes, reverse=True)
        for _ in range(max(0, amount)):
            filled = [i for i, b in enumerate(boxes) if b]
            if filled:
                boxes[filled[-1]] = 0
        return HealthTrack(boxes)

    @property
    def last(self) -> int:
        """The severity in the last box (0: not reached)."""
        return self.boxes[-1] if self.boxes else 0

    def fate(self) -> str:
        """alive; incapacitated (last box lethal: bleeding out); dead (last box aggravated)."""
        if self.last == 3:
            return "dead"
        if self.last == 2:
            return "incapacitated"
        return "alive"


# ------------------------------------------------------------------ bands


def ladder() -> tuple[Rungs, Mapping[str, str]]:
    """The bands of ``data/bands.yaml``: (penalty reached, band) rungs, and band by fate."""
    return band_ladder("conteur.rulesets.hunter", "penalty")


def band_of(boxes: tuple[int, ...] | list[int], fate: str) -> str:
    """The catalogue key of the word players read for this track and fate."""
    rungs, fates = ladder()
    if fate in fates:
        return f"hunter.band.{fates[fate]}"
    filled = sum(1 for b in boxes if b)
    if not filled:
        return "band.unhurt"
    penalty = -max(0, min(3, filled - (len(boxes) - 3)))
    reached = [name for limit, name in rungs if penalty <= limit]
    return f"hunter.band.{reached[-1]}" if reached else "band.wounded"
