"""The demo campaign, loaded into an empty database (``conteur serve --demo``).

A ruleset may ship one (``Ruleset.demo_campaign``): the first ruleset by name that
has one gives it, and its data names the ruleset it is played with.
"""

from __future__ import annotations

from typing import Any

from conteur.engine.registry import available_rulesets, get_ruleset
from conteur.store import CampaignInfo, Participant, Store


def demo_data() -> dict[str, Any]:
    """The demo campaign, as its ruleset ships it (ConteurError ``web.no_demo`` when none does)."""
    from conteur.i18n import ConteurError

    for name in available_rulesets():
        data = get_ruleset(name).demo_campaign()
        if data is not None:
            return dict(data)
    raise ConteurError("web.no_demo")


def load_demo(store: Store) -> CampaignInfo | None:
    """Create the demo campaign, its characters and an open encounter; None if not empty."""
    if store.list_campaigns():
        return None
    return add_demo(store)


def add_demo(store: Store) -> CampaignInfo:
    """Add the demo campaign, its characters and an open encounter to ``store``."""
    data = demo_data()
    campaign = store.create_campaign(
        str(data["campaign"]),
        str(data["ruleset"]),
        era=str(data["era"]),
        settings={"player_input": True},
    )
    participants = []
    for entry in data["combatants"]:
        state = {"side": entry["side"]} if "side" in entry else None  # its next fights too
        char = store.add_character(campaign.id, entry["sheet"], state)
        extra = {"weapon": entry["weapon"]} if "weapon" in entry else {}
        participants.append(
            Participant(
                char.id,
                side=entry.get("side"),
                position=entry.get("position"),
                combatant_id=entry["id"],
                extra=extra,
            )
        )
    store.start_encounter(campaign.id, str(data["encounter"]), participants)
    return campaign
