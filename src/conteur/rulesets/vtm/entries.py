"""A combatant entry of a vtm scenario (or a ``join``) read into a ``Fighter``.

Below the ruleset (which starts an encounter's fighters with it) and the state (which
admits a newcomer with it); ``.ruleset`` re-exports these names.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from conteur.engine.conditions import Condition
from conteur.engine.inputs import (
    Count,
    Flag,
    InputError,
    Key,
    Position,
    Text,
    check_keys,
    entry_of,
    keys,
    normalize,
    placement,
    read_data,
    validate,
)
from conteur.i18n import Msg

from .conditions import VtmConditions
from .fighter import Fighter
from .health import HealthTrack, Level
from .sheet import _FIELD_SPELLINGS, load_sheet
from .tables import Tables
from .traits import normalize_key

ENTRY_KEYS = keys(
    Key("id", "id", "id", ("identifiant",)),
    Key("side", "camp", "side"),
    "position",
    Key("cover", "couvert", "cover"),
    Key("weapon", "arme", "weapon"),
    "health",
    "willpower",
    "blood",
    Key("ammo", "munitions", "ammo"),
    Key("conditions", "conditions", "conditions", ("etats",)),
    Key("sheet", "fiche", "sheet"),
    Key("armour_destroyed", "armure_détruite", "armour_destroyed", ("armor_destroyed",)),
)
"""A combatant entry's own keys: the encounter's, and the state it carries (written in
English where the sheet has a French field of that name: ``Volonté``, ``santé``)."""

STATE_KEYS = {k.name for k in ENTRY_KEYS}


class VtmEntry(BaseModel):
    """A combatant entry's encounter keys, checked (the sheet is checked by ``load_sheet``)."""

    model_config = ConfigDict(extra="forbid")

    id: Text | None = None
    side: Text | None = None
    position: Position = (0.0, 0.0)
    cover: Count | Text = 0
    weapon: Text | None = None
    health: list[Text] = []
    willpower: Count | None = Field(default=None, le=10)
    blood: Count | None = Field(default=None, le=100)
    ammo: dict[str, Count] = {}
    conditions: dict[str, Any] = {}
    sheet: Text | dict[str, Any] | None = None
    armour_destroyed: Flag = False


def health_levels(tables: Tables) -> tuple[Level, ...]:
    """The health track of the tables as the track's levels (V-DMG-5)."""
    out = []
    for lvl in tables.health.levels:
        move_limit = float(lvl.metres) if lvl.move == "fixed" and lvl.metres is not None else None
        running = {"run": "full", "half_run": "half"}.get(str(lvl.move), "none")
        out.append(
            Level(
                key=lvl.id,
                fr=lvl.names.fr,
                en=lvl.names.en,
                penalty=int(lvl.penalty),
                move_limit=move_limit,
                running=running,
            )
        )
    return tuple(out)


def fighter_from_scenario(
    raw: Mapping[str, Any],
    index: int,
    tables: Tables,
    levels: tuple[Level, ...],
    base_dir: Path | None,
    kinds: Mapping[str, type[Condition]] | None = None,
) -> Fighter:
    """A fighter from one ``combatants`` entry: a sheet (inline or a file) and its current state
    (its conditions read with the encounter's condition kinds, ``kinds``).

    With a ``sheet`` key, the entry's other keys are the encounter's (``ENTRY_KEYS``: any
    other is refused with the nearest); without one, the entry is the sheet and those keys.
    """
    entry = entry_of(index, raw)
    if not isinstance(raw, Mapping):
        raise InputError(Msg("input.reason.not_mapping", value=str(raw)[:60]), entry=entry)
    own = {k: v for k, v in raw.items() if normalize_key(str(k)) in _ENTRY_SPELLINGS}
    has_sheet = any(_ENTRY_SPELLINGS[normalize(str(k))] == "sheet" for k in own)
    if has_sheet:
        own = dict(raw)
    keys = check_keys(own, ENTRY_KEYS, entry=entry)
    checked = validate(VtmEntry, keys, known=ENTRY_KEYS, entry=entry)
    sheet_data: Any = checked.sheet
    source, where = "", entry
    if isinstance(sheet_data, str):
        source = str((base_dir or Path(".")) / sheet_data)
        sheet_data = sheet_file(sheet_data, base_dir, entry)
        where = Msg("input.entry.sheet")
    if sheet_data is None:
        sheet_data = {k: v for k, v in raw.items() if k not in own}
    sheet_data = dict(sheet_data)
    given = {_FIELD_SPELLINGS.get(normalize_key(str(k))) for k in sheet_data}
    # A sheet may spell its fields in French (type, nom): add only what no spelling gives —
    # a mortal, named after the entry's id (the short form of an extra: ``{id: sam}``).
    if "kind" not in given:
        sheet_data["kind"] = "mortal"
    if checked.id:
        if "id" not in given:
            sheet_data["id"] = checked.id
        if "name" not in given:
            sheet_data["name"] = checked.id.capitalize()
    sheet = load_sheet(sheet_data, source or "<inline>", where)
    tables = tables.with_weapons(sheet.custom_weapons)
    fid = checked.id or sheet.id
    for w in sheet.weapons:
        tables.weapon(str(w))
    try:
        health = HealthTrack.from_marks(list(checked.health), levels)
    except ValueError as exc:
        raise InputError(
            Msg("vtm.reason.health_mark", value=str(exc)), entry=entry, field=ENTRY_KEYS[5]
        ) from None
    ammo = {}
    for w in sheet.weapons:
        weapon = tables.weapon(str(w))
        if weapon.clip:
            ammo[weapon.id] = int(weapon.clip) + int(weapon.chamber or 0)
    for key, value in checked.ammo.items():
        ammo[tables.weapon(str(key)).id] = value
    in_hand = checked.weapon if "weapon" in keys else (sheet.weapons[0] if sheet.weapons else None)
    willpower = sheet.willpower if checked.willpower is None else checked.willpower
    if willpower > sheet.willpower:
        raise InputError(
            Msg("input.reason.max", limit=sheet.willpower, value=willpower),
            entry=entry,
            field=ENTRY_KEYS[6],
        )
    return Fighter(
        **placement(fid, checked.side, checked.position),
        sheet=sheet,
        health=health,
        willpower=willpower,
        blood=sheet.blood if checked.blood is None else checked.blood,
        ammo=ammo,
        weapon=tables.weapon(str(in_hand)).id if in_hand else None,
        armour=tables.find_armour(str(sheet.armour)).id if sheet.armour else None,
        armour_destroyed=checked.armour_destroyed,
        cover=scenario_cover(checked.cover, tables),
        conditions=VtmConditions.read(checked.conditions, kinds),
    )


def sheet_file(name: str, base_dir: Path | None, entry: Any) -> Any:
    """The sheet a combatant entry names (``sheet: lucien.yaml``, beside the scenario); a file
    that cannot be read is refused as the entry's ``sheet`` field."""
    path = (base_dir or Path(".")) / name
    if not path.is_file():
        raise InputError(Msg("input.reason.no_file", path=name), entry=entry, field=ENTRY_KEYS[10])
    return read_data(path)


_ENTRY_SPELLINGS = {s: k.name for k in ENTRY_KEYS for s in k.spellings()}


def scenario_cover(value: Any, tables: Tables) -> int:
    """A cover level from a scenario: 0 to 3, or a word of the cover table (``bon``, ``light``)."""
    if isinstance(value, int):
        return value
    text = str(value).strip()
    if text.isdigit():
        return int(text)
    return int(tables.find_cover(text).difficulty)


__all__ = [
    "ENTRY_KEYS",
    "STATE_KEYS",
    "VtmEntry",
    "fighter_from_scenario",
    "health_levels",
    "scenario_cover",
    "sheet_file",
]
