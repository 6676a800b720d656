"""One legality (hunter): every command a template offers, with any value it offers, is
carried out, or refused only with an error key the template states (``tests/legality.py``),
from every state the shipped fights pass through."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conteur.engine import CommandTemplate
from conteur.i18n import ConteurError
from legality import Reached, check_one_legality, example_states

from .fight import Fight, sheet

EXAMPLES = ("hunter/cellule", "hunter/session-2-combat")


@cache
def states() -> list[Reached]:
    return [s for name in EXAMPLES for s in example_states(name)]


def test_the_examples_give_states_to_start_from() -> None:
    assert len(states()) > 20


@settings(
    max_examples=300,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_every_offered_command_is_accepted_or_refused_as_its_template_states(
    data: st.DataObject,
) -> None:
    check_one_legality(data.draw, states())


# ------------------------------------------------------------------ what the property found


def offered(f: Fight, actor: str, type_: str = "act") -> CommandTemplate | None:
    return next((tp for tp in f.encounter.legal_commands(actor) if tp.type == type_), None)


def test_H_DEL_1_a_fighter_waits_only_for_one_still_to_act() -> None:
    f = Fight(sheet("a", side="x"), sheet("b", side="x"), sheet("m", kind="monstre"))
    f.start(9, 5, 1)
    f.do("pass", "a")
    delay = offered(f, "b", "delay")
    assert delay is not None and delay.param("after").choices == ("m",)
    with pytest.raises(ConteurError) as err:
        f.do("delay", "b", after="a")
    assert err.value.key == "hunter.delay.already_acted"


def test_H_RLD_1_an_empty_gun_offers_no_shot_but_a_reload() -> None:
    f = Fight(
        sheet("a", weapon="heavy_pistol", ammo={"heavy_pistol": 0}), sheet("m", kind="monstre")
    )
    f.start(9, 1)
    act = offered(f, "a")
    assert act is not None
    kinds = act.param("kind").choices
    assert "attack" not in kinds and "reload" in kinds
    with pytest.raises(ConteurError) as err:
        f.act("a", target="m")
    assert err.value.key == "hunter.attack.no_ammo"


def test_H_AUTO_1_only_the_bursts_the_clip_can_fire_are_offered() -> None:
    f = Fight(sheet("a", weapon="large_smg", ammo={"large_smg": 12}), sheet("m", kind="monstre"))
    f.start(9, 1)
    act = offered(f, "a")
    assert act is not None and act.param("burst").choices == ("short", "medium")


def test_an_attack_without_a_target_says_so() -> None:
    f = Fight(sheet("a"), sheet("m", kind="monstre"))
    f.start(9, 1)
    act = offered(f, "a")
    assert act is not None and "hunter.act.needs_target" in act.refusals
    with pytest.raises(ConteurError) as err:
        f.act("a", kind="aim")
    assert err.value.key == "hunter.act.needs_target"
    assert "cible" in err.value.message("fr") and "target" in err.value.message("en")


def test_H_GRP_3_the_overpower_options_are_those_the_holder_can_take() -> None:
    f = Fight(sheet("a", strength=5, brawl=4), sheet("m", kind="monstre"))
    f.start(9, 1)
    f.act("a", kind="grapple", target="m", dice=(8,) * 7)
    f.do("pass", "m")
    f.do("initiative")
    act = offered(f, "a")
    assert act is not None and act.param("kind").choices == (
        "attack",
        "throw",
        "overpower",
        "dodge",
        "aim",
    )
    # No melee weapon in hand, nothing carried: neither strike with it nor draw one.
    assert "attack_with" not in act.param("option").choices
    assert "draw" not in act.param("option").choices
