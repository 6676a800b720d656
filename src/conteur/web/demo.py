"""The French demo: the saloon of 1899, loaded into an empty database (``conteur serve --demo``)."""

from __future__ import annotations

from importlib import resources
from typing import Any

import yaml

from conteur.store import CampaignInfo, Participant, Store


def demo_data() -> dict[str, Any]:
    """The demo campaign as shipped in the package (``demo-saloon.yaml``)."""
    text = resources.files("conteur.web").joinpath("demo-saloon.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    assert isinstance(data, dict)
    return data


def load_demo(store: Store) -> CampaignInfo | None:
    """Create the demo campaign, its characters and an open encounter; None if not empty."""
    if store.list_campaigns():
        return None
    data = demo_data()
    campaign = store.create_campaign(
        str(data["campaign"]), "vtm", era=str(data["era"]), settings={"player_input": True}
    )
    participants = []
    for entry in data["combatants"]:
        char = store.add_character(campaign.id, entry["sheet"])
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
