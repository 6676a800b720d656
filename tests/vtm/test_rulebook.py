"""The rules of one encounter are composed once, at its start (``rulebook.compose``).

The fights below are the shipped examples played whole from their scripts and typed dice.
What ran is observed with ``sys.setprofile`` (every Python function entered, nothing
replaced or wrapped); what is in play is read from the encounter's own rulebook.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import pytest

from conteur.engine import Encounter
from conteur.rulesets.vtm import hooks
from conteur.rulesets.vtm.hooks import Declared
from conteur.rulesets.vtm.packs import packs
from conteur.rulesets.vtm.rulebook import (
    CORE,
    CompositionError,
    Handler,
    Rulebook,
    compose,
    rules_of,
)
from conteur.rulesets.vtm.ruleset import VtmRuleset
from conteur.rulesets.vtm.tables import load_tables

from .examples import played

PACK = "house_ranged"


@contextmanager
def entered() -> Iterator[set[CodeType]]:
    """The code of every Python function entered inside the block."""
    seen: set[CodeType] = set()

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            seen.add(frame.f_code)

    before = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield seen
    finally:
        sys.setprofile(before)


def fight(name: str) -> tuple[Encounter, set[CodeType]]:
    """The example played whole, and the code of every function it entered."""
    with entered() as seen:
        enc = played(name)
    return enc, seen


def ran(handlers: tuple[Handler, ...] | list[Handler], seen: set[CodeType]) -> set[str]:
    return {h.name for h in handlers if h.declared.fn.__code__ in seen}


def pack_declared() -> list[Declared]:
    prefix = f"conteur.rulesets.vtm.packs.{PACK}."
    return [d for d in hooks.DECLARED if d.fn.__module__.startswith(prefix)]


def every_rulebook() -> Rulebook:
    """The rulebook of an encounter with the pack on."""
    return rules_of(VtmRuleset().new_state({"era": "modern", "packs": [PACK]}))


@pytest.mark.parametrize("name", ["fusillade", "saloon", "vampires"])
def test_with_the_pack_off_no_pack_handler_is_in_play_or_runs_in_a_whole_fight(name: str) -> None:
    enc, seen = fight(name)
    book = rules_of(enc.state)
    assert book.sources == (CORE,)
    assert {h.source for h in book.handlers} == {CORE}
    assert book.removed == ()
    mine = pack_declared()
    assert len(mine) > 20  # the pack's handlers are declared (imported) all the same
    assert {d.name for d in mine if d.fn.__code__ in seen} == set()
    assert len(ran(book.handlers, seen)) > 10  # the observation sees the core's handlers run


def test_with_the_pack_off_the_core_rules_it_replaces_run() -> None:
    """The other side of the next test: without the pack, the fusillade's shots go through
    the core handlers the pack would take out (so their absence below means something)."""
    enc, seen = fight("fusillade")
    book = rules_of(enc.state)
    replaced = every_rulebook().removed
    assert {"ranged.range_band", "modifiers.targeting_shot", "ranged.aim"} <= ran(replaced, seen)
    assert {"three_round_burst", "full_auto", "spray", "aim"} <= set(book.at(hooks.action))


def test_with_the_pack_on_no_replaced_core_handler_is_in_play_or_runs() -> None:
    enc, seen = fight(PACK)
    book = rules_of(enc.state)
    assert book.sources == (CORE, PACK)
    removed = book.removed
    assert {h.name for h in removed} >= {
        "ranged.range_band",
        "modifiers.targeting_shot",
        "ranged.aim",
        "ranged.called_shot_past_cover",
    }
    assert not set(removed) & set(book.handlers)
    for h in removed:  # under its key, a removed handler is out of its point's table
        if h.key is not None:
            assert h.key not in book.keyed[h.point]
    # A function declared under several keys stays for the keys not replaced (``shot`` fires
    # ``shoot`` but no longer ``three_round_burst``): only the others can be seen not to run.
    held = {h.declared.fn for h in book.handlers}
    gone = [h for h in removed if h.declared.fn not in held]
    assert {h.name for h in gone} >= {"ranged.range_band", "ranged.aim", "ranged.check_aim"}
    assert ran(gone, seen) == set()
    # The pack's own handlers did run, and the core's still in play too.
    assert {"shots.shot_distance", "suppression.pinned_down", "bursts.burst"} <= ran(
        book.handlers, seen
    )
    assert "modifiers.targeting_blow" in {h.name for h in book.handlers}


def test_each_rule_the_pack_replaces_takes_out_a_handler_once() -> None:
    book = every_rulebook()
    pack = packs()[PACK]
    taken = {rule for h in book.removed for rule, _ in h.rules}
    assert set(pack.replaces) | set(pack.replaces_for_shots) <= taken
    assert len(book.removed) == len(set(book.removed))
    assert all(h.source == CORE for h in book.removed)


def test_the_order_is_the_sources_then_the_modules_then_top_to_bottom() -> None:
    """Core first, then the pack; not the order in which the modules happened to be imported."""
    ruleset = VtmRuleset()
    tables = load_tables("modern")
    source = [p.source() for p in ruleset.packs.values()]
    book = ruleset.compose((PACK,), tables)
    modules = list(dict.fromkeys(d.fn.__module__ for d in hooks.DECLARED))
    backwards = [d for m in reversed(modules) for d in hooks.DECLARED if d.fn.__module__ == m]
    renumbered = [dataclasses.replace(d, seq=i) for i, d in enumerate(backwards)]
    other = compose(ruleset.core, source, source, tables, declared=renumbered)  # imported
    # the other way round
    assert [h.name for h in other.handlers] == [h.name for h in book.handlers]
    names = [h.name for h in book.handlers if h.point == "difficulty"]
    assert names[:3] == [
        "modifiers.maneuver_difficulty",
        "modifiers.targeting_blow",  # targeting_shot is the pack's called shot's now
        "modifiers.multiple_opponents",
    ]
    assert names[-4:] == [
        "shots.shot_distance",
        "shots.wounded_limb",
        "shots.careful_bonus",
        "spread.spread_band_rule",
    ]


def stray(d: Any) -> None:
    """A pool rule declared in this test module, which no rule source lists."""


def test_a_handler_from_a_module_no_source_lists_is_refused() -> None:
    ruleset = VtmRuleset()
    known = [p.source() for p in ruleset.packs.values()]
    tables = load_tables("1899")
    assert compose(ruleset.core, [], known, tables).handlers  # as declared: fine
    declared = [*hooks.DECLARED, Declared("pool", None, stray, len(hooks.DECLARED))]
    with pytest.raises(CompositionError, match=r"test_rulebook\.stray"):
        compose(ruleset.core, [], known, tables, declared=declared)


def test_two_handlers_in_play_under_one_key_are_refused() -> None:
    ruleset = VtmRuleset()
    first = next(d for d in hooks.DECLARED if d.point == "action" and d.key == "shoot")
    other = next(d for d in hooks.DECLARED if d.point == "action" and d.key == "reload")
    declared = [*hooks.DECLARED, Declared("action", "shoot", other.fn, len(hooks.DECLARED))]
    known = [p.source() for p in ruleset.packs.values()]
    with pytest.raises(CompositionError, match=r"'shoot': both ranged\.shot and ranged\.reload"):
        compose(ruleset.core, [], known, load_tables("1899"), declared=declared)
    assert first.fn is not other.fn


# ------------------------------------------------------------------ the docs


DOCS = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
POINTS = (*hooks.LISTED, *hooks.KEYED)


def _entry(h: Handler) -> str:
    name = f"`{h.name}`" if h.key is None else f"`{h.key}` → `{h.name}`"
    return f"*{name}*" if h.source != CORE else name


def composition_markdown() -> str:
    """The table of ``docs/architecture.md``: an encounter's rulebook with the pack on."""
    book = every_rulebook()
    lines = [
        "| point | in play, in order (house_ranged's in italics) | taken out by the pack |",
        "|---|---|---|",
    ]
    for point in POINTS:
        held = [_entry(h) for h in book.handlers if h.point == point]
        gone = [
            f"{_entry(h)} ({', '.join(r for r, _ in h.rules)})"
            for h in book.removed
            if h.point == point
        ]
        if held or gone:
            lines.append(f"| `{point}` | {', '.join(held)} | {', '.join(gone)} |")
    return "\n".join(lines) + "\n"


def test_the_architecture_page_shows_the_composition_of_one_encounter() -> None:
    """``docs/architecture.md`` holds the table (regenerate: ``python -m tests.vtm.test_rulebook``)."""
    assert composition_markdown() in DOCS.read_text(encoding="utf-8")


if __name__ == "__main__":
    sys.stdout.write(composition_markdown())
