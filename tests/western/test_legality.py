"""One legality (western): every command a template offers, with any value it offers, is
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

from .fight import Fight, gunman

EXAMPLES = ("western/duel", "western/saloon", "western/guard")


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


def offered(f: Fight, actor: str | None, type_: str) -> CommandTemplate | None:
    return next((tp for tp in f.encounter.legal_commands(actor) if tp.type == type_), None)


def test_W_RNG_1_a_target_beyond_the_guns_range_is_not_offered() -> None:
    f = Fight(gunman("bill"), gunman("joe", x=10), gunman("far", x=80, side="joe"))
    f.round()
    attack = offered(f, "bill", "attack")
    assert attack is not None and attack.param("target").choices == ("joe",)
    with pytest.raises(ConteurError) as err:
        f.shoot("bill", "far", 10)
    assert err.value.key == "western.out_of_range"


def test_a_full_gun_offers_no_reload_an_empty_one_no_shot() -> None:
    f = Fight(gunman("bill"), gunman("joe", x=10, ammo={"main": 0}))
    f.round()
    assert offered(f, "bill", "reload") is None
    f.do("pass", "bill")
    assert offered(f, "joe", "attack") is None and offered(f, "joe", "reload") is not None


def test_W_KO_1_a_knock_out_is_offered_behind_the_victim_or_on_the_helpless() -> None:
    f = Fight(gunman("bill"), gunman("joe", x=1), gunman("tied", x=1, helpless=True))
    knockout = offered(f, "bill", "knockout")
    assert knockout is not None and knockout.param("target").choices == ("tied",)
    with pytest.raises(ConteurError) as err:
        f.do("knockout", "bill", target="joe", weapon="colt_saa")
    assert err.value.key == "western.not_behind"


def test_W_LOC_1_a_zone_on_a_target_with_none_is_a_stated_refusal() -> None:
    f = Fight(gunman("bill"), gunman("dog", x=5, human=False))
    f.round()
    attack = offered(f, "bill", "attack")
    assert attack is not None and attack.refusals == {"western.no_zones"}
    with pytest.raises(ConteurError) as err:
        f.shoot("bill", "dog", 10, zone="head")
    assert err.value.key == "western.no_zones"
