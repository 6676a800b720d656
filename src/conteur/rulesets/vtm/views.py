"""What readers show of a vtm fight: a roster row per fighter, the turn, who is due.

Health is the sheet's track of boxes (V-DMG-3); the status follows the fighter's
fate and its track; Willpower for everyone, blood for vampires; ammunition per
weapon; conditions in words, naming who holds whom.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conteur.engine.views import (
    Column,
    ConditionView,
    HealthView,
    OrderSlot,
    Resource,
    Roster,
    RosterRow,
    Status,
    TurnView,
)
from conteur.i18n import Bilingual, Msg, catalog

from . import equipment
from .health import MARK
from .state import Fighter, VtmState

COLUMNS = (
    Column(key="willpower", label=Msg("vtm.res.willpower")),
    Column(key="blood", label=Msg("vtm.res.blood")),
)

OUT_FATES = frozenset({"incapacitated", "torpor"})
DEAD_FATES = frozenset({"dead", "final_death"})

HIDDEN_CONDITIONS = frozenset({"aim", "off_balance_turn", "set_up"})
"""Bookkeeping kept in ``conditions`` that is no condition a reader would name."""


def status(f: Fighter) -> Status:
    """Unhurt, wounded, out of the fight (incapacitated, torpor, unconscious) or dead."""
    if f.fate in DEAD_FATES:
        return "dead"
    if f.fate in OUT_FATES or f.conditions.get("unconscious"):
        return "out"
    return "wounded" if f.health.filled else "unhurt"


def band(f: Fighter) -> str:
    """The word players read: the health level reached, or the status."""
    s = status(f)
    if s != "wounded" or f.health.level is None:
        return f"band.{s}"
    return (
        f"word.{f.health.level.key}"
        if f"word.{f.health.level.key}" in catalog()
        else "band.wounded"
    )


def resources(state: VtmState, f: Fighter) -> tuple[Resource, ...]:
    """Willpower, blood (vampires) and the rounds left in each weapon."""
    out = [
        Resource(
            key="willpower", label=COLUMNS[0].label, value=f.willpower, maximum=f.sheet.willpower
        )
    ]
    if f.kind == "vampire":
        out.append(Resource(key="blood", label=COLUMNS[1].label, value=f.blood))
    for weapon, rounds in sorted(f.ammo.items()):
        out.append(
            Resource(
                key=f"ammo.{weapon}",
                label=Msg("vtm.res.ammo", weapon=_weapon(state, weapon)),
                value=rounds,
            )
        )
    return tuple(out)


def _weapon(state: VtmState, ref: str) -> Bilingual:
    try:
        w = equipment.weapon(state, ref)
    except Exception:  # a weapon outside the tables keeps its id
        return Bilingual(ref, ref)
    return Bilingual(w.label("fr"), w.label("en"))


def _other(value: Any, fighters: Mapping[str, Fighter]) -> str | None:
    """The combatant a condition's value names (``{"holder": "bob"}``, ``"bob"``), if any."""
    if isinstance(value, Mapping):
        for key in ("holder", "target", "fighter", "by"):
            if isinstance(value.get(key), str) and value[key] in fighters:
                return str(value[key])
        return None
    return value if isinstance(value, str) and value in fighters else None


def conditions(state: VtmState, f: Fighter) -> tuple[ConditionView, ...]:
    """Each condition in words (``vtm.cond.<key>`` when it names someone, else ``word.<key>``)."""
    out = []
    known = catalog()
    for key, value in sorted(f.conditions.items()):
        if value in (None, False) or key in HIDDEN_CONDITIONS:
            continue
        other = _other(value, state.fighters)
        own = f"vtm.cond.{key}"
        label = own if own in known else f"word.{key}"
        out.append(ConditionView(key=key, label=Msg(label), other=other))
    return tuple(out)


def row(state: VtmState, f: Fighter) -> RosterRow:
    """One fighter as the roster shows it."""
    return RosterRow(
        id=f.id,
        name=f.name,
        side=f.side,
        health=HealthView.boxes(tuple(MARK[b] if b else "" for b in f.health.boxes)),
        status=status(f),
        band=band(f),
        penalty=f.penalty,
        resources=resources(state, f),
        conditions=conditions(state, f),
        fate=f.fate,
    )


def roster(state: VtmState) -> Roster:
    """Every fighter, in the scenario's order."""
    return Roster(columns=COLUMNS, rows=tuple(row(state, f) for f in state.fighters.values()))


def turn_view(state: VtmState, due: tuple[str, ...]) -> TurnView:
    """The turn, its stage, who is due, the ranks of initiative with their totals."""
    order = tuple(OrderSlot(ids=tuple(rank), total=_total(state, rank)) for rank in state.order)
    return TurnView(
        turn=state.turn, phase=str(state.phase), due=due, order=order, over=state.phase == "over"
    )


def _total(state: VtmState, rank: list[str]) -> int | None:
    for fid in rank:
        ini = state.fighters[fid].initiative
        if ini is not None:
            return int(ini[0])
    return None
