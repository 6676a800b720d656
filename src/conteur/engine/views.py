"""Typed views of an encounter, built by its ruleset, read by the tracker, CLI and simulator.

A view says what a reader may show — a combatant's health as boxes or as points,
the status the ruleset decides, the resources it declares with their labels, the
conditions naming who holds whom, the turn and who is due — so that no reader
parses a ruleset's text or probes its state for attributes.

Labels are catalogue keys (``Msg``), rendered in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from conteur.i18n import Lang, Msg, t

from .joining import WITHDRAWN

Status = Literal["unhurt", "wounded", "out", "dead"]
"""How a combatant stands, as the ruleset decides it: the tracker never guesses it."""

STATUSES: tuple[Status, ...] = ("unhurt", "wounded", "out", "dead")


def status_of(*, dead: bool, out: bool, hurt: bool) -> Status:
    """Dead, else out of the fight, else wounded when hurt, else unhurt (what the ruleset
    reads for each: its fates, its track or its points)."""
    if dead:
        return "dead"
    if out:
        return "out"
    return "wounded" if hurt else "unhurt"


def shown_fate(fate: str, withdrawn: bool) -> str:
    """The fate a reader sees: ``withdrawn`` (``word.withdrawn``) for a combatant taken out
    of the fight while alive, else the ruleset's own word for where it stands."""
    return WITHDRAWN if withdrawn and fate == "alive" else fate


@dataclass(frozen=True, kw_only=True)
class HealthView:
    """Health as the sheet shows it: a track of boxes with marks, or points.

    ``marks``: one per box, ``""`` for an empty box, else the mark the ruleset
    writes in it (``/``, ``X``, ``*``...). ``points``/``maximum``: health as a
    number, with ``unit`` the catalogue key of its unit (« PV »).
    """

    kind: Literal["boxes", "points"]
    marks: tuple[str, ...] = ()
    points: int = 0
    maximum: int = 0
    unit: str = ""

    @classmethod
    def boxes(cls, marks: tuple[str, ...]) -> HealthView:
        """A track of boxes (``""`` = empty)."""
        return cls(kind="boxes", marks=marks)

    @classmethod
    def of_points(cls, points: int, maximum: int, unit: str) -> HealthView:
        """Health as points out of a maximum, ``unit`` a catalogue key."""
        return cls(kind="points", points=points, maximum=maximum, unit=unit)

    def text(self, lang: Lang | None = None) -> str:
        """``[/][X][ ]`` for boxes, ``12/17 PV`` for points."""
        if self.kind == "boxes":
            return "".join(f"[{m or ' '}]" for m in self.marks)
        unit = f" {t(self.unit, lang)}" if self.unit else ""
        return f"{self.points}/{self.maximum}{unit}"


@dataclass(frozen=True, kw_only=True)
class Resource:
    """A number the ruleset tracks for a combatant (Willpower, blood, Defense, reputation...)."""

    key: str
    """A stable id (``willpower``): what a test, a column or a JSON reader matches."""
    label: Msg
    value: int
    maximum: int | None = None

    def text(self, lang: Lang | None = None) -> str:
        """``4/5`` or ``9``."""
        return f"{self.value}/{self.maximum}" if self.maximum is not None else str(self.value)


@dataclass(frozen=True, kw_only=True)
class ConditionView:
    """A condition on a combatant, as words: ``label`` may name another combatant (``other``)."""

    key: str
    """A stable id (``grappled``)."""
    label: Msg
    other: str | None = None
    """The combatant it names (who holds whom), when there is one."""

    def text(self, lang: Lang | None = None, names: Mapping[str, str] | None = None) -> str:
        """The condition in words; the label's ``{other}`` is the other combatant's name."""
        other = (names or {}).get(self.other, self.other) if self.other else ""
        return t(self.label.key, lang, **self.label.params, other=other)


def ordered_conditions(
    found: Mapping[str, tuple[Msg, str | None]], order: Sequence[str]
) -> tuple[ConditionView, ...]:
    """The conditions ``found`` (key → its words and the other combatant it names), in the
    ruleset's ``order`` of keys (a key outside it is not shown)."""
    return tuple(
        ConditionView(key=key, label=found[key][0], other=found[key][1])
        for key in order
        if key in found
    )


@dataclass(frozen=True, kw_only=True)
class RosterRow:
    """One combatant as the roster shows it."""

    id: str
    name: str
    side: str
    health: HealthView
    status: Status
    band: str
    """The catalogue key of the word players read for this health (« égratigné »...)."""
    penalty: int = 0
    """The wound penalty on its dice pools now (0 or negative)."""
    resources: tuple[Resource, ...] = ()
    conditions: tuple[ConditionView, ...] = ()
    fate: str = "alive"
    """The ruleset's word for where it stands (``alive``, ``incapacitated``...): ``word.<fate>``."""

    def resource(self, key: str) -> Resource | None:
        """The resource called ``key``, if the ruleset declares it for this combatant."""
        return next((r for r in self.resources if r.key == key), None)


@dataclass(frozen=True, kw_only=True)
class Column:
    """A resource column of the roster: its key and its label (each ruleset has its own)."""

    key: str
    label: Msg

    def resource(self, value: int, maximum: int | None = None) -> Resource:
        """A combatant's number in this column, under the column's key and label."""
        return Resource(key=self.key, label=self.label, value=value, maximum=maximum)


@dataclass(frozen=True, kw_only=True)
class OrderSlot:
    """One rank of the turn order: who acts there (ties share a rank) and their total."""

    ids: tuple[str, ...]
    total: int | None = None


@dataclass(frozen=True, kw_only=True)
class TurnView:
    """Where the fight is: the turn, the phase, who is due, the order with its totals."""

    turn: int
    phase: str
    """The phase id; its label is the catalogue's ``phase.<phase>``."""
    due: tuple[str, ...] = ()
    order: tuple[OrderSlot, ...] = ()
    over: bool = False


@dataclass(frozen=True, kw_only=True)
class Roster:
    """The whole roster: its columns and a row per combatant, in the scenario's order."""

    columns: tuple[Column, ...]
    rows: tuple[RosterRow, ...] = field(default_factory=tuple)

    def row(self, fighter: str) -> RosterRow:
        """The row of ``fighter`` (KeyError when there is none)."""
        for r in self.rows:
            if r.id == fighter:
                return r
        raise KeyError(fighter)


Rungs = tuple[tuple[int, str], ...]
"""A ladder of bands: (threshold, band) pairs, in the order the ruleset reads them."""


@cache
def band_ladder(package: str, threshold: str) -> tuple[Rungs, Mapping[str, str]]:
    """A ruleset's words for how hurt a combatant is, from its package's ``data/bands.yaml``:
    the ``wounded`` rungs as (the rung's ``threshold`` number, band), in the file's order,
    and the band each fate reads as (``fates``)."""
    from importlib import resources

    import yaml

    ref = resources.files(package).joinpath("data/bands.yaml")
    data: dict[str, Any] = yaml.safe_load(ref.read_text(encoding="utf-8"))
    rungs = tuple((int(r[threshold]), str(r["band"])) for r in data["wounded"])
    fates = {str(k): str(v) for k, v in data["fates"].items()}
    return rungs, fates


__all__ = [
    "STATUSES",
    "Column",
    "ConditionView",
    "HealthView",
    "OrderSlot",
    "Resource",
    "Roster",
    "RosterRow",
    "Rungs",
    "Status",
    "TurnView",
    "band_ladder",
    "ordered_conditions",
    "shown_fate",
    "status_of",
]
