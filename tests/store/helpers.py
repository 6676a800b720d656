"""Sample campaign data for the store tests: a small vtm brawl in a saloon."""

from __future__ import annotations

import dataclasses
from typing import Any

from conteur.dice import TypedDice
from conteur.engine import Command, EventList
from conteur.store import CampaignInfo, CharacterInfo, EncounterInfo, Participant, Store

ANN = {"nom": "Ann", "type": "mortelle", "Dextérité": 3, "Astuce": 2, "Bagarre": 2, "Force": 2}
BOB = {"name": "Bob", "kind": "mortal", "dexterity": 2, "wits": 2, "brawl": 1, "weapons": ["colt"]}
CID = {"name": "Cid", "kind": "vampire", "dexterity": 2, "wits": 1, "brawl": 1, "willpower": 6}


def saloon(store: Store) -> tuple[CampaignInfo, dict[str, CharacterInfo], EncounterInfo]:
    """A campaign, three characters (Bob starts hurt) and an encounter between them."""
    campaign = store.create_campaign("Saloon du Dernier Espoir", "vtm", era="1899")
    chars = {
        "ann": store.add_character(campaign.id, ANN),
        "bob": store.add_character(campaign.id, BOB, {"health": ["bashing"], "willpower": 4}),
        "cid": store.add_character(campaign.id, CID),
    }
    encounter = store.start_encounter(
        campaign.id,
        "Bagarre au saloon",
        [
            Participant(chars["ann"].id, side="a", position=(0, 0)),
            Participant(chars["bob"].id, side="b", position=(1, 0)),
            Participant(chars["cid"].id, side="b", position=(0, 1)),
        ],
    )
    return campaign, chars, encounter


def run(
    store: Store,
    encounter_id: int,
    type_: str,
    actor: str | None = None,
    dice: list[int] | tuple[int, ...] = (),
    **args: Any,
) -> EventList:
    """Run one command with typed dice, every face used."""
    source = TypedDice(list(dice))
    return store.run_command(encounter_id, Command(type_, actor, args), source, all_dice_used=True)


def one_turn(store: Store, encounter_id: int) -> None:
    """Initiative, declarations (slowest first), Ann's punch dazes Bob (4 bashing), Cid misses."""
    run(store, encounter_id, "initiative", dice=[9, 5, 1])  # ann 14, bob 9, cid 4
    run(store, encounter_id, "declare", "cid", actions=[{"kind": "punch", "target": "ann"}])
    run(store, encounter_id, "declare", "bob", actions=[{"kind": "punch", "target": "ann"}])
    run(store, encounter_id, "declare", "ann", actions=[{"kind": "punch", "target": "bob"}])
    # Ann: Dex 3 + Brawl 2 = 5 dice, 3 successes; damage Str 2 + 2 extra = 4 dice, 4 levels;
    # Bob soaks with 1 die, none: dazed, he loses his action (V-DMG-7).
    run(store, encounter_id, "act", "ann", [8, 8, 8, 2, 2, 7, 7, 7, 7, 3])
    run(store, encounter_id, "act", "cid", [3, 3, 3])


def gm(type_: str, **args: Any) -> Command:
    return Command(type_, None, args)


def comparable(state: Any) -> dict[str, Any]:
    """A vtm state's fields, less ``meta`` (it holds a reference to the loaded tables)."""
    return {f.name: getattr(state, f.name) for f in dataclasses.fields(state) if f.name != "meta"}
