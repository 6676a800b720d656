"""The pack's tables as data (``data/pack.yaml``), read once through the strict input layer
(``conteur.engine.inputs``) and checked."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from conteur.engine.inputs import TOP, parse_data, plain_path, validate
from conteur.i18n import Msg


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ShotBand(_Model):
    """R-SHOT-1: up to ``max_metres``, this difficulty."""

    max_metres: float = Field(gt=0)
    difficulty: int = Field(ge=2, le=10)


class SpreadBand(_Model):
    """R-SPREAD-2: one distance band of a shotgun spread."""

    max_metres: float = Field(gt=0)
    damage: int | str
    difficulty: int = Field(ge=2, le=10)
    targets: int | str
    cone: float | None = None

    @property
    def base_damage(self) -> bool:
        """False at the last band: no base damage, only the extra successes roll."""
        return self.damage != "none"

    @property
    def damage_dice(self) -> int:
        return int(self.damage) if self.base_damage else 0

    @property
    def max_targets(self) -> int | None:
        """How many targets the cone may hit (None: all in it)."""
        return None if self.targets == "all" else int(self.targets)


class PackData(_Model):
    """Everything ``data/pack.yaml`` holds."""

    replaces: tuple[str, ...]
    replaces_for_shots: tuple[str, ...]
    removes: tuple[str, ...]
    stands_for: dict[str, str]
    shot_bands: tuple[ShotBand, ...]
    step_metres: float = Field(gt=0)
    step_difficulty: int
    max_difficulty: int = Field(ge=2, le=10)
    spread_bands: tuple[SpreadBand, ...]
    sawed_off_divisor: float = Field(gt=0)
    spread_armour_factor: int = Field(ge=1)
    suppression_difficulty: int = Field(ge=2, le=10)
    suppression_targets: dict[str, int | str]
    suppression_willpower_difficulty: int = Field(ge=2, le=10)
    short_burst_rounds: dict[str, int]
    burst_cadences: dict[str, tuple[str, ...]]
    spread_loads: tuple[str, ...]
    short_burst_targets: int = Field(ge=1)
    long_burst_targets: int = Field(ge=1)
    head_damage_dice: int
    limb_roll_difficulty: int = Field(ge=2, le=10)
    limb_penalty: int
    movement_purposes: tuple[str, ...]


PACK_FILE = "house_ranged/data/pack.yaml"


def _text(name: str) -> str:
    return resources.files(__package__ or "").joinpath("data", name).read_text("utf-8")


def read_pack_data(text: str, file: str = PACK_FILE) -> PackData:
    """The pack's numbers from the text of its ``pack.yaml``, through the strict input
    layer: not YAML, too deep, an unknown key (with the nearest one) or a bad value is an
    ``InputError`` naming the file, the entry (a table and its row) and the field."""
    return validate(PackData, parse_data(text, file), file=file, entry=TOP, where=_place)


def _place(loc: tuple[int | str, ...]) -> tuple[Any, str]:
    """The entry and field of ``pack.yaml`` an error's path names."""
    if len(loc) >= 2 and isinstance(loc[1], int):  # a row of a table: shot_bands n° 2
        row = Msg("vtm.pack.entry", section=loc[0], number=loc[1] + 1)
        return row, plain_path(loc[2:]) if loc[2:] else ""
    if len(loc) >= 2:  # a key of a mapping: stands_for, suppression_targets...
        return Msg("vtm.pack.section", section=loc[0]), plain_path(loc[1:])
    return TOP, plain_path(loc) if loc else ""


@cache
def pack_data() -> PackData:
    """The shipped numbers of the pack (``read_pack_data`` of ``data/pack.yaml``)."""
    return read_pack_data(_text("pack.yaml"))


def metres(distance: float) -> int:
    """Reading: a distance rounds up to the next whole metre (at least 1)."""
    return max(1, math.ceil(distance - 1e-9))


def shot_difficulty(distance: float) -> int:
    """R-SHOT-1: 1–3 m: 4; 4–10 m: 5; 11–20 m: 6; then +1 every 10 m (capped at 10)."""
    data = pack_data()
    m = metres(distance)
    for band in data.shot_bands:
        if m <= band.max_metres:
            return band.difficulty
    last = data.shot_bands[-1]
    steps = math.ceil((m - last.max_metres) / data.step_metres)
    return min(data.max_difficulty, last.difficulty + steps * data.step_difficulty)


def shot_limits(reach: float) -> tuple[tuple[int, float, int], ...]:
    """R-SHOT-1's bands up to ``reach`` metres (the weapon's maximum range, V-GEN-2), each
    ``(first whole metre, last distance, difficulty)``, nearest first: the table's bands,
    then one per further ``step_metres`` while the difficulty still rises, then the capped
    difficulty up to ``reach``. ``shot_difficulty`` of any distance up to ``reach`` is the
    difficulty of the band it falls in (distances round up to the next whole metre)."""
    data = pack_data()
    out: list[tuple[int, float, int]] = []
    low, last, difficulty = 1, 0.0, 0
    while last < reach:
        if len(out) < len(data.shot_bands):
            band = data.shot_bands[len(out)]
            upto, difficulty = band.max_metres, band.difficulty
        elif difficulty < data.max_difficulty:
            upto = last + data.step_metres
            difficulty = min(data.max_difficulty, difficulty + data.step_difficulty)
        else:
            upto = reach  # the difficulty stops rising: one band to the end
        upto = min(upto, reach)
        if out and out[-1][2] == difficulty:  # no change of difficulty: the same band
            low = out.pop()[0]
        out.append((low, upto, difficulty))
        low, last = math.floor(upto) + 1, upto
    return tuple(out)


@dataclass(frozen=True)
class Band:
    """A spread band as it applies to one gun (R-SPREAD-3 halves a sawed-off's limits)."""

    index: int
    limit: float
    spec: SpreadBand


def spread_band(distance: float, sawed_off: bool) -> Band | None:
    """R-SPREAD-2/3: the band a spread at ``distance`` falls in, or None past the last."""
    data = pack_data()
    m = metres(distance)
    divisor = data.sawed_off_divisor if sawed_off else 1.0
    for i, band in enumerate(data.spread_bands):
        limit = band.max_metres / divisor
        if m <= limit:
            return Band(i + 1, limit, band)
    return None


def spread_reach(sawed_off: bool) -> float:
    """The farthest a spread reaches (80 m, 40 m sawed-off)."""
    data = pack_data()
    return data.spread_bands[-1].max_metres / (data.sawed_off_divisor if sawed_off else 1.0)
