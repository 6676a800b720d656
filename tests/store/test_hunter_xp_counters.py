"""H-XP-2 counters written back to a hunter character: two encounters closed one after the
other, the counters accumulate on the character (the next sheet starts from the carried ones)."""

from __future__ import annotations

import yaml

from conteur.store import Participant, Store

from .helpers import run

ANA = {
    "id": "ana",
    "nom": "Ana",
    "force": 5,
    "dextérité": 3,
    "vigueur": 2,
    "astuce": 2,
    "calme": 2,
    "bagarre": 2,
}
BETE = {
    "id": "bete",
    "nom": "la Bête",
    "type": "monstre",
    "force": 3,
    "dextérité": 0,
    "vigueur": 5,
    "astuce": 0,
    "calme": 2,
    "bagarre": 2,
}


def fight(store: Store, campaign: int, ana: int, name: str, faces: list[int]) -> None:
    """One encounter: Ana against a fresh Bête (an NPC), one attack of Ana's, closed."""
    enc = store.start_encounter(
        campaign,
        name,
        [Participant(ana, "cell")],
        npcs=[{"id": "bete", "side": "bete", "sheet": BETE}],
    )
    run(store, enc.id, "initiative", dice=[9, 1])
    run(store, enc.id, "act", "ana", faces, kind="attack", target="bete")
    store.close_encounter(enc.id)


def test_H_XP_2_counters_accumulate_over_two_closed_encounters(store: Store) -> None:
    campaign = store.create_campaign("Vigile", "hunter")
    ana = store.add_character(campaign.id, ANA).id
    # Strength 5 + Brawl 2 against Defense 0: seven dice; five successes are exceptional.
    fight(store, campaign.id, ana, "Le dépôt", [8, 8, 9, 8, 9, 2, 3])
    assert store.get_character(ana).state["xp_counters"] == {
        "exceptional_vs_monster": 1,
        "dramatic_failures": 0,
    }
    fight(store, campaign.id, ana, "La cave", [1, 2, 3, 4, 5, 6, 7])  # a dramatic failure
    assert store.get_character(ana).state["xp_counters"] == {
        "exceptional_vs_monster": 1,
        "dramatic_failures": 1,
    }
    exported = yaml.safe_load(store.export_characters(campaign.id))
    assert exported["state"]["xp_counters"]["dramatic_failures"] == 1


def test_H_XP_2_an_undone_roll_does_not_reach_the_character(store: Store) -> None:
    campaign = store.create_campaign("Vigile", "hunter")
    ana = store.add_character(campaign.id, ANA).id
    enc = store.start_encounter(
        campaign.id,
        "Le dépôt",
        [Participant(ana, "cell")],
        npcs=[{"id": "bete", "side": "bete", "sheet": BETE}],
    )
    run(store, enc.id, "initiative", dice=[9, 1])
    run(store, enc.id, "act", "ana", [8, 8, 9, 8, 9, 2, 3], kind="attack", target="bete")
    store.undo(enc.id)
    store.close_encounter(enc.id)
    assert store.get_character(ana).state["xp_counters"] == {
        "exceptional_vs_monster": 0,
        "dramatic_failures": 0,
    }
