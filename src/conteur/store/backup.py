"""A whole campaign as one JSON file, and back: ``conteur db export`` / ``conteur db import``.

The file (``format: conteur.campaign``, ``version: 1``) holds the campaign with its
settings; its characters with their current sheet and state and every version they
had (sheet, state, why, the encounter that closed it, when); its encounters with their
scenario, status, which character played which combatant, and their whole log (every
command with its events, every undo, when). Ids are the exporting database's: they
only tie the parts of the file together.

Importing makes a new campaign in the target database (SQLite or PostgreSQL), in one
transaction: everything, or nothing and an error naming the file and the field
(``characters[1].versions[0].state``), in French or English. New ids are given, the
dates are kept, and every character gets a **new player token**: the file carries no
token, since a backup travels (mail, USB stick) and the old links may have leaked; the
game master hands out the new links from the campaign page. Before anything is
written, each character's sheet and state are checked by the ruleset and each
encounter's log is replayed from its scenario, so what is imported plays.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, NoReturn

from sqlalchemy import select

from conteur.engine import Encounter
from conteur.i18n import ConteurError, Lang, Msg

from . import auth
from .models import Campaign, Character, CharacterVersion, EncounterCharacter, EncounterRow, LogRow

if TYPE_CHECKING:
    from .service import CampaignInfo, Store

FORMAT = "conteur.campaign"
VERSION = 1
STATUSES = ("open", "closed")
KINDS = ("command", "undo")


@dataclass(frozen=True)
class Imported:
    """What an import made: the new campaign, and the new id of each old one."""

    campaign: CampaignInfo
    characters: dict[int, int]
    encounters: dict[int, int]
    entries: int


class _Reason:
    """A refusal from further down (the ruleset, the engine), told in the reader's language."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def describe(self, lang: Lang | None = None) -> str:
        if isinstance(self.error, ConteurError):
            text = self.error.message(lang)
        else:
            text = f"{type(self.error).__name__}: {self.error}"
        return text.rstrip(" .")


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(UTC).isoformat()


# ------------------------------------------------------------------ export


def export_campaign(store: Store, campaign_id: int) -> dict[str, Any]:
    """The campaign ``campaign_id`` and everything of it, as JSON-ready data."""
    from .service import _campaign

    with store._read() as s:
        c = _campaign(s, campaign_id)
        chars = list(
            s.scalars(select(Character).where(Character.campaign_id == c.id).order_by(Character.id))
        )
        versions: dict[int, list[CharacterVersion]] = {ch.id: [] for ch in chars}
        if chars:
            for v in s.scalars(
                select(CharacterVersion)
                .where(CharacterVersion.character_id.in_(list(versions)))
                .order_by(CharacterVersion.character_id, CharacterVersion.version)
            ):
                versions[v.character_id].append(v)
        encounters = list(
            s.scalars(
                select(EncounterRow)
                .where(EncounterRow.campaign_id == c.id)
                .order_by(EncounterRow.id)
            )
        )
        links: dict[int, dict[str, int]] = {e.id: {} for e in encounters}
        logs: dict[int, list[LogRow]] = {e.id: [] for e in encounters}
        if encounters:
            ids = list(links)
            for link in s.scalars(
                select(EncounterCharacter)
                .where(EncounterCharacter.encounter_id.in_(ids))
                .order_by(EncounterCharacter.id)
            ):
                links[link.encounter_id][link.combatant_id] = link.character_id
            for row in s.scalars(
                select(LogRow)
                .where(LogRow.encounter_id.in_(ids))
                .order_by(LogRow.encounter_id, LogRow.seq)
            ):
                logs[row.encounter_id].append(row)
        from conteur import __version__
        from conteur.engine.visibility import Privacy

        from .service import SECRET_SETTINGS

        return {
            "format": FORMAT,
            "version": VERSION,
            "exported_at": _iso(datetime.now(UTC)),
            "conteur": __version__,
            "campaign": {
                "id": c.id,
                "name": c.name,
                "ruleset": c.ruleset,
                "packs": list(c.packs),
                "options": dict(c.options),
                "era": c.era,
                "settings": {k: v for k, v in c.settings.items() if k not in SECRET_SETTINGS},
                "privacy": Privacy.from_dict(c.privacy or {}).to_dict(),
                "created_at": _iso(c.created_at),
                "updated_at": _iso(c.updated_at),
            },
            "characters": [
                {
                    "id": ch.id,
                    "slug": ch.slug,
                    "name": ch.name,
                    "sheet": ch.sheet,
                    "state": ch.state,
                    "version": ch.version,
                    "created_at": _iso(ch.created_at),
                    "updated_at": _iso(ch.updated_at),
                    "versions": [
                        {
                            "version": v.version,
                            "sheet": v.sheet,
                            "state": v.state,
                            "reason": v.reason,
                            "encounter_id": v.encounter_id,
                            "created_at": _iso(v.created_at),
                        }
                        for v in versions[ch.id]
                    ],
                }
                for ch in chars
            ],
            "encounters": [
                {
                    "id": e.id,
                    "name": e.name,
                    "scenario": e.scenario,
                    "status": e.status,
                    "created_at": _iso(e.created_at),
                    "closed_at": _iso(e.closed_at),
                    "characters": links[e.id],
                    "log": [
                        {
                            "seq": r.seq,
                            "kind": r.kind,
                            "entry": r.entry,
                            "created_at": _iso(r.created_at),
                        }
                        for r in logs[e.id]
                    ],
                }
                for e in encounters
            ],
        }


def dump(data: Mapping[str, Any]) -> str:
    """The backup as the text of its file."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


# ------------------------------------------------------------------ reading a file


def parse(text: str, source: str) -> Any:
    """The JSON of a backup file; ConteurError naming the file, line and column otherwise."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConteurError(
            "store.backup.not_json", source=source, line=exc.lineno, column=exc.colno
        ) from None


class _Check:
    """Reads a backup's fields, refusing the first wrong one with its path."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, field: str, **params: Any) -> NoReturn:
        raise ConteurError(key, source=self.source, field=field, **params)

    def invalid(self, field: str, error: BaseException) -> NoReturn:
        self.fail("store.backup.invalid", field, reason=_Reason(error))

    def get(self, data: Mapping[str, Any], key: str, path: str) -> Any:
        if key not in data:
            self.fail("store.backup.missing", f"{path}.{key}" if path else key)
        return data[key]

    def typed(self, value: Any, kind: str, field: str, optional: bool = False) -> Any:
        if value is None and optional:
            return None
        ok = {
            "mapping": isinstance(value, dict),
            "list": isinstance(value, list),
            "text": isinstance(value, str),
            "integer": isinstance(value, int) and not isinstance(value, bool),
        }[kind]
        if not ok:
            found = json.dumps(value, ensure_ascii=False, default=str)
            found = found if len(found) <= 40 else found[:39] + "…"
            self.fail("store.backup.type", field, expected=Msg(f"store.word.{kind}"), found=found)
        return value

    def field(
        self, data: Mapping[str, Any], key: str, kind: str, path: str, optional: bool = False
    ) -> Any:
        name = f"{path}.{key}" if path else key
        if optional and key not in data:
            return None
        return self.typed(self.get(data, key, path), kind, name, optional)

    def moment(self, data: Mapping[str, Any], key: str, path: str, optional: bool = False) -> Any:
        raw = self.field(data, key, "text", path, optional)
        if raw is None:
            return None
        try:
            moment = datetime.fromisoformat(raw)
        except ValueError:
            self.fail(
                "store.backup.type", f"{path}.{key}", expected=Msg("store.word.date"), found=raw
            )
        return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


# ------------------------------------------------------------------ import


def import_campaign(store: Store, data: Any, source: str) -> Imported:
    """A new campaign from a backup's data (see the module's text); one transaction."""
    from conteur.engine.visibility import Privacy

    from .service import _campaign_info, _check, _check_rules, _check_settings

    check = _Check(source)
    check.typed(data, "mapping", "")
    found = check.get(data, "format", "")
    if found != FORMAT:
        raise ConteurError("store.backup.format", source=source, found=found, expected=FORMAT)
    version = check.field(data, "version", "integer", "")
    if not 1 <= version <= VERSION:
        raise ConteurError("store.backup.version", source=source, found=version, supported=VERSION)
    camp = check.field(data, "campaign", "mapping", "")
    name = check.field(camp, "name", "text", "campaign")
    ruleset = check.field(camp, "ruleset", "text", "campaign")
    packs = check.field(camp, "packs", "list", "campaign")
    options = check.field(camp, "options", "mapping", "campaign")
    era = check.field(camp, "era", "text", "campaign", optional=True)
    settings = check.field(camp, "settings", "mapping", "campaign")
    try:
        packs, options = _check_rules(ruleset, era, packs, options)
    except ConteurError as error:
        check.invalid("campaign", error)
    try:
        settings = _check_settings({}, settings)
    except ConteurError as error:
        check.invalid("campaign.settings", error)
    privacy = check.field(camp, "privacy", "mapping", "campaign", optional=True) or {}
    try:
        privacy = Privacy.from_dict(privacy).to_dict()
    except ConteurError as error:
        check.invalid("campaign.privacy", error)
    if not 1 <= len(name.strip()) <= 200:
        check.fail("store.backup.type", "campaign.name", expected=Msg("store.word.text"), found="")

    characters = check.field(data, "characters", "list", "")
    encounters = check.field(data, "encounters", "list", "")
    char_ids: dict[int, int] = {}
    for i, ch in enumerate(characters):
        path = f"characters[{i}]"
        check.typed(ch, "mapping", path)
        old = check.field(ch, "id", "integer", path)
        if old in char_ids:
            check.fail("store.backup.duplicate", f"{path}.id", id=old)
        char_ids[old] = i
    enc_ids: dict[int, int] = {}
    for i, enc in enumerate(encounters):
        path = f"encounters[{i}]"
        check.typed(enc, "mapping", path)
        old = check.field(enc, "id", "integer", path)
        if old in enc_ids:
            check.fail("store.backup.duplicate", f"{path}.id", id=old)
        enc_ids[old] = i

    with store._write() as s:
        row = Campaign(
            name=name.strip(),
            ruleset=ruleset,
            packs=packs,
            options=options,
            era=era,
            settings=settings,
            privacy=privacy,
            created_at=check.moment(camp, "created_at", "campaign"),
            updated_at=check.moment(camp, "updated_at", "campaign"),
        )
        s.add(row)
        s.flush()

        new_chars: dict[int, Character] = {}
        pending_versions: list[tuple[Character, list[Any], str]] = []
        slugs: set[str] = set()
        for i, ch in enumerate(characters):
            path = f"characters[{i}]"
            sheet = check.field(ch, "sheet", "mapping", path)
            state = check.field(ch, "state", "mapping", path)
            try:
                checked = _check(row, sheet, state, f"{source}: {path}")
            except ConteurError as error:
                check.invalid(path, error)
            slug = check.field(ch, "slug", "text", path)
            if slug != checked.slug or slug in slugs:
                check.fail("store.backup.duplicate", f"{path}.slug", id=slug)
            slugs.add(slug)
            versions = check.field(ch, "versions", "list", path)
            current = check.field(ch, "version", "integer", path)
            if not versions or current != len(versions):
                check.fail(
                    "store.backup.versions", f"{path}.versions", count=len(versions), last=current
                )
            char = Character(
                campaign_id=row.id,
                slug=slug,
                name=check.field(ch, "name", "text", path),
                sheet=sheet,
                state=state,
                version=current,
                token=auth.new_token(),
                created_at=check.moment(ch, "created_at", path),
                updated_at=check.moment(ch, "updated_at", path),
            )
            s.add(char)
            new_chars[check.field(ch, "id", "integer", path)] = char
            pending_versions.append((char, versions, path))
        s.flush()

        new_encs: dict[int, EncounterRow] = {}
        entries = 0
        for i, enc in enumerate(encounters):
            path = f"encounters[{i}]"
            scenario = check.field(enc, "scenario", "mapping", path)
            status = check.field(enc, "status", "text", path)
            if status not in STATUSES:
                check.fail(
                    "store.backup.choice", f"{path}.status", value=status, known="open, closed"
                )
            if scenario.get("ruleset", ruleset) != ruleset:
                check.fail(
                    "store.backup.choice",
                    f"{path}.scenario.ruleset",
                    value=scenario.get("ruleset"),
                    known=ruleset,
                )
            closed_at = check.moment(enc, "closed_at", path, optional=True)
            log = check.field(enc, "log", "list", path)
            stored: list[dict[str, Any]] = []
            moments: list[datetime] = []
            for n, item in enumerate(log):
                where = f"{path}.log[{n}]"
                check.typed(item, "mapping", where)
                seq = check.field(item, "seq", "integer", where)
                kind = check.field(item, "kind", "text", where)
                entry = check.field(item, "entry", "mapping", where)
                if seq != n or entry.get("seq") != n:
                    check.fail("store.backup.seq", f"{where}.seq", seq=seq, expected=n)
                if kind not in KINDS or entry.get("kind") != kind:
                    check.fail(
                        "store.backup.choice", f"{where}.kind", value=kind, known="command, undo"
                    )
                stored.append(entry)
                moments.append(check.moment(item, "created_at", where))
            try:
                Encounter.replay(scenario, list[Mapping[str, Any]](stored))
            except ConteurError as error:  # a command the rules refuse now
                check.invalid(f"{path}.log", error)
            except Exception as error:  # an entry the engine cannot read or apply
                check.fail("store.backup.replay", f"{path}.log", reason=_Reason(error))
            links = check.field(enc, "characters", "mapping", path)
            erow = EncounterRow(
                campaign_id=row.id,
                name=check.field(enc, "name", "text", path),
                scenario=scenario,
                status=status,
                created_at=check.moment(enc, "created_at", path),
                closed_at=closed_at,
            )
            s.add(erow)
            s.flush()
            for combatant, old_char in links.items():
                check.typed(old_char, "integer", f"{path}.characters.{combatant}")
                if old_char not in new_chars:
                    check.fail(
                        "store.backup.unknown",
                        f"{path}.characters.{combatant}",
                        id=old_char,
                        what=Msg("store.word.character"),
                    )
                s.add(
                    EncounterCharacter(
                        encounter_id=erow.id,
                        character_id=new_chars[old_char].id,
                        combatant_id=str(combatant),
                    )
                )
            for seq, (entry, moment) in enumerate(zip(stored, moments, strict=True)):
                s.add(
                    LogRow(
                        encounter_id=erow.id,
                        seq=seq,
                        kind=entry["kind"],
                        entry=entry,
                        created_at=moment,
                    )
                )
            entries += len(stored)
            new_encs[check.field(enc, "id", "integer", path)] = erow
        s.flush()

        for char, versions, path in pending_versions:
            for n, v in enumerate(versions):
                where = f"{path}.versions[{n}]"
                check.typed(v, "mapping", where)
                number = check.field(v, "version", "integer", where)
                if number != n + 1:
                    check.fail("store.backup.seq", f"{where}.version", seq=number, expected=n + 1)
                old_enc = check.field(v, "encounter_id", "integer", where, optional=True)
                if old_enc is not None and old_enc not in new_encs:
                    check.fail(
                        "store.backup.unknown",
                        f"{where}.encounter_id",
                        id=old_enc,
                        what=Msg("store.word.encounter"),
                    )
                s.add(
                    CharacterVersion(
                        character_id=char.id,
                        version=number,
                        sheet=check.field(v, "sheet", "mapping", where),
                        state=check.field(v, "state", "mapping", where),
                        reason=check.field(v, "reason", "text", where)[:200],
                        encounter_id=new_encs[old_enc].id if old_enc is not None else None,
                        created_at=check.moment(v, "created_at", where),
                    )
                )
        s.flush()
        return Imported(
            campaign=_campaign_info(row),
            characters={old: c.id for old, c in new_chars.items()},
            encounters={old: e.id for old, e in new_encs.items()},
            entries=entries,
        )
