"""Strict input through the web forms (issue 18): a new campaign whose rules have no eras
is refused naming the field, in the page's language, and no campaign is made (it used to be
stored with an era its rules ignore)."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from conteur.store import Store
from test_strict_input import typo

from .conftest import csrf_of

CASES = [
    (
        {"name": "Cellule", "ruleset": "hunter", "era": "1899"},
        "Champ « époque » de la campagne : Hunter (nouveau Monde des Ténèbres) n'a pas d'époques",
        "Campaign field 'era': Hunter (new World of Darkness) has no eras",
    ),
    (
        {"name": "Poussière", "ruleset": "western", "era": "moderne"},
        "Champ « époque » de la campagne : Western (d100) n'a pas d'époques",
        "Campaign field 'era': Western (d100) has no eras",
    ),
]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(("form", "fr", "en"), CASES)
def test_a_campaign_with_an_era_its_rules_lack_is_refused(
    gm: TestClient, store: Store, form: dict[str, str], fr: str, en: str, lang: str
) -> None:
    before = store.counts()["campaigns"]
    gm.cookies.set("conteur_lang", lang)
    csrf = csrf_of(gm.get("/").text)
    r = gm.post("/campaigns", data={"csrf": csrf, **form}, follow_redirects=False)
    assert r.status_code == 400
    shown = re.findall(r'<p class="message error" role="alert">(.*?)</p>', r.text, re.S)
    assert [html.unescape(m).strip() for m in shown] == [typo(fr, "fr") if lang == "fr" else en]
    assert store.counts()["campaigns"] == before
