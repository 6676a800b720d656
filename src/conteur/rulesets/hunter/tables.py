"""The shipped tables (firearms, melee weapons, thrown objects, armour, options) as YAML data."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from conteur.i18n import ConteurError, Lang, safe_yaml
from conteur.runcache import shipped_yaml

DAMAGE_TYPES = {"B": "bashing", "L": "lethal", "A": "aggravated"}


@dataclass(frozen=True)
class Weapon:
    """One weapon or throwable object of the tables."""

    id: str
    category: str  # "firearm", "melee", "thrown"
    fr: str
    en: str
    damage: int
    damage_type: str  # "bashing", "lethal", "aggravated"
    size: int
    strength: int
    ranges: tuple[int, int, int] = (0, 0, 0)
    clip: int = 0
    autofire: bool = False
    reload: str = "clip"
    reload_turns: int = 1
    again: int = 10
    pierce: int = 0
    aerodynamic: bool = False
    defense_vs_unarmed: int = 0
    tags: tuple[str, ...] = ()

    def label(self, lang: Lang) -> str:
        return self.fr if lang == "fr" else self.en


@dataclass(frozen=True)
class Armour:
    """General and ballistic ratings of a piece of armour (H-ATK-2)."""

    id: str
    fr: str
    en: str
    general: int
    ballistic: int
    defense: int = 0


@dataclass(frozen=True)
class Tables:
    weapons: dict[str, Weapon]
    armour: dict[str, Armour]
    options: dict[str, Any]

    def weapon(self, ref: str) -> Weapon:
        try:
            return self.weapons[ref]
        except KeyError:
            raise ConteurError(
                "hunter.unknown_weapon", name=ref, known=", ".join(sorted(self.weapons))
            ) from None


def _read(name: str) -> Any:
    text = resources.files("conteur.rulesets.hunter").joinpath("data", name).read_text("utf-8")
    return shipped_yaml(text, safe_yaml)  # parsed once between runs (conteur.runcache)


def _weapon(wid: str, category: str, row: dict[str, Any]) -> Weapon:
    ranges = tuple(int(r) for r in row.get("ranges", (0, 0, 0)))
    size = int(row.get("size", 1))
    return Weapon(
        id=wid,
        category=category,
        fr=str(row.get("fr", wid)),
        en=str(row.get("en", wid)),
        damage=int(row.get("damage", 0)),
        damage_type=DAMAGE_TYPES[str(row.get("type", "L"))],
        size=size,
        strength=int(row.get("strength", size)),
        ranges=(ranges[0], ranges[1], ranges[2]),
        clip=int(row.get("clip", 0)),
        autofire=bool(row.get("autofire", False)),
        reload=str(row.get("reload", "clip")),
        reload_turns=int(row.get("reload_turns", 1)),
        again=int(row.get("again", 10)),
        pierce=int(row.get("pierce", 0)),
        aerodynamic=bool(row.get("aerodynamic", False)),
        defense_vs_unarmed=int(row.get("defense_vs_unarmed", 0)),
        tags=tuple(str(t) for t in row.get("tags", ()) or ()),
    )


@lru_cache(maxsize=1)
def load_tables() -> Tables:
    """The shipped tables (read once)."""
    data = _read("weapons.yaml")
    weapons: dict[str, Weapon] = {}
    for category, key in (("firearm", "firearms"), ("melee", "melee"), ("thrown", "thrown")):
        for wid, row in data[key].items():
            weapons[wid] = _weapon(wid, category, row)
    armour = {
        aid: Armour(
            aid,
            str(row["fr"]),
            str(row["en"]),
            int(row["general"]),
            int(row["ballistic"]),
            int(row.get("defense", 0)),
        )
        for aid, row in _read("armour.yaml").items()
    }
    return Tables(weapons, armour, dict(_read("options.yaml")))


def option_values(chosen: dict[str, Any] | None) -> dict[str, Any]:
    """The table options of a scenario over the defaults (ConteurError for an unknown one)."""
    values = dict(load_tables().options)
    for key, value in (chosen or {}).items():
        if key not in values:
            raise ConteurError(
                "hunter.unknown_option", name=str(key), known=", ".join(sorted(values))
            )
        values[key] = value
    if values["autofire_penalty"] not in ("text", "core"):
        raise ConteurError(
            "hunter.bad_option", name="autofire_penalty", value=str(values["autofire_penalty"])
        )
    return values
