"""What readers show of a hunter fight: a roster row per fighter, the turn, who is due.

Health is the sheet's track of boxes (H-HLT-1: ``/`` bashing, ``X`` lethal, ``*``
aggravated); the status follows the fighter's fate and its track; the band is the
word of ``data/bands.yaml`` its wound penalty reaches. Resources: the Defense the
rules oppose now to a close attack (H-ATK-2, H-DODGE-1; 0 while it is given up), and
the rounds left in each firearm. Hunter sheets carry no Willpower (the ruleset reads
none), so there is no Willpower column. Conditions are words, naming who holds whom.
The kit (``engine.kit``) makes the row and the turn view of these answers.
"""

from __future__ import annotations

from conteur.engine.views import (
    Column,
    ConditionView,
    HealthView,
    Resource,
    Status,
    ordered_conditions,
    status_of,
)
from conteur.i18n import Bilingual, Msg

from . import turn
from .attack import defense_of
from .health import MARKS, band_of
from .state import Fighter, HunterState

DEFENSE = Column(key="defense", label=Msg("hunter.res.defense"))
COLUMNS = (DEFENSE,)

OUT_FATES = frozenset({"unconscious", "incapacitated"})
DEAD_FATES = frozenset({"dead"})

CONDITIONS = (
    "surprised",
    "holding",
    "held_by",
    "immobilised",
    "prone",
    "shield",
    "dodging",
    "all_out",
    "aiming",
    "no_defense",
    "reloading",
    "delay",
    "cover",
)
"""Every condition a row may name, in the order it names them (``hunter.cond.<key>``)."""


def health(state: HunterState, f: Fighter) -> HealthView:
    """The track's boxes with their marks (H-HLT-1)."""
    return HealthView.boxes(tuple(MARKS[b].strip() for b in f.health.boxes))


def status(state: HunterState, f: Fighter) -> Status:
    """Dead, out of the fight (unconscious, bleeding out), wounded (a box marked) or unhurt."""
    return status_of(
        dead=f.fate in DEAD_FATES,
        out=f.fate in OUT_FATES,
        hurt=bool(f.health.filled),
    )


def defense(state: HunterState, f: Fighter) -> int:
    """The Defense the rules oppose to a close attack on ``f`` now (H-ATK-2, H-DODGE-1)."""
    return defense_of(state, f, "melee", f, False)[0]


def band(state: HunterState, f: Fighter) -> str:
    """The word of ``data/bands.yaml`` its wound penalty reaches, or its fate's."""
    return band_of(f.health.boxes, f.fate)


def penalty(state: HunterState, f: Fighter) -> int:
    """The track's wound penalty now."""
    return f.health.penalty


def resources(state: HunterState, f: Fighter) -> tuple[Resource, ...]:
    """Defense, then the rounds left in each firearm carried."""
    out = [DEFENSE.resource(defense(state, f))]
    for wid, rounds in sorted(f.ammo.items()):
        w = state.tables.weapon(wid)
        out.append(
            Resource(
                key=f"ammo.{wid}",
                label=Msg("hunter.res.ammo", weapon=Bilingual(w.fr, w.en)),
                value=rounds,
                maximum=max(w.clip, rounds),
            )
        )
    return tuple(out)


def conditions(state: HunterState, f: Fighter) -> tuple[ConditionView, ...]:
    """Each condition in words (``hunter.cond.<key>``), naming the other fighter it involves."""
    found: dict[str, tuple[Msg, str | None]] = {}
    if f.surprised:
        found["surprised"] = (Msg("hunter.cond.surprised"), None)
    if f.holding:
        found["holding"] = (Msg("hunter.cond.holding"), f.holding)
    if f.held_by and not f.immobilised:
        found["held_by"] = (Msg("hunter.cond.held_by"), f.held_by)
    if f.immobilised:
        found["immobilised"] = (Msg("hunter.cond.immobilised"), f.held_by)
    if f.prone:
        found["prone"] = (Msg("hunter.cond.prone"), None)
    if f.shield:
        found["shield"] = (Msg("hunter.cond.shield"), f.shield)
    if f.dodging:
        found["dodging"] = (Msg("hunter.cond.dodging"), None)
    if f.all_out:
        found["all_out"] = (Msg("hunter.cond.all_out"), None)
    if f.aim:
        found["aiming"] = (Msg("hunter.cond.aiming", aim=f.aim), f.aim_target)
    if f.no_defense:
        found["no_defense"] = (Msg("hunter.cond.no_defense"), None)
    if f.reloading:
        found["reloading"] = (Msg("hunter.cond.reloading", turns=f.reloading), None)
    if f.delay_after:
        found["delay"] = (Msg("hunter.cond.delay"), f.delay_after)
    if f.cover != "none":
        found["cover"] = (Msg("hunter.cond.cover", cover=Msg(f"hunter.word.{f.cover}")), None)
    return ordered_conditions(found, CONDITIONS)


def due(state: HunterState) -> tuple[str, ...]:
    """Who acts now (H-INI-1, H-DEL-1)."""
    now = turn.due(state)
    return (now,) if now else ()


def order(state: HunterState) -> list[tuple[tuple[str], int | None]]:
    """The ranking with each fighter's initiative total (one fighter a rank: ties are
    rolled off, H-INI-2)."""
    return [((fid,), state.fighters[fid].initiative) for fid in state.ranking]


def over(state: HunterState) -> bool:
    """Whether the fight has ended."""
    return state.phase == "over"
