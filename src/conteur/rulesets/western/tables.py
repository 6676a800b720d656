"""The western tables as data: characteristics, skills, speed, order of combat, hit location,
shifts, stealth, action durations and weapons.

The excerpt leaves these numbers out; ``data/tables.yaml`` ships defaults. A
game master's file (the scenario key ``tables``) replaces whole sections: a
section it names is taken from it, the others stay the defaults. Every entry
is validated (pydantic); a bad one raises ``western.tables.invalid`` naming the
file, the entry and the field, in French and English.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from conteur.dice import Expr
from conteur.engine.inputs import (
    TOP,
    InputError,
    first_error,
    plain_path,
    pydantic_reason,
    read_data,
)
from conteur.engine.inputs import reason as _reason
from conteur.i18n import ConteurError, Lang, Msg, safe_yaml
from conteur.i18n.spelling import letters_of
from conteur.records import CachedReads, found_once
from conteur.runcache import shipped_yaml

WeaponKind = Literal["revolver", "rifle", "shotgun", "bow", "thrown", "melee", "fists", "whip"]
FIREARMS = ("revolver", "rifle", "shotgun")
MAX_SHOTS = {"revolver": 5, "rifle": 3}
"""The text's caps on shots per round (W-SPD-1)."""


class _Model(CachedReads, BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Named(_Model):
    id: str
    fr: str
    en: str

    def label(self, lang: Lang | None) -> str:
        return self.en if lang == "en" else self.fr


class Band(_Model):
    min: int = Field(ge=0)
    shots: int = Field(ge=1)


class Location(Named):
    low: int = Field(ge=1, le=100)
    high: int = Field(ge=1, le=100)
    multiplier: float = Field(gt=0)
    aim: int = 0


class Step(_Model):
    to: str
    margin: int = Field(ge=1)


class StealthModifier(Named):
    value: int
    up_to: float | None = None


class ActionDuration(Named):
    rounds: int = Field(ge=0)


class Weapon(Named):
    kind: WeaponKind
    skill: str
    damage: str
    range: float = Field(gt=0)
    capacity: int | None = Field(default=None, ge=1)
    reload: int = Field(default=1, ge=1)
    heavy: bool = False
    year: int | None = None

    @model_validator(mode="after")
    def _dice(self) -> Weapon:
        try:
            Expr.parse(self.damage)
        except ConteurError:
            raise _reason("western.tables.reason.dice", field="damage", value=self.damage) from None
        return self

    @property
    def firearm(self) -> bool:
        return self.kind in FIREARMS


class Order(_Model):
    """How a round's shots are spread by speed (W-SPD-2; the text's 4.2.2.4 is missing).

    Each shot ranks at the fighter's combat speed less ``delay`` for every shot
    it fires before it in the round; higher ranks act first.
    """

    delay: int = Field(default=5, ge=0)


class Health(_Model):
    pv_bonus: int = 5
    dead_at: int = -10


class Tables(_Model):
    """Every table the western rules read."""

    characteristics: tuple[Named, ...]
    characteristic_default: int = 10
    characteristic_max: int = 24
    health: Health = Health()
    skills: tuple[Named, ...]
    speed: dict[WeaponKind, tuple[Band, ...]]
    order: Order = Order()
    locations: tuple[Location, ...]
    shifts: dict[str, tuple[Step, ...]]
    stealth: tuple[StealthModifier, ...]
    actions: tuple[ActionDuration, ...]
    weapons: tuple[Weapon, ...]
    close_reach: float = 2.0
    instinctive_max_range: float = 20.0

    @model_validator(mode="after")
    def _coherent(self) -> Tables:
        covered = sorted(n for loc in self.locations for n in range(loc.low, loc.high + 1))
        if covered != list(range(1, 101)):
            raise _reason("western.tables.reason.locations", field="locations")
        zones = {loc.id for loc in self.locations}
        known = ", ".join(sorted(zones))
        for zone, steps in self.shifts.items():
            if zone not in zones:
                raise _reason("western.tables.reason.zone", field="shifts", zone=zone, known=known)
            last = 0
            for n, step in enumerate(steps):
                where = f"shifts\x00{zone}\x00{n}"
                if step.to not in zones:
                    why = "western.tables.reason.zone"
                    raise _reason(why, field=where + "\x00to", zone=step.to, known=known)
                if step.margin <= last:
                    why = "western.tables.reason.margins"
                    raise _reason(why, field=where + "\x00margin", margin=step.margin, last=last)
                last = step.margin
        skills = {s.id for s in self.skills}
        for n, w in enumerate(self.weapons):
            if w.skill not in skills:
                known = ", ".join(sorted(skills))
                why = "western.tables.reason.skill"
                raise _reason(why, field=f"weapons\x00{n}\x00skill", skill=w.skill, known=known)
        for kind, bands in self.speed.items():
            if not bands or bands[0].min != 0:
                raise _reason("western.tables.reason.first_band", field=f"speed\x00{kind}")
            cap = MAX_SHOTS.get(kind)
            for n, band in enumerate(bands):
                if cap is not None and band.shots > cap:
                    why = "western.tables.reason.cap"
                    where = f"speed\x00{kind}\x00{n}\x00shots"
                    raise _reason(why, field=where, cap=cap, shots=band.shots)
        return self

    # ------------------------------------------------------------------ lookups

    def weapon(self, ref: str) -> Weapon:
        return found_once(self.weapon_refs, ref, self._find_weapon)

    def _find_weapon(self, ref: str) -> Weapon:
        return find(self.weapons, ref, "western.unknown_weapon")

    @cached_property
    def weapon_refs(self) -> dict[str, Weapon]:
        """The weapons already found, by the reference that found them (the tables are
        immutable: a look-up by name is made once)."""
        return {}

    def location(self, zone: str) -> Location:
        for loc in self.locations:
            if zone == loc.id:
                return loc
        raise ConteurError(
            "western.unknown_zone", name=zone, known=", ".join(x.id for x in self.locations)
        )

    def zone_of(self, face: int) -> Location:
        """The zone a 1D100 location roll lands on (W-LOC-2)."""
        for loc in self.locations:
            if loc.low <= face <= loc.high:
                return loc
        raise AssertionError(face)  # the validator makes the table cover 1..100

    def shots(self, kind: str, speed: int) -> int:
        """Shots or blows per round for a combat speed and weapon kind (W-SPD-1)."""
        bands = self.speed.get(kind) or self.speed["fists"]  # type: ignore[call-overload]
        shots = 1
        for band in bands:
            if speed >= band.min:
                shots = band.shots
        return min(shots, MAX_SHOTS.get(kind, shots))

    def stealth_modifier(self, ref: str) -> StealthModifier:
        return find(self.stealth, ref, "western.unknown_stealth")

    def distance_modifier(self, metres: float) -> StealthModifier:
        """The stealth modifier for approaching from ``metres`` away."""
        bands = sorted((m for m in self.stealth if m.up_to is not None), key=lambda m: m.up_to or 0)
        for m in bands:
            if metres <= (m.up_to or 0):
                return m
        raise ConteurError("western.unknown_stealth", name=f"{metres} m", known="")

    def skill_id(self, ref: str) -> str:
        return find(self.skills, ref, "western.unknown_skill").id

    def characteristic_id(self, ref: str) -> str:
        return find(self.characteristics, ref, "western.unknown_characteristic").id


N = TypeVar("N", bound=Named)


def find(entries: Sequence[N], ref: str, error: str) -> N:
    """The entry whose id, French or English name is ``ref`` (case and accents folded)."""
    key = fold(ref)
    for e in entries:
        if key in (fold(e.id), fold(e.fr), fold(e.en)):
            return e
    raise ConteurError(error, name=ref, known=", ".join(e.id for e in entries))


def fold(text: str) -> str:
    """Case, accents, spaces, hyphens and apostrophes folded: ``RÉSISTANCE`` → ``resistance``."""
    return _fold(str(text))


@lru_cache(maxsize=8192)
def _fold(text: str) -> str:
    return letters_of(text)


def package_yaml(name: str) -> dict[str, Any]:
    """A YAML file shipped in the ruleset's ``data`` folder (``tables.yaml``, ``script.yaml``)."""
    text = resources.files("conteur.rulesets.western").joinpath("data", name).read_text("utf-8")
    data: dict[str, Any] = shipped_yaml(text, safe_yaml)  # once between runs (runcache)
    return data


@cache
def _default_data() -> dict[str, Any]:
    return package_yaml("tables.yaml")


def _validate(data: Mapping[str, Any], source: str) -> Tables:
    """The tables, or an ``InputError`` naming the file, the entry (``weapons`` n° 4
    (colt_saa), the ``speed`` table…) and the field in words, in the reader's language."""
    try:
        return Tables.model_validate(dict(data))
    except ValidationError as exc:
        loc, why = pydantic_reason(first_error(exc), Tables)
        loc = tuple(p for part in loc for p in _split(part))
        entry, field = _where(data, loc)
        raise InputError(why, file=source, entry=entry, field=field) from None


def _split(part: int | str) -> tuple[int | str, ...]:
    """A path a validator gave as one field (parts joined by NUL) back into its parts."""
    if not isinstance(part, str) or "\x00" not in part:
        return (part,)
    return tuple(int(p) if p.isdigit() else p for p in part.split("\x00"))


def _where(data: Mapping[str, Any], loc: tuple[int | str, ...]) -> tuple[Any, str]:
    """The entry and the field of an error's path: a list's item by its number and id
    (``weapons`` n° 4 (colt_saa)), a table by its name, else the file's top level."""
    if not loc:
        return TOP, ""
    section, rest = str(loc[0]), loc[1:]
    if section not in Tables.model_fields:  # an unknown key of the file itself
        return TOP, section
    items = data.get(section)
    if rest and isinstance(rest[0], int):
        item = items[rest[0]] if isinstance(items, list) and rest[0] < len(items) else None
        ident = item.get("id") if isinstance(item, Mapping) else None
        number = rest[0] + 1
        if isinstance(ident, str) and ident:
            return Msg("western.tables.entry_id", section=section, number=number, id=ident), (
                plain_path(rest[1:]) if rest[1:] else ""
            )
        return Msg("western.tables.entry", section=section, number=number), (
            plain_path(rest[1:]) if rest[1:] else ""
        )
    if rest or isinstance(items, Mapping | list):
        return Msg("western.tables.section", section=section), plain_path(rest) if rest else ""
    return TOP, section


@cache
def default_tables() -> Tables:
    """The shipped default tables."""
    return _validate(_default_data(), "data/tables.yaml")


def load_tables(path: str | Path | None = None) -> Tables:
    """The default tables, with the sections of a game master's file put in their place."""
    if path is None:
        return default_tables()
    file = Path(path)
    if not file.is_file():
        raise ConteurError("western.tables.unreadable", path=str(file))
    own = read_data(file)  # not YAML, or nested too deep: refused by name
    if not isinstance(own, Mapping):
        raise ConteurError("western.tables.unreadable", path=str(file))
    return _validate({**_default_data(), **own}, str(file))
