"""One legality: what vtm's templates offer is what its commands accept.

From every state the shipped examples go through (house_ranged's option pack
included), any template of ``legal_commands`` filled with any values it offers is
accepted by ``Encounter.execute``, or refused only with an error key the template
states in its ``refusals`` — what a form of independent fields cannot rule out (a
maneuver with a target it cannot reach, two fields that contradict each other).

The property is ``tests/legality.py``'s, shared with hunter and western; beside it, every
fighter's template of every state is tried with each value it offers alone, and what the
issue asked of vtm's templates is checked on its own: a grappled fighter breaks free,
Celerity's extra actions are declared from the form, a target out of reach is offered
with the move that closes in.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conteur.dice import SeededDice
from conteur.engine import Command, CommandTemplate, Encounter, Param
from conteur.i18n import ConteurError
from legality import Reached, check_one_legality, example_states

from .examples import VTM_EXAMPLES, steps
from .fight import Fight, attack

TEXT = {"reason": "une raison", "id": "coup_de_tete", "text": "il glisse"}
"""What a table types in a text field (a required one; an optional one is left empty)."""


@cache
def states(name: str) -> tuple[Encounter, ...]:
    """Every state of the example, each a separate encounter (its log is not needed)."""
    out = []
    for enc in steps(name):
        out.append(Encounter(enc.ruleset, enc.scenario, copy.deepcopy(enc.state)))
    return tuple(out)


def fork(enc: Encounter) -> Encounter:
    return Encounter(enc.ruleset, enc.scenario, copy.deepcopy(enc.state), keep_history=False)


def first(p: Param) -> Any:
    """The value a form shows first: the default, the first choice, the lowest number."""
    if p.default is not None:
        return p.default
    if p.choices:
        return p.choices[0]
    if p.kind == "int":
        return p.min if p.min is not None else 0
    if p.kind == "position":
        return [0, 0]
    return TEXT.get(p.name)


def check(enc: Encounter, tp: CommandTemplate, cmd: Command, seed: int) -> None:
    """The command is accepted, or refused for a reason its template states."""
    try:
        fork(enc).execute(cmd, SeededDice(seed))
    except ConteurError as err:
        assert err.key in tp.refusals, (
            f"{cmd} refused with {err.key} ({err.message('en')}), "
            f"which its template does not state: {tp.refusals}"
        )


@cache
def reached() -> list[Reached]:
    return [s for name in VTM_EXAMPLES for s in example_states(name)]


def test_the_examples_give_states_to_start_from() -> None:
    assert len(reached()) > 80


@settings(
    max_examples=400,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_any_template_filled_from_what_it_offers_is_accepted_or_refused_as_stated(
    data: st.DataObject,
) -> None:
    """The shared property (``tests/legality.py``) from every state of the vtm examples."""
    check_one_legality(data.draw, reached())


def test_every_fighter_template_with_each_value_alone() -> None:
    """Exhaustive on one axis: every fighter's template of every state, each offered value
    of each parameter alone (the others left empty or at their default)."""
    for name in VTM_EXAMPLES:
        for enc in states(name):
            for tp in enc.legal_commands():
                if tp.actor is None:
                    continue
                base = {p.name: first(p) for p in tp.params if p.required}
                base = {k: v for k, v in base.items() if v is not None}
                check(enc, tp, Command(tp.type, tp.actor, base), 1)
                for p in tp.params:
                    for choice in p.choices:
                        cmd = Command(tp.type, tp.actor, {**base, p.name: choice})
                        check(enc, tp, cmd, 2)


# ------------------------------------------------------------------ what the templates offer


def template(enc: Encounter, type_: str, actor: str) -> CommandTemplate | None:
    return next((t for t in enc.legal_commands(actor) if t.type == type_), None)


def test_V_CC_7_a_grappled_fighter_declares_only_what_the_lock_allows() -> None:
    """V-CC-7: Lucrèce, held by Varney's grapple (vampires, turn 3), is offered only to break
    free or to squeeze back, on Varney alone; each is accepted."""
    for enc in states("vampires"):
        tp = template(enc, "declare", "lucrece")
        if tp is None or not enc.state.fighters["lucrece"].conditions.get("held_by"):
            continue
        assert set(tp.param("kind").choices) == {"break_free", "grapple_damage"}
        assert tp.param("target").choices == ("varney",)
        for kind in tp.param("kind").choices:
            fork(enc).execute(Command("declare", "lucrece", {"kind": kind}), SeededDice(1))
        return
    raise AssertionError("Lucrèce never declares while held")


LOCK = """
combatants:
  - {id: a, side: x, position: [0, 0], wits: 5, dexterity: 3, strength: 4, brawl: 3}
  - {id: t, side: y, position: [1, 0], wits: 1, dexterity: 2, strength: 2, brawl: 1, stamina: 2}
"""


def test_V_CC_7_grappled_after_declaring_the_fighter_is_offered_to_break_free() -> None:
    """V-CC-7: t declared a punch, then a's grapple held it: when its rank comes, ``act`` is
    offered with the lock's own actions in place of the punch (« se libérer »), not as the
    punch it can no longer throw; breaking free is accepted, the punch refused."""
    f = Fight(LOCK)
    f.initiative(10, 1)
    f.declare("t", attack("punch", "a"))
    f.declare("a", attack("grapple", "t"))
    f.act("a", [8, 2, 2, 2, 2, 2, 2] + [2, 2, 2, 2])  # one success: held, no damage
    assert f["t"].conditions.get("held_by")
    tp = template(f.encounter, "act", "t")
    assert tp is not None
    kind = tp.param("kind")
    assert kind.required and set(kind.choices) == {"break_free", "grapple_damage"}
    with pytest.raises(ConteurError) as err:
        fork(f.encounter).execute(Command("act", "t"), SeededDice(1))
    assert err.value.key == "vtm.close.locked"
    fork(f.encounter).execute(Command("act", "t", {"kind": "break_free"}), SeededDice(1))


CELERITY = """
combatants:
  - {id: v, kind: vampire, side: x, position: [0, 0], wits: 5, dexterity: 3, brawl: 3,
     celerity: 2, blood: 5}
  - {id: t, side: y, position: [1, 0], wits: 1}
"""


def test_V_MAN_2_celerity_s_extra_actions_are_declared_from_the_form() -> None:
    """V-MAN-2: a vampire with Celerity 2 is offered two extra actions (kind and target each);
    declaring a punch with two Celerity punches spends 2 blood points and gives three actions,
    the last two Celerity's (at the end of the turn, without the multiple-action penalty)."""
    f = Fight(CELERITY)
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    tp = template(f.encounter, "declare", "v")
    assert tp is not None
    names = {p.name for p in tp.params}
    assert {"celerity_kind_1", "celerity_target_1", "celerity_kind_2", "celerity_target_2"} <= names
    assert "celerity_kind_3" not in names
    args = {
        "kind": "punch",
        "target": "t",
        "celerity_kind_1": "punch",
        "celerity_target_1": "t",
        "celerity_kind_2": "punch",
        "celerity_target_2": "t",
    }
    events = f.encounter.execute(Command("declare", "v", args), SeededDice(1))
    spent = [e for e in events if type(e).__name__ == "BloodSpent"]
    assert [e.amount for e in spent] == [2]  # type: ignore[attr-defined]
    decl = f["v"].progress.declaration
    assert decl is not None and [a.celerity for a in decl.actions] == [False, True, True]


RANGE = """
combatants:
  - {id: a, side: x, position: [0, 0], wits: 5, dexterity: 2, brawl: 2}
  - {id: t, side: y, position: [8, 0], wits: 1}
"""


def test_V_GEN_1_a_target_out_of_reach_is_offered_with_the_move_that_closes_in() -> None:
    """V-GEN-1, V-MAN-6: 8 m away (half a run is 13 m), a punch on t is offered, refused
    without an opening move (a refusal the template states), accepted with ``move_to``."""
    f = Fight(RANGE)
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    tp = template(f.encounter, "declare", "a")
    assert tp is not None
    assert "punch" in tp.param("kind").choices and "t" in tp.param("move_to").choices
    with pytest.raises(ConteurError) as err:
        fork(f.encounter).execute(
            Command("declare", "a", {"kind": "punch", "target": "t"}), SeededDice(1)
        )
    assert err.value.key == "vtm.attack.too_far" and err.value.key in tp.refusals
    args = {"kind": "punch", "target": "t", "move_to": "t"}
    fork(f.encounter).execute(Command("declare", "a", args), SeededDice(1))


def test_R_AIM_1_a_move_then_another_action_is_no_unknown_maneuver() -> None:
    """R-AIM-1's check of a whole declaration (a careful shot is alone) reads a move or an
    ``other`` action as no maneuver, not as an unknown one (found by the property above)."""
    enc = next(e for e in states("house_ranged") if template(e, "declare", "lupo"))
    args = {"kind": "move", "target": "vidal", "then_kind": "other"}
    fork(enc).execute(Command("declare", "lupo", args), SeededDice(1))
