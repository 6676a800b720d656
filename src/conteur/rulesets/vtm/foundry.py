"""An actor of Foundry VTT's "World of Darkness 20th edition" system → a vtm sheet.

The system (id ``worldofdarkness``, repository JohanFalt/Foundry_WoD20) exports an
actor as JSON: ``{name, type, system: {...}, items: [...]}`` since Foundry 10, or
``{name, type, data: {...}, items: [{..., data: {...}}]}`` before it. This module
follows its ``template.json`` at commit ``FOUNDRY_COMMIT`` (v7.2.5: abilities flat,
each with its ``type``; Willpower and the blood pool under ``advantages``) and at
``OLDER_COMMIT`` (v1.6.0, the ``data`` root: abilities grouped under talent, skill
and knowledge; Willpower and the blood pool at the root). Both layouts are read
under either root.

What maps: the nine attributes, the abilities we know, Willpower (permanent on the
sheet, the points left in the state), the blood pool (likewise), the health track
and its damage (the state's marks), stunned (the state's dazed), the disciplines and
the discipline powers the combat rules read (claws, senses), the melee and ranged
weapons and the armour our era tables name (by name, French or English, or an
alias of ``data/foundry.yaml``). Everything else with a value — a field of the
actor, an item, an active effect — is listed in ``unmapped`` with its reason; only
what Foundry derives from the rest or keeps for its display (``ignored`` in the data
file) is left out of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, ValidationInfo, field_validator

from conteur.engine import get_ruleset
from conteur.engine.characters import ImportResult, Unmapped
from conteur.engine.inputs import plain_path, pydantic_reason
from conteur.i18n import Bilingual, ConteurError, Msg

from .sheet import Kind, load_sheet
from .tables import (
    ERAS,
    Armour,
    Tables,
    Weapon,
    _builtin_text,
    _read_yaml,
    load_tables,
)
from .traits import ATTRIBUTES, POWERS, canonical_power, canonical_trait, normalize_key, trait_kind

FOUNDRY_COMMIT = "524df095ac575160aa9ba59f21ebcf8afabc6c60"
"""The commit of JohanFalt/Foundry_WoD20 (v7.2.5) whose template.json this module follows."""
OLDER_COMMIT = "6bcbd5821500d9975a65943d2133e67081fdb8d4"
"""The commit (v1.6.0) followed for the older ``data`` root."""

DATA_FILE = "data/foundry.yaml"

Item = TypeVar("Item", Weapon, Armour)

ATTRIBUTE_KEYS = ATTRIBUTES
"""Foundry's attribute keys: our own names of the nine attributes."""
ABILITY_GROUPS = ("talent", "skill", "knowledge")
HEALTH_LEVELS = ("bruised", "hurt", "injured", "wounded", "mauled", "crippled", "incapacitated")
DAMAGE_KINDS = ("aggravated", "lethal", "bashing")
TOP_IGNORED = frozenset(
    {
        "_id",
        "_stats",
        "img",
        "token",
        "prototypeToken",
        "flags",
        "folder",
        "sort",
        "ownership",
        "permission",
    }
)
"""Top-level keys of an export that are Foundry's bookkeeping (ids, token, image, owners)."""


# ------------------------------------------------------------------ the data file


class NaturalCover(BaseModel):
    """What covers a natural weapon here: a sheet power, or a maneuver every fighter has."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    power: str | None = None
    maneuver: str | None = None


class FoundryData(BaseModel):
    """``data/foundry.yaml``, checked against our traits and tables."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    actor_types: dict[str, Kind]
    pc_splats: dict[str, Kind]
    eras: dict[str, str]
    abilities: dict[str, str]
    weapons: dict[str, str]
    armour: dict[str, str]
    natural: dict[str, NaturalCover]
    ignored: list[str]

    @field_validator("eras")
    @classmethod
    def _eras(cls, value: dict[str, str]) -> dict[str, str]:
        for key, era in value.items():
            if era not in ERAS:
                raise ValueError(f"{key}: {era} is none of {', '.join(ERAS)}")
        return value

    @field_validator("abilities")
    @classmethod
    def _abilities(cls, value: dict[str, str]) -> dict[str, str]:
        for key, ours in value.items():
            if trait_kind(ours) != "ability":
                raise ValueError(f"{key}: {ours} is none of our abilities")
        return value

    @field_validator("weapons", "armour")
    @classmethod
    def _equipment(cls, value: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        """Each id one of the tables' weapons (``weapons``) or armour (``armour``), any era."""
        section = str(info.field_name)
        known = {i for era in ERAS for i in getattr(load_tables(era), section)}
        what = "weapon" if section == "weapons" else section
        for name, ident in value.items():
            if ident not in known:
                raise ValueError(f"{name}: no {what} {ident} in the tables")
        return {normalize_key(k): v for k, v in value.items()}

    @field_validator("natural")
    @classmethod
    def _natural(cls, value: dict[str, NaturalCover]) -> dict[str, NaturalCover]:
        maneuvers = load_tables().maneuvers
        for name, cover in value.items():
            if (cover.power is None) == (cover.maneuver is None):
                raise ValueError(f"{name}: give a power or a maneuver")
            if cover.power is not None and cover.power not in POWERS:
                raise ValueError(f"{name}: no power {cover.power}")
            if cover.maneuver is not None and cover.maneuver not in maneuvers:
                raise ValueError(f"{name}: no maneuver {cover.maneuver}")
        return {normalize_key(k): v for k, v in value.items()}


@cache
def foundry_data() -> FoundryData:
    """The shipped ``data/foundry.yaml``, validated (ConteurError naming the field)."""
    raw = _read_yaml(DATA_FILE, _builtin_text("foundry.yaml"))
    try:
        return FoundryData.model_validate(raw)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc, reason = pydantic_reason(error, FoundryData)
        section = str(loc[0]) if loc else "-"
        raise ConteurError(
            "vtm.tables.invalid",
            file=DATA_FILE,
            entry=section,
            field=plain_path(loc[1:]) if len(loc) > 1 else "-",
            reason=reason,
        ) from None


# ------------------------------------------------------------------ the result


Outcome = Literal["mapped", "unmapped", "ignored", "empty"]


@dataclass
class FoundryImport:
    """What the importer did with each field of the actor (``system.…`` paths).

    ``mapped``: carried onto the sheet or the state; ``unmapped``: left off, with the
    reason; ``ignored``: derived by Foundry or display only (the data file's
    ``ignored``); ``empty``: no value (0, empty text, false).
    """

    sheet: dict[str, Any]
    state: dict[str, Any]
    unmapped: list[Unmapped] = field(default_factory=list)
    mapped: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)

    def outcome(self, path: str) -> Outcome | None:
        """What became of the field at ``path`` (or of the part of the file holding it)."""
        for kind, paths in (
            ("mapped", self.mapped),
            ("unmapped", [u.field for u in self.unmapped]),
            ("ignored", self.ignored),
            ("empty", self.empty),
        ):
            if any(_under(path, p) for p in paths):
                return kind  # type: ignore[return-value]
        return None

    def result(self) -> ImportResult:
        return ImportResult(
            ruleset="vtm",
            sheet=self.sheet,
            state=self.state,
            unmapped=tuple(self.unmapped),
            mapped=tuple(self.mapped),
        )


def import_actor(data: object, source: str) -> ImportResult:
    """The vtm sheet of a Foundry actor export (the ``foundry`` importer of the contract)."""
    return read_actor(data, source).result()


# ------------------------------------------------------------------ reading


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _under(path: str, prefix: str) -> bool:
    """Whether ``path`` is ``prefix`` or a field inside it."""
    return path == prefix or path.startswith(prefix + ".") or path.startswith(prefix + "[")


def _is_empty(value: Any) -> bool:
    return (
        value is None
        or value == ""
        or value is False
        or value == []
        or value == {}
        or (isinstance(value, int | float) and not isinstance(value, bool) and value == 0)
    )


def _leaves(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    """Every leaf under ``value`` (mappings walked; lists and scalars are leaves)."""
    if isinstance(value, Mapping) and value:
        for key, child in value.items():
            yield from _leaves(child, _join(path, str(key)))
    else:
        yield path, value


def _matches(pattern: Sequence[str], parts: Sequence[str]) -> bool:
    if not pattern:
        return not parts
    head, rest = pattern[0], pattern[1:]
    if head == "**":
        return any(_matches(rest, parts[i:]) for i in range(len(parts) + 1))
    if not parts:
        return False
    return (head == "*" or head == parts[0]) and _matches(rest, parts[1:])


def _short(value: Any) -> Any:
    """A value as ``unmapped`` shows it: numbers and short texts as they are."""
    if isinstance(value, bool | int | float) or value is None:
        return value
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


class _Reader:
    """Reads one actor, remembering what became of every field it touches."""

    def __init__(self, actor: Mapping[str, Any], root_key: str, source: str) -> None:
        self.actor = actor
        self.root_key = root_key
        self.root: Mapping[str, Any] = actor[root_key]
        self.source = source
        self.data = foundry_data()
        self.out = FoundryImport(sheet={}, state={})
        self._handled: set[str] = set()

    # ---- paths and values

    def path(self, *keys: str | int) -> str:
        out = self.root_key
        for key in keys:
            out = _join(out, key)
        return out

    def get(self, *keys: str | int) -> Any:
        node: Any = self.root
        for key in keys:
            if isinstance(key, int):
                if not isinstance(node, list) or key >= len(node):
                    return None
            elif not isinstance(node, Mapping):
                return None
            node = node[key] if isinstance(key, int) else node.get(key)
        return node

    def number(self, path: str, value: Any, low: int, high: int) -> int | None:
        """``value`` read as a whole number from ``low`` to ``high`` (None when absent)."""
        if value is None or value == "":
            return None
        number: int | None = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, float) and value.is_integer():
            number = int(value)
        elif isinstance(value, str) and value.strip().lstrip("-").isdigit():
            number = int(value.strip())
        if number is None:
            raise ConteurError(
                "vtm.foundry.bad_number", source=self.source, field=path, value=_short(value)
            )
        if not low <= number <= high:
            raise ConteurError(
                "vtm.foundry.out_of_range",
                source=self.source,
                field=path,
                value=number,
                low=low,
                high=high,
            )
        return number

    def read(self, low: int, high: int, *keys: str | int) -> int | None:
        """The number at ``keys`` under the root, marked as mapped when present."""
        value = self.get(*keys)
        if value is None:
            return None
        self.mapped(self.path(*keys))
        return self.number(self.path(*keys), value, low, high)

    # ---- what became of a field

    def mapped(self, path: str) -> None:
        if path not in self._handled:
            self._handled.add(path)
            self.out.mapped.append(path)

    def ignore(self, path: str) -> None:
        if path not in self._handled:
            self._handled.add(path)
            self.out.ignored.append(path)

    def unmapped(self, path: str, name: str, value: Any, reason: Msg) -> None:
        self._handled.discard(path)
        self.out.mapped[:] = [p for p in self.out.mapped if p != path]
        self._handled.add(path)
        self.out.unmapped.append(Unmapped(path, name, _short(value), reason))

    def handled(self, path: str) -> bool:
        return any(_under(path, p) for p in self._handled)

    def sweep(self) -> None:
        """Every field of the root not handled yet: ignored, empty, or unmapped."""
        patterns = [p.split(".") for p in self.data.ignored]
        for path, value in _leaves(self.root, self.root_key):
            if self.handled(path):
                continue
            parts = path.split(".")[1:]
            if any(_matches(p, parts) for p in patterns):
                self.out.ignored.append(path)
            elif _is_empty(value):
                self.out.empty.append(path)
            else:
                reason = "speciality" if parts[-1] == "speciality" else "field"
                self.out.unmapped.append(
                    Unmapped(
                        path, _name_of(parts), _short(value), Msg(f"vtm.foundry.reason.{reason}")
                    )
                )


_VALUE_KEYS = frozenset({"value", "permanent", "temporary", "speciality", "bonus", "custom"})


def _name_of(parts: Sequence[str]) -> str:
    """The name of the trait a path is about (``abilities.awareness.value`` → ``awareness``)."""
    if len(parts) > 1 and parts[-1] in _VALUE_KEYS:
        return parts[-2]
    return parts[-1] if parts else "-"


def read_actor(data: object, source: str) -> FoundryImport:
    """Read a Foundry actor export (parsed JSON) into a sheet, a state and what did not map.

    ConteurError naming ``source`` and the field for what is no actor, an actor type
    we do not read, or a value of the wrong type.
    """
    if not isinstance(data, Mapping):
        raise ConteurError("vtm.foundry.not_actor", source=source)
    root_key = "system" if isinstance(data.get("system"), Mapping) else "data"
    if not isinstance(data.get(root_key), Mapping) or "type" not in data:
        raise ConteurError("vtm.foundry.not_actor", source=source)
    actor_type = data.get("type")
    kinds = foundry_data().actor_types
    if not isinstance(actor_type, str) or actor_type not in kinds:
        raise ConteurError(
            "vtm.foundry.actor_type",
            source=source,
            type=_short(actor_type),
            supported=", ".join(kinds),
        )
    reader = _Reader(data, root_key, source)
    kind = kinds[actor_type]
    if actor_type == "PC":  # the generic sheet: its splat says what it is
        splat = reader.get("settings", "splat")
        splat_key = str(splat or "mortal").strip().lower()
        if splat_key not in reader.data.pc_splats:
            raise ConteurError(
                "vtm.foundry.actor_type",
                source=source,
                type=f"PC ({_short(splat)})",
                supported=", ".join([*kinds, *(f"PC ({k})" for k in reader.data.pc_splats)]),
            )
        kind = reader.data.pc_splats[splat_key]
    sheet = reader.out.sheet
    state = reader.out.state

    _read_name(reader, sheet)
    sheet["kind"] = kind
    reader.mapped("type")
    eras = _eras(reader)
    _read_attributes(reader, sheet)
    _read_abilities(reader, sheet)
    _read_willpower(reader, sheet, state)
    _read_blood(reader, kind, sheet, state)
    _read_health(reader, sheet, state)
    _read_conditions(reader, state)
    if kind == "vampire" and reader.get("generation") is not None:
        generation = reader.read(1, 20, "generation")
        reader.unmapped(
            reader.path("generation"),
            "generation",
            generation,
            Msg("vtm.foundry.reason.generation"),
        )
    _read_items(reader, kind, sheet, eras)
    _read_top(reader)
    reader.sweep()
    _check(reader, sheet, state, eras)
    return reader.out


def _read_name(reader: _Reader, sheet: dict[str, Any]) -> None:
    name = reader.actor.get("name")
    inner = reader.get("name")
    if isinstance(inner, str) and inner.strip() and inner.strip() != str(name or "").strip():
        if not (isinstance(name, str) and name.strip()):
            name = inner
            reader.mapped(reader.path("name"))
        else:
            reader.unmapped(reader.path("name"), "name", inner, Msg("vtm.foundry.reason.bio_name"))
    else:
        reader.mapped(reader.path("name"))
    if not isinstance(name, str) or not name.strip():
        raise ConteurError("vtm.foundry.bad_text", source=reader.source, field="name")
    sheet["name"] = name.strip()
    reader.mapped("name")


def _eras(reader: _Reader) -> tuple[str, ...]:
    """Our eras in the order their tables are searched: the actor's era first."""
    era = reader.get("settings", "era")
    first = reader.data.eras.get(str(era)) if isinstance(era, str) else None
    return tuple(dict.fromkeys([first, *ERAS] if first else ERAS))


def _read_attributes(reader: _Reader, sheet: dict[str, Any]) -> None:
    attributes: dict[str, int] = {}
    node = reader.get("attributes")
    if node is None:
        return
    if not isinstance(node, Mapping):
        field = reader.path("attributes")
        raise ConteurError("vtm.foundry.bad_field", source=reader.source, field=field)
    for key, entry in node.items():
        if not isinstance(entry, Mapping):
            continue  # swept: listed as unmapped when it has a value
        if key in ATTRIBUTE_KEYS:
            value = reader.read(0, 10, "attributes", key, "value")
            if value is not None:
                attributes[key] = value
            bonus = reader.get("attributes", key, "bonus")
            if bonus not in (None, 0, "0", ""):
                reader.number(reader.path("attributes", key, "bonus"), bonus, -10, 10)
                reader.unmapped(
                    reader.path("attributes", key, "bonus"),
                    key,
                    bonus,
                    Msg("vtm.foundry.reason.bonus"),
                )
        elif entry.get("isvisible") is False:
            reader.ignore(reader.path("attributes", key))  # hidden: not used by this sheet
    if attributes:
        sheet["attributes"] = attributes


def _ability_entries(reader: _Reader) -> Iterator[tuple[tuple[str, ...], str, Mapping[str, Any]]]:
    node = reader.get("abilities")
    if not isinstance(node, Mapping):
        return
    for key, entry in node.items():
        if not isinstance(entry, Mapping):
            continue
        if key in ABILITY_GROUPS and "value" not in entry:
            for sub, inner in entry.items():
                if isinstance(inner, Mapping):
                    yield ("abilities", key, str(sub)), str(sub), inner
        else:
            yield ("abilities", str(key)), str(key), entry


def _read_abilities(reader: _Reader, sheet: dict[str, Any]) -> None:
    abilities: dict[str, int] = {}
    for keys, key, entry in _ability_entries(reader):
        value = reader.read(0, 10, *keys, "value")
        ours = reader.data.abilities.get(key) or canonical_trait(key)
        name = entry.get("altlabel") if isinstance(entry.get("altlabel"), str) else ""
        if value and ours is not None and trait_kind(ours) == "ability":
            abilities[ours] = max(value, abilities.get(ours, 0))
        elif value:
            reader.unmapped(
                reader.path(*keys, "value"), name or key, value, Msg("vtm.foundry.reason.ability")
            )
        speciality = entry.get("speciality")
        if isinstance(speciality, str) and speciality.strip():
            reader.unmapped(
                reader.path(*keys, "speciality"),
                name or key,
                speciality,
                Msg("vtm.foundry.reason.speciality"),
            )
    if abilities:
        sheet["abilities"] = abilities


def _pair(reader: _Reader, *roots: tuple[str, ...]) -> tuple[str, ...] | None:
    """The first of ``roots`` the actor has (``advantages.willpower``, the older ``willpower``)."""
    for keys in roots:
        if isinstance(reader.get(*keys), Mapping):
            return keys
    return None


def _read_willpower(reader: _Reader, sheet: dict[str, Any], state: dict[str, Any]) -> None:
    keys = _pair(reader, ("advantages", "willpower"), ("willpower",))
    if keys is None:
        return
    permanent = reader.read(0, 10, *keys, "permanent")
    temporary = reader.read(0, 10, *keys, "temporary")
    if not permanent:
        reader.unmapped(
            reader.path(*keys, "permanent"),
            "willpower",
            permanent or 0,
            Msg("vtm.foundry.reason.no_willpower"),
        )
        return
    sheet["willpower"] = permanent
    if temporary is not None and temporary != permanent:
        state["willpower"] = min(temporary, permanent)


def _read_blood(reader: _Reader, kind: str, sheet: dict[str, Any], state: dict[str, Any]) -> None:
    keys = _pair(reader, ("advantages", "bloodpool"), ("bloodpool",))
    if keys is None:
        return
    has_pool = kind == "vampire" or reader.get("settings", "hasbloodpool") is True
    if not has_pool:
        reader.ignore(reader.path(*keys))  # a mortal's sheet shows no blood pool
        return
    pool = reader.read(0, 100, *keys, "max")
    current = reader.read(0, 100, *keys, "temporary")
    if pool:
        sheet["blood"] = pool
    if current is not None and current != (pool or 10):
        state["blood"] = min(current, pool or 10)


def _read_health(reader: _Reader, sheet: dict[str, Any], state: dict[str, Any]) -> None:
    if not isinstance(reader.get("health"), Mapping):
        return
    counts: dict[str, int] = {}
    for level in HEALTH_LEVELS:
        if isinstance(reader.get("health", level), Mapping):
            count = reader.read(0, 10, "health", level, "value")
            if count is not None:
                counts[level] = count
    if counts and any(c != 1 for c in counts.values()):
        track = [lv for lv in HEALTH_LEVELS[:-1] for _ in range(counts.get(lv, 1))]
        if counts.get("incapacitated", 1) != 1:
            reader.unmapped(
                reader.path("health", "incapacitated", "value"),
                "incapacitated",
                counts["incapacitated"],
                Msg("vtm.foundry.reason.incapacitated"),
            )
        sheet["health_levels"] = [*track, "incapacitated"]
    marks: list[str] = []
    for damage in DAMAGE_KINDS:
        count = reader.read(0, 30, "health", "damage", damage)
        marks.extend([damage] * (count or 0))
    if marks:
        state["health"] = marks


def _read_conditions(reader: _Reader, state: dict[str, Any]) -> None:
    stunned = reader.get("conditions", "isstunned")
    if stunned is True:
        reader.mapped(reader.path("conditions", "isstunned"))
        state["conditions"] = {"dazed": True}


# ------------------------------------------------------------------ items


def _find_weapon(reader: _Reader, name: str, eras: Sequence[str]) -> Weapon | None:
    alias = reader.data.weapons.get(normalize_key(name))
    return _find_item(alias, name, eras, lambda tables: tables.weapons, Tables.weapon)


def _find_armour(reader: _Reader, name: str, eras: Sequence[str]) -> Armour | None:
    alias = reader.data.armour.get(normalize_key(name))
    return _find_item(alias, name, eras, lambda tables: tables.armour, Tables.find_armour)


def _find_item(
    alias: str | None,
    name: str,
    eras: Sequence[str],
    entries: Callable[[Tables], Mapping[str, Item]],
    named: Callable[[Tables, str], Item],
) -> Item | None:
    """The item of the first of ``eras`` that has it: the one the data file's ``alias``
    stands for, or without an alias the tables' own by ``name`` (``named``)."""
    for era in eras:
        tables = load_tables(era)
        if alias is not None:
            if alias in entries(tables):
                return entries(tables)[alias]
            continue
        try:
            return named(tables, name)
        except ConteurError:
            continue
    return None


def _item_root(item: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    for key in ("system", "data"):
        inner = item.get(key)
        if isinstance(inner, Mapping):
            return key, inner
    return "system", {}


def _read_items(reader: _Reader, kind: str, sheet: dict[str, Any], eras: Sequence[str]) -> None:
    items = reader.actor.get("items")
    if items is None:
        return
    if not isinstance(items, list):
        raise ConteurError("vtm.foundry.bad_field", source=reader.source, field="items")
    weapons: list[tuple[bool, str]] = []
    armours: list[tuple[bool, int, Armour]] = []
    disciplines: dict[str, int] = {}
    powers: list[str] = []
    for index, item in enumerate(items):
        where = f"items[{index}]"
        if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
            raise ConteurError("vtm.foundry.bad_item", source=reader.source, field=where)
        name, itype = str(item["name"]).strip(), str(item.get("type", ""))
        root_key, system = _item_root(item)
        inner = f"{where}.{root_key}"
        equipped = system.get("isequipped") is True
        if itype in ("Melee Weapon", "Ranged Weapon"):
            if system.get("isnatural") is True:
                cover = reader.data.natural.get(normalize_key(name))
                if cover is not None and cover.maneuver is not None:
                    reader.mapped(where)
                elif (
                    cover is not None
                    and cover.power is not None
                    and (cover.power != "fangs" or kind == "vampire")
                ):
                    powers.append(cover.power)
                    reader.mapped(where)
                else:
                    reader.unmapped(where, name, itype, Msg("vtm.foundry.reason.natural"))
                continue
            weapon = _find_weapon(reader, name, eras)
            if weapon is None:
                reader.unmapped(where, name, itype, Msg("vtm.foundry.reason.no_weapon"))
                continue
            weapons.append((equipped, weapon.id))
            reader.mapped(where)
            _compare_weapon(reader, inner, system, name, weapon)
        elif itype == "Armor":
            armour = _find_armour(reader, name, eras)
            if armour is None:
                reader.unmapped(where, name, itype, Msg("vtm.foundry.reason.no_armour"))
                continue
            armours.append((equipped, index, armour))
            reader.mapped(where)
            soak = system.get("soak")
            rating = soak.get("lethal") if isinstance(soak, Mapping) else None
            if rating is not None:
                number = reader.number(f"{inner}.soak.lethal", rating, 0, 20)
                if number is not None and number != armour.rating:
                    reader.unmapped(
                        f"{inner}.soak.lethal",
                        name,
                        number,
                        Msg(
                            "vtm.foundry.reason.armour_numbers",
                            armour=_label(armour),
                            rating=armour.rating,
                        ),
                    )
        elif itype == "Power" and system.get("type") in (
            "wod.types.discipline",
            "wod.types.disciplinepath",
        ):
            key = canonical_trait(name)
            rating = reader.number(f"{inner}.value", system.get("value"), 0, 10)
            if key is None or trait_kind(key) != "discipline":
                reader.unmapped(where, name, rating, Msg("vtm.foundry.reason.discipline"))
                continue
            disciplines[key] = max(rating or 0, disciplines.get(key, 0))
            reader.mapped(where)
        elif itype == "Ability":  # the PC actor's abilities
            key = str(system.get("id") or name)
            ours = reader.data.abilities.get(normalize_key(key)) or canonical_trait(key)
            rating = reader.number(f"{inner}.value", system.get("value"), 0, 10)
            if ours is None or trait_kind(ours) != "ability":
                reader.unmapped(where, name, rating, Msg("vtm.foundry.reason.ability"))
                continue
            abilities = sheet.setdefault("abilities", {})
            abilities[ours] = max(rating or 0, abilities.get(ours, 0))
            reader.mapped(where)
        elif itype == "Advantage" and system.get("id") in ("willpower", "bloodpool"):
            _pc_advantage(reader, inner, str(system["id"]), system, sheet)
            reader.mapped(where)
        elif itype == "Splat":  # what the PC actor is (its settings.splat says it too)
            reader.mapped(where)
        elif itype == "Power" and system.get("type") == "wod.types.disciplinepower":
            power = canonical_power(name)
            if power in POWERS:
                powers.append(power)
                reader.mapped(where)
            else:
                reader.unmapped(where, name, itype, Msg("vtm.foundry.reason.power"))
        else:
            reader.unmapped(where, name, itype, Msg("vtm.foundry.reason.item"))
    if disciplines:
        sheet["disciplines"] = disciplines
    chosen = [p for p in dict.fromkeys(powers) if not (p == "fangs" and kind == "vampire")]
    if chosen:
        sheet["powers"] = chosen
    if weapons:
        ordered = [w for eq, w in weapons if eq] + [w for eq, w in weapons if not eq]
        sheet["weapons"] = list(dict.fromkeys(ordered))
    if armours:
        armours.sort(key=lambda a: (not a[0], a[1]))
        sheet["armour"] = armours[0][2].id
        for _, index, _other in armours[1:]:
            reader.unmapped(
                f"items[{index}]",
                str(items[index]["name"]),
                "Armor",
                Msg("vtm.foundry.reason.one_armour", armour=_label(armours[0][2])),
            )


def _pc_advantage(
    reader: _Reader, inner: str, ident: str, system: Mapping[str, Any], sheet: dict[str, Any]
) -> None:
    """A PC actor's Willpower or blood pool item: the rating on the sheet, the points left
    in the state (as the older actors' ``advantages``)."""
    state = reader.out.state
    if ident == "willpower":
        permanent = reader.number(f"{inner}.permanent", system.get("permanent"), 1, 10)
        temporary = reader.number(f"{inner}.temporary", system.get("temporary"), 0, 10)
        if permanent:
            sheet["willpower"] = permanent
            if temporary is not None and temporary != permanent:
                state["willpower"] = min(temporary, permanent)
        return
    pool = reader.number(f"{inner}.max", system.get("max"), 0, 100)
    current = reader.number(f"{inner}.temporary", system.get("temporary"), 0, 100)
    if pool:
        sheet["blood"] = pool
    if current is not None and current != (pool or 10):
        state["blood"] = min(current, pool or 10)


def _label(entry: Weapon | Armour) -> Bilingual:
    return Bilingual(entry.name_fr, entry.name_en)


def _compare_weapon(
    reader: _Reader, inner: str, system: Mapping[str, Any], name: str, weapon: Weapon
) -> None:
    """A Foundry weapon whose damage differs from the table's: say which numbers are used."""
    damage = system.get("damage")
    if not isinstance(damage, Mapping):
        return
    bonus = reader.number(f"{inner}.damage.bonus", damage.get("bonus"), -10, 30)
    dtype = damage.get("type")
    ours = weapon.damage.dice if weapon.damage.dice is not None else weapon.damage.strength_plus
    kind = "aggravated" if weapon.damage_type == "fire" else weapon.damage_type
    differs = (bonus is not None and bonus != ours) or (
        isinstance(dtype, str) and dtype and dtype != kind
    )
    if differs:
        reader.unmapped(
            f"{inner}.damage",
            name,
            f"{bonus} {dtype or ''}".strip(),
            Msg(
                "vtm.foundry.reason.weapon_numbers",
                weapon=_label(weapon),
                damage=weapon.damage,
                type=Msg(f"word.{kind}"),
            ),
        )


def _read_top(reader: _Reader) -> None:
    """The export's keys beside the root: bookkeeping ignored, effects and others listed."""
    for key, value in reader.actor.items():
        if key in (reader.root_key, "name", "type", "items") or key in TOP_IGNORED:
            if key in TOP_IGNORED:
                reader.ignore(key)
            continue
        if key == "effects" and isinstance(value, list):
            for index, effect in enumerate(value):
                label = None
                if isinstance(effect, Mapping):
                    label = effect.get("name") or effect.get("label")
                reader.unmapped(
                    f"effects[{index}]",
                    str(label or "-"),
                    "ActiveEffect",
                    Msg("vtm.foundry.reason.effect"),
                )
            if not value:
                reader.out.empty.append(key)
            continue
        if _is_empty(value):
            reader.out.empty.append(key)
        else:
            reader.unmapped(key, key, value, Msg("vtm.foundry.reason.field"))


def _check(
    reader: _Reader, sheet: dict[str, Any], state: dict[str, Any], eras: Sequence[str]
) -> None:
    """The sheet loads, and a fight starts with it and its state (ConteurError otherwise)."""
    try:
        load_sheet(sheet, reader.source)
        bare = {k: v for k, v in sheet.items() if k not in ("weapons", "armour")}
        get_ruleset("vtm").new_state(
            {"era": eras[0], "combatants": [{"id": "imported", "sheet": bare, **state}]}
        )
    except ConteurError as error:
        raise ConteurError(
            "vtm.foundry.sheet", source=reader.source, reason=Msg(error.key, **error.params)
        ) from None


__all__ = [
    "FOUNDRY_COMMIT",
    "OLDER_COMMIT",
    "FoundryData",
    "FoundryImport",
    "foundry_data",
    "import_actor",
    "read_actor",
]
