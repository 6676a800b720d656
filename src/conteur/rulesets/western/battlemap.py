"""The battle map of a western fight (``Ruleset.battle_map``) and its place command.

Positions in metres; each fighter's bands for the weapon in its main hand: a revolver shows
the 20 m within which it may fire instinctively (W-SKL-2; beyond, shooting is always aimed,
W-SKL-4, unless the table's ``instinctive_beyond`` option says otherwise), then its range
(W-RNG-1); any other ranged weapon its range. A move on the map is ``gm_place`` (logged,
undoable), which the shots then read: the distance decides aimed or instinctive fire and
whether the target is in range. The excerpt names no cover: the western map has no zones.
"""

from __future__ import annotations

import math

from conteur.engine import Command, Resolution
from conteur.engine.battlemap import BattleMap, MapBand, MapKind
from conteur.engine.geometry import distance, parse_position
from conteur.i18n import ConteurError, Lang, t

from .events import Placed
from .state import WesternState

PLACE = "gm_place"
MAP = MapKind("metre", place=PLACE)
"""Western's maps: metres, and the game master's command placing fighters (no zones)."""


def place(ctx: Resolution, command: Command) -> None:
    """The game master places a fighter on the map (``to``: ``"x,y"`` in metres)."""
    state: WesternState = ctx.state
    fid = command.get("fighter")
    if not isinstance(fid, str) or fid not in state.fighters:
        raise ConteurError(
            "western.map.unknown",
            field="fighter",
            value=str(fid or "—"),
            known=", ".join(state.fighters),
        )
    raw = command.get("to")
    try:
        x, y = parse_position(raw)
    except (ValueError, TypeError, IndexError):
        x = y = math.nan
    if not (math.isfinite(x) and math.isfinite(y)):
        shown = "—" if raw in (None, "") else str(raw)
        raise ConteurError("western.map.position", field="to", value=shown)
    f = state.fighters[fid]
    x, y = round(x, 2), round(y, 2)
    ctx.emit(Placed(fighter=f.id, x=x, y=y, metres=round(distance(f.position, (x, y)), 2)))


def battle_map(state: WesternState, lang: Lang | None = None) -> BattleMap:
    tables = state.tables
    bands: dict[str, tuple[MapBand, ...]] = {}
    beyond = MapBand("beyond", t("western.map.out_of_range", lang), None, "W-RNG-1")
    for f in state.fighters.values():
        if not f.weapons:
            continue
        w = tables.weapon(f.weapons[0])
        if w.kind in ("melee", "fists"):
            continue
        in_range = MapBand("in_range", t("western.map.in_range", lang), w.range, "W-RNG-1")
        rows = [in_range]
        limit = tables.instinctive_max_range
        if w.kind == "revolver" and not state.options.get("instinctive_beyond") and limit < w.range:
            rows = [
                MapBand("instinctive", t("western.map.instinctive", lang), limit, "W-SKL-2"),
                MapBand("aimed", t("western.map.aimed", lang, metres=limit), w.range, "W-SKL-4"),
            ]
        bands[f.id] = (*rows, beyond)
    return MAP.of({f.id: f.position for f in state.fighters.values()}, bands=bands)
