"""The hunter script language, in French and English, and bad input."""

from __future__ import annotations

import pytest

from conteur.engine import Command
from conteur.i18n import ConteurError

from .fight import Fight, sheet


def fight() -> Fight:
    return Fight(sheet("ana", name="Ana Reyes"), sheet("bete", name="la Bête"), sheet("goule"))


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("initiative", Command("initiative")),
        ("tour", Command("initiative")),
        ("embuscade bete", Command("ambush", None, {"fighter": "bete"})),
        (
            "mj: couvert ana partiel",
            Command("gm_cover", None, {"fighter": "ana", "cover": "partial"}),
        ),
        (
            "gm: damage goule 2 bashing",
            Command("gm_damage", None, {"fighter": "goule", "amount": 2, "damage_type": "bashing"}),
        ),
        (
            "ana: tire sur bête portée moyenne",
            Command("act", "ana", {"kind": "attack", "target": "bete", "range": "medium"}),
        ),
        (
            "Ana Reyes: attack bete all-out off-hand",
            Command(
                "act",
                "ana",
                {"kind": "attack", "target": "bete", "all_out": True, "off_hand": True},
            ),
        ),
        (
            "ana: rafale longue bete, goule",
            Command("act", "ana", {"kind": "burst", "burst": "long", "targets": ["bete", "goule"]}),
        ),
        (
            "ana: burst medium bete",
            Command("act", "ana", {"kind": "burst", "burst": "medium", "targets": ["bete"]}),
        ),
        (
            "ana: lance pneu sur bete distance 14 loin",
            Command(
                "act",
                "ana",
                {"kind": "throw", "object": "tyre", "target": "bete", "distance": 14, "far": True},
            ),
        ),
        (
            "ana: tire sur bete éviter 1 lutte allié goule",
            Command(
                "act",
                "ana",
                {
                    "kind": "attack",
                    "target": "bete",
                    "avoid": 1,
                    "avoid_grappling": True,
                    "ally": "goule",
                },
            ),
        ),
        ("ana: empoigne bete", Command("act", "ana", {"kind": "grapple", "target": "bete"})),
        (
            "ana: domine renverse",
            Command("act", "ana", {"kind": "overpower", "option": "knock_down"}),
        ),
        (
            "ana: overpower draw weapon knife",
            Command("act", "ana", {"kind": "overpower", "option": "draw", "weapon": "knife"}),
        ),
        ("ana: esquive", Command("dodge", "ana")),
        ("ana: vise bete", Command("act", "ana", {"kind": "aim", "target": "bete"})),
        ("ana: recharge", Command("act", "ana", {"kind": "reload"})),
        ("ana: dégaine knife", Command("act", "ana", {"kind": "draw", "weapon": "knife"})),
        ("ana: retarde après goule", Command("delay", "ana", {"after": "goule"})),
        ("ana: passe", Command("pass", "ana")),
        ("annuler", Command("undo")),
    ],
)
def test_script_lines(line: str, command: Command) -> None:
    f = fight()
    assert f.encounter.ruleset.parse_command(line, f.state) == command


@pytest.mark.parametrize(
    ("line", "key", "word"),
    [
        ("zorglub: attaque bete", "hunter.script.unknown_fighter", "zorglub"),
        ("ana: danse", "hunter.script.unknown_verb_suggest", "danse"),
        ("ana: attaque bete vite", "hunter.script.unknown_word_suggest", "vite"),
        ("ana: attaque bete Zorglub", "hunter.script.unknown_word", "Zorglub"),
        ("ana: initiative", "hunter.script.who", "initiative"),
        ("attaque bete", "hunter.script.who", "attaque"),
        ("ana: attaque bete portée lointaine", "hunter.script.unknown_word", "lointaine"),
        ("ana: tire sur bete portée", "hunter.script.missing_value", "portée"),
    ],
)
def test_bad_script_lines_name_the_line_and_the_word(line: str, key: str, word: str) -> None:
    f = fight()
    with pytest.raises(ConteurError) as err:
        f.encounter.ruleset.parse_command(line, f.state)
    assert err.value.key == key
    assert err.value.params["line"] == line
    assert err.value.params["word"] == word


def test_a_close_word_is_suggested_in_french_and_english() -> None:
    f = fight()
    with pytest.raises(ConteurError) as err:
        f.encounter.ruleset.parse_command("ana: tirre sur bete", f.state)
    assert err.value.key == "hunter.script.unknown_verb_suggest"
    assert err.value.params["suggestions"].words == ["tire"]
    assert err.value.message("en") == (
        '"ana: tirre sur bete": unknown command "tirre"; did you mean "tire"?'
    )
    with pytest.raises(ConteurError) as err:
        f.encounter.ruleset.parse_command("mj: couvert ana", f.state)
    assert err.value.key == "hunter.script.missing"
    assert err.value.message("en").startswith('"mj: couvert ana": missing a cover (none,')


@pytest.mark.parametrize(
    ("line", "command"),
    [
        # Phrases of several words, written with spaces, dashes or apostrophes.
        ("ana: s'évade", Command("act", "ana", {"kind": "escape"})),
        ("ana: dégaine vite knife", Command("quick_draw", "ana", {"weapon": "knife"})),
        (
            "ana: tire sur la Bête tout pour tout",
            Command("act", "ana", {"kind": "attack", "target": "bete", "all_out": True}),
        ),
        ("ana: vise Ana Reyes", Command("act", "ana", {"kind": "aim", "target": "ana"})),
        ("ana: tire on bete", Command("act", "ana", {"kind": "attack", "target": "bete"})),
    ],
)
def test_phrases_of_several_words(line: str, command: Command) -> None:
    f = fight()
    assert f.encounter.ruleset.parse_command(line, f.state) == command


@pytest.mark.parametrize(
    ("field", "value", "key"),
    [
        ("forse", 3, "input.invalid"),
        ("force", -1, "hunter.sheet.bad_value"),
        ("arme", "bazooka", "hunter.unknown_weapon"),
        ("armure", "mithril", "hunter.unknown_armour"),
        ("type", "vampire", "hunter.sheet.bad_kind"),
    ],
)
def test_sheet_typos_are_refused_naming_the_field(field: str, value: object, key: str) -> None:
    with pytest.raises(ConteurError) as err:
        Fight({"id": "x", field: value})
    assert err.value.key == key


def test_kind_is_kept_in_french_or_english_default_hunter() -> None:
    f = Fight({"id": "a"}, {"id": "b", "type": "monstre"}, {"id": "c", "kind": "bystander"})
    assert [f[x].kind for x in "abc"] == ["hunter", "monster", "bystander"]


def test_a_refused_command_changes_nothing() -> None:
    f = Fight(sheet("a"), sheet("b"))
    f.start(9, 1)
    before = f.state
    with pytest.raises(ConteurError):
        f.act("a", target="b", dice=[2])  # a pool of 3 needs three faces
    assert f.state is before and len(f.encounter.log) == 1
    with pytest.raises(ConteurError) as err:
        f.act("a", "attack", target="nobody")
    assert err.value.key == "hunter.unknown_fighter"


def test_unknown_table_option_is_refused() -> None:
    with pytest.raises(ConteurError) as err:
        Fight(sheet("a"), options={"no_defence": True})
    assert err.value.key == "hunter.unknown_option"
