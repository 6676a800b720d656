"""General maneuvers: movement (V-MAN-6), ambush (V-MAN-7), and simultaneous actions (V-INI-2)."""

from __future__ import annotations

from typing import Any

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.vtm.defence_events import SimultaneousRank
from conteur.rulesets.vtm.events import (
    ActionLost,
    AmbushResolved,
    AttackRolled,
    DamageTaken,
    DefenceRolled,
    Moved,
    RollMade,
)

from .fight import Fight, attack

# ------------------------------------------------------------------ V-MAN-6: movement


def runner(health: str = "[]", target_at: float = 40) -> Fight:
    """``r`` (Dexterity 2: runs 20 + 3 × 2 = 26 m a turn) and a bystander ``t``."""
    return Fight(f"""
combatants:
  - {{id: r, side: x, position: [0, 0], wits: 5, dexterity: 2, brawl: 2, strength: 2,
     health: {health}}}
  - {{id: t, side: y, position: [{target_at}, 0], wits: 1, dexterity: 1}}
""")


def moved(f: Fight, action: dict[str, Any], dice: list[int] | None = None) -> Any:
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    f.declare("r", action)
    events = f.act("r", dice or [])
    return events


def test_V_MAN_6_a_full_move_covers_the_running_distance() -> None:
    """V-MAN-6 (core distances as data): a move action runs 20 + 3 × Dexterity = 26 m."""
    f = runner()
    events = moved(f, {"kind": "move", "to": [100, 0]})
    move = events.one(Moved)
    assert move.metres == 26 and (move.x, move.y) == (26, 0)
    assert "V-MAN-6" in move.rules


def test_V_MAN_6_half_the_running_distance_and_another_action() -> None:
    """V-MAN-6: ``move_to`` moves at most half the running distance (13 m), then the action."""
    f = runner()
    events = moved(f, {"kind": "other", "move_to": [30, 0]})
    assert events.one(Moved).metres == 13


def test_V_MAN_6_close_in_and_strike() -> None:
    """V-MAN-6: 10 m away, the fighter closes to arm's length (9 m) and punches in the same action."""
    f = runner(target_at=10)
    events = moved(f, attack("punch", "t", move_to="t"), [2, 2, 2, 2])
    assert events.one(Moved).metres == 9
    assert events.one(AttackRolled).target == "t"


def test_V_MAN_6_too_far_to_close_in_is_refused_whole() -> None:
    """V-MAN-6: 20 m away, half a run (13 m) does not reach: the punch is refused when
    declared; declared at 13 m, with the target 20 m away when it comes, it is refused whole
    and nobody moved."""
    f = runner(target_at=20)
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    with pytest.raises(ConteurError) as err:
        f.declare("r", attack("punch", "t", move_to="t"))
    assert err.value.rule == "V-GEN-1"
    g = runner(target_at=13)
    g.initiative(10, 1)
    g.declare("t", {"kind": "other"})
    g.declare("r", attack("punch", "t", move_to="t"))
    g.do("gm_move", fighter="t", to=[20, 0])
    with pytest.raises(ConteurError) as err:
        g.act("r", [2, 2, 2, 2])
    assert err.value.rule == "V-GEN-1"
    assert g["r"].position == (0, 0)


@pytest.mark.parametrize(
    ("health", "run", "half"),
    [
        ("[bashing, bashing]", 26, 13),  # Hurt: full speed
        ("[bashing, bashing, bashing]", 13, 6.5),  # Injured: half speed
        ("[lethal, lethal, lethal, lethal]", 7, 3.5),  # Wounded: walk, no running
        ("[lethal, lethal, lethal, lethal, lethal]", 3, 1.5),  # Mauled: hobble 3 m
        ("[lethal, lethal, lethal, lethal, lethal, lethal]", 1, 0.5),  # Crippled: crawl 1 m
    ],
)
def test_V_MAN_6_wounds_limit_the_distance(health: str, run: float, half: float) -> None:
    """V-MAN-6 / V-DMG-5: Injured runs half as far, Wounded cannot run, Mauled 3 m, Crippled 1 m."""
    assert moved(runner(health), {"kind": "move", "to": [100, 0]}).one(Moved).metres == run
    assert moved(runner(health), {"kind": "other", "move_to": [100, 0]}).one(Moved).metres == half


def test_V_MAN_6_a_move_says_where() -> None:
    """V-MAN-6: a move without a destination, or with a bad one, is refused when declared."""
    f = runner()
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    with pytest.raises(ConteurError) as err:
        f.declare("r", {"kind": "move"})
    assert err.value.rule == "V-MAN-6"
    with pytest.raises(ConteurError) as err:
        f.declare("r", {"kind": "other", "move_to": "nowhere"})
    assert err.value.rule == "V-MAN-6"
    assert "nowhere" in err.value.message("fr") and "nowhere" in err.value.message("en")


# ------------------------------------------------------------------ V-MAN-7: ambush

AMBUSH = """
combatants:
  - {id: a, side: x, position: [0, 0], dexterity: 3, stealth: 2, brawl: 2, strength: 2}
  - {id: t, side: y, position: [1, 0], perception: 2, alertness: 1, dexterity: 3, dodge: 2,
     stamina: 1}
"""


def ambush(f: Fight, dice: list[int], **args: Any) -> Any:
    return f.do("ambush", "a", dice, target="t", kind="punch", **args)


def test_V_MAN_7_more_successes_free_attack_with_the_extra_and_no_defence() -> None:
    """V-MAN-7: Dex + Stealth 3 successes against Per + Alertness 1: a free punch with 5 + 2 dice,
    which the target cannot defend against; both rolls at difficulty 6 (reading)."""
    f = Fight(AMBUSH)
    events = ambush(f, [6, 6, 6, 2, 2] + [6, 2, 2] + [2] * 7, defence="dodge")
    rolls = events.of(RollMade)
    assert [(r.purpose, r.pool, r.difficulty, r.successes) for r in rolls] == [
        ("ambush", 5, 6, 3),
        ("alertness", 3, 6, 1),
    ]
    assert events.of(AmbushResolved)[0].outcome == "surprise"
    rolled = events.one(AttackRolled)
    assert rolled.pool == 7 and "V-MAN-7" in rolled.rules
    assert not events.of(DefenceRolled)


def test_V_MAN_7_a_tie_strikes_first_but_the_target_may_defend() -> None:
    """V-MAN-7: a tie: the attacker strikes first, with no extra dice, and the target may dodge."""
    f = Fight(AMBUSH)
    events = ambush(
        f,
        [6, 2, 2, 2, 2] + [6, 2, 2] + [6, 6, 2, 2, 2] + [6, 2, 2, 2, 2] + [6, 2] + [2],
        defence="dodge",
    )
    assert events.of(AmbushResolved)[0].outcome == "first_strike"
    assert events.one(AttackRolled).pool == 5
    assert events.one(DefenceRolled).pool == 5
    assert events.one(DamageTaken).levels == 1


def test_V_MAN_7_the_target_spots_the_ambush() -> None:
    """V-MAN-7: more successes for the target: spotted, no attack; initiative as usual."""
    f = Fight(AMBUSH)
    events = ambush(f, [2] * 5 + [6, 2, 2])
    assert events.one(AmbushResolved).outcome == "spotted"
    assert not events.of(AttackRolled) and f.state.phase == "setup"
    f.initiative(5, 5)
    assert f.state.turn == 1


def test_V_MAN_7_no_ambush_on_a_target_already_in_combat() -> None:
    """V-MAN-7: a target already in the fight cannot be ambushed: in combat, after an ambush,
    or once the turns have begun."""
    f = Fight(AMBUSH.replace("stamina: 1}", "stamina: 1, conditions: {in_combat: true}}"))
    with pytest.raises(ConteurError) as err:
        ambush(f, [6] * 8)
    assert err.value.rule == "V-MAN-7" and "T" in err.value.message("en")
    g = Fight(AMBUSH)
    ambush(g, [2] * 5 + [6, 2, 2])
    with pytest.raises(ConteurError) as err:
        ambush(g, [6] * 8)
    assert err.value.rule == "V-MAN-7"
    h = Fight(AMBUSH)
    h.initiative(5, 5)
    with pytest.raises(ConteurError) as err:
        ambush(h, [6] * 8)
    assert err.value.rule == "V-MAN-7"


def test_V_MAN_7_the_target_defence_must_be_a_defence() -> None:
    """V-MAN-7: the tie's defence is a block, dodge or parry the target can make (checked first)."""
    f = Fight(AMBUSH)
    with pytest.raises(ConteurError) as err:
        ambush(f, [6] * 8, defence="parry")
    assert err.value.rule == "V-DEF-5"
    with pytest.raises(ConteurError):
        ambush(f, [6] * 8, defence="run")
    assert f.encounter.log == []


# ------------------------------------------------------------------ V-INI-2: simultaneous actions

TIED = """
combatants:
  - {id: a, side: x, position: [0, 0], wits: 2, dexterity: 3, brawl: 2, strength: 5}
  - {id: b, side: y, position: [1, 0], wits: %d, dexterity: 3, brawl: 2, strength: 2, stamina: 1}
"""


def exchange(b_wits: int) -> tuple[Fight, Any]:
    """a and b punch each other; a strikes first and hurts b badly (4 levels, Wounded −2, dazed)."""
    f = Fight(TIED % b_wits)
    f.initiative(5, 5)
    events = f.declare("b", attack("punch", "a"))
    events = [*events, *f.declare("a", attack("punch", "b"))]
    hit = f.act("a", [6, 2, 2, 2, 2] + [6, 6, 6, 6, 2] + [2])
    assert hit.one(DamageTaken).levels == 4
    return f, events


def test_V_INI_2_simultaneous_fighters_act_on_the_state_before_either() -> None:
    """V-INI-2 reading: tied on total and rating, a and b act simultaneously: a's blow does not cut
    b's pool (still 5 dice, not 3) nor its action (the daze waits for b's next action)."""
    f, declared = exchange(b_wits=2)
    assert f.order() == [["a", "b"]]
    frozen = [e for e in declared if isinstance(e, SimultaneousRank)]
    assert frozen and frozen[0].fighters == ("a", "b") and frozen[0].rules == ("V-INI-2",)
    events = f.act("b", [2] * 5)
    assert events.one(AttackRolled).pool == 5
    assert f["b"].conditions.get("dazed") is True
    assert f["b"].penalty == -2  # after the rank, the wounds count again


def test_V_INI_2_contrast_a_slower_fighter_suffers_at_once() -> None:
    """V-INI-2: not tied (b's rating lower), b acts after a's blow: dazed, it loses the action."""
    f, _ = exchange(b_wits=1)
    assert f.order() == [["a"], ["b"]]
    assert f.state.phase == "setup"
    assert any(isinstance(e, ActionLost) and e.reason == "dazed" for e in f.encounter.events())


def test_V_INI_2_simultaneous_even_when_struck_down() -> None:
    """V-INI-2 reading: b, incapacitated by a's blow in the same rank, still strikes back."""
    f = Fight(TIED % 2)
    f.initiative(5, 5)
    f.declare("b", attack("punch", "a"))
    f.declare("a", attack("punch", "b"))
    f.act("a", [6, 6, 6, 2, 2] + [6] * 7 + [2])
    assert f["b"].out_of_fight
    events = f.act("b", [6, 2, 2, 2, 2] + [2, 2])
    assert events.one(AttackRolled).pool == 5
    assert f.state.phase == "setup"


# ------------------------------------------------------------------ legal commands

THREE = """
combatants:
  - {id: ann, side: a, position: [0, 0], wits: 3, dexterity: 3, brawl: 2, melee: 2, dodge: 1,
     weapons: [knife]}
  - {id: bob, side: b, position: [1, 0], wits: 2, dexterity: 2, brawl: 1}
  - {id: cid, side: b, position: [0, 1], wits: 1, dexterity: 2, brawl: 1, stealth: 2}
"""


def offered(f: Fight, actor: str | None = None) -> dict[tuple[str, str | None], Any]:
    return {(t.type, t.actor): t for t in f.encounter.legal_commands(actor)}


def test_V_INI_3_declare_is_offered_only_to_the_fighters_due() -> None:
    """V-INI-3: the slowest declares first; the template follows the cursor."""
    f = Fight(THREE)
    f.initiative(9, 5, 1)  # ann 15, bob 9, cid 4
    assert [a for t, a in offered(f) if t == "declare"] == ["cid"]
    f.declare("cid", attack("punch", "ann"))
    assert [a for t, a in offered(f) if t == "declare"] == ["bob"]
    declare = offered(f)[("declare", "bob")]
    assert "parry" not in declare.param("kind").choices  # bob carries no melee weapon
    assert declare.param("full_defense").choices == ("dodge", "block")
    f.declare("bob", {"kind": "other"})
    declare = offered(f)[("declare", "ann")]
    assert (
        "parry" in declare.param("kind").choices
        and "weapon_strike" in declare.param("kind").choices
    )
    assert "parry" in declare.param("full_defense").choices


def test_V_INI_5_a_delayed_fighter_may_act_at_any_moment_after_its_rank() -> None:
    """V-INI-5: once its rank is past, a delayed fighter is offered ``act`` (an interruption)
    whoever is due, until the end of the turn."""
    f = Fight(THREE)
    f.initiative(9, 5, 1)
    f.declare("cid", attack("punch", "ann"))
    f.declare("bob", attack("punch", "ann"), attack("punch", "ann"))
    f.declare("ann", delay=True)
    act = offered(f)[("act", "ann")]
    assert act.rule == "V-INI-5" and "punch" in act.param("kind").choices
    assert ("act", "cid") in offered(f)  # cid's rank: bob's actions come at the end
    f.act("cid", [2, 2, 2])
    assert f.state.phase == "end_of_turn"
    assert ("act", "ann") in offered(f) and ("act", "bob") in offered(f)


def test_V_DEF_1_defend_offers_the_defences_the_fighter_can_use() -> None:
    """V-DEF-1 / V-DEF-5: parry only with a melee weapon in hand; abort only before acting."""
    f = Fight(THREE)
    f.initiative(1, 5, 9)  # cid 12, bob 9, ann 7: ann is slowest
    f.declare("ann", attack("punch", "bob"))
    f.declare("bob", attack("punch", "ann"))
    f.declare("cid", {"kind": "other"})
    defend = offered(f)[("defend", "ann")]
    assert defend.rule == "V-MAN-3"
    assert defend.param("kind").choices == ("dodge", "block", "parry")
    assert defend.param("abort").choices == ("point", "roll")
    f.do("gm_weapon", fighter="ann", weapon=None)
    assert offered(f)[("defend", "ann")].param("kind").choices == ("dodge", "block")
    with pytest.raises(ConteurError) as err:
        f.do("defend", "ann", kind="parry", abort="point")
    assert err.value.rule == "V-DEF-5"
    f.act("cid")
    f.act("bob", [2, 2, 2])
    f.act("ann", [2, 2, 2, 2, 2])
    assert ("defend", "ann") not in offered(f)


def test_V_MAN_7_ambush_is_offered_before_the_fight_only() -> None:
    """V-MAN-7: before the first turn, each fighter may ambush an enemy not yet in combat."""
    f = Fight(THREE)
    amb = offered(f)[("ambush", "cid")]
    assert amb.param("target").choices == ("ann",) and "punch" in amb.param("kind").choices
    f.initiative(9, 5, 1)
    assert not any(t == "ambush" for t, _ in offered(f))


def test_the_game_master_is_always_offered_its_commands() -> None:
    """The Conteur's commands are there in every phase (``actor`` None)."""
    f = Fight(THREE)
    steps = [lambda: f.initiative(9, 5, 1), lambda: f.declare("cid", {"kind": "other"})]
    for step in [lambda: None, *steps]:
        step()
        kinds = {t for t, a in offered(f) if a is None}
        assert {"gm_modifier", "gm_damage", "gm_override", "gm_note"} <= kinds
