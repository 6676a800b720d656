"""The house_ranged pack in the tracker: a campaign with the pack on hands it to its
encounters; the forms offer the pack's maneuvers, labelled in French and English, and a
called shot and a short burst are played through them with the table's dice."""

from __future__ import annotations

from fastapi.testclient import TestClient

from conteur.i18n import catalog
from conteur.rulesets.vtm.events import DamageRolled
from conteur.rulesets.vtm.packs.house_ranged.events import BurstShared
from conteur.store import Store
from conteur.web.view import word

from .conftest import csrf_of

HX = {"hx-request": "true"}
PACK_KINDS = ("short_burst", "called_shot", "careful_shot", "suppressive_fire")


def npc(cid: str, side: str, x: int, **traits: object) -> dict[str, object]:
    return {"id": cid, "side": side, "position": [x, 0], "sheet": {"name": cid.title(), **traits}}


def test_a_pack_shot_through_the_forms(gm: TestClient, store: Store) -> None:
    campaign = store.create_campaign("Port", "vtm", packs=["house_ranged"], era="modern")
    shooter = npc("vic", "police", 0, dexterity=3, firearms=2, wits=5, weapons=["heavy_pistol"])
    target = npc("dario", "gang", 12, wits=1, stamina=2)
    enc = store.start_encounter(campaign.id, "Quai", [], npcs=[shooter, target])
    page_url = f"/e/{enc.id}"
    csrf = csrf_of(gm.get(page_url).text)

    def form(expect_form: str, **values: str) -> str:
        page = gm.get(f"{page_url}/panel").text
        assert f'data-form="{expect_form}"' in page, f"{expect_form} not offered now"
        kind, _, actor = expect_form.partition(":")
        data = {"csrf": csrf, "type": kind, "actor": actor, **values}
        r = gm.post(f"{page_url}/command", data=data, headers=HX)
        assert r.status_code == 200, r.text
        return r.text

    form("initiative:", faces="5 5")
    form("declare:dario", kind="other")
    panel = gm.get(f"{page_url}/panel").text
    for kind in PACK_KINDS:
        assert f'value="{kind}"' in panel, kind  # offered in the declaration's choices
    assert 'value="three_round_burst"' not in panel and 'value="aim"' not in panel
    form("declare:vic", kind="called_shot", target="dario", location="head")
    form("act:vic", faces="8 8 2 2 2  8 8 8 8 8 8 2 2")
    state = store.encounter(enc.id).state
    assert state.fighters["dario"].fate == "dead"  # type: ignore[attr-defined]
    page = gm.get(page_url).text
    assert "R-CALL-1" in page and "R-CALL-2" in page


def test_pack_commands_and_words_are_labelled_in_both_languages(store: Store) -> None:
    """cmd.* / param.* / word.* labels for what the pack offers, in French and English."""
    campaign = store.create_campaign("Port", "vtm", packs=["house_ranged"], era="modern")
    shooter = npc("vic", "police", 0, dexterity=3, firearms=2, weapons=["heavy_pistol"])
    enc = store.start_encounter(campaign.id, "Quai", [], npcs=[shooter, npc("d", "g", 5)])
    live = store.encounter(enc.id)
    templates = live.legal_commands()
    for fid in live.end_state():
        templates += live.legal_commands(fid)
    known = set(catalog())
    for tp in templates:
        assert {f"web.cmd.{tp.type}", f"cmd.{tp.type}"} & known, tp.type
        for p in tp.params:
            assert {f"web.param.{p.name}", f"param.{p.name}"} & known, p.name
    for kind in PACK_KINDS:
        assert f"word.{kind}" in known
        assert word(kind, "fr") != word(kind, "en")


def test_R_BURST_1_a_burst_on_several_targets_split_through_the_form(
    gm: TestClient, store: Store
) -> None:
    """R-BURST-1: the declaration form takes a short burst's other targets and the shooter's
    split (ids, one success each in turn): 3 successes split "dario, dario, rosa" give dario
    2 (4 + 1 = 5 damage dice) and rosa 1 (4 dice); a split on a single shot is refused."""
    campaign = store.create_campaign("Port", "vtm", packs=["house_ranged"], era="modern")
    shooter = npc("vic", "police", 0, dexterity=3, firearms=2, wits=5, weapons=["small_smg"])
    dario = npc("dario", "gang", 12, wits=1, stamina=2)
    rosa = npc("rosa", "gang", 13, wits=1, stamina=2)
    enc = store.start_encounter(campaign.id, "Quai", [], npcs=[shooter, dario, rosa])
    page_url = f"/e/{enc.id}"
    csrf = csrf_of(gm.get(page_url).text)

    def post(command: str, actor: str, ok: bool = True, **values: str) -> str:
        data = {"csrf": csrf, "type": command, "actor": actor, **values}
        r = gm.post(f"{page_url}/command", data=data, headers=HX)
        assert (r.status_code == 200) == ok, r.text
        return r.text

    post("initiative", "", faces="5 5 5")
    post("declare", "rosa", kind="other")
    post("declare", "dario", kind="other")
    panel = gm.get(f"{page_url}/panel").text
    assert 'name="targets"' in panel and 'name="split"' in panel  # the form's fields
    refused = post("declare", "vic", ok=False, kind="shoot", target="dario", split="dario")
    assert "R-BURST-1" in refused
    live = store.encounter(enc.id)
    assert live.state.fighters["vic"].progress.declaration is None  # type: ignore[attr-defined]
    post(
        "declare",
        "vic",
        kind="short_burst",
        target="dario",
        targets="rosa",
        split="dario, dario, rosa",
    )
    post("act", "vic", faces="8 8 8 2 2 2 2 2  2 2 2 2 2  2 2 2 2")
    events = store.encounter(enc.id).events()
    assert dict(events.one(BurstShared).shares) == {"dario": 2, "rosa": 1}
    assert {e.target: e.pool for e in events.of(DamageRolled)} == {"dario": 5, "rosa": 4}
