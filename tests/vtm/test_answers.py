"""Verdicts kept on the state (``engine/answers.py``): ``check_now`` asked twice of the same
state answers once, and never from a state that has changed since (an event folded, an
undo, a copy changed apart)."""

from __future__ import annotations

import copy

from conteur.engine.answers import KEY, answers
from conteur.engine.scratch import scratch_copier, scratch_copy
from conteur.i18n import ConteurError
from conteur.rulesets.vtm.actions import check_now, moved_to
from conteur.rulesets.vtm.state import Action

from .fight import Fight, attack
from .test_general import runner


def declared(target_at: float) -> tuple[Fight, Action]:
    """``r`` has declared a punch on ``t`` with an opening move (half a run: 13 m)."""
    f = runner(target_at=target_at)
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    f.declare("r", attack("punch", "t", move_to="t"))
    decl = f["r"].progress.declaration
    assert decl is not None
    return f, decl.actions[0]


def refusal(f: Fight, a: Action) -> str | None:
    try:
        check_now(f.state, f["r"], a)
    except ConteurError as err:
        return err.key
    return None


def test_a_verdict_is_kept_until_an_event_is_folded() -> None:
    """Within reach, then the target moved away by the Conteur (an event): the kept "yes"
    is dropped and the reach refused; the same refusal again comes from the kept verdict."""
    f, a = declared(13)
    assert refusal(f, a) is None
    kept = answers(f.state)
    assert [v for v in kept.values()] == [(a, None)]
    assert refusal(f, a) is None and answers(f.state) is kept
    f.do("gm_move", fighter="t", to=[20, 0])
    assert KEY not in f.state.__dict__ or not answers(f.state)
    assert refusal(f, a) == "vtm.attack.too_far"
    assert refusal(f, a) == "vtm.attack.too_far"


def test_an_undo_drops_the_verdicts() -> None:
    """After the undo of the move the punch is within reach again (the kept refusal was for
    the state the undo left)."""
    f, a = declared(13)
    f.do("gm_move", fighter="t", to=[20, 0])
    assert refusal(f, a) == "vtm.attack.too_far"
    f.encounter.undo()
    assert refusal(f, a) is None


def test_copies_keep_no_verdicts() -> None:
    """A shallow copy with the fighter moved (``moved_to``) finds none of the original's
    verdicts; a deep copy and the simulator's copies carry none."""
    f, a = declared(13)
    f.do("gm_move", fighter="t", to=[20, 0])
    assert refusal(f, a) == "vtm.attack.too_far"
    near = moved_to(f.state, f["t"], (1.0, 0.0))
    assert KEY in near.__dict__  # the original's, shared by the shallow copy...
    assert check_now(near, near.fighters["r"], a) is None  # ...but not read: within reach
    assert refusal(f, a) == "vtm.attack.too_far"
    for twin in (copy.deepcopy(f.state), scratch_copy(f.state), scratch_copier(f.state)()):
        assert twin == f.state and not answers(twin)
        assert twin.__dict__[KEY] is not f.state.__dict__[KEY]


def test_a_fighter_not_of_the_state_is_checked_afresh() -> None:
    """A fighter object that is not the state's own (a moved copy) keeps nothing."""
    f, a = declared(13)
    f.do("gm_move", fighter="t", to=[20, 0])
    moved = copy.copy(f["r"])
    moved.position = (19.0, 0.0)
    check_now(f.state, moved, a)
    assert not answers(f.state)
