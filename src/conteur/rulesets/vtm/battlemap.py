"""The battle map of a vtm fight (``Ruleset.battle_map``): positions in metres, the cover
zones (V-RNG-3, drawn by ``gm_zone``), the cover table's levels, and each fighter's range
bands for the weapon in its hand.

A move on the map is ``gm_move``, a zone ``gm_zone``, its removal ``gm_unzone``: the same
commands the script and the tools' forms send. The range bands are those of the difficulty
rule in the encounter's rulebook that prices a shot by its distance (``hooks.shows_bands``):
core V-RNG-5's (``ranged.range_band``: point blank, short, maximum range), or, with the
house_ranged pack that replaces it, R-SHOT-1's metres (``shots.shot_distance``). Beyond the
weapon's maximum range no shot is possible (V-GEN-2).
"""

from __future__ import annotations

from conteur.engine.battlemap import BattleMap, MapBand, MapCover, MapKind
from conteur.i18n import Lang, t

from . import equipment, hooks
from .hooks import MAP_BANDS
from .rulebook import rules_of
from .state import VtmState

RANGED_CATEGORIES = ("ranged", "thrown")

MAP = MapKind("metre", place="gm_move", zone="gm_zone", unzone="gm_unzone")
"""Vtm's maps: metres, and the game master's commands moving fighters and drawing zones."""


def battle_map(state: VtmState, lang: Lang | None = None) -> BattleMap:
    tables = equipment.tables(state)
    covers = tuple(MapCover(c.id, c.label(lang), c.rule) for c in tables.cover.values())
    bands: dict[str, tuple[MapBand, ...]] = {}
    sources = [MAP_BANDS[r] for r in rules_of(state).of(hooks.difficulty_rule) if r in MAP_BANDS]
    if sources:
        beyond = t("vtm.map.out_of_range", lang)
        for f in state.fighters.values():
            w = equipment.weapon_in_hand(state, f)
            if w is None or w.category not in RANGED_CATEGORIES or not w.range:
                continue
            rows = sources[0](state, w, lang)
            bands[f.id] = (*rows, MapBand("beyond", beyond, None, "V-GEN-2"))
    positions = {f.id: f.position for f in state.fighters.values()}
    return MAP.of(positions, tuple(state.zones.values()), covers, bands)
