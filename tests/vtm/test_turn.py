"""The three stages of a turn: initiative, declarations, resolution (V-GEN-3, V-INI-*)."""

from __future__ import annotations

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.vtm.events import (
    ActionDeclared,
    ActionTaken,
    AttackRolled,
    InitiativeOrdered,
    InitiativeRolled,
    TurnEnded,
)

from .fight import Fight, attack

THREE = """
combatants:
  - {id: ann, dexterity: 3, wits: 2, brawl: 2, position: [0, 0], side: a}
  - {id: bob, dexterity: 2, wits: 2, brawl: 1, position: [1, 0], side: b}
  - {id: cid, dexterity: 2, wits: 1, brawl: 1, position: [0, 1], side: b}
"""


def test_V_GEN_3_a_turn_has_initiative_then_attacks_then_resolution() -> None:
    """V-GEN-3: initiative is rolled, then every action declared, then resolved; the turn ends."""
    f = Fight(THREE)
    assert f.state.phase == "setup"
    f.initiative(5, 5, 5)
    assert f.state.phase == "declaration" and f.state.turn == 1
    f.declare("cid", attack("punch", "ann"))
    f.declare("bob", attack("punch", "ann"))
    f.declare("ann", attack("punch", "bob"))
    assert f.state.phase == "resolution"
    f.act("ann", [3, 3, 3, 3, 3])
    f.act("bob", [3, 3, 3])
    events = f.act("cid", [3, 3, 3])
    assert events.of(TurnEnded) and f.state.phase == "setup"
    f.initiative(1, 1, 1)
    assert f.state.turn == 2


def test_V_INI_1_initiative_is_d10_plus_dex_wits_less_wounds() -> None:
    """V-INI-1: one d10 + Dexterity + Wits; wound penalties come off the rating."""
    f = Fight(THREE.replace("side: a}", "side: a, health: [bashing, bashing, bashing, bashing]}"))
    events = f.initiative(7, 4, 9)
    rolled = {e.fighter: e for e in events.of(InitiativeRolled)}
    # Ann: Dex 3 + Wits 2 = 5, Wounded (4 levels) −2 → rating 3, total 10.
    assert rolled["ann"].rating == 3 and rolled["ann"].total == 10
    assert rolled["bob"].total == 4 + 4
    assert rolled["cid"].total == 9 + 3
    assert f.order() == [["cid"], ["ann"], ["bob"]]


def test_V_INI_2_ties_go_to_the_higher_rating_then_simultaneous() -> None:
    """V-INI-2: same total → higher rating first; same rating too → one simultaneous rank."""
    f = Fight(THREE)
    # ann 5+5 = 10, bob 4+6 = 10 (ann has the higher rating), cid 3+7 = 10.
    events = f.initiative(5, 6, 7)
    assert events.one(InitiativeOrdered).order == (("ann",), ("bob",), ("cid",))
    g = Fight(THREE.replace("id: cid, dexterity: 2, wits: 1", "id: cid, dexterity: 2, wits: 2"))
    g.initiative(5, 6, 6)  # ann 10 (rating 5), bob 10 and cid 10 (rating 4 both)
    assert g.order() == [["ann"], ["bob", "cid"]]


def test_V_INI_3_declarations_go_slowest_first() -> None:
    """V-INI-3: the slowest declares first; a faster fighter must wait for them."""
    f = Fight(THREE)
    f.initiative(9, 5, 1)  # ann 14, bob 9, cid 4
    with pytest.raises(ConteurError) as err:
        f.declare("ann", attack("punch", "bob"))
    assert err.value.rule == "V-INI-3"
    assert "Cid" in err.value.message("fr") and "Cid" in err.value.message("en")
    assert f.state.fighters["ann"].progress.declaration is None
    events = f.declare("cid", attack("punch", "ann"))
    assert events.one(ActionDeclared).fighter == "cid"


def test_V_INI_3_nothing_can_be_added_after_declaring() -> None:
    """V-INI-3: the action taken is the action declared."""
    f = Fight(THREE)
    f.initiative(9, 5, 1)
    f.declare("cid", attack("punch", "ann"))
    f.declare("bob", attack("punch", "ann"))
    f.declare("ann", attack("punch", "bob"))
    with pytest.raises(ConteurError) as err:
        f.act("ann", [], kind="kick")
    assert err.value.rule == "V-INI-3"


def test_V_INI_4_actions_resolve_in_initiative_order() -> None:
    """V-INI-4: the fastest acts first; a slower fighter cannot act before its rank."""
    f = Fight(THREE)
    f.initiative(9, 5, 1)
    f.declare("cid", attack("punch", "ann"))
    f.declare("bob", attack("punch", "ann"))
    f.declare("ann", attack("punch", "bob"))
    with pytest.raises(ConteurError) as err:
        f.act("bob", [2, 2, 2])
    assert err.value.rule == "V-INI-4"
    f.act("ann", [2, 2, 2, 2, 2])
    f.act("bob", [2, 2, 2])
    f.act("cid", [2, 2, 2])
    assert f.state.phase == "setup"


def test_V_INI_5_a_delayed_action_can_interrupt_a_slower_fighter() -> None:
    """V-INI-5: a delayed fighter acts at any moment after its rank, even before a slower one."""
    f = Fight(THREE)
    f.initiative(9, 5, 1)  # ann, bob, cid
    f.declare("cid", attack("punch", "ann"))
    f.declare("bob", attack("punch", "ann"))
    f.declare("ann", delay=True)
    # Ann's rank passes: Bob is due, but Ann may step in first.
    assert f.state.fighters["ann"].progress.waiting
    events = f.act("ann", [2, 2, 2, 2, 2], kind="punch", target="cid")
    assert events.one(ActionTaken).rules == ("V-INI-5",)
    assert events.one(AttackRolled).target == "cid"
    f.act("bob", [2, 2, 2])
    f.act("cid", [2, 2, 2])
    assert f.state.phase == "setup"


def test_V_INI_5_a_delay_never_used_is_lost() -> None:
    """V-INI-5: at the end of the turn an unused delayed action is lost."""
    f = Fight(THREE)
    f.initiative(9, 5, 1)
    f.declare("cid", attack("punch", "ann"))
    f.declare("bob", attack("punch", "ann"))
    f.declare("ann", delay=True)
    f.act("bob", [2, 2, 2])
    events = f.act("cid", [2, 2, 2])
    assert [e.reason for e in events if type(e).__name__ == "ActionLost"] == ["delay_unused"]


def test_V_INI_7_multiple_actions_happen_at_the_end_of_the_turn() -> None:
    """V-INI-7 (reading): all actions of a multiple action come at the end, in initiative order."""
    f = Fight(THREE)
    f.initiative(9, 5, 1)  # ann fastest
    f.declare("cid", attack("punch", "ann"))
    f.declare("bob", attack("punch", "ann"))
    f.declare("ann", attack("punch", "bob"), attack("punch", "cid"))
    # Ann's rank holds no action: Bob is due first.
    with pytest.raises(ConteurError):
        f.act("ann", [])
    f.act("bob", [2, 2, 2])
    f.act("cid", [2, 2, 2])
    assert f.state.phase == "end_of_turn"
    # V-MAN-1: two actions — the first loses 2 dice, the second 3 (Dex 3 + Brawl 2 = 5).
    first = f.act("ann", [2, 2, 2]).one(AttackRolled)
    second = f.act("ann", [2, 2]).one(AttackRolled)
    assert (first.pool, second.pool) == (3, 2)
    assert f.state.phase == "setup"


def test_V_INI_7_option_first_action_at_rank() -> None:
    """V-INI-7 option: the first action of a multiple action at the character's rank."""
    f = Fight(THREE.replace("combatants:", "options: {multiple_first_at_rank: true}\ncombatants:"))
    f.initiative(9, 5, 1)
    f.declare("cid", attack("punch", "ann"))
    f.declare("bob", attack("punch", "ann"))
    f.declare("ann", attack("punch", "bob"), attack("punch", "cid"))
    assert f.act("ann", [2, 2, 2]).one(AttackRolled).pool == 3
    f.act("bob", [2, 2, 2])
    f.act("cid", [2, 2, 2])
    assert f.act("ann", [2, 2]).one(AttackRolled).pool == 2


CELERITY = """
combatants:
  - {id: vic, kind: vampire, dexterity: 3, wits: 2, brawl: 3, celerity: 2, blood: 5, position: [0, 0], side: a}
  - {id: tom, dexterity: 2, wits: 2, brawl: 1, stamina: 2, position: [1, 0], side: b}
"""


def test_V_MAN_2_celerity_adds_actions_without_penalty_at_end_of_turn() -> None:
    """V-MAN-2: one extra action per Celerity dot spent (one blood each), no multiple-action penalty."""
    f = Fight(CELERITY)
    f.initiative(8, 2)
    f.declare("tom", attack("punch", "vic"))
    f.declare(
        "vic", attack("punch", "tom"), attack("punch", "tom"), attack("punch", "tom"), celerity=2
    )
    assert f["vic"].blood == 3
    assert f.act("vic", [2, 2, 2, 2, 2, 2]).one(AttackRolled).pool == 6
    f.act("tom", [2, 2, 2])
    assert f.state.phase == "end_of_turn"
    assert f.act("vic", [2, 2, 2, 2, 2, 2]).one(AttackRolled).pool == 6
    assert f.act("vic", [2, 2, 2, 2, 2, 2]).one(AttackRolled).pool == 6
    assert f.state.phase == "setup"


def test_V_MAN_2_celerity_is_limited_by_dots_and_blood() -> None:
    """V-MAN-2: no more Celerity actions than dots, nor than blood to spend."""
    f = Fight(CELERITY)
    f.initiative(8, 2)
    f.declare("tom", attack("punch", "vic"))
    with pytest.raises(ConteurError) as err:
        f.declare("vic", *[attack("punch", "tom")] * 4, celerity=3)
    assert err.value.rule == "V-MAN-2"
    assert f["vic"].blood == 5


def test_V_MAN_1_multiple_actions_lose_dice_cumulatively() -> None:
    """V-MAN-1: three actions: the first loses 3 dice, the second 4, the third 5."""
    f = Fight("""
combatants:
  - {id: ann, dexterity: 4, wits: 2, brawl: 4, position: [0, 0], side: a}
  - {id: bob, dexterity: 1, wits: 1, stamina: 5, position: [1, 0], side: b}
""")
    f.initiative(9, 1)
    f.declare("bob", {"kind": "other"})
    f.declare("ann", *[attack("punch", "bob")] * 3)
    f.act("bob")
    pools = [f.act("ann", [2] * n).one(AttackRolled).pool for n in (5, 4, 3)]
    assert pools == [5, 4, 3]
