"""Encounters: started from a campaign's characters, joined during the fight, closed with
what each character carries out of it written back (``EncounterStore``).

An encounter's scenario is built from its campaign (ruleset, packs, options, era) and
each character's sheet and carried state; the commands of the fight are its log
(``conteur.store.log``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from conteur.dice import TypedDice
from conteur.engine import Command, CommandEntry, Encounter
from conteur.engine.battlemap import formation
from conteur.engine.joining import JOIN
from conteur.i18n import ConteurError

from . import changes
from .base import from_row
from .campaigns import campaign_row, check_name, check_sheet
from .characters import CharacterInfo, add_counters, bump, character_info, character_row
from .log import LogStore, encounter_row, links, open_row
from .models import Campaign, Character, EncounterCharacter, EncounterRow, now
from .sheets import json_ready, scenario_state

SCENARIO_KEYS = frozenset({"ruleset", "era", "packs", "options", "combatants"})
"""Scenario keys set by the campaign and the characters, not by ``start_encounter(extra=...)``."""

# ------------------------------------------------------------------ values


@dataclass(frozen=True, kw_only=True)
class EncounterInfo:
    """An encounter as stored: scenario, status, which character plays which combatant."""

    id: int
    campaign_id: int
    name: str
    scenario: dict[str, Any]
    """What ``Encounter.start`` reads (campaign, characters, NPCs, extra keys)."""
    status: str
    """``open``, or ``closed`` (its characters' states written back)."""
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


def encounter_info(row: EncounterRow, linked: dict[str, int]) -> EncounterInfo:
    return from_row(EncounterInfo, row, scenario=dict(row.scenario), characters=dict(linked))


# ------------------------------------------------------------------ scenario entries


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


def _campaign_character(s: Session, campaign: Campaign, p: Participant) -> Character:
    """The character ``p`` names (ConteurError when it is another campaign's)."""
    char = character_row(s, p.character_id)
    if char.campaign_id != campaign.id:
        raise ConteurError("store.character.other_campaign", name=char.name)
    return char


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


def _link(s: Session, encounter_id: int, character_id: int, combatant_id: str) -> None:
    s.add(
        EncounterCharacter(
            encounter_id=encounter_id, character_id=character_id, combatant_id=combatant_id
        )
    )


# ------------------------------------------------------------------ the store's encounters


class EncounterStore(LogStore):
    """The ``Store``'s encounters: started, read, joined during the fight, closed."""

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
        name = check_name(name, "store.encounter.name")
        if not participants and not npcs:
            raise ConteurError("store.encounter.no_participant")
        extra_data = json_ready(dict(extra or {}), "extra")
        for key in extra_data:
            if key in SCENARIO_KEYS:
                raise ConteurError("store.encounter.extra_key", field=key)
        with self._write() as s:
            campaign = campaign_row(s, campaign_id)
            combatants: list[dict[str, Any]] = []
            linked: dict[str, int] = {}
            for p in participants:
                char = _campaign_character(s, campaign, p)
                if char.id in linked.values():
                    raise ConteurError("store.encounter.twice", name=char.name)
                cid = p.combatant_id or char.slug
                combatants.append(_character_entry(campaign, char, p, cid))
                linked[cid] = char.id
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
            for cid, char_id in linked.items():
                _link(s, row.id, char_id, cid)
            s.flush()
            return encounter_info(row, linked)

    def get_encounter(self, encounter_id: int) -> EncounterInfo:
        """One encounter (ConteurError ``store.encounter.unknown``)."""
        with self._read() as s:
            row = encounter_row(s, encounter_id)
            return encounter_info(row, links(s, row.id))

    def list_encounters(self, campaign_id: int, status: str | None = None) -> list[EncounterInfo]:
        """A campaign's encounters (only ``open`` or ``closed`` ones when asked), newest first."""
        with self._read() as s:
            campaign_row(s, campaign_id)
            query = select(EncounterRow).where(EncounterRow.campaign_id == campaign_id)
            if status is not None:
                query = query.where(EncounterRow.status == status)
            rows = s.scalars(query.order_by(EncounterRow.id.desc())).all()
            return [encounter_info(r, links(s, r.id)) for r in rows]

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

        def step(encounter: Encounter, s: Session) -> None:
            if encounter.ruleset.join_rule(encounter.state) is None:
                raise ConteurError("engine.join.closed")
            taken = encounter.ruleset.names(encounter.state)
            char_id: int | None = None
            if participant is not None:
                row = encounter_row(s, encounter_id, scenario=False)
                campaign = campaign_row(s, row.campaign_id)
                char = _campaign_character(s, campaign, participant)
                linked = links(s, encounter_id)
                mine = [cid for cid, other in linked.items() if other == char.id]
                if any(cid in taken for cid in mine):
                    raise ConteurError("store.encounter.twice", name=char.name)
                if mine:  # back after its joining was undone: the same combatant, linked
                    cid = mine[0]
                else:
                    wanted = participant.combatant_id or char.slug
                    cid = _free_id(wanted, {**taken, **linked})
                    char_id = char.id
                entry = _character_entry(campaign, char, participant, cid)
            else:
                entry = json_ready(dict(npc or {}), "npc")
                entry["id"] = _free_id(str(entry.get("id") or "npc"), taken)
            args: dict[str, Any] = {"combatant": entry}
            if participant is not None:  # a redo after an undo links it again (log._sync_links)
                args["character"] = participant.character_id
            encounter.execute(Command(JOIN, None, args), TypedDice(""))
            if char_id is not None:
                _link(s, encounter_id, char_id, entry["id"])

        entry = self._append(encounter_id, step)
        assert isinstance(entry, CommandEntry)
        return entry

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
                    row = open_row(s, encounter_id, "update", scenario=True)
                    end = self._load(s, row).encounter.end_state()
                    updated: list[Character] = []
                    for cid, char_id in links(s, row.id).items():
                        if cid not in end:  # a joining undone: nothing to carry back
                            continue
                        char = character_row(s, char_id)
                        carried = json_ready(end.get(cid, {}), cid)
                        state = {**char.state, **carried}
                        if awards and char_id in awards:
                            state = add_counters(state, awards[char_id])
                        char.state = state
                        bump(s, char, "encounter_closed", encounter_id=row.id)
                        updated.append(char)
                    row.status = "closed"
                    row.closed_at = now()
                    s.flush()
                    changes.announce(s, changes.CLOSED, row.id, self.origin)
                    return [character_info(c) for c in updated]
            finally:
                self._live.pop(encounter_id, None)
