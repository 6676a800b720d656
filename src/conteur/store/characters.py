"""Characters: their stored values, their history of versions, and the ``Store``'s character
methods (``CharacterStore``).

A character's sheet is checked by its campaign's ruleset (``campaigns.check_sheet``) and
kept as the user wrote it; every change appends a version (``character_versions``, never
updated), with why it changed and the encounter that caused it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from conteur.i18n import ConteurError, Lang, t

from . import auth
from .base import StoreBase, from_row
from .campaigns import campaign_row, check_sheet
from .models import Campaign, Character, CharacterVersion, now
from .sheets import (
    EXPORT_FORMAT,
    CheckedCharacter,
    dump_characters,
    parse_character_file,
    parse_format,
)

# ------------------------------------------------------------------ values


@dataclass(frozen=True, kw_only=True)
class CharacterInfo:
    """A character as stored: its current sheet and carried state, and the player's token."""

    id: int
    """Its id in the store (``slug`` is its id in fights)."""
    campaign_id: int
    slug: str
    """Its id in fights (the sheet's ``id``), unique in its campaign."""
    name: str
    sheet: dict[str, Any]
    """The sheet as the user wrote it (French or English names), checked by the ruleset."""
    state: dict[str, Any]
    """What it carries from fight to fight: health, Willpower, ammunition, counters..."""
    version: int
    """The number of its current version (``character_history``), from 1."""
    token: str
    """The secret of its player's link (``/p/<token>``)."""
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, kw_only=True)
class CharacterVersionInfo:
    """One past (or the current) sheet and state of a character, and why it changed."""

    character_id: int
    version: int
    """Its number: 1 for the character as created, one more for each change."""
    reason: str
    """Why it changed: a known reason (``created``, ``encounter_closed``...) or free text."""
    encounter_id: int | None
    """The encounter whose end wrote this version, if one did."""
    created_at: datetime
    sheet: dict[str, Any]
    state: dict[str, Any]

    def describe_reason(self, lang: Lang | None = None) -> str:
        """The reason in ``lang`` (known reasons are translated, free text is kept)."""
        key = f"store.reason.{self.reason}"
        try:
            return t(key, lang)
        except KeyError:
            return self.reason


def character_info(row: Character) -> CharacterInfo:
    return from_row(CharacterInfo, row, sheet=dict(row.sheet), state=dict(row.state))


# ------------------------------------------------------------------ rows


def character_row(s: Session, character_id: int) -> Character:
    """The character's row (ConteurError ``store.character.unknown``)."""
    row = s.get(Character, character_id) if isinstance(character_id, int) else None
    if row is None:
        raise ConteurError("store.character.unknown", id=character_id)
    return row


def check_slug_free(s: Session, campaign_id: int, slug: str) -> None:
    """ConteurError ``store.character.duplicate`` when a character of the campaign has
    ``slug``."""
    taken = s.scalar(
        select(Character.id).where(Character.campaign_id == campaign_id, Character.slug == slug)
    )
    if taken is not None:
        raise ConteurError("store.character.duplicate", id=slug)


def insert_character(
    s: Session, campaign: Campaign, checked: CheckedCharacter, reason: str
) -> Character:
    """A new character of ``campaign`` (its first version, a new player token)."""
    check_slug_free(s, campaign.id, checked.slug)
    row = Character(
        campaign_id=campaign.id,
        slug=checked.slug,
        name=checked.name,
        sheet=checked.sheet,
        state=checked.state,
        version=1,
        token=auth.new_token(),
    )
    s.add(row)
    s.flush()
    append_version(s, row, reason)
    return row


def bump(s: Session, row: Character, reason: str, *, encounter_id: int | None = None) -> None:
    """The character's changed sheet or state, recorded as its next version."""
    row.version += 1
    row.updated_at = now()
    s.flush()
    append_version(s, row, reason, encounter_id)


def append_version(
    s: Session, row: Character, reason: str, encounter_id: int | None = None
) -> None:
    """The character's sheet and state as they are now, as its version ``row.version``."""
    s.add(
        CharacterVersion(
            character_id=row.id,
            version=row.version,
            sheet=row.sheet,
            state=row.state,
            reason=reason[:200],
            encounter_id=encounter_id,
        )
    )
    s.flush()


COUNTERS = ("experience", "reputation")
"""Integer counters a character carries from fight to fight (``adjust_counters``)."""


def add_counters(state: Mapping[str, Any], counters: Mapping[str, int]) -> dict[str, Any]:
    """``state`` with ``counters`` (``COUNTERS``: whole numbers) added to its own."""
    out = dict(state)
    for key, amount in counters.items():
        if key not in COUNTERS:
            raise ConteurError("store.campaign.setting", name=key, known=", ".join(COUNTERS))
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise ConteurError("store.character.counter", field=key, value=amount)
        current = out.get(key, 0)
        if isinstance(current, bool) or not isinstance(current, int):
            raise ConteurError("store.character.counter", field=key, value=current)
        out[key] = current + amount
    return out


def _export(row: Character, ruleset: str) -> dict[str, Any]:
    return {
        "format": EXPORT_FORMAT,
        "version": 1,
        "ruleset": ruleset,
        "sheet": row.sheet,
        "state": row.state,
    }


# ------------------------------------------------------------------ the store's characters


class CharacterStore(StoreBase):
    """The ``Store``'s characters: added, imported, changed, read, exported, their player
    links and their history."""

    def add_character(
        self,
        campaign_id: int,
        sheet: Mapping[str, Any],
        state: Mapping[str, Any] | None = None,
        *,
        source: str = "<sheet>",
        reason: str = "created",
    ) -> CharacterInfo:
        """A new character from a sheet (French or English names) and its current state."""
        with self._write() as s:
            campaign = campaign_row(s, campaign_id)
            checked = check_sheet(campaign, sheet, state, source)
            return character_info(insert_character(s, campaign, checked, reason))

    def import_characters(
        self, campaign_id: int, text: str, fmt: str | None = None, *, source: str = "<import>"
    ) -> list[CharacterInfo]:
        """Add every character of a YAML or JSON file; one refused character adds none."""
        kind = parse_format(fmt, source)
        items = parse_character_file(text, kind, source)
        with self._write() as s:
            campaign = campaign_row(s, campaign_id)
            checked: list[CheckedCharacter] = []
            for item in items:
                if item.ruleset is not None and item.ruleset != campaign.ruleset:
                    raise ConteurError(
                        "store.import.ruleset",
                        source=item.source,
                        found=item.ruleset,
                        expected=campaign.ruleset,
                    )
                checked.append(check_sheet(campaign, item.sheet, item.state, item.source))
            seen: set[str] = set()
            for c in checked:
                if c.slug in seen:
                    raise ConteurError("store.character.duplicate", id=c.slug)
                seen.add(c.slug)
            rows = [insert_character(s, campaign, c, "imported") for c in checked]
            return [character_info(r) for r in rows]

    def update_character(
        self,
        character_id: int,
        *,
        sheet: Mapping[str, Any] | None = None,
        state: Mapping[str, Any] | None = None,
        reason: str = "edited",
        source: str | None = None,
    ) -> CharacterInfo:
        """Replace a character's sheet and/or state (checked), recording a new version.

        ``source`` names the character in error messages (default: its name).
        """
        with self._write() as s:
            row = character_row(s, character_id)
            campaign = campaign_row(s, row.campaign_id)
            checked = check_sheet(
                campaign,
                sheet if sheet is not None else row.sheet,
                state if state is not None else row.state,
                source or row.name,
            )
            if checked.slug != row.slug:
                check_slug_free(s, row.campaign_id, checked.slug)
            row.slug, row.name = checked.slug, checked.name
            row.sheet, row.state = checked.sheet, checked.state
            bump(s, row, reason)
            return character_info(row)

    def adjust_counters(
        self, character_id: int, counters: Mapping[str, int], *, reason: str = "edited"
    ) -> CharacterInfo:
        """Add to a character's counters (``experience``, ``reputation``), as a new version."""
        with self._write() as s:
            row = character_row(s, character_id)
            row.state = add_counters(row.state, counters)
            bump(s, row, reason)
            return character_info(row)

    def get_character(self, character_id: int) -> CharacterInfo:
        """One character (ConteurError ``store.character.unknown``)."""
        with self._read() as s:
            return character_info(character_row(s, character_id))

    def list_characters(self, campaign_id: int) -> list[CharacterInfo]:
        """The characters of a campaign, by name."""
        with self._read() as s:
            campaign_row(s, campaign_id)
            mine = select(Character).where(Character.campaign_id == campaign_id)
            rows = s.scalars(mine.order_by(Character.name, Character.id))
            return [character_info(r) for r in rows]

    def character_by_token(self, token: str) -> CharacterInfo | None:
        """The character whose player link carries ``token`` (None for an unknown token)."""
        if not token or len(token) > 100:
            return None
        with self._read() as s:
            row = s.scalar(select(Character).where(Character.token == token))
            return character_info(row) if row is not None else None

    def new_player_token(self, character_id: int) -> str:
        """Give a character a fresh player token (the old link stops working)."""
        with self._write() as s:
            row = character_row(s, character_id)
            row.token = auth.new_token()
            row.updated_at = now()
            return row.token

    def character_history(self, character_id: int) -> list[CharacterVersionInfo]:
        """Every version of a character, oldest first."""
        with self._read() as s:
            character_row(s, character_id)
            rows = s.scalars(
                select(CharacterVersion)
                .where(CharacterVersion.character_id == character_id)
                .order_by(CharacterVersion.version)
            )
            return [from_row(CharacterVersionInfo, r) for r in rows]

    def export_character(self, character_id: int, fmt: str = "yaml") -> str:
        """One character as a YAML or JSON file that ``import_characters`` reads back."""
        kind = parse_format(fmt)
        with self._read() as s:
            row = character_row(s, character_id)
            campaign = campaign_row(s, row.campaign_id)
            return dump_characters([_export(row, campaign.ruleset)], kind)

    def export_characters(self, campaign_id: int, fmt: str = "yaml") -> str:
        """Every character of a campaign as one YAML or JSON file."""
        kind = parse_format(fmt)
        with self._read() as s:
            campaign = campaign_row(s, campaign_id)
            rows = s.scalars(
                select(Character).where(Character.campaign_id == campaign_id).order_by(Character.id)
            )
            items = [_export(r, campaign.ruleset) for r in rows]
            return dump_characters(items, kind)
