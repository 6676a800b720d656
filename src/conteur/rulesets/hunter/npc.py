"""Quick NPCs of the hunter ruleset: from a few numbers, or from ``data/archetypes.yaml``.

The archetypes (a thug, a cultist, a slasher, a ghoul, a vampire, a werewolf, a
zombie) are conteur's defaults, not the books'. ``quick_npc`` turns the numbers of
``quick_npc_params`` into a sheet: the attack pool (before the weapon's bonus) is
split into the attribute and the skill the weapon uses (Strength + Brawl or
Weaponry, Dexterity + Firearms or Athletics), the Defense sets Dexterity and Wits
(Defense is the lower), the health is Stamina + Size.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from conteur.engine import Param, get_ruleset
from conteur.engine.npcs import Archetype, Entry, build_archetypes, check_params
from conteur.i18n import Lang, t

from .sheet import normalize
from .tables import load_tables

SKILL_OF = {"unarmed": "brawl", "melee": "weaponry", "firearm": "firearms", "thrown": "athletics"}


def _check(entry: Entry, era: str | None) -> None:
    get_ruleset("hunter").new_state({"combatants": [entry]})


@cache
def archetypes(era: str | None = None) -> list[Archetype]:
    """The bundled opponents (checked: each starts a fight); one era, ``era`` is not read."""
    text = resources.files("conteur.rulesets.hunter").joinpath("data", "archetypes.yaml")
    source = "hunter/data/archetypes.yaml"
    return build_archetypes(text.read_text("utf-8"), source, None, (), _check)


def quick_npc_params(era: str | None = None) -> tuple[Param, ...]:
    """The numbers a quick NPC is made from (one era: ``era`` is not read)."""
    tables = load_tables()
    return (
        Param("name", "text"),
        Param("kind", "choice", ("monster", "bystander", "hunter"), default="monster"),
        Param("attack", "int", min=1, max=12, default=5),
        Param("weapon", "choice", ("", *tables.weapons), required=False, default=""),
        Param("unarmed", "choice", ("B", "L", "A"), default="B"),
        Param("defense", "int", min=0, max=6, default=2),
        Param("armour", "choice", ("", *tables.armour), required=False, default=""),
        Param("health", "int", min=3, max=20, default=7),
    )


def param_label(name: str, lang: Lang | None = None) -> str:
    """The label of a quick-NPC parameter (``quick_npc_params``) in ``lang``."""
    return t(f"hunter.npc.param.{name}", lang)


def quick_npc(params: Mapping[str, Any], era: str | None = None) -> dict[str, Any]:
    """A scenario combatant entry from the numbers of ``quick_npc_params`` (``era`` is not
    read)."""
    values = check_params(quick_npc_params(), params)
    weapon = load_tables().weapons[values["weapon"]] if values["weapon"] else None
    category = weapon.category if weapon is not None else "unarmed"
    attack, defense = int(values["attack"]), int(values["defense"])
    skill = SKILL_OF[category]
    share = max(1, min(5, (attack + 1) // 2))
    entry: dict[str, Any] = {
        "id": normalize(str(values["name"])) or "npc",
        "name": values["name"],
        "kind": values["kind"],
        "wits": defense,
        "composure": 2,
    }
    if category in ("unarmed", "melee"):
        entry.update(strength=share, dexterity=defense)
        entry[skill] = attack - share
    else:
        dexterity = max(share, defense)
        entry.update(strength=2, dexterity=dexterity)
        entry[skill] = max(0, attack - dexterity)
    health = int(values["health"])
    stamina = max(1, min(5, health - 5))
    entry.update(stamina=stamina, size=health - stamina, unarmed=values["unarmed"])
    if weapon is not None:
        entry["weapon"] = weapon.id
    if values["armour"]:
        entry["armour"] = values["armour"]
    _check(entry, None)
    return entry
