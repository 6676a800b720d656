"""What readers show of a western fight: a roster row per fighter, the round, who shoots next.

Health is points (PV, out of the fighter's maximum); the status is unhurt only with
every PV, out of the fight when the fighter is out or unconscious (W-KO-4), dead at the
table's ``dead_at``; the band is the word of ``data/bands.yaml`` its share of PV left
reaches. Resources: RÉPUTATION, and the cartridges left in each hand's weapon.
Conditions are words (unconscious for so many rounds, helpless, surprised, shooting
instinctively, behind someone...). The turn is the round's order of combat: one rank per
shot or blow still to come, highest first (W-SPD-2), its total the shot's rank (the
shooter's speed less ``order.delay`` for each shot it fired before in the round).
The kit (``engine.kit``) makes the row and the turn view of these answers.
"""

from __future__ import annotations

from collections.abc import Mapping

from conteur.engine.views import (
    Column,
    ConditionView,
    HealthView,
    Resource,
    Rungs,
    Status,
    band_ladder,
    ordered_conditions,
    status_of,
)
from conteur.i18n import Bilingual, Msg

from .state import Fighter, WesternState

REPUTATION = Column(key="reputation", label=Msg("western.res.reputation"))
COLUMNS = (REPUTATION,)

OUT_FATES = frozenset({"out", "unconscious"})

CONDITIONS = ("unconscious", "helpless", "surprised", "instinctive", "holstered", "behind")
"""Every condition a row may name, in the order it names them (``western.cond.<key>``)."""


def ladder() -> tuple[Rungs, Mapping[str, str]]:
    """The bands of ``data/bands.yaml``: (percent of PV left above which, band), band by fate."""
    return band_ladder("conteur.rulesets.western", "above")


def health(state: WesternState, f: Fighter) -> HealthView:
    """PV out of the fighter's maximum."""
    return HealthView.of_points(f.pv, f.pv_max, "western.unit.pv")


def status(state: WesternState, f: Fighter) -> Status:
    """Dead, out (0 PV or less, or unconscious), unhurt with every PV, else wounded."""
    return status_of(dead=f.fate == "dead", out=f.fate in OUT_FATES, hurt=f.pv < f.pv_max)


def band(state: WesternState, f: Fighter) -> str:
    """The catalogue key of the word players read for this fighter's PV and fate."""
    rungs, fates = ladder()
    if f.fate in fates:
        return f"western.band.{fates[f.fate]}"
    if f.pv >= f.pv_max:
        return "band.unhurt"
    left = 100 * f.pv / f.pv_max if f.pv_max > 0 else 0
    for above, name in rungs:
        if left > above:
            return f"western.band.{name}"
    return "band.wounded"


def _weapon(state: WesternState, wid: str) -> Bilingual:
    w = state.tables.weapon(wid)
    return Bilingual(w.fr, w.en)


def penalty(state: WesternState, f: Fighter) -> int:
    """The roster shows no wound penalty for a western fighter (0)."""
    return 0


def resources(state: WesternState, f: Fighter) -> tuple[Resource, ...]:
    """RÉPUTATION, then the cartridges left in the main hand's and the off hand's weapon."""
    out = [REPUTATION.resource(f.reputation)]
    for hand in ("main", "off"):
        if hand not in f.ammo:
            continue
        wid = f.off_hand if hand == "off" else f.weapons[0]
        assert wid is not None
        capacity = state.tables.weapon(wid).capacity
        out.append(
            Resource(
                key=f"ammo.{hand}",
                label=Msg("western.res.ammo", hand=Msg(f"word.{hand}"), weapon=_weapon(state, wid)),
                value=f.ammo[hand],
                maximum=max(capacity, f.ammo[hand]) if capacity is not None else None,
            )
        )
    return tuple(out)


def surprised_now(state: WesternState, f: Fighter) -> bool:
    """Whether the fighter's surprise is that of the round under way, or of the next one
    between rounds."""
    upcoming = state.turn if state.phase == "round" else state.turn + 1
    return f.surprised is not None and f.surprised_round == upcoming


def conditions(state: WesternState, f: Fighter) -> tuple[ConditionView, ...]:
    """Each condition in words (``western.cond.<key>``), naming the other fighter it involves."""
    found: dict[str, tuple[Msg, str | None]] = {}
    if f.fate == "unconscious":
        found["unconscious"] = (Msg("western.cond.unconscious", rounds=f.unconscious), None)
    if f.helpless:
        found["helpless"] = (Msg("western.cond.helpless"), None)
    if surprised_now(state, f):
        found["surprised"] = (Msg("western.cond.surprised", kind=Msg(f"word.{f.surprised}")), None)
    if f.instinctive_round == state.turn and state.phase == "round":
        found["instinctive"] = (Msg("western.cond.instinctive"), None)
    if not f.ready and f.standing:
        found["holstered"] = (Msg("western.cond.holstered"), None)
    if f.behind:
        found["behind"] = (Msg("western.cond.behind"), f.behind)
    return ordered_conditions(found, CONDITIONS)


def shot_ranks(state: WesternState) -> list[int]:
    """The rank of each shot of the round's order (W-SPD-2, ``order.delay``): the shooter's
    combat speed less the delay for every shot it fires before that one this round."""
    delay = state.tables.order.delay
    fired: dict[str, int] = {}
    ranks = []
    for fid, _ in state.slots:
        k = fired.get(fid, 0)
        fired[fid] = k + 1
        ranks.append(state.fighters[fid].speed - k * delay)
    return ranks


def due(state: WesternState) -> tuple[str, ...]:
    """Whose shot or blow comes now (W-SPD-2)."""
    now = state.due()
    return (now[0],) if now is not None else ()


def order(state: WesternState) -> list[tuple[tuple[str], int]]:
    """The shots still to come in the round, one rank each with its total (``shot_ranks``)."""
    ranks = shot_ranks(state)
    return [((fid,), ranks[i]) for i, (fid, _) in enumerate(state.slots) if i >= state.done]


def over(state: WesternState) -> bool:
    """Whether the duel is judged (W-REP-1)."""
    return state.duel_judged
