"""Initiative, delay and ambush (H-INI-1, H-INI-2, H-DEL-1, H-AMB-1)."""

from __future__ import annotations

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.hunter.events import (
    HunterAmbushChecked,
    HunterInitiativeRolled,
    HunterRollOff,
)
from conteur.rulesets.hunter.turn import due

from .fight import Fight, sheet


def test_H_INI_1_one_d10_plus_dex_composure_kept_for_the_whole_combat() -> None:
    f = Fight(sheet("ana", dexterity=3, composure=2), sheet("bob", dexterity=2, composure=2))
    events = f.start(4, 9)
    totals = {e.actor: e.total for e in events.of(HunterInitiativeRolled)}
    assert totals == {"ana": 9, "bob": 13}
    assert f.state.order == [["bob"], ["ana"]]
    assert "H-INI-1" in events.rules()
    # The next turn rolls nothing: the initiative stays the same.
    f.do("initiative")
    assert f.state.turn == 2 and f.state.order == [["bob"], ["ana"]]
    assert f["bob"].initiative == 13


def test_H_INI_2_tie_goes_to_the_higher_dex_plus_composure() -> None:
    f = Fight(sheet("ana", dexterity=2, composure=2), sheet("bob", dexterity=4, composure=2))
    events = f.start(8, 6)  # 12 and 12
    assert not events.of(HunterRollOff)
    assert f.state.order == [["bob"], ["ana"]]


def test_H_INI_2_a_tie_that_persists_is_rolled_off() -> None:
    f = Fight(sheet("ana"), sheet("bob"))
    events = f.start(5, 5, 3, 3, 2, 7)  # tied, roll-off tied again, then bob wins
    assert [e.face for e in events.of(HunterRollOff)] == [3, 3, 2, 7]
    assert f.state.order == [["bob"], ["ana"]]
    assert "H-INI-2" in events.rules()


def test_H_INI_1_only_the_fighter_due_may_act_and_the_refusal_is_deferrable() -> None:
    f = Fight(sheet("ana"), sheet("bob"))
    f.start(9, 1)
    with pytest.raises(ConteurError) as err:
        f.act("bob", "dodge")
    assert err.value.key == "hunter.act.not_due"
    assert err.value.key in f.encounter.ruleset.deferrable  # type: ignore[attr-defined]


def test_H_DEL_1_a_delayer_acts_right_after_the_chosen_character() -> None:
    f = Fight(sheet("ana"), sheet("bob"), sheet("cy"))
    f.start(9, 5, 1)  # ana, bob, cy
    f.do("delay", "ana", after="bob")
    assert due(f.state) == "bob"
    f.do("pass", "bob")
    assert due(f.state) == "ana"
    f.do("pass", "ana")
    assert due(f.state) == "cy"
    # Passing spends the delayed action as acting would: no delay left to show.
    assert f["ana"].delay_after is None


def test_H_DEL_1_a_delay_is_spent_by_an_action_a_dodge_or_a_pass_alike() -> None:
    for finish in ("pass", "dodge"):
        f = Fight(sheet("ana"), sheet("bob"))
        f.start(9, 5)  # ana, bob
        f.do("delay", "ana", after="bob")
        assert f["ana"].delay_after == "bob"
        f.do("pass", "bob")
        f.do(finish, "ana")
        assert f["ana"].acted and f["ana"].delay_after is None, finish


def test_H_DEL_1_two_delayers_for_the_same_moment_go_by_initiative() -> None:
    f = Fight(sheet("ana"), sheet("bob"), sheet("cy"))
    f.start(9, 6, 1)  # ana 14, bob 11, cy 6
    f.do("delay", "ana", after="cy")
    f.do("delay", "bob", after="cy")
    f.do("pass", "cy")
    assert due(f.state) == "ana"
    f.do("pass", "ana")
    assert due(f.state) == "bob"


def test_H_DEL_1_cannot_wait_for_someone_who_has_acted() -> None:
    f = Fight(sheet("ana"), sheet("bob"), sheet("cy"))
    f.start(9, 5, 1)
    f.do("pass", "ana")
    f.do("pass", "bob")
    with pytest.raises(ConteurError) as err:
        f.do("delay", "cy", after="ana")
    assert err.value.key == "hunter.delay.already_acted"


def test_H_AMB_1_no_success_means_surprised_and_initiative_only_next_turn() -> None:
    f = Fight(sheet("ana"), sheet("bob", wits=1, composure=1))
    ev = f.do("ambush", fighter="bob", dice=[5, 3])
    assert ev.one(HunterAmbushChecked).surprised and f["bob"].surprised
    events = f.start(6)  # only ana rolls
    assert [e.actor for e in events.of(HunterInitiativeRolled)] == ["ana"]
    with pytest.raises(ConteurError) as err:
        f.act("bob", "dodge")
    assert err.value.key == "hunter.act.surprised"
    f.do("pass", "ana")
    assert due(f.state) is None
    events = f.do("initiative", dice=[10])  # turn 2: bob rolls now
    assert [e.actor for e in events.of(HunterInitiativeRolled)] == ["bob"]
    assert f["bob"].initiative == 14 and not f["bob"].surprised
    assert f.state.order == [["bob"], ["ana"]]


def test_H_AMB_1_a_success_means_not_surprised() -> None:
    f = Fight(sheet("ana"), sheet("bob"))
    ev = f.do("ambush", fighter="bob", dice=[8, 3, 2, 2])
    assert not ev.one(HunterAmbushChecked).surprised
    f.start(1, 2)
    assert f["bob"].initiative is not None
