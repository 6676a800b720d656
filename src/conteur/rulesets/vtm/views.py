"""What readers show of a vtm fight: a roster row per fighter, the turn, who is due.

Health is the sheet's track of boxes with its marks (``/`` bashing or lethal,
``X`` aggravated: V-DMG-3); the status follows the fighter's fate and its
track; the band is the word players read, a ladder over the health levels kept
as data (``data/bands.yaml``, ``bands.py``); the penalty is the wound penalty on
its pools now (V-DMG-5). Resources: Willpower out of the sheet's rating for
everyone, blood for vampires and for ghouls (``has_blood``), the rounds left in
each weapon out of what it holds. Conditions are words, each naming the other
fighter it involves (who holds whom, who aims at whom); bookkeeping the rules
keep among the conditions (a set-up remembered for a bite, a roll to get up
tried this turn) is no condition a reader names. The kit (``engine.kit``) makes the row
and the turn view of these answers.
"""

from __future__ import annotations

from typing import Any

from conteur.engine.views import (
    Column,
    ConditionView,
    HealthView,
    Resource,
    Status,
    status_of,
)
from conteur.i18n import Bilingual, Msg

from . import equipment
from .bands import ladder
from .condition_words import TIMED_SUFFIX, condition_label, condition_params, other_of
from .conditions import Unconscious
from .health import MARK
from .state import Fighter, VtmState
from .turn import next_timing

COLUMNS = (
    Column(key="willpower", label=Msg("vtm.res.willpower")),
    Column(key="blood", label=Msg("vtm.res.blood")),
)

OUT_FATES = frozenset({"incapacitated", "torpor"})
DEAD_FATES = frozenset({"dead", "final_death"})

BOOKKEEPING = frozenset({"set_up", "get_up_tried", "in_combat", "withdrawn"})
"""Conditions the rules keep that no reader names: the set-up a bite needs (V-CC-10), a
roll to get up already tried this turn (V-DMG-7), being in the fight after an ambush
(V-MAN-7), taken out of the fight (its fate says it). Each still has its words
(``vtm.cond.<key>``)."""


def health(state: VtmState, f: Fighter) -> HealthView:
    """The track's boxes with their marks (V-DMG-3)."""
    return HealthView.boxes(tuple(MARK[b] if b else "" for b in f.health.boxes))


def status(state: VtmState, f: Fighter) -> Status:
    """Unhurt, wounded, out of the fight (incapacitated, torpor, unconscious) or dead."""
    return status_of(
        dead=f.fate in DEAD_FATES,
        out=f.fate in OUT_FATES or bool(f.conditions.of(Unconscious)),
        hurt=bool(f.health.filled),
    )


def band(state: VtmState, f: Fighter) -> str:
    """The catalogue key of the word players read: the band of the health level reached,
    or of the fighter's fate (``vtm.band.<id>``, ``data/bands.yaml``)."""
    fate = "unconscious" if f.fate == "alive" and f.conditions.of(Unconscious) else f.fate
    level = f.health.level.key if f.health.level is not None else None
    return ladder().band_of(level, fate).key


def penalty(state: VtmState, f: Fighter) -> int:
    """The wound penalty on its pools now (V-DMG-5)."""
    return f.penalty


def resources(state: VtmState, f: Fighter) -> tuple[Resource, ...]:
    """Willpower (out of the sheet's rating), blood (vampires, and a sheet giving a blood
    pool), and the rounds left in each weapon (out of its clip and chamber)."""
    willpower, blood = COLUMNS
    out = [willpower.resource(f.willpower, f.sheet.willpower)]
    if has_blood(f):
        out.append(blood.resource(f.blood))
    for weapon, rounds in sorted(f.ammo.items()):
        label, capacity = _weapon(state, weapon)
        out.append(
            Resource(
                key=f"ammo.{weapon}",
                label=Msg("vtm.res.ammo", weapon=label),
                value=rounds,
                maximum=capacity,
            )
        )
    return tuple(out)


def has_blood(f: Fighter) -> bool:
    """Whether its blood is a resource: a vampire's; a ghoul's — a sheet that gives a blood
    pool, a scenario that gives its blood now, or a mortal with disciplines (fed by blood)."""
    if f.kind == "vampire" or "blood" in f.sheet.model_fields_set:
        return True
    return f.kind == "mortal" and (f.blood != f.sheet.blood or bool(f.sheet.disciplines))


def _weapon(state: VtmState, ref: str) -> tuple[Bilingual, int | None]:
    """A weapon's name in both languages and the rounds it holds (clip and chamber)."""
    try:
        w = equipment.weapon(state, ref)
    except Exception:  # a weapon outside the tables keeps its id
        return Bilingual(ref, ref), None
    capacity = int(w.clip) + int(w.chamber or 0) if w.clip else None
    return Bilingual(w.label("fr"), w.label("en")), capacity


def shown(state: VtmState, key: str, value: Any) -> bool:
    """Whether the roster names this condition now: set, no bookkeeping, and, for one that
    holds for some turns (running, off balance), still holding."""
    if value is None or value is False or key in BOOKKEEPING:
        return False
    timed = key.endswith(TIMED_SUFFIX) or key == "running"
    if timed and isinstance(value, int) and not isinstance(value, bool):
        return value >= state.turn
    return True


def conditions(state: VtmState, f: Fighter) -> tuple[ConditionView, ...]:
    """Each condition the roster names, in words; one without words keeps its id."""
    out = []
    for key, value in sorted(f.conditions.json().items()):
        if not shown(state, key, value):
            continue
        label = condition_label(key)
        msg = (
            Msg(label, **condition_params(key, value, lambda ref: _weapon(state, ref)[0]))
            if label
            else Msg("vtm.cond.raw", name=key)
        )
        out.append(ConditionView(key=key, label=msg, other=other_of(value, state.fighters)))
    return tuple(out)


def due(state: VtmState) -> tuple[str, ...]:
    """Who the fight waits for: the fighters to declare now (slowest rank first, V-INI-3), or
    those with an action due (their rank, the end of the turn, a delay past its rank)."""
    if state.phase == "declaration":
        if not state.order or not 0 <= state.cursor < len(state.order):
            return ()
        return tuple(
            fid
            for fid in state.order[state.cursor]
            if state.fighters[fid].progress.declaration is None
        )
    if state.phase in ("resolution", "end_of_turn"):
        return tuple(fid for fid in state.fighters if next_timing(state, fid) is not None)
    return ()


def order(state: VtmState) -> list[tuple[list[str], int | None]]:
    """The ranks of initiative (who shares each), each with its total."""
    return [(rank, _total(state, rank)) for rank in state.order]


def over(state: VtmState) -> bool:
    """Whether the fight has ended."""
    return state.phase == "over"


def _total(state: VtmState, rank: list[str]) -> int | None:
    for fid in rank:
        ini = state.fighters[fid].initiative
        if ini is not None:
            return int(ini[0])
    return None
