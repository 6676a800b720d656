"""The script language (``conteur.rulesets.vtm.script``): every verb and detail, in French
and English, and errors that name the line, the word and the closest words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from conteur.engine import Command, Encounter
from conteur.i18n import ConteurError
from conteur.rulesets.vtm import VtmRuleset
from conteur.rulesets.vtm.script import parse_line, script_words, tokenize
from conteur.rulesets.vtm.state import VtmState

SCENARIO: dict[str, Any] = {
    "ruleset": "vtm",
    "combatants": [
        {
            "id": "bob",
            "name": "Bob Dalton",
            "dexterity": 3,
            "firearms": 3,
            "weapons": ["colt"],
            "side": "a",
            "position": [0, 0],
        },
        {
            "id": "lucien",
            "name": "Lucien de Montfort",
            "kind": "vampire",
            "dexterity": 4,
            "brawl": 3,
            "celerity": 2,
            "side": "b",
            "position": [1, 0],
        },
        {
            "id": "mary",
            "name": "Mary",
            "dexterity": 2,
            "firearms": 2,
            "weapons": ["winchester"],
            "side": "a",
            "position": [0, 1],
        },
    ],
}


def state(phase: str = "declaration") -> VtmState:
    s = Encounter.start(SCENARIO).state
    assert isinstance(s, VtmState)
    s.phase = phase  # type: ignore[assignment]
    return s


def parse(line: str, phase: str = "declaration") -> Command:
    return parse_line(line, state(phase))


def args(line: str, phase: str = "declaration") -> dict[str, Any]:
    return parse(line, phase).args


def refused(line: str, phase: str = "declaration") -> ConteurError:
    with pytest.raises(ConteurError) as err:
        parse(line, phase)
    return err.value


# ------------------------------------------------------------------ lines with nobody in front


@pytest.mark.parametrize(
    "line", ["initiative", "Tour", "TURN", "nouveau tour", "new turn", "mj: initiative"]
)
def test_initiative(line: str) -> None:
    assert parse(line) == Command("initiative", None, {})


def test_initiative_may_carry_the_turn_number() -> None:
    assert parse("tour 2").args == {"turn": 2}


@pytest.mark.parametrize("line", ["annuler", "Annule", "undo", "gm: undo"])
def test_undo(line: str) -> None:
    assert parse(line).type == "undo"


def test_comments_and_case_and_accents() -> None:
    assert parse("  INITIATIVE   # le tour commence") == Command("initiative", None, {})
    one = args("BOB: DÉCLARE TIRER SUR LUCIEN")
    two = args("bob: declare tirer sur lucien")
    assert one == two == {"actions": [{"kind": "shoot", "target": "lucien"}]}


# ------------------------------------------------------------------ fighters


@pytest.mark.parametrize("actor", ["bob", "Bob Dalton", "BOB DALTON", "dalton"])
def test_fighters_by_id_name_or_unique_name_word(actor: str) -> None:
    assert parse(f"{actor}: passe", "resolution").actor == "bob"


def test_fighter_names_ignore_accents() -> None:
    s = state()
    s.fighters["lucien"].sheet = s.fighters["lucien"].sheet.model_copy(update={"name": "Lucièn"})
    assert parse_line("lucien: passe", s).actor == "lucien"
    assert (
        parse_line("LUCIEN: déclare coup de poing sur bob", s).args["actions"][0]["target"] == "bob"
    )


def test_an_actor_without_colon() -> None:
    assert parse("bob tire sur lucien") == parse("bob: tire sur lucien")


# ------------------------------------------------------------------ declarations


@pytest.mark.parametrize(
    "line",
    [
        "bob: déclare tirer sur lucien avec le colt",
        "bob: declare shoot lucien with colt",
        "bob: déclare tire sur Lucien de Montfort avec le revolver lourd",
        "bob: declares fires at lucien using the heavy revolver",
        "bob: tirer sur lucien avec colt",  # no verb while declaring: a declaration
    ],
)
def test_declare_a_shot(line: str) -> None:
    assert parse(line) == Command(
        "declare",
        "bob",
        {"actions": [{"kind": "shoot", "target": "lucien", "weapon": "heavy_revolver"}]},
    )


@pytest.mark.parametrize(
    "line",
    [
        "lucien: déclare coup de poing sur bob puis coup de poing sur mary + esquive, célérité 2",
        "lucien: declare punch bob then punch mary + dodge celerity 2",
        "lucien: déclare poing bob ; poing mary ; esquive ; avec célérité 2",
    ],
)
def test_declare_multiple_actions_with_celerity(line: str) -> None:
    assert args(line) == {
        "actions": [
            {"kind": "punch", "target": "bob"},
            {"kind": "punch", "target": "mary"},
            {"kind": "dodge"},
        ],
        "celerity": 2,
    }


@pytest.mark.parametrize("line", ["lucien: déclare célérité", "lucien: declare celerity"])
def test_celerity_alone_is_one_dot(line: str) -> None:
    assert args(line)["celerity"] == 1


@pytest.mark.parametrize(
    "line",
    [
        "bob: déclare tirer sur lucien x3",
        "bob: declare shoot lucien 3 times",
        "bob: déclare tirer 3 fois sur lucien",
    ],
)
def test_repeated_action(line: str) -> None:
    assert args(line)["actions"] == [{"kind": "shoot", "target": "lucien"}] * 3


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("bob: déclare tirer sur lucien avec volonté", {"willpower": True}),
        ("bob: declare shoot lucien with willpower", {"willpower": True}),
        ("bob: retarde", {"delay": True}),
        ("bob: déclare retarder", {"delay": True}),
        ("bob: delay", {"delay": True}),
        ("bob: declare wait", {"delay": True}),
        ("bob: défense totale esquive", {"full_defense": "dodge"}),
        ("bob: défense totale", {"full_defense": "dodge"}),
        ("bob: full defense block", {"full_defense": "block"}),
        ("bob: déclare défense complète parade", {"full_defense": "parry"}),
    ],
)
def test_declaration_details(line: str, expected: dict[str, Any]) -> None:
    got = args(line)
    for key, value in expected.items():
        assert got[key] == value


@pytest.mark.parametrize(
    ("words", "kind"),
    [
        ("coup de poing", "punch"),
        ("punch", "punch"),
        ("coup de pied", "kick"),
        ("kick", "kick"),
        ("balayage", "sweep"),
        ("sweep", "sweep"),
        ("empoigne", "grapple"),
        ("grapple", "grapple"),
        ("immobilise", "hold"),
        ("hold", "hold"),
        ("mord", "bite"),
        ("bite", "bite"),
        ("plaque", "tackle"),
        ("tackle", "tackle"),
        ("désarme", "disarm"),
        ("disarm", "disarm"),
        ("griffes", "claws"),
        ("claws", "claws"),
        ("frappe", "weapon_strike"),
        ("strike", "weapon_strike"),
        ("lance", "throw"),
        ("throw", "throw"),
        ("esquive", "dodge"),
        ("dodge", "dodge"),
        ("pare", "parry"),
        ("parry", "parry"),
        ("bloque", "block"),
        ("block", "block"),
        ("vise", "aim"),
        ("aim", "aim"),
        ("recharger", "reload"),
        ("reload", "reload"),
        ("se relever", "stand_up"),
        ("stand up", "stand_up"),
        ("dégainer", "draw"),
        ("draw", "draw"),
        ("autre", "other"),
        ("other", "other"),
        ("se déplacer", "move"),
        ("move", "move"),
        ("courir", "move"),
        ("run", "move"),
        ("arroser", "spray"),
        ("spray", "spray"),
        ("rafale", "three_round_burst"),
        ("burst", "three_round_burst"),
        ("tir automatique", "full_auto"),
        ("full-auto", "full_auto"),
        ("deux armes", "two_weapons"),
        ("two guns", "two_weapons"),
        ("serre", "grapple_damage"),
        ("squeeze", "grapple_damage"),
        ("se dégage", "break_free"),
        ("break free", "break_free"),
        ("lâche prise", "release"),
        ("let go", "release"),
    ],
)
def test_every_action_word_in_both_languages(words: str, kind: str) -> None:
    assert args(f"bob: déclare {words}")["actions"][0]["kind"] == kind


@pytest.mark.parametrize(
    ("words", "params"),
    [
        ("visée tête", {"location": "head"}),
        ("in the head", {"location": "head"}),
        ("à la jambe", {"location": "leg"}),
        ("arm", {"location": "arm"}),
        ("au cœur", {"location": "heart"}),
        ("heart", {"location": "heart"}),
        ("dans l'œil", {"location": "eye"}),
        ("eye", {"location": "eye"}),
        ("à la main", {"location": "hand"}),
        ("hand", {"location": "hand"}),
        ("petite cible", {"targeting": "small"}),
        ("precise target", {"targeting": "precise"}),
        ("de flanc", {"angle": "flank"}),
        ("from the flank", {"angle": "flank"}),
        ("dans le dos", {"angle": "behind"}),
        ("from behind", {"angle": "behind"}),
        ("sans être vu", {"unseen": True}),
        ("main gauche", {"off_hand": True}),
        ("off hand", {"off_hand": True}),
        ("3 tirs", {"shots": 3}),
        ("shots 2", {"shots": 2}),
        ("en s'approchant de mary", {"move_to": "mary"}),
        ("moving to 3,4", {"move_to": [3.0, 4.0]}),
        ("en allant vers (2,5 ; 4)", {"move_to": [2.5, 4.0]}),
        ("visée cœur, sous l'armure", {"location": "heart", "bypass_armour": True}),
        ("in the heart, past the armour", {"location": "heart", "bypass_armour": True}),
        ("visée tête, ce qui dépasse du couvert", {"location": "head", "bypass_cover": True}),
        ("in the head over the cover", {"location": "head", "bypass_cover": True}),
    ],
)
def test_action_details(words: str, params: dict[str, Any]) -> None:
    action = args(f"bob: déclare tirer sur lucien {words}")["actions"][0]
    assert action == {"kind": "shoot", "target": "lucien", **params}


@pytest.mark.parametrize(
    ("line", "action"),
    [
        (
            "bob: déclare se déplacer vers 10,0 à couvert bon",
            {"kind": "move", "to": [10.0, 0.0], "cover": 2},
        ),
        (
            "bob: declare move to 10 0 into cover light",
            {"kind": "move", "to": [10.0, 0.0], "cover": 1},
        ),
        ("bob: déclare courir vers lucien", {"kind": "move", "target": "lucien"}),
        ("bob: declare move to 4;2 cover superior", {"kind": "move", "to": [4.0, 2.0], "cover": 3}),
        (
            "bob: déclare se déplacer vers 3,4 couvert derrière un mur",
            {"kind": "move", "to": [3.0, 4.0], "cover": 2},
        ),
    ],
)
def test_moves_and_cover(line: str, action: dict[str, Any]) -> None:
    assert args(line)["actions"] == [action]


def test_other_action_with_a_roll() -> None:
    line = 'bob: déclare autre jet Dextérité + Athlétisme difficulté 7 "sauter la barrière"'
    assert args(line)["actions"] == [
        {
            "kind": "other",
            "traits": "dexterity+athletics",
            "difficulty": 7,
            "purpose": "sauter la barrière",
        }
    ]
    assert (
        args("bob: declare other roll Wits + Alertness difficulty 5")["actions"][0]["traits"]
        == "wits+alertness"
    )


def test_draw_names_the_weapon() -> None:
    assert args("mary: déclare dégainer la winchester")["actions"] == [
        {"kind": "draw", "weapon": "lever_action_rifle"}
    ]


def test_two_weapons_are_two_actions() -> None:
    """V-RNG-4: a declaration firing two weapons is written one action per weapon."""
    both = args(
        "bob: déclare tirer sur lucien avec le colt puis tirer sur lucien avec le derringer"
    )
    assert [a["weapon"] for a in both["actions"]] == ["heavy_revolver", "derringer"]
    err = refused("bob: declare two guns at lucien with colt and derringer")
    assert (
        err.key == "vtm.script.two_weapons"
        and "puis" in err.message("fr")
        and "then" in err.message("en")
    )


def test_several_targets_are_kept() -> None:
    """V-RNG-2: a spray names its targets, and who takes the leftover successes."""
    action = args("bob: déclare arroser lucien et mary, le reste à mary")["actions"][0]
    assert action["target"] == "lucien" and action["targets"] == ["lucien", "mary"]
    assert action["leftovers"] == ["mary"]
    action = args("bob: declare spray lucien and mary, leftovers to lucien")["actions"][0]
    assert action["targets"] == ["lucien", "mary"] and action["leftovers"] == ["lucien"]


# ------------------------------------------------------------------ acting and defending


@pytest.mark.parametrize("line", ["lucien: agit", "lucien: act", "Lucien: ACTS", "lucien:"])
def test_act(line: str) -> None:
    assert parse(line, "resolution") == Command("act", "lucien", {})


@pytest.mark.parametrize(
    "line",
    [
        "mary: agit: tirer sur bob à la tête",
        "mary: act: shoot bob in the head",
        "mary: tire sur bob, visée tête",  # no verb during the resolution: acting
    ],
)
def test_a_delayed_fighter_says_what_it_does(line: str) -> None:
    assert parse(line, "resolution") == Command(
        "act", "mary", {"kind": "shoot", "target": "bob", "location": "head"}
    )


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("bob: esquive", {"kind": "dodge"}),
        ("bob: dodge", {"kind": "dodge"}),
        ("bob: pare", {"kind": "parry"}),
        ("bob: parry", {"kind": "parry"}),
        ("bob: bloque", {"kind": "block"}),
        ("bob: block", {"kind": "block"}),
        ("bob: se défend esquive", {"kind": "dodge"}),
        ("bob: defends block", {"kind": "block"}),
        ("bob: esquive avec un point de volonté", {"kind": "dodge", "abort": "point"}),
        ("bob: dodge with a willpower point", {"kind": "dodge", "abort": "point"}),
        ("bob: esquive (volonté point)", {"kind": "dodge", "abort": "point"}),
        ("bob: pare, jet de volonté", {"kind": "parry", "abort": "roll"}),
        ("bob: parry (willpower roll)", {"kind": "parry", "abort": "roll"}),
        ("bob: annule pour bloquer avec un jet de volonté", {"kind": "block", "abort": "roll"}),
        ("bob: abort to dodge, willpower point", {"kind": "dodge", "abort": "point"}),
    ],
)
def test_defend(line: str, expected: dict[str, Any]) -> None:
    assert parse(line, "resolution") == Command("defend", "bob", expected)


def test_a_defence_word_while_declaring_is_a_declared_defence() -> None:
    assert parse("bob: esquive") == Command("declare", "bob", {"actions": [{"kind": "dodge"}]})


@pytest.mark.parametrize("line", ["mary: agit: serre bob", "mary: act: squeeze bob"])
def test_a_locked_fighter_names_its_follow_up(line: str) -> None:
    """V-CC-7: once locked, a fighter acts with a follow-up in place of its declared action."""
    assert parse(line, "resolution") == Command(
        "act", "mary", {"kind": "grapple_damage", "target": "bob"}
    )


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("bob: tente de se relever", Command("get_up", "bob", {})),
        ("bob: tries to get up", Command("get_up", "bob", {})),
        ("lucien: referme la plaie", Command("close_wound", "lucien", {})),
        ("lucien: closes the wound", Command("close_wound", "lucien", {})),
    ],
)
def test_get_up_and_close_the_wound(line: str, command: Command) -> None:
    """V-DMG-7 (standing up between turns), V-CC-10 (closing the wound after the Kiss)."""
    assert parse(line, "setup") == command


@pytest.mark.parametrize("line", ["bob: passe", "bob: pass", "bob: ne fait rien"])
def test_pass(line: str) -> None:
    assert parse(line, "resolution") == Command("pass", "bob", {})


@pytest.mark.parametrize(
    "line",
    [
        "lucien: embuscade coup de poing sur bob, si égalité esquive",
        "lucien: ambush punch bob, on a tie dodge",
    ],
)
def test_ambush(line: str) -> None:
    assert parse(line, "setup") == Command(
        "ambush", "lucien", {"kind": "punch", "target": "bob", "defence": "dodge"}
    )


# ------------------------------------------------------------------ the game master


@pytest.mark.parametrize(
    ("line", "command"),
    [
        (
            "mj: modificateur bob +2 dés difficulté -1 fumée épaisse",
            Command(
                "gm_modifier",
                None,
                {"fighter": "bob", "dice": 2, "difficulty": -1, "reason": "fumée épaisse"},
            ),
        ),
        (
            'gm: modifier bob difficulty +1 reason "smoke"',
            Command("gm_modifier", None, {"fighter": "bob", "difficulty": 1, "reason": "smoke"}),
        ),
        (
            "mj: dégâts bob 2 létaux",
            Command("gm_damage", None, {"fighter": "bob", "levels": 2, "damage_type": "lethal"}),
        ),
        (
            "gm: damage bob 3 aggravated",
            Command(
                "gm_damage", None, {"fighter": "bob", "levels": 3, "damage_type": "aggravated"}
            ),
        ),
        (
            "mj: dégâts bob contondants",
            Command("gm_damage", None, {"fighter": "bob", "levels": 1, "damage_type": "bashing"}),
        ),
        ("mj: soin bob 2", Command("gm_heal", None, {"fighter": "bob", "levels": 2})),
        (
            "gm: heal bob 1 aggravated",
            Command("gm_heal", None, {"fighter": "bob", "levels": 1, "damage_type": "aggravated"}),
        ),
        (
            "mj: état bob à terre",
            Command(
                "gm_condition", None, {"fighter": "bob", "condition": "knocked_down", "value": True}
            ),
        ),
        (
            "gm: condition bob dazed off",
            Command("gm_condition", None, {"fighter": "bob", "condition": "dazed", "value": False}),
        ),
        (
            "mj: état bob retire aveuglé",
            Command(
                "gm_condition", None, {"fighter": "bob", "condition": "blinded", "value": False}
            ),
        ),
        (
            "mj: complication bob jam",
            Command("gm_complication", None, {"fighter": "bob", "id": "jam"}),
        ),
        (
            "gm: complication bob The gun jams badly",
            Command("gm_complication", None, {"fighter": "bob", "text": "The gun jams badly"}),
        ),
        (
            "mj: note Le saloon prend feu",
            Command("gm_note", None, {"reason": "Le saloon prend feu"}),
        ),
        ('gm: note "The lights go out"', Command("gm_note", None, {"reason": "The lights go out"})),
        ("mj: place bob 3,4", Command("gm_move", None, {"fighter": "bob", "to": [3.0, 4.0]})),
        (
            "gm: move bob to (2.5, 4)",
            Command("gm_move", None, {"fighter": "bob", "to": [2.5, 4.0]}),
        ),
        (
            "mj: déplace bob en 2 -1",
            Command("gm_move", None, {"fighter": "bob", "to": [2.0, -1.0]}),
        ),
        ("mj: couvert bob bon", Command("gm_cover", None, {"fighter": "bob", "level": 2})),
        ("gm: cover bob 3", Command("gm_cover", None, {"fighter": "bob", "level": 3})),
        ("mj: couvert bob aucun", Command("gm_cover", None, {"fighter": "bob", "level": 0})),
        ("gm: cover bob light", Command("gm_cover", None, {"fighter": "bob", "level": 1})),
        (
            "mj: arme bob colt",
            Command("gm_weapon", None, {"fighter": "bob", "weapon": "heavy_revolver"}),
        ),
        ("gm: weapon bob none", Command("gm_weapon", None, {"fighter": "bob", "weapon": None})),
        ("mj: volonté bob 1", Command("gm_willpower", None, {"fighter": "bob", "amount": 1})),
        ("mj: volonté bob -1", Command("gm_willpower", None, {"fighter": "bob", "amount": 1})),
        ("mj: volonté bob +1", Command("gm_willpower", None, {"fighter": "bob", "amount": -1})),
        (
            "gm: willpower bob restore 2",
            Command("gm_willpower", None, {"fighter": "bob", "amount": -2}),
        ),
        (
            "gm: willpower bob spends 2",
            Command("gm_willpower", None, {"fighter": "bob", "amount": 2}),
        ),
        (
            "mj: désarmement raté bob désarmé",
            Command("gm_disarm_botch", None, {"fighter": "bob", "outcome": "disarmed"}),
        ),
        (
            "gm: disarm botch bob struck",
            Command("gm_disarm_botch", None, {"fighter": "bob", "outcome": "struck"}),
        ),
    ],
)
def test_game_master(line: str, command: Command) -> None:
    assert parse(line, "resolution") == command


def test_game_master_maneuver() -> None:
    line = "mj: manœuvre coup de boule {traits: [[strength, brawl]], difficulty: 1, damage: strength+1, damage_type: bashing}"
    command = parse(line)
    assert command.type == "gm_maneuver" and command.args["id"] == "coup_de_boule"
    spec = command.args["spec"]
    assert spec["traits"] == [["strength", "brawl"]] and spec["difficulty"] == 1
    assert "coup de boule" in spec["words"]


def test_a_custom_maneuver_becomes_a_word_of_the_script() -> None:
    """V-CC-0: once the Conteur defines a maneuver, its name is an action word."""
    from conteur.dice import TypedDice

    enc = Encounter.start(SCENARIO)
    line = "gm: maneuver headbutt {traits: [[strength, brawl]], difficulty: 1, damage: strength+1, damage_type: bashing}"
    enc.execute(parse_line(line, enc.state), TypedDice([]))
    enc.state.phase = "declaration"
    assert parse_line("bob: declare headbutt lucien", enc.state).args["actions"] == [
        {"kind": "headbutt", "target": "lucien"}
    ]


# ------------------------------------------------------------------ the whole command set


FRENCH = [
    "initiative",
    "annuler",
    "bob: déclare tirer sur lucien",
    "lucien: agit",
    "bob: esquive",
    "bob: passe",
    "lucien: embuscade coup de poing sur bob",
    "mj: modificateur bob +1 dés fumée",
    "mj: dégâts bob 1",
    "mj: soin bob 1",
    "mj: état bob sonné",
    "mj: complication bob jam",
    "mj: manœuvre tête {traits: [[strength, brawl]]}",
    "mj: note rien",
    "mj: place bob 1,1",
    "mj: couvert bob 1",
    'mj: zone de couvert bon "0,0 4,0 4,4"',
    "mj: efface la zone z1",
    "mj: arme bob colt",
    "mj: volonté bob 1",
    "bob: tente de se relever",
    "lucien: referme la plaie",
    "mj: désarmement raté bob touché",
    "mj: force bob santé LLB",
    "mj: renfort {id: cid, side: b, dexterity: 2}",
    "mj: retire du combat bob",
]
ENGLISH = [
    "turn",
    "undo",
    "bob: declare shoot lucien",
    "lucien: act",
    "bob: dodge",
    "bob: pass",
    "lucien: ambush punch bob",
    "gm: modifier bob +1 dice smoke",
    "gm: damage bob 1",
    "gm: heal bob 1",
    "gm: condition bob dazed",
    "gm: complication bob jam",
    "gm: maneuver head {traits: [[strength, brawl]]}",
    "gm: note nothing",
    "gm: move bob 1,1",
    "gm: cover bob 1",
    'gm: cover zone good "0,0 4,0 4,4"',
    "gm: erase zone z1",
    "gm: weapon bob colt",
    "gm: willpower bob 1",
    "bob: tries to get up",
    "lucien: closes the wound",
    "gm: disarm botch bob struck",
    "gm: override bob willpower 2",
    "gm: joins {id: cid, side: b, dexterity: 2}",
    "gm: withdraw bob",
]


@pytest.mark.parametrize("lines", [FRENCH, ENGLISH], ids=["fr", "en"])
def test_every_engine_command_can_be_written(lines: list[str]) -> None:
    """Each command the vtm handlers take has a line, in French and in English."""
    phases = {"bob: esquive": "resolution", "bob: dodge": "resolution"}
    made = {parse(line, phases.get(line, "declaration")).type for line in lines}
    assert set(VtmRuleset().handlers) | {"undo"} == made


def test_the_words_are_data() -> None:
    """Verbs and details live in data/script.yaml; each GM verb names an engine command."""
    words = script_words()
    assert set(words.gm_verbs) <= set(VtmRuleset().handlers)
    assert {v.command for v in words.verbs.values()} <= set(VtmRuleset().handlers)


# ------------------------------------------------------------------ errors


def test_unknown_word_suggests_close_words_in_both_languages() -> None:
    err = refused("bob: déclare tirre sur lucien")
    assert err.key == "vtm.script.unknown_word_suggest"
    fr, en = err.message("fr"), err.message("en")
    assert "« bob: déclare tirre sur lucien »" in fr and "« tirre »" in fr and "« tire »" in fr
    assert "vouliez-vous dire" in fr
    assert '"tirre" not understood' in en and '"tire"' in en and "did you mean" in en


def test_unknown_fighter_suggests_names() -> None:
    err = refused("bobb: agit")
    assert err.key == "vtm.script.unknown_actor_suggest"
    assert "« Bob Dalton »" in err.message("fr") and '"Bob Dalton"' in err.message("en")
    assert (
        "bobb: agit" in err.message("fr")
        and "mj" in err.message("fr")
        and "gm" in err.message("en")
    )
    err = refused("bob: déclare tirer sur lucienn")
    assert "« Lucien de Montfort »" in err.message("fr")


def test_unknown_game_master_command() -> None:
    assert parse("mj: dégat bob").type == "gm_damage"  # close enough to read
    err = refused("mj: blah bob")
    assert err.key == "vtm.script.unknown_gm_verb"
    assert "« blah »" in err.message("fr") and "dégâts" in err.message("fr")
    assert '"blah"' in err.message("en")
    err = refused("gm: damgae bob")
    assert err.key == "vtm.script.unknown_gm_verb_suggest" and '"damage"' in err.message("en")


def test_an_action_needs_a_maneuver() -> None:
    err = refused("bob: déclare sur lucien")
    assert err.key == "vtm.script.no_action"
    assert "« sur lucien »" in err.message("fr") and '"sur lucien"' in err.message("en")


def test_two_actions_need_a_separator() -> None:
    err = refused("bob: déclare tirer sur lucien coup de poing")
    assert err.key == "vtm.script.two_actions"
    assert "puis" in err.message("fr") and "then" in err.message("en")


def test_a_stray_number() -> None:
    err = refused("bob: déclare tirer 3")
    assert (
        err.key == "vtm.script.number"
        and "« 3 »" in err.message("fr")
        and '"3"' in err.message("en")
    )


def test_a_keyword_without_its_value() -> None:
    err = refused("bob: déclare tirer sur lucien visée")
    assert err.key == "vtm.script.expected"
    assert "« visée »" in err.message("fr") and "tête" in err.message("fr")
    assert '"visée"' in err.message("en") and "one of" in err.message("en")


def test_a_missing_game_master_detail() -> None:
    err = refused("mj: état bob")
    assert err.key == "vtm.script.missing" and "à terre" in err.message("fr")
    err = refused("gm: damage 2")
    assert err.key == "vtm.script.missing" and "a fighter" in err.message("en")


def test_unknown_line() -> None:
    err = refused("bonjour")
    assert err.key == "vtm.script.unknown_command"
    assert "mj:" in err.message("fr") and "gm:" in err.message("en")


def test_empty_line() -> None:
    assert refused("   # rien").key == "vtm.script.empty"


def test_a_bad_maneuver_spec() -> None:
    err = refused("mj: manœuvre tête {traits: [[strength")
    assert err.key == "vtm.script.bad_spec"


# ------------------------------------------------------------------ tokens


def test_tokens_keep_quotes_positions_and_numbers() -> None:
    toks = tokenize('bob: note "à couvert" (3, 4) 2,5;4 +2 x3 l\'épée')
    kinds = [(t.type, t.value) for t in toks if t.type != "word"]
    assert kinds == [
        ("text", "à couvert"),
        ("pos", (3.0, 4.0)),
        ("pos", (2.5, 4.0)),
        ("num", 2),
        ("rep", 3),
    ]
    assert [t.norm for t in toks if t.type == "word"] == ["bob", "note", "l", "epee"]


# ------------------------------------------------------------------ the documentation's examples

DOCS = Path(__file__).resolve().parents[1] / "docs"
DOC_FIGHTERS: dict[str, Any] = {
    "ruleset": "vtm",
    "combatants": [
        {"id": fid, "side": fid, "weapons": ["colt", "gourdin", "épée"]}
        for fid in (
            "bob",
            "lucien",
            "mary",
            "jack",
            "ezechiel",
            "sam",
            "billy",
            "morel",
            "nini",
            "lucrece",
            "varney",
        )
    ],
}


def doc_lines(name: str) -> list[str]:
    """Every script line in the ```text blocks of a documentation page."""
    text = (DOCS / name).read_text(encoding="utf-8")
    lines = []
    for block in re.findall(r"```text\n(.*?)```", text, flags=re.S):
        for raw in block.splitlines():
            line = raw.split("#", 1)[0].strip()
            if line:
                lines.append(line)
    return lines


@pytest.mark.parametrize("name", ["scenarios.fr.md", "scenarios.en.md"])
def test_every_script_line_of_the_documentation_reads(name: str) -> None:
    lines = doc_lines(name)
    assert len(lines) > 25
    enc = Encounter.start(DOC_FIGHTERS)
    state_ = enc.state
    assert isinstance(state_, VtmState)
    for line in lines:
        errors = []
        for phase in ("declaration", "resolution", "setup"):
            state_.phase = phase  # type: ignore[assignment]
            try:
                parse_line(line, state_)
                break
            except ConteurError as err:
                errors.append(err.message("en"))
        else:
            pytest.fail(f"{name}: {line!r}: {errors}")


# ------------------------------------------------------------------ new words are data


def test_new_verbs_and_details_are_added_as_data(monkeypatch: pytest.MonkeyPatch) -> None:
    """A verb, a GM verb and an action detail added to the vocabulary need no code."""
    from conteur.engine.grammar import Slot, Verb
    from conteur.rulesets.vtm import script

    words = script_words()
    more = words.model_copy(
        update={
            "verbs": {
                **words.verbs,
                "break_free": Verb(command="break_free", words=("se dégage", "breaks free")),
            },
            "gm_verbs": {
                **words.gm_verbs,
                "gm_override": Verb(
                    words=("force", "override"),
                    slots={
                        "fighter": Slot(kind="fighter", positional=True, required=True),
                        "successes": Slot(kind="int", words=("succès", "successes")),
                        "health": Slot(kind="data", words=("santé", "health")),
                        "ammo": Slot(kind="data", words=("munitions", "ammo")),
                    },
                ),
            },
            "action_params": {
                **words.action_params,
                "stance": Slot(
                    kind="choice",
                    words=("posture", "stance"),
                    values={"low": ("basse", "low")},
                    keyword_only=True,
                ),
            },
        }
    )
    monkeypatch.setattr(script, "script_words", lambda: more)
    script._CACHE.clear()
    try:
        assert parse("bob: se dégage", "resolution") == Command("break_free", "bob", {})
        assert parse("gm: override bob 3 successes") == Command(
            "gm_override", None, {"fighter": "bob", "successes": 3}
        )
        assert parse("mj: force bob santé LLB munitions {colt: 3}").args == {
            "fighter": "bob",
            "health": "LLB",
            "ammo": {"colt": 3},
        }
        assert parse("gm: override bob health [lethal, bashing]").args["health"] == [
            "lethal",
            "bashing",
        ]
        assert refused("gm: override bob ammo {colt: 3").key == "vtm.script.bad_data"
        action = args("bob: déclare coup de poing sur lucien, posture basse")["actions"][0]
        assert action == {"kind": "punch", "target": "lucien", "stance": "low"}
        assert refused("bob: déclare coup de poing sur lucien basse").key.startswith(
            "vtm.script.unknown_word"
        )
    finally:
        script._CACHE.clear()
