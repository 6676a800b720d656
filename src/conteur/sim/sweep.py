"""Sweeps: the same scenario simulated over a range of one of its values.

``conteur simulate SCENARIO --sweep SPEC`` answers "how many of them make this fair?".
SPEC is one of::

    abberline*=2..6          copies of one combatant: abberline, abberline-2 ... abberline-6
    lucien.celerite=0..3     one trait of one combatant (the ruleset's traits)
    OPTION=false,true        one of the scenario's options (the ruleset's options)

A range ``a..b`` runs every whole number from a to b; a list ``a,b,c`` runs those values.
Names are matched without regard to case or accents, and a unique beginning is enough;
a name that matches several (``m*`` for marius and mina) or none is refused by name,
with the nearest valid one. Copies are placed by the side's default formation
(``formation``): beside the original, in the side's line (across the direction of the
enemy), ``SPACING`` metres apart, alternately on its left and right, at the nearest
free place; a combatant without a position in the scenario keeps none.

Every value is checked (its encounter started, its tactics made) before the first fight.
Every value is fought with the same seed, run *i* with the *i*-th child of it, so two
values differ by what was varied and not by the dice; the chunks of every value are
fought together (here, in a pool of processes or on a Dask cluster) and their integer
tallies added up value by value: same seed, same result, however it was run.
"""

from __future__ import annotations

import difflib
import math
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Unpack

from conteur.engine import Encounter
from conteur.i18n import ConteurError, Describable, Lang, Msg

from .encounters import Plan, RunReport, SimulateOptions, Simulation, SimulationResult
from .referee import get_referee

SweepKind = Literal["copies", "trait", "option"]

SPACING = 1.5
"""Metres between a copy and its neighbours in the side's line."""

MAX_VALUES = 100
"""The most values one sweep may run."""

_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")
_WORDS = {
    "true": True,
    "vrai": True,
    "oui": True,
    "yes": True,
    "false": False,
    "faux": False,
    "non": False,
    "no": False,
}


def fold(text: str) -> str:
    """``text`` as names are compared: lower case, no accents, words joined by ``_``."""
    decomposed = unicodedata.normalize("NFKD", str(text))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c)).lower()
    return re.sub(r"[^0-9a-z]+", "_", bare).strip("_")


# ------------------------------------------------------------------ the spec


@dataclass(frozen=True)
class SweepSpec:
    """A sweep read and matched against the scenario: what varies and over which values."""

    text: str
    """The spec as written."""
    label: str
    """Its left-hand side as written (``abberline*``, ``lucien.celerite``): the axis' name."""
    kind: SweepKind
    values: tuple[Any, ...]
    combatant: str | None = None
    """The combatant copied or whose trait varies (its id)."""
    trait: str | None = None
    """The trait's key (the ruleset's ``sweep_traits``)."""
    option: str | None = None
    """The option's key (the ruleset's ``sweep_options``)."""
    combatant_name: str | None = field(default=None, compare=False)
    """The combatant's name as the scenario gives it."""
    trait_name: Describable | str | None = field(default=None, compare=False)
    """The trait's name in either language (the ruleset's ``sweep_trait_name``)."""

    def axis(self) -> Describable | str:
        """What the sweep varies, as a reader reads it: « Célérité (Marius) », « abberline
        (exemplaires) », or the option as written."""
        if self.kind == "copies":
            return Msg("sim.sweep.axis.copies", name=self.label[:-1].strip())
        if self.kind == "trait" and self.trait_name is not None:
            fighter = self.combatant_name or self.combatant
            return Msg("sim.sweep.axis.trait", trait=self.trait_name, fighter=fighter)
        return self.label

    def to_dict(self) -> dict[str, Any]:
        return {
            "spec": self.text,
            "label": self.label,
            "kind": self.kind,
            "combatant": self.combatant,
            "trait": self.trait,
            "option": self.option,
            "values": list(self.values),
        }


def parse_values(text: str, spec: str, whole: bool) -> tuple[Any, ...]:
    """The values of a sweep: ``a..b`` (every whole number) or ``a,b,c``; ``whole``: whole
    numbers only (copies, traits)."""
    found = _RANGE.match(text)
    values: list[Any]
    if found:
        low, high = int(found.group(1)), int(found.group(2))
        if low > high:
            raise ConteurError("sim.sweep.range", spec=spec, low=low, high=high)
        values = list(range(low, high + 1)) if high - low < MAX_VALUES else []
    else:
        items = [item.strip() for item in text.split(",")]
        if not all(items):
            raise ConteurError("sim.sweep.format", spec=spec)
        values = [_value(item) for item in items]
        if len(set(map(repr, values))) < len(values):
            raise ConteurError("sim.sweep.repeated", spec=spec)
    if not values or len(values) > MAX_VALUES:
        raise ConteurError("sim.sweep.too_many", spec=spec, most=MAX_VALUES)
    if whole and not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise ConteurError("sim.sweep.whole", spec=spec)
    return tuple(values)


def _value(item: str) -> Any:
    """One listed value: a whole number, a decimal number, yes/no (French or English) or a
    word."""
    if re.fullmatch(r"-?\d+", item):
        return int(item)
    if re.fullmatch(r"-?\d+\.\d*", item):
        return float(item)
    return _WORDS.get(fold(item), item)


class Names:
    """Names given in either language (``Msg``, ``Bilingual`` or plain), written in one as a
    list in that language's alphabetical order: a message field."""

    __slots__ = ("names",)

    def __init__(self, names: Sequence[Describable | str]) -> None:
        self.names = tuple(names)

    def describe(self, lang: Lang | None = None) -> str:
        said = {n if isinstance(n, str) else n.describe(lang) for n in self.names}
        return ", ".join(sorted(said, key=lambda n: (fold(n), n)))

    def __repr__(self) -> str:
        return f"Names({self.names!r})"


def match_name(
    written: str,
    candidates: Mapping[str, str],
    errors: tuple[str, str, str],
    name_of: Callable[[str], Describable | str] | None = None,
    **fields: Any,
) -> str:
    """The key ``written`` names among ``candidates`` (each spelling → its key), spellings
    compared by ``fold``: the key of an equal spelling, else of the only spellings it
    begins. Otherwise ConteurError, ``errors`` being three message keys: ``unknown``
    (naming every key, and with the message ``near`` the key of the nearest spelling when
    one is close) or ``ambiguous`` (naming the keys it could mean). ``name_of`` gives the
    name the reader knows a key by (default: the key itself)."""
    name = name_of or (lambda key: key)
    unknown, ambiguous, near_key = errors
    folded = fold(written)
    table: dict[str, set[str]] = {}
    for spelling, key in candidates.items():
        table.setdefault(fold(spelling), set()).add(key)
    exact = table.get(folded, set())
    if len(exact) == 1:
        return next(iter(exact))
    keys = exact or {
        k for form, ks in table.items() if folded and form.startswith(folded) for k in ks
    }
    if len(keys) == 1:
        return next(iter(keys))
    if keys:
        matches = Names([name(k) for k in sorted(keys)])
        raise ConteurError(ambiguous, name=written, matches=matches, **fields)
    close = difflib.get_close_matches(folded, sorted(table), n=1)
    near: Msg | str = Msg(near_key, name=name(min(table[close[0]]))) if close else ""
    known = Names([name(k) for k in sorted(set(candidates.values()))]) if candidates else "—"
    raise ConteurError(unknown, name=written, near=near, known=known, **fields)


COMBATANT_ERRORS = (
    "sim.sweep.unknown_combatant",
    "sim.sweep.ambiguous_combatant",
    "sim.sweep.near.combatant",
)


def parse_sweep(text: str, start: Encounter) -> SweepSpec:
    """Read the sweep ``text`` against the scenario started as ``start`` (ConteurError
    naming the spec, and the nearest valid combatant, trait or option, when it is wrong)."""
    spec = text.strip()
    left, sep, right = spec.partition("=")
    left = left.strip()
    if not sep or not left or not right.strip():
        raise ConteurError("sim.sweep.format", spec=spec)
    ruleset = start.ruleset
    fighters = get_referee(ruleset.name).fighters(start.state)
    people: dict[str, str] = {}
    for fid, _, name in fighters:
        people.setdefault(fid, fid)
        people.setdefault(name, fid)
    if left.endswith("*"):
        who = match_name(left[:-1].strip(), people, COMBATANT_ERRORS)
        values = parse_values(right, spec, whole=True)
        if min(values) < 0:
            raise ConteurError("sim.sweep.negative", spec=spec)
        return SweepSpec(spec, left, "copies", values, combatant=who)
    head, dot, tail = left.partition(".")
    if dot and fold(head) not in ("option", "options"):
        who = match_name(head.strip(), people, COMBATANT_ERRORS)
        traits = ruleset.sweep_traits(start.state)
        if not traits:
            raise ConteurError("engine.sweep.no_traits", ruleset=ruleset.name)
        trait = match_name(
            tail.strip(),
            traits,
            ("sim.sweep.unknown_trait", "sim.sweep.ambiguous_trait", "sim.sweep.near.trait"),
            lambda key: ruleset.sweep_trait_name(start.state, key),
            ruleset=ruleset.name,
        )
        values = parse_values(right, spec, whole=True)
        return SweepSpec(
            spec,
            left,
            "trait",
            values,
            combatant=who,
            trait=trait,
            combatant_name=next(name for fid, _, name in fighters if fid == who),
            trait_name=ruleset.sweep_trait_name(start.state, trait),
        )
    options = ruleset.sweep_options(start.state)
    if not options:
        raise ConteurError("sim.sweep.no_options", ruleset=ruleset.name, name=left)
    option = match_name(
        tail.strip() if dot else left,
        options,
        ("sim.sweep.unknown_option", "sim.sweep.ambiguous_option", "sim.sweep.near.option"),
        ruleset=ruleset.name,
    )
    return SweepSpec(spec, left, "option", parse_values(right, spec, whole=False), option=option)


# ------------------------------------------------------------------ the scenarios


def formation(
    original: tuple[float, float],
    side: Sequence[tuple[float, float]],
    enemies: Sequence[tuple[float, float]],
    count: int,
) -> list[tuple[float, float]]:
    """Where ``count`` copies of a fighter at ``original`` stand: in its side's line, across
    the direction from the side's centre to the enemies' (along x when they coincide),
    ``SPACING`` metres apart, alternately on its left and right, at the nearest places no
    one of the side (``side``, or a copy already placed) stands on."""
    cx, cy = _centre(side or [original])
    ex, ey = _centre(enemies) if enemies else (cx + 1.0, cy)
    dx, dy = ex - cx, ey - cy
    norm = math.hypot(dx, dy)
    ux, uy = (dx / norm, dy / norm) if norm > 1e-9 else (1.0, 0.0)
    across = (-uy, ux)
    taken = list(side)
    placed: list[tuple[float, float]] = []
    step = 1
    while len(placed) < count:
        for sign in (1, -1):
            spot = (
                original[0] + sign * step * SPACING * across[0],
                original[1] + sign * step * SPACING * across[1],
            )
            if len(placed) < count and all(math.dist(spot, o) >= SPACING / 2 for o in taken):
                placed.append(spot)
                taken.append(spot)
        step += 1
    return placed


def _centre(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def scenario_at(
    spec: SweepSpec, data: Mapping[str, Any], start: Encounter, value: Any, base_dir: Path | None
) -> dict[str, Any]:
    """The scenario ``data`` with the swept value set to ``value``."""
    ruleset = start.ruleset
    if spec.kind == "option":
        assert spec.option is not None
        return ruleset.with_option(data, spec.option, value)
    entries = list(data.get("combatants") or [])
    fighters = get_referee(ruleset.name).fighters(start.state)
    ids = [fid for fid, _, _ in fighters]
    if len(ids) != len(entries):
        raise ConteurError("sim.sweep.entries", entries=len(entries), fighters=len(ids))
    index = ids.index(str(spec.combatant))
    entry = entries[index]
    if spec.kind == "trait":
        assert spec.trait is not None
        entries[index] = ruleset.with_trait(start.state, entry, spec.trait, int(value), base_dir)
        return {**data, "combatants": entries}
    count = int(value)
    fid = ids[index]
    copy_ids = [f"{fid}-{n}" for n in range(2, count + 1)]
    for copy_id in copy_ids:
        if copy_id in ids:
            raise ConteurError("sim.sweep.id_taken", id=copy_id, spec=spec.text)
    spots: list[tuple[float, float] | None] = [None] * len(copy_ids)
    where = ruleset.positions(start.state)
    if fid in where and copy_ids:
        side = fighters[index][1]
        spots = list(
            formation(
                where[fid],
                [where[i] for i, s, _ in fighters if s == side and i in where],
                [where[i] for i, s, _ in fighters if s != side and i in where],
                len(copy_ids),
            )
        )
    copies = [
        ruleset.copy_combatant(entry, copy_id, n, spot)
        for n, (copy_id, spot) in enumerate(zip(copy_ids, spots, strict=True), start=2)
    ]
    kept = [entry] if count >= 1 else []
    entries[index : index + 1] = [*kept, *copies]
    return {**data, "combatants": entries}


# ------------------------------------------------------------------ the result


@dataclass
class SweepResult(RunReport):
    """What ``sweep`` found: one simulation per value of the spec."""

    spec: SweepSpec
    points: list[SimulationResult]
    workers: int = 1
    backend: str = "local"
    elapsed: float = 0.0

    @property
    def first(self) -> SimulationResult:
        return self.points[0]

    @property
    def sides(self) -> list[str]:
        return self.first.sides

    @property
    def runs(self) -> int:
        """Fights per value."""
        return self.first.runs

    def spread(self, point: SimulationResult) -> float:
        """How far from even ``point`` is: the best side's win rate less the worst one's."""
        rates = [point.win_rate(s) for s in self.sides]
        return max(rates) - min(rates)

    def closest(self) -> int:
        """The index of the value where the fight is closest to even (the first of equals)."""
        spreads = [self.spread(p) for p in self.points]
        return spreads.index(min(spreads))

    def leader(self, point: SimulationResult) -> str | None:
        """The side that wins most often at ``point`` (None when two share the best rate)."""
        rates = sorted(((point.win_rate(s), s) for s in self.sides), reverse=True)
        return rates[0][1] if rates[0][0] > rates[1][0] else None

    def leader_changes(self) -> list[tuple[int, int, str, str]]:
        """Where the favourite changes: ``(i, j, before, after)`` when the side winning most
        often at value ``i`` (``before``) is not the one at the next value with a favourite,
        value ``j`` (``after``)."""
        out = []
        last: tuple[int, str] | None = None
        for j, point in enumerate(self.points):
            now = self.leader(point)
            if now is None:
                continue
            if last is not None and last[1] != now:
                out.append((last[0], j, last[1], now))
            last = (j, now)
        return out

    def overlapping(self, point: SimulationResult) -> bool:
        """Whether the sides' 95 % intervals at ``point`` all overlap: the runs cannot say who
        is favoured there."""
        intervals = [point.win_interval(s) for s in self.sides]
        return max(lo for lo, _ in intervals) <= min(hi for _, hi in intervals)

    @property
    def fights_per_second(self) -> float:
        total = sum(p.runs for p in self.points)
        return total / self.elapsed if self.elapsed > 0 else 0.0

    def outcome_dict(self) -> dict[str, Any]:
        """The JSON-ready result without how it was run (equal for equal seeds)."""
        points = []
        for value, point in zip(self.spec.values, self.points, strict=True):
            points.append(
                {
                    "value": value,
                    "win_rate": {s: point.win_rate(s) for s in self.sides},
                    "ci95": {s: list(point.win_interval(s)) for s in self.sides},
                    "draw_rate": point.draw_rate(),
                    "spread": self.spread(point),
                    "result": point.outcome_dict(),
                }
            )
        best = self.closest()
        at = self.points[best]
        return {
            "scenario": self.first.scenario,
            "ruleset": self.first.ruleset,
            "runs": self.runs,
            "seed": self.first.seed,
            "max_turns": self.first.max_turns,
            "sweep": self.spec.to_dict(),
            "sides": list(self.sides),
            "points": points,
            "closest": {
                "index": best,
                "value": self.spec.values[best],
                "spread": self.spread(at),
                "win_rate": {s: at.win_rate(s) for s in self.sides},
                "overlap": self.overlapping(at),
            },
            "leader_changes": [
                {
                    "between": [self.spec.values[i], self.spec.values[j]],
                    "from": before,
                    "to": after,
                }
                for i, j, before, after in self.leader_changes()
            ],
        }


# ------------------------------------------------------------------ sweep


def sweep(
    scenario: Mapping[str, Any] | str | Path,
    spec: str,
    runs: int,
    *,
    planned: Callable[[int], None] | None = None,
    **options: Unpack[SimulateOptions],
) -> SweepResult:
    """Simulate ``scenario`` ``runs`` times for each value of the sweep ``spec`` (see the
    module's documentation); ``options`` are ``simulate``'s. Every value is checked before
    the first fight; ``planned`` is then called with the number of runs of all the values,
    and ``progress`` counts them."""
    simulation = Simulation.read(scenario, runs, options)
    folder = Path(simulation.base_dir) if simulation.base_dir else None
    start = Encounter.start(simulation.data, folder, keep_history=False)
    parsed = parse_sweep(spec, start)
    plans: list[Plan] = []
    for value in parsed.values:
        try:
            plans.append(
                simulation.plan(scenario_at(parsed, simulation.data, start, value, folder))
            )
        except ConteurError as error:
            raise ConteurError(
                "sim.sweep.at_value",
                label=parsed.axis(),
                value=value,
                reason=Msg(error.key, **error.params),
            ) from None
    if planned is not None:
        planned(runs * len(plans))
    points, elapsed = simulation.fight(plans)
    return SweepResult(
        parsed, points, workers=simulation.workers, backend=simulation.backend, elapsed=elapsed
    )


__all__ = [
    "SPACING",
    "SweepResult",
    "SweepSpec",
    "formation",
    "match_name",
    "parse_sweep",
    "parse_values",
    "scenario_at",
    "sweep",
]
