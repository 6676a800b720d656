"""Quick NPCs of the western ruleset: from a few numbers, or from ``data/archetypes.yaml``.

The archetypes (a cowboy, a sheriff, an outlaw) are conteur's defaults, not the
book's. ``quick_npc`` turns the numbers of ``quick_npc_params`` into a sheet: the
skill (in percent) goes to the skill the weapon uses, the speed is RAPIDITÉ and the
hit points set CONSTITUTION (PV = CONSTITUTION + the tables' ``pv_bonus``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from conteur.engine import Param, get_ruleset
from conteur.engine.npcs import Archetype, Entry, build_archetypes, check_params
from conteur.i18n import Lang, t
from conteur.i18n.spelling import key_of

from .tables import default_tables


def _slug(name: str) -> str:
    """An id from a name: lower case, no accents, words joined by ``_``."""
    return key_of(name) or "npc"


def _check(entry: Entry, era: str | None) -> None:
    get_ruleset("western").new_state({"combatants": [entry]})


@cache
def archetypes(era: str | None = None) -> list[Archetype]:
    """The bundled opponents (checked: each starts a fight with the default tables); one
    era, ``era`` is not read."""
    text = resources.files("conteur.rulesets.western").joinpath("data", "archetypes.yaml")
    source = "western/data/archetypes.yaml"
    return build_archetypes(text.read_text("utf-8"), source, None, (), _check)


def quick_npc_params(era: str | None = None) -> tuple[Param, ...]:
    """The numbers a quick NPC is made from (one era: ``era`` is not read)."""
    tables = default_tables()
    bonus = tables.health.pv_bonus
    return (
        Param("name", "text"),
        Param("weapon", "choice", tuple(w.id for w in tables.weapons), default="colt_saa"),
        Param("skill", "int", min=1, max=100, default=40),
        Param("brawl", "int", min=0, max=100, default=30),
        Param("speed", "int", min=0, max=tables.characteristic_max, default=10),
        Param("health", "int", min=bonus, max=tables.characteristic_max + bonus, default=15),
        Param("ready", "bool", default=False),
    )


def param_label(name: str, lang: Lang | None = None) -> str:
    """The label of a quick-NPC parameter (``quick_npc_params``) in ``lang``."""
    return t(f"western.npc.param.{name}", lang)


def quick_npc(params: Mapping[str, Any], era: str | None = None) -> dict[str, Any]:
    """A scenario combatant entry from the numbers of ``quick_npc_params`` (``era`` is not
    read)."""
    values = check_params(quick_npc_params(), params)
    tables = default_tables()
    weapon = tables.weapon(str(values["weapon"]))
    skills = {"brawl": int(values["brawl"])}
    skills[weapon.skill] = int(values["skill"])
    entry: dict[str, Any] = {
        "id": _slug(str(values["name"])),
        "name": values["name"],
        "ready": bool(values["ready"]),
        "characteristics": {
            "rapidite": int(values["speed"]),
            "constitution": int(values["health"]) - tables.health.pv_bonus,
        },
        "skills": skills,
        "weapons": [weapon.id],
    }
    _check(entry, None)
    return entry
