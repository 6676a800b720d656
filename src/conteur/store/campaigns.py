"""Campaigns: their rules and settings as the store checks them, their stored value, and
the ``Store``'s campaign methods (``CampaignStore``).

``backup`` (a campaign as one file) checks a campaign's rules, settings and characters
with the same functions.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from conteur.engine import get_ruleset
from conteur.engine.inputs import InputError
from conteur.engine.scenario import check_scenario
from conteur.engine.visibility import DEFAULT_PRIVACY, Privacy
from conteur.i18n import ConteurError, Msg

from . import auth, changes
from .base import StoreBase, from_row
from .models import Campaign, now
from .sheets import CheckedCharacter, check_character, json_ready

SETTINGS: dict[str, tuple[type, Any]] = {
    "player_input": (bool, False),
    "player_moves": (bool, False),
    "lang": (str, "fr"),
    "table_token": (str, ""),
}
"""Table settings, their type and default.

``table_token``: the secret of the campaign's table screen (``/t/<token>``), made on
first use (``table_token``); a new one stops the old link (``new_table_token``).

``player_input``: players enter their own declarations, defences and dice
(otherwise they watch while the game master enters everything); ``lang``: the
table's default language.
"""

KIND_WORDS = {bool: "store.word.boolean", str: "store.word.text"}
"""How an error names the type a setting wants."""

SECRET_SETTINGS = frozenset({"table_token"})
"""Settings that are secrets (a link's token): never exported (``backup``); a restored
campaign makes a new one on first use."""


# ------------------------------------------------------------------ values


@dataclass(frozen=True, kw_only=True)
class CampaignInfo:
    """A campaign as stored."""

    id: int
    name: str
    ruleset: str
    packs: tuple[str, ...]
    options: dict[str, Any]
    era: str | None
    settings: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    privacy: Privacy = DEFAULT_PRIVACY
    """What the players see, as the game master chose (``set_privacy``)."""


def check_rules(
    ruleset: str, era: str | None, packs: Any, options: Any
) -> tuple[list[str], dict[str, Any]]:
    """Packs and options checked by the ruleset (an empty encounter must start)."""
    rules = get_ruleset(ruleset)
    if isinstance(packs, str) or not isinstance(packs, Sequence):
        raise ConteurError("store.campaign.field", field="packs", reason=Msg("store.word.list"))
    if not isinstance(options, Mapping):
        raise ConteurError(
            "store.campaign.field", field="options", reason=Msg("store.word.mapping")
        )
    packs_list = [str(p) for p in packs]
    options_dict = json_ready(dict(options), "options")
    scenario: dict[str, Any] = {
        "ruleset": ruleset,
        "packs": packs_list,
        "options": options_dict,
        "combatants": [],
    }
    if era is not None:
        scenario["era"] = era
    try:  # a pack or an era the ruleset does not have: refused by name
        check_scenario(scenario, rules)
    except InputError as error:
        raise ConteurError(
            "store.campaign.field", field=error.params["field"], reason=error.params["reason"]
        ) from None
    rules.check_setup(scenario)
    return packs_list, options_dict


def check_name(value: Any, key: str) -> str:
    """A campaign's or an encounter's name, trimmed (ConteurError ``key`` when it is not
    1 to 200 characters of text)."""
    text = str(value).strip() if isinstance(value, str) else ""
    if not 1 <= len(text) <= 200:
        raise ConteurError(key)
    return text


def check_settings(current: Mapping[str, Any], chosen: Mapping[str, Any]) -> dict[str, Any]:
    """``current`` settings with the ``chosen`` ones (checked) in place; defaults filled in."""
    out = {n: default for n, (_, default) in SETTINGS.items() if n not in SECRET_SETTINGS}
    out.update(current)
    for name, value in chosen.items():
        if name not in SETTINGS:
            raise ConteurError("store.campaign.setting", name=name, known=", ".join(SETTINGS))
        kind = SETTINGS[name][0]
        if not isinstance(value, kind):
            expected = Msg(KIND_WORDS[kind])
            raise ConteurError(
                "store.campaign.setting_type", name=name, expected=expected, value=value
            )
        out[name] = value
    return out


def check_sheet(campaign: Campaign, sheet: Any, state: Any, source: str) -> CheckedCharacter:
    return check_character(
        campaign.ruleset,
        sheet,
        state,
        source,
        era=campaign.era,
        packs=list(campaign.packs),
        options=campaign.options,
    )


def campaign_row(s: Session, campaign_id: int) -> Campaign:
    row = s.get(Campaign, campaign_id) if isinstance(campaign_id, int) else None
    if row is None:
        raise ConteurError("store.campaign.unknown", id=campaign_id)
    return row


def campaign_info(row: Campaign) -> CampaignInfo:
    return from_row(
        CampaignInfo,
        row,
        packs=tuple(row.packs),
        options=dict(row.options),
        settings=dict(row.settings),
        privacy=Privacy.from_dict(row.privacy or {}),
    )


# ------------------------------------------------------------------ the store's campaigns


class CampaignStore(StoreBase):
    """The ``Store``'s campaigns: made, changed, read, and the secret of their table screen."""

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
        row = Campaign(name=check_name(name, "store.campaign.name"), ruleset=ruleset, era=era)
        row.packs, row.options = check_rules(ruleset, era, packs, options or {})
        row.settings = check_settings({}, settings or {})
        with self._write() as s:
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
                row.name = check_name(name, "store.campaign.name")
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

    def list_campaigns(self) -> list[CampaignInfo]:
        """Every campaign, the most recently changed first."""
        with self._read() as s:
            rows = s.scalars(select(Campaign).order_by(Campaign.updated_at.desc(), Campaign.id))
            return [campaign_info(r) for r in rows]

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
