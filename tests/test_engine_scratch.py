"""``conteur.engine.scratch.scratch_copy``: a deep copy of a rules state, faster than deepcopy."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path

from conteur.engine import Encounter
from conteur.engine.scenario import load_scenario
from conteur.engine.scratch import scratch_copy

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
