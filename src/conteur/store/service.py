"""The store's API: campaigns, characters, encounters and their log, the game master's secret.

Everything the web app (or the CLI, or a script) persists goes through a
``Store``. Its methods take and return plain values (``CampaignInfo``,
``CharacterInfo``, ``EncounterInfo``, engine log entries and events), never ORM
objects, and each method is one transaction: it is stored whole or not at all,
and a refused input (``ConteurError``, in French or English, naming the field)
changes nothing.

Encounters are their log. ``run_command`` loads the encounter (the live
``Encounter`` is cached per store with the seq of its last entry, and replayed
again from the database when another process wrote newer rows), executes the
command and appends its entry in the same transaction. Two writers racing on
one encounter cannot both store the same ``seq``: the unique
``(encounter_id, seq)`` constraint refuses the second, which reloads and tries
again (on SQLite, writers queue on ``BEGIN IMMEDIATE`` instead). The log is
never updated or deleted from: undo appends a row, and the database refuses
UPDATE and DELETE on it.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Engine, delete, func, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, defer

from conteur.dice import DiceSource, TypedDice
from conteur.engine import (
    Command,
    CommandEntry,
    Encounter,
    EventList,
    UndoEntry,
    entry_from_dict,
)
from conteur.engine.battlemap import formation
from conteur.engine.encounter import LogEntry
from conteur.engine.joining import JOIN
from conteur.engine.visibility import Privacy
from conteur.i18n import ConteurError, Lang, t

from . import auth, backup, changes
from .campaigns import (
    SETTINGS,
    CampaignInfo,
    campaign_info,
    campaign_row,
    check_rules,
    check_settings,
    check_sheet,
)
from .db import WRITE_OPTION, display_url
from .models import (
    Campaign,
    Character,
    CharacterVersion,
    EncounterCharacter,
    EncounterRow,
    GmSecret,
    GmSession,
    LogRow,
    PendingAction,
    ServerKey,
    now,
)
from .sheets import (
    CAMPAIGN_ONLY,
    EXPORT_FORMAT,
    CheckedCharacter,
    dump_characters,
    json_ready,
    parse_character_file,
    parse_format,
    scenario_state,
)

if TYPE_CHECKING:
    from .backup import Imported

COUNTERS = ("experience", "reputation")
"""Integer counters a character carries from fight to fight (``adjust_counters``)."""

SCENARIO_KEYS = frozenset({"ruleset", "era", "packs", "options", "combatants"})
"""Scenario keys set by the campaign and the characters, not by ``start_encounter(extra=...)``."""

MAX_ATTEMPTS = 20
"""Tries of one command when other writers keep winning the race for the next seq."""

TOKENS_RECOGNISED = 2
"""The latest game master's tokens a login recognises: the current one, and the one it
replaced (its link, met again, gets « already used » rather than « wrong »)."""
SEEN_EVERY = 60.0
"""Seconds between two notes of when a session was last seen."""
"""Tries of one command when other writers keep winning the race for the next seq."""


# ------------------------------------------------------------------ values


@dataclass(frozen=True)
class GmSessionInfo:
    """A game master's open session, as the settings page lists it."""

    id: int
    agent: str
    address: str
    created_at: datetime
    seen_at: datetime


@dataclass(frozen=True)
class CharacterInfo:
    """A character as stored: its current sheet and carried state, and the player's token."""

    id: int
    campaign_id: int
    slug: str
    name: str
    sheet: dict[str, Any]
    state: dict[str, Any]
    version: int
    token: str
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class CharacterVersionInfo:
    """One past (or the current) sheet and state of a character, and why it changed."""

    character_id: int
    version: int
    sheet: dict[str, Any]
    state: dict[str, Any]
    reason: str
    encounter_id: int | None
    created_at: datetime

    def describe_reason(self, lang: Lang | None = None) -> str:
        """The reason in ``lang`` (known reasons are translated, free text is kept)."""
        key = f"store.reason.{self.reason}"
        try:
            return t(key, lang)
        except KeyError:
            return self.reason


@dataclass(frozen=True)
class EncounterInfo:
    """An encounter as stored: scenario, status, which character plays which combatant."""

    id: int
    campaign_id: int
    name: str
    scenario: dict[str, Any]
    status: str
    created_at: datetime
    closed_at: datetime | None
    characters: dict[str, int]
    """Combatant id → character id (NPCs given inline are not listed)."""


@dataclass(frozen=True)
class Participant:
    """A character joining an encounter: on which side, where, and anything else it starts with.

    ``extra`` holds other scenario keys of the combatant (``cover``, ``weapon``
    in hand, ``conditions``...); ``combatant_id`` defaults to the character's id.
    """

    character_id: int
    side: str | None = None
    position: Sequence[float] | None = None
    combatant_id: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


T = TypeVar("T")


@dataclass(frozen=True)
class PendingInfo:
    """An action waiting for the table's dice (see ``Store.begin_pending``)."""

    encounter_id: int
    command: Command
    rolls: tuple[tuple[int, ...], ...]
    """The faces entered so far, one tuple per roll in the rules' order."""
    base_seq: int
    step: int
    stale: bool
    """Another command landed after it began: it can only be dropped."""


@dataclass
class _Live:
    encounter: Encounter
    last_seq: int


# ------------------------------------------------------------------ the store


class Store:
    """Campaigns, characters and encounters in one database (see ``open_store``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._live: dict[int, _Live] = {}
        self._lock = threading.RLock()
        self.origin = secrets.token_hex(8)
        """This store's id in the notifications it sends other processes (``changes``)."""

    @property
    def url(self) -> str:
        """The database URL, password hidden."""
        return display_url(self.engine.url)

    def close(self) -> None:
        """Close every connection (the store can still be used; it reconnects)."""
        self._live.clear()
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -------------------------------------------------------------- transactions

    @contextmanager
    def _read(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    @contextmanager
    def _write(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            session.connection(execution_options={WRITE_OPTION: True})
            yield session

    # -------------------------------------------------------------- campaigns

    def create_campaign(
        self,
        name: str,
        ruleset: str,
        *,
        packs: Sequence[str] = (),
        options: Mapping[str, Any] | None = None,
        era: str | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> CampaignInfo:
        """A new campaign; its ruleset, packs, options and era are checked by the ruleset."""
        name = _name(name, "store.campaign.name")
        packs_list, options_dict = check_rules(ruleset, era, packs, options or {})
        chosen = check_settings({}, settings or {})
        with self._write() as s:
            row = Campaign(
                name=name,
                ruleset=ruleset,
                packs=packs_list,
                options=options_dict,
                era=era,
                settings=chosen,
            )
            s.add(row)
            s.flush()
            return campaign_info(row)

    def update_campaign(
        self,
        campaign_id: int,
        *,
        name: str | None = None,
        packs: Sequence[str] | None = None,
        options: Mapping[str, Any] | None = None,
        era: str | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> CampaignInfo:
        """Change a campaign's name, packs, options, era or some settings (others kept)."""
        with self._write() as s:
            row = campaign_row(s, campaign_id)
            new_packs, new_options = check_rules(
                row.ruleset,
                era if era is not None else row.era,
                packs if packs is not None else row.packs,
                options if options is not None else row.options,
            )
            if name is not None:
                row.name = _name(name, "store.campaign.name")
            row.packs, row.options = new_packs, new_options
            if era is not None:
                row.era = era
            if settings is not None:
                row.settings = check_settings(row.settings, settings)
            row.updated_at = now()
            s.flush()
            changes.announce(s, changes.CAMPAIGN, row.id, self.origin)
            return campaign_info(row)

    def set_privacy(self, campaign_id: int, privacy: Mapping[str, Any]) -> CampaignInfo:
        """Choose what the campaign's players see (``Privacy``: the choices named, the others
        kept). ConteurError naming the field, nothing changed, for a bad choice."""
        with self._write() as s:
            row = campaign_row(s, campaign_id)
            chosen = Privacy.from_dict({**(row.privacy or {}), **privacy})
            row.privacy = chosen.to_dict()
            row.updated_at = now()
            s.flush()
            changes.announce(s, changes.CAMPAIGN, row.id, self.origin)
            return campaign_info(row)

    def get_campaign(self, campaign_id: int) -> CampaignInfo:
        """One campaign (ConteurError ``store.campaign.unknown``)."""
        with self._read() as s:
            return campaign_info(campaign_row(s, campaign_id))

    def table_token(self, campaign_id: int) -> str:
        """The secret of the campaign's table screen (``/t/<token>``), made on first use."""
        token = str(self.get_campaign(campaign_id).settings.get("table_token") or "")
        return token or self.new_table_token(campaign_id)

    def new_table_token(self, campaign_id: int) -> str:
        """A fresh table-screen token for the campaign (the old link stops working)."""
        token = auth.new_token()
        self.update_campaign(campaign_id, settings={"table_token": token})
        return token

    def campaign_by_table_token(self, token: str) -> CampaignInfo | None:
        """The campaign whose table screen carries ``token`` (None for an unknown one)."""
        if not token or len(token) > 100:
            return None
        for campaign in self.list_campaigns():
            known = str(campaign.settings.get("table_token") or "")
            if known and hmac.compare_digest(known.encode(), token.encode()):
                return campaign
        return None

    def list_campaigns(self) -> list[CampaignInfo]:
        """Every campaign, the most recently changed first."""
        with self._read() as s:
            rows = s.scalars(select(Campaign).order_by(Campaign.updated_at.desc(), Campaign.id))
            return [campaign_info(r) for r in rows]

    # -------------------------------------------------------------- characters

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
            return _character_info(self._insert_character(s, campaign, checked, reason))

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
            rows = [self._insert_character(s, campaign, c, "imported") for c in checked]
            return [_character_info(r) for r in rows]

    def _insert_character(
        self, s: Session, campaign: Campaign, checked: CheckedCharacter, reason: str
    ) -> Character:
        taken = s.scalar(
            select(Character.id).where(
                Character.campaign_id == campaign.id, Character.slug == checked.slug
            )
        )
        if taken is not None:
            raise ConteurError("store.character.duplicate", id=checked.slug)
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
        _append_version(s, row, reason)
        return row

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
            row = _character(s, character_id)
            campaign = campaign_row(s, row.campaign_id)
            checked = check_sheet(
                campaign,
                sheet if sheet is not None else row.sheet,
                state if state is not None else row.state,
                source or row.name,
            )
            if checked.slug != row.slug:
                taken = s.scalar(
                    select(Character.id).where(
                        Character.campaign_id == row.campaign_id, Character.slug == checked.slug
                    )
                )
                if taken is not None:
                    raise ConteurError("store.character.duplicate", id=checked.slug)
            row.slug, row.name = checked.slug, checked.name
            row.sheet, row.state = checked.sheet, checked.state
            _bump(s, row, reason)
            return _character_info(row)

    def adjust_counters(
        self, character_id: int, counters: Mapping[str, int], *, reason: str = "edited"
    ) -> CharacterInfo:
        """Add to a character's counters (``experience``, ``reputation``), as a new version."""
        with self._write() as s:
            row = _character(s, character_id)
            row.state = _add_counters(row.state, counters)
            _bump(s, row, reason)
            return _character_info(row)

    def get_character(self, character_id: int) -> CharacterInfo:
        """One character (ConteurError ``store.character.unknown``)."""
        with self._read() as s:
            return _character_info(_character(s, character_id))

    def list_characters(self, campaign_id: int) -> list[CharacterInfo]:
        """The characters of a campaign, by name."""
        with self._read() as s:
            campaign_row(s, campaign_id)
            rows = s.scalars(
                select(Character)
                .where(Character.campaign_id == campaign_id)
                .order_by(Character.name, Character.id)
            )
            return [_character_info(r) for r in rows]

    def character_by_token(self, token: str) -> CharacterInfo | None:
        """The character whose player link carries ``token`` (None for an unknown token)."""
        if not token or len(token) > 100:
            return None
        with self._read() as s:
            row = s.scalar(select(Character).where(Character.token == token))
            return _character_info(row) if row is not None else None

    def new_player_token(self, character_id: int) -> str:
        """Give a character a fresh player token (the old link stops working)."""
        with self._write() as s:
            row = _character(s, character_id)
            row.token = auth.new_token()
            row.updated_at = now()
            return row.token

    def character_history(self, character_id: int) -> list[CharacterVersionInfo]:
        """Every version of a character, oldest first."""
        with self._read() as s:
            _character(s, character_id)
            rows = s.scalars(
                select(CharacterVersion)
                .where(CharacterVersion.character_id == character_id)
                .order_by(CharacterVersion.version)
            )
            return [
                CharacterVersionInfo(
                    r.character_id,
                    r.version,
                    r.sheet,
                    r.state,
                    r.reason,
                    r.encounter_id,
                    r.created_at,
                )
                for r in rows
            ]

    def export_character(self, character_id: int, fmt: str = "yaml") -> str:
        """One character as a YAML or JSON file that ``import_characters`` reads back."""
        kind = parse_format(fmt)
        with self._read() as s:
            row = _character(s, character_id)
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

    # -------------------------------------------------------------- backups

    def export_campaign(self, campaign_id: int) -> dict[str, Any]:
        """The whole campaign as one JSON-ready backup (``conteur.store.backup``)."""
        return backup.export_campaign(self, campaign_id)

    def import_campaign(self, data: Any, source: str = "<backup>") -> Imported:
        """A new campaign from a backup (new ids, new player tokens), in one transaction."""
        return backup.import_campaign(self, data, source)

    # -------------------------------------------------------------- encounters

    def start_encounter(
        self,
        campaign_id: int,
        name: str,
        participants: Sequence[Participant],
        *,
        npcs: Sequence[Mapping[str, Any]] = (),
        extra: Mapping[str, Any] | None = None,
    ) -> EncounterInfo:
        """A new encounter of a campaign's characters, each starting from its carried state.

        ``npcs`` are extra combatants given inline (scenario entries with a
        ``sheet``), not written back at the end; ``extra`` holds other scenario
        keys (``darkness``...). The scenario is checked by starting it.
        """
        name = _name(name, "store.encounter.name")
        if not participants and not npcs:
            raise ConteurError("store.encounter.no_participant")
        extra_data = json_ready(dict(extra or {}), "extra")
        for key in extra_data:
            if key in SCENARIO_KEYS:
                raise ConteurError("store.encounter.extra_key", field=key)
        with self._write() as s:
            campaign = campaign_row(s, campaign_id)
            combatants: list[dict[str, Any]] = []
            links: dict[str, int] = {}
            for p in participants:
                char = _character(s, p.character_id)
                if char.campaign_id != campaign.id:
                    raise ConteurError("store.character.other_campaign", name=char.name)
                if char.id in links.values():
                    raise ConteurError("store.encounter.twice", name=char.name)
                cid = p.combatant_id or char.slug
                combatants.append(_character_entry(campaign, char, p, cid))
                links[cid] = char.id
            combatants.extend(json_ready(dict(n), "npcs") for n in npcs)
            scenario: dict[str, Any] = {
                "ruleset": campaign.ruleset,
                "packs": list(campaign.packs),
                "options": dict(campaign.options),
                **extra_data,
                "combatants": combatants,
            }
            if campaign.era:
                scenario["era"] = campaign.era
            started = Encounter.start(scenario)  # every refusal, before anything is stored
            if started.ruleset.positions(started.state) and _in_formation(combatants):
                Encounter.start(scenario)  # the formation's places, checked as any others
            row = EncounterRow(campaign_id=campaign.id, name=name, scenario=scenario, status="open")
            s.add(row)
            s.flush()
            for cid, char_id in links.items():
                s.add(
                    EncounterCharacter(encounter_id=row.id, character_id=char_id, combatant_id=cid)
                )
            s.flush()
            return _encounter_info(row, links)

    def get_encounter(self, encounter_id: int) -> EncounterInfo:
        """One encounter (ConteurError ``store.encounter.unknown``)."""
        with self._read() as s:
            row = _encounter(s, encounter_id)
            return _encounter_info(row, _links(s, row.id))

    def list_encounters(self, campaign_id: int, status: str | None = None) -> list[EncounterInfo]:
        """A campaign's encounters (only ``open`` or ``closed`` ones when asked), newest first."""
        with self._read() as s:
            campaign_row(s, campaign_id)
            query = select(EncounterRow).where(EncounterRow.campaign_id == campaign_id)
            if status is not None:
                query = query.where(EncounterRow.status == status)
            rows = s.scalars(query.order_by(EncounterRow.id.desc())).all()
            return [_encounter_info(r, _links(s, r.id)) for r in rows]

    def encounter(self, encounter_id: int) -> Encounter:
        """The live encounter, up to date with the database (read it; change it only by this store).

        Its state changes in place while a command runs: read it with ``read_encounter``
        (under the store's lock) when other threads may be running commands.

        The same object is kept between calls while no other writer adds rows:
        then one query (the last seq) is all it costs.
        """
        with self._lock:
            live = self._live.get(encounter_id)
            if live is not None:
                with self.engine.connect() as conn:  # one plain query, no ORM session
                    last = conn.scalar(_LAST_SEQ.where(LogRow.encounter_id == encounter_id))
                if live.last_seq == (-1 if last is None else int(last)):
                    return live.encounter
            return self._replayed(encounter_id)

    def _replayed(self, encounter_id: int) -> Encounter:
        with self._read() as s:
            row = _encounter(s, encounter_id, scenario=False)  # read only if replayed
            return self._load(s, row).encounter

    def read_encounter(self, encounter_id: int, read: Callable[[Encounter], T]) -> T:
        """``read(encounter)`` on the live, up-to-date encounter while no command of this
        store changes it (the views of a page are built from one consistent state)."""
        with self._lock:
            return read(self.encounter(encounter_id))

    def last_seq(self, encounter_id: int) -> int:
        """The seq of the encounter's last log entry (-1 for an empty log)."""
        with self._read() as s:
            _encounter(s, encounter_id)
            return _last_seq(s, encounter_id)

    def events_since(self, encounter_id: int, seq: int = -1) -> list[LogEntry]:
        """The log entries after ``seq``, in order (all of them for -1): what a live view missed."""
        with self._read() as s:
            _encounter(s, encounter_id)
            rows = s.scalars(
                select(LogRow.entry)
                .where(LogRow.encounter_id == encounter_id, LogRow.seq > seq)
                .order_by(LogRow.seq)
            )
            return [entry_from_dict(e) for e in rows]

    def log(self, encounter_id: int) -> list[dict[str, Any]]:
        """The whole stored log, as JSON-ready dicts (``CommandEntry.to_dict`` forms)."""
        with self._read() as s:
            _encounter(s, encounter_id)
            rows = s.scalars(
                select(LogRow.entry).where(LogRow.encounter_id == encounter_id).order_by(LogRow.seq)
            )
            return list(rows)

    def run_command(
        self,
        encounter_id: int,
        command: Command,
        dice: DiceSource,
        *,
        all_dice_used: bool = False,
    ) -> EventList:
        """Execute ``command`` and store it, in one transaction; its events (see ``execute``)."""
        entry = self.execute(encounter_id, command, dice, all_dice_used=all_dice_used)
        return EventList(entry.events)

    def execute(
        self,
        encounter_id: int,
        command: Command,
        dice: DiceSource,
        *,
        all_dice_used: bool = False,
    ) -> CommandEntry:
        """Execute ``command`` and store it, in one transaction; the stored entry (seq, events).

        A refused command (ConteurError: illegal, dice running short) stores
        nothing and consumes no dice. With ``all_dice_used``, typed-in faces the
        command did not use refuse it too (``dice.left_over``). When another
        writer stored the next entry first, the encounter is reloaded and the
        command tried again (with the same dice).
        """
        try:
            json.dumps(command.to_dict())
        except (TypeError, ValueError) as exc:
            raise ConteurError(
                "store.command.not_json", command=command.type, reason=str(exc)
            ) from None
        mark = dice.mark()

        def step(encounter: Encounter) -> None:
            encounter.execute(command, dice)
            check = getattr(dice, "check_all_used", None)
            if all_dice_used and callable(check):
                check()

        try:
            entry = self._append(encounter_id, step, lambda: dice.reset(mark))
        except BaseException:
            dice.reset(mark)
            raise
        assert isinstance(entry, CommandEntry)
        return entry

    # -------------------------------------------------------------- pending actions

    def pending(self, encounter_id: int) -> PendingInfo | None:
        """The action waiting for the table's dice in that encounter, if any."""
        with self._read() as s:
            _encounter(s, encounter_id, scenario=False)
            row = s.scalar(select(PendingAction).where(PendingAction.encounter_id == encounter_id))
            if row is None:
                return None
            return _pending_info(row, _last_seq(s, encounter_id))

    def begin_pending(self, encounter_id: int, command: Command) -> PendingInfo:
        """Keep ``command`` waiting for the table's dice (a stale one is replaced;
        ConteurError ``store.pending.exists`` while another one is under way)."""
        data = command.to_dict()
        json.dumps(data)
        with self._lock, self._write() as s:
            row = _encounter(s, encounter_id, lock="update", scenario=False)
            if row.status != "open":
                raise ConteurError("store.encounter.closed", name=row.name)
            last = _last_seq(s, encounter_id)
            old = s.scalar(select(PendingAction).where(PendingAction.encounter_id == encounter_id))
            if old is not None:
                if old.base_seq == last:
                    raise ConteurError("store.pending.exists")
                s.execute(delete(PendingAction).where(PendingAction.id == old.id))
                s.flush()
            new = PendingAction(encounter_id=encounter_id, command=data, rolls=[], base_seq=last)
            s.add(new)
            s.flush()
            return _pending_info(new, last)

    def update_pending(
        self, encounter_id: int, rolls: Sequence[Sequence[int]], *, step: int
    ) -> PendingInfo:
        """Store the faces entered so far; ``step`` is the one the page showed (an older one:
        ConteurError ``store.pending.moved``, nothing changed)."""
        with self._lock, self._write() as s:
            _encounter(s, encounter_id, lock="update", scenario=False)
            row = _pending_row(s, encounter_id, step)
            row.rolls = [list(r) for r in rolls]
            row.step = step + 1
            row.updated_at = now()
            s.flush()
            return _pending_info(row, _last_seq(s, encounter_id))

    def drop_pending(self, encounter_id: int) -> bool:
        """Forget the waiting action (cancelled, or stale); whether there was one."""
        with self._lock, self._write() as s:
            _encounter(s, encounter_id, lock="update", scenario=False)
            row = s.scalar(select(PendingAction).where(PendingAction.encounter_id == encounter_id))
            if row is None:
                return False
            s.execute(delete(PendingAction).where(PendingAction.id == row.id))
            return True

    def commit_pending(self, encounter_id: int, dice: DiceSource, *, step: int) -> CommandEntry:
        """Execute the waiting action with ``dice`` and delete it, in one transaction.

        ConteurError ``store.pending.stale`` when another command landed since it began,
        ``store.pending.moved`` when ``step`` is not the stored one."""
        found: list[Command] = []

        def step_fn(encounter: Encounter, s: Session) -> None:
            row = _pending_row(s, encounter_id, step)
            if row.base_seq != len(encounter.log) - 1:
                raise ConteurError("store.pending.stale")
            command = Command.from_dict(dict(row.command))
            found.append(command)
            s.execute(delete(PendingAction).where(PendingAction.id == row.id))
            encounter.execute(command, dice)

        mark = dice.mark()
        try:
            entry = self._append(encounter_id, lambda e: None, lambda: dice.reset(mark), step_fn)
        except BaseException:
            dice.reset(mark)
            raise
        assert isinstance(entry, CommandEntry)
        return entry

    def undo(self, encounter_id: int, *, seen: int | None = None) -> UndoEntry:
        """Retract the last command in force by appending an undo entry; that entry.

        ``entry.undoes`` is the seq of the retracted command. ConteurError
        ``engine.nothing_to_undo`` when no command is left. With ``seen`` (the last
        seq the caller showed), ConteurError ``store.encounter.moved`` and nothing
        undone when the log has moved on since (another tab, another writer): the
        check and the undo happen under the same lock and transaction.
        """

        def step(encounter: Encounter) -> None:
            if seen is not None and len(encounter.log) - 1 != seen:
                raise ConteurError("store.encounter.moved", seen=seen, last=len(encounter.log) - 1)
            encounter.undo()

        entry = self._append(encounter_id, step, lambda: None)
        assert isinstance(entry, UndoEntry)
        return entry

    def redo(self, encounter_id: int, *, seen: int | None = None) -> CommandEntry:
        """Put the last command undone back in force with its very events (the same dice);
        the new entry (``entry.redoes`` names the one redone). ConteurError from
        ``Encounter.redo``; with ``seen``, ``store.encounter.moved_redo`` and nothing redone
        when the log has moved on since the page was shown (as ``undo``)."""

        def step(encounter: Encounter) -> None:
            if seen is not None and len(encounter.log) - 1 != seen:
                raise ConteurError(
                    "store.encounter.moved_redo", seen=seen, last=len(encounter.log) - 1
                )
            encounter.redo()

        entry = self._append(encounter_id, step, lambda: None)
        assert isinstance(entry, CommandEntry)
        return entry

    def add_combatant(
        self,
        encounter_id: int,
        *,
        participant: Participant | None = None,
        npc: Mapping[str, Any] | None = None,
    ) -> CommandEntry:
        """Bring a combatant into the fight under way: a campaign character (``participant``,
        written back at the end like the others) or an NPC's scenario entry (``npc``). Its id
        is made unique among the combatants; the ruleset decides where it enters the order
        (``Ruleset.join_rule``; ConteurError ``engine.join.closed`` when nobody may join).
        One command of the log (``join``): undone like any other."""
        if (participant is None) == (npc is None):
            raise ConteurError("engine.join.no_entry")

        def step_fn(encounter: Encounter, s: Session) -> None:
            if encounter.ruleset.join_rule(encounter.state) is None:
                raise ConteurError("engine.join.closed")
            taken = encounter.ruleset.names(encounter.state)
            char_id: int | None = None
            if participant is not None:
                row = _encounter(s, encounter_id, scenario=False)
                campaign = campaign_row(s, row.campaign_id)
                char = _character(s, participant.character_id)
                if char.campaign_id != campaign.id:
                    raise ConteurError("store.character.other_campaign", name=char.name)
                links = _links(s, encounter_id)
                mine = [cid for cid, linked in links.items() if linked == char.id]
                if any(cid in taken for cid in mine):
                    raise ConteurError("store.encounter.twice", name=char.name)
                if mine:  # back after its joining was undone: the same combatant, linked
                    cid = mine[0]
                else:
                    wanted = participant.combatant_id or char.slug
                    cid = _free_id(wanted, {**taken, **links})
                    char_id = char.id
                entry = _character_entry(campaign, char, participant, cid)
            else:
                entry = json_ready(dict(npc or {}), "npc")
                entry["id"] = _free_id(str(entry.get("id") or "npc"), taken)
            args: dict[str, Any] = {"combatant": entry}
            if participant is not None:  # a redo after an undo links it again (_sync_links)
                args["character"] = participant.character_id
            encounter.execute(Command(JOIN, None, args), TypedDice(""))
            if char_id is not None:
                s.add(
                    EncounterCharacter(
                        encounter_id=encounter_id, character_id=char_id, combatant_id=entry["id"]
                    )
                )

        entry = self._append(encounter_id, lambda e: None, lambda: None, step_fn)
        assert isinstance(entry, CommandEntry)
        return entry

    def _append(
        self,
        encounter_id: int,
        step: Callable[[Encounter], None],
        before_retry: Callable[[], None],
        with_session: Callable[[Encounter, Session], None] | None = None,
    ) -> LogEntry:
        """Run ``step`` on the live encounter and store the entry it appended, retrying races."""
        with self._lock:
            for attempt in range(MAX_ATTEMPTS):
                live: _Live | None = None
                length = 0
                try:
                    with self._write() as s:
                        row = _encounter(s, encounter_id, lock="share", scenario=False)
                        if row.status != "open":
                            raise ConteurError("store.encounter.closed", name=row.name)
                        live = self._load(s, row)
                        length = len(live.encounter.log)
                        if with_session is not None:
                            with_session(live.encounter, s)
                        else:
                            step(live.encounter)
                        entry = live.encounter.log[-1]
                        _sync_links(s, encounter_id, live.encounter, entry)
                        data = entry.to_dict()
                        s.add(
                            LogRow(
                                encounter_id=encounter_id,
                                seq=entry.seq,
                                kind=data["kind"],
                                entry=data,
                            )
                        )
                        changes.announce(s, changes.ENCOUNTER, encounter_id, self.origin)
                    live.last_seq = entry.seq
                    return entry
                except (IntegrityError, OperationalError) as exc:
                    self._live.pop(encounter_id, None)
                    if isinstance(exc, OperationalError) and not _is_busy(exc):
                        raise
                    before_retry()
                    time.sleep(min(0.001 * 2**attempt, 0.05))
                except BaseException:
                    # The live encounter moved on but nothing was stored: forget it.
                    if live is not None and len(live.encounter.log) != length:
                        self._live.pop(encounter_id, None)
                    raise
            raise ConteurError("store.busy")

    def close_encounter(
        self, encounter_id: int, *, awards: Mapping[int, Mapping[str, int]] | None = None
    ) -> list[CharacterInfo]:
        """Close an encounter and write what each character carries out of it back to it.

        Each character's state takes the ruleset's ``end_state`` (health,
        Willpower, blood, ammunition...) and ``awards`` (character id → counters
        to add, such as ``{"experience": 1}``), as one new version per character,
        all in one transaction. The characters, updated.
        """
        with self._lock:
            try:
                with self._write() as s:
                    row = _encounter(s, encounter_id, lock="update")
                    if row.status != "open":
                        raise ConteurError("store.encounter.closed", name=row.name)
                    live = self._load(s, row)
                    end = live.encounter.end_state()
                    updated: list[Character] = []
                    for cid, char_id in _links(s, row.id).items():
                        if cid not in end:  # a joining undone: nothing to carry back
                            continue
                        char = _character(s, char_id)
                        carried = json_ready(end.get(cid, {}), cid)
                        state = {**char.state, **carried}
                        if awards and char_id in awards:
                            state = _add_counters(state, awards[char_id])
                        char.state = state
                        _bump(s, char, "encounter_closed", encounter_id=row.id)
                        updated.append(char)
                    row.status = "closed"
                    row.closed_at = now()
                    s.flush()
                    changes.announce(s, changes.CLOSED, row.id, self.origin)
                    return [_character_info(c) for c in updated]
            finally:
                self._live.pop(encounter_id, None)

    def _load(self, s: Session, row: EncounterRow) -> _Live:
        """The live encounter of ``row``; when the cache is behind (another process wrote),
        the newer entries are folded into it, else the whole log is replayed."""
        last = _last_seq(s, row.id)
        live = self._live.get(row.id)
        if live is not None and live.last_seq == last:
            return live
        if live is not None and live.last_seq < last:
            newer = s.scalars(
                select(LogRow.entry)
                .where(LogRow.encounter_id == row.id, LogRow.seq > live.last_seq)
                .order_by(LogRow.seq)
            )
            try:
                live.encounter.catch_up([entry_from_dict(e) for e in newer])
            except ValueError:
                pass  # not a continuation of what this store saw: replay it all
            else:
                live.last_seq = last
                return live
        entries = list(
            s.scalars(
                select(LogRow.entry).where(LogRow.encounter_id == row.id).order_by(LogRow.seq)
            )
        )
        encounter = Encounter.replay(row.scenario, entries)
        live = _Live(encounter, last)
        self._live[row.id] = live
        return live

    def counts(self) -> dict[str, int]:
        """How many campaigns, characters, encounters (``open`` ones too) and log entries."""
        with self._read() as s:
            open_count = select(func.count()).where(EncounterRow.status == "open")
            return {
                "campaigns": int(s.scalar(select(func.count()).select_from(Campaign)) or 0),
                "characters": int(s.scalar(select(func.count()).select_from(Character)) or 0),
                "encounters": int(s.scalar(select(func.count()).select_from(EncounterRow)) or 0),
                "open": int(s.scalar(open_count.select_from(EncounterRow)) or 0),
                "log": int(s.scalar(select(func.count()).select_from(LogRow)) or 0),
            }

    # -------------------------------------------------------------- the game master's secret

    def has_gm_secret(self) -> bool:
        """Whether a game master's password or token has been set."""
        with self._read() as s:
            return s.scalar(select(func.count(GmSecret.id))) != 0

    def has_gm_password(self) -> bool:
        """Whether the game master has chosen a password (else the first visit asks for one)."""
        with self._read() as s:
            count = select(func.count(GmSecret.id)).where(GmSecret.kind == "password")
            return s.scalar(count) != 0

    def set_gm_password(self, password: str) -> None:
        """Set the game master's password (stored as a scrypt hash; replaces the previous one)."""
        if len(password) < auth.MIN_PASSWORD:
            raise ConteurError("store.gm.password_short", min=auth.MIN_PASSWORD)
        if len(password) > auth.MAX_PASSWORD:
            raise ConteurError("store.gm.password_long", max=auth.MAX_PASSWORD)
        hashed = auth.hash_secret(password)
        with self._write() as s:
            s.add(GmSecret(kind="password", hash=hashed))

    def new_gm_token(self) -> str:
        """A fresh game master's token, good for one login (only its hash is stored; it
        replaces the previous token)."""
        token = auth.new_token()
        hashed = auth.hash_secret(token)
        with self._write() as s:
            s.add(GmSecret(kind="token", hash=hashed))
        return token

    def _latest_secrets(self, s: Session) -> tuple[str | None, list[GmSecret]]:
        """The current password's hash, and the latest tokens (newest first)."""
        password = s.scalar(
            select(GmSecret.hash)
            .where(GmSecret.kind == "password")
            .order_by(GmSecret.id.desc())
            .limit(1)
        )
        tokens = s.scalars(
            select(GmSecret)
            .where(GmSecret.kind == "token")
            .order_by(GmSecret.id.desc())
            .limit(TOKENS_RECOGNISED)
        ).all()
        return password, list(tokens)

    def check_gm_secret(self, secret: str) -> bool:
        """Whether ``secret`` is the game master's current password or unused token (nothing
        is used up: ``gm_login`` is the login)."""
        if not secret or len(secret) > 1024:
            return False
        with self._read() as s:
            password, tokens = self._latest_secrets(s)
        hashes = [password] if password else []
        hashes += [t.hash for t in tokens[:1] if t.used_at is None]
        return any(auth.verify_secret(secret, h) for h in hashes)

    def check_gm_password(self, secret: str) -> bool:
        """Whether ``secret`` is the game master's current password."""
        if not secret or len(secret) > auth.MAX_PASSWORD:
            return False
        with self._read() as s:
            password, _ = self._latest_secrets(s)
        return password is not None and auth.verify_secret(secret, password)

    def gm_login(self, secret: str) -> str | None:
        """What ``secret`` is: ``"password"`` (the current one), ``"token"`` (the latest token,
        unused until now: this uses it up, once, even with logins racing), ``"used"`` (a token
        that has already opened a session, or one replaced since), or None."""
        if not secret or len(secret) > 1024:
            return None
        with self._read() as s:
            password, tokens = self._latest_secrets(s)
        if password and auth.verify_secret(secret, password):
            return "password"
        for n, token in enumerate(tokens):
            if not auth.verify_secret(secret, token.hash):
                continue
            if n > 0 or token.used_at is not None:
                return "used"
            with self._write() as s:
                done = s.execute(
                    update(GmSecret)
                    .where(GmSecret.id == token.id, GmSecret.used_at.is_(None))
                    .values(used_at=now())
                )
            return "token" if getattr(done, "rowcount", 0) == 1 else "used"
        return None

    # -------------------------------------------------------------- the game master's sessions

    def open_gm_session(self, nonce: str, *, agent: str = "", address: str = "") -> None:
        """Record a game master's session (only the SHA-256 of ``nonce``, its random id)."""
        with self._write() as s:
            s.add(GmSession(digest=auth.digest(nonce), agent=agent[:200], address=address[:100]))

    def gm_session_id(self, nonce: str, *, idle: float | None = None) -> int | None:
        """The id of the open (not revoked) session ``nonce`` names, else None; notes when it
        was last seen (at most once a minute). With ``idle`` (seconds), a session not seen
        for longer is revoked now (it expired) and None is returned."""
        digest = auth.digest(nonce)
        with self._read() as s:
            row = s.scalar(
                select(GmSession).where(GmSession.digest == digest, GmSession.revoked_at.is_(None))
            )
        if row is None:
            return None
        moment = now()
        if idle is not None and (moment - row.seen_at).total_seconds() > idle:
            self.revoke_gm_session(row.id)
            return None
        if (moment - row.seen_at).total_seconds() > SEEN_EVERY:
            with self._write() as s:
                s.execute(update(GmSession).where(GmSession.id == row.id).values(seen_at=moment))
        return row.id

    def list_gm_sessions(self) -> list[GmSessionInfo]:
        """The open sessions, the most recently seen first."""
        with self._read() as s:
            rows = s.scalars(
                select(GmSession)
                .where(GmSession.revoked_at.is_(None))
                .order_by(GmSession.seen_at.desc(), GmSession.id.desc())
            ).all()
            return [GmSessionInfo(r.id, r.agent, r.address, r.created_at, r.seen_at) for r in rows]

    def revoke_gm_session(self, session_id: int) -> bool:
        """Close a session for good (its cookie opens nothing any more); False if it was not
        open."""
        with self._write() as s:
            done = s.execute(
                update(GmSession)
                .where(GmSession.id == session_id, GmSession.revoked_at.is_(None))
                .values(revoked_at=now())
            )
        return getattr(done, "rowcount", 0) == 1

    def signing_key(self) -> bytes:
        """The server's signing key (sessions, CSRF tokens), made at the first call and kept in
        the database, so that a restart leaves the game master's pages valid."""
        with self._read() as s:
            value = s.scalar(select(ServerKey.value).where(ServerKey.purpose == "signing"))
        if value is None:
            try:
                with self._write() as s:
                    s.add(ServerKey(purpose="signing", value=secrets.token_hex(32)))
            except IntegrityError:  # another process made it first: theirs counts
                pass
            with self._read() as s:
                value = s.scalar(select(ServerKey.value).where(ServerKey.purpose == "signing"))
        assert value is not None
        return bytes.fromhex(value)


# ------------------------------------------------------------------ helpers


def _is_busy(exc: OperationalError) -> bool:
    text = str(exc.orig).lower()
    return "locked" in text or "busy" in text or "deadlock" in text or "serialize" in text


def _name(value: Any, key: str) -> str:
    text = str(value).strip() if isinstance(value, str) else ""
    if not 1 <= len(text) <= 200:
        raise ConteurError(key)
    return text


def _character_entry(
    campaign: Campaign, char: Character, p: Participant, cid: str
) -> dict[str, Any]:
    """The scenario entry of a campaign character, from its sheet and carried state."""
    checked = check_sheet(campaign, char.sheet, char.state, char.name)
    entry: dict[str, Any] = {"id": cid, "sheet": checked.scenario_sheet}
    entry.update(scenario_state(checked.state))
    side = p.side if p.side is not None else _sheet_side(char.sheet)
    if side is not None:
        entry["side"] = side
    if p.position is not None:
        entry["position"] = list(p.position)
    entry.update(json_ready(dict(p.extra), cid))
    entry["id"] = cid
    return entry


SIDE_KEYS = ("side", "camp")
"""Where a character's sheet may name its side (the side an encounter takes by default)."""


def _sheet_side(sheet: Any) -> str | None:
    """The side a character's sheet names, if any."""
    if not isinstance(sheet, Mapping):
        return None
    for key in SIDE_KEYS:
        value = sheet.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _in_formation(combatants: list[dict[str, Any]]) -> bool:
    """Combatants given no position stand in the default formation of their side
    (``conteur.engine.battlemap.formation``: a line per side); whether any was placed."""
    free = [c for c in combatants if "position" not in c]
    sides = [c.get("side") if isinstance(c.get("side"), str) else None for c in free]
    for c, place in zip(free, formation(sides), strict=True):
        c["position"] = [place[0], place[1]]
    return bool(free)


def _free_id(wanted: str, taken: Mapping[str, Any]) -> str:
    """``wanted``, or ``wanted-2``, ``wanted-3``... the first not already a combatant's."""
    found, n = wanted, 1
    while found in taken:
        n += 1
        found = f"{wanted}-{n}"
    return found


def _add_counters(state: Mapping[str, Any], counters: Mapping[str, int]) -> dict[str, Any]:
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


def _bump(s: Session, row: Character, reason: str, *, encounter_id: int | None = None) -> None:
    row.version += 1
    row.updated_at = now()
    s.flush()
    _append_version(s, row, reason, encounter_id)


def _append_version(
    s: Session, row: Character, reason: str, encounter_id: int | None = None
) -> None:
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


def _character(s: Session, character_id: int) -> Character:
    row = s.get(Character, character_id) if isinstance(character_id, int) else None
    if row is None:
        raise ConteurError("store.character.unknown", id=character_id)
    return row


def _encounter(
    s: Session, encounter_id: int, lock: str | None = None, *, scenario: bool = True
) -> EncounterRow:
    """The encounter's row; ``scenario=False`` leaves its (large) scenario to be read on use."""
    row = None
    if isinstance(encounter_id, int):
        query = select(EncounterRow).where(EncounterRow.id == encounter_id)
        if not scenario:
            query = query.options(defer(EncounterRow.scenario))
        if lock == "share":
            query = query.with_for_update(read=True)
        elif lock == "update":
            query = query.with_for_update()
        row = s.scalar(query)
    if row is None:
        raise ConteurError("store.encounter.unknown", id=encounter_id)
    return row


_LAST_SEQ = select(func.max(LogRow.seq))


def _pending_row(s: Session, encounter_id: int, step: int) -> PendingAction:
    row = s.scalar(select(PendingAction).where(PendingAction.encounter_id == encounter_id))
    if row is None:
        raise ConteurError("store.pending.none")
    if row.step != step:
        raise ConteurError("store.pending.moved")
    return row


def _pending_info(row: PendingAction, last_seq: int) -> PendingInfo:
    return PendingInfo(
        encounter_id=row.encounter_id,
        command=Command.from_dict(dict(row.command)),
        rolls=tuple(tuple(int(f) for f in r) for r in row.rolls),
        base_seq=row.base_seq,
        step=row.step,
        stale=row.base_seq != last_seq,
    )


def _last_seq(s: Session, encounter_id: int) -> int:
    last = s.scalar(select(func.max(LogRow.seq)).where(LogRow.encounter_id == encounter_id))
    return -1 if last is None else int(last)


def _sync_links(s: Session, encounter_id: int, encounter: Encounter, entry: LogEntry) -> None:
    """Keep the player links in step with the joins in force: the undo of a character's
    joining drops its link (its player's phone leaves the fight), its redo links it again."""
    if isinstance(entry, UndoEntry):
        undone = next((e for e in encounter.log if e.seq == entry.undoes), None)
        if not isinstance(undone, CommandEntry) or undone.command.type != JOIN:
            return
        joined = undone.command.args.get("combatant")
        cid = joined.get("id") if isinstance(joined, Mapping) else None
        if isinstance(cid, str):
            s.execute(
                delete(EncounterCharacter).where(
                    EncounterCharacter.encounter_id == encounter_id,
                    EncounterCharacter.combatant_id == cid,
                )
            )
        return
    if not isinstance(entry, CommandEntry) or entry.redoes is None:
        return
    command = entry.command
    joined = command.args.get("combatant")
    char_id = command.args.get("character")
    if command.type != JOIN or not isinstance(joined, Mapping) or not isinstance(char_id, int):
        return
    cid = str(joined.get("id"))
    if cid not in _links(s, encounter_id):
        s.add(EncounterCharacter(encounter_id=encounter_id, character_id=char_id, combatant_id=cid))


def _links(s: Session, encounter_id: int) -> dict[str, int]:
    rows = s.execute(
        select(EncounterCharacter.combatant_id, EncounterCharacter.character_id)
        .where(EncounterCharacter.encounter_id == encounter_id)
        .order_by(EncounterCharacter.id)
    )
    return {cid: char_id for cid, char_id in rows}


def _character_info(row: Character) -> CharacterInfo:
    return CharacterInfo(
        row.id,
        row.campaign_id,
        row.slug,
        row.name,
        dict(row.sheet),
        dict(row.state),
        row.version,
        row.token,
        row.created_at,
        row.updated_at,
    )


def _encounter_info(row: EncounterRow, links: dict[str, int]) -> EncounterInfo:
    return EncounterInfo(
        row.id,
        row.campaign_id,
        row.name,
        dict(row.scenario),
        row.status,
        row.created_at,
        row.closed_at,
        dict(links),
    )


def _export(row: Character, ruleset: str) -> dict[str, Any]:
    return {
        "format": EXPORT_FORMAT,
        "version": 1,
        "ruleset": ruleset,
        "sheet": row.sheet,
        "state": row.state,
    }


__all__ = [
    "CAMPAIGN_ONLY",
    "COUNTERS",
    "SETTINGS",
    "CampaignInfo",
    "CharacterInfo",
    "CharacterVersionInfo",
    "EncounterInfo",
    "Participant",
    "Store",
]
