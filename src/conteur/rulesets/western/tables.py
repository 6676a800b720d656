"""The western tables as data: characteristics, skills, speed, order of combat, hit location,
shifts, stealth, action durations and weapons.

The excerpt leaves these numbers out; ``data/tables.yaml`` ships defaults. A
game master's file (the scenario key ``tables``) replaces whole sections: a
section it names is taken from it, the others stay the defaults. Every entry
is validated (pydantic); a bad one raises ``western.tables.invalid`` naming the
file, the entry and the field, in French and English.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from functools import cache, cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from conteur.dice import Expr
from conteur.i18n import ConteurError, Lang
from conteur.records import CachedReads

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
            raise ValueError(f"damage {self.damage!r} is not a dice expression") from None
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
            raise ValueError("locations must cover 1..100 exactly once (sum 100 %)")
        zones = {loc.id for loc in self.locations}
        for zone, steps in self.shifts.items():
            if zone not in zones:
                raise ValueError(f"shifts: unknown zone {zone!r}")
            last = 0
            for step in steps:
                if step.to not in zones:
                    raise ValueError(f"shifts.{zone}: unknown zone {step.to!r}")
                if step.margin <= last:
                    raise ValueError(f"shifts.{zone}: margins must grow")
                last = step.margin
        skills = {s.id for s in self.skills}
        for w in self.weapons:
            if w.skill not in skills:
                raise ValueError(f"weapons.{w.id}: unknown skill {w.skill!r}")
        for kind, bands in self.speed.items():
            if not bands or bands[0].min != 0:
                raise ValueError(f"speed.{kind}: the first band starts at 0")
            cap = MAX_SHOTS.get(kind)
            if cap is not None and any(b.shots > cap for b in bands):
                raise ValueError(f"speed.{kind}: at most {cap} shots per round")
        return self

    # ------------------------------------------------------------------ lookups

    def weapon(self, ref: str) -> Weapon:
        found = self.weapon_refs.get(ref) if isinstance(ref, str) else None
        if found is None:
            found = find(self.weapons, ref, "western.unknown_weapon")
            if isinstance(ref, str):
                self.weapon_refs[ref] = found
        return found

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
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(c for c in plain.lower() if c.isalnum())


@cache
def _default_data() -> dict[str, Any]:
    text = (
        resources.files("conteur.rulesets.western")
        .joinpath("data/tables.yaml")
        .read_text(encoding="utf-8")
    )
    data: dict[str, Any] = yaml.safe_load(text)
    return data


def _validate(data: Mapping[str, Any], source: str) -> Tables:
    try:
        return Tables.model_validate(dict(data))
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "—"
        entry = _entry_name(data, err["loc"])
        raise ConteurError(
            "western.tables.invalid",
            path=source,
            entry=entry or where,
            field=where,
            reason=err["msg"],
        ) from None


def _entry_name(data: Mapping[str, Any], loc: tuple[Any, ...]) -> str:
    """``weapons[3]`` named by its id when the entry has one (``weapons.colt_saa``)."""
    if len(loc) >= 2 and isinstance(loc[1], int):
        section = data.get(str(loc[0]))
        if isinstance(section, list) and loc[1] < len(section):
            item = section[loc[1]]
            if isinstance(item, Mapping) and "id" in item:
                return f"{loc[0]}.{item['id']}"
    return ""


@cache
def default_tables() -> Tables:
    """The shipped default tables."""
    return _validate(_default_data(), "data/tables.yaml")


def load_tables(path: str | Path | None = None) -> Tables:
    """The default tables, with the sections of a game master's file put in their place."""
    if path is None:
        return default_tables()
    file = Path(path)
    try:
        own = yaml.safe_load(file.read_text(encoding="utf-8"))
    except OSError:
        raise ConteurError("western.tables.unreadable", path=str(file)) from None
    except yaml.YAMLError:
        raise ConteurError("western.tables.unreadable", path=str(file)) from None
    if not isinstance(own, Mapping):
        raise ConteurError("western.tables.unreadable", path=str(file))
    return _validate({**_default_data(), **own}, str(file))
