"""Every choice a form offers reads as words in the reader's language: a combatant by name,
anything else by a catalogue word with a capital first letter (« Empoignade », « Couteau »),
and an optional choice left empty says what it does (« L'arme en main », « Sans cible »),
never a dash nor the value itself (``mortal``, ``blade breaks``, ``B``)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from conteur.engine.encounter import CommandEntry, Encounter, UndoEntry
from conteur.engine.inputs import read_data
from conteur.engine.registry import get_ruleset
from conteur.engine.ruleset import Param
from conteur.engine.script import start, typed_dice
from conteur.i18n import LANGS, Lang, t
from conteur.web import view
from test_words import EXAMPLES, played

from .test_words_pages import played_site as played_site  # the fixture, shared

RULESETS = ("vtm", "hunter", "western")


def _states(path: Path) -> Iterator[Encounter]:
    """The example's encounter after each command of its script (the same object, moved on)."""
    log = played(path).log
    enc = start(path)
    dice = typed_dice(path.with_suffix(".dice"))
    yield enc
    for entry in log:
        if isinstance(entry, UndoEntry):
            enc.undo()
        elif isinstance(entry, CommandEntry):
            enc.execute(entry.command, dice)
        yield enc


def _problems(
    p: Param, names: dict[str, str], ruleset: str, command: str, field: view.Field, lang: Lang
) -> list[str]:
    """What is wrong with ``field``, built from ``p`` in ``lang`` (empty: nothing)."""
    where = f"{ruleset} {command}.{p.name}"
    out = []
    if not p.required:
        key = view.empty_key(p.name, ruleset, command)
        if key is None:
            out.append(f"{where}: no words for an empty choice")
        elif field.empty != view.option_text(t(key, lang)):
            out.append(f"{where}: empty reads {field.empty!r}")
    for value, text in field.choices:
        if value in names:
            if text != names[value]:
                out.append(f"{where}: {value} reads {text!r}, not its name")
            continue
        if p.name == "side":  # a side's name is the author's own word
            continue
        if value == "":
            if text != field.empty:
                out.append(f"{where}: the empty choice reads {text!r}")
            continue
        key = view.word_key(value, ruleset, p.name)
        if key is None:
            out.append(f"{where}: {value!r} has no word")
        elif text != view.option_text(t(key, lang)) or not text[:1].isupper():
            out.append(f"{where}: {value!r} reads {text!r}")
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "path", [p for p in EXAMPLES if "plugins" not in p.parts], ids=lambda p: p.stem
)
def test_every_choice_of_every_form_of_an_example_reads_as_words(path: Path, lang: Lang) -> None:
    problems: set[str] = set()
    checked = 0
    for enc in _states(path):
        names = enc.ruleset.names(enc.state)
        for form, tp in zip(view.forms(enc, lang), enc.legal_commands(), strict=True):
            fields = {f.name: f for f in form.fields}
            for p in tp.params:
                if p.kind == "choice" and p.name in fields:
                    checked += 1
                    problems |= set(
                        _problems(p, names, enc.ruleset.name, tp.type, fields[p.name], lang)
                    )
    assert checked > 0  # the example offers choices: the test reads them
    assert not problems, sorted(problems)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_choice_of_a_quick_npc_reads_as_words(ruleset: str, lang: Lang) -> None:
    r = get_ruleset(ruleset)
    problems: list[str] = []
    for era in (None, *r.eras()):
        params = [p for p in r.quick_npc_params(era) if p.kind == "choice"]
        _, fields = view.npc_choices(r, lang, era, prefix="")
        shown = {f.name: f for f in fields}
        for p in params:
            problems += _problems(p, {}, ruleset, "npc", shown[p.name], lang)
    assert not problems, problems


def test_the_quick_npc_s_kind_and_empty_weapon_in_both_languages() -> None:
    """The numbers a GM sees in the encounter builder, exactly (vtm and hunter)."""
    texts = {}
    for ruleset in ("vtm", "hunter"):
        for lang in LANGS:
            _, fields = view.npc_choices(get_ruleset(ruleset), lang, None, prefix="")
            f = {x.name: x for x in fields}
            texts[ruleset, lang] = ([c for _, c in f["kind"].choices], f["weapon"].choices[0][1])
    assert texts == {
        ("vtm", "fr"): (["Mortel", "Vampire", "Surnaturel"], "Aucune (mains nues)"),
        ("vtm", "en"): (["Mortal", "Vampire", "Supernatural"], "None (bare-handed)"),
        ("hunter", "fr"): (["Monstre", "Passant", "Chasseur"], "Aucune (mains nues)"),
        ("hunter", "en"): (["Monster", "Bystander", "Hunter"], "None (bare-handed)"),
    }


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "path", [p for p in EXAMPLES if "plugins" not in p.parts], ids=lambda p: p.stem
)
def test_every_odds_option_reads_as_words(path: Path, lang: Lang) -> None:
    enc = start(path)
    names = enc.ruleset.names(enc.state)
    problems: set[str] = set()
    for a in names:
        for target in names:
            if a == target:
                continue
            for maneuver in (None, *view.attack_kinds(enc, a)):
                for p in view.odds_toggles(enc, a, target, maneuver):
                    if p.kind == "choice":
                        f = view.toggle_field(p, {}, lang, names, enc.ruleset.name)
                        optional = Param(p.name, p.kind, p.choices, required=False)
                        problems |= set(
                            _problems(optional, names, enc.ruleset.name, "odds", f, lang)
                        )
    assert not problems, sorted(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_the_odds_drawers_maneuvers_read_as_the_rulesets_words(
    played_site: tuple[TestClient, list[int]], lang: Lang
) -> None:
    """The GM's odds drawer lists each attack in the ruleset's words (hunter's « Rafale »,
    not « Burst » on a French page)."""
    client, ids = played_site
    client.get(f"/lang/{lang}?next=/")
    seen = set()
    for eid, path in zip(ids, EXAMPLES, strict=True):
        ruleset = str(read_data(path)["ruleset"])
        page = client.get(f"/e/{eid}").text
        drawer = re.search(r'<select name="maneuver">(.*?)</select>', page, re.S)
        assert drawer is not None, path
        for value, text in re.findall(r'<option value="([^"]+)">([^<]*)</option>', drawer[1]):
            key = view.word_key(value, ruleset, "maneuver")
            assert key is not None, (ruleset, value)
            assert html.unescape(text) == view.option_text(t(key, lang)), (ruleset, value)
            seen.add((ruleset, value))
    assert ("hunter", "burst") in seen and ("vtm", "grapple") in seen
