"""The rulesets by their titles where a game master chooses or sees them (the campaigns
page, a campaign's heading), not by their ids: « Vampire : la Mascarade », not ``vtm``."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from conteur.engine.registry import available_rulesets, ruleset_title

from .conftest import csrf_of

TITLES = {
    "fr": {
        "vtm": "Vampire\u202f: la Mascarade",
        "hunter": "Hunter (nouveau Monde des Ténèbres)",
        "western": "Western (d100)",
    },
    "en": {
        "vtm": "Vampire: The Masquerade",
        "hunter": "Hunter (new World of Darkness)",
        "western": "Western (d100)",
    },
}


def _options(page: str) -> dict[str, str]:
    """The ruleset select's options: value → the text a reader sees."""
    select = re.search(r'(?s)<select name="ruleset">(.*?)</select>', page)
    assert select, "no ruleset select on the page"
    return dict(re.findall(r'<option value="([^"]+)">([^<]+)</option>', select.group(1)))


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_new_campaign_form_offers_each_ruleset_by_its_title(gm: TestClient, lang: str) -> None:
    gm.cookies.set("conteur_lang", lang)
    options = _options(gm.get("/").text)
    shipped = {name: options[name] for name in TITLES[lang]}
    assert shipped == TITLES[lang]
    assert sorted(options) == available_rulesets()  # every installed ruleset, by its value


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_demo_campaign_is_listed_and_headed_with_its_rulesets_title(
    gm: TestClient, lang: str
) -> None:
    gm.cookies.set("conteur_lang", lang)
    home = gm.get("/").text
    listed = re.search(r'<a href="/c/(\d+)">[^<]+</a> <span class="dim">([^<·]+)', home)
    assert listed, "no campaign listed"
    assert listed.group(2).strip() == TITLES[lang]["vtm"]  # the demo is a 1899 vtm saloon
    page = gm.get(f"/c/{listed.group(1)}").text
    heading = re.search(r'(?s)<h1>.*?<span class="dim">([^<·]+)', page)
    assert heading and heading.group(1).strip() == TITLES[lang]["vtm"]


def test_a_ruleset_without_a_title_is_shown_by_its_name() -> None:
    assert ruleset_title("no_such_game") == "no_such_game"


ERAS = {"fr": ["1899", "nuits modernes"], "en": ["1899", "modern nights"]}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_era_is_chosen_among_the_rulesets_own_eras(gm: TestClient, lang: str) -> None:
    """Only vtm has eras (1899, the default, and modern nights): the era select offers them
    under its title, and « the rules' own » for every other ruleset."""
    gm.cookies.set("conteur_lang", lang)
    page = gm.get("/").text
    select = re.search(r'(?s)<select name="era">(.*?)</select>', page)
    assert select, "no era select"
    groups = re.findall(r'(?s)<optgroup label="([^"]+)">(.*?)</optgroup>', select.group(1))
    assert [label for label, _ in groups] == [TITLES[lang]["vtm"]]
    assert re.findall(r'<option value="[^"]+">([^<]+)</option>', groups[0][1]) == ERAS[lang]
    default = re.match(r'\s*<option value="">([^<]+)</option>', select.group(1))
    assert (
        default
        and html.unescape(default.group(1))
        == {"fr": "celle des règles", "en": "the rules' own"}[lang]
    )


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_modern_vtm_campaign_is_headed_with_its_era_in_words(gm: TestClient, lang: str) -> None:
    gm.cookies.set("conteur_lang", lang)
    form = {"csrf": csrf_of(gm.get("/").text), "name": "Chicago", "ruleset": "vtm", "era": "modern"}
    page = gm.post("/campaigns", data=form).text
    heading = re.search(r'(?s)<h1>.*?<span class="dim">([^<]+)</span>', page)
    assert heading, page[:400]
    assert heading.group(1).split(" · ") == [TITLES[lang]["vtm"], ERAS[lang][1]]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_an_era_the_ruleset_does_not_have_is_refused_by_name(gm: TestClient, lang: str) -> None:
    gm.cookies.set("conteur_lang", lang)
    form = {
        "csrf": csrf_of(gm.get("/").text),
        "name": "Cellule",
        "ruleset": "hunter",
        "era": "1899",
    }
    refused = gm.post("/campaigns", data=form)
    assert refused.status_code == 400
    said = re.search(r'<p class="message error" role="alert">([^<]+)</p>', refused.text)
    assert (
        said
        and html.unescape(said.group(1))
        == {
            "fr": "Champ «\u202fépoque\u202f» de la campagne\u202f: Hunter (nouveau Monde des"
            " Ténèbres) n'a pas d'époques",
            "en": "Campaign field 'era': Hunter (new World of Darkness) has no eras",
        }[lang]
    )
    assert "Cellule" not in gm.get("/").text  # nothing created
