"""The battle map of a hunter fight (``Ruleset.battle_map``): positions in yards (H-RNG-1),
the cover zones the Storyteller drew (``gm_zone``, levels of ``data/cover.yaml``), and each
fighter's range bands for the weapon in its hand (its ranges; a thrown object's from
Strength + Dexterity + Athletics, H-THR-1).

A move on the map is ``gm_place``, a zone ``gm_zone``, its removal ``gm_unzone``: the same
commands the tools' forms send. An attack that names no band (``range``) nor ``distance``
takes the band of the map, the one shown here (``attack.range_band``).
"""

from __future__ import annotations

from conteur.engine.battlemap import BattleMap, MapBand, MapCover, MapKind
from conteur.i18n import Lang, t

from .attack import BANDS, RANGE_PENALTY, throw_ranges
from .cover import zone_levels
from .state import Fighter, HunterState

MAP = MapKind("yard", place="gm_place", zone="gm_zone", unzone="gm_unzone")
"""Hunter's maps: yards, and the game master's commands placing fighters and drawing zones."""

RANGE_WORDS = {
    "short": "hunter.mod.range_short",
    "medium": "hunter.mod.range_medium",
    "long": "hunter.mod.range_long",
}
"""Each range band's name in the reader's words (H-RNG-1)."""


def ranges_of(state: HunterState, f: Fighter) -> tuple[int, int, int] | None:
    """The short, medium and long ranges of the weapon in ``f``'s hand (None: no ranged one)."""
    w = state.weapon_of(f)
    if w is None:
        return None
    if w.category == "firearm":
        return w.ranges
    if w.category == "thrown":
        return throw_ranges(f, w, far=False)
    return None


def battle_map(state: HunterState, lang: Lang | None = None) -> BattleMap:
    covers = tuple(
        MapCover(level, t(f"hunter.word.{level}", lang), "H-COV-1") for level in zone_levels()
    )
    bands: dict[str, tuple[MapBand, ...]] = {}
    beyond = t("hunter.map.out_of_range", lang)
    for f in state.fighters.values():
        ranges = ranges_of(state, f)
        if ranges is None or not ranges[2]:
            continue
        rows = []
        for band, limit in zip(BANDS, ranges, strict=True):
            name = t(RANGE_WORDS[band], lang)
            penalty = RANGE_PENALTY[band]
            shown = t("hunter.map.band", lang, band=name, penalty=penalty) if penalty else name
            # One rule prices the three bands (the checklist's H-RNG-1: short 0, medium −2,
            # long −4): a drag across them changes the band and its penalty, not the id.
            rows.append(MapBand(band, shown, float(limit), "H-RNG-1"))
        bands[f.id] = (*rows, MapBand("beyond", beyond, None, "H-RNG-1"))
    positions = {f.id: f.position for f in state.fighters.values() if not f.withdrawn}
    return MAP.of(positions, tuple(state.zones.values()), covers, bands)
