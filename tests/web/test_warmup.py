"""A server warms up before its first page: templates compiled, rule catalogues read, each
open encounter drawn once for its game master (``create_app(..., warm=True)``, what
``conteur serve`` builds), so the first page after a restart is not the slow one."""

from __future__ import annotations

from fastapi.testclient import TestClient

from conteur.engine.rules import all_rule_texts
from conteur.i18n import ConteurError
from conteur.store import Participant, Store
from conteur.web import create_app
from conteur.web.templating import package_templates
from conteur.web.warmup import LIMIT, warm_up


def html_templates() -> int:
    return len(package_templates().list_templates(filter_func=lambda n: n.endswith(".html")))


def test_the_served_app_draws_each_open_encounter_before_its_first_request(store: Store) -> None:
    campaign = store.list_campaigns()[0]
    opened = store.list_encounters(campaign.id, status="open")
    assert len(opened) == 1  # the demo's fight
    characters = store.list_characters(campaign.id)[:2]
    ended = store.start_encounter(
        campaign.id, "Déjà fini", [Participant(c.id, "alliés") for c in characters]
    )
    store.close_encounter(ended.id)
    app = create_app(store, warm=True)
    with TestClient(app):
        assert app.state.warmed == (html_templates(), len(all_rule_texts()), 1)


def test_a_test_app_skips_the_warm_up(store: Store) -> None:
    app = create_app(store)
    with TestClient(app):
        assert not hasattr(app.state, "warmed")


def test_the_newest_open_encounters_are_drawn_and_an_unreadable_one_skipped(
    store: Store,
) -> None:
    campaign = store.list_campaigns()[0]
    characters = store.list_characters(campaign.id)[:2]
    started = [
        store.start_encounter(
            campaign.id, f"Scène {n}", [Participant(c.id, "alliés") for c in characters]
        ).id
        for n in range(LIMIT + 1)
    ]
    newest = sorted(
        (e.id for e in store.list_encounters(campaign.id, status="open")), reverse=True
    )[:LIMIT]
    drawn: list[int] = []

    def draw(eid: int) -> None:
        drawn.append(eid)
        if eid == started[-1]:
            raise ConteurError("engine.unknown_ruleset", name="?", known="")

    templates, rules, count = warm_up(store, draw)
    assert drawn == newest
    assert count == LIMIT - 1  # the newest one refused to be drawn: skipped, said when opened
    assert (templates, rules) == (html_templates(), len(all_rule_texts()))
