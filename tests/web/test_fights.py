"""During and after a fight, through the tracker's routes (SQLite and PostgreSQL): bringing a
combatant in (a campaign character, an archetype, a quick NPC), taking one out, redo after
undo (the seq the page showed, a stale one refused with the fresh state), and the summary
on the closed encounter's page."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from fastapi.testclient import TestClient

from conteur.engine import CommandEntry, UndoEntry
from conteur.engine.report import fight_report, luck_text
from conteur.i18n import ConteurError, t
from conteur.store import Participant, Store

from .conftest import csrf_of
from .test_api import DEMO, HX, command, gm_csrf, initiative, log_len


def _message(page: str) -> str:
    found = re.search(r'<p class="message error" role="alert">(.*?)</p>', page, re.S)
    assert found, "no refusal in the answer"
    return html_lib.unescape(found.group(1))


def _order(store: Store) -> list[str]:
    enc = store.encounter(DEMO)
    return [fid for slot in enc.ruleset.turn_view(enc.state).order for fid in slot.ids]


def _join(gm: TestClient, csrf: str, **values: str) -> object:
    return gm.post(f"/e/{DEMO}/join", data={"csrf": csrf, **values}, headers=HX)


def test_bring_in_an_archetype_and_a_quick_npc_then_take_one_out(
    gm: TestClient, store: Store
) -> None:
    csrf = gm_csrf(gm)
    page = gm.get(f"/e/{DEMO}").text
    offered = re.findall(r'<option value="(a:[^"]+|c:\d+|q)"', page)
    assert "a:thug" in offered and "q" in offered
    assert not [o for o in offered if o.startswith("c:")]  # every character already fights
    initiative(gm, csrf)
    r = _join(gm, csrf, who="a:thug", name="Le Renfort", side="saloon")
    assert r.status_code == 200, _message(r.text)  # type: ignore[attr-defined]
    enc = store.encounter(DEMO)
    names = enc.ruleset.names(enc.state)
    assert names["le-renfort"] == "Le Renfort"
    row = enc.ruleset.roster(enc.state).row("le-renfort")
    assert row.side == "saloon"
    assert "le-renfort" not in _order(store)  # V-INI-1: it rolls at the next turn
    assert 'data-fighter="le-renfort"' in r.text  # type: ignore[attr-defined]
    # A quick NPC, its numbers checked: a number out of range is refused, naming it.
    before = log_len(store)
    r = _join(gm, csrf, who="q", name="Bob", npc_attack="99")
    assert r.status_code == 422  # type: ignore[attr-defined]
    assert "attack" in _message(r.text) and "99" in _message(r.text)  # type: ignore[attr-defined]
    assert log_len(store) == before
    r = _join(gm, csrf, who="q", name="Bob", side="saloon", npc_attack="3")
    assert r.status_code == 200  # type: ignore[attr-defined]
    assert "bob" in store.encounter(DEMO).ruleset.names(store.encounter(DEMO).state)
    # Taking Sam out: off the order at once, still on the roster, out of the fight.
    assert "sam" in _order(store)
    r = command(gm, csrf, type="withdraw", actor="", fighter="sam")
    assert r.status_code == 200  # type: ignore[attr-defined]
    assert "sam" not in _order(store)
    enc = store.encounter(DEMO)
    assert enc.ruleset.roster(enc.state).row("sam").fate == "withdrawn"
    last = enc.log[-1]
    assert isinstance(last, CommandEntry) and last.command.type == "withdraw"


def test_a_campaign_character_joins_once_and_is_written_back(gm: TestClient, store: Store) -> None:
    """A character added to the campaign joins the fight under way, linked like the others:
    twice is refused; closing writes its state back."""
    csrf = gm_csrf(gm)
    campaign_page = gm.get(f"/c/{DEMO}").text
    r = gm.post(
        f"/c/{DEMO}/characters",
        data={
            "csrf": csrf_of(campaign_page),
            "text": "name: Doc Holloway\nkind: mortal\nattributes: {dexterity: 3, wits: 3}\n",
        },
    )
    assert r.status_code in (200, 303), r.text
    doc = next(c for c in store.list_characters(DEMO) if c.name == "Doc Holloway")
    page = gm.get(f"/e/{DEMO}").text
    assert f'<option value="c:{doc.id}"' in page
    r = _join(gm, csrf, who=f"c:{doc.id}", side="cow-boys")
    assert r.status_code == 200, _message(r.text)  # type: ignore[attr-defined]
    assert store.get_encounter(DEMO).characters[doc.slug] == doc.id
    r = _join(gm, csrf, who=f"c:{doc.id}", side="cow-boys")
    assert r.status_code == 422  # type: ignore[attr-defined]
    assert "Doc Holloway" in _message(r.text)  # type: ignore[attr-defined]
    # Through the store as well: the same refusal.
    before = log_len(store)
    with pytest.raises(ConteurError) as err:
        store.add_combatant(DEMO, participant=Participant(doc.id))
    assert err.value.key == "store.encounter.twice"
    assert log_len(store) == before
    version = doc.version
    store.close_encounter(DEMO)
    after = next(c for c in store.list_characters(DEMO) if c.id == doc.id)
    assert after.version == version + 1


def test_redo_names_the_seq_the_page_showed(gm: TestClient, store: Store) -> None:
    csrf = gm_csrf(gm)
    initiative(gm, csrf)
    assert 'id="redo-button"' not in gm.get(f"/e/{DEMO}").text  # nothing undone yet
    undone = store.encounter(DEMO).log[-1]
    assert isinstance(undone, CommandEntry)
    seq = log_len(store) - 1
    r = gm.post(f"/e/{DEMO}/undo", data={"csrf": csrf, "seq": str(seq)}, headers=HX)
    assert r.status_code == 200 and 'id="redo-button"' in r.text
    shown = re.search(r'data-form="redo">.*?name="seq" value="(\d+)"', r.text, re.S)
    assert shown and int(shown.group(1)) == seq + 1
    # A stale page (it showed the state before the undo): refused, with the fresh state.
    r = gm.post(f"/e/{DEMO}/redo", data={"csrf": csrf, "seq": str(seq)}, headers=HX)
    assert r.status_code == 409
    assert _message(r.text).startswith("Quelqu'un a agi entre-temps")
    assert "rien n'a été refait" in _message(r.text)
    assert 'id="redo-button"' in r.text and log_len(store) == seq + 2
    # The page's own seq: the very events come back (the same dice, the same order).
    r = gm.post(f"/e/{DEMO}/redo", data={"csrf": csrf, "seq": str(seq + 1)}, headers=HX)
    assert r.status_code == 200
    redone = store.encounter(DEMO).log[-1]
    assert isinstance(redone, CommandEntry)
    assert redone.redoes == undone.seq and redone.events == undone.events
    assert "refait la commande n° " + str(undone.seq) in r.text
    assert 'id="redo-button"' not in r.text
    # After an undo, a new command: redo is refused, and says why.
    r = gm.post(f"/e/{DEMO}/undo", data={"csrf": csrf, "seq": str(seq + 2)}, headers=HX)
    assert isinstance(store.encounter(DEMO).log[-1], UndoEntry)
    command(gm, csrf, type="initiative", actor="", faces="1 1 1 1")
    r = gm.post(f"/e/{DEMO}/redo", data={"csrf": csrf, "seq": str(log_len(store) - 1)}, headers=HX)
    assert r.status_code == 422
    assert "une nouvelle action a été enregistrée" in _message(r.text)


def test_the_summary_on_the_closed_encounter_page(gm: TestClient, store: Store) -> None:
    csrf = gm_csrf(gm)
    initiative(gm, csrf)
    command(gm, csrf, type="gm_damage", actor="", fighter="jack", levels="2", damage_type="lethal")
    assert "data-report" not in gm.get(f"/e/{DEMO}").text  # not while the fight goes on
    expected = fight_report(store.encounter(DEMO))
    gm.post(f"/e/{DEMO}/close", data={"csrf": csrf})
    for lang in ("fr", "en"):
        gm.get(f"/lang/{lang}?next=/")
        page = gm.get(f"/e/{DEMO}").text
        assert "data-report" in page
        # The fight is over: said where the turn was, and no turn, phase nor fighter due.
        over = re.search(r'<p class="turn" data-phase data-over><strong>([^<]*)</strong>', page)
        assert over and over.group(1) == t("web.status.closed", lang)
        assert "data-due" not in page and '<p class="turn" data-phase>' not in page
        for f in expected.fighters:
            row = re.search(rf'<tr data-fighter="{re.escape(f.name)}">(.*?)</tr>', page, re.S)
            assert row, f.name
            cells = re.findall(r'<td class="num">([^<]*)</td>', row.group(1))
            numbers = [str(n) for n in (f.attacks, f.hits, f.dealt, f.taken, f.rolls)]
            assert cells == [*numbers, luck_text(f.luck, lang)]
        jack = expected.fighter("jack")
        assert (jack.taken, jack.rolls) == (2, 1)
        assert re.search(r'<tr data-side="cow-boys">', page)
    gm.get("/lang/fr?next=/")
