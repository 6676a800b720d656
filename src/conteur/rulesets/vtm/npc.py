"""Quick NPCs of the vtm ruleset: from a few numbers, or from ``data/archetypes.yaml``.

The archetypes (a thug, a policeman, a ghoul, in 1899 and in modern nights) are
conteur's defaults, not the books': a game master edits the entry they give, or
the data file. ``quick_npc`` turns the numbers of ``quick_npc_params`` into a sheet:
the attack pool is split into Dexterity and the ability of the weapon (Brawl,
Melee, Firearms, Athletics for a thrown one), the damage is Strength (plus the
weapon's bonus in close combat; a firearm deals its own), the soak is Stamina,
and the health is the number of levels of the track (the worst ones kept last).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from conteur.engine import Param, get_ruleset
from conteur.engine.npcs import Archetype, Entry, build_archetypes, check_params
from conteur.i18n import Lang, t

from .tables import DEFAULT_ERA, ERAS, _builtin_text, _normalise_era, load_tables
from .traits import normalize_key
from .words import register_words

HEALTH_LEVELS = ("bruised", "hurt", "injured", "wounded", "mauled", "crippled", "incapacitated")
ABILITY_OF = {"brawl": "brawl", "melee": "melee", "ranged": "firearms", "thrown": "athletics"}


def era_of(era: str | None) -> str:
    """The era of the tables ``era`` names (the default era when None)."""
    return _normalise_era(era) if era else DEFAULT_ERA


def _check(entry: Entry, era: str | None) -> None:
    get_ruleset("vtm").new_state({"era": era or DEFAULT_ERA, "combatants": [entry]})


@cache
def archetypes(era: str | None = None) -> list[Archetype]:
    """The bundled opponents of ``era`` (checked: each starts a fight in that era)."""
    chosen = era_of(era)
    load_tables(chosen)  # an unknown era is refused here, naming the eras there are
    text = _builtin_text("archetypes.yaml")
    source = "vtm/data/archetypes.yaml"
    return build_archetypes(text, source, chosen, ERAS, _check, name_path=("sheet", "name"))


def quick_npc_params(era: str | None = None) -> tuple[Param, ...]:
    """The numbers of a quick NPC, with their ranges; ``weapon`` offers the era's weapons
    (their names registered as words: a form may list them before any fight of the era)."""
    tables = load_tables(era_of(era))
    register_words(tables)
    weapons = tuple(tables.weapons)
    return (
        Param("name", "text"),
        Param("kind", "choice", ("mortal", "vampire", "supernatural"), default="mortal"),
        Param("attack", "int", min=1, max=10, default=4),
        Param("damage", "int", min=1, max=10, default=3),
        Param("soak", "int", min=1, max=10, default=2),
        Param("health", "int", min=1, max=len(HEALTH_LEVELS), default=len(HEALTH_LEVELS)),
        Param("weapon", "choice", ("", *weapons), required=False, default=""),
        Param("willpower", "int", min=1, max=10, default=3),
    )


def param_label(name: str, lang: Lang | None = None) -> str:
    """The label of a quick-NPC parameter (``quick_npc_params``) in ``lang``."""
    return t(f"vtm.npc.param.{name}", lang)


def quick_npc(params: Mapping[str, Any], era: str | None = None) -> dict[str, Any]:
    """A scenario combatant entry from the numbers of ``quick_npc_params``."""
    chosen = era_of(era)
    values = check_params(quick_npc_params(chosen), params)
    tables = load_tables(chosen)
    weapon = tables.weapons[values["weapon"]] if values["weapon"] else None
    attack = int(values["attack"])
    dexterity = max(1, min(5, (attack + 1) // 2))
    ability = ABILITY_OF[weapon.category] if weapon is not None else "brawl"
    bonus = weapon.damage.strength_plus or 0 if weapon is not None else 0
    close = weapon is None or weapon.category in ("melee", "brawl")
    strength = max(1, min(10, int(values["damage"]) - (bonus if close else 0)))
    sheet: dict[str, Any] = {
        "name": values["name"],
        "kind": values["kind"],
        "attributes": {
            "strength": strength,
            "dexterity": dexterity,
            "stamina": int(values["soak"]),
            "wits": 2,
        },
        "willpower": int(values["willpower"]),
    }
    if attack > dexterity:
        sheet["abilities"] = {ability: attack - dexterity}
    if weapon is not None:
        sheet["weapons"] = [weapon.id]
    levels = int(values["health"])
    if levels < len(HEALTH_LEVELS):
        sheet["health_levels"] = [*HEALTH_LEVELS[: levels - 1], HEALTH_LEVELS[-1]]
    entry: dict[str, Any] = {"id": normalize_key(str(values["name"])) or "npc", "sheet": sheet}
    _check(entry, chosen)
    return entry
