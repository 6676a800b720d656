"""The words players read for a fighter's health: a ladder over the health levels (V-DMG-5).

The ladder is data (``data/bands.yaml``): indemne, égratigné, blessé, gravement
blessé, hors de combat, mort — each band naming the health levels and the fates
that read as it. ``register_bands`` adds each band's words to the catalogue as
``vtm.band.<id>`` when the ladder is first read; ``band_of`` picks the band of a
fighter's level and fate.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from conteur.i18n import register_catalog_later, safe_yaml


@dataclass(frozen=True)
class Band:
    """One rung of the ladder: its id, its words, the levels and fates that read as it."""

    id: str
    fr: str
    en: str
    levels: frozenset[str] = frozenset()
    fates: frozenset[str] = frozenset()

    @property
    def key(self) -> str:
        """The catalogue key of its words."""
        return f"vtm.band.{self.id}"


@dataclass(frozen=True)
class Ladder:
    """The bands, best first, and the one a level no band lists reads as."""

    bands: tuple[Band, ...]
    fallback: str

    def band_of(self, level: str | None, fate: str) -> Band:
        """The band of a fighter whose worst filled box is ``level`` (None: unhurt) and whose
        fate (or state: ``unconscious``) is ``fate``."""
        for band in self.bands:
            if fate in band.fates:
                return band
        if level is None:
            return self.bands[0]
        for band in self.bands:
            if level in band.levels:
                return band
        return self.by_id(self.fallback)

    def by_id(self, band_id: str) -> Band:
        return next(b for b in self.bands if b.id == band_id)


@lru_cache(maxsize=1)
def ladder() -> Ladder:
    """The ladder of ``data/bands.yaml``; its words join the catalogue as it is first read."""
    text = resources.files("conteur.rulesets.vtm").joinpath("data", "bands.yaml")
    raw = safe_yaml(text.read_text(encoding="utf-8"))
    bands = tuple(
        Band(
            id=str(b["id"]),
            fr=str(b["names"]["fr"]),
            en=str(b["names"]["en"]),
            levels=frozenset(str(x) for x in b.get("levels") or ()),
            fates=frozenset(str(x) for x in b.get("fates") or ()),
        )
        for b in raw["bands"]
    )
    found = Ladder(bands=bands, fallback=str(raw.get("fallback", bands[0].id)))
    register_bands(found)
    return found


def register_bands(found: Ladder) -> None:
    """Add each band's words to the catalogue (``vtm.band.<id>``), once (made when the
    catalogs are read up to them)."""

    def fresh(known: Mapping[str, object]) -> dict[str, dict[str, str]]:
        return {b.key: {"fr": b.fr, "en": b.en} for b in found.bands if b.key not in known}

    register_catalog_later("conteur.rulesets.vtm/data/bands.yaml", fresh)


__all__ = ["Band", "Ladder", "ladder", "register_bands"]
