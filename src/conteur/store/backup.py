"""A whole campaign as one JSON file, and back: ``conteur db export`` / ``conteur db import``.

The file (``format: conteur.campaign``, ``version: 1``) holds the campaign with its
settings; its characters with their current sheet and state and every version they
had (sheet, state, why, the encounter that closed it, when); its encounters with their
scenario, status, which character played which combatant, and their whole log (every
command with its events, every undo, when). Ids are the exporting database's: they
only tie the parts of the file together.

Importing makes a new campaign in the target database (SQLite or PostgreSQL), in one
transaction: everything, or nothing and an error naming the file, the entry and the field
(« partie.json : personnage n° 2 (cid) : champ « versions[1].state » : … »), in French or
English; the file is read and checked whole first (``conteur.store.backup_file``), so an
unknown key is refused with the nearest valid one. New ids are given, the
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
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from sqlalchemy import select

from conteur.engine.visibility import Privacy

from . import auth, campaigns
from .backup_file import (
    FORMAT,
    VERSION,
    CampaignItem,
    CharacterItem,
    CheckedBackup,
    EncounterItem,
    LogItem,
    VersionItem,
    parse,
    read_backup,
)
from .models import Campaign, Character, CharacterVersion, EncounterCharacter, EncounterRow, LogRow

if TYPE_CHECKING:
    from .service import Store


@dataclass(frozen=True)
class Imported:
    """What an import made: the new campaign, and the new id of each old one."""

    campaign: campaigns.CampaignInfo
    characters: dict[int, int]
    encounters: dict[int, int]
    entries: int


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(UTC).isoformat()


# ------------------------------------------------------------------ export


def export_campaign(store: Store, campaign_id: int) -> dict[str, Any]:
    """The campaign ``campaign_id`` and everything of it, as JSON-ready data."""
    with store._read() as s:
        c = campaigns.campaign_row(s, campaign_id)
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

        return {
            "format": FORMAT,
            "version": VERSION,
            "exported_at": _iso(datetime.now(UTC)),
            "conteur": __version__,
            "campaign": _fields(
                c,
                CampaignItem,
                packs=list(c.packs),
                options=dict(c.options),
                settings={
                    k: v for k, v in c.settings.items() if k not in campaigns.SECRET_SETTINGS
                },
                privacy=Privacy.from_dict(c.privacy or {}).to_dict(),
            ),
            "characters": [
                _fields(
                    ch, CharacterItem, versions=[_fields(v, VersionItem) for v in versions[ch.id]]
                )
                for ch in chars
            ],
            "encounters": [
                _fields(
                    e,
                    EncounterItem,
                    characters=links[e.id],
                    log=[_fields(r, LogItem) for r in logs[e.id]],
                )
                for e in encounters
            ],
        }


def _fields(row: object, part: type[BaseModel], **given: Any) -> dict[str, Any]:
    """What the file's ``part`` holds of a row: its columns of the same names (dates in ISO
    form), or the values ``given``."""
    out: dict[str, Any] = {}
    for name in part.model_fields:
        value = given[name] if name in given else getattr(row, name)
        out[name] = _iso(value) if isinstance(value, datetime) else value
    return out


def dump(data: Mapping[str, Any]) -> str:
    """The backup as the text of its file."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


# ------------------------------------------------------------------ import


def import_campaign(store: Store, data: Any, source: str) -> Imported:
    """A new campaign from a backup's data (see the module's text), or from a backup
    already read (``read_backup``); one transaction, written only once the whole file has
    been read and checked."""
    backup = data if isinstance(data, CheckedBackup) else read_backup(data, source)
    camp = backup.campaign
    with store._write() as s:
        row = Campaign(
            packs=backup.packs,
            options=backup.options,
            settings=backup.settings,
            privacy=backup.privacy,
            **camp.model_dump(include={"name", "ruleset", "era", "created_at", "updated_at"}),
        )
        s.add(row)
        s.flush()
        new_chars: dict[int, Character] = {}
        for ch in backup.characters:
            fields = ch.model_dump(exclude={"id", "versions"})  # the dates kept, a new token
            new_chars[ch.id] = Character(campaign_id=row.id, token=auth.new_token(), **fields)
            s.add(new_chars[ch.id])
        s.flush()
        new_encs: dict[int, EncounterRow] = {}
        entries = 0
        for enc in backup.encounters:
            fields = enc.model_dump(exclude={"id", "characters", "log"})
            erow = EncounterRow(campaign_id=row.id, **fields)
            s.add(erow)
            s.flush()
            for combatant, old in enc.characters.items():
                s.add(
                    EncounterCharacter(
                        encounter_id=erow.id,
                        character_id=new_chars[old].id,
                        combatant_id=combatant,
                    )
                )
            for item in enc.log:
                s.add(LogRow(encounter_id=erow.id, **item.model_dump()))
            entries += len(enc.log)
            new_encs[enc.id] = erow
        s.flush()
        for ch in backup.characters:
            for v in ch.versions:
                made_by = None if v.encounter_id is None else new_encs[v.encounter_id].id
                fields = v.model_dump(include={"version", "sheet", "state", "created_at"})
                s.add(
                    CharacterVersion(
                        character_id=new_chars[ch.id].id,
                        reason=v.reason[:200],
                        encounter_id=made_by,
                        **fields,
                    )
                )
        s.flush()
        return Imported(
            campaign=campaigns.campaign_info(row),
            characters={old: c.id for old, c in new_chars.items()},
            encounters={old: e.id for old, e in new_encs.items()},
            entries=entries,
        )


__all__ = [
    "FORMAT",
    "VERSION",
    "CheckedBackup",
    "Imported",
    "dump",
    "export_campaign",
    "import_campaign",
    "parse",
    "read_backup",
]
