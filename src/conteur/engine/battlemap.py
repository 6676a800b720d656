"""The battle map a ruleset offers readers: its unit, where each combatant stands, the cover
zones the game master drew, and the rules' range bands and cover levels to show on it.

Nothing here knows a game. A ruleset that has positions builds a ``BattleMap`` from its
state (``Ruleset.battle_map``); the tracker draws it and sends the moves and zones back
as the commands it names (``place``, ``zone``, ``unzone``), so a move on the map is the
same logged, undoable command as one typed in the script, checked by the same rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from .events import Event
from .geometry import Position

Unit = Literal["metre", "yard"]
"""The unit of a ruleset's positions and distances (the map's grid)."""

UNITS: tuple[Unit, ...] = ("metre", "yard")


@dataclass(frozen=True)
class MapBand:
    """A range band the rules read, as the map shows it: up to ``upto`` units from the
    shooter (None: beyond every limit), its label in the reader's language, its rule id."""

    id: str
    label: str
    upto: float | None
    rule: str


@dataclass(frozen=True)
class MapCover:
    """A cover level of the ruleset's cover table a zone may have."""

    id: str
    label: str
    rule: str


@dataclass(frozen=True)
class CoverZone:
    """A polygon drawn by the game master: a combatant inside it has the zone's cover."""

    id: str
    points: tuple[Position, ...]
    level: str


def new_zone_id(zones: Mapping[str, Any]) -> str:
    """The id of a zone drawn next: the first of ``z1``, ``z2``... not in ``zones``."""
    number = 1
    while f"z{number}" in zones:
        number += 1
    return f"z{number}"


class ZoneEvent(Event, base=True):
    """Base of a ruleset's events on its map's cover zones: the zone's cover ``level`` (a row
    of the ruleset's cover table) in the reader's words."""

    level: str

    level_word: ClassVar[Callable[[str], Any]] = str
    """The level in the reader's words, as the ruleset's cover table names it."""

    def params(self, names: Mapping[str, str] | None = None) -> dict[str, Any]:
        return {**super().params(names), "level": type(self).level_word(self.level)}


@dataclass(frozen=True, kw_only=True)
class ZoneDrawn(ZoneEvent, base=True):
    """The game master draws a cover zone on the map: whoever stands in it has its cover."""

    zone: str
    points: tuple[tuple[float, float], ...]
    level: str

    def apply(self, state: Any) -> None:
        state.zones[self.zone] = CoverZone(self.zone, tuple(self.points), self.level)


@dataclass(frozen=True, kw_only=True)
class ZoneErased(ZoneEvent, base=True):
    """The game master erases a cover zone of the map."""

    zone: str
    level: str

    def apply(self, state: Any) -> None:
        state.zones.pop(self.zone, None)


@dataclass(frozen=True)
class BattleMap:
    """What a map shows of an encounter now, and the commands that change it."""

    unit: Unit
    positions: dict[str, Position]
    zones: tuple[CoverZone, ...] = ()
    covers: tuple[MapCover, ...] = ()
    bands: dict[str, tuple[MapBand, ...]] = field(default_factory=dict)
    """Each combatant's range bands from where it stands (its weapon in hand); a combatant
    with no ranged weapon has none."""
    place: str = ""
    """The command type placing a combatant (params ``fighter`` and ``to``, ``"x,y"``)."""
    zone: str = ""
    """The command type drawing a zone (params ``points``, ``"x,y x,y ..."``, and ``level``)."""
    unzone: str = ""
    """The command type erasing a zone (param ``zone``)."""

    def without(self, hidden: frozenset[str]) -> BattleMap:
        """The map with no trace of the ``hidden`` combatants (for players)."""
        if not hidden:
            return self
        return BattleMap(
            self.unit,
            {k: p for k, p in self.positions.items() if k not in hidden},
            self.zones,
            self.covers,
            {k: b for k, b in self.bands.items() if k not in hidden},
            self.place,
            self.zone,
            self.unzone,
        )


@dataclass(frozen=True)
class MapKind:
    """What every map of a ruleset shares: its unit and the commands that change it (see
    ``BattleMap``); ``of`` is the map of an encounter now."""

    unit: Unit
    place: str = ""
    zone: str = ""
    unzone: str = ""

    def of(
        self,
        positions: dict[str, Position],
        zones: tuple[CoverZone, ...] = (),
        covers: tuple[MapCover, ...] = (),
        bands: dict[str, tuple[MapBand, ...]] | None = None,
    ) -> BattleMap:
        """The map showing these positions, zones, cover levels and range bands."""
        bands = {} if bands is None else bands
        return BattleMap(
            self.unit, positions, zones, covers, bands, self.place, self.zone, self.unzone
        )


def inside(point: Position, polygon: Sequence[Position]) -> bool:
    """Whether ``point`` lies inside ``polygon`` (even-odd rule; a point on an edge counts)."""
    x, y = point
    n = len(polygon)
    if n < 3:
        return False
    hit = False
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        if _on_segment(point, (x1, y1), (x2, y2)):
            return True
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def _on_segment(p: Position, a: Position, b: Position) -> bool:
    cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    if abs(cross) > 1e-9:
        return False
    return min(a[0], b[0]) - 1e-9 <= p[0] <= max(a[0], b[0]) + 1e-9 and (
        min(a[1], b[1]) - 1e-9 <= p[1] <= max(a[1], b[1]) + 1e-9
    )


def parse_points(value: object) -> tuple[Position, ...]:
    """A polygon from ``"x,y x,y x,y"`` (or ``;`` between points) or a list of pairs;
    ValueError when it is not one (fewer than three points, a point not two numbers)."""
    if isinstance(value, str):
        raw: list[object] = [p for p in value.replace(";", " ").split() if p]
    elif isinstance(value, list | tuple):
        raw = list(value)
    else:
        raise ValueError(f"not a polygon: {value!r}")
    points: list[Position] = []
    for item in raw:
        pair = item.split(",") if isinstance(item, str) else item
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise ValueError(f"not a point: {item!r}")
        points.append((round(float(pair[0]), 2), round(float(pair[1]), 2)))
    if len(points) < 3:
        raise ValueError("a polygon needs three points")
    return tuple(points)


FORMATION_GAP = 2.0
"""Units between two combatants of one side in a default formation."""
FORMATION_FRONT = 10.0
"""Units between two sides' lines in a default formation."""


def formation(sides: Sequence[str | None]) -> list[Position]:
    """Default places for combatants of ``sides`` (in order): each side a line of its own,
    ``FORMATION_FRONT`` apart, its combatants ``FORMATION_GAP`` apart along it."""
    lines: dict[str | None, int] = {}
    counts: dict[str | None, int] = {}
    out: list[Position] = []
    for side in sides:
        line = lines.setdefault(side, len(lines))
        rank = counts.get(side, 0)
        counts[side] = rank + 1
        out.append((rank * FORMATION_GAP, line * FORMATION_FRONT))
    return out


__all__ = [
    "UNITS",
    "BattleMap",
    "CoverZone",
    "MapBand",
    "MapCover",
    "MapKind",
    "Unit",
    "formation",
    "inside",
    "new_zone_id",
    "parse_points",
]
