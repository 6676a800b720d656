"""The typed condition container (``conteur.engine.conditions``), with a toy ruleset's kinds.

A ruleset declares its kinds; the container folds an event's ``key: value`` into the
kind's record, keeps what no kind reads raw, and reads as ``{key: JSON form}``.
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from dataclasses import FrozenInstanceError
from typing import Any, ClassVar

import pytest

from conteur.engine.conditions import Condition, Conditions, Fields, Flag, Raw, Single, flag

Stunned = flag("stunned", "Loses a move.")


class Marked(Single, key="marked"):
    by: str


class Bound(Fields, key="bound"):
    to: str
    turn: int
    tight: bool
    note: str | None


class ToyConditions(Conditions):
    kinds: ClassVar[Mapping[str, type[Condition]]] = {k.key: k for k in (Stunned, Marked, Bound)}


def test_a_flag_class_is_named_after_its_key_and_pickles() -> None:
    assert Stunned.__name__ == "Stunned" and Stunned.key == "stunned"
    assert issubclass(Stunned, Flag) and Stunned.__module__ == __name__
    held = ToyConditions.read({"stunned": "yes"})
    assert pickle.loads(pickle.dumps(held)) == held == {"stunned": "yes"}


@pytest.mark.parametrize(
    ("key", "value", "record"),
    [
        ("stunned", True, Stunned()),
        ("stunned", 0, Stunned(given=0)),  # kept, and false: it does not hold
        ("marked", "ana", Marked(by="ana")),
        (
            "bound",
            {"to": "bob", "turn": 2, "tight": True, "note": None},
            Bound(to="bob", turn=2, tight=True, note=None),
        ),
    ],
)
def test_an_events_value_folds_into_its_kinds_record(key: str, value: Any, record: Any) -> None:
    held = ToyConditions()
    held.set(key, value)
    assert held.records == {key: record} and held.of(type(record)) == record
    assert held[key] == value and held.json() == {key: value}
    assert bool(held.of(type(record))) is bool(value)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("marked", 3),
        ("bound", {"to": "bob", "turn": True, "tight": True, "note": None}),  # bool is no int
        ("bound", {"to": "bob", "turn": 2, "tight": True}),
        ("bound", {"to": "bob", "turn": 2, "tight": True, "note": None, "extra": 1}),
        ("elsewhere", [1, 2]),
    ],
)
def test_a_value_no_kind_reads_stays_raw(key: str, value: Any) -> None:
    held = ToyConditions.read({key: value})
    assert held.records == {key: Raw(name=key, value=value)} and held == {key: value}
    assert all(held.of(kind) is None for kind in (Marked, Bound))


def test_none_and_false_clear_and_a_record_cannot_change() -> None:
    held = ToyConditions.read({"marked": "ana", "stunned": True})
    held.set("marked", None)
    held.set("stunned", False)
    held.drop(Bound)  # not set: nothing happens
    assert held == {} and len(held) == 0
    record = Marked(by="ana")
    with pytest.raises(FrozenInstanceError):
        record.by = "bob"  # type: ignore[misc]


class Tagged(Single, key="tagged"):
    """A pack's own kind: not among the ruleset's."""

    by: str


def test_a_packs_kind_is_read_where_the_fold_is_given_it() -> None:
    """An encounter that plays a pack folds with the pack's kinds too (``kinds``); without
    them the value is kept raw, and read as the kind when asked; the ruleset's own kinds
    are unchanged."""
    held = ToyConditions.read({"tagged": "bob"})
    assert type(held.records["tagged"]) is Raw and held.of(Tagged) == Tagged(by="bob")
    kinds = {**ToyConditions.kinds, Tagged.key: Tagged}
    assert type(ToyConditions.read({"tagged": "bob"}, kinds).records["tagged"]) is Tagged
    held.set("tagged", "ana", kinds)
    assert held.records["tagged"] == Tagged(by="ana") and held == {"tagged": "ana"}
    held.update([("tagged", "bob"), ("marked", "ana")], kinds)
    assert held.records == {"tagged": Tagged(by="bob"), "marked": Marked(by="ana")}
    assert "tagged" not in ToyConditions.kinds
