"""The tracker plays one fight per ruleset — vtm, hunter, western and the toy duel of
``tests/plugins`` — through its HTTP forms only: the game master creates the campaign,
pastes the characters, starts the encounter and the fight, has everyone declare when the
ruleset has declarations, and plays the due fighter's attack with faces that hit; the GM's
page and each player's page then show what the ruleset's roster view says
(``tests/ruleset_fights.py``: the same table as the command-line tests)."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from conteur.engine import Command
from conteur.store import Store
from ruleset_fights import FIGHTS, hitting_faces, line, table_rolls

from .conftest import csrf_of

HX = {"hx-request": "true"}


def _due(store: Store, eid: int) -> str:
    enc = store.encounter(eid)
    due = enc.ruleset.turn_view(enc.state).due
    assert due, "nobody is due"
    return due[0]


def _cell(page: str, pattern: str) -> str:
    found = re.search(pattern, page, re.S)
    assert found, pattern
    return html.unescape(found.group(1)).strip()


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("ruleset", list(FIGHTS))
def test_a_fight_through_the_gms_and_the_players_pages(
    gm: TestClient, stranger: TestClient, store: Store, ruleset: str, lang: str
) -> None:
    fight = FIGHTS[ruleset]
    gm.get(f"/lang/{lang}")
    csrf = csrf_of(gm.get("/").text)
    r = gm.post(
        "/campaigns",
        data={"csrf": csrf, "name": f"{ruleset} {lang}", "ruleset": ruleset},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    cid = int(r.headers["location"].rsplit("/", 1)[1])
    r = gm.post(
        f"/c/{cid}/characters", data={"csrf": csrf, "text": fight.sheets}, follow_redirects=False
    )
    assert r.status_code == 303, r.text
    chars = store.list_characters(cid)
    assert len(chars) == 2
    form: dict[str, object] = {
        "csrf": csrf,
        "name": "Duel",
        "characters": [str(c.id) for c in chars],
    }
    form |= {f"side_{c.id}": f"side{i}" for i, c in enumerate(chars)}
    r = gm.post(f"/c/{cid}/encounters", data=form, follow_redirects=False)
    assert r.status_code == 303, r.text
    eid = int(r.headers["location"].rsplit("/", 1)[1])
    ids = list(store.encounter(eid).ruleset.names(store.encounter(eid).state))

    def post(command: Command, faces: str) -> None:
        values = {"type": command.type, "actor": command.actor or "", **command.args}
        r = gm.post(f"/e/{eid}/command", data={"csrf": csrf, **values, "faces": faces}, headers=HX)
        assert r.status_code == 200, r.text

    def pattern(sides: int, n: int) -> int:
        return 1 + (n * 3 + 6) % max(sides - 1, 1)

    begin = Command(fight.begin)
    post(begin, line(table_rolls(store.encounter(eid), begin, pattern)))
    if fight.declare is not None:
        for _ in ids:
            fid = _due(store, eid)
            other = next(i for i in ids if i != fid)
            post(Command("declare", fid, fight.declare(other)), "")
    actor = _due(store, eid)
    target = next(i for i in ids if i != actor)
    before = store.encounter(eid).ruleset.roster(store.encounter(eid).state).row(target)
    # The current action's card: the due fighter (the turn view's), with its attack's form
    # and, for an attack it declared, the odds of it as declared — not a refusal.
    panel = gm.get(f"/e/{eid}/panel").text
    card = panel.split(f'data-current="{actor}"', 1)[1].split("</section>", 1)[0]
    assert f'data-form="{fight.action}:{actor}"' in card
    odds = re.search(r'hx-get="([^"]+)" hx-trigger="load"', card)
    assert (odds is not None) == (fight.declare is not None), card
    if odds is not None:
        r = gm.get(html.unescape(odds.group(1)))
        assert r.status_code == 200 and 'data-odds="hit"' in r.text, r.text
    attack = Command(fight.action, actor, fight.args(target))
    post(attack, hitting_faces(store.encounter(eid), attack, target))
    enc = store.encounter(eid)
    assert enc.log[-1].to_dict()["command"]["type"] == fight.action
    roster = enc.ruleset.roster(enc.state)
    row = roster.row(target)
    assert row.health != before.health and row.status != "unhurt"

    # The GM's page: each row's status and health as the roster view gives them.
    page = gm.get(f"/e/{eid}").text
    for r_ in roster.rows:
        tr = _cell(page, rf'<tr data-fighter="{r_.id}" data-status="([^"]+)"')
        assert tr == r_.status
        track = _cell(page, rf'<tr data-fighter="{r_.id}".*?<td class="track"[^>]*>([^<]*)<')
        assert track == r_.health.text(lang)
    columns = re.findall(r'<th data-column="([^"]+)">', page)
    assert columns == [c.key for c in roster.columns]  # the ruleset's own columns

    # Each player's page: their own row, and the others' status as a word.
    for char in chars:
        me = store.encounter(eid).ruleset.roster(enc.state).row(char.slug)
        stranger.get(f"/lang/{lang}")
        mine = stranger.get(f"/p/{char.token}").text
        assert _cell(mine, r'class="card me"[^>]*data-status="([^"]+)"') == me.status
        assert _cell(mine, r'class="card me".*?<span class="track"[^>]*>([^<]*)<') == (
            me.health.text(lang)
        )
        other = next(r_ for r_ in roster.rows if r_.id != char.slug)
        said = _cell(mine, rf'<li data-fighter="{other.id}">.*?data-status="([^"]+)"')
        assert said == other.status
