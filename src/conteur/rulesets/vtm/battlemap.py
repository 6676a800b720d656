"""The battle map of a vtm fight (``Ruleset.battle_map``): positions in metres, the cover
zones (V-RNG-3, drawn by ``gm_zone``), the cover table's levels, and each fighter's range
bands (V-RNG-5) for the weapon in its hand, from the era's tables.

A move on the map is ``gm_move``, a zone ``gm_zone``, its removal ``gm_unzone``: the same
commands the script and the tools' forms send. The range bands are shown only while the
rule that reads them (``ranged.range_band``) is in the encounter's rulebook: an option
pack that replaces it prices distance its own way.
"""

from __future__ import annotations

from conteur.engine.battlemap import BattleMap, MapBand, MapCover
from conteur.i18n import Lang, t

from . import equipment
from .rulebook import rules_of
from .state import VtmState

RANGED_CATEGORIES = ("ranged", "thrown")


def battle_map(state: VtmState, lang: Lang | None = None) -> BattleMap:
    tables = equipment.tables(state)
    covers = tuple(MapCover(c.id, c.label(lang), c.rule) for c in tables.cover.values())
    bands: dict[str, tuple[MapBand, ...]] = {}
    from .ranged import range_band

    if range_band in rules_of(state).difficulty_rules:
        beyond = t("vtm.map.out_of_range", lang)
        for f in state.fighters.values():
            w = equipment.weapon_in_hand(state, f)
            if w is None or w.category not in RANGED_CATEGORIES or not w.range:
                continue
            rows = [MapBand(b.id, b.label(lang), b.limit(w.range), b.rule) for b in tables.ranges]
            bands[f.id] = (*rows, MapBand("beyond", beyond, None, "V-GEN-2"))
    return BattleMap(
        unit="metre",
        positions={f.id: f.position for f in state.fighters.values()},
        zones=tuple(state.zones.values()),
        covers=covers,
        bands=bands,
        place="gm_move",
        zone="gm_zone",
        unzone="gm_unzone",
    )
