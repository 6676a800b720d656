"""The saloon brawl of examples/ played whole through the GM's forms (and a few typed lines),
with the table's dice, on SQLite and on PostgreSQL: the result is the one ``conteur play``
gives for the same script.

It covers what the tracker must offer exactly when the rules allow it: declarations from
the slowest, a delayed action that interrupts, a second declared action (block), a botch
and its complication, and a defence that aborts the declared action with Willpower.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from conteur.engine.script import play_script, script_lines, start, typed_dice
from conteur.store import Store, open_store
from conteur.web import view
from conteur.web.demo import load_demo

from .conftest import GM_PASSWORD, csrf_of

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HX = {"hx-request": "true"}


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """The demo on SQLite and on PostgreSQL (this test overrides the SQLite-only fixture)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'saloon.db'}"
    else:
        url = request.getfixturevalue("pg_cluster").new_database()
    s = open_store(url)
    load_demo(s)
    yield s
    s.close()


@pytest.fixture
def gm_token(store: Store) -> str:
    store.set_gm_password(GM_PASSWORD)
    return store.new_gm_token()


def test_the_saloon_through_the_forms_equals_the_script(gm: TestClient, store: Store) -> None:
    csrf = csrf_of(gm.get("/e/1").text)

    def form(expect_form: str, **values: str) -> str:
        page = gm.get("/e/1/panel").text
        assert f'data-form="{expect_form}"' in page, f"{expect_form} not offered now"
        kind, _, actor = expect_form.partition(":")
        r = gm.post(
            "/e/1/command", data={"csrf": csrf, "type": kind, "actor": actor, **values}, headers=HX
        )
        assert r.status_code == 200, r.text
        return r.text

    def line(text: str, faces: str = "") -> None:
        r = gm.post("/e/1/script", data={"csrf": csrf, "line": text, "faces": faces}, headers=HX)
        assert r.status_code == 200, r.text

    line("mj: note Jack renverse le whisky de l'étranger ; Billy sort son couteau.")
    # turn 1
    form("initiative:", faces="5 3 5 8")
    form("declare:billy", kind="weapon_strike", target="ezechiel", weapon="knife")
    form("declare:sam", delay="1")
    form("declare:jack", kind="punch", target="ezechiel", then_kind="block")
    form("declare:ezechiel", kind="punch", target="jack")
    form("act:ezechiel", faces="9 8 7 4 2 6  8 3 2 5  7 8 2 4 3  6 2 4")
    form("act:sam", kind="weapon_strike", target="jack", faces="7 6 3 2 9  6 7 2 3 8 1 4  7 2 3")
    form("act:billy", faces="1 3 2 4 5")
    line("mj: complication billy hits_friend")
    form("gm_damage:", fighter="jack", levels="1", damage_type="lethal")
    form("act:jack", faces="8  6 4 9  7 3 2")
    # turn 2
    form("initiative:", faces="7 4 3 9")
    form("declare:sam", kind="weapon_strike", target="jack", then_kind="parry")
    form("declare:billy", kind="weapon_strike", target="ezechiel", weapon="knife")
    form("declare:jack", kind="punch", target="sam")
    form("declare:ezechiel", kind="punch", target="billy")
    page = gm.get("/e/1/panel").text
    assert 'data-form="defend:billy"' in page and 'name="abort"' in page  # abort offered
    form("defend:billy", kind="dodge", abort="point")
    form("act:ezechiel", faces="10 8 7 3 6 1  9 6 2 4")
    form("act:jack", faces="8 9 2 5  6 8 9")
    form("act:sam", faces="9 9  8 6 7 2 3 6  2 3 5")
    line("mj: note Le shérif entre, fusil à la main : la bagarre s'arrête là.")

    # The same fight from the script and the dice file, by the engine alone.
    enc = start(EXAMPLES / "saloon.yaml")
    played, failure = play_script(
        enc, script_lines(EXAMPLES / "saloon.txt"), typed_dice(EXAMPLES / "saloon.dice"), "fr"
    )
    assert failure is None
    web = store.encounter(1)
    keys = ("id", "health", "penalty", "fate", "willpower", "blood")
    assert [{k: r[k] for k in keys} for r in web.ruleset.summary(web.state)] == [  # type: ignore[attr-defined]
        {k: r[k] for k in keys}
        for r in enc.ruleset.summary(enc.state)  # type: ignore[attr-defined]
    ]
    assert len(web.log) == len(played)
    rules = [sorted(e.rules) for entry in web.active() for e in entry.events]
    assert rules == [sorted(e.rules) for entry in enc.active() for e in entry.events]
    page = gm.get("/e/1").text
    assert "V-MAN-3" in page  # the abort's rule id is in the log
    assert 'data-faces="9 8 7 4 2 6"' in page  # Ézéchiel's first attack, die by die
    assert view.word("incapacitated", "fr") in page  # Jack's health level, in words
