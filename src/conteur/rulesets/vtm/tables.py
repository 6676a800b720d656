"""The vtm tables as data: weapons, armour, maneuvers, health track, complications, options.

The shipped tables are YAML files in ``conteur/rulesets/vtm/data``. Every entry
is validated (pydantic) when loaded; a bad entry raises a ``ConteurError``
naming the file, the entry and the field, in French and English.

``load_tables(era, extra)`` keeps what exists in the campaign's era (V-ERA-1)
and lets the game master's own files add or change weapons, armour, maneuvers,
targets, cover, range bands, botch complications, conditions and option
defaults (V-CC-0). An entry of a game master's file whose ``id`` already exists
changes only the fields it gives (``{id: kick, difficulty: 2}``); a new ``id``
is a new entry and needs every required field.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, cached_property, partial
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal, Protocol, TypeVar, get_args

import pydantic.main  # noqa: F401  (mypyc loads BaseModel, a base class, from there)
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from conteur.engine.inputs import first_error, not_utf8, parse_data, plain_path, pydantic_reason
from conteur.engine.inputs import reason as _reason
from conteur.i18n import ConteurError, Lang, Msg, env_lang, os_reason
from conteur.records import CachedReads, found_once
from conteur.runcache import shipped_yaml

from .traits import canonical_power, canonical_trait, normalize_key, suggest_trait, trait_label

DamageType = Literal["bashing", "lethal", "aggravated"]
TableDamageType = Literal["bashing", "lethal", "aggravated", "fire"]
"""What a weapon or maneuver of the tables deals: ``fire`` is aggravated damage that only
Fortitude soaks, never armour (V-DMG-3, V-SOAK-1, V-ARM-1)."""
WeaponCategory = Literal["melee", "brawl", "ranged", "thrown"]
Concealment = Literal["pocket", "jacket", "coat", "none"]
FireMode = Literal["single", "multiple", "burst3", "full_auto", "spray"]
Cadence = Literal["single_shot", "semi_automatic", "automatic"]
"""How a firearm fires: "coup par coup", semi-automatic or automatic (house_ranged)."""
ShotgunLoad = Literal["shot", "buckshot", "slug"]
"""What a smooth-bore gun is loaded with (house_ranged R-SPREAD: shot or buckshot spread)."""
ManeuverKind = Literal["close", "ranged", "defensive", "general"]
DamageBase = Literal["strength", "weapon", "strength_or_weapon", "none", "special"]
Who = Literal["target", "attacker", "both"]
LevelMove = Literal["run", "half_run", "walk", "fixed"]

ERAS: tuple[str, ...] = ("1899", "modern")
"""The eras of the shipped tables; a game master's file may name others."""

DEFAULT_ERA = "1899"

_ERA_SPELLINGS = {
    "1899": "1899",
    "victorien": "1899",
    "victorian": "1899",
    "modern": "modern",
    "moderne": "modern",
    "contemporain": "modern",
    "contemporary": "modern",
}

AUTOMATIC_MODES: frozenset[str] = frozenset({"burst3", "full_auto", "spray"})
"""Fire modes only an automatic weapon (or a crew-served machine gun) has (V-ERA-1)."""

EffectType = Literal[
    "knockdown_check",  # `who` rolls `traits` at `difficulty`; on failure gets `conditions`
    "condition",  # `who` gets `conditions` (for `turns` turns; `difficulty` as a penalty)
    "grapple",  # V-CC-7: holds the target; later turns automatic Strength damage or escape
    "hold",  # V-CC-8: target immobilised until it wins a resisted roll of `traits`
    "feed",  # V-CC-10: the Kiss; the vampire starts feeding
    "disarm",  # V-CC-6: damage successes above the target's Strength disarm, no damage
    "parry_riposte",  # V-DEF-5: unarmed attacker parried by a lethal weapon takes its damage
    "block_limit",  # V-DEF-3: lethal/aggravated blockable only with Fortitude or armour
    "needs_room",  # V-DEF-4/V-DEF-6: dodging needs room to move
    "take_cover",  # V-DEF-4: against gunfire, the dodger moves into cover or drops prone
    "empties_clip",  # V-RNG-2, V-RNG-8
    "rounds",  # rounds used (`value`)
    "min_clip_fraction",  # the clip must be at least `value`/`max` full (V-RNG-8: 1/2)
    "area",  # covers at most `value` metres (V-RNG-2)
    "shared_successes",  # V-RNG-2: successes shared among the targets in the zone
    "dodge_difficulty",  # defending against it is at `difficulty` more
    "no_targeting",  # no V-MAN-8 targeting with it
    "aim_bonus",  # V-RNG-1: `value` die per turn, at most the trait `max_trait`
    "scope_bonus",  # V-RNG-1: `value` more dice on the first turn with a scope
    "off_hand",  # V-RNG-4: `difficulty` more for the off hand unless ambidextrous
    "multiple_action",  # V-MAN-1/V-RNG-9: several actions make a multiple action (dice off)
    "full_turn",  # the turn's only action (V-RNG-1 aim; house_ranged's careful shot)
    "per_opponent",  # V-CC-11: `difficulty` per opponent beyond the first, at most `max`
    "resisted",  # opposed by `traits` of the target (V-MAN-7)
    "abort",  # V-MAN-3: Willpower roll (at `difficulty`) or point to switch to a defence
    "full_defense",  # V-DEF-7: full pool first, `value` die fewer for each following defence
    "move",  # V-MAN-6: half the running distance, and still act
    "close_in",  # V-CC-9: must close to under `value` metres first
]
"""What a maneuver effect does. Each type is read by the rules that declare it
(``hooks.reads_effect``); the loader refuses an effect no rule reads, or without a field
its reader needs (``check_effects_read``)."""

EFFECT_TYPES: tuple[str, ...] = get_args(EffectType)


def _no_bool(value: Any) -> Any:
    if isinstance(value, bool):
        raise _reason("input.reason.not_int", value=value)
    return value


Int = Annotated[int, BeforeValidator(_no_bool)]
"""An integer that refuses ``true``/``false`` (which Python counts as 1/0)."""


def _trait_key(value: Any) -> str:
    if not isinstance(value, str):
        raise _reason("input.reason.not_text", value=value)
    key = canonical_trait(value)
    if key is None:
        suggestion = suggest_trait(value)
        if suggestion is None:
            raise _reason("vtm.reason.unknown_trait", name=value)
        raise _reason("vtm.reason.unknown_trait_suggest", name=value, suggestion=suggestion)
    return key


TraitKey = Annotated[str, BeforeValidator(_trait_key)]
"""A trait key, given in any accepted spelling (``Dextérité`` → ``dexterity``)."""


def _power_key(value: Any) -> str:
    if not isinstance(value, str):
        raise _reason("input.reason.not_text", value=value)
    return canonical_power(value)


PowerKey = Annotated[str, BeforeValidator(_power_key)]


def _era_key(value: Any) -> str:
    text = str(value)
    return _ERA_SPELLINGS.get(normalize_key(text), text)


EraKey = Annotated[str, BeforeValidator(_era_key)]


class _Model(CachedReads, BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", coerce_numbers_to_str=True)


class Text(_Model):
    """A user-visible text in French and English."""

    fr: str
    en: str

    def get(self, lang: Lang | None = None) -> str:
        """The text in ``lang`` (default: ``CONTEUR_LANG``, French)."""
        return self.en if (lang or env_lang()) == "en" else self.fr

    def describe(self, lang: Lang | None = None) -> str:
        """The text in ``lang``, as a message field (``t`` renders it in the reader's language)."""
        return self.get(lang)


# --------------------------------------------------------------------------- weapons


def _fill_names(data: Any) -> Any:
    """``name`` (text or ``{fr, en}``) fills both names; no English name: the French one."""
    if isinstance(data, dict):
        data = dict(data)
        name = data.pop("name", None)
        if isinstance(name, dict):
            data.setdefault("name_fr", name.get("fr"))
            data.setdefault("name_en", name.get("en"))
        elif name is not None:
            data.setdefault("name_fr", name)
        if data.get("name_fr") is None and data.get("id") is not None:
            data["name_fr"] = data["id"]
        if data.get("name_en") is None and data.get("name_fr") is not None:
            data["name_en"] = data["name_fr"]
    return data


class WeaponDamage(_Model):
    """A weapon's damage pool: Strength + ``strength_plus`` (close combat) or ``dice`` dice."""

    strength_plus: Int | None = None
    dice: Int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _one_form(self) -> WeaponDamage:
        if (self.strength_plus is None) == (self.dice is None):
            raise _reason("vtm.reason.damage_form")
        return self

    def pool(self, strength: int) -> int:
        """The damage dice for an attacker of ``strength`` (before extra successes)."""
        return self.dice if self.dice is not None else strength + (self.strength_plus or 0)

    def describe(self, lang: Lang | None = None) -> str:
        if self.dice is not None:
            return f"{self.dice}"
        base = trait_label("strength", lang)
        return f"{base} + {self.strength_plus}" if self.strength_plus else base


class _Item(_Model):
    """A weapon or armour: its id, its names (``name``: one text or ``{fr, en}``, filling
    both) and the other names it is found by."""

    id: str
    name_fr: str
    name_en: str
    aliases: list[str] = []

    @model_validator(mode="before")
    @classmethod
    def _names(cls, data: Any) -> Any:
        return _fill_names(data)

    def label(self, lang: Lang | None = None) -> str:
        """The display name in ``lang``."""
        return Text(fr=self.name_fr, en=self.name_en).get(lang)


class Weapon(_Item):
    """One weapon of the tables (FACTS.md numbers; ``estimated`` when derived, not published)."""

    category: WeaponCategory
    damage: WeaponDamage
    damage_type: TableDamageType
    blunt: bool = False
    range: Int | None = Field(default=None, ge=1)
    rate: Int | None = Field(default=None, ge=1)
    clip: Int | None = Field(default=None, ge=1)
    chamber: Int = Field(default=0, ge=0)
    reload_turns: Int | None = Field(default=None, ge=0)
    concealment: Concealment = "none"
    eras: list[EraKey] = Field(default_factory=lambda: list(ERAS), min_length=1)
    modes: list[FireMode] = []
    automatic: bool = False
    crew_served: bool = False
    scope: bool = False
    length: Literal["short", "long"] | None = None
    can_stake: bool = False
    cadence: Cadence | None = None
    smooth_bore: bool = False
    load: ShotgunLoad | None = None
    sawed_off: bool = False
    estimated: bool = False
    notes: Text | None = None

    @property
    def fire_cadence(self) -> str:
        """``cadence`` as the data gives it; for a weapon that names none, read from the
        rest: automatic, several shots a turn (semi-automatic), or one (single shot)."""
        if self.cadence is not None:
            return self.cadence
        if self.automatic:
            return "automatic"
        return "semi_automatic" if (self.rate or 1) > 1 else "single_shot"

    @model_validator(mode="after")
    def _consistent(self) -> Weapon:
        close = self.category in ("melee", "brawl")
        if close and self.damage.strength_plus is None:
            raise _reason("vtm.reason.melee_damage", field="damage")
        if self.category == "ranged" and self.damage.dice is None:
            raise _reason("vtm.reason.ranged_damage", field="damage")
        needed: tuple[str, ...] = ("range", "rate", "clip") if self.category == "ranged" else ()
        needed += ("range",) if self.category == "thrown" else ()
        for name in needed:
            if getattr(self, name) is None:
                raise _reason("vtm.reason.needs", field=name, category=self.category)
        for mode in self.modes:
            if mode in AUTOMATIC_MODES and not self.automatic:
                raise _reason("vtm.reason.mode_needs_automatic", field="modes", mode=mode)
        if (self.cadence == "automatic") != self.automatic and self.cadence is not None:
            raise _reason("vtm.reason.cadence_automatic", field="cadence")
        if (self.load is not None or self.sawed_off) and not self.smooth_bore:
            raise _reason(
                "vtm.reason.needs_smooth_bore", field="load" if self.load else "sawed_off"
            )
        return self

    @property
    def capacity(self) -> int | None:
        """Rounds when fully loaded: the clip plus one in the chamber (``17+1`` → 18)."""
        return None if self.clip is None else self.clip + self.chamber

    @property
    def is_ranged(self) -> bool:
        """Fired or thrown (its attack uses the range bands, V-RNG-5)."""
        return self.category in ("ranged", "thrown")

    def can(self, mode: FireMode) -> bool:
        """Whether the weapon has the fire mode ``mode`` (V-ERA-1)."""
        return mode in self.modes


class Armour(_Item):
    """Armour: ``rating`` adds to soak (V-ARM-1), ``penalty`` dice off Dexterity pools (V-ARM-2)."""

    rating: Int = Field(ge=0)
    penalty: Int = Field(default=0, ge=0)
    eras: list[EraKey] = Field(default_factory=lambda: list(ERAS), min_length=1)
    estimated: bool = False
    notes: Text | None = None


# --------------------------------------------------------------------------- maneuvers


class ManeuverDamage(_Model):
    """A maneuver's damage: ``base`` (strength, weapon, …) plus ``plus`` dice.

    Written in a file as a mapping (``{base: strength, plus: 1}``) or a string
    (``strength+1``, ``weapon``, ``strength_or_weapon``, ``none``, ``special``).
    """

    base: DamageBase
    plus: Int = 0

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        if not isinstance(data, str):
            return data
        text = data.replace(" ", "").lower()
        base, sign, rest = text.partition("+")
        if not sign:
            base, sign, rest = text.partition("-")
        try:
            plus = int(rest) if sign else 0
        except ValueError:
            raise _reason("vtm.reason.maneuver_damage", value=data) from None
        aliases = {"force": "strength", "arme": "weapon", "aucun": "none", "special": "special"}
        base = aliases.get(normalize_key(base), base)
        if base not in ("strength", "weapon", "strength_or_weapon", "none", "special"):
            raise _reason("vtm.reason.maneuver_damage", value=data)
        return {"base": base, "plus": -plus if sign == "-" else plus}


class Requirements(_Model):
    """What a maneuver needs. Each list is a choice: any one of its items will do."""

    powers: list[PowerKey] = []
    after: list[str] = []
    weapon: list[WeaponCategory] = []
    mode: FireMode | None = None
    min_traits: dict[TraitKey, Int] = {}


class Effect(_Model):
    """One effect of a maneuver, read by the rule hook named by ``type``."""

    type: EffectType
    who: Who = "target"
    traits: list[TraitKey] = []
    difficulty: Int | None = None
    value: Int | None = None
    max: Int | None = None
    max_trait: TraitKey | None = None
    conditions: list[str] = []
    turns: Int | None = None
    rule: str | None = None


class Maneuver(_Model):
    """A maneuver record: traits / difficulty / accuracy / damage, as the text's lines give them.

    ``traits`` lists alternatives, each a list of trait keys summed into the pool
    (``[["dexterity", "brawl"], ["dexterity", "melee"]]``: unarmed or with a
    weapon). ``difficulty`` is a modifier to the default 6, ``accuracy`` dice
    added to the pool. ``damage_type`` is the type when the damage comes from
    Strength (None: from the weapon); ``damage_type_by_power`` picks it from a
    power the attacker has (claws, V-CC-3). ``traits_option`` names the table
    option that may replace ``traits`` (``kick_traits``, V-CC-4).
    """

    id: str
    kind: ManeuverKind
    names: Text
    words: list[str] = []
    rule: str
    traits: list[list[TraitKey]] = []
    difficulty: Int = 0
    accuracy: Int = 0
    damage: ManeuverDamage = ManeuverDamage(base="none")
    damage_type: TableDamageType | None = None
    damage_type_by_power: dict[PowerKey, TableDamageType] = {}
    requires: Requirements = Requirements()
    effects: list[Effect] = []
    traits_option: str | None = None
    custom: bool = False

    @field_validator("traits", mode="before")
    @classmethod
    def _one_alternative(cls, value: Any) -> Any:
        """A flat list (``[dexterity, brawl]``) or a string ``dexterity+brawl``: one alternative."""
        if isinstance(value, str):
            return [_split_traits(part) for part in value.split("|")]
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return [value]
        return value

    def label(self, lang: Lang | None = None) -> str:
        """The maneuver's display name in ``lang``."""
        return self.names.get(lang)

    def traits_for(self, options: Mapping[str, Any] | None = None) -> list[list[str]]:
        """The pool alternatives with the table's options applied (``kick_traits``, V-CC-4)."""
        if self.traits_option and options and self.traits_option in options:
            return [[_trait_key(part) for part in _split_traits(str(options[self.traits_option]))]]
        return [list(alt) for alt in self.traits]

    def effect(self, type_: str) -> Effect | None:
        """The first effect of the given type, if the maneuver has one."""
        return self.effect_index.get(type_)

    @cached_property
    def effect_index(self) -> dict[str, Effect]:
        """The first effect of each type (a maneuver is immutable)."""
        out: dict[str, Effect] = {}
        for e in self.effects:
            out.setdefault(e.type, e)
        return out


def _split_traits(text: str) -> list[str]:
    return [part.strip() for part in text.split("+") if part.strip()]


class _Named(_Model):
    """An entry shown by its names, found by them or its other ``words``."""

    id: str
    names: Text
    words: list[str] = []

    def label(self, lang: Lang | None = None) -> str:
        return self.names.get(lang)


class Modifier(_Named):
    """A situational modifier: targeting size (V-MAN-8) or cover (V-RNG-3)."""

    rule: str
    difficulty: Int = 0
    damage: Int = 0
    accuracy: Int = 0
    shooter_difficulty: Int = 0


class RangeBand(_Named):
    """A range band (V-RNG-5): up to ``max_metres``, or ``max_range_multiple`` × short range."""

    rule: str
    difficulty: Int = Field(ge=2, le=10)
    max_metres: float | None = Field(default=None, gt=0)
    max_range_multiple: float | None = Field(default=None, gt=0)

    def limit(self, short_range: int) -> float:
        """The farthest distance (metres) of the band for a weapon of ``short_range``."""
        if self.max_metres is not None:
            return self.max_metres
        return (self.max_range_multiple or 0.0) * short_range


# --------------------------------------------------------------------------- health


class HealthLevel(_Named):
    """One level of the health track (V-DMG-5) and the movement it still allows."""

    penalty: Int = Field(le=0)
    move: LevelMove = "run"
    metres: Int | None = Field(default=None, ge=0)
    can_act: bool = True


class Pace(_Model):
    """A pace: ``base`` metres per turn plus ``per_dexterity`` × Dexterity."""

    base: Int = Field(ge=0)
    per_dexterity: Int = Field(default=0, ge=0)

    def metres(self, dexterity: int) -> int:
        return self.base + self.per_dexterity * dexterity


class Movement(_Model):
    """Distances per turn (core rules, as data: V-MAN-6 reading)."""

    rule: str
    walk: Pace
    jog: Pace
    run: Pace


class HealthTrackSpec(_Model):
    """The health track: its levels in order (last: Incapacitated) and the paces."""

    rule: str
    levels: list[HealthLevel] = Field(min_length=2)
    default_track: list[str]
    movement: Movement

    @model_validator(mode="after")
    def _known_levels(self) -> HealthTrackSpec:
        ids = {level.id for level in self.levels}
        for name in self.default_track:
            if name not in ids:
                raise _reason(
                    "vtm.reason.health_level",
                    field="default_track",
                    value=name,
                    allowed=", ".join(level.id for level in self.levels),
                )
        return self

    def level(self, ref: str) -> HealthLevel | None:
        """The level named ``ref`` (id, French or English name, any case), or None."""
        norm = normalize_key(ref)
        for level in self.levels:
            forms = (level.id, level.names.fr, level.names.en, *level.words)
            if norm in {normalize_key(form) for form in forms}:
                return level
        return None

    def penalty(self, level_id: str) -> int:
        """The dice penalty of the level (0, −1, −2, −5); KeyError for an unknown level."""
        level = self.level(level_id)
        if level is None:
            raise KeyError(level_id)
        return level.penalty

    def max_move(self, level_id: str, dexterity: int) -> int:
        """Metres a character at this level may cover in a turn (Injured: running halved)."""
        level = self.level(level_id)
        if level is None:
            raise KeyError(level_id)
        run = self.movement.run.metres(dexterity)
        if not level.can_act:
            return 0
        if level.move == "run":
            return run
        if level.move == "half_run":
            return run // 2
        if level.move == "walk":
            return self.movement.walk.metres(dexterity)
        return level.metres or 0


# --------------------------------------------------------------------------- complications, options


class Complication(_Model):
    """A botch complication (V-ATK-5), offered to the game master for the weapon kinds it fits."""

    id: str
    applies_to: list[WeaponCategory] = Field(min_length=1)
    name: Text
    """What the game master's list of complications calls it (« arme enrayée »)."""
    text: Text
    rule: str = "V-ATK-5"

    def label(self, lang: Lang | None = None) -> str:
        return self.text.get(lang)


class Condition(_Model):
    """A combat condition (V-DMG-7, FACTS.md): knocked down, dazed, blinded, immobilised…"""

    id: str
    names: Text
    text: Text
    rule: str
    attackers_dice: Int = 0
    close_attack_dice: Int = 0
    difficulty: Int = 0
    initiative: Int = 0
    loses_next_action: bool = False
    automatic_hit: bool = False
    recover_traits: list[TraitKey] = []
    estimated: bool = False

    def label(self, lang: Lang | None = None) -> str:
        return self.names.get(lang)


OptionValue = bool | int | str


class OptionSpec(_Model):
    """A table option (a reading or core-rule choice the game master switches)."""

    id: str
    default: OptionValue
    rule: str
    names: Text
    description: Text
    choices: list[str] = []

    @model_validator(mode="after")
    def _default_allowed(self) -> OptionSpec:
        if self.choices and self.default not in self.choices:
            raise _reason(
                "input.reason.choice",
                field="default",
                value=self.default,
                expected=", ".join(self.choices),
            )
        return self

    def check(self, value: Any) -> OptionValue:
        """``value`` as this option's type (``oui``/``non`` accepted); ConteurError otherwise."""
        if isinstance(self.default, bool):
            if isinstance(value, bool):
                return value
            word = normalize_key(str(value))
            if word in ("true", "yes", "oui", "on", "vrai", "1"):
                return True
            if word in ("false", "no", "non", "off", "faux", "0"):
                return False
            expected: Any = Msg("vtm.option.type.bool")
        elif isinstance(self.default, int):
            if not isinstance(value, bool):
                try:
                    return int(value)
                except (TypeError, ValueError):
                    pass
            expected = Msg("vtm.option.type.int")
        else:
            if not self.choices:
                return str(value)
            for choice in self.choices:
                if _same_choice(choice, str(value)):
                    return choice
            expected = Msg("vtm.option.type.choice", choices=", ".join(self.choices))
        raise ConteurError(
            "vtm.option.bad_value", rule=self.rule, option=self.id, expected=expected, value=value
        )


def _same_choice(choice: str, value: str) -> bool:
    """Equal, or the same traits in another spelling (``Dextérité + Bagarre``)."""
    if normalize_key(choice) == normalize_key(value):
        return True
    left = [canonical_trait(p) for p in _split_traits(choice)]
    right = [canonical_trait(p) for p in _split_traits(value)]
    return None not in left and left == right


# --------------------------------------------------------------------------- errors


class _Labelled(Protocol):
    @property
    def id(self) -> str: ...

    def label(self, lang: Lang | None = None) -> str: ...


class Labels:
    """Entries shown by their display names in the message's language (``with_ids``: and ids)."""

    def __init__(self, items: Sequence[_Labelled], with_ids: bool = False) -> None:
        self.items = items
        self.with_ids = with_ids

    def describe(self, lang: Lang | None = None) -> str:
        if self.with_ids:
            return ", ".join(f"«\u202f{i.label(lang)}\u202f» ({i.id})" for i in self.items)
        return ", ".join(i.label(lang) for i in self.items)


# --------------------------------------------------------------------------- the tables


E = TypeVar("E", "Weapon", "Armour")


def _suggestions(ref: str, index: Mapping[str, str], entries: Mapping[str, Any]) -> list[Any]:
    close = difflib.get_close_matches(normalize_key(ref), list(index), n=6, cutoff=0.6)
    ids: list[str] = []
    for form in close:
        if index[form] not in ids and index[form] in entries:
            ids.append(index[form])
    return [entries[i] for i in ids[:3]]


def _name_owners(entries: Iterable[Weapon | Armour]) -> dict[str, list[str]]:
    """Every name (id, names, aliases; normalised) and the ids of the entries using it."""
    owners: dict[str, list[str]] = {}
    for entry in entries:
        forms = (entry.id, entry.name_fr, entry.name_en, *entry.aliases)
        for form in dict.fromkeys(normalize_key(f) for f in forms):
            owners.setdefault(form, []).append(entry.id)
    return owners


def _name_index(entries: Iterable[Weapon | Armour]) -> dict[str, str]:
    return {form: ids[0] for form, ids in _name_owners(entries).items()}


def _word_index(entries: Iterable[Maneuver | Modifier | RangeBand]) -> dict[str, str]:
    index: dict[str, str] = {}
    for entry in entries:
        for form in (entry.id, entry.names.fr, entry.names.en, *entry.words):
            index.setdefault(normalize_key(form), entry.id)
    return index


@dataclass(frozen=True, eq=False)
class Tables:
    """The vtm tables of one era, read-only (mappings are views: do not mutate them).

    ``weapons`` and ``armour`` hold only what exists in ``era`` (V-ERA-1);
    ``other_era`` remembers the eras of what was left out, for clear errors.
    """

    era: str
    weapons: Mapping[str, Weapon]
    armour: Mapping[str, Armour]
    maneuvers: Mapping[str, Maneuver]
    targets: Mapping[str, Modifier]
    cover: Mapping[str, Modifier]
    ranges: tuple[RangeBand, ...]
    health: HealthTrackSpec
    complications: tuple[Complication, ...]
    conditions: Mapping[str, Condition]
    options: Mapping[str, OptionSpec]
    other_era: Mapping[str, tuple[str, ...]]
    sources: tuple[str, ...] = ()

    def with_weapons(self, weapons: Iterable[Weapon]) -> Tables:
        """These tables plus ``weapons`` (a sheet's inline weapons), whatever their era."""
        added = {w.id: w for w in weapons}
        if not added:
            return self
        return replace(self, weapons=MappingProxyType({**self.weapons, **added}))

    # ---- look-ups by name (id, French or English name, alias; any case and accents)

    @cached_property
    def prerequisites(self) -> frozenset[str]:
        """The maneuvers some maneuver of the tables needs first (``requires.after``)."""
        return frozenset(x for m in self.maneuvers.values() for x in m.requires.after)

    @cached_property
    def _weapon_index(self) -> dict[str, str]:
        return _name_index(self.weapons.values())

    @cached_property
    def _armour_index(self) -> dict[str, str]:
        return _name_index(self.armour.values())

    @cached_property
    def _maneuver_index(self) -> dict[str, str]:
        return _word_index(self.maneuvers.values())

    def weapon(self, ref: str) -> Weapon:
        """The weapon named ``ref`` (id or name); ConteurError with close names otherwise."""
        found = self._weapon_refs
        if ref.__class__ is str:  # a name found before: one dict read (~370 a vtm fight)
            hit = found.get(ref)
            if hit is not None:
                return hit
        keys = ("vtm.weapon.other_era", "vtm.weapon.unknown_suggest", "vtm.weapon.unknown")
        return self._named("weapon", keys, ref, self._weapon_index, self.weapons, found)

    def find_armour(self, ref: str) -> Armour:
        """The armour named ``ref`` (id or name); ConteurError with close names otherwise."""
        keys = ("vtm.armour.other_era", "vtm.armour.unknown_suggest", "vtm.armour.unknown")
        return self._named("armour", keys, ref, self._armour_index, self.armour, self._armour_refs)

    @cached_property
    def _weapon_refs(self) -> dict[str, Weapon]:
        """The weapons already found, by the reference that found them."""
        return {}

    @cached_property
    def _armour_refs(self) -> dict[str, Armour]:
        """The armour already found, by the reference that found it."""
        return {}

    def _named(
        self,
        kind: str,
        keys: tuple[str, str, str],
        ref: str,
        index: Mapping[str, str],
        entries: Mapping[str, E],
        found: dict[str, E],
    ) -> E:
        """An entry by id or name, kept in ``found`` by that reference (the tables never
        change: a name is looked up once); refused naming its era (V-ERA-1) or close names.

        ``keys``: the messages for another era, unknown with suggestions, unknown.
        """

        def look_up(r: str) -> E:
            hit = index.get(normalize_key(r))
            if hit is not None:
                return entries[hit]
            eras = self.other_era.get(f"{kind}:{normalize_key(r)}")
            if eras is not None:
                raise ConteurError(
                    keys[0], rule="V-ERA-1", ref=r, era=self.era, eras=", ".join(eras)
                )
            close = _suggestions(r, index, entries)
            if close:
                raise ConteurError(keys[1], ref=r, suggestions=Labels(close, with_ids=True))
            raise ConteurError(keys[2], ref=r)

        return found_once(found, ref, look_up)

    def maneuver_named(self, word: str) -> Maneuver | None:
        """The maneuver a command word names, or None (no suggestions looked for)."""
        if word in self.maneuvers:
            return self.maneuvers[word]
        found = self._maneuver_index.get(normalize_key(word))
        return self.maneuvers[found] if found is not None else None

    def find_maneuver(self, word: str) -> Maneuver:
        """The maneuver a command word names (``coup de poing``, ``punch``, ``Plaquage``…)."""
        found_maneuver = self.maneuver_named(word)
        if found_maneuver is not None:
            return found_maneuver
        close = _suggestions(word, self._maneuver_index, self.maneuvers)
        if close:
            raise ConteurError(
                "vtm.maneuver.unknown_suggest", ref=word, suggestions=Labels(close, with_ids=True)
            )
        raise ConteurError("vtm.maneuver.unknown", ref=word)

    def find_target(self, word: str) -> Modifier:
        """The targeting size (V-MAN-8) a word names: ``petite``, ``tête``, ``eye``…"""
        found = _word_index(self.targets.values()).get(normalize_key(word))
        if found is None:
            raise ConteurError("vtm.target.unknown", rule="V-MAN-8", ref=word)
        return self.targets[found]

    def find_cover(self, word: str) -> Modifier:
        """The cover level (V-RNG-3) a word names: ``léger``, ``derrière un mur``, ``good``…"""
        found = _word_index(self.cover.values()).get(normalize_key(word))
        if found is None:
            raise ConteurError("vtm.cover.unknown", rule="V-RNG-3", ref=word)
        return self.cover[found]

    def range_band(self, distance: float, weapon: Weapon) -> RangeBand | None:
        """The band (V-RNG-5) of a shot at ``distance`` metres; None beyond maximum range."""
        short = weapon.range or 0
        for band in self.ranges:
            if distance <= band.limit(short):
                return band
        return None

    def botch_complications(self, category: WeaponCategory) -> list[Complication]:
        """The complications (V-ATK-5) offered for a botch with this kind of attack."""
        return [c for c in self.complications if category in c.applies_to]

    def option_defaults(self) -> dict[str, OptionValue]:
        """Every table option with its default value."""
        return {key: spec.default for key, spec in self.options.items()}

    def option_values(self, chosen: Mapping[str, Any] | None = None) -> dict[str, OptionValue]:
        """The defaults with the table's ``chosen`` values checked and applied."""
        values = self.option_defaults()
        for name, value in (chosen or {}).items():
            spec = self.options.get(name) or self.options.get(normalize_key(name))
            if spec is None:
                raise ConteurError(
                    "vtm.option.unknown", ref=name, allowed=", ".join(sorted(self.options))
                )
            values[spec.id] = spec.check(value)
        return values


# --------------------------------------------------------------------------- loading


_SECTIONS: dict[str, tuple[str, type[_Model]]] = {
    # section -> (kind of entry, model)
    "weapons": ("weapon", Weapon),
    "armour": ("armour", Armour),
    "maneuvers": ("maneuver", Maneuver),
    "targets": ("target", Modifier),
    "cover": ("cover", Modifier),
    "ranges": ("range", RangeBand),
    "botches": ("botch", Complication),
    "conditions": ("condition", Condition),
    "options": ("option", OptionSpec),
}

_SECTION_SPELLINGS = {
    "weapons": "weapons",
    "armes": "weapons",
    "armour": "armour",
    "armor": "armour",
    "armours": "armour",
    "armures": "armour",
    "armure": "armour",
    "maneuvers": "maneuvers",
    "manoeuvres": "maneuvers",
    "manoeuvers": "maneuvers",
    "targets": "targets",
    "cibles": "targets",
    "cover": "cover",
    "couverts": "cover",
    "couvert": "cover",
    "ranges": "ranges",
    "portees": "ranges",
    "botches": "botches",
    "complications": "botches",
    "echecs_critiques": "botches",
    "conditions": "conditions",
    "options": "options",
}

_BUILTIN_FILES = (
    "weapons.yaml",
    "armour.yaml",
    "maneuvers.yaml",
    "complications.yaml",
    "options.yaml",
)

_Raw = dict[str, tuple[dict[str, Any], str]]  # id -> (fields, file it came from)

M = TypeVar("M", bound=_Model)


def _read_yaml(name: str, text: str, *, shipped: bool = False) -> dict[str, Any]:
    """The mapping a tables file holds (``shipped``: one of the package's, parsed once
    between runs through ``conteur.runcache``)."""
    if shipped:
        data = shipped_yaml(text, lambda text: parse_data(text, name))
    else:
        data = parse_data(text, name)  # not YAML, or nested too deep: refused by name
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConteurError("vtm.tables.not_mapping", file=name)
    return data


def _builtin_text(name: str) -> str:
    return resources.files("conteur.rulesets.vtm").joinpath("data", name).read_text("utf-8")


def _merge(raw: dict[str, _Raw], data: dict[str, Any], source: str, partial: bool) -> None:
    """Add the sections of one file to ``raw``; ``partial``: same id changes only given fields."""
    allowed = ", ".join(_SECTIONS)
    for section_name, entries in data.items():
        section = _SECTION_SPELLINGS.get(normalize_key(str(section_name)))
        if section is None:
            unknown = Msg("vtm.reason.unknown_section", value=section_name, allowed=allowed)
            raise _invalid(source, "-", section_name, unknown)
        if not isinstance(entries, list):
            not_list = Msg("input.reason.not_list", value=_short(entries))
            raise _invalid(source, "-", section_name, not_list)
        seen: set[str] = set()
        target = raw.setdefault(section, {})
        for index, entry in enumerate(entries):
            name = f"{section}[{index + 1}]"
            if not isinstance(entry, dict):
                raise _invalid(
                    source, name, "-", Msg("input.reason.not_mapping", value=_short(entry))
                )
            ident = entry.get("id")
            if not isinstance(ident, str | int) or isinstance(ident, bool) or not str(ident):
                raise _invalid(source, name, "id", Msg("input.reason.missing"))
            ident = str(ident)
            if ident in seen:
                raise _invalid(source, ident, "id", Msg("vtm.reason.duplicate_id", id=ident))
            seen.add(ident)
            fields = {str(k): v for k, v in entry.items()}
            fields["id"] = ident
            if partial and ident in target:
                fields = {**target[ident][0], **fields}
            elif partial and section == "maneuvers":
                fields.setdefault("custom", True)
            target[ident] = (fields, source)


def maneuvers_of(text: str, file: str) -> dict[str, tuple[Maneuver, str]]:
    """The maneuvers of a file holding only a ``maneuvers`` section (an option pack's),
    each validated: ``ConteurError`` naming the file, the entry and the field otherwise."""
    data = _read_yaml(file, text)
    for section in data:
        if _SECTION_SPELLINGS.get(normalize_key(str(section))) != "maneuvers":
            unknown = Msg("vtm.reason.unknown_section", value=section, allowed="maneuvers")
            raise _invalid(file, "-", section, unknown)
    raw: dict[str, _Raw] = {}
    _merge(raw, data, file, partial=False)
    return _validated(raw, "maneuvers")


def _invalid(file: str, entry: str, field: str, reason: Msg) -> ConteurError:
    """The ``vtm.tables.invalid`` error: ``entry`` of ``file`` is wrong in ``field``, for
    ``reason``."""
    return ConteurError("vtm.tables.invalid", file=file, entry=entry, field=field, reason=reason)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _validate(model: type[M], fields: dict[str, Any], source: str, entry: str) -> M:
    try:
        return model.model_validate(fields)
    except ValidationError as exc:
        loc, reason = pydantic_reason(first_error(exc), model)
        raise _invalid(source, entry, plain_path(loc), reason) from None


def _validated(raw: dict[str, _Raw], section: str) -> dict[str, tuple[Any, str]]:
    model = _SECTIONS[section][1]
    return {
        ident: (_validate(model, fields, source, ident), source)
        for ident, (fields, source) in raw.get(section, {}).items()
    }


def _check_words(maneuvers: dict[str, tuple[Any, str]]) -> None:
    """Two maneuvers may not share a command word (find_maneuver must be unambiguous)."""
    owner: dict[str, str] = {}
    # shipped entries first, so a clash is blamed on the game master's entry
    ordered = sorted(maneuvers.items(), key=lambda item: not item[1][1].startswith("data/"))
    for ident, (man, source) in ordered:
        for word in (man.id, man.names.fr, man.names.en, *man.words):
            norm = normalize_key(word)
            other = owner.setdefault(norm, ident)
            if other != ident:
                clash = Msg("vtm.reason.duplicate_word", word=word, other=other)
                raise _invalid(source, ident, "words", clash)


def check_effects_read(maneuvers: Mapping[str, tuple[Maneuver, str]]) -> None:
    """Every effect of these maneuvers (id → (maneuver, file)) is of a type some rule reads,
    with the fields its readers need (``hooks.reads_effect``): an effect no code reads would
    be a number in a file that changes nothing."""
    from . import hooks
    from .rulebook import CORE_MODULES

    for name in CORE_MODULES:  # their import declares the readers
        importlib.import_module(f"{__package__}.{name}")
    readers = hooks.effect_readers()
    for ident, (man, source) in maneuvers.items():
        fault = partial(_invalid, source, ident)
        for wanted in sorted(hooks.EFFECT_OF.get(ident, ())):
            if man.effect(wanted) is None:
                raise fault("effects", Msg("vtm.reason.effect_missing", type=wanted))
        for index, effect in enumerate(man.effects):
            where = f"effects[{index + 1}]"
            if effect.type not in readers:
                raise fault(f"{where}.type", Msg("vtm.reason.effect_unread", value=effect.type))
            needed = hooks.EFFECT_NEEDS.get((effect.type, None), set())
            for name in sorted(needed | hooks.EFFECT_NEEDS.get((effect.type, ident), set())):
                if getattr(effect, name) is None:
                    reason = Msg("vtm.reason.effect_needs", type=effect.type, name=name)
                    raise fault(f"{where}.{name}", reason)


def _check_references(
    maneuvers: dict[str, tuple[Any, str]], options: dict[str, tuple[Any, str]]
) -> None:
    for ident, (man, source) in maneuvers.items():
        fault = partial(_invalid, source, ident)
        for index, before in enumerate(man.requires.after):
            if before not in maneuvers:
                unknown = Msg("vtm.reason.unknown_maneuver", value=before)
                raise fault(f"requires.after[{index + 1}]", unknown)
        if man.traits_option is not None and man.traits_option not in options:
            raise fault("traits_option", Msg("vtm.reason.unknown_option", value=man.traits_option))


def _check_names(entries: dict[str, tuple[Any, str]], era: str) -> None:
    """Two weapons (or armours) of one era may not share a name (``weapon()`` must be exact)."""
    visible = {k: v for k, v in entries.items() if era in v[0].eras}
    ordered = sorted(visible.values(), key=lambda item: not item[1].startswith("data/"))
    for form, ids in _name_owners(entry for entry, _ in ordered).items():
        if len(ids) > 1:
            entry, source = visible[ids[-1]]
            clash = Msg("vtm.reason.duplicate_word", word=form, other=ids[0])
            raise _invalid(source, entry.id, "aliases", clash)


def _normalise_era(era: str | int) -> str:
    text = str(era)
    return _ERA_SPELLINGS.get(normalize_key(text), text)


def load_tables(era: str | int = DEFAULT_ERA, extra: Sequence[Path | str] = ()) -> Tables:
    """The tables of ``era`` (``"1899"`` or ``"modern"``), with the game master's ``extra`` files.

    Without extra files the result is cached (one shared, read-only object per era).
    """
    era = _normalise_era(era)
    if not extra:
        return _load_cached(era)
    return _load(era, tuple(str(p) for p in extra))


@cache
def _load_cached(era: str) -> Tables:
    return _load(era, ())


@cache
def _builtin_raw() -> dict[str, Any]:
    names = (*_BUILTIN_FILES, "health.yaml")
    return {name: _read_yaml(name, _builtin_text(name), shipped=True) for name in names}


def _load(era: str, extra: tuple[str, ...]) -> Tables:
    raw: dict[str, _Raw] = {}
    builtin = _builtin_raw()
    for name in _BUILTIN_FILES:
        _merge(raw, builtin[name], f"data/{name}", partial=False)
    for path in extra:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise not_utf8(path, exc) from None
        except OSError as exc:
            raise ConteurError("vtm.tables.unreadable", file=path, detail=os_reason(exc)) from None
        _merge(raw, _read_yaml(path, text), path, partial=True)

    weapons = _validated(raw, "weapons")
    armour = _validated(raw, "armour")
    maneuvers = _validated(raw, "maneuvers")
    options = _validated(raw, "options")
    check_effects_read({k: (m, source) for k, (m, source) in maneuvers.items()})
    _check_words(maneuvers)
    _check_references(maneuvers, options)

    known_eras = set(ERAS)
    for entry, _ in (*weapons.values(), *armour.values()):
        known_eras.update(entry.eras)
    if era not in known_eras:
        raise ConteurError(
            "vtm.tables.unknown_era", rule="V-ERA-1", era=era, eras=", ".join(sorted(known_eras))
        )

    _check_names(weapons, era)
    _check_names(armour, era)

    other_era: dict[str, tuple[str, ...]] = {}
    for kind, entries in (("weapon", weapons), ("armour", armour)):
        for entry, _ in entries.values():
            if era not in entry.eras:
                for form in (entry.id, entry.name_fr, entry.name_en, *entry.aliases):
                    other_era[f"{kind}:{normalize_key(form)}"] = tuple(entry.eras)

    def only(entries: dict[str, tuple[Any, str]]) -> Mapping[str, Any]:
        return MappingProxyType({k: v for k, (v, _) in entries.items() if era in v.eras})

    def every(section: str) -> Mapping[str, Any]:
        return MappingProxyType({k: v for k, (v, _) in _validated(raw, section).items()})

    health = _validate(HealthTrackSpec, builtin["health.yaml"], "data/health.yaml", "health")
    return Tables(
        era=era,
        weapons=only(weapons),
        armour=only(armour),
        maneuvers=MappingProxyType({k: v for k, (v, _) in maneuvers.items()}),
        targets=every("targets"),
        cover=every("cover"),
        ranges=tuple(every("ranges").values()),
        health=health,
        complications=tuple(every("botches").values()),
        conditions=every("conditions"),
        options=MappingProxyType({k: v for k, (v, _) in options.items()}),
        other_era=MappingProxyType(other_era),
        sources=("data", *extra),
    )


@cache
def _all_names(section: str) -> dict[str, str]:
    """Every name of the shipped weapons or armour of any era (normalised) and its id."""
    raw: dict[str, _Raw] = {}
    builtin = _builtin_raw()
    for name in _BUILTIN_FILES:
        _merge(raw, builtin[name], f"data/{name}", partial=False)
    entries = raw[section].items()
    if section == "weapons":
        owners = _name_owners(_validate(Weapon, f, src, i) for i, (f, src) in entries)
    else:
        owners = _name_owners(_validate(Armour, f, src, i) for i, (f, src) in entries)
    return {form: ids[0] for form, ids in owners.items() if len(ids) == 1}


def canonical_weapon_id(ref: str) -> str:
    """The id of the shipped weapon ``ref`` names, any era (``Couteau`` → ``knife``).

    A name that several eras use for different weapons (``Fusil à pompe``) stays as written:
    ``Tables.weapon`` resolves it in the campaign's era.
    """
    return _all_names("weapons").get(normalize_key(ref), ref.strip())


def canonical_armour_id(ref: str) -> str:
    """The id of the shipped armour ``ref`` names, any era (``Kevlar`` → ``kevlar_vest``)."""
    return _all_names("armour").get(normalize_key(ref), ref.strip())


def find_maneuver(word: str, tables: Tables | None = None) -> Maneuver:
    """The maneuver a French or English command word names (default tables unless given)."""
    return (tables or load_tables()).find_maneuver(word)


class TablesRef:
    """Holds the encounter's tables; copies of the state share it (tables never change)."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    def __deepcopy__(self, memo: dict[int, Any]) -> TablesRef:
        return self
