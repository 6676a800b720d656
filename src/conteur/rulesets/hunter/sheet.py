"""A combatant of a scenario → a ``Fighter`` (trait names in French or English)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from conteur.engine.inputs import (
    Count,
    InputError,
    Key,
    Text,
    check_keys,
    common,
    entry_of,
    over_sheet,
    placement,
    short,
    validate,
)
from conteur.i18n import ConteurError, Msg
from conteur.i18n.spelling import key_of

from .cover import COVER_PENALTY
from .fighter import Fighter
from .health import HealthTrack
from .tables import DAMAGE_TYPES, Tables

TRAITS = {
    "strength": ("force",),
    "dexterity": ("dexterite",),
    "stamina": ("vigueur", "endurance"),
    "wits": ("astuce",),
    "composure": ("calme", "sang_froid"),
    "brawl": ("mains_nues", "bagarre"),
    "weaponry": ("melee", "armes_blanches"),
    "firearms": ("armes_a_feu",),
    "athletics": ("athletisme",),
}
"""Traits the rules read, with their French spellings (written without accents)."""

FIELDS = {
    "id": (),
    "name": ("nom",),
    "side": ("camp",),
    "kind": ("type", "nature"),
    "size": ("taille",),
    "weapon": ("arme",),
    "weapons": ("armes",),
    "armour": ("armure", "armor"),
    "merits": ("atouts", "avantages"),
    "unarmed": ("degats_a_mains_nues", "degats_mains_nues"),
    "vulnerable": ("vulnerable_a", "faiblesses"),
    "ammo": ("munitions",),
    "cover": ("couvert",),
    "position": (),
    "health": ("sante",),
    "fate": ("sort",),
    "xp_counters": ("compteurs_xp",),
}
XP_COUNTERS = {
    "exceptional_vs_monster": ("exceptionnels_contre_monstre", "succes_exceptionnels"),
    "dramatic_failures": ("echecs_dramatiques", "echecs_critiques"),
}
"""The H-XP-2 counters a hunter carries from one encounter to the next."""
KINDS = {
    "hunter": "hunter",
    "chasseur": "hunter",
    "monster": "monster",
    "monstre": "monster",
    "bystander": "bystander",
    "passant": "bystander",
}
MERITS = {"quick_draw": "quick_draw", "degainer_vite": "quick_draw", "degaine_rapide": "quick_draw"}


def normalize(word: str) -> str:
    """Lower case, no accents, the words joined by underscores (``spelling.key_of``)."""
    return key_of(str(word))


def _lookup(table: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, spellings in table.items():
        out[key] = key
        for s in spellings:
            out[s] = key
    return out


ENTRY_KEYS = tuple(
    Key(name, (spellings[0] if spellings else name).replace("_", " "), name, spellings)
    for name, spellings in {**TRAITS, **FIELDS}.items()
)
"""The keys of a combatant entry (a trait or a field), French or English."""
_COUNTER_OF = _lookup(XP_COUNTERS)
TRAIT_OF = _lookup(TRAITS)
"""Every spelling of a trait (and its key), to its key (``dexterite`` → ``dexterity``)."""


def _int(fid: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 20:
        raise ConteurError("hunter.sheet.bad_value", fighter=fid, field=name, value=str(value))
    return value


Words = Text | list[Text]
"""One word or a list of them (``armes: pieu`` or ``armes: [pieu, couteau]``)."""


class HunterFields(BaseModel):
    """The types of a combatant's fields (their values are checked against the tables after)."""

    model_config = ConfigDict(extra="ignore")

    kind: Text | None = None
    size: Count | None = None
    weapon: Text | None = None
    weapons: Words | None = None
    armour: Text | None = None
    merits: Words | None = None
    unarmed: Text | None = None
    vulnerable: Words | None = None
    ammo: dict[str, Count] | None = None
    cover: Text | None = None
    health: Words | None = None
    fate: Text | None = None


def fighter_from_scenario(raw: Mapping[str, Any], index: int, tables: Tables) -> Fighter:
    """The fighter a scenario's ``combatants`` entry describes (``InputError`` naming the
    entry and the field; an unknown key is refused with the nearest one)."""
    entry = entry_of(index, raw)
    if not isinstance(raw, Mapping):
        raise InputError(Msg("input.reason.not_mapping", value=short(raw)), entry=entry)
    inline = raw.get("sheet")
    if inline is not None:
        raw = over_sheet(raw, inline, ENTRY_KEYS, entry=entry)
    fields = check_keys(raw, ENTRY_KEYS, entry=entry)
    given = common(fields, known=ENTRY_KEYS, entry=entry)
    traits: dict[str, int] = {}
    fid = given.id or f"f{index + 1}"
    for key in list(fields):
        if key in TRAITS:
            traits[key] = _int(fid, key, fields.pop(key))
    for t in TRAITS:
        traits.setdefault(t, 0)
    validate(HunterFields, fields, known=ENTRY_KEYS, entry=entry)  # the types, by name
    kind = KINDS.get(normalize(str(fields.get("kind", "hunter"))))
    if kind is None:
        raise ConteurError("hunter.sheet.bad_kind", fighter=fid, value=str(fields.get("kind")))
    size = _int(fid, "size", fields.get("size", 5))
    weapons = [str(w) for w in _as_list(fields.get("weapons"))]
    weapon = fields.get("weapon")
    for w in [*weapons, *([str(weapon)] if weapon else [])]:
        tables.weapon(w)
    if weapon and str(weapon) not in weapons:
        weapons.insert(0, str(weapon))
    armour = fields.get("armour")
    if armour and str(armour) not in tables.armour:
        raise ConteurError(
            "hunter.unknown_armour", name=str(armour), known=", ".join(sorted(tables.armour))
        )
    merits = []
    for m in _as_list(fields.get("merits")):
        if normalize(m) not in MERITS:
            raise ConteurError("hunter.sheet.unknown_merit", fighter=fid, value=str(m))
        merits.append(MERITS[normalize(m)])
    unarmed = str(fields.get("unarmed", "B")).upper()[:1]
    if unarmed not in DAMAGE_TYPES:
        raise ConteurError("hunter.sheet.bad_value", fighter=fid, field="unarmed", value=unarmed)
    cover = normalize(str(fields.get("cover", "none")))
    if cover not in COVER_PENALTY:
        raise ConteurError("hunter.sheet.bad_value", fighter=fid, field="cover", value=cover)
    ammo = {w: tables.weapon(w).clip for w in weapons if tables.weapon(w).category == "firearm"}
    for w, n in dict(fields.get("ammo") or {}).items():
        if str(w) not in ammo:
            raise ConteurError("hunter.sheet.bad_value", fighter=fid, field="ammo", value=str(w))
        ammo[str(w)] = _int(fid, "ammo", n)
    track = HealthTrack.empty(traits["stamina"] + size)
    if fields.get("health"):
        track = _health(fid, fields["health"], track.size)
    fate = str(fields.get("fate") or track.fate())
    if fate not in ("alive", "unconscious", "incapacitated", "dead"):
        raise ConteurError("hunter.sheet.bad_value", fighter=fid, field="fate", value=fate)
    counters = xp_counters(fid, fields.get("xp_counters"))
    return Fighter(
        **placement(fid, given.side, given.position),
        name=given.name or fid,
        kind=kind,
        traits=traits,
        size=size,
        health=track,
        fate=fate,
        weapon=str(weapon) if weapon else None,
        weapons=tuple(weapons),
        armour=str(armour) if armour else None,
        merits=tuple(merits),
        unarmed_type=DAMAGE_TYPES[unarmed],
        vulnerable=tuple(normalize(v) for v in _as_list(fields.get("vulnerable"))),
        ammo=ammo,
        cover=cover,
        xp_exceptional_vs_monster=counters["exceptional_vs_monster"],
        xp_dramatic_failures=counters["dramatic_failures"],
    )


def xp_counters(fid: str, value: Any) -> dict[str, int]:
    """The carried H-XP-2 counters (``xp_counters: {dramatic_failures: 1}``), 0 when absent."""
    counters = dict.fromkeys(XP_COUNTERS, 0)
    if value is None:
        return counters
    if not isinstance(value, Mapping):
        raise ConteurError(
            "hunter.sheet.bad_value", fighter=fid, field="xp_counters", value=str(value)
        )
    for key, n in value.items():
        name = _COUNTER_OF.get(normalize(str(key)))
        if name is None:
            raise ConteurError(
                "hunter.sheet.unknown_field", fighter=fid, field=f"xp_counters.{key}"
            )
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ConteurError("hunter.sheet.bad_value", fighter=fid, field=str(key), value=str(n))
        counters[name] = n
    return counters


def _health(fid: str, value: Any, size: int) -> HealthTrack:
    """A carried health track, written as on a sheet (``[X][/][ ]``)."""
    marks = {" ": 0, "/": 1, "X": 2, "*": 3}
    text = "".join(value) if isinstance(value, list) else str(value)
    boxes = [marks.get(c, -1) for c in text.replace("[", "").replace("]", "")]
    if len(boxes) != size or -1 in boxes:
        raise ConteurError("hunter.sheet.bad_value", fighter=fid, field="health", value=text)
    return HealthTrack(sorted(boxes, reverse=True))


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]
