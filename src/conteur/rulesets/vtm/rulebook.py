"""The rules of one encounter, composed once at its start: vtm's handlers, then each pack's.

Rule modules only declare their handlers (``hooks``). ``compose`` turns the
declarations into one ``Rulebook``, much as a Pokémon Showdown battle gathers
the handlers of its format and its mods once: the sources in play are vtm's
own rule modules, then the option packs the scenario lists, in its order; an
option pack's ``replaces`` takes the core handlers implementing those rule ids
out, there and once; a pack that is off adds nothing (neither handlers nor condition
kinds). So no handler asks
whether its pack is on, and a rule module's place in the order is written in
one list (``CORE_MODULES``, a pack's ``modules``) rather than left to the order
of imports.

The order of the handlers at one point (the pool rules of an attack, the checks
of an action...) is: the sources in that order; within a source, its modules
in their listed order; within a module, top to bottom. The pipeline reads the
rulebook of the state it works on (``rules_of``); copies of the state share it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from conteur.engine.conditions import Condition

from . import hooks
from .hooks import Declared, Hook, Keyed, Listed

if TYPE_CHECKING:
    from .state import Fighter, VtmState
    from .tables import Tables

CORE = "vtm"
"""The name of vtm's own rules among the sources of a rulebook."""

CORE_MODULES = ("modifiers", "actions", "close", "ranged", "defence", "general")
"""vtm's rule modules (``conteur.rulesets.vtm.*``), in the order their handlers run."""


@dataclass(frozen=True)
class Source:
    """Rules that go into a rulebook: vtm's own, or one option pack's."""

    name: str
    modules: tuple[str, ...]
    """Its rule modules (full names), in the order their handlers run."""
    replaces: tuple[str, ...] = ()
    """Rule ids whose core handlers leave the encounter."""
    replaces_for_shots: tuple[str, ...] = ()
    """Rule ids whose core handlers for ranged attacks leave the encounter."""
    conditions: tuple[type[Condition], ...] = ()
    """Its condition kinds: the encounter's fighters read them (``Rulebook.conditions``)."""


@dataclass(frozen=True)
class Handler:
    """One handler in an encounter's rulebook: its declaration, its source, its rules."""

    declared: Declared
    source: str
    rules: tuple[tuple[str, bool], ...]
    """(rule id, for shots only) for each rule it implements."""

    @property
    def name(self) -> str:
        return self.declared.name

    @property
    def point(self) -> str:
        return self.declared.point

    @property
    def key(self) -> str | None:
        return self.declared.key

    def replaced_by(self, source: Source) -> bool:
        """Whether ``source`` replaces a rule this handler implements."""
        return any(
            rule in source.replaces or (shots and rule in source.replaces_for_shots)
            for rule, shots in self.rules
        )


def _keyed(handlers: Sequence[Handler], point: str) -> Mapping[str, Any]:
    out: dict[str, Any] = {}
    for h in handlers:
        if h.point == point and h.key is not None:
            out[h.key] = h.declared.fn
    return MappingProxyType(out)


def _listed(handlers: Sequence[Handler], point: str) -> tuple[Any, ...]:
    return tuple(h.declared.fn for h in handlers if h.point == point)


@dataclass(frozen=True)
class Rulebook:
    """The handlers of one encounter, in the order they run, found by point."""

    sources: tuple[str, ...]
    handlers: tuple[Handler, ...]
    """Every handler in play, in order."""
    removed: tuple[Handler, ...] = ()
    """The core handlers an option pack of the encounter replaces (for the docs and tests)."""
    keyed: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """The handlers of each keyed point (``hooks.KEYED``) by key: read with ``at``."""
    listed: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    """The handlers of each listed point (``hooks.LISTED``), in order: read with ``of``."""
    conditions: Mapping[str, type[Condition]] = field(default_factory=dict)
    """The condition kinds of the encounter, by key: vtm's and its packs'."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Rulebook:
        return self  # copies of a state share its rulebook (it never changes)

    def at(self, point: Keyed[Hook]) -> Mapping[str, Hook]:
        """The handlers at a keyed point by key (``book.at(action)["run"]``)."""
        return self.keyed.get(point.point, {})

    def of(self, point: Listed[Hook]) -> tuple[Hook, ...]:
        """The handlers at a listed point (``book.of(pool_rule)``), in the order they run."""
        return self.listed.get(point.point, ())

    def roll_modifiers(
        self, state: VtmState, f: Fighter, purpose: str
    ) -> tuple[int, tuple[str, ...]]:
        """The difficulty change the roll rules make to ``f``'s ``purpose`` roll, and their
        rule ids."""
        total, rules = 0, []
        for rule in self.of(hooks.roll_rule):
            found = rule(state, f, purpose)
            if found is not None:
                total += found[0]
                rules.append(found[1])
        return total, tuple(rules)


class CompositionError(Exception):
    """Rule modules that cannot be composed (a programming error, not a user's)."""


def _source_of(fn: Callable[..., Any], sources: Iterable[Source]) -> Source | None:
    return next((s for s in sources if fn.__module__ in s.modules), None)


def compose(
    core: Source,
    packs: Sequence[Source],
    known: Sequence[Source],
    tables: Tables,
    declared: Sequence[Declared] | None = None,
) -> Rulebook:
    """The rulebook of an encounter with ``core``'s rules and the option packs ``packs``.

    ``known`` lists every option pack (a handler of one not in ``packs`` stays out);
    ``tables`` are the era's own (before any pack changes them): a handler declared under
    a maneuver's id implements that maneuver's rule. A declaration from a module no source
    lists, or two handlers in play under one key, is a ``CompositionError``.
    """
    active = (core, *packs)
    ranks = {m: (i, j) for i, s in enumerate(active) for j, m in enumerate(s.modules)}
    maneuvers = tables.maneuvers
    kept: list[tuple[tuple[int, int, int], Handler]] = []
    removed: list[Handler] = []
    for d in hooks.DECLARED if declared is None else declared:
        source = _source_of(d.fn, (*active, *known))
        if source is None:
            raise CompositionError(f"{d.name}: declared in a module no rule source lists")
        if d.fn.__module__ not in ranks:
            continue  # an option pack that is off
        rules = hooks.IMPLEMENTS.get(d.fn, ())
        m = maneuvers.get(d.key or "") if d.point in ("action", "validator") else None
        if m is not None:
            rules = (*rules, (m.rule, m.kind == "ranged"))
        h = Handler(d, source.name, rules)
        if source is core and any(h.replaced_by(p) for p in packs):
            removed.append(h)
            continue
        kept.append(((*ranks[d.fn.__module__], d.seq), h))
    handlers = tuple(h for _, h in sorted(kept, key=lambda pair: pair[0]))
    seen: dict[tuple[str, str], Handler] = {}
    for h in handlers:
        if h.key is None:
            continue
        other = seen.setdefault((h.point, h.key), h)
        if other is not h and other.declared.fn is not h.declared.fn:
            raise CompositionError(f"{h.point} {h.key!r}: both {other.name} and {h.name}")
    return Rulebook(
        sources=tuple(s.name for s in active),
        handlers=handlers,
        removed=tuple(removed),
        keyed=MappingProxyType({p: _keyed(handlers, p) for p in hooks.KEYED}),
        listed=MappingProxyType({p: _listed(handlers, p) for p in hooks.LISTED}),
        conditions=MappingProxyType({k.key: k for s in active for k in s.conditions}),
    )


def rules_of(state: VtmState) -> Rulebook:
    """The rulebook composed for this encounter at its start (``VtmRuleset.new_state``)."""
    book: Rulebook = state.meta["rules"]  # set once by ``new_state`` (read ~800 times a fight)
    return book


__all__ = [
    "CORE",
    "CORE_MODULES",
    "CompositionError",
    "Handler",
    "Rulebook",
    "Source",
    "compose",
    "rules_of",
]
