"""The game master stays in charge: every GM command is logged, undoable, replayed, and checked."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from conteur.dice import TypedDice
from conteur.engine import Command, Encounter, EventList
from conteur.i18n import ConteurError
from conteur.rulesets.vtm.close import BreakFreeRolled
from conteur.rulesets.vtm.defence_events import GmOverride
from conteur.rulesets.vtm.events import (
    AttackRolled,
    DefenceRolled,
    ModifiersUsed,
    RollMade,
    SoakRolled,
)

from .fight import Fight, attack
from .statedump import dump

SCENE = """
combatants:
  - {id: a, side: x, position: [0, 0], wits: 5, dexterity: 3, brawl: 2, strength: 2,
     firearms: 2, weapons: [light_revolver], alertness: 1, perception: 2, stealth: 2}
  - {id: t, side: y, position: [1, 0], wits: 1, dexterity: 3, dodge: 2, stamina: 2,
     alertness: 1, perception: 2}
"""


def gm(f: Fight, type_: str, **args: Any) -> EventList:
    """A game-master command (no dice; its ``dice`` argument is the modifier's)."""
    return f.encounter.execute(Command(type_, None, args), TypedDice([]))


def wound(f: Fight) -> None:
    """``t`` takes one bashing and one lethal level."""
    for kind in ("bashing", "lethal"):
        gm(f, "gm_damage", fighter="t", levels=1, damage_type=kind)


def botch(f: Fight) -> None:
    """A botched punch by ``a``, waiting for its complication (V-ATK-5)."""
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    f.declare("a", attack("punch", "t"))
    f.act("a", [1, 2, 2, 2, 2])


@dataclass
class Case:
    """A GM command: good arguments and what they change; bad ones and the field each names."""

    type: str
    good: dict[str, Any]
    check: Callable[[Fight], bool]
    bad: list[tuple[dict[str, Any], str]]
    prepare: Callable[[Fight], None] = field(default=lambda f: None)


CASES = [
    Case(
        "gm_modifier",
        {"fighter": "a", "dice": 2, "difficulty": -1, "reason": "élan"},
        lambda f: (
            f.state.pending_modifiers["a"] == [{"dice": 2, "difficulty": -1, "reason": "élan"}]
        ),
        [
            ({"fighter": "zz", "dice": 1, "reason": "r"}, "fighter"),
            ({"fighter": "a", "dice": "beaucoup", "reason": "r"}, "dice"),
            ({"fighter": "a", "dice": 99, "reason": "r"}, "dice"),
            ({"fighter": "a", "difficulty": "x", "reason": "r"}, "difficulty"),
            ({"fighter": "a", "dice": 0, "difficulty": 0, "reason": "r"}, "dice"),
            ({"fighter": "a", "dice": 1}, "reason"),
        ],
    ),
    Case(
        "gm_damage",
        {"fighter": "t", "levels": 2, "damage_type": "aggravated"},
        lambda f: f["t"].health.count("aggravated") == 2 and f["t"].health.filled == 2,
        [
            ({"fighter": "t", "levels": 0}, "levels"),
            ({"fighter": "t", "levels": "deux"}, "levels"),
            ({"fighter": "t", "damage_type": "poison"}, "damage_type"),
            ({"levels": 1}, "fighter"),
        ],
    ),
    Case(
        "gm_heal",
        {"fighter": "t", "levels": 1, "damage_type": "lethal"},
        lambda f: f["t"].health.boxes[:2] == ["bashing", None],
        [
            ({"fighter": "t", "levels": -1}, "levels"),
            ({"fighter": "t", "damage_type": "burn"}, "damage_type"),
        ],
        prepare=wound,
    ),
    Case(
        "gm_condition",
        {"fighter": "t", "condition": "no_room"},
        lambda f: f["t"].conditions.get("no_room") is True,
        [({"fighter": "t", "condition": "flying"}, "condition")],
    ),
    Case(
        "gm_complication",
        {"fighter": "a", "text": "Il glisse sur la sciure."},
        lambda f: f.state.botches[0]["complication"] == "Il glisse sur la sciure.",
        [
            ({"fighter": "a"}, "text"),
            ({"fighter": "t", "text": "x"}, "fighter"),
            ({"fighter": "a", "id": "no_such_complication"}, "id"),
        ],
        prepare=botch,
    ),
    Case(
        "gm_maneuver",
        {
            "id": "headbutt",
            "spec": {"traits": "dexterity+brawl", "damage": "strength+1", "damage_type": "bashing"},
        },
        lambda f: "headbutt" in f.state.custom_maneuvers,
        [
            ({"id": "headbutt", "spec": "fort"}, "spec"),
            ({"id": "headbutt", "spec": {"difficulty": "hard"}}, "difficulty"),
            ({"spec": {"traits": "dexterity+brawl"}}, "id"),
        ],
    ),
    Case(
        "gm_note",
        {"reason": "La porte s'ouvre."},
        lambda f: True,
        [({}, "reason"), ({"reason": "   "}, "reason")],
    ),
    Case(
        "gm_move",
        {"fighter": "a", "to": [3, 4]},
        lambda f: f["a"].position == (3, 4),
        [({"fighter": "a", "to": "ici"}, "to"), ({"fighter": "a"}, "to")],
    ),
    Case(
        "gm_cover",
        {"fighter": "t", "level": 2},
        lambda f: f["t"].cover == 2,
        [({"fighter": "t", "level": 5}, "level"), ({"fighter": "t", "level": "mur"}, "level")],
    ),
    Case(
        "gm_weapon",
        {"fighter": "t", "weapon": "knife"},
        lambda f: f["t"].weapon == "knife",
        [({"fighter": "t", "weapon": "laser"}, "weapon")],
    ),
    Case(
        "gm_willpower",
        {"fighter": "a", "amount": 2},
        lambda f: f["a"].willpower == 3,
        [
            ({"fighter": "a", "amount": 6}, "amount"),
            ({"fighter": "a", "amount": -1}, "amount"),
            ({"fighter": "a", "amount": 0}, "amount"),
        ],
    ),
    Case(
        "gm_override",
        {
            "fighter": "t",
            "health": ["lethal", "bashing", "aggravated"],
            "willpower": 2,
            "blood": 3,
            "conditions": {"no_room": True},
            "reason": "trois jours plus tard",
        },
        lambda f: (
            f["t"].health.boxes[:4] == ["aggravated", "lethal", "bashing", None]
            and (f["t"].willpower, f["t"].blood) == (2, 3)
            and f["t"].conditions == {"no_room": True}
        ),
        [
            ({"fighter": "t"}, "fighter"),
            ({"fighter": "t", "health": "ZZ"}, "health"),
            ({"fighter": "t", "health": ["lethal"] * 8}, "health"),
            ({"fighter": "t", "willpower": 11}, "willpower"),
            ({"fighter": "t", "blood": -1}, "blood"),
            ({"fighter": "a", "ammo": {"laser": 1}}, "ammo"),
            ({"fighter": "a", "ammo": {"light_revolver": "plein"}}, "ammo"),
            ({"fighter": "t", "conditions": {"flying": True}}, "conditions"),
            ({"fighter": "t", "willpower": 2, "conditions": "oui"}, "conditions"),
        ],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.type)
def test_gm_command_is_logged_undoable_and_replayed(case: Case) -> None:
    """Each GM command changes the state through logged events; undo restores it; replay rebuilds it."""
    f = Fight(SCENE)
    case.prepare(f)
    before = dump(f.state)
    count = len(f.encounter.log)
    events = gm(f, case.type, **case.good)
    assert events and case.check(f)
    assert f.encounter.log[-1].command.type == case.type  # type: ignore[union-attr]
    for e in events:
        assert e.describe("fr") and e.describe("en")
    after = dump(f.state)
    replayed = Encounter.replay(f.encounter.scenario, f.encounter.log_dicts())
    assert dump(replayed.state) == after
    f.encounter.undo()
    assert dump(f.state) == before
    assert len(f.encounter.log) == count + 2  # the command and its undo: nothing erased
    replayed = Encounter.replay(f.encounter.scenario, f.encounter.log_dicts())
    assert dump(replayed.state) == before


@pytest.mark.parametrize(
    ("case", "args", "name"),
    [(c, args, name) for c in CASES for args, name in c.bad],
    ids=lambda v: v.type if isinstance(v, Case) else (v if isinstance(v, str) else ""),
)
def test_gm_bad_input_names_the_field_and_changes_nothing(
    case: Case, args: dict[str, Any], name: str
) -> None:
    """A bad argument is refused with an error naming the field; nothing is logged or changed."""
    f = Fight(SCENE)
    case.prepare(f)
    before, count = dump(f.state), len(f.encounter.log)
    with pytest.raises(ConteurError) as err:
        gm(f, case.type, **args)
    assert err.value.params.get("field") == name
    assert err.value.message("fr") and err.value.message("en")
    assert dump(f.state) == before and len(f.encounter.log) == count


def test_gm_field_errors_say_which_field_in_both_languages() -> None:
    """The message itself names the field and the range expected."""
    f = Fight(SCENE)
    with pytest.raises(ConteurError) as err:
        gm(f, "gm_modifier", fighter="a", dice="beaucoup", reason="r")
    assert "dice" in err.value.message("fr") and "beaucoup" in err.value.message("fr")
    assert "-20" in err.value.message("en") and "20" in err.value.message("en")


def test_gm_override_sets_ammunition_and_end_state_hands_it_back() -> None:
    """``gm_override`` sets rounds in a clip; the end state carries it out of the fight."""
    f = Fight(SCENE)
    events = gm(f, "gm_override", fighter="a", ammo={"light_revolver": 2}, blood=7)
    assert {e.field for e in events.of(GmOverride)} == {"ammo", "blood"}
    end = f.encounter.end_state()["a"]
    assert end["ammo"] == {"light_revolver": 2} and end["blood"] == 7


def test_gm_override_can_heal_everything() -> None:
    """``health: []`` clears the track."""
    f = Fight(SCENE)
    gm(f, "gm_override", fighter="t", health=[])
    assert f["t"].health.filled == 0 and f.encounter.end_state()["t"]["health"] == []


# ------------------------------------------------------------------ modifiers on the next roll


def fight_turn(f: Fight, t_action: dict[str, Any]) -> None:
    f.initiative(10, 1)
    f.declare("t", t_action)
    f.declare("a", attack("punch", "t"))


def test_gm_modifier_applies_to_the_next_attack_roll_only() -> None:
    """The Conteur's +2 dice and +1 difficulty go to a's next attack, are logged and used up."""
    f = Fight(SCENE)
    gm(f, "gm_modifier", fighter="a", dice=2, difficulty=1, reason="élan")
    fight_turn(f, {"kind": "other"})
    events = f.act("a", [2] * 7)
    rolled = events.one(AttackRolled)
    assert (rolled.pool, rolled.difficulty) == (7, 7)
    # The attack's line (read by a's player) says the Conteur's part, not his reason: the
    # reason is in his own ModifierAdded line.
    assert rolled.modifiers == (("gm", 2), ("gm_difficulty", 1))
    assert rolled.pool_parts[-1] == ("gm", 2)
    line = rolled.describe("fr")
    assert "Bagarre 2 + décision du Conteur 2 = 7 dés" in line and "élan" not in line
    assert "[difficulté du Conteur +1]" in line
    assert events.of(ModifiersUsed) and not f.state.pending_modifiers
    f.act("t")
    fight_turn(f, {"kind": "other"})
    assert f.act("a", [2] * 5).one(AttackRolled).pool == 5


def test_gm_modifier_applies_to_a_defence_roll() -> None:
    """A modifier on the defender goes to its dodge (5 − 2 dice, difficulty 6 + 1)."""
    f = Fight(SCENE)
    fight_turn(f, {"kind": "dodge"})
    gm(f, "gm_modifier", fighter="t", dice=-2, difficulty=1, reason="sol glissant")
    rolled = f.act("a", [6, 2, 2, 2, 2] + [7, 7, 2]).one(DefenceRolled)
    assert (rolled.pool, rolled.difficulty, rolled.net) == (3, 7, 0)
    assert not f.state.pending_modifiers


def test_gm_modifier_waits_when_the_defence_is_not_rolled() -> None:
    """An attack with no success rolls no defence: the defender's modifier waits for its next roll."""
    f = Fight(SCENE)
    fight_turn(f, {"kind": "dodge"})
    gm(f, "gm_modifier", fighter="t", dice=-2, reason="sol glissant")
    f.act("a", [2] * 5)
    assert f.state.pending_modifiers["t"][0]["dice"] == -2


def test_gm_modifier_applies_to_another_action_roll() -> None:
    """An ``other`` action's roll (Wits + Alertness) takes the modifier too."""
    f = Fight(SCENE)
    gm(f, "gm_modifier", fighter="t", dice=1, reason="il a entendu un bruit")
    fight_turn(f, {"kind": "other", "traits": "wits+alertness", "purpose": "alertness"})
    f.act("a", [2] * 5)
    roll = f.act("t", [6, 2, 2]).one(RollMade)
    assert (roll.pool, roll.successes) == (1 + 1 + 1, 1)
    assert not f.state.pending_modifiers


def test_gm_modifier_is_not_taken_by_a_reflexive_soak() -> None:
    """Soak is reflexive: it keeps Stamina's 2 dice, and the modifier waits for t's action roll."""
    f = Fight(SCENE)
    gm(f, "gm_modifier", fighter="t", dice=3, reason="adrénaline")
    fight_turn(f, {"kind": "other"})
    events = f.act("a", [6, 2, 2, 2, 2] + [6, 2] + [2, 2])
    assert events.one(SoakRolled).pool == 2
    assert f.state.pending_modifiers["t"][0]["dice"] == 3


def test_gm_modifier_applies_to_the_ambush_rolls() -> None:
    """The ambusher's stealth roll and the target's alertness roll each take their own modifier."""
    f = Fight(SCENE)
    gm(f, "gm_modifier", fighter="a", dice=-1, reason="plancher qui grince")
    gm(f, "gm_modifier", fighter="t", difficulty=2, reason="il dort")
    events = f.do("ambush", "a", [2] * 4 + [8, 7, 2], target="t", kind="punch")
    rolls = events.of(RollMade)
    assert [(r.pool, r.difficulty) for r in rolls] == [(4, 6), (3, 8)]
    assert not f.state.pending_modifiers


def test_gm_override_is_written_in_french_and_english() -> None:
    """``mj: force`` / ``gm: override`` in the script language; French damage names are read."""
    from conteur.rulesets.vtm.script import parse_line

    f = Fight(SCENE)
    line = "mj: force t santé [létal, contondant] volonté 2 car trois jours plus tard"
    f.encounter.execute(parse_line(line, f.state), TypedDice([]))
    assert f["t"].health.boxes[:3] == ["lethal", "bashing", None] and f["t"].willpower == 2
    f.encounter.execute(
        parse_line("gm: override a ammo {light_revolver: 0} blood 1", f.state), TypedDice([])
    )
    assert f.encounter.end_state()["a"]["ammo"] == {"light_revolver": 0}


def test_gm_modifier_applies_to_a_break_free_roll() -> None:
    """Breaking free of a grapple is an action roll (V-CC-7): it takes the Conteur's modifier."""
    f = Fight("""
combatants:
  - {id: a, side: x, position: [0, 0], wits: 5, strength: 3, brawl: 2, stamina: 2, dexterity: 2}
  - {id: t, side: y, position: [1, 0], wits: 1, strength: 2, brawl: 1, stamina: 2, dexterity: 2}
""")
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    f.declare("a", attack("grapple", "t"))
    f.act("a", [6, 2, 2, 2, 2] + [6, 2, 2] + [2, 2])
    f.do("pass", "t")
    f.initiative(10, 1)
    f.declare("t", {"kind": "break_free"})
    f.declare("a", {"kind": "grapple_damage"})
    f.act("a", [2, 2, 2])
    gm(f, "gm_modifier", fighter="t", dice=2, reason="la prise glisse")
    events = f.act("t", [8, 9, 2, 2, 2] + [6, 2, 2, 2, 2])
    assert events.of(ModifiersUsed) and not f.state.pending_modifiers
    assert events.one(BreakFreeRolled).pool == 3 + 2
