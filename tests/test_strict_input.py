"""Strict input (issue 18, item 1): every bad scenario, sheet or option the issue found is
refused through the public command line — exit code 2, one line naming the file, the entry
and the field, the nearest valid key for a misspelt one — in French and in English, for the
three rulesets and the toy one; none ends in a traceback.

Each case writes a scenario, runs ``conteur play`` (or ``roll``/``odds``) and compares the
whole error line with the one expected.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from conteur.cli import app

runner = CliRunner()

PAIRS: dict[str, list[dict[str, Any]]] = {
    "vtm": [
        {"id": "a", "side": "x", "sheet": {"nom": "Ann", "type": "mortel", "Bagarre": 2}},
        {"id": "b", "side": "y", "sheet": {"nom": "Bob", "type": "vampire"}},
    ],
    "hunter": [
        {"id": "a", "camp": "x", "nom": "Ann", "force": 2},
        {"id": "b", "camp": "y", "nom": "Bob", "type": "monstre"},
    ],
    "western": [
        {"id": "a", "camp": "x", "nom": "Ann", "armes": ["colt_saa"]},
        {"id": "b", "camp": "y", "nom": "Bob"},
    ],
    "duel": [
        {"id": "a", "side": "x", "attack": 2},
        {"id": "b", "side": "y", "guard": 1},
    ],
}
"""A valid pair of combatants per ruleset; each case spoils one thing."""

ERROR = {"fr": "erreur : ", "en": "error: "}
TOP = {"fr": "en-tête", "en": "top level"}


def typo(text: str, lang: str) -> str:
    """French typography: a narrow no-break space before « : ; ? ! » and inside « »."""
    if lang != "fr":
        return text
    text = re.sub(r" ([:;?!])", "\u202f\\1", text)
    return text.replace("« ", "«\u202f").replace(" »", "\u202f»")


def entry(n: int, ident: str, lang: str) -> str:
    return f"combattant n° {n} ({ident})" if lang == "fr" else f"combatant #{n} ({ident})"


def field(name: str, lang: str) -> str:
    return f"champ « {name} »" if lang == "fr" else f'field "{name}"'


def suggest(key: str, lang: str) -> str:
    if lang == "fr":
        return f"clé inconnue ; vouliez-vous dire « {key} » ?"
    return f'unknown key; did you mean "{key}"?'


def play(tmp_path: Path, scenario: Any, lang: str, raw: str | None = None) -> tuple[int, str, Path]:
    """Run ``conteur play`` on the scenario; its exit code, stderr and the file's path."""
    path = tmp_path / "scene.yaml"
    path.write_text(raw if raw is not None else yaml.safe_dump(scenario, allow_unicode=True))
    script = tmp_path / "script.txt"
    script.write_text("")
    result = runner.invoke(app, ["play", str(path), "--script", str(script), "--lang", lang])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stderr, path


def scenario(ruleset: str, change: Callable[[list[dict[str, Any]]], None]) -> dict[str, Any]:
    combatants = copy.deepcopy(PAIRS[ruleset])
    change(combatants)
    return {"ruleset": ruleset, "combatants": combatants}


LANGS = ("fr", "en")
ALL = ("vtm", "hunter", "western", "duel")
PLACED = ("vtm", "hunter", "western")
"""The rulesets whose fighters stand somewhere (the toy duel has no positions)."""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ruleset", ALL)
def test_a_valid_pair_plays(tmp_path: Path, ruleset: str, lang: str) -> None:
    """The baseline every case spoils: it plays, exit 0, no error."""
    code, err, _ = play(tmp_path, scenario(ruleset, lambda c: None), lang)
    assert (code, err) == (0, "")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ruleset", ALL)
def test_an_unknown_top_level_key_names_the_nearest(
    tmp_path: Path, ruleset: str, lang: str
) -> None:
    data = scenario(ruleset, lambda c: None)
    data["combatnts"] = []
    code, err, path = play(tmp_path, data, lang)
    near = "combattants" if lang == "fr" else "combatants"
    want = f"{ERROR[lang]}{path} : {TOP[lang]} : {field('combatnts', lang)} : {suggest(near, lang)}"
    if lang == "en":
        want = want.replace(" : ", ": ")
    assert (code, err) == (2, typo(want, lang) + "\n")


def _sep(lang: str) -> str:
    return " : " if lang == "fr" else ": "


def line(lang: str, path: Path, where: str, what: str, reason: str) -> str:
    s = _sep(lang)
    return typo(f"{ERROR[lang]}{path}{s}{where}{s}{what}{s}{reason}\n", lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ruleset", PLACED)
def test_a_misspelt_position_key_names_the_nearest(tmp_path: Path, ruleset: str, lang: str) -> None:
    """``positon: [1, 2]`` is no longer dropped: refused, "position" suggested."""
    data = scenario(ruleset, lambda c: c[0].update(positon=[1, 2]))
    code, err, path = play(tmp_path, data, lang)
    reason = suggest("position", lang)
    assert (code, err) == (2, line(lang, path, entry(1, "a", lang), field("positon", lang), reason))


@pytest.mark.parametrize("lang", LANGS)
def test_a_misspelt_weapon_key_beside_a_vtm_sheet(tmp_path: Path, lang: str) -> None:
    data = scenario("vtm", lambda c: c[0].update(weapn="couteau"))
    code, err, path = play(tmp_path, data, lang)
    reason = suggest("arme" if lang == "fr" else "weapon", lang)
    assert (code, err) == (2, line(lang, path, entry(1, "a", lang), field("weapn", lang), reason))


@pytest.mark.parametrize("lang", LANGS)
def test_a_misspelt_key_of_the_toy_ruleset(tmp_path: Path, lang: str) -> None:
    data = scenario("duel", lambda c: c[0].update(atack=3))
    code, err, path = play(tmp_path, data, lang)
    reason = suggest("attaque" if lang == "fr" else "attack", lang)
    assert (code, err) == (2, line(lang, path, entry(1, "a", lang), field("atack", lang), reason))


BAD_POSITIONS = [
    ("far", "far"),
    ([1], "[1]"),
    ([1e308, 0], None),
    ([3, "nord"], "[3, 'nord']"),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ruleset", PLACED)
@pytest.mark.parametrize(("value", "shown"), BAD_POSITIONS)
def test_a_bad_position_is_refused(
    tmp_path: Path, ruleset: str, lang: str, value: Any, shown: str | None
) -> None:
    data = scenario(ruleset, lambda c: c[0].update(position=value))
    code, err, path = play(tmp_path, data, lang)
    if shown is None:  # far beyond the map
        reason = (
            "une position doit rester à moins de mille kilomètres de l'origine (reçu « [1e+308, 0] »)"
            if lang == "fr"
            else 'a position must stay within a thousand kilometres of the origin (got "[1e+308, 0]")'
        )
    elif lang == "fr":
        reason = f"une position est deux nombres de mètres, [x, y] (reçu « {shown} »)"
    else:
        reason = f'a position is two numbers of metres, [x, y] (got "{shown}")'
    where = entry(1, "a", lang)
    assert (code, err) == (2, line(lang, path, where, field("position", lang), reason))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ruleset", ALL)
def test_a_side_given_as_a_list_is_refused(tmp_path: Path, ruleset: str, lang: str) -> None:
    def change(c: list[dict[str, Any]]) -> None:
        c[0].pop("camp", None)
        c[0]["side"] = ["x", "y"]

    code, err, path = play(tmp_path, scenario(ruleset, change), lang)
    name = "camp" if lang == "fr" else "side"
    reason = (
        "doit être un texte (reçu « ['x', 'y'] »)"
        if lang == "fr"
        else "must be text (got \"['x', 'y']\")"
    )
    assert (code, err) == (2, line(lang, path, entry(1, "a", lang), field(name, lang), reason))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ruleset", ALL)
def test_a_name_given_as_a_number_is_refused(tmp_path: Path, ruleset: str, lang: str) -> None:
    def change(c: list[dict[str, Any]]) -> None:
        target = c[1]["sheet"] if "sheet" in c[1] else c[1]
        target.pop("nom", None)
        target["nom"] = 3

    code, err, path = play(tmp_path, scenario(ruleset, change), lang)
    name = "nom" if lang == "fr" else "name"
    reason = "doit être un texte (reçu « 3 »)" if lang == "fr" else 'must be text (got "3")'
    assert (code, err) == (2, line(lang, path, entry(2, "b", lang), field(name, lang), reason))


@pytest.mark.parametrize("lang", LANGS)
def test_a_missing_sheet_file_names_the_entry(tmp_path: Path, lang: str) -> None:
    data = scenario("vtm", lambda c: c[0].update(sheet="missing.yaml"))
    code, err, path = play(tmp_path, data, lang)
    name = "fiche" if lang == "fr" else "sheet"
    reason = "pas de fichier « missing.yaml »" if lang == "fr" else 'no file "missing.yaml"'
    assert (code, err) == (2, line(lang, path, entry(1, "a", lang), field(name, lang), reason))


@pytest.mark.parametrize("lang", LANGS)
def test_more_than_five_dots_on_a_mortal(tmp_path: Path, lang: str) -> None:
    data = scenario("vtm", lambda c: c[0]["sheet"].update(Bagarre=6))
    code, err, path = play(tmp_path, data, lang)
    name = "Bagarre" if lang == "fr" else "Brawl"
    reason = (
        "un mortel a au plus 5 points dans un trait (reçu 6)"
        if lang == "fr"
        else "a mortal has at most 5 dots in a trait (got 6)"
    )
    assert (code, err) == (2, line(lang, path, entry(1, "a", lang), field(name, lang), reason))


@pytest.mark.parametrize("lang", LANGS)
def test_carried_willpower_below_zero(tmp_path: Path, lang: str) -> None:
    data = scenario("vtm", lambda c: c[0].update(willpower=-5))
    code, err, path = play(tmp_path, data, lang)
    reason = "doit valoir au moins 0 (reçu -5)" if lang == "fr" else "must be at least 0 (got -5)"
    where = entry(1, "a", lang)
    assert (code, err) == (2, line(lang, path, where, field("willpower", lang), reason))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ruleset", ALL)
def test_five_thousand_nested_brackets(tmp_path: Path, ruleset: str, lang: str) -> None:
    raw = f"ruleset: {ruleset}\ncombatants: " + "[" * 5000 + "]" * 5000 + "\n"
    code, err, path = play(tmp_path, None, lang, raw=raw)
    reason = (
        "listes ou tables imbriquées sur plus de 40 niveaux"
        if lang == "fr"
        else "lists or mappings nested more than 40 levels deep"
    )
    assert (code, err) == (2, typo(f"{ERROR[lang]}{path}{_sep(lang)}{reason}\n", lang))


@pytest.mark.parametrize("lang", LANGS)
def test_a_werewolf_is_a_supernatural_being(tmp_path: Path, lang: str) -> None:
    """``type: loup-garou`` is a spelling of "supernatural" (soaks lethal damage): kept,
    and read as such — not silently a mortal."""
    from conteur.engine import Encounter
    from conteur.engine.scenario import load_scenario

    data = scenario("vtm", lambda c: c[1]["sheet"].update(type="loup-garou"))
    path = tmp_path / "wolf.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True))
    loaded, base = load_scenario(path)
    assert Encounter.start(loaded, base).state.fighters["b"].sheet.kind == "supernatural"


# ------------------------------------------------------------------ options


OPTIONS = [
    (["roll", "vtm", "--pool", "-1"], "--pool", "-1", "entre 0 et 200", "between 0 and 200"),
    (["roll", "vtm", "--pool", "3", "--difficulty", "11"], "--difficulty", "11", None, None),
    (["roll", "vtm", "--pool", "3", "--difficulty", "1"], "--difficulty", "1", None, None),
    (["odds", "vtm", "--pool", "3", "--difficulty", "0"], "--difficulty", "0", None, None),
    (["roll", "western", "--skill", "-5"], "--skill", "-5", "au moins 0", "at least 0"),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("args", "flag", "value", "fr", "en"), OPTIONS)
def test_an_option_outside_the_rules_range(
    args: list[str], flag: str, value: str, fr: str | None, en: str | None, lang: str
) -> None:
    result = runner.invoke(
        app,
        [*args, "--seed", "1", "--lang", lang] if args[0] == "roll" else [*args, "--lang", lang],
    )
    fr = fr or "entre 2 et 10"
    en = en or "between 2 and 10"
    if lang == "fr":
        verb = "doit être" if fr.startswith("entre") else "doit valoir"
        want = f"erreur : {flag} {verb} {fr} (reçu {value})\n"
    else:
        verb = "must be"
        want = f"error: {flag} {verb} {en} (got {value})\n"
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", typo(want, lang))
