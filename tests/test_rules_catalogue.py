"""The rule catalogue (``data/rules.yaml`` of each ruleset and pack) and its loader."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conteur.engine.registry import get_ruleset
from conteur.engine.rules import (
    RuleText,
    all_rule_texts,
    describe_rule,
    load_rule_texts,
    parse_rule_texts,
)
from conteur.i18n import ConteurError

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
CITED = re.compile(r"(?<![A-Za-z0-9])([VRWH])[-_]([A-Z]+)[-_](\d+)(?![0-9])")

CATALOGUES = {
    "V": ("conteur.rulesets.vtm", SRC / "conteur/rulesets/vtm/data/rules.yaml"),
    "R": (
        "conteur.rulesets.vtm.packs.house_ranged",
        SRC / "conteur/rulesets/vtm/packs/house_ranged/data/rules.yaml",
    ),
    "W": ("conteur.rulesets.western", SRC / "conteur/rulesets/western/data/rules.yaml"),
    "H": ("conteur.rulesets.hunter", SRC / "conteur/rulesets/hunter/data/rules.yaml"),
}


def cited_in_src() -> dict[str, set[str]]:
    """``{prefix: ids}`` named anywhere under src/ but in the catalogue files themselves."""
    found: dict[str, set[str]] = {prefix: set() for prefix in CATALOGUES}
    for path in SRC.rglob("*"):
        if path.suffix not in (".py", ".yaml", ".yml", ".json") or path.name == "rules.yaml":
            continue
        for match in CITED.finditer(path.read_text(encoding="utf-8")):
            found[match.group(1)].add("-".join(match.groups()))
    return found


@pytest.mark.parametrize("prefix", list(CATALOGUES))
def test_the_catalogue_has_exactly_the_ids_the_code_cites(prefix: str) -> None:
    """No rule id cited in src/ that the catalogue lacks, no catalogued id the code ignores."""
    package, path = CATALOGUES[prefix]
    assert path.is_file()
    ids = set(load_rule_texts(package))
    assert {rule.split("-")[0] for rule in ids} == {prefix}
    assert ids == cited_in_src()[prefix]


def test_every_rule_has_a_title_and_a_one_line_summary_in_french_and_english() -> None:
    texts = all_rule_texts()
    # The 147 rules conteur ships, and the toy ruleset's 4 (tests/plugins).
    assert len([r for r in texts if not r.startswith("D-")]) == 147
    assert len(texts) == 147 + 4
    for rule, text in texts.items():
        assert text.id == rule
        for value in (text.title_fr, text.title_en, text.summary_fr, text.summary_en):
            assert value.strip() == value and value and "\n" not in value, rule
        assert text.title_fr != text.title_en, rule
        assert text.summary_fr != text.summary_en, rule
    assert len({t.summary_en for t in texts.values()}) == len(texts)  # no copy-paste slip


def test_each_ruleset_gives_its_own_rules() -> None:
    vtm = get_ruleset("vtm").rule_texts()  # type: ignore[attr-defined]
    assert {r.split("-")[0] for r in vtm} == {"V", "R"}
    assert len([r for r in vtm if r.startswith("R-")]) == 16
    hunter = get_ruleset("hunter").rule_texts()  # type: ignore[attr-defined]
    western = get_ruleset("western").rule_texts()  # type: ignore[attr-defined]
    assert {r.split("-")[0] for r in hunter} == {"H"}
    assert {r.split("-")[0] for r in western} == {"W"}
    assert (len(vtm), len(hunter), len(western)) == (84, 38, 25)


def test_a_rule_text_in_each_language() -> None:
    text = all_rule_texts()["V-SOAK-2"]
    assert text.text("fr") == (
        "Endurance",
        "L'Endurance s'ajoute à la Vigueur contre contondants et létaux et forme seule "
        "la réserve contre les aggravés.",
    )
    assert text.title("en") == "Fortitude"
    assert text.summary() == text.summary_fr  # French by default


def test_describe_rule_finds_an_id_across_the_rulesets(monkeypatch: pytest.MonkeyPatch) -> None:
    assert describe_rule("R-SPREAD-3", "en") == (
        "R-SPREAD-3 — Sawed-off shotgun: A sawed-off gun follows the same bands with every "
        "distance halved."
    )
    assert describe_rule("W-KO-2", "fr") == (
        "W-KO-2 — Objet lourd : Il faut un objet lourd, crosse de revolver ou bâton."
    )
    monkeypatch.setenv("CONTEUR_LANG", "en")
    assert (
        describe_rule("H-OFF-1") == "H-OFF-1 — Off hand: Attacking with the off hand costs 2 dice."
    )
    assert describe_rule("V-ZZZ-1") is None


# ------------------------------------------------------------------------ a bad catalogue

GOOD = """
V-ZZZ-1:
  fr: {title: "Titre", summary: "Résumé."}
  en: {title: "Title", summary: "Summary."}
"""


def test_a_good_file_parses_into_rule_texts() -> None:
    assert parse_rule_texts(GOOD, "x/rules.yaml") == {
        "V-ZZZ-1": RuleText("V-ZZZ-1", "Titre", "Title", "Résumé.", "Summary.")
    }


@pytest.mark.parametrize(
    ("text", "fr", "en"),
    [
        (
            GOOD.replace('summary: "Summary."', 'summary: "Summary.", note: "x"'),
            "règle V-ZZZ-1, champ en.note : champ inconnu",
            "rule V-ZZZ-1, field en.note: unknown field",
        ),
        (
            GOOD.replace(', summary: "Résumé."', ""),
            "règle V-ZZZ-1, champ fr.summary : obligatoire, absent",
            "rule V-ZZZ-1, field fr.summary: required, missing",
        ),
        (
            GOOD.replace('title: "Title"', "title: 12"),
            "règle V-ZZZ-1, champ en.title : doit être un texte (reçu « 12 »)",
            'rule V-ZZZ-1, field en.title: must be text (got "12")',
        ),
        (
            GOOD.replace('title: "Titre"', 'title: "  "'),
            "règle V-ZZZ-1, champ fr.title : ne peut pas être vide",
            "rule V-ZZZ-1, field fr.title: cannot be empty",
        ),
        (
            GOOD.replace('"Summary."', '"Two\\nlines."'),
            "règle V-ZZZ-1, champ en.summary : doit tenir sur une ligne",
            "rule V-ZZZ-1, field en.summary: must fit on one line",
        ),
        (
            GOOD.replace("  en: {", "  de: {"),
            "règle V-ZZZ-1, champ de : champ inconnu",
            "rule V-ZZZ-1, field de: unknown field",
        ),
        (
            GOOD + GOOD,
            "règle V-ZZZ-1, champ id : identifiant donné deux fois",
            "rule V-ZZZ-1, field id: id given twice",
        ),
        (
            GOOD.replace("V-ZZZ-1:", "V_ZZZ_1:"),
            "règle V_ZZZ_1, champ id : identifiant mal formé",
            "rule V_ZZZ_1, field id: malformed id",
        ),
        (
            "- V-ZZZ-1\n",
            "règle -, champ - : le fichier doit associer chaque identifiant",
            "rule -, field -: the file must map each rule id",
        ),
        (
            "V-ZZZ-1: [fr, en]\n",
            "règle V-ZZZ-1, champ - : doit être une table de clés et de valeurs",
            "rule V-ZZZ-1, field -: must be a mapping of keys to values",
        ),
    ],
)
def test_a_bad_file_names_file_entry_and_field(text: str, fr: str, en: str) -> None:
    with pytest.raises(ConteurError) as err:
        parse_rule_texts(text, "pkg/data/rules.yaml")
    assert err.value.key == "rules.invalid"
    assert err.value.message("fr").startswith(f"catalogue de règles pkg/data/rules.yaml, {fr}")
    assert err.value.message("en").startswith(f"rule catalogue pkg/data/rules.yaml, {en}")


def test_a_file_that_is_not_yaml_or_is_missing_is_unreadable() -> None:
    with pytest.raises(ConteurError) as err:
        parse_rule_texts("V-ZZZ-1: [unclosed\n", "pkg/data/rules.yaml")
    assert err.value.key == "rules.unreadable"
    assert err.value.message("en").startswith(
        "cannot read the rule catalogue pkg/data/rules.yaml: "
    )
    with pytest.raises(ConteurError) as err:
        load_rule_texts("conteur.rulesets.vtm", "data/no-such-file.yaml")
    assert err.value.key == "rules.unreadable"
    assert err.value.message("fr").startswith(
        "catalogue de règles conteur.rulesets.vtm/data/no-such-file.yaml illisible : "
    )
