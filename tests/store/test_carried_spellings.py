"""A character's carried state laid over its sheet: a state key replaces the sheet's key of
the same field written in the other language (hunter's ``weapon`` over the sheet's ``arme``),
so the second fight starts as the first one ended."""

from __future__ import annotations

import pytest

from conteur.store import Store
from conteur.store.service import Participant

ANA = {
    "id": "ana",
    "nom": "Ana",
    "force": 2,
    "dextérité": 3,
    "vigueur": 2,
    "astuce": 3,
    "calme": 3,
    "armes à feu": 3,
    "mêlée": 2,
    "arme": "heavy_pistol",
}
BETE = {
    "id": "bete",
    "nom": "la Bête",
    "type": "monstre",
    "force": 5,
    "dextérité": 3,
    "vigueur": 4,
    "astuce": 3,
    "calme": 2,
    "mains nues": 4,
}


def _fight(store: Store, campaign: int, ana: int, bete: int, name: str) -> int:
    joined = [Participant(ana, side="chasseurs"), Participant(bete, side="monstres")]
    return store.start_encounter(campaign, name, joined).id


def test_a_hunter_fights_twice_with_the_weapon_it_carries(store: Store) -> None:
    campaign = store.create_campaign("Cellule", "hunter").id
    ana = store.add_character(campaign, ANA).id
    bete = store.add_character(campaign, BETE).id
    first = _fight(store, campaign, ana, bete, "premier")
    assert store.encounter(first).state.fighters["ana"].weapon == "heavy_pistol"
    store.close_encounter(first)
    carried = next(c for c in store.list_characters(campaign) if c.id == ana)
    assert carried.sheet["arme"] == "heavy_pistol" and carried.state["weapon"] == "heavy_pistol"

    second = _fight(store, campaign, ana, bete, "second")  # refused before: « donné deux fois »
    assert store.encounter(second).state.fighters["ana"].weapon == "heavy_pistol"


def test_the_carried_weapon_wins_over_the_sheets(store: Store) -> None:
    campaign = store.create_campaign("Cellule", "hunter").id
    ana = store.add_character(campaign, ANA, {"weapon": None}).id
    bete = store.add_character(campaign, BETE).id
    fight = _fight(store, campaign, ana, bete, "désarmée")
    assert store.encounter(fight).state.fighters["ana"].weapon is None


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_state_key_twice_in_the_state_itself_is_still_refused(store: Store, lang: str) -> None:
    from conteur.i18n import ConteurError

    campaign = store.create_campaign("Cellule", "hunter").id
    with pytest.raises(ConteurError) as refused:
        store.add_character(campaign, {**ANA, "weapon": "knife"})
    expected = {
        "fr": "<sheet>\u202f: personnage «\u202fana\u202f»\u202f: champ «\u202farme\u202f»\u202f: "
        "donné deux fois («\u202farme\u202f» et «\u202fweapon\u202f»)",
        "en": '<sheet>: character "ana": field "weapon": given twice ("arme" and "weapon")',
    }
    assert refused.value.message(lang) == expected[lang]  # type: ignore[arg-type]
