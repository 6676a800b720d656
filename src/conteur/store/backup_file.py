"""A campaign backup file read and checked before anything is written (``read_backup``).

A backup goes through the strict input layer (``conteur.engine.inputs``) like every
file a user hands the program: its shape is a pydantic model (unknown keys refused with
the nearest one), then the parts are checked against each other and by the rules — all
before anything is written, so a refused file leaves the database as it was. A fault is
an ``InputError`` naming the file, the entry and the field (« partie.json : personnage
n° 2 (cid) : champ « versions[1].state » : … »), in French or English. The file's
contents: ``conteur.store.backup``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, NoReturn

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError

from conteur.engine import Encounter
from conteur.engine.inputs import (
    MAX_DEPTH,
    TOP,
    Count,
    InputError,
    depth,
    first_error,
    plain_path,
    pydantic_reason,
    reason,
    short,
)
from conteur.engine.registry import get_ruleset
from conteur.engine.visibility import Privacy
from conteur.i18n import ConteurError, Lang, Msg

from . import campaigns, replay_fault

FORMAT = "conteur.campaign"
VERSION = 1
STATUSES = ("open", "closed")
KINDS = ("command", "undo")


class _Reason:
    """A refusal from further down (the ruleset, the engine), told in the reader's language."""

    def __init__(self, error: ConteurError) -> None:
        self.error = error

    def describe(self, lang: Lang | None = None) -> str:
        return self.error.message(lang).rstrip(" .")


def parse(text: str, source: str) -> Any:
    """The JSON of a backup file; ``InputError`` naming the file, line and column otherwise."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        why = Msg("store.backup.reason.not_json", line=exc.lineno, column=exc.colno)
        raise InputError(why, file=source) from None
    except RecursionError:
        raise InputError(Msg("input.reason.too_deep", limit=MAX_DEPTH), file=source) from None
    if depth(data) > MAX_DEPTH:
        raise InputError(Msg("input.reason.too_deep", limit=MAX_DEPTH), file=source)
    return data


def _moment(value: Any) -> datetime:
    if not isinstance(value, str):
        raise reason("store.backup.reason.date", value=short(value))
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise reason("store.backup.reason.date", value=short(value)) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _one_of(*allowed: str) -> Any:
    def check(value: Any) -> str:
        if not isinstance(value, str) or value not in allowed:
            raise reason("input.reason.choice", value=short(value), expected=", ".join(allowed))
        return value

    return BeforeValidator(check)


def _name(value: Any) -> str:
    text = _text_value(value)
    if len(text) > MAX_NAME:
        raise reason("store.backup.reason.too_long", limit=MAX_NAME, length=len(text))
    return text


def _text_value(value: Any) -> str:
    if not isinstance(value, str):
        raise reason("input.reason.not_text", value=short(value))
    if not value.strip():
        raise reason("input.reason.empty")
    return value.strip()


MAX_NAME = 200
Moment = Annotated[datetime, BeforeValidator(_moment)]
Name = Annotated[str, BeforeValidator(_name)]
Fields = dict[str, Any]


class Part(BaseModel):
    """A part of the file: no key but its own (the nearest one suggested)."""

    model_config = ConfigDict(extra="forbid")


class LogItem(Part):
    """One entry of an encounter's log."""

    seq: Count
    kind: Annotated[str, _one_of(*KINDS)]
    entry: Fields
    created_at: Moment


class VersionItem(Part):
    """One version of a character."""

    version: Count
    sheet: Fields
    state: Fields
    reason: str
    encounter_id: Count | None = None
    created_at: Moment


class CharacterItem(Part):
    """A character, with every version it had."""

    id: Count
    slug: Name
    name: Name
    sheet: Fields
    state: Fields
    version: Count
    created_at: Moment
    updated_at: Moment
    versions: list[VersionItem]


class EncounterItem(Part):
    """An encounter, with its whole log."""

    id: Count
    name: Name
    scenario: Fields
    status: Annotated[str, _one_of(*STATUSES)]
    created_at: Moment
    closed_at: Moment | None = None
    characters: dict[str, Count]
    log: list[LogItem]


class CampaignItem(Part):
    """The campaign itself."""

    id: Count | None = None
    name: Name
    ruleset: Name
    packs: list[Any]
    options: Fields
    era: Name | None = None
    settings: Fields
    privacy: Fields | None = None
    created_at: Moment
    updated_at: Moment


class BackupItem(Part):
    """The whole file."""

    format: str
    version: Count
    exported_at: Moment | None = None
    conteur: str | None = None
    campaign: CampaignItem
    characters: list[CharacterItem]
    encounters: list[EncounterItem]


CAMPAIGN = Msg("store.backup.entry.campaign")


def _character_entry(index: int, raw: Any) -> Msg:
    name = raw.get("slug") if isinstance(raw, Mapping) else None
    if isinstance(name, str) and name.strip():
        return Msg("store.backup.entry.character_named", number=index + 1, name=short(name))
    return Msg("store.backup.entry.character", number=index + 1)


def _encounter_entry(index: int, raw: Any) -> Msg:
    name = raw.get("name") if isinstance(raw, Mapping) else None
    if isinstance(name, str) and name.strip():
        return Msg("store.backup.entry.encounter_named", number=index + 1, name=short(name))
    return Msg("store.backup.entry.encounter", number=index + 1)


def _where(data: Any, loc: tuple[int | str, ...]) -> tuple[Msg, str]:
    """The entry and the field of a path in a backup's data (``characters``, 2, ``sheet``
    → the second character, field ``sheet``)."""
    if loc and loc[0] == "campaign":
        return CAMPAIGN, plain_path(loc[1:]) if loc[1:] else ""
    if len(loc) >= 2 and loc[0] in ("characters", "encounters") and isinstance(loc[1], int):
        items = data.get(loc[0]) if isinstance(data, Mapping) else None
        raw = items[loc[1]] if isinstance(items, list) and loc[1] < len(items) else None
        name = _character_entry if loc[0] == "characters" else _encounter_entry
        return name(loc[1], raw), plain_path(loc[2:]) if loc[2:] else ""
    return TOP, plain_path(loc) if loc else ""


class _Nested:
    """A field inside a field: ``sheet`` then the sheet's own field, in the reader's words."""

    def __init__(self, outer: Any, inner: Any) -> None:
        self.outer = outer
        self.inner = inner

    def describe(self, lang: Lang | None = None) -> str:
        outer, inner = (
            part.describe(lang) if hasattr(part, "describe") else str(part)
            for part in (self.outer, self.inner)
        )
        return f"{outer} › {inner}" if inner else outer


@dataclass(frozen=True)
class CheckedBackup:
    """A backup read whole and checked, ready to be written."""

    campaign: CampaignItem
    packs: list[Any]
    options: dict[str, Any]
    settings: dict[str, Any]
    privacy: dict[str, Any]
    characters: list[CharacterItem]
    encounters: list[EncounterItem]


def read_backup(data: Any, source: str) -> CheckedBackup:
    """A backup's data read and checked (shape, references between its parts, the rules'
    checks of every sheet and state, every encounter's log replayed); ``InputError``
    naming the file, the entry and the field of the first fault."""
    from .sheets import check_character

    def fail(why: Msg, entry: Any = TOP, field: Any = "") -> NoReturn:
        raise InputError(why, file=source, entry=entry, field=field)

    def refused(
        error: ConteurError, entry: Any, field: Any = "", *, inner_entry: bool = False
    ) -> NoReturn:
        if isinstance(error, InputError):  # the rules named the field: say it inside ours
            inner = error.params.get("field") or ""
            named = error.params.get("entry")
            top = isinstance(named, Msg) and named.key == TOP.key
            if inner_entry and named and not top:  # « combattant n° 1 (ann) » too
                inner = _Nested(named, inner)
            fail(error.params["reason"], entry, _Nested(str(field), inner) if field else inner)
        fail(Msg("store.backup.reason.refused", reason=_Reason(error)), entry, field)

    if not isinstance(data, Mapping):
        fail(Msg("input.reason.not_mapping", value=short(data)))
    if data.get("format") != FORMAT:
        found = short(data.get("format"))
        fail(Msg("store.backup.reason.format", found=found, expected=FORMAT), TOP, "format")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= VERSION:
        why = Msg("store.backup.reason.version", found=short(version), supported=VERSION)
        fail(why, TOP, "version")
    try:
        backup = BackupItem.model_validate(dict(data))
    except ValidationError as exc:
        loc, why = pydantic_reason(first_error(exc), BackupItem)
        entry, field = _where(data, loc)
        fail(why, entry, field)

    camp = backup.campaign
    try:
        get_ruleset(camp.ruleset)
    except ConteurError as error:
        refused(error, CAMPAIGN, "ruleset")
    try:  # the packs, options and era
        packs, options = campaigns.check_rules(camp.ruleset, camp.era, camp.packs, camp.options)
    except ConteurError as error:
        if error.key == "store.campaign.field":  # the field named, then why
            fail(error.params["reason"], CAMPAIGN, error.params["field"])
        refused(error, CAMPAIGN, _rules_field(error))
    try:
        settings = campaigns.check_settings({}, camp.settings)
    except ConteurError as error:
        refused(error, CAMPAIGN, "settings")
    try:
        privacy = Privacy.from_dict(camp.privacy or {}).to_dict()
    except ConteurError as error:
        refused(error, CAMPAIGN, "privacy")

    chars: dict[int, int] = {}
    slugs: set[str] = set()
    for i, ch in enumerate(backup.characters):
        entry = _character_entry(i, {"slug": ch.slug})
        if ch.id in chars:
            fail(Msg("store.backup.reason.duplicate", id=ch.id), entry, "id")
        chars[ch.id] = i
        try:
            checked = check_character(
                camp.ruleset, ch.sheet, ch.state, source, era=camp.era, packs=packs, options=options
            )
        except ConteurError as error:
            refused(error, entry, _part_refused(error))
        if ch.slug != checked.slug:
            fail(
                Msg("store.backup.reason.slug", slug=ch.slug, expected=checked.slug), entry, "slug"
            )
        if ch.slug in slugs:
            fail(Msg("store.backup.reason.duplicate", id=ch.slug), entry, "slug")
        slugs.add(ch.slug)
        if not ch.versions or ch.version != len(ch.versions):
            why = Msg("store.backup.reason.versions", count=len(ch.versions), last=ch.version)
            fail(why, entry, "versions")
        for n, v in enumerate(ch.versions):
            if v.version != n + 1:
                why = Msg("store.backup.reason.seq", seq=v.version, expected=n + 1)
                fail(why, entry, f"versions[{n + 1}].version")

    encs: set[int] = set()
    for i, enc in enumerate(backup.encounters):
        entry = _encounter_entry(i, {"name": enc.name})
        if enc.id in encs:
            fail(Msg("store.backup.reason.duplicate", id=enc.id), entry, "id")
        encs.add(enc.id)
        found = enc.scenario.get("ruleset", camp.ruleset)
        if found != camp.ruleset:
            why = Msg("input.reason.choice", value=short(found), expected=camp.ruleset)
            fail(why, entry, "scenario.ruleset")
        for n, item in enumerate(enc.log):
            if item.seq != n or item.entry.get("seq") != n:
                fail(
                    Msg("store.backup.reason.seq", seq=item.seq, expected=n),
                    entry,
                    f"log[{n + 1}].seq",
                )
            if item.entry.get("kind") != item.kind:
                why = Msg(
                    "store.backup.reason.kind", kind=item.kind, found=short(item.entry.get("kind"))
                )
                fail(why, entry, f"log[{n + 1}].kind")
        for combatant, old in enc.characters.items():
            if old not in chars:
                why = Msg("store.backup.reason.unknown", id=old, what=Msg("store.word.character"))
                fail(why, entry, f"characters.{combatant}")
        try:
            Encounter.replay(enc.scenario, [item.entry for item in enc.log])
        except Exception:  # replayed again entry by entry, to name the one that fails
            fault = replay_fault.locate(enc.scenario, [item.entry for item in enc.log])
            if fault.error is not None:  # the rules refused the scenario or an event
                refused(fault.error, entry, fault.field, inner_entry=True)
            fail(fault.why or Msg("store.backup.reason.replay"), entry, fault.field)
        found_fault = replay_fault.recheck(enc.scenario, [item.entry for item in enc.log])
        if found_fault is not None:  # it replays, but the rules would not have written it
            if found_fault.error is not None:
                refused(found_fault.error, entry, found_fault.field, inner_entry=True)
            fail(found_fault.why or Msg("store.backup.reason.replay"), entry, found_fault.field)
    for i, ch in enumerate(backup.characters):
        for n, v in enumerate(ch.versions):
            if v.encounter_id is not None and v.encounter_id not in encs:
                why = Msg(
                    "store.backup.reason.unknown",
                    id=v.encounter_id,
                    what=Msg("store.word.encounter"),
                )
                fail(why, _character_entry(i, {"slug": ch.slug}), f"versions[{n + 1}].encounter_id")
    return CheckedBackup(
        camp, packs, options, settings, privacy, backup.characters, backup.encounters
    )


def _rules_field(error: ConteurError) -> str:
    """The campaign field a ruleset's refusal is about (its message names the value)."""
    for field in ("option", "era", "pack"):
        if f".{field}" in error.key or f"_{field}" in error.key:
            return {"option": "options", "pack": "packs"}.get(field, field)
    return ""


def _part_refused(error: ConteurError) -> str:
    """Which part of a character the rules refused: ``sheet``, ``state``, or "" (unknown)."""
    entry = error.params.get("entry")
    key = entry.key if isinstance(entry, Msg) else ""
    return {"input.entry.sheet": "sheet", "input.entry.character": "state"}.get(key, "")
