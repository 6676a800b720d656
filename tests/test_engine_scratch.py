"""``conteur.engine.scratch.scratch_copy``: a deep copy of a rules state, faster than deepcopy."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path

from conteur.engine import Encounter
from conteur.engine.scenario import load_scenario
from conteur.engine.scratch import scratch_copier, scratch_copy

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@dataclass
class Box:
    items: list[int] = field(default_factory=list)
    tags: dict[str, list[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Frozen:
    name: str


def test_copy_is_equal_and_independent() -> None:
    shared = [1, 2]
    value = {"a": Box([1], {"x": ["y"]}), "b": (Frozen("f"), 3), "c": [shared, shared], "d": None}
    out = scratch_copy(value)
    assert out == value == copy.deepcopy(value)
    out["a"].items.append(2)
    out["a"].tags["x"].append("z")
    assert value["a"].items == [1] and value["a"].tags == {"x": ["y"]}
    assert out["b"] is value["b"]  # a tuple of immutables is shared, as deepcopy does
    assert out["c"][0] is out["c"][1] and out["c"][0] is not shared  # aliasing kept


def test_every_example_state_copies_like_deepcopy() -> None:
    for path in sorted(EXAMPLES.glob("*.yaml")):
        data, base = load_scenario(path)
        state = Encounter.start(data, base).state
        out = scratch_copy(state)
        assert out == state == copy.deepcopy(state), path.name
        for fid, f in state.fighters.items():
            g = out.fighters[fid]
            assert g is not f and g.health.boxes is not f.health.boxes
            assert g.progress is not f.progress and g.conditions is not f.conditions
            assert g.sheet is f.sheet  # immutable, shared


def test_a_copier_makes_a_fresh_independent_copy_each_call() -> None:
    for path in sorted(EXAMPLES.glob("*.yaml")):
        data, base = load_scenario(path)
        state = Encounter.start(data, base).state
        fresh = scratch_copier(state)
        one, two = fresh(), fresh()
        assert one == state == two and one is not two, path.name
        fid = next(iter(state.fighters))
        one.fighters[fid].health.take(3, "lethal")
        one.fighters[fid].conditions.set("dazed", True)
        one.options["probe"] = 1
        assert two == state and one != state
        assert fresh() == state
        assert one.fighters[fid].sheet is state.fighters[fid].sheet


def test_a_copier_keeps_shared_objects_shared() -> None:
    shared = [1]
    value = {"a": shared, "b": shared, "t": (Frozen("x"), Box([2]))}
    out = scratch_copier(value)()
    assert out == value and out["a"] is out["b"] and out["a"] is not shared
    assert out["t"][1] is not value["t"][1] and out["t"][0] is value["t"][0]
