"""The tracker's edges, probed as an attacker would (issue 18): reconnecting streams with a
malformed ``Last-Event-ID``, the login form and where it leads, slowed-down login attempts,
user text that looks like a page slot, and an undo from a stale tab."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from conteur.store import Store

from .test_api import DEMO, HX, gm_csrf, initiative, token_of


def first_update(text: str) -> dict[str, object]:
    data: dict[str, object] = json.loads(text.split("data: ", 1)[1].split("\n", 1)[0])
    return data


# ------------------------------------------------------------------ Last-Event-ID


BAD_EVENT_IDS = ["--5", "abc", "-", "", " ", "1.5", "0x1", "²", "١", "9" * 30, "9" * 5000, "-7"]


@pytest.mark.parametrize("last_id", BAD_EVENT_IDS)
def test_a_malformed_last_event_id_starts_from_the_beginning(
    gm: TestClient, stranger: TestClient, store: Store, last_id: str
) -> None:
    initiative(gm, gm_csrf(gm))
    headers = {"Last-Event-ID": last_id.encode()}  # bytes: non-ASCII too
    player = token_of(store, "Jack Malone")
    for client, path in ((gm, f"/e/{DEMO}/stream"), (stranger, f"/p/{player}/stream")):
        with client.stream("GET", f"{path}?limit=1", headers=headers) as r:
            assert r.status_code == 200
            text = "".join(r.iter_text())
        assert "id: 0\n" in text and first_update(text)["seq"] == 0


def test_a_well_formed_last_event_id_still_resumes(gm: TestClient, store: Store) -> None:
    csrf = gm_csrf(gm)
    initiative(gm, csrf)
    gm.post(
        f"/e/{DEMO}/command",
        data={"csrf": csrf, "type": "declare", "actor": "billy", "kind": "dodge"},
        headers=HX,
    )
    with gm.stream("GET", f"/e/{DEMO}/stream?limit=1", headers={"Last-Event-ID": " 0 "}) as r:
        text = "".join(r.iter_text())
    data = first_update(text)
    assert data["seq"] == 1 and [e["seq"] for e in data["entries"]] == [1]  # type: ignore[attr-defined]
