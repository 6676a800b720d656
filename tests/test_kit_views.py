"""The roster row and the turn view ``KitRuleset`` makes of each kit ruleset's answers
(``views``): the fighter's own id, name, side and fate, the state's turn and phase, and a
fighter taken out of the fight read as out (``withdrawn``) whatever the ruleset."""

from __future__ import annotations

import pytest

from conteur.dice import TypedDice
from conteur.engine import Command
from conteur.engine.joining import WITHDRAW, WITHDRAWN
from conteur.engine.kit import KitRuleset
from conteur.engine.script import start
from ruleset_fights import FIGHTS

KIT = ["hunter", "vtm", "western"]


@pytest.mark.parametrize("name", KIT)
def test_a_withdrawn_fighter_reads_out_and_withdrawn_the_others_stand_as_they_did(
    name: str,
) -> None:
    fight = FIGHTS[name]
    enc = start(fight.scenario)
    assert isinstance(enc.ruleset, KitRuleset)
    before = enc.ruleset.roster(enc.state)
    assert before.row(fight.target).status == "unhurt"
    enc.execute(Command(WITHDRAW, None, {"fighter": fight.target}), TypedDice(""))
    after = enc.ruleset.roster(enc.state)
    row = after.row(fight.target)
    assert (row.status, row.fate) == ("out", WITHDRAWN)
    assert [(r.id, r.status, r.fate) for r in after.rows if r.id != fight.target] == [
        (r.id, r.status, r.fate) for r in before.rows if r.id != fight.target
    ]


@pytest.mark.parametrize("name", KIT)
def test_rows_and_turn_carry_the_fighters_and_the_states_own_words(name: str) -> None:
    enc = FIGHTS[name].played()
    state = enc.state
    roster = enc.ruleset.roster(state)
    assert [(r.id, r.name, r.side, r.fate) for r in roster.rows] == [
        (f.id, f.name, f.side, f.fate) for f in state.fighters.values()
    ]
    view = enc.ruleset.turn_view(state)
    assert (view.turn, view.phase) == (state.turn, state.phase)
    assert {i for slot in view.order for i in slot.ids} <= set(state.fighters)


def test_a_dead_fighter_withdrawn_still_reads_dead() -> None:
    """The kit puts a withdrawn fighter out of the fight, not back among the living."""
    enc = FIGHTS["western"].played()
    jack = enc.state.fighters["jack"]
    jack.fate, jack.withdrawn = "dead", True
    row = enc.ruleset.roster(enc.state).row("jack")
    assert (row.status, row.fate) == ("dead", "dead")
