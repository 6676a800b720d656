"""The odds panel offers the options that change an attack's odds (the ruleset's
``odds_toggles``) and shows exactly what ``attack_odds`` gives with them."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from conteur.i18n import percent
from conteur.store import Participant, Store

DOC = "nom: Doc Holliday\ntype: mortel\nDextérité: 4\nArmes à feu: 4\nPerception: 3\nVolonté: 5\narmes: [colt]\n"


@pytest.fixture
def duel(store: Store) -> int:
    """Doc Holliday, a Colt in hand, ten metres from Jack Malone."""
    doc = store.import_characters(1, DOC, "yaml")[0]
    jack = next(c for c in store.list_characters(1) if c.name == "Jack Malone")
    info = store.start_encounter(
        1,
        "Duel",
        [
            Participant(doc.id, side="doc", position=[0, 0]),
            Participant(jack.id, side="cow-boys", position=[10, 0]),
        ],
    )
    return info.id


def shown(html: str, what: str) -> str:
    found = re.search(rf'data-odds="{what}">([^<]+)<', html)
    assert found, html[:500]
    return found.group(1)


def test_toggling_cover_changes_the_odds_as_attack_odds_does(
    gm: TestClient, store: Store, duel: int
) -> None:
    url = f"/e/{duel}/odds"
    base = {"attacker": "doc_holliday", "target": "jack_malone", "maneuver": "shoot"}
    r = gm.get(url, params=base)
    assert r.status_code == 200, r.text
    for name in ("opt_target_cover", "opt_aim_turns", "opt_targeting", "opt_actions"):
        assert f'name="{name}"' in r.text
    # the choices in the reader's language, as a list says them; the empty one in words
    assert re.findall(r'<option value="cover_good"[^>]*>([^<]*)<', r.text) == ["Bon couvert"]
    assert re.findall(r'<option value="">([^<]*)<', r.text)[:1] == ["Son couvert actuel"]
    enc = store.encounter(duel)
    plain = enc.ruleset.attack_odds(enc.state, "doc_holliday", "jack_malone", "shoot")  # type: ignore[attr-defined]
    assert shown(r.text, "hit") == percent(plain.p_hit, "fr")

    r = gm.get(url, params={**base, "opt_": "1", "opt_target_cover": "cover_good"})
    assert r.status_code == 200, r.text
    covered = enc.ruleset.attack_odds(  # type: ignore[attr-defined]
        enc.state, "doc_holliday", "jack_malone", "shoot", params={"target_cover": "cover_good"}
    )
    assert covered.p_hit < plain.p_hit  # V-RNG-3: good cover is +2 difficulty
    assert shown(r.text, "hit") == percent(covered.p_hit, "fr")
    assert re.search(r'<option value="cover_good" selected>', r.text)  # the choice stays shown

    r = gm.get(url, params={**base, "opt_": "1", "opt_aim_turns": "2"})
    aimed = enc.ruleset.attack_odds(  # type: ignore[attr-defined]
        enc.state, "doc_holliday", "jack_malone", "shoot", params={"aim_turns": 2}
    )
    assert aimed.p_hit > plain.p_hit and shown(r.text, "hit") == percent(aimed.p_hit, "fr")
    assert enc.state.fighters["jack_malone"].cover == 0  # type: ignore[attr-defined]  # a what-if only


def test_bad_toggles_are_refused(gm: TestClient, duel: int) -> None:
    base = {"attacker": "doc_holliday", "target": "jack_malone", "maneuver": "shoot", "opt_": "1"}
    for bad in ({"opt_target_cover": "bunker"}, {"opt_aim_turns": "99"}, {"opt_actions": "x"}):
        r = gm.get(f"/e/{duel}/odds", params={**base, **bad})
        assert r.status_code == 400 and 'class="message error"' in r.text


def test_the_player_odds_follow_toggles_too(stranger: TestClient, store: Store, duel: int) -> None:
    token = next(c.token for c in store.list_characters(1) if c.name == "Doc Holliday")
    params = {
        "target": "jack_malone",
        "maneuver": "shoot",
        "opt_": "1",
        "opt_target_cover": "cover_superior",
    }
    r = stranger.get(f"/p/{token}/odds", params=params)
    assert r.status_code == 200, r.text
    enc = store.encounter(duel)
    odds = enc.ruleset.attack_odds(  # type: ignore[attr-defined]
        enc.state, "doc_holliday", "jack_malone", "shoot", params={"target_cover": "cover_superior"}
    )
    assert shown(r.text, "hit") == percent(odds.p_hit, "fr")
    assert f'hx-get="/p/{token}/odds"' in r.text  # the options ask the player's own route
