"""A condition set or cleared reads as words in the log (issue 15: « sonné → True » was
the log's line), in French and in English, with the fighter it involves."""

from __future__ import annotations

from typing import Any

import pytest

from conteur.rulesets.vtm.events import ConditionSet

from .fight import Fight, attack
from .test_close import botched_disarm, duel, strike

SCENE = """
combatants:
  - {id: jack, name: Jack, side: x, position: [0, 0], wits: 5, dexterity: 2}
  - {id: bob, name: Bob, side: y, position: [40, 0], wits: 1, dexterity: 1}
"""


def _line(f: Fight, lang: str, **command: Any) -> str:
    """The log line of the condition the game master's command sets."""
    events = [e for e in f.do("gm_condition", **command) if isinstance(e, ConditionSet)]
    assert len(events) == 1, events
    names = {fid: fighter.name for fid, fighter in f.state.fighters.items()}
    return events[0].describe(lang, names)


@pytest.mark.parametrize(
    ("command", "fr", "en"),
    [
        ({"condition": "dazed"}, "Jack\u202f: sonné", "Jack: dazed"),
        (
            {"condition": "dazed", "value": "non"},
            "Jack\u202f: fin de «\u202fsonné\u202f»",
            "Jack: no longer dazed",
        ),
        (
            {"condition": "immobilised", "value": "bob"},
            "Jack\u202f: immobilisé par Bob",
            "Jack: immobilised by Bob",
        ),
        (
            {"condition": "knocked_down", "value": "deux tours"},
            "Jack\u202f: à terre (deux tours)",
            "Jack: knocked down (deux tours)",
        ),
        ({"condition": "running", "value": "oui"}, "Jack\u202f: court", "Jack: running"),
    ],
)
def test_a_condition_set_by_the_game_master_reads_as_words(
    command: dict[str, Any], fr: str, en: str
) -> None:
    for lang, text in (("fr", fr), ("en", en)):
        f = Fight(SCENE)
        assert _line(f, lang, fighter="jack", **command) == f"{text} (V-DMG-7)"


def test_a_run_is_logged_as_running_not_as_the_turn_it_happened_in() -> None:
    """V-RNG-1: the move farther than a walk marks the runner with the turn number; the log
    says « court », the roster too."""
    f = Fight(SCENE)
    f.initiative(10, 1)
    f.declare("bob", {"kind": "other"})
    f.declare("jack", {"kind": "move", "to": [100, 0]})
    names = {fid: fighter.name for fid, fighter in f.state.fighters.items()}
    events = [e for e in f.act("jack") if isinstance(e, ConditionSet)]
    assert [e.describe("fr", names) for e in events] == ["Jack\u202f: court (V-RNG-1)"]
    assert [e.describe("en", names) for e in events] == ["Jack: running (V-RNG-1)"]


def test_a_tackle_logs_the_fall_and_the_target_off_balance_until_next_turn() -> None:
    """V-CC-12 (the tackle of ``test_close``): the attacker falls — knocked down and dazed —
    and the target is off balance until turn 2, each said in words."""
    f = duel(
        "strength: 3, brawl: 2, dexterity: 2, athletics: 1, stamina: 2",
        "dexterity: 2, athletics: 2, brawl: 1, stamina: 1",
    )
    dice = [7, 8, 2, 2, 2] + [6, 2, 2, 2, 2] + [2] + [7, 2, 2, 2] + [2, 2, 2]
    events = [e for e in strike(f, attack("tackle", "t"), dice) if isinstance(e, ConditionSet)]
    names = {"a": "Aude", "t": "Théo"}
    lines = {
        lang: [e.describe(lang, names).split(" (")[0] for e in events] for lang in ("fr", "en")
    }
    assert sorted(lines["fr"]) == [
        "Aude\u202f: a préparé sa prise sur Théo",  # what a later maneuver may need (V-CC-10)
        "Aude\u202f: sonné",
        "Aude\u202f: à terre",
        "Théo\u202f: déséquilibré jusqu'au tour 2",
    ]
    assert sorted(lines["en"]) == [
        "Aude: dazed",
        "Aude: knocked down",
        "Aude: set up Théo",
        "Théo: off balance until turn 2",
    ]


def test_a_botched_disarm_settled_reads_as_words() -> None:
    """V-CC-6: once the Conteur chooses a botched disarm's outcome, the attacker's condition
    ends by its name (it read « fin de « désarmement raté contre » », its preposition left
    hanging)."""
    f = botched_disarm()
    events = f.do("gm_disarm_botch", fighter="a", outcome="disarmed")
    names = {fid: fighter.name for fid, fighter in f.state.fighters.items()}
    cleared = [e for e in events if isinstance(e, ConditionSet)]
    assert [(e.describe("fr", names), e.describe("en", names)) for e in cleared] == [
        (
            "A\u202f: fin de «\u202fdésarmement raté\u202f» (V-CC-6, V-ATK-5)",
            "A: no longer exposed by a botched disarm (V-CC-6, V-ATK-5)",
        )
    ]
