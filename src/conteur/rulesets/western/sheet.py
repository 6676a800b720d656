"""A western combatant from the scenario: characteristics, skills, weapons (names fr/en)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from conteur.engine.inputs import (
    Flag,
    InputError,
    Key,
    check_keys,
    common,
    entry_of,
    over_sheet,
    placement,
    read_data,
    short,
    validate,
)
from conteur.i18n import ConteurError, Msg

from .fighter import FATES, Fighter
from .tables import Tables

FIELDS = {
    "id",
    "name",
    "nom",
    "side",
    "camp",
    "position",
    "characteristics",
    "caractéristiques",
    "skills",
    "compétences",
    "weapons",
    "armes",
    "off_hand",
    "main_secondaire",
    "ready",
    "prêt",
    "ambidextrous",
    "ambidextre",
    "human",
    "humain",
    "speed_bonus",
    "ajustement_rapidité",
    "pv",
    "helpless",
    "sans_défense",
    # carried from an earlier encounter (``end_state``)
    "pv_max",
    "fate",
    "reputation",
    "ammo",
    "unconscious",
}
ALIASES = {
    "nom": "name",
    "camp": "side",
    "caractéristiques": "characteristics",
    "compétences": "skills",
    "armes": "weapons",
    "main_secondaire": "off_hand",
    "prêt": "ready",
    "ambidextre": "ambidextrous",
    "humain": "human",
    "ajustement_rapidité": "speed_bonus",
    "sans_défense": "helpless",
}


ENTRY_KEYS = (
    Key("sheet", "fiche", "sheet"),
    *(
        Key(name, next((a for a, c in ALIASES.items() if c == name), name), name)
        for name in sorted(FIELDS - set(ALIASES))
    ),
)
"""The keys of a combatant entry, French or English (the French spelling shown first)."""


class WesternFlags(BaseModel):
    """The yes/no fields of a combatant (``prêt: non`` is False, ``prêt: peut-être`` refused)."""

    model_config = ConfigDict(extra="ignore")

    ready: Flag = True
    ambidextrous: Flag = False
    human: Flag = True
    helpless: Flag = False


def _int(value: Any, fighter: str, field: str, low: int, high: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ConteurError(
            "western.sheet.bad_number", fighter=fighter, field=field, value=value
        ) from None
    if not low <= number <= high:
        raise ConteurError(
            "western.sheet.out_of_range",
            fighter=fighter,
            field=field,
            value=number,
            low=low,
            high=high,
        )
    return number


def fighter_from_scenario(
    raw: Any, index: int, tables: Tables, base_dir: Path | None = None
) -> Fighter:
    """One combatant (ConteurError naming the fighter and the field when something is wrong).

    The sheet may be inline, under ``sheet`` (a mapping or a YAML file), with the
    encounter's keys (``id``, ``side``, ``position``, carried PV...) beside it.
    """
    entry = entry_of(index, raw)
    if not isinstance(raw, Mapping):
        raise InputError(Msg("input.reason.not_mapping", value=short(raw)), entry=entry)
    if "sheet" in raw:
        sheet = raw["sheet"]
        if isinstance(sheet, str):
            path = (base_dir or Path(".")) / sheet
            if not path.is_file():
                raise InputError(
                    Msg("input.reason.no_file", path=sheet), entry=entry, field=ENTRY_KEYS[0]
                )
            sheet = read_data(path)
        raw = over_sheet(raw, sheet, ENTRY_KEYS, entry=entry)
    data = check_keys(raw, ENTRY_KEYS, entry=entry)
    given = common(data, known=ENTRY_KEYS, entry=entry)
    flags = validate(WesternFlags, data, known=ENTRY_KEYS, entry=entry)
    fid = given.id or f"c{index + 1}"
    name = given.name or fid
    chars = {c.id: tables.characteristic_default for c in tables.characteristics}
    for key, value in _section(data, "characteristics", entry).items():
        cid = tables.characteristic_id(str(key))
        chars[cid] = _int(value, fid, str(key), 0, tables.characteristic_max)
    skills: dict[str, int] = {}
    for key, value in _section(data, "skills", entry).items():
        skills[tables.skill_id(str(key))] = _int(value, fid, str(key), 0, 100)
    listed = data.get("weapons") or []
    if not isinstance(listed, list):
        raise InputError(
            Msg("input.reason.not_list", value=short(listed)), entry=entry, field=_KEY["weapons"]
        )
    weapons = [tables.weapon(str(w)).id for w in listed]
    off = data.get("off_hand")
    off_hand = None
    if off:
        w = tables.weapon(str(off))
        if w.kind != "revolver":
            raise ConteurError("western.sheet.off_hand", fighter=fid, weapon=w.id, rule="W-SPD-3")
        off_hand = w.id
    ammo: dict[str, int] = {}
    if weapons and tables.weapon(weapons[0]).capacity:
        ammo["main"] = int(tables.weapon(weapons[0]).capacity or 0)
    if off_hand and tables.weapon(off_hand).capacity:
        ammo["off"] = int(tables.weapon(off_hand).capacity or 0)
    pv_max = chars["constitution"] + tables.health.pv_bonus
    if "reputation" in data:
        chars["reputation"] = _int(data["reputation"], fid, "reputation", 0, 99)
    pv = _int(data["pv"], fid, "pv", -100, 200) if "pv" in data else pv_max
    for hand, rounds in _section(data, "ammo", entry).items():
        if hand in ammo:
            ammo[hand] = _int(rounds, fid, f"ammo.{hand}", 0, 999)
    fate = str(data.get("fate") or "alive")
    if fate not in FATES:
        raise ConteurError(
            "western.sheet.bad_fate", fighter=fid, value=fate, known=", ".join(FATES)
        )
    return Fighter(
        **placement(fid, given.side, given.position),
        name=name,
        characteristics=chars,
        skills=skills,
        weapons=weapons,
        off_hand=off_hand,
        ammo=ammo,
        pv=pv,
        pv_max=max(pv_max, pv),
        ready=flags.ready,
        ambidextrous=flags.ambidextrous,
        human=flags.human,
        speed_bonus=_int(data.get("speed_bonus", 0), fid, "speed_bonus", -24, 24),
        helpless=flags.helpless,
        fate=fate,
        unconscious=_int(data.get("unconscious", 0), fid, "unconscious", 0, 999),
    )


_KEY = {k.name: k for k in ENTRY_KEYS}


def _section(data: Mapping[str, Any], name: str, entry: Any) -> Mapping[Any, Any]:
    """A mapping of the entry (``caractéristiques``...), empty when absent."""
    value = data.get(name) or {}
    if not isinstance(value, Mapping):
        raise InputError(
            Msg("input.reason.not_mapping", value=short(value)), entry=entry, field=_KEY[name]
        )
    return value


@dataclass(frozen=True)
class CheckedSheet:
    """A sheet that passed the checks, with the id and name it gives (for the store)."""

    id: str
    name: str


def load_sheet(sheet: Mapping[str, Any], source: str = "<sheet>") -> CheckedSheet:
    """Check a character sheet against the default tables (French or English names)."""
    from .tables import default_tables

    f = fighter_from_scenario(sheet, 0, default_tables())
    given_id = sheet.get("id")
    return CheckedSheet(
        str(given_id) if given_id else "",
        f.name if f.name != f.id or sheet.get("name") or sheet.get("nom") else "",
    )
