"""Sheet forms, the import of a Foundry actor file and the builder's NPCs, through the web
app (issue 16 items 1-3): each ruleset's form (the toy's too) comes from its contract, what
it gives is checked as an import is, a refusal is shown beside its field in the reader's
language, the written-back state reads in words and is corrected by the GM."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from conteur.engine import get_ruleset
from conteur.engine.sheetform import build_sheet
from conteur.store import Store

from .conftest import csrf_of

FOUNDRY = Path(__file__).resolve().parents[1] / "vtm" / "foundry"


def campaign(gm: TestClient, ruleset: str, era: str = "") -> tuple[int, str]:
    page = gm.get("/")
    r = gm.post(
        "/campaigns",
        data={
            "csrf": csrf_of(page.text),
            "name": f"Test {ruleset}",
            "ruleset": ruleset,
            "era": era,
        },
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    cid = int(r.headers["location"].rsplit("/", 1)[1])
    return cid, csrf_of(gm.get(f"/c/{cid}").text)


def error_beside(html: str, key: str) -> str:
    """The text of the error shown beside the field ``key`` (fails when there is none)."""
    block = re.search(
        rf'data-field="{re.escape(key)}".*?<p class="field-error"[^>]*>(.*?)</p>', html, re.S
    )
    assert block, f"no error beside {key}"
    between = html[block.start() : block.end()]
    assert between.count('data-field="') == 1, f"the error is beside another field than {key}"
    return block.group(1)


@pytest.mark.parametrize("sqlite_only", ["sqlite"])
def test_every_ruleset_has_a_form_from_its_contract(sqlite_only: str) -> None:
    for name in ("vtm", "hunter", "western", "duel"):
        form = get_ruleset(name).sheet_form()
        assert form is not None, name
        keys = [f.key for f in form.fields()]
        assert "name" in keys and len(keys) == len(set(keys)), name
    duel = get_ruleset("duel").sheet_form()
    assert duel is not None
    sent = {"f.name": ["Ana"], "f.attack": ["3"], "f.guard": ["0"], "f.health": ["6"]}
    assert build_sheet(duel, lambda k: sent.get(k, [])) == {"name": "Ana", "attack": 3}


def test_vtm_character_from_the_form(gm: TestClient, store: Store) -> None:
    cid, csrf = campaign(gm, "vtm", "modern")
    page = gm.get(f"/c/{cid}").text
    assert 'name="f.attributes.dexterity"' in page and 'value="heavy_pistol"' in page
    assert "Pistolet lourd" in page  # the era's table, translated
    data = {
        "csrf": csrf,
        "f.name": "Mina",
        "f.kind": "ghoul",
        "f.state.side": "PJ",
        "f.attributes.dexterity": "3",
        "f.abilities.firearms": "2",
        "f.disciplines.potence": "1",
        "f.blood": "5",
        "f.willpower": "5",
        "f.weapons": ["heavy_pistol", "knife"],
        "f.armour": "kevlar_vest",
    }
    r = gm.post(f"/c/{cid}/sheet", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    (char,) = store.list_characters(cid)
    assert char.sheet == {
        "name": "Mina",
        "kind": "mortal",
        "attributes": {"dexterity": 3},
        "abilities": {"firearms": 2},
        "disciplines": {"potence": 1},
        "blood": 5,
        "weapons": ["heavy_pistol", "knife"],
        "armour": "kevlar_vest",
    }
    assert char.state == {"side": "PJ"}


@pytest.mark.parametrize(("lang", "words"), [("fr", "au plus 5 points"), ("en", "at most 5 dots")])
def test_vtm_refusal_beside_the_field(gm: TestClient, store: Store, lang: str, words: str) -> None:
    gm.get(f"/lang/{lang}")
    cid, csrf = campaign(gm, "vtm", "1899")
    data = {"csrf": csrf, "f.name": "Jack", "f.kind": "mortal", "f.attributes.strength": "6"}
    r = gm.post(f"/c/{cid}/sheet", data=data)
    assert r.status_code == 422
    assert words in error_beside(r.text, "attributes.strength")
    assert 'value="Jack"' in r.text  # what was typed stays
    assert store.list_characters(cid) == []  # nothing half-applied
    data = {"csrf": csrf, "f.name": "Jack", "f.kind": "vampire", "f.blood": "beaucoup"}
    r = gm.post(f"/c/{cid}/sheet", data=data)
    assert r.status_code == 422 and "beaucoup" in error_beside(r.text, "blood")


def test_hunter_and_western_forms(gm: TestClient, store: Store) -> None:
    cid, csrf = campaign(gm, "hunter")
    data = {
        "csrf": csrf,
        "f.name": "Dean",
        "f.kind": "hunter",
        "f.strength": "3",
        "f.firearms": "2",
        "f.weapons": ["shotgun", "knife"],
        "f.merits": "quick_draw",
        "f.size": "grand",
    }
    r = gm.post(f"/c/{cid}/sheet", data=data)
    assert r.status_code == 422 and "grand" in error_beside(r.text, "size")
    data["f.size"] = "5"
    assert gm.post(f"/c/{cid}/sheet", data=data, follow_redirects=False).status_code == 303
    (dean,) = store.list_characters(cid)
    assert dean.sheet == {
        "name": "Dean",
        "kind": "hunter",
        "strength": 3,
        "firearms": 2,
        "weapons": ["shotgun", "knife"],
        "merits": ["quick_draw"],
    }
    cid, csrf = campaign(gm, "western")
    data = {
        "csrf": csrf,
        "f.name": "Billy",
        "f.characteristics.force": "30",
        "f.skills.aimed_pistol": "60",
        "f.weapons": "colt_saa",
    }
    r = gm.post(f"/c/{cid}/sheet", data=data)
    assert r.status_code == 422 and "30" in error_beside(r.text, "characteristics.force")
    data["f.characteristics.force"] = "14"
    assert gm.post(f"/c/{cid}/sheet", data=data, follow_redirects=False).status_code == 303
    (billy,) = store.list_characters(cid)
    assert billy.sheet["characteristics"] == {"force": 14}


def test_state_in_words_and_corrected(gm: TestClient, store: Store) -> None:
    cid, csrf = campaign(gm, "vtm", "1899")
    sheet = {"name": "Lou", "kind": "vampire", "weapons": ["heavy_revolver"]}
    char = store.add_character(
        cid, sheet, {"health": ["bashing", "bashing", "lethal"], "willpower": 3, "fate": "torpor"}
    )
    gm.get("/lang/en")
    page = gm.get(f"/characters/{char.id}").text
    words = re.search(r'data-state="state.health">(.*?)</dd>', page)
    assert words and words.group(1) == "2 × bashing, 1 × lethal"
    fate = re.search(r'data-state="state.fate">(.*?)</dd>', page)
    assert fate and fate.group(1) == "in torpor"
    csrf = csrf_of(page)
    data = {
        "csrf": csrf,
        "f.state.health.bashing": "0",
        "f.state.health.lethal": "1",
        "f.state.health.aggravated": "0",
        "f.state.willpower": "4",
        "f.state.fate": "alive",
    }
    r = gm.post(f"/characters/{char.id}/state", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    after = store.get_character(char.id)
    assert after.state == {"health": ["lethal"], "willpower": 4, "fate": "alive"}
    data["f.state.willpower"] = "12"
    r = gm.post(f"/characters/{char.id}/state", data=data)
    assert r.status_code == 422 and "12" in error_beside(r.text, "state.willpower")
    assert store.get_character(char.id).state["willpower"] == 4


def test_foundry_file_on_the_campaign_page(gm: TestClient, store: Store) -> None:
    cid, csrf = campaign(gm, "vtm", "1899")
    body = (FOUNDRY / "vampire.json").read_bytes()
    r = gm.post(
        f"/c/{cid}/import-file",
        data={"csrf": csrf, "format": "foundry"},
        files={"file": ("vampire.json", body, "application/json")},
    )
    assert r.status_code == 200, r.text
    (char,) = store.list_characters(cid)
    assert char.name == "Lucien Valois" and char.sheet["kind"] == "vampire"
    assert "system.clan" in r.text  # what was not carried over, listed
    r = gm.post(
        f"/c/{cid}/import-file",
        data={"csrf": csrf, "format": "foundry"},
        files={"file": ("bad.json", b"{not json", "application/json")},
    )
    assert r.status_code == 422 and "bad.json" in r.text
    assert len(store.list_characters(cid)) == 1


def test_builder_adds_archetypes_and_quick_npcs(gm: TestClient, store: Store) -> None:
    cid, csrf = campaign(gm, "vtm", "1899")
    char = store.add_character(cid, {"name": "Lou", "kind": "vampire"})
    page = gm.get(f"/c/{cid}").text
    assert 'name="npc1_who"' in page and 'value="a:thug"' in page
    data = {
        "csrf": csrf,
        "name": "Ruelle",
        "characters": str(char.id),
        "npc1_who": "a:thug",
        "npc1_side": "voyous",
        "npc2_who": "a:thug",
        "npc2_side": "voyous",
        "npc3_who": "q",
        "npc3_name": "Gros Bill",
    }
    r = gm.post(f"/c/{cid}/encounters", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    eid = int(r.headers["location"].rsplit("/", 1)[1])
    enc = store.encounter(eid)
    assert set(enc.state.fighters) == {"lou", "thug", "thug-2", "gros_bill"}
    assert enc.state.fighters["thug-2"].side == "voyous"
    data["npc3_npc_attack"] = "99"
    r = gm.post(f"/c/{cid}/encounters", data=data)
    assert r.status_code == 422 and "99" in r.text


def test_a_sheet_made_by_the_form_is_edited_by_it(gm: TestClient, store: Store) -> None:
    cid, csrf = campaign(gm, "vtm", "1899")
    data = {
        "csrf": csrf,
        "f.name": "Mina",
        "f.kind": "mortal",
        "f.attributes.wits": "3",
        "f.state.side": "PJ",
    }
    r = gm.post(f"/c/{cid}/sheet", data=data, follow_redirects=False)
    char = store.list_characters(cid)[0]
    page = gm.get(r.headers["location"]).text
    assert f'action="/characters/{char.id}/sheet-form"' in page
    assert re.search(r'name="f.attributes.wits" value="3" checked', page)
    data = {
        "csrf": csrf_of(page),
        "f.name": "Mina",
        "f.kind": "mortal",
        "f.attributes.wits": "4",
        "f.state.side": "PJ",
    }
    r = gm.post(f"/characters/{char.id}/sheet-form", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    after = store.get_character(char.id)
    assert after.sheet["attributes"] == {"wits": 4} and after.state == {"side": "PJ"}
    data["f.attributes.wits"] = "7"
    r = gm.post(f"/characters/{char.id}/sheet-form", data=data)
    assert r.status_code == 422 and "7" in error_beside(r.text, "attributes.wits")
    # A sheet written with fields the form has not (health levels) stays YAML only.
    other = store.add_character(
        cid, {"name": "Odd", "kind": "mortal", "health_levels": ["bruised", "incapacitated"]}
    )
    assert f"/characters/{other.id}/sheet-form" not in gm.get(f"/characters/{other.id}").text
