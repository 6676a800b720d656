"""Strict input through the web import (issue 18, item 1): a character whose carried state
is out of range (``willpower: -5``, a NaN position), a mortal with six dots, or a file
nested too deep is refused with the one line that names the form, the entry and the field,
in the page's language — and nothing is stored."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from conteur.store import Store
from test_strict_input import typo

from .conftest import csrf_of

DEMO = 1

CASES = [
    (
        "yaml",
        "sheet: {nom: Doc, type: mortel}\nstate: {willpower: -5}\n",
        "formulaire : personnage « doc » : champ « willpower » : doit valoir au moins 0 (reçu -5)",
        'form: character "doc": field "willpower": must be at least 0 (got -5)',
    ),
    (
        "json",
        '{"sheet": {"nom": "Doc", "type": "mortel"}, "state": {"position": [NaN, 0]}}',
        "formulaire : personnage « doc » : champ « position » : "
        "une position est deux nombres de mètres, [x, y] (reçu « [nan, 0] »)",
        'form: character "doc": field "position": '
        'a position is two numbers of metres, [x, y] (got "[nan, 0]")',
    ),
    (
        "yaml",
        "nom: Doc\ntype: mortel\nBagarre: 6\n",
        "formulaire : fiche : champ « Bagarre » : un mortel a au plus 5 points dans un trait (reçu 6)",
        'form: sheet: field "Brawl": a mortal has at most 5 dots in a trait (got 6)',
    ),
    (
        "json",
        "[" * 5000 + "]" * 5000,
        "formulaire : listes ou tables imbriquées sur plus de 40 niveaux",
        "form: lists or mappings nested more than 40 levels deep",
    ),
]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(("fmt", "text", "fr", "en"), CASES)
def test_a_bad_character_is_refused_by_name_and_nothing_is_stored(
    gm: TestClient, store: Store, fmt: str, text: str, fr: str, en: str, lang: str
) -> None:
    before = [(c.id, c.version) for c in store.list_characters(DEMO)]
    gm.cookies.set("conteur_lang", lang)
    csrf = csrf_of(gm.get(f"/c/{DEMO}").text)
    r = gm.post(f"/c/{DEMO}/characters", data={"csrf": csrf, "format": fmt, "text": text})
    assert r.status_code == 400
    shown = re.findall(r'<p class="message error" role="alert">(.*?)</p>', r.text, re.S)
    assert [html.unescape(m) for m in shown] == [typo(fr, "fr") if lang == "fr" else en]
    assert [(c.id, c.version) for c in store.list_characters(DEMO)] == before
