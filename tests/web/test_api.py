"""Every route of the web app, refusals included: 401 without the GM's session, 403 on a bad
CSRF token, 404 for unknown links, and a clear message with nothing changed on bad input."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from conteur.store import Store

from .conftest import csrf_of

HX = {"hx-request": "true"}
DEMO = 1  # the demo's campaign and encounter ids


def gm_csrf(gm: TestClient) -> str:
    return csrf_of(gm.get(f"/e/{DEMO}").text)


def log_len(store: Store) -> int:
    return store.last_seq(DEMO) + 1


def command(gm: TestClient, csrf: str, **values: str) -> object:
    return gm.post(f"/e/{DEMO}/command", data={"csrf": csrf, **values}, headers=HX)


def initiative(gm: TestClient, csrf: str) -> None:
    r = command(gm, csrf, type="initiative", actor="", faces="5 3 5 8")
    assert r.status_code == 200, r.text  # type: ignore[attr-defined]


# ------------------------------------------------------------------ the GM's secret


GM_GETS = [
    "/",
    f"/c/{DEMO}",
    f"/c/{DEMO}/export",
    "/characters/1/export",
    f"/e/{DEMO}",
    f"/e/{DEMO}/panel",
    f"/e/{DEMO}/odds?attacker=jack&target=sam",
    f"/e/{DEMO}/stream",
]
GM_POSTS = [
    "/campaigns",
    f"/c/{DEMO}/settings",
    f"/c/{DEMO}/characters",
    f"/c/{DEMO}/encounters",
    f"/e/{DEMO}/command",
    f"/e/{DEMO}/script",
    f"/e/{DEMO}/undo",
    f"/e/{DEMO}/close",
]


@pytest.mark.parametrize("path", GM_GETS)
def test_gm_pages_need_the_secret(stranger: TestClient, path: str) -> None:
    r = stranger.get(path)
    assert r.status_code == 401
    assert "Conteur" in r.text and 'lang="fr"' in r.text


@pytest.mark.parametrize("path", GM_POSTS)
def test_gm_posts_need_the_secret(stranger: TestClient, store: Store, path: str) -> None:
    r = stranger.post(path, data={"type": "initiative", "name": "x"})
    assert r.status_code == 401
    assert log_len(store) == 0 and len(store.list_campaigns()) == 1


def test_a_wrong_token_opens_nothing(stranger: TestClient) -> None:
    r = stranger.get("/?token=not-the-token", follow_redirects=False)
    assert r.status_code == 401
    assert "conteur_gm" not in r.headers.get("set-cookie", "")


def test_the_token_link_sets_an_httponly_cookie(stranger: TestClient, gm_token: str) -> None:
    r = stranger.get(f"/e/{DEMO}?token={gm_token}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/e/{DEMO}"
    cookie = r.headers["set-cookie"]
    assert "conteur_gm=" in cookie and "HttpOnly" in cookie and gm_token not in cookie
    assert stranger.get(f"/e/{DEMO}").status_code == 200


def test_a_forged_session_cookie_is_refused(stranger: TestClient) -> None:
    stranger.cookies.set("conteur_gm", "forged")
    assert stranger.get("/").status_code == 401


# ------------------------------------------------------------------ language


def test_french_by_default_english_by_the_switch(gm: TestClient) -> None:
    r = gm.get("/")
    assert '<html lang="fr">' in r.text and "Campagnes" in r.text
    r = gm.get("/lang/en?next=/", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    r = gm.get("/")
    assert '<html lang="en">' in r.text and "Campaigns" in r.text


def test_the_language_switch_does_not_redirect_elsewhere(gm: TestClient) -> None:
    r = gm.get("/lang/en?next=//evil.example", follow_redirects=False)
    assert r.headers["location"] == "/"


# ------------------------------------------------------------------ campaigns and characters


def test_campaigns_list_and_create(gm: TestClient, store: Store) -> None:
    r = gm.get("/")
    assert "Le Silver Dollar" in r.text
    csrf = csrf_of(r.text)
    r = gm.post(
        "/campaigns",
        data={"csrf": csrf, "name": "Chicago", "ruleset": "vtm", "player_input": "1"},
        follow_redirects=False,
    )
    assert r.status_code == 303
    created = [c for c in store.list_campaigns() if c.name == "Chicago"]
    assert created and created[0].settings["player_input"] is True


@pytest.mark.parametrize(
    "data",
    [
        {"name": "", "ruleset": "vtm"},
        {"name": "X", "ruleset": "nope"},
        {"name": "X", "ruleset": "vtm", "era": "3000"},
    ],
)
def test_bad_campaigns_are_refused_with_a_message(
    gm: TestClient, store: Store, data: dict[str, str]
) -> None:
    csrf = csrf_of(gm.get("/").text)
    r = gm.post("/campaigns", data={"csrf": csrf, **data})
    assert r.status_code == 400 and 'class="message error"' in r.text
    assert len(store.list_campaigns()) == 1


def test_bad_csrf_is_refused(gm: TestClient, store: Store) -> None:
    r = gm.post("/campaigns", data={"csrf": "0" * 64, "name": "X", "ruleset": "vtm"})
    assert r.status_code == 403 and "CSRF" in r.text
    r = gm.post("/campaigns", data={"name": "X", "ruleset": "vtm"})
    assert r.status_code == 403
    r = gm.post(f"/e/{DEMO}/command", json={"type": "initiative"})
    assert r.status_code == 403
    assert len(store.list_campaigns()) == 1 and log_len(store) == 0


def test_the_csrf_header_works_like_the_field(gm: TestClient, store: Store) -> None:
    csrf = gm_csrf(gm)
    r = gm.post(
        f"/e/{DEMO}/command",
        data={"type": "initiative", "faces": "5 3 5 8"},
        headers={**HX, "X-CSRF-Token": csrf},
    )
    assert r.status_code == 200 and log_len(store) == 1


def test_campaign_page_settings_and_unknown_campaigns(gm: TestClient, store: Store) -> None:
    r = gm.get(f"/c/{DEMO}")
    assert r.status_code == 200 and "Jack Malone" in r.text and "/p/" in r.text
    csrf = csrf_of(r.text)
    gm.post(f"/c/{DEMO}/settings", data={"csrf": csrf})
    assert store.get_campaign(DEMO).settings["player_input"] is False
    assert gm.get("/c/999").status_code == 404
    assert gm.get("/c/abc").status_code == 404


SHEET = "nom: Doc Holliday\ntype: mortel\nDextérité: 4\nArmes à feu: 4\nVolonté: 5\n"


def test_characters_import_and_export(gm: TestClient, store: Store) -> None:
    csrf = csrf_of(gm.get(f"/c/{DEMO}").text)
    r = gm.post(
        f"/c/{DEMO}/characters",
        data={"csrf": csrf, "format": "yaml", "text": SHEET},
        follow_redirects=False,
    )
    assert r.status_code == 303
    names = [c.name for c in store.list_characters(DEMO)]
    assert "Doc Holliday" in names
    r = gm.get(f"/c/{DEMO}/export?fmt=json")
    assert r.status_code == 200 and "Doc Holliday" in r.text
    json.loads(r.text)
    r = gm.get(f"/c/{DEMO}/export?fmt=yaml")
    assert "Doc Holliday" in r.text and "attachment" in r.headers["content-disposition"]
    doc = next(c for c in store.list_characters(DEMO) if c.name == "Doc Holliday")
    r = gm.get(f"/characters/{doc.id}/export?fmt=yaml")
    assert r.status_code == 200 and "Doc Holliday" in r.text
    assert gm.get(f"/characters/{doc.id}/export?fmt=xml").status_code == 400
    assert gm.get("/characters/999/export").status_code == 404
    assert gm.get(f"/c/{DEMO}/export?fmt=xml").status_code == 400


@pytest.mark.parametrize(
    ("fmt", "text"),
    [
        ("yaml", "nom: [unclosed"),
        ("yaml", "nom: X\nForce: 12\n"),
        ("json", "{not json"),
        ("yaml", " "),
        ("xml", SHEET),
    ],
)
def test_bad_character_imports_change_nothing(
    gm: TestClient, store: Store, fmt: str, text: str
) -> None:
    before = len(store.list_characters(DEMO))
    csrf = csrf_of(gm.get(f"/c/{DEMO}").text)
    r = gm.post(f"/c/{DEMO}/characters", data={"csrf": csrf, "format": fmt, "text": text})
    assert r.status_code == 400 and 'class="message error"' in r.text
    assert len(store.list_characters(DEMO)) == before


def test_start_an_encounter(gm: TestClient, store: Store) -> None:
    csrf = csrf_of(gm.get(f"/c/{DEMO}").text)
    chars = store.list_characters(DEMO)
    r = gm.post(
        f"/c/{DEMO}/encounters",
        data={
            "csrf": csrf,
            "name": "Revanche",
            "characters": [str(chars[0].id), str(chars[1].id)],
            f"side_{chars[0].id}": "a",
            f"side_{chars[1].id}": "b",
        },
        follow_redirects=False,
    )
    assert r.status_code == 303
    assert r.headers["location"].startswith("/e/")
    assert gm.get(r.headers["location"]).status_code == 200
    for bad in (
        {"name": "X"},
        {"name": "X", "characters": "999"},
        {"name": "", "characters": str(chars[0].id)},
    ):
        r = gm.post(f"/c/{DEMO}/encounters", data={"csrf": csrf, **bad})
        assert r.status_code == 400
    assert len(store.list_encounters(DEMO)) == 2


# ------------------------------------------------------------------ the encounter


def test_encounter_page_shows_the_fight(gm: TestClient) -> None:
    r = gm.get(f"/e/{DEMO}")
    assert r.status_code == 200
    assert "Bagarre au saloon" in r.text and "[ ][ ][ ][ ][ ][ ][ ]" in r.text
    assert 'data-form="initiative:"' in r.text  # only initiative can start the turn
    assert 'data-form="declare:' not in r.text and 'data-form="act:' not in r.text
    assert 'src="/static/htmx.min.js"' in r.text
    assert gm.get("/static/htmx.min.js").status_code == 200
    assert gm.get("/e/999").status_code == 404 and gm.get("/e/x").status_code == 404


def test_typed_dice_too_few_change_nothing(gm: TestClient, store: Store) -> None:
    r = command(gm, gm_csrf(gm), type="initiative", actor="", faces="5 3")
    assert r.status_code == 422  # type: ignore[attr-defined]
    assert 'class="message error"' in r.text  # type: ignore[attr-defined]
    assert log_len(store) == 0


@pytest.mark.parametrize("faces", ["5 3 5 8 9", "5 3 x 8", "5 3 5 11"])
def test_bad_typed_dice_change_nothing(gm: TestClient, store: Store, faces: str) -> None:
    r = command(gm, gm_csrf(gm), type="initiative", actor="", faces=faces)
    assert r.status_code == 422 and log_len(store) == 0  # type: ignore[attr-defined]


def test_initiative_then_declarations_in_reverse_order(gm: TestClient, store: Store) -> None:
    csrf = gm_csrf(gm)
    initiative(gm, csrf)
    r = gm.get(f"/e/{DEMO}/panel")
    # Ézéchiel 14, Jack 11, Sam 9, Billy 8: Billy, the slowest, declares first.
    assert 'data-form="declare:billy"' in r.text and 'data-form="declare:ezechiel"' not in r.text
    r = command(gm, csrf, type="declare", actor="ezechiel", kind="punch", target="jack")
    assert r.status_code == 422 and "possible" in r.text  # type: ignore[attr-defined]
    assert log_len(store) == 1
    r = command(
        gm,
        csrf,
        type="declare",
        actor="billy",
        kind="weapon_strike",
        target="ezechiel",
        weapon="knife",
    )
    assert r.status_code == 200, r.text  # type: ignore[attr-defined]
    r = command(gm, csrf, type="declare", actor="sam", delay="1")
    assert r.status_code == 200
    r = command(
        gm, csrf, type="declare", actor="jack", kind="punch", target="ezechiel", then_kind="block"
    )
    assert r.status_code == 200
    entry = store.events_since(DEMO, 2)[0]
    # The form's fields are the template's own parameters, the second action included.
    assert entry.command.args["then_kind"] == "block"  # type: ignore[union-attr]
    declared = [e for e in entry.events if type(e).__name__ == "ActionDeclared"]  # type: ignore[union-attr]
    assert declared and declared[0].summary == "punch>ezechiel+block"  # type: ignore[attr-defined]
    r = command(gm, csrf, type="declare", actor="ezechiel", kind="punch", target="jack")
    assert r.status_code == 200
    assert 'data-form="act:ezechiel"' in r.text  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "values",
    [
        {"type": "declare", "actor": "billy", "kind": "fly", "target": "sam"},
        {"type": "declare", "actor": "billy", "kind": "punch", "target": "nobody"},
        {"type": "declare", "actor": "billy", "kind": "punch", "celerity": "x"},
        {"type": "declare", "actor": "billy", "kind": "punch", "celerity": "5"},
        {"type": "declare", "actor": "billy"},
        {"type": "act", "actor": "billy"},
        {"type": "nonsense", "actor": ""},
        {
            "type": "gm_damage",
            "actor": "",
            "fighter": "jack",
            "levels": "99",
            "damage_type": "lethal",
        },
    ],
)
def test_illegal_commands_change_nothing(
    gm: TestClient, store: Store, values: dict[str, str]
) -> None:
    csrf = gm_csrf(gm)
    initiative(gm, csrf)
    r = command(gm, csrf, **values)
    assert r.status_code == 422, r.text  # type: ignore[attr-defined]
    assert 'class="message error"' in r.text  # type: ignore[attr-defined]
    assert log_len(store) == 1


def test_errors_follow_the_language(gm: TestClient, store: Store) -> None:
    gm.get("/lang/en")
    r = command(gm, gm_csrf(gm), type="act", actor="jack")
    assert r.status_code == 422 and "not possible now" in r.text  # type: ignore[attr-defined]


def test_script_line_and_undo(gm: TestClient, store: Store) -> None:
    csrf = gm_csrf(gm)
    r = gm.post(
        f"/e/{DEMO}/script",
        data={"csrf": csrf, "line": "initiative", "faces": "5 3 5 8"},
        headers=HX,
    )
    assert r.status_code == 200 and log_len(store) == 1
    r = gm.post(
        f"/e/{DEMO}/script", data={"csrf": csrf, "line": "billy: vole vers la lune"}, headers=HX
    )
    assert r.status_code == 422 and log_len(store) == 1
    r = gm.post(f"/e/{DEMO}/script", data={"csrf": csrf, "line": ""}, headers=HX)
    assert r.status_code == 422 and log_len(store) == 1
    r = gm.post(
        f"/e/{DEMO}/script",
        data={"csrf": csrf, "line": "billy: déclare coup de couteau sur ézéchiel"},
        headers=HX,
    )
    assert r.status_code == 200 and log_len(store) == 2
    r = gm.post(f"/e/{DEMO}/undo", data={"csrf": csrf, "seq": "1"}, headers=HX)
    assert r.status_code == 200 and "annulée" in r.text
    assert store.encounter(DEMO).state.phase == "declaration"
    assert 'data-form="declare:billy"' in r.text
    r = gm.post(f"/e/{DEMO}/script", data={"csrf": csrf, "line": "annuler", "seq": "2"}, headers=HX)
    assert r.status_code == 200
    r = gm.post(f"/e/{DEMO}/undo", data={"csrf": csrf, "seq": "3"}, headers=HX)
    assert r.status_code == 422 and log_len(store) == 4
    r = gm.post(f"/e/{DEMO}/undo", data={"csrf": "bad"}, headers=HX)
    assert r.status_code == 403 and log_len(store) == 4


def test_a_form_post_without_htmx_redirects(gm: TestClient, store: Store) -> None:
    r = gm.post(
        f"/e/{DEMO}/command",
        data={"csrf": gm_csrf(gm), "type": "initiative", "faces": "5 3 5 8"},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == f"/e/{DEMO}"


def test_odds_before_rolling(gm: TestClient) -> None:
    r = gm.get(
        f"/e/{DEMO}/odds", params={"attacker": "ezechiel", "target": "jack", "maneuver": "punch"}
    )
    assert r.status_code == 200
    assert "79,9 %" in r.text and 'class="bars"' in r.text
    for params in (
        {"attacker": "jack", "target": "jack"},
        {"attacker": "x", "target": "jack"},
        {"attacker": "jack", "target": "sam", "maneuver": "fly"},
    ):
        r = gm.get(f"/e/{DEMO}/odds", params=params)
        assert r.status_code == 400 and 'class="message error"' in r.text


def test_the_stream_sends_new_log_entries(gm: TestClient, store: Store) -> None:
    initiative(gm, gm_csrf(gm))
    with gm.stream("GET", f"/e/{DEMO}/stream?since=-1&limit=1") as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        text = "".join(r.iter_text())
    assert "event: update" in text and "id: 0" in text
    data = json.loads(text.split("data: ", 1)[1].split("\n", 1)[0])
    assert data["seq"] == 0 and "initiative" in " ".join(data["entries"][0]["lines"])
    # The view's new panel comes with the news (no request back), with this GM's CSRF token.
    assert (
        'id="panel" data-seq="0"' in data["panel"] and 'data-form="declare:billy"' in data["panel"]
    )
    assert f'value="{gm_csrf(gm)}"' in data["panel"] and "@@" not in data["panel"]
    # The page keeps its log: the panel has a slot for it, the message the new entries only.
    assert "data-log-slot" in data["panel"] and 'data-seq="0"' in data["log"]
    assert "initiative" in data["log"] and data["marks"] == {}
    r = gm.post(f"/e/{DEMO}/undo", data={"csrf": gm_csrf(gm), "seq": "0"}, headers=HX)
    assert r.status_code == 200
    with gm.stream("GET", f"/e/{DEMO}/stream?since=0&limit=1") as r:
        text = "".join(r.iter_text())
    data = json.loads(text.split("data: ", 1)[1].split("\n", 1)[0])
    assert data["seq"] == 1 and 'class="undo-line" data-seq="1"' in data["log"]
    assert list(data["marks"]) == ["0"] and 'class="undone" data-seq="0"' in data["marks"]["0"]


def test_close_the_encounter(gm: TestClient, store: Store) -> None:
    csrf = gm_csrf(gm)
    r = gm.post(f"/e/{DEMO}/close", data={"csrf": csrf}, follow_redirects=False)
    assert r.status_code == 303
    assert store.get_encounter(DEMO).status == "closed"
    r = gm.post(f"/e/{DEMO}/close", data={"csrf": csrf})
    assert r.status_code == 400
    r = command(gm, csrf, type="initiative", faces="5 3 5 8")
    assert r.status_code == 422 and log_len(store) == 0  # type: ignore[attr-defined]


def test_wrong_methods_and_unknown_paths(gm: TestClient) -> None:
    assert gm.get(f"/e/{DEMO}/undo").status_code == 405
    assert gm.get("/nowhere").status_code == 404


# ------------------------------------------------------------------ players


def token_of(store: Store, name: str) -> str:
    return next(c.token for c in store.list_characters(DEMO) if c.name == name)


def test_unknown_player_token_is_404(stranger: TestClient) -> None:
    for path in ("/p/nope", "/p/nope/panel", "/p/nope/stream"):
        assert stranger.get(path).status_code == 404
    assert stranger.post("/p/nope/command", data={}).status_code == 404


def test_the_player_sees_only_their_own_sheet(
    gm: TestClient, stranger: TestClient, store: Store
) -> None:
    csrf = gm_csrf(gm)
    initiative(gm, csrf)
    r = command(
        gm, csrf, type="gm_damage", actor="", fighter="billy", levels="2", damage_type="lethal"
    )
    assert r.status_code == 200
    r = stranger.get(f"/p/{token_of(store, 'Jack Malone')}")
    assert r.status_code == 200 and '<html lang="fr">' in r.text
    assert r.text.count("data-health") == 1  # their own track only
    # Two levels (hurt): « égratigné » on vtm's ladder of words (data/bands.yaml).
    assert 'Billy Harper — <span data-status="wounded">égratigné</span>' in r.text
    assert 'Sam le barman — <span data-status="unhurt">indemne</span>' in r.text
    assert "[/][/]" not in r.text  # Billy's exact track stays hidden
    assert "/e/1/odds" not in r.text and 'name="attacker"' not in r.text  # no odds of NPC actions
    assert "conteur_gm" not in r.headers.get("set-cookie", "")
    assert stranger.get(f"/p/{token_of(store, 'Jack Malone')}/panel").status_code == 200
    assert stranger.get("/").status_code == 401  # a player's link opens no GM page


def test_the_player_declares_their_own_action(
    stranger: TestClient, gm: TestClient, store: Store
) -> None:
    initiative(gm, gm_csrf(gm))
    token = token_of(store, "Billy Harper")
    page = stranger.get(f"/p/{token}").text
    assert 'data-form="declare:billy"' in page
    csrf = csrf_of(page)
    r = stranger.post(
        f"/p/{token}/command",
        data={"csrf": csrf, "type": "declare", "actor": "jack", "kind": "punch"},
    )
    assert r.status_code == 400 and log_len(store) == 1
    r = stranger.post(
        f"/p/{token}/command",
        data={"csrf": "x", "type": "declare", "actor": "billy", "kind": "dodge"},
    )
    assert r.status_code == 403 and log_len(store) == 1
    r = stranger.post(
        f"/p/{token}/command",
        data={"csrf": csrf, "type": "declare", "actor": "billy", "kind": "fly"},
    )
    assert r.status_code == 422 and log_len(store) == 1
    r = stranger.post(
        f"/p/{token}/command",
        data={"csrf": csrf, "type": "declare", "actor": "billy", "kind": "dodge"},
    )
    assert r.status_code == 200 and log_len(store) == 2
    jack = token_of(store, "Jack Malone")
    other = csrf_of_player(stranger.get(f"/p/{jack}").text, stranger, jack)
    assert other != csrf  # the CSRF token is scoped to the player's link


def test_watch_only_tables_refuse_player_commands(
    stranger: TestClient, gm: TestClient, store: Store
) -> None:
    store.update_campaign(DEMO, settings={"player_input": False})
    initiative(gm, gm_csrf(gm))
    token = token_of(store, "Billy Harper")
    page = stranger.get(f"/p/{token}").text
    assert 'data-form="declare' not in page
    r = stranger.post(
        f"/p/{token}/command",
        data={
            "csrf": csrf_of_player(page, stranger, token),
            "type": "declare",
            "actor": "billy",
            "kind": "dodge",
        },
    )
    assert r.status_code == 400 and log_len(store) == 1


def csrf_of_player(page: str, client: TestClient, token: str) -> str:
    import re

    match = re.search(r'"X-CSRF-Token": "([0-9a-f]+)"', page)
    assert match
    return match.group(1)


def test_the_player_stream_hides_nothing_public(
    stranger: TestClient, gm: TestClient, store: Store
) -> None:
    initiative(gm, gm_csrf(gm))
    token = token_of(store, "Jack Malone")
    with stranger.stream("GET", f"/p/{token}/stream?limit=1") as r:
        text = "".join(r.iter_text())
    assert "event: update" in text
    panel = json.loads(text.split("data: ", 1)[1].split("\n", 1)[0])["panel"]
    assert 'id="panel" data-seq="0"' in panel and panel.count("data-health") == 1  # own track only
    assert f"/p/{token}/odds" in panel and "@@" not in panel  # this player's own link
    page = stranger.get(f"/p/{token}").text
    assert csrf_of_player(page, stranger, token) in panel or 'name="csrf"' not in panel


def test_a_player_without_encounter(gm: TestClient, stranger: TestClient, store: Store) -> None:
    csrf = csrf_of(gm.get(f"/c/{DEMO}").text)
    gm.post(f"/c/{DEMO}/characters", data={"csrf": csrf, "format": "yaml", "text": SHEET})
    token = token_of(store, "Doc Holliday")
    r = stranger.get(f"/p/{token}")
    assert r.status_code == 200 and "aucune rencontre" in r.text
    # The page waits for a fight on its stream (``e=0``: it shows none); a page that shows
    # a fight the player is not in (any more) is told at once that its fight moved.
    assert f'data-stream="/p/{token}/stream?since=-1&amp;pad=1&amp;e=0"' in r.text
    r = stranger.get(f"/p/{token}/stream?e={DEMO}")
    assert r.status_code == 200 and r.text.endswith("event: moved\ndata: {}\n\n"), r.text


# ------------------------------------------------------------------ one character


def test_character_page_edit_history_and_new_link(
    gm: TestClient, stranger: TestClient, store: Store
) -> None:
    jack = next(c for c in store.list_characters(DEMO) if c.name == "Jack Malone")
    r = gm.get(f"/characters/{jack.id}")
    assert r.status_code == 200 and "Jack Malone" in r.text and "Bagarre" in r.text
    csrf = csrf_of(r.text)
    sheet = "nom: Jack Malone\ntype: mortel\nForce: 4\nDextérité: 3\nVigueur: 3\nBagarre: 3\nVolonté: 4\n"
    r = gm.post(
        f"/characters/{jack.id}", data={"csrf": csrf, "sheet": sheet}, follow_redirects=False
    )
    assert r.status_code == 303
    assert store.get_character(jack.id).version == 2
    assert len(gm.get(f"/characters/{jack.id}").text.split("Version 2")) > 1
    old = jack.token
    r = gm.post(f"/characters/{jack.id}/token", data={"csrf": csrf}, follow_redirects=False)
    assert r.status_code == 303
    assert stranger.get(f"/p/{old}").status_code == 404
    assert stranger.get(f"/p/{store.get_character(jack.id).token}").status_code == 200


@pytest.mark.parametrize(
    "sheet", ["", "[1, 2]", "nom: [", "nom: Jack\nForce: 99\n", "nom: Jack\nTruc: 3\n"]
)
def test_bad_sheet_edits_change_nothing(gm: TestClient, store: Store, sheet: str) -> None:
    jack = next(c for c in store.list_characters(DEMO) if c.name == "Jack Malone")
    csrf = csrf_of(gm.get(f"/characters/{jack.id}").text)
    r = gm.post(f"/characters/{jack.id}", data={"csrf": csrf, "sheet": sheet})
    assert r.status_code == 400 and 'class="message error"' in r.text
    assert store.get_character(jack.id).version == 1


def test_character_routes_refusals(gm: TestClient, stranger: TestClient, store: Store) -> None:
    assert stranger.get("/characters/1").status_code == 401
    assert stranger.post("/characters/1", data={"sheet": "x: 1"}).status_code == 401
    assert stranger.post("/characters/1/token").status_code == 401
    assert gm.get("/characters/999").status_code == 404
    assert gm.get("/characters/abc").status_code == 404
    assert gm.post("/characters/1/token", data={"csrf": "bad"}).status_code == 403
    assert gm.post("/characters/1", data={"csrf": "bad", "sheet": "nom: X"}).status_code == 403
    assert store.get_character(1).version == 1


def test_a_player_page_speaks_the_tables_language(stranger: TestClient, store: Store) -> None:
    store.update_campaign(DEMO, settings={"lang": "en"})
    token = token_of(store, "Jack Malone")
    r = stranger.get(f"/p/{token}")
    assert '<html lang="en">' in r.text and "The others" in r.text
    stranger.get("/lang/fr")
    assert '<html lang="fr">' in stranger.get(f"/p/{token}").text  # the reader's choice wins


def test_a_player_sees_the_odds_of_their_own_attack_only(
    stranger: TestClient, store: Store
) -> None:
    token = token_of(store, "Jack Malone")
    page = stranger.get(f"/p/{token}").text
    assert 'hx-get="/p/' in page and "attacker" not in page  # no choice of attacker
    r = stranger.get(f"/p/{token}/odds", params={"target": "sam", "maneuver": "punch"})
    assert r.status_code == 200 and "Jack Malone → Sam le barman" in r.text
    r = stranger.get(f"/p/{token}/odds", params={"target": "sam", "attacker": "ezechiel"})
    assert "Jack Malone → Sam le barman" in r.text  # the attacker is always the player's own
    assert stranger.get(f"/p/{token}/odds", params={"target": "jack"}).status_code == 400
    assert stranger.get("/p/nope/odds", params={"target": "sam"}).status_code == 404


def test_the_odds_form_starts_with_whoever_is_due_and_another_target(gm: TestClient) -> None:
    initiative(gm, gm_csrf(gm))
    page = gm.get(f"/e/{DEMO}/panel").text
    odds = page.split('data-form="odds"', 1)[1].split("</form>", 1)[0]
    attacker = odds.split('name="attacker"', 1)[1].split("</select>", 1)[0]
    target = odds.split('name="target"', 1)[1].split("</select>", 1)[0]
    assert '<option value="billy" selected>' in attacker  # Billy declares now
    assert '<option value="jack" selected>' in target


def test_a_second_action_needs_a_first(gm: TestClient, store: Store) -> None:
    """V-MAN-1: « puis » follows an action; alone it is refused and nothing changes."""
    csrf = gm_csrf(gm)
    initiative(gm, csrf)
    r = command(gm, csrf, type="declare", actor="billy", then_kind="dodge")
    assert r.status_code == 422 and "seconde action" in r.text  # type: ignore[attr-defined]
    assert log_len(store) == 1


def test_a_player_moves_their_token_only_when_the_campaign_allows_it(
    stranger: TestClient, gm: TestClient, store: Store
) -> None:
    token = token_of(store, "Billy Harper")
    page = stranger.get(f"/p/{token}").text
    assert 'id="battle-map"' in page and "data-movable" not in page  # watched, not moved
    csrf = csrf_of(page)
    r = stranger.post(f"/p/{token}/move", data={"csrf": csrf, "to": "3,4"})
    assert r.status_code == 400 and log_len(store) == 0
    assert "seul le Conteur déplace les pions" in r.text
    gm.post(f"/c/{DEMO}/settings", data={"csrf": gm_csrf(gm), "player_moves": "1"})
    page = stranger.get(f"/p/{token}").text
    assert 'data-movable="billy"' in page
    r = stranger.post(f"/p/{token}/move", data={"csrf": csrf, "to": "nowhere"})
    assert r.status_code == 422 and log_len(store) == 0  # refused as any command's bad value
    r = stranger.post(f"/p/{token}/move", data={"csrf": csrf, "to": "3,4", "fighter": "jack"})
    assert r.status_code == 200 and log_len(store) == 1
    moved = store.read_encounter(DEMO, lambda enc: enc.ruleset.positions(enc.state))
    assert moved["billy"] == (3.0, 4.0)  # their own token, whatever the form says
    assert moved["jack"] != (3.0, 4.0)
