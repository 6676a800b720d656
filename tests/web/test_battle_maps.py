"""The hunter and western battle maps through the tracker's routes: the GM's page draws the
map in the ruleset's unit (yards, metres) with every token, the players' page the same map
without the hidden combatant; a token placed by the GM is the ruleset's place command
(logged, undone by the page's undo), a player's drag the same command for their own
character only; the formation the encounter started in, by side."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from conteur.store import Participant, Store

from .conftest import csrf_of

HX = {"hx-request": "true"}


@dataclass(frozen=True)
class Case:
    ruleset: str
    unit: str
    sheets: tuple[dict[str, Any], dict[str, Any], dict[str, Any]]
    """The player's character, an adversary, a hidden adversary."""


HUNTER = {"force": 2, "dextérité": 3, "vigueur": 2, "astuce": 3, "calme": 3, "armes à feu": 3}
WESTERN = {
    "characteristics": {"FORCE": 12, "RÉSISTANCE": 10, "CONSTITUTION": 12, "RAPIDITÉ": 10},
    "skills": {"tir visé au pistolet": 56, "tir instinctif au pistolet": 40},
    "weapons": ["colt_saa"],
}
CASES = {
    "hunter": Case(
        "hunter",
        "yd",
        (
            {**HUNTER, "id": "ana", "nom": "Ana", "arme": "light_revolver"},
            {**HUNTER, "id": "bete", "nom": "la Bête", "type": "monstre"},
            {**HUNTER, "id": "goule", "nom": "la Goule", "type": "monstre"},
        ),
    ),
    "western": Case(
        "western",
        "m",
        (
            {**WESTERN, "id": "ana", "name": "Ana"},
            {**WESTERN, "id": "bete", "name": "Joe"},
            {**WESTERN, "id": "goule", "name": "Sam"},
        ),
    ),
}


def _tokens(page: str) -> dict[str, tuple[float, float]]:
    found = re.findall(r'data-fighter="([^"]+)" data-x="([^"]+)" data-y="([^"]+)"', page)
    return {fid: (float(x), float(y)) for fid, x, y in found}


@pytest.fixture(params=sorted(CASES))
def fight(request: pytest.FixtureRequest, store: Store) -> tuple[Case, int, str]:
    """A campaign of the case's ruleset whose players move their own token, an encounter
    with no position given: the player's character, an adversary, a hidden one."""
    case = CASES[request.param]
    c = store.create_campaign("Carte", case.ruleset, settings={"player_moves": True})
    ids = [store.add_character(c.id, s).id for s in case.sheets]
    info = store.start_encounter(
        c.id,
        "Nuit",
        [
            Participant(ids[0], side="nous"),
            Participant(ids[1], side="eux"),
            Participant(ids[2], side="eux", extra={"hidden": True}),
        ],
    )
    return case, info.id, store.get_character(ids[0]).token


def test_the_map_on_the_gm_and_player_pages(
    fight: tuple[Case, int, str], gm: TestClient, stranger: TestClient, store: Store
) -> None:
    case, eid, player = fight
    page = gm.get(f"/e/{eid}").text
    assert f'data-unit="{case.unit}"' in page
    # The default formation: a line per side, 10 units apart.
    assert _tokens(page) == {"ana": (0, 0), "bete": (0, 10), "goule": (2, 10)}
    assert 'data-fighter="goule"' in page and "hidden-token" in page
    mine = stranger.get(f"/p/{player}").text
    assert _tokens(mine) == {"ana": (0, 0), "bete": (0, 10)}  # no trace of the hidden one
    assert "goule" not in mine and 'data-movable="ana"' in mine


def test_a_token_placed_by_the_gm_is_the_rulesets_command_and_is_undone(
    fight: tuple[Case, int, str], gm: TestClient, store: Store
) -> None:
    _, eid, _ = fight
    csrf = csrf_of(gm.get(f"/e/{eid}").text)
    place = {"csrf": csrf, "type": "gm_place", "actor": "", "fighter": "bete", "to": "30,0"}
    r = gm.post(f"/e/{eid}/command", data=place, headers=HX)
    assert r.status_code == 200, r.text
    assert _tokens(r.text)["bete"] == (30, 0)
    assert store.last_seq(eid) == 0
    where = store.read_encounter(eid, lambda enc: enc.ruleset.positions(enc.state))
    assert where["bete"] == (30.0, 0.0)
    r = gm.post(f"/e/{eid}/command", data={**place, "to": "ailleurs"}, headers=HX)
    assert r.status_code == 422 and store.last_seq(eid) == 0  # refused, nothing logged
    r = gm.post(f"/e/{eid}/undo", data={"csrf": csrf, "seq": "0"}, headers=HX)
    assert r.status_code == 200, r.text
    assert _tokens(gm.get(f"/e/{eid}").text)["bete"] == (0, 10)


def test_a_player_places_their_own_token_only(
    fight: tuple[Case, int, str], stranger: TestClient, store: Store
) -> None:
    _, eid, player = fight
    csrf = csrf_of(stranger.get(f"/p/{player}").text)
    r = stranger.post(f"/p/{player}/move", data={"csrf": csrf, "to": "3,4", "fighter": "bete"})
    assert r.status_code == 200, r.text
    where = store.read_encounter(eid, lambda enc: enc.ruleset.positions(enc.state))
    assert where["ana"] == (3.0, 4.0) and where["bete"] == (0.0, 10.0)


def test_tokens_on_one_spot_are_drawn_apart(
    fight: tuple[Case, int, str], gm: TestClient, store: Store
) -> None:
    """Two combatants placed on one spot keep it (data-x, data-y: the rules' place) but are
    drawn on a small circle around it, neither hiding the other."""
    _, eid, _ = fight
    csrf = csrf_of(gm.get(f"/e/{eid}").text)
    place = {"csrf": csrf, "type": "gm_place", "actor": "", "fighter": "bete", "to": "0,0"}
    page = gm.post(f"/e/{eid}/command", data=place, headers=HX).text
    assert _tokens(page)["bete"] == _tokens(page)["ana"] == (0, 0)
    drawn = dict(
        re.findall(r'data-fighter="([^"]+)"[^>]*transform="translate\(([^)]+)\)" data-apart', page)
    )
    assert set(drawn) == {"ana", "bete"}, drawn
    spots = {fid: tuple(float(v) for v in xy.split()) for fid, xy in drawn.items()}
    assert spots["ana"] != spots["bete"]
    box = re.search(r'<svg viewBox="[^ ]+ [^ ]+ ([^ ]+) [^"]+"', page)
    assert box
    scale = min(1.0, float(box.group(1)) / 24)  # a small grid: tokens keep their screen size
    for x, y in spots.values():
        assert abs((x * x + y * y) ** 0.5 - 0.8 * scale) < 0.01  # SPREAD around the spot
    assert 'data-fighter="goule"' in page and "data-apart" not in page.split('"goule"')[1][:200]


def test_the_hidden_combatant_placed_leaves_no_trace_for_players(
    fight: tuple[Case, int, str], gm: TestClient, stranger: TestClient
) -> None:
    case, eid, player = fight
    csrf = csrf_of(gm.get(f"/e/{eid}").text)
    place = {"csrf": csrf, "type": "gm_place", "actor": "", "fighter": "goule", "to": "5,5"}
    assert gm.post(f"/e/{eid}/command", data=place, headers=HX).status_code == 200
    assert _tokens(gm.get(f"/e/{eid}").text)["goule"] == (5, 5)
    mine = stranger.get(f"/p/{player}").text
    hidden_name = case.sheets[2].get("nom") or case.sheets[2]["name"]
    assert "goule" not in mine and hidden_name not in mine
    assert "(5, 5)" not in mine  # not even the line of the move


@pytest.mark.parametrize(
    ("name", "letters"),
    [
        ("la Bête", "B"),
        ("Sam le barman", "S"),
        ("Ézéchiel Crowe", "ÉC"),
        ("Jean-Luc de la Tour", "JL"),
        ("the goon", "TG"),
        ("Doc Holliday", "DH"),
        ("42", "42"),
    ],
)
def test_a_tokens_letters_skip_the_small_words_of_a_name(name: str, letters: str) -> None:
    """A token's initials come from the capitalised words of the name when it has some:
    « la Bête » and « la Goule » read « B » and « G », not « LB » and « LG »."""
    from conteur.web.battlemap import _initials

    assert _initials(name) == letters
