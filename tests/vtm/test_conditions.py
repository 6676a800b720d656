"""vtm's conditions as typed records (``rulesets/vtm/conditions.py``).

The rules fold events into one frozen record per condition kind and read them by kind;
each record's JSON form is the very value its event carries, so a stored log replays to
the same records and the summary's JSON has the keys and values it always had. A key no
kind declares, or a value a kind cannot read, is kept raw, as before.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

import pytest
import yaml

from conteur.engine import Encounter
from conteur.engine.conditions import Condition, Raw
from conteur.engine.scratch import scratch_copy
from conteur.rulesets.vtm.conditions import (
    Aiming,
    Dazed,
    DisarmBotch,
    HeldBy,
    Holding,
    Immobilised,
    OffBalance,
    Reloading,
    Running,
    SetUp,
    VtmConditions,
)
from conteur.rulesets.vtm.packs.house_ranged.conditions import (
    CONDITIONS,
    ArmHit,
    CarefulShot,
    Suppressed,
)
from conteur.rulesets.vtm.packs.house_ranged.events import CarefulAim
from conteur.rulesets.vtm.ranged import Aimed, ReloadProgress
from conteur.rulesets.vtm.rulebook import rules_of
from conteur.rulesets.vtm.ruleset import VtmRuleset
from conteur.rulesets.vtm.summary import fighter_summary
from conteur.rulesets.vtm.tables import load_tables

from .fight import Fight, attack

PACK = "house_ranged"

HOLD = """
combatants:
  - {id: a, side: x, position: [0, 0], wits: 5, strength: 3, brawl: 2, dexterity: 2}
  - {id: t, side: y, position: [1, 0], wits: 3, strength: 2, brawl: 1, dexterity: 2}
"""

SAMPLES: list[tuple[Any, Any]] = [
    (Holding(target="t", kind="hold", turn=1), {"target": "t", "kind": "hold", "turn": 1}),
    (HeldBy(holder="a", kind="grapple", turn=2), {"holder": "a", "kind": "grapple", "turn": 2}),
    (Immobilised(given="a"), "a"),
    (Dazed(), True),
    (Running(given=3), 3),
    (OffBalance(turn=4), 4),
    (DisarmBotch(opponent="t"), "t"),
    (Reloading(weapon="crossbow", turns=1), {"weapon": "crossbow", "turns": 1}),
    (
        SetUp(maneuver="grapple", target="t", turn=1),
        {"maneuver": "grapple", "target": "t", "turn": 1},
    ),
    (
        Aiming(target="t", weapon="rifle", turns=2, since=1, last=2, scope=True),
        {"target": "t", "weapon": "rifle", "turns": 2, "since": 1, "last": 2, "scope": True},
    ),
    (ArmHit(penalty=2), 2),
    (
        Suppressed(by="a", weapon="smg", successes=2, turn=1),
        {"by": "a", "weapon": "smg", "successes": 2, "turn": 1},
    ),
    (
        Suppressed(by="a", weapon="smg", successes=2, turn=1, tested="failed"),
        {"by": "a", "weapon": "smg", "successes": 2, "turn": 1, "tested": "failed"},
    ),
]


def kinds_with_pack() -> Mapping[str, type[Condition]]:
    """The condition kinds of an encounter that plays the pack (its rulebook's)."""
    return VtmRuleset().compose((PACK,), load_tables("1899")).conditions


@pytest.mark.parametrize(("record", "form"), SAMPLES, ids=lambda x: type(x).__name__)
def test_a_record_has_its_events_json_form_and_reads_back_from_it(record: Any, form: Any) -> None:
    """The JSON form is the event's value (same keys, same order); set from it with the
    kinds of an encounter playing the pack, the container holds the record itself, typed."""
    assert record.json() == form and json.dumps(record.json()) == json.dumps(form)
    held = VtmConditions()
    held.set(record.key, form, kinds_with_pack())
    assert held.of(type(record)) == record and type(held.records[record.key]) is type(record)
    assert held == {record.key: form}


def test_every_declared_kind_round_trips() -> None:
    """Each kind vtm declares is named by its own key, once; the pack's join an encounter's
    rulebook only where it plays the pack, never vtm's own container."""
    kinds = VtmConditions.kinds
    assert all(key == kind.key for key, kind in kinds.items())
    assert {"holding", "held_by", "aim"} <= set(kinds) and len(kinds) == 24
    assert not set(kinds) & {k.key for k in CONDITIONS}
    off = VtmRuleset().compose((), load_tables("1899")).conditions
    on = kinds_with_pack()
    assert dict(off) == dict(kinds)
    assert dict(on) == {**kinds, **{k.key: k for k in CONDITIONS}} and len(on) == 28
    assert all(key == kind.key for key, kind in on.items())


PACKED = """
ruleset: vtm
packs: [house_ranged]
combatants:
  - {id: a, side: x, position: [0, 0], conditions: {arm_hit: 2, dazed: true}}
  - {id: t, side: y, position: [5, 0]}
"""


@pytest.mark.parametrize("on", [True, False], ids=["pack on", "pack off"])
def test_a_packs_condition_is_typed_only_where_the_encounter_plays_it(on: bool) -> None:
    """A scenario's ``arm_hit`` (R-CALL-4) is an ``ArmHit`` record in an encounter with the
    pack, kept raw in one without; the JSON form is the same either way, and the rules
    read it as the kind in both."""
    scenario = yaml.safe_load(PACKED)
    if not on:
        del scenario["packs"]
    enc = Encounter.start(scenario)
    held = enc.state.fighters["a"].conditions
    assert type(held.records["arm_hit"]) is (ArmHit if on else Raw)
    assert held == {"arm_hit": 2, "dazed": True} and held.of(ArmHit) == ArmHit(penalty=2)
    assert (PACK in rules_of(enc.state).sources) is on


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("holding", {"target": "t", "kind": "hold"}),  # a field missing
        ("holding", {"target": "t", "kind": "hold", "turn": "1"}),  # a field of another type
        ("aim", 3),
        ("off_balance_turn", True),
        ("on_fire", {"since": 2}),  # no kind of that name
    ],
)
def test_a_value_no_kind_reads_is_kept_raw_and_shown_as_it_came(key: str, value: Any) -> None:
    held = VtmConditions.read({key: value})
    assert held.records[key] == Raw(name=key, value=value)
    assert held[key] == value and key in held
    kind = VtmConditions.kinds.get(key)
    assert kind is None or held.of(kind) is None  # the rules do not read it as that kind


def test_false_or_none_clears_and_records_are_shared_by_copies() -> None:
    held = VtmConditions.read({"dazed": True, "immobilised": "a"})
    for other in (copy.deepcopy(held), scratch_copy(held)):
        assert other == held and other.records is not held.records
        other.set("dazed", False)
        other.drop(Immobilised)
        assert other == {} and held == {"dazed": True, "immobilised": "a"}


def hold() -> Fight:
    f = Fight(HOLD)
    f.initiative(10, 5)
    f.declare("t", {"kind": "other"})
    f.declare("a", attack("hold", "t"))
    f.act("a", [6, 2, 2, 2, 2])
    return f


def test_a_hold_folds_into_typed_records_and_a_stored_log_replays_to_them() -> None:
    """V-CC-8: the hold's event puts typed records on both fighters; the summary's JSON
    is the dict it always was; the stored log (JSON) replays to the same records."""
    f = hold()
    a, t = f["a"], f["t"]
    assert a.conditions.of(Holding) == Holding(target="t", kind="hold", turn=1)
    assert t.conditions.of(HeldBy) == HeldBy(holder="a", kind="hold", turn=1)
    assert t.conditions.of(Immobilised) == Immobilised(given="a")
    assert fighter_summary(f.state, t)["conditions"] == {
        "held_by": {"holder": "a", "kind": "hold", "turn": 1},
        "immobilised": "a",
    }
    stored = json.loads(json.dumps([entry.to_dict() for entry in f.encounter.log]))
    again = Encounter.replay(yaml.safe_load(HOLD) | {"ruleset": "vtm"}, stored)
    for fid in ("a", "t"):
        assert again.state.fighters[fid].conditions.records == f[fid].conditions.records


def test_the_game_masters_own_value_is_kept_and_read_by_its_truth() -> None:
    """A condition set by hand keeps the value given (the summary shows it as given), and
    holds while that value is true."""
    f = Fight(HOLD)
    f.do("gm_condition", fighter="t", condition="running", value="oui")
    running = f["t"].conditions.of(Running)
    assert running == Running(given="oui") and running.since(5)
    assert fighter_summary(f.state, f["t"])["conditions"] == {"running": "oui"}
    f.do("gm_condition", fighter="t", condition="running", value="non")
    assert f["t"].conditions.of(Running) is None and "running" not in f["t"].conditions


def test_an_event_that_puts_a_condition_carries_its_fields_declared_once() -> None:
    """Aimed, ReloadProgress and house_ranged's CarefulAim carry their condition's fields
    (one class of them, which the condition derives from too) after ``fighter``, in the
    order their JSON always had; the fold puts the record of those fields, and the last
    turn of a reload drops it."""
    f = Fight(HOLD)
    aim = Aimed(
        fighter="a", target="t", weapon="rifle", turns=2, since=1, last=2, scope=True, dice=2
    )
    fields = ["fighter", "target", "weapon", "turns", "since", "last", "scope", "dice"]
    assert list(aim.to_dict())[5:] == fields
    aim.apply(f.state)
    assert f["a"].conditions.of(Aiming) == Aiming(
        target="t", weapon="rifle", turns=2, since=1, last=2, scope=True
    )
    ReloadProgress(fighter="a", weapon="crossbow", turns=1, needed=2).apply(f.state)
    assert f["a"].conditions.of(Reloading) == Reloading(weapon="crossbow", turns=1)
    ReloadProgress(fighter="a", weapon="crossbow", turns=2, needed=2).apply(f.state)
    assert f["a"].conditions.of(Reloading) is None
    careful = CarefulAim(fighter="a", target="t", weapon="rifle", rounds=1, last=3, bonus=1)
    assert list(careful.to_dict())[5:] == ["fighter", "target", "weapon", "rounds", "last", "bonus"]
    careful.apply(f.state)
    assert f["a"].conditions.of(CarefulShot) == CarefulShot(
        target="t", weapon="rifle", rounds=1, last=3
    )
