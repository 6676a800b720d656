"""The cover table (H-COV-1..3, ``data/cover.yaml``) and the cover a fighter has now: the
better of its own level (``gm_cover``, H-COV-3's leaving full cover) and that of the battle
map's cover zones it stands in (``gm_zone``; no line of sight drawn: a fighter inside a zone
has that zone's cover)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

import yaml

from conteur.engine.battlemap import inside

if TYPE_CHECKING:
    from .fighter import Fighter
    from .state import HunterState


@dataclass(frozen=True)
class CoverLevel:
    """One row of the cover table."""

    id: str
    penalty: int
    """Dice lost shooting at a fighter at this level (H-COV-1); less one, shooting from it."""
    hits_cover: bool = False
    """Every shot at the fighter hits the cover; it cannot shoot without leaving it (H-COV-3)."""


@cache
def cover_table() -> tuple[CoverLevel, ...]:
    """The levels of ``data/cover.yaml``, from none to full."""
    ref = resources.files("conteur.rulesets.hunter").joinpath("data/cover.yaml")
    data: dict[str, Any] = yaml.safe_load(ref.read_text(encoding="utf-8"))
    return tuple(
        CoverLevel(str(r["id"]), int(r["penalty"]), bool(r.get("hits_cover", False)))
        for r in data["levels"]
    )


COVER_PENALTY: dict[str, int] = {c.id: c.penalty for c in cover_table()}
"""H-COV-1: dice a shooter loses against a target behind this concealment (the table's)."""

NO_COVER = cover_table()[0].id
"""The table's first level: no cover at all."""


def full(level: str) -> bool:
    """Whether shots at a fighter at ``level`` all hit the cover (H-COV-1, H-COV-3)."""
    return any(c.id == level and c.hits_cover for c in cover_table())


def zone_levels() -> tuple[str, ...]:
    """The levels a cover zone of the map may have (every level but none)."""
    return tuple(c.id for c in cover_table()[1:])


def cover_of(state: HunterState, f: Fighter) -> str:
    """The cover ``f`` has now: the better of its own and its zones' (the table's order)."""
    if not state.zones:
        return f.cover
    order = [c.id for c in cover_table()]
    found = [f.cover] + [
        z.level for z in state.zones.values() if z.level in order and inside(f.position, z.points)
    ]
    return max(found, key=lambda level: order.index(level) if level in order else -1)


__all__ = [
    "COVER_PENALTY",
    "NO_COVER",
    "CoverLevel",
    "cover_of",
    "cover_table",
    "full",
    "zone_levels",
]
