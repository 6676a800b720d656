"""A campaign's settings and rules as the store checks them, and its stored value.

Below ``service`` (the ``Store``) and ``backup`` (a campaign as one file), which both
check a campaign's rules, settings and characters the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from conteur.engine import get_ruleset
from conteur.engine.inputs import InputError
from conteur.engine.scenario import check_scenario
from conteur.engine.visibility import DEFAULT_PRIVACY, Privacy
from conteur.i18n import ConteurError, Msg

from .models import Campaign
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

SECRET_SETTINGS = frozenset({"table_token"})
"""Settings that are secrets (a link's token): never exported (``backup``); a restored
campaign makes a new one on first use."""


# ------------------------------------------------------------------ values


@dataclass(frozen=True)
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


def check_settings(current: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    out = {n: default for n, (_, default) in SETTINGS.items() if n not in SECRET_SETTINGS}
    out.update(current)
    for name, value in changes.items():
        if name not in SETTINGS:
            raise ConteurError("store.campaign.setting", name=name, known=", ".join(SETTINGS))
        kind = SETTINGS[name][0]
        if kind is bool and not isinstance(value, bool):
            raise ConteurError(
                "store.campaign.setting_type",
                name=name,
                expected=Msg("store.word.boolean"),
                value=value,
            )
        if kind is str and not isinstance(value, str):
            raise ConteurError(
                "store.campaign.setting_type",
                name=name,
                expected=Msg("store.word.text"),
                value=value,
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
    return CampaignInfo(
        row.id,
        row.name,
        row.ruleset,
        tuple(row.packs),
        dict(row.options),
        row.era,
        dict(row.settings),
        row.created_at,
        row.updated_at,
        Privacy.from_dict(row.privacy or {}),
    )
