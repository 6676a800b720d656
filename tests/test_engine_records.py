"""Lean records (``conteur.records``): the same frozen dataclasses, a cheaper ``__init__``."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from typing import Any, ClassVar

import pytest

from conteur.dice import rolls
from conteur.engine import Command, event_types, get_ruleset
from conteur.engine.conditions import Condition
from conteur.engine.encounter import CommandEntry
from conteur.records import NO_VALUE, declare_record, lean, lean_init
from conteur.rulesets.hunter import dice as hunter_dice
from conteur.rulesets.vtm import dice as vtm_dice
from conteur.rulesets.vtm.events import GmNote
from conteur.rulesets.vtm.state import Action, Declaration
from conteur.rulesets.vtm.strike import Dealt, Rolled, Strike, StrikeOutcome, Through
from conteur.rulesets.western import dice as western_dice

for _name in ("vtm", "hunter", "western"):
    get_ruleset(_name)  # every ruleset's events registered


def make(lean_too: bool) -> type:
    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Base:
        tag: str = "b"
        notes: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True)
    class Record(Base):
        a: int
        b: tuple[int, ...] = ()
        c: dict[str, int] = dataclasses.field(default_factory=dict)
        d: list[int] = dataclasses.field(default_factory=list, init=False)
        e: int = dataclasses.field(default=5, init=False)
        kind: ClassVar[str] = "record"

        def __post_init__(self) -> None:
            self.d.append(self.a)

    return lean(Record) if lean_too else Record


CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((1,), {}),
    ((1, (2, 3)), {"c": {"x": 1}}),
    ((), {"a": 4, "tag": "t", "notes": [1]}),
    ((1, (), {}), {"tag": "z"}),
]


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_a_lean_record_is_built_as_its_dataclass(args: Any, kwargs: Any) -> None:
    plain, leaner = make(False), make(True)
    x, y = plain(*args, **kwargs), leaner(*args, **kwargs)
    assert vars(x) == vars(y) and list(vars(x)) == list(vars(y))
    assert repr(x).split("(", 1)[1] == repr(y).split("(", 1)[1]
    assert y == leaner(*args, **kwargs) and y != leaner(7)
    assert dataclasses.replace(y, a=9).a == 9 and dataclasses.replace(y, a=9).d == [9]
    with pytest.raises(dataclasses.FrozenInstanceError):
        y.a = 2  # type: ignore[misc]
    assert leaner(1).c is not leaner(1).c  # a fresh default each time


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((), {}), ((1, 2, 3, 4), {}), ((1,), {"d": []}), ((1,), {"zz": 1}), ((1,), {"a": 1})],
)
def test_a_lean_record_refuses_the_calls_its_dataclass_refuses(args: Any, kwargs: Any) -> None:
    for cls in (make(False), make(True)):
        with pytest.raises(TypeError):
            cls(*args, **kwargs)


def signature(cls: type) -> list[tuple[str, Any, Any]]:
    out = []
    for p in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        default = p.default
        if default is NO_VALUE or type(default).__name__ == "_HAS_DEFAULT_FACTORY_CLASS":
            default = "<factory>"
        out.append((p.name, p.kind, default))
    return out


LEAN = [
    rolls.DieNote,
    rolls.RollRecord,
    rolls.ExprResult,
    rolls.Expr,
    vtm_dice.VtmResult,
    vtm_dice.VtmPool,
    hunter_dice.HunterResult,
    hunter_dice.HunterPool,
    western_dice.PercentileResult,
    western_dice.Percentile,
    Command,
    CommandEntry,
    Action,
    Declaration,
    Strike,
    StrikeOutcome,
    Rolled,
    Through,
    Dealt,
]


@pytest.mark.parametrize("cls", [*event_types().values(), *LEAN], ids=lambda c: c.__name__)
def test_every_lean_record_has_its_dataclass_signature(cls: type) -> None:
    """The lean ``__init__`` of each event (and of the engine's records) takes the parameters
    ``@dataclass`` would have given it, with the same defaults."""
    expected = []
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        kind = (
            inspect.Parameter.KEYWORD_ONLY if f.kw_only else inspect.Parameter.POSITIONAL_OR_KEYWORD
        )
        default = (
            "<factory>"
            if f.default_factory is not dataclasses.MISSING
            else (inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)
        )
        expected.append((f.name, kind, default))
    expected.sort(key=lambda p: p[1] == inspect.Parameter.KEYWORD_ONLY)
    assert signature(type("probe", (), {"__init__": lean_init(cls)})) == expected


def test_an_event_read_before_its_first_instance_has_its_dataclass_signature() -> None:
    """Before its lean ``__init__`` is installed (the first instance), an event class reads
    as the dataclass it is: ``inspect.signature`` and the docstring ``@dataclass`` writes for
    a class without one (what ``docs/events.md`` shows) are those of the same plain
    dataclass; then its first instance installs the lean ``__init__``."""
    from conteur.engine import events

    Event = events.Event

    def fields() -> dict[str, Any]:
        return {"__annotations__": {"who": "str", "hits": "int"}, "hits": 1}

    probe = type("ProbeEventUnread", (Event,), fields())  # a record by being declared
    events._EVENT_TYPES.pop("ProbeEventUnread")  # no other test should meet it
    plain = dataclasses.dataclass(frozen=True, kw_only=True)(
        type(
            "ProbeEventUnread",
            (),
            {
                "__annotations__": {
                    **{f.name: f.type for f in dataclasses.fields(Event)},
                    **fields()["__annotations__"],
                },
                **{f.name: f.default for f in dataclasses.fields(Event)},
                "hits": 1,
            },
        )
    )
    assert inspect.signature(probe) == inspect.signature(plain)
    assert probe.__doc__ == plain.__doc__
    assert probe(who="a") == probe(who="a", hits=1)
    assert probe.__dict__["__init__"].__code__.co_varnames[:3] == (
        "__lean_self__",
        "rules",
        "rolls",
    )


def test_lean_records_pickle_and_hash_as_before() -> None:
    entry = CommandEntry(3, Command("act", "ann", {"x": 1}), ())
    assert pickle.loads(pickle.dumps(entry)) == entry
    note = GmNote(text="une ruelle", rules=("V-GEN-1",))
    assert pickle.loads(pickle.dumps(note)) == note
    assert hash(dataclasses.replace(note, text="x")) == hash(GmNote(text="x", rules=("V-GEN-1",)))


def test_lean_refuses_what_it_cannot_build() -> None:
    @dataclasses.dataclass
    class Mutable:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Slotted:
        a: int

    for cls in (Mutable, Slotted, int):
        with pytest.raises(TypeError):
            lean_init(cls)


def test_a_model_copied_with_changes_reads_its_own_fields_again() -> None:
    """Cached reads of an immutable model (a maneuver's effects by type) are not carried
    into a copy made with ``model_copy(update=...)``."""
    from conteur.rulesets.vtm.tables import load_tables

    grapple = load_tables().maneuvers["grapple"]
    assert grapple.effect("grapple") is not None  # read once: cached on the model
    assert grapple.model_copy(update={"effects": []}).effect("grapple") is None
    assert grapple.model_copy().effect("grapple") is not None


# ------------------------------------------------- records declared (events, conditions)


def twins(body: dict[str, Any], annotations: dict[str, str]) -> tuple[type, type]:
    """The same class body made a frozen dataclass by dataclasses and by ``declare_record``."""

    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Base:
        rules: tuple[str, ...] = ()

    made = []
    for declare in (dataclasses.dataclass(frozen=True, kw_only=True), declare_record):
        cls = type("Twin", (Base,), {**body, "__annotations__": dict(annotations)})
        declare(cls)
        made.append(cls)
    return made[0], made[1]


def _own_eq(self: Any, other: Any) -> bool:
    return isinstance(other, type(self)) and self.a == other.a


BODIES: dict[str, tuple[dict[str, Any], dict[str, str]]] = {
    "no field of its own": ({}, {}),
    "one field": ({"a": 0}, {"a": "Any"}),
    "fields": ({"a": 0, "b": "x", "c": ()}, {"a": "Any", "b": "str", "c": "tuple[int, ...]"}),
    "compare, repr and hash off": (
        {
            "a": 0,
            "b": dataclasses.field(default=1, compare=False),
            "c": dataclasses.field(default=2, repr=False),
            "e": dataclasses.field(default=3, hash=False),
        },
        {"a": "Any", "b": "int", "c": "int", "e": "int"},
    ),
    "hash on a field not compared": (
        {"a": 0, "b": dataclasses.field(default=1, compare=False, hash=True)},
        {"a": "Any", "b": "int"},
    ),
    "its own __eq__": ({"a": 0, "__eq__": _own_eq}, {"a": "Any"}),
    "its own __hash__": ({"a": 0, "__hash__": lambda self: 7}, {"a": "Any"}),
    "its own __repr__": ({"a": 0, "__repr__": lambda self: "mine"}, {"a": "Any"}),
    "unhashable": ({"a": 0, "__hash__": None}, {"a": "Any"}),
}

VALUES: list[dict[str, Any]] = [
    {},
    {"a": 1},
    {"a": 1, "rules": ("R-1",)},
    {"a": float("nan")},
    {"a": [1, 2]},
    {"a": 1, "b": 9},
    {"a": 1, "e": 8},
    {"a": 1, "c": 8},
]


@pytest.mark.parametrize("body", list(BODIES), ids=str)
def test_a_declared_record_reads_compares_and_hashes_as_its_dataclass(body: str) -> None:
    ref, ours = twins(*BODIES[body])
    assert [f.name for f in dataclasses.fields(ours)] == [f.name for f in dataclasses.fields(ref)]
    assert ours.__match_args__ == ref.__match_args__  # type: ignore[attr-defined]
    assert ours.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert (ours.__hash__ is None) == (ref.__hash__ is None)
    names = {f.name for f in dataclasses.fields(ref)}
    cases = [{k: v for k, v in values.items() if k in names} for values in VALUES]
    shared = float("nan")
    cases.append({"a": shared} if "a" in names else {})
    for left in cases:
        x, y = ref(**left), ours(**left)
        assert repr(y) == repr(x)
        if ref.__hash__ is not None:
            try:
                expected: Any = hash(x)
            except TypeError:
                expected = TypeError
            if expected is TypeError:
                with pytest.raises(TypeError):
                    hash(y)
            else:
                assert hash(y) == expected
        for right in cases:
            assert (ours(**left) == ours(**right)) == (ref(**left) == ref(**right)), (left, right)
            assert (ours(**left) != ours(**right)) == (ref(**left) != ref(**right)), (left, right)
        assert (y == x) is False and (x == y) is False  # another class: not equal
        with pytest.raises(dataclasses.FrozenInstanceError):
            y.rules = ()  # type: ignore[misc]


def test_a_declared_record_shows_itself_inside_itself_as_its_dataclass() -> None:
    ref, ours = twins(*BODIES["one field"])
    x, y = ref(a=[]), ours(a=[])
    x.a.append(x)
    y.a.append(y)
    assert repr(y) == repr(x) == "Twin(rules=(), a=[...])"
    assert type(y).__repr__.__qualname__ == "Twin.__repr__"


def _subclasses(cls: type) -> list[type]:
    return [c for sub in cls.__subclasses__() for c in (sub, *_subclasses(sub))]


@pytest.mark.parametrize(
    "cls", [*event_types().values(), *_subclasses(Condition)], ids=lambda c: c.__name__
)
def test_every_event_and_condition_reads_and_compares_its_own_fields(cls: type) -> None:
    assert cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    own = vars(cls)
    assert "__dataclass_fields__" in own
    for name in ("__repr__", "__eq__", "__hash__"):
        assert name in own, name  # its own, not a base's over fewer fields


def test_a_lean_init_stores_fields_named_like_its_own_locals() -> None:
    @lean
    @dataclasses.dataclass(frozen=True)
    class Named:
        d: int
        self: str = "s"

    r = Named(3, self="x")
    assert (r.d, r.self) == (3, "x")
    assert r == Named(d=3, self="x") and r != Named(d=4, self="x")


def test_an_event_stamped_with_its_visibility_is_the_replaced_event() -> None:
    """``_stamped`` (``Resolution.emit``) copies an event's fields straight: what
    ``dataclasses.replace`` gives, for every event of simulated fights of each ruleset."""
    from pathlib import Path

    import yaml

    from conteur.dice import SeededDice
    from conteur.engine import Encounter
    from conteur.engine.ruleset import _stamped
    from conteur.engine.visibility import GM_ONLY, owned_by
    from conteur.sim.referee import get_referee
    from conteur.sim.tactics import make_tactic

    examples = Path(__file__).resolve().parents[1] / "examples"
    seen = 0
    for path in (
        examples / "simulation" / "4v4_1899.yaml",
        examples / "hunter" / "cellule.yaml",
        examples / "western" / "saloon.yaml",
    ):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        enc = Encounter.start(data, path.parent, keep_history=False)
        name = enc.ruleset.name
        sides = {f.side for f in enc.state.fighters.values()}
        tactics = {side: make_tactic(name, "nearest", {}) for side in sides}
        get_referee(name).fight(enc, SeededDice(3), tactics, 20, 50.0)
        for ev in enc.events():
            for vis in (GM_ONLY, owned_by("x")):
                stamped = _stamped(ev, vis)
                replaced = dataclasses.replace(ev, seen=vis)
                assert type(stamped) is type(replaced) and stamped == replaced
                for f in dataclasses.fields(ev):  # the same values, not copies
                    assert getattr(stamped, f.name) is getattr(replaced, f.name)
                assert stamped.seen is vis
                assert stamped is not ev and ev.seen is not vis
            seen += 1
    assert seen > 100
