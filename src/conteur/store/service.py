"""The store's API: campaigns, characters, encounters and their log, the game master's secret.

Everything the web app (or the CLI, or a script) persists goes through a
``Store``. Its methods take and return plain values (``CampaignInfo``,
``CharacterInfo``, ``EncounterInfo``, engine log entries and events), never ORM
objects, and each method is one transaction: it is stored whole or not at all,
and a refused input (``ConteurError``, in French or English, naming the field)
changes nothing.

The ``Store`` is made of units, one module each, over one base (``base.StoreBase``:
the database, its transactions, the lock and the live encounters they share):

* ``campaigns.CampaignStore`` — campaigns, their settings, privacy and table screen;
* ``characters.CharacterStore`` — characters, their versions, files and player links;
* ``log.LogStore`` — an encounter's live state and its log: commands, undo, redo;
* ``encounters.EncounterStore`` — encounters started, joined, closed;
* ``pending.PendingStore`` — actions waiting for the table's dice;
* ``gamemaster.GameMasterStore`` — the game master's secrets, sessions, signing key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select

from . import backup
from .campaigns import SETTINGS, CampaignInfo, CampaignStore
from .characters import COUNTERS, CharacterInfo, CharacterStore, CharacterVersionInfo
from .encounters import EncounterInfo, EncounterStore, Participant
from .gamemaster import GameMasterStore
from .models import Campaign, Character, EncounterRow, LogRow
from .pending import PendingInfo, PendingStore
from .sheets import CAMPAIGN_ONLY

if TYPE_CHECKING:
    from .backup import Imported


class Store(CampaignStore, CharacterStore, EncounterStore, PendingStore, GameMasterStore):
    """Campaigns, characters and encounters in one database (see ``open_store``)."""

    def export_campaign(self, campaign_id: int) -> dict[str, Any]:
        """The whole campaign as one JSON-ready backup (``conteur.store.backup``)."""
        return backup.export_campaign(self, campaign_id)

    def import_campaign(self, data: Any, source: str = "<backup>") -> Imported:
        """A new campaign from a backup (new ids, new player tokens), in one transaction."""
        return backup.import_campaign(self, data, source)

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


__all__ = [  # the names ``conteur.store.service`` has always given
    "CAMPAIGN_ONLY",
    "COUNTERS",
    "SETTINGS",
    "CampaignInfo",
    "CharacterInfo",
    "CharacterVersionInfo",
    "EncounterInfo",
    "Participant",
    "PendingInfo",
    "Store",
]
