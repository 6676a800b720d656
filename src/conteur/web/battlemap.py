"""The battle map as the pages draw it: an SVG grid in the ruleset's unit, a token per
combatant, the cover zones, and what the page's script needs to show distances and range
bands from the selected token (``static/map.js``).

Built from the ruleset's ``BattleMap`` (``conteur.engine.battlemap``) and nothing else: the
bands, the cover levels and the commands that move a token or draw a zone are the rules';
the page only measures distances on the grid and sends those commands back.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

from conteur.engine.battlemap import BattleMap
from conteur.i18n import Lang, t

PAD = 2.0
"""Units of grid around the farthest token or zone corner."""
MIN_WIDTH = 12.0
MIN_HEIGHT = 6.0
"""The smallest grid shown: combatants a metre apart (a brawl) are drawn far enough apart
for their tokens not to touch."""
ASPECT = 2.0
"""The grid's width to its height at least (the frame the pages give the map)."""
TOKEN_WIDTHS = 24.0
"""On a grid this many units wide or wider a token has its own size (a circle of radius
0.75 unit); on a narrower one it keeps the size it has on the screen at this width (at 12
units, half its own): a brawl's tokens a metre apart do not touch."""


@dataclass(frozen=True)
class Token:
    id: str
    name: str
    initials: str
    x: float
    y: float
    side: str
    side_index: int
    status: str
    hidden: bool
    drawn: tuple[float, float] = (0.0, 0.0)
    """Where the token is drawn: its place, or beside it when others share it (``apart``)."""


@dataclass(frozen=True)
class Zone:
    id: str
    points: str
    """The SVG ``points`` attribute (and the command's own format): ``"x,y x,y x,y"``."""
    level: str
    label: str


@dataclass(frozen=True)
class MapView:
    unit: str
    """The unit's short label in the reader's language (``m``, ``yd``)."""
    unit_name: str
    box: tuple[float, float, float, float]
    """x, y, width, height of the SVG's viewBox, in units."""
    scale: float
    """How much a token is drawn larger or smaller than its own size (``TOKEN_WIDTHS``)."""
    lines: tuple[tuple[float, float, float, float, bool], ...]
    """The grid's lines (x1, y1, x2, y2, major)."""
    tokens: tuple[Token, ...]
    zones: tuple[Zone, ...]
    covers: tuple[tuple[str, str], ...]
    """The cover levels a zone may have: (id, label)."""
    bands_json: str
    """Each combatant's range bands, ``{id: [[label, upto or null, rule], ...]}``."""
    place: str
    zone: str
    unzone: str


SPREAD = 0.8
"""Units between a spot and the tokens drawn around it when several stand there."""


def apart(
    places: dict[str, tuple[float, float]], spread: float = SPREAD
) -> dict[str, tuple[float, float]]:
    """Where to draw each token so that none hides another: tokens that share a spot are
    drawn on a small circle (radius ``spread``) around it, the first one up, in the order
    given."""
    shared: dict[tuple[float, float], list[str]] = {}
    for fid, p in places.items():
        shared.setdefault((round(p[0], 2), round(p[1], 2)), []).append(fid)
    out: dict[str, tuple[float, float]] = {}
    for (x, y), fids in shared.items():
        for i, fid in enumerate(fids):
            if len(fids) == 1:
                out[fid] = (x, y)
                continue
            angle = 2 * math.pi * i / len(fids) - math.pi / 2
            out[fid] = (
                round(x + spread * math.cos(angle), 2),
                round(y + spread * math.sin(angle), 2),
            )
    return out


def _initials(name: str) -> str:
    """A token's letters: the first of the name's first two words, those written with a
    capital first when there are some (« la Bête » is « B », « Sam le barman » « S »,
    « Ézéchiel Crowe » « ÉC »), else of its first two words."""
    words = [w for w in name.replace("-", " ").split() if w[:1].isalpha()]
    words = [w for w in words if w[0].isupper()] or words
    return "".join(w[0] for w in words[:2]).upper() or name[:2]


def _points(points: tuple[tuple[float, float], ...]) -> str:
    return " ".join(f"{x:g},{y:g}" for x, y in points)


def map_view(
    bmap: BattleMap,
    lang: Lang,
    names: dict[str, str],
    sides: dict[str, str],
    statuses: dict[str, str],
    hidden: frozenset[str],
) -> MapView:
    """The map of ``bmap`` for a page in ``lang``: only the combatants ``names`` lists
    (a players' page has no hidden one there), ``hidden`` marked (the GM's page)."""
    shown = {fid: p for fid, p in bmap.positions.items() if fid in names}
    xs = [p[0] for p in shown.values()] + [q[0] for z in bmap.zones for q in z.points]
    ys = [p[1] for p in shown.values()] + [q[1] for z in bmap.zones for q in z.points]
    x0, x1 = (min(xs), max(xs)) if xs else (0.0, 0.0)
    y0, y1 = (min(ys), max(ys)) if ys else (0.0, 0.0)
    x0, y0 = math.floor(x0 - PAD), math.floor(y0 - PAD)
    x1, y1 = math.ceil(x1 + PAD), math.ceil(y1 + PAD)
    if x1 - x0 < MIN_WIDTH:
        extra = MIN_WIDTH - (x1 - x0)
        x0 -= math.floor(extra / 2)
        x1 = x0 + MIN_WIDTH
    if y1 - y0 < MIN_HEIGHT:
        extra = MIN_HEIGHT - (y1 - y0)
        y0 -= math.floor(extra / 2)
        y1 = y0 + MIN_HEIGHT
    if x1 - x0 < ASPECT * (y1 - y0):  # as wide as the map's frame: no empty bands beside it
        extra = ASPECT * (y1 - y0) - (x1 - x0)
        x0 -= math.floor(extra / 2)
        x1 = x0 + math.ceil(ASPECT * (y1 - y0))
    lines: list[tuple[float, float, float, float, bool]] = [
        (float(x), float(y0), float(x), float(y1), x % 5 == 0) for x in range(int(x0), int(x1) + 1)
    ]
    lines += [
        (float(x0), float(y), float(x1), float(y), y % 5 == 0) for y in range(int(y0), int(y1) + 1)
    ]
    order = list(dict.fromkeys(sides.get(fid, "") for fid in shown))
    scale = min(1.0, (x1 - x0) / TOKEN_WIDTHS)
    drawn = apart(shown, SPREAD * scale)
    tokens = tuple(
        Token(
            fid,
            names[fid],
            _initials(names[fid]),
            round(p[0], 2),
            round(p[1], 2),
            sides.get(fid, ""),
            order.index(sides.get(fid, "")) % 4,
            statuses.get(fid, ""),
            fid in hidden,
            drawn[fid],
        )
        for fid, p in shown.items()
    )
    covers = {c.id: c.label for c in bmap.covers}
    zones = tuple(
        Zone(z.id, _points(z.points), z.level, covers.get(z.level, z.level)) for z in bmap.zones
    )
    bands = {
        fid: [[b.label, b.upto, b.rule] for b in rows]
        for fid, rows in bmap.bands.items()
        if fid in shown
    }
    return MapView(
        unit=t(f"web.map.unit.{bmap.unit}", lang),
        unit_name=t(f"web.map.unit_name.{bmap.unit}", lang),
        box=(x0, y0, x1 - x0, y1 - y0),
        scale=round(scale, 4),
        lines=tuple(lines),
        tokens=tokens,
        zones=zones,
        covers=tuple(covers.items()),
        bands_json=json.dumps(bands, ensure_ascii=False),
        place=bmap.place,
        zone=bmap.zone,
        unzone=bmap.unzone,
    )
