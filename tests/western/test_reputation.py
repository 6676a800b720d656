"""Reputation after a duel (W-REP-1..3), computed from the sides and applied at once."""

from __future__ import annotations

import pytest

from conteur.rulesets.western.events import ReputationGained

from .fight import Fight, gunman


def sides(winners: int, losers: int, loser_rep: int = 8, witnesses: bool = True) -> Fight:
    people = [gunman(f"w{i}", side="bill") for i in range(winners)]
    people += [
        gunman(f"l{i}", side="cowboys", x=10, characteristics={"RÉPUTATION": loser_rep})
        for i in range(losers)
    ]
    return Fight(*people, witnesses=witnesses)


@pytest.mark.parametrize(("rep", "gain"), [(5, 0), (6, 1), (10, 1), (11, 2), (15, 2), (16, 3)])
def test_W_REP_1_one_against_one_by_opponent_reputation(rep: int, gain: int) -> None:
    """W-REP-1: +1 above 5, +2 above 10, +3 above 15 (the highest that applies), at once."""
    f = sides(1, 1, loser_rep=rep)
    before = f["w0"].reputation
    f.do("duel_won", side="bill")
    assert f["w0"].reputation == before + gain


def test_W_REP_2_bill_and_four_friends_gain_nothing() -> None:
    """W-REP-2, the text's example: 5 against 2 cow-boys (+3): no reputation."""
    f = sides(5, 2)
    ev = f.do("duel_won", side="bill")
    assert not ev.of(ReputationGained)


@pytest.mark.parametrize(
    ("winners", "losers", "gain"),
    [(2, 3, 1), (1, 2, 1), (3, 2, 1), (4, 3, 1), (2, 1, 0), (4, 2, 0), (2, 2, 0)],
)
def test_W_REP_2_numbers(winners: int, losers: int, gain: int) -> None:
    """W-REP-2: fewer: +1; more by at most one against at least two: +1; equal: 0 (reading)."""
    f = sides(winners, losers)
    ev = f.do("duel_won", side="bill")
    assert [e.amount for e in ev.of(ReputationGained)] == [gain] * (winners if gain else 0)


def test_W_REP_3_no_witness_no_gain() -> None:
    """W-REP-3: without a witness, a winner against reputation 16 gains nothing."""
    f = sides(1, 1, loser_rep=16, witnesses=False)
    assert not f.do("duel_won", side="bill").of(ReputationGained)
    g = sides(1, 1, loser_rep=16, witnesses=False)
    assert g.do("duel_won", side="bill", witness=True).one(ReputationGained).amount == 3


def test_W_REP_1_duel_judged_at_once_when_the_last_adversary_falls() -> None:
    """W-REP-1: with ``duel: true``, the shot that drops Joe (reputation 11) gives Bill +2 at once."""
    f = Fight(
        gunman("bill"),
        gunman("joe", x=10, pv=4, characteristics={"RÉPUTATION": 11}),
        witnesses=True,
        duel=True,
    )
    before = f["bill"].reputation
    f.round()
    ev = f.shoot("bill", "joe", 30, 20, 5)
    assert ev.one(ReputationGained).amount == 2 and f["bill"].reputation == before + 2
    assert f.state.duel_judged
    from conteur.i18n import ConteurError

    with pytest.raises(ConteurError):
        f.do("duel_won", side="bill")


def test_W_REP_2_duel_judged_once_the_cowboys_are_down() -> None:
    """W-REP-2: Bill and four friends drop the two cow-boys: judged at once, no gain."""
    people = [gunman(f"w{i}", side="bill") for i in range(5)]
    people += [gunman(f"c{i}", side="cowboys", x=10, pv=1) for i in range(2)]
    f = Fight(*people, witnesses=True, duel=True)
    f.round()
    f.shoot("w0", "c0", 30, 20, 5)
    ev = f.shoot("w1", "c1", 30, 20, 5)
    assert ev.rules() >= {"W-REP-2"} and not ev.of(ReputationGained) and f.state.duel_judged
