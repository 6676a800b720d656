"""Events of the defence part of the ruleset: simultaneous ranks, barred defences, GM overrides.

Log text: ``ev.<EventType>`` in ``messages-defence.yaml`` (French and English).
"""

from __future__ import annotations

from typing import Any

from conteur.engine.events import Event
from conteur.i18n import Lang, Msg, catalog, t

from .events import shown_value
from .health import HealthTrack
from .rulebook import rules_of
from .state import VtmState


class SimultaneousRank(Event):
    """Tied fighters act simultaneously (V-INI-2, reading).

    Each member keeps the wound penalty it had when the rank started, and
    keeps its action even if another member's blow incapacitates or dazes it:
    every action of the rank is resolved against the state before any of
    them, then all results stand. The freeze ends with the rank (RankPassed).
    """

    cursor: int
    fighters: tuple[str, ...]
    penalties: tuple[int, ...]

    def apply(self, state: VtmState) -> None:
        for fid, penalty in zip(self.fighters, self.penalties, strict=True):
            state.fighters[fid].progress.frozen_penalty = penalty

    def params(self, names: Any = None) -> dict[str, Any]:
        shown = [names.get(f, f) if names else f for f in self.fighters]
        return {"cursor": self.cursor, "fighters": ", ".join(shown)}


class DefenceBarred(Event):
    """The ready defence cannot oppose this attack; it stays ready for another (V-DEF-3..6)."""

    defender: str
    kind: str
    attacker: str


class Words:
    """Words shown in the reader's language (``word.<value>`` when the catalog has it)."""

    def __init__(self, words: tuple[str, ...]) -> None:
        self.words = words

    def describe(self, lang: Lang | None = None) -> str:
        shown = [t(f"word.{w}", lang) if f"word.{w}" in catalog() else w for w in self.words]
        return " ".join(shown) or "—"


class Items:
    """``name: value`` pairs in the reader's language (a weapon's or condition's name)."""

    def __init__(self, items: tuple[tuple[str, Any], ...]) -> None:
        self.items = items

    def describe(self, lang: Lang | None = None) -> str:
        shown = (
            t(
                "vtm.gm.override_item",
                lang,
                name=Msg(f"word.{k}") if f"word.{k}" in catalog() else k,
                value=v,
            )
            for k, v in self.items
        )
        return ", ".join(shown) or "—"


OVERRIDE_FIELDS = ("health", "willpower", "blood", "ammo", "conditions")


class GmOverride(Event):
    """The game master sets a fighter's health, Willpower, blood, ammunition or conditions."""

    fighter: str
    field: str
    value: Any
    reason: str = ""

    def apply(self, state: VtmState) -> None:
        f = state.fighters[self.fighter]
        if self.field == "health":
            f.health = HealthTrack.from_marks(list(self.value), f.health.levels)
        elif self.field == "willpower":
            f.willpower = int(self.value)
        elif self.field == "blood":
            f.blood = int(self.value)
        elif self.field == "ammo":
            f.ammo.update({str(k): int(v) for k, v in dict(self.value).items()})
        elif self.field == "conditions":
            values = ((str(name), value) for name, value in dict(self.value).items())
            f.conditions.update(values, rules_of(state).conditions)

    def params(self, names: Any = None) -> dict[str, Any]:
        out = super().params(names)
        out["field"] = Msg(f"vtm.gm.what.{self.field}")
        value = self.value
        if isinstance(value, dict):
            value = Items(tuple((str(k), shown_value(v, names)) for k, v in value.items()))
        elif isinstance(value, list | tuple):
            value = Words(tuple(str(v) for v in value))
        out["value"] = value
        out["reason"] = self.reason or "—"
        return out

    veil = "ev.GmOverride.veiled"
    """« Le Conteur change la santé de Bill »: what changed, not to what, nor why."""
