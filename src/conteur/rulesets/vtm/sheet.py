"""A vtm character sheet: the traits and equipment the combat rules read.

A sheet comes from YAML or JSON, flat or nested, in French or English::

    {name: Lucien, kind: vampire, dexterity: 3, Bagarre: 2, Célérité: 2}
    {nom: Lucien, type: vampire, attributs: {Dextérité: 3}, capacités: {brawl: 2}}

``load_sheet`` validates it and turns every problem into an ``InputError``
(``conteur.engine.inputs``) naming the file, the entry, the field and the reason,
with a suggestion for a misspelled trait.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from conteur.engine.inputs import reason as _reason
from conteur.engine.inputs import short, validate
from conteur.i18n import ConteurError, Lang, Msg, env_lang, t
from conteur.records import CachedReads

from .tables import (
    Armour,
    Int,
    Labels,
    Tables,
    Weapon,
    canonical_armour_id,
    canonical_weapon_id,
    load_tables,
)
from .traits import (
    ALL_TRAITS,
    ATTRIBUTES,
    WILLPOWER,
    TraitKind,
    canonical_power,
    canonical_trait,
    normalize_key,
    suggest_power,
    suggest_trait,
    trait_kind,
    trait_spellings,
)

Kind = Literal["mortal", "vampire", "supernatural"]
"""Mortals soak bashing only; vampires and other supernatural beings soak lethal too (V-SOAK-1)."""

MORTAL_MAX = 5
"""The most dots a mortal has in a trait."""

Rating = Annotated[Int, Field(ge=0, le=10)]
"""A trait rating: 0 to 10 dots."""

_KIND_SPELLINGS: dict[str, Kind] = {
    "mortal": "mortal",
    "mortel": "mortal",
    "mortelle": "mortal",
    "humain": "mortal",
    "humaine": "mortal",
    "human": "mortal",
    "vampire": "vampire",
    "vampyre": "vampire",
    "kindred": "vampire",
    "cainite": "vampire",
    "supernatural": "supernatural",
    "surnaturel": "supernatural",
    "surnaturelle": "supernatural",
    "autre": "supernatural",
    "other": "supernatural",
    "garou": "supernatural",
    "werewolf": "supernatural",
    "loup_garou": "supernatural",
}

_FIELD_SPELLINGS: dict[str, str] = {
    "id": "id",
    "identifiant": "id",
    "name": "name",
    "nom": "name",
    "kind": "kind",
    "type": "kind",
    "nature": "kind",
    "attributes": "attributes",
    "attributs": "attributes",
    "abilities": "abilities",
    "capacites": "abilities",
    "competences": "abilities",
    "disciplines": "disciplines",
    "willpower": "willpower",
    "volonte": "willpower",
    "blood": "blood",
    "blood_pool": "blood",
    "sang": "blood",
    "points_de_sang": "blood",
    "reserve_de_sang": "blood",
    "powers": "powers",
    "pouvoirs": "powers",
    "weapons": "weapons",
    "armes": "weapons",
    "armour": "armour",
    "armor": "armour",
    "armure": "armour",
    "ambidextrous": "ambidextrous",
    "ambidextre": "ambidextrous",
    "health_levels": "health_levels",
    "health": "health_levels",
    "sante": "health_levels",
    "niveaux_de_sante": "health_levels",
}

_YES_NO = {"oui": True, "vrai": True, "non": False, "faux": False}

_SECTIONS = ("attributes", "abilities", "disciplines")
_SECTION_OF = {"attribute": "attributes", "ability": "abilities", "discipline": "disciplines"}
_NO_RATINGS = dict.fromkeys(ALL_TRAITS, 0)
"""Every canonical trait key at 0 (a sheet's ``ratings`` before its own)."""
_KEYS_OF = {
    section: frozenset(k for k in ALL_TRAITS if _SECTION_OF.get(str(trait_kind(k))) == section)
    for section in _SECTIONS
}
"""The canonical trait keys each section holds (what ``_rating`` reads in it)."""


def _default_track() -> list[str]:
    return list(load_tables().health.default_track)


class VtmSheet(CachedReads, BaseModel):
    """A validated character sheet (immutable). Trait keys are canonical English keys.

    ``attributes`` always holds the nine attributes (1 when the sheet omits one);
    ``abilities`` and ``disciplines`` hold what the sheet gives (``trait`` reads 0
    for the others). ``weapons`` lists weapon ids or names from the tables; an
    inline weapon on the sheet is kept in ``custom_weapons`` and its id listed in
    ``weapons`` too (likewise ``custom_armour`` and ``armour``). Vampires always
    have the ``fangs`` power.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    id: str
    kind: Kind
    attributes: dict[str, Rating]
    abilities: dict[str, Rating] = {}
    disciplines: dict[str, Rating] = {}
    willpower: Int = Field(default=5, ge=1, le=10)
    blood: Int = Field(default=10, ge=0, le=100)
    powers: list[str] = []
    weapons: list[str] = []
    custom_weapons: list[Weapon] = []
    armour: str | None = None
    custom_armour: Armour | None = None
    ambidextrous: bool = False
    health_levels: list[str] = Field(default_factory=_default_track)

    # ------------------------------------------------------------------ input forms

    @model_validator(mode="before")
    @classmethod
    def _sort_keys(cls, data: Any) -> Any:
        """Flat or nested, French or English keys → the canonical fields."""
        if not isinstance(data, Mapping):
            raise _reason("input.reason.not_mapping", value=data)
        out: dict[str, Any] = {}
        origin: dict[tuple[str, str], str] = {}  # (field, trait) -> key as written

        def put(field: str, trait: str | None, value: Any, written: str) -> None:
            slot = (field, trait or "")
            if slot in origin:
                raise _reason(
                    "vtm.reason.duplicate", field=written, first=origin[slot], second=written
                )
            origin[slot] = written
            if trait is None:
                out[field] = value
            else:
                out.setdefault(field, {})[trait] = value

        def put_trait(name: str, value: Any) -> None:
            key = canonical_trait(name)
            if key is None:
                raise _unknown_key(name)
            kind = trait_kind(key)
            if kind == "willpower":
                put("willpower", None, value, name)
            else:
                put(_SECTION_OF[str(kind)], key, value, name)

        for raw_key, value in data.items():
            written = str(raw_key)
            field = _FIELD_SPELLINGS.get(normalize_key(written))
            if field in _SECTIONS:
                if not isinstance(value, Mapping):
                    raise _reason("input.reason.not_mapping", field=written, value=value)
                for name, rating in value.items():
                    put_trait(str(name), rating)
            elif field is not None:
                put(field, None, value, written)
            else:
                put_trait(written, value)

        attributes = out.setdefault("attributes", {})
        for key in ATTRIBUTES:
            attributes.setdefault(key, 1)
        name, ident = out.get("name"), out.get("id")
        if name is None and ident is not None:
            out["name"] = str(ident)
        if ident is None and isinstance(out.get("name"), str):
            out["id"] = normalize_key(out["name"]) or out["name"]
        _split_inline(out)
        return out

    @field_validator("kind", mode="before")
    @classmethod
    def _kind(cls, value: Any) -> Any:
        if isinstance(value, str):
            kind = _KIND_SPELLINGS.get(normalize_key(value))
            if kind is None:
                raise _reason("vtm.reason.kind", value=value)
            return kind
        return value

    @field_validator("ambidextrous", mode="before")
    @classmethod
    def _yes_no(cls, value: Any) -> Any:
        if isinstance(value, str):
            return _YES_NO.get(normalize_key(value), value)
        return value

    @field_validator("id", "name", mode="before")
    @classmethod
    def _text(cls, value: Any) -> Any:
        if not isinstance(value, str):  # ``nom: 3`` is a slip, not a name
            raise _reason("input.reason.not_text", value=short(value))
        return value.strip()

    @field_validator("powers", mode="before")
    @classmethod
    def _powers(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            return value
        powers: list[str] = []
        for item in value:
            if not isinstance(item, str):
                raise _reason("input.reason.not_text", value=item)
            suggestion = suggest_power(item)
            if suggestion is not None:
                raise _reason(
                    "vtm.reason.power_suggest",
                    value=item,
                    suggestion=Msg(f"vtm.power.{suggestion}"),
                )
            key = canonical_power(item)
            if key not in powers:
                powers.append(key)
        return powers

    @field_validator("health_levels", mode="before")
    @classmethod
    def _levels(cls, value: Any) -> Any:
        if not isinstance(value, list):
            return value
        health = load_tables().health
        ids: list[str] = []
        for item in value:
            level = health.level(str(item))
            if level is None:
                allowed = Labels(health.levels)
                raise _reason("vtm.reason.health_level", value=item, allowed=allowed)
            ids.append(level.id)
        last = health.levels[-1].id
        if not ids or ids[-1] != last or ids.count(last) != 1:
            raise _reason("vtm.reason.health_track", value=", ".join(map(str, value)))
        return ids

    @model_validator(mode="after")
    def _mortal_ceiling(self) -> VtmSheet:
        """A mortal's traits stay within 5 dots (only a vampire's blood lifts them higher)."""
        if self.kind == "mortal":
            for section in _SECTIONS:
                for key, rating in getattr(self, section).items():
                    if rating > MORTAL_MAX:
                        raise _reason(
                            "vtm.reason.mortal_max", field=key, value=rating, limit=MORTAL_MAX
                        )
        return self

    @model_validator(mode="after")
    def _vampire_fangs(self) -> VtmSheet:
        if self.kind == "vampire" and "fangs" not in self.powers:
            object.__setattr__(self, "powers", [*self.powers, "fangs"])
        return self

    # ------------------------------------------------------------------ reading

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> VtmSheet:
        """A sheet is immutable: copies of a fight's state share it."""
        return self

    def trait(self, key: str) -> int:
        """The rating of an attribute, ability, discipline or ``willpower`` (0 when absent).

        ``key`` is a canonical key or any accepted spelling (``Dextérité``);
        a name that is no trait at all raises ``ConteurError``.
        """
        rating = self.ratings.get(key)
        if rating is not None:  # fastest path: a canonical key, read once per sheet
            return rating
        kind = trait_kind(key)
        if kind is not None:  # fast path: a canonical key
            return self._rating(key, kind)
        canonical = canonical_trait(key)
        if canonical is None:
            suggestion = suggest_trait(key)
            if suggestion is None:
                raise ConteurError("vtm.trait.unknown", name=key)
            raise ConteurError(
                "vtm.trait.unknown_suggest", name=key, suggestion=Msg(f"vtm.trait.{suggestion}")
            )
        return self._rating(canonical, trait_kind(canonical))

    @cached_property
    def ratings(self) -> dict[str, int]:
        """The rating of every canonical trait key (the sheet is immutable): read it with
        ``trait``."""
        out = dict(_NO_RATINGS)
        for section in _SECTIONS:  # what ``_rating`` reads, key by key: only its own section
            keys = _KEYS_OF[section]
            for key, rating in getattr(self, section).items():
                if key in keys:
                    out[key] = rating
        out[WILLPOWER] = self.willpower
        return out

    def _rating(self, key: str, kind: TraitKind | None) -> int:
        if kind == "willpower":
            return self.willpower
        section: dict[str, int] = getattr(self, _SECTION_OF[str(kind)])
        return section.get(key, 0)

    def initiative_rating(self) -> int:
        """Dexterity + Wits (V-INI-1), before wound penalties."""
        return self.trait("dexterity") + self.trait("wits")

    @property
    def supernatural(self) -> bool:
        """Vampires and other supernatural beings soak lethal damage (V-SOAK-1)."""
        return self.kind != "mortal"

    def has_power(self, power: str) -> bool:
        """Whether the sheet lists ``power`` (any accepted spelling: ``Griffes de fauve``)."""
        return canonical_power(power) in self.powers

    def resolve_weapons(self, tables: Tables) -> list[Weapon]:
        """The sheet's weapons as table records (inline ones first); ConteurError when unknown."""
        custom = {w.id: w for w in self.custom_weapons}
        return [custom[ref] if ref in custom else tables.weapon(ref) for ref in self.weapons]

    def resolve_armour(self, tables: Tables) -> Armour | None:
        """The armour worn, from the sheet itself or the tables (None when it wears none)."""
        if self.custom_armour is not None:
            return self.custom_armour
        return tables.find_armour(self.armour) if self.armour else None


def _split_inline(out: dict[str, Any]) -> None:
    """Inline weapon and armour definitions go to ``custom_*``; their ids stay listed."""
    weapons = out.get("weapons")
    if isinstance(weapons, str):
        weapons = out["weapons"] = [weapons]
    if isinstance(weapons, list):
        refs: list[Any] = []
        custom: list[Any] = []
        for item in weapons:
            if isinstance(item, Mapping):
                custom.append(dict(item))
                refs.append(_inline_id(item))
            else:
                refs.append(canonical_weapon_id(item) if isinstance(item, str) else item)
        out["weapons"] = refs
        if custom:
            out["custom_weapons"] = custom
    armour = out.get("armour")
    if isinstance(armour, str):
        out["armour"] = canonical_armour_id(armour)
    if isinstance(armour, Mapping):
        out["custom_armour"] = dict(armour)
        out["armour"] = _inline_id(armour)


def _inline_id(item: Mapping[str, Any]) -> str:
    ident = item.get("id") or item.get("name") or item.get("name_fr") or "custom"
    if isinstance(ident, Mapping):
        ident = ident.get("fr") or ident.get("en") or "custom"
    return str(ident)


def _unknown_key(name: str) -> Exception:
    """The error for a key that is neither a sheet field nor a trait, with the closest one."""
    norm = normalize_key(name)
    best: tuple[float, str] = (0.0, "")
    for form, key in _FIELD_SPELLINGS.items():
        best = max(
            best, (difflib.SequenceMatcher(None, norm, form).ratio(), f"vtm.sheet.field.{key}")
        )
    trait = suggest_trait(name)
    if trait is not None:
        forms = [f for f, k in trait_spellings().items() if k == trait]
        score = max(difflib.SequenceMatcher(None, norm, f).ratio() for f in forms)
        best = max(best, (score, f"vtm.trait.{trait}"))
    if best[0] < 0.6:
        return _reason("vtm.reason.unknown_key", field=name)
    return _reason("vtm.reason.unknown_key_suggest", field=name, suggestion=Msg(best[1]))


class SheetField:
    """The field of an error, shown as the user knows it (``Dextérité``, ``armes[2].damage``)."""

    def __init__(self, loc: tuple[int | str, ...]) -> None:
        self.loc = loc

    def describe(self, lang: Lang | None = None) -> str:
        lang = lang or env_lang()
        if not self.loc:
            return "-"
        first, rest = self.loc[0], list(self.loc[1:])
        if first in _SECTIONS and rest and isinstance(rest[0], str):
            return t(f"vtm.trait.{rest[0]}", lang) if canonical_trait(rest[0]) else rest[0]
        if isinstance(first, str) and not rest and trait_kind(first) in _SECTION_OF:
            return t(f"vtm.trait.{first}", lang)
        if first == "custom_weapons":
            first, rest = "weapons", rest
        if first == "custom_armour":
            first = "armour"
        if isinstance(first, str) and first in VtmSheet.model_fields:
            text = t(f"vtm.sheet.field.{first}", lang)
        else:
            text = str(first)
        for part in rest:
            text += f"[{part + 1}]" if isinstance(part, int) else f".{part}"
        return text


def load_sheet(data: Mapping[str, Any], source: str = "<sheet>", entry: Any = None) -> VtmSheet:
    """Validate a sheet read from YAML or JSON (``source``: its file; ``entry``: where it is
    in that file, a sheet of its own by default); ``InputError`` naming the field otherwise."""
    file = "" if source.startswith("<") else source
    where = entry if entry is not None else Msg("input.entry.sheet")
    return validate(
        VtmSheet, data, entry=where, file=file, where=lambda loc: (where, SheetField(loc))
    )


def kind_label(kind: str, lang: Lang | None = None) -> str:
    """The display name of a kind (mortel, vampire, surnaturel) in ``lang``."""
    return t(f"vtm.kind.{kind}", lang)
