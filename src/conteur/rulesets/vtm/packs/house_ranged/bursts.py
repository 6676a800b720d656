"""Short and long bursts (R-BURST-1, R-BURST-2): one roll, its successes split among targets.

Readings: a short burst fires 3 rounds from a semi-automatic weapon and 5
from an automatic one; a long burst fires 10 (it needs them in the clip).
The roll is drafted against the hardest of the targets named (highest
difficulty, then fewest dice); the shooter splits the successes with
``targets`` (in order) and ``leftovers`` as for vtm's spray: evenly, the
rest where the shooter says. Each target given at least one success takes
the weapon's damage plus one die per success of its share past the first,
after its own dodge. ``split`` (target ids) splits freely: one success to
each id in turn, the list repeated (``[b, b, c]``: two to b for one to c).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from conteur.engine import Resolution
from conteur.i18n import ConteurError

from ... import equipment
from ...actions import check_attack
from ...attack import draft_attack
from ...events import AmmoChanged
from ...hooks import AttackDraft, action, reads_effect, validator, volley_odds
from ...ranged import (
    check_rounds,
    leftover_order,
    roll_volley,
    rounds_of,
    share_out,
    strike_shares,
    tracks_ammo,
)
from ...state import Action, Fighter, VtmState
from ...tables import Labels, Maneuver, Weapon
from .common import firearm, named_targets, weapon_allows
from .config import pack_data
from .events import BurstShared

BURSTS = ("short_burst", "long_burst")


@reads_effect("rounds")
def burst_rounds(m: Maneuver, w: Weapon) -> int:
    """The maneuver's ``rounds`` (R-BURST-2: 10); a short burst's by the weapon's cadence
    (``short_burst_rounds``, R-BURST-1: 3 semi-automatic, 5 automatic), else its own (3)."""
    effect = m.effect("rounds")
    own = int(effect.value or 0) if effect is not None else 1  # one round a shot
    if m.id == "short_burst":
        return pack_data().short_burst_rounds.get(w.fire_cadence, own)
    return own


def max_targets(m: Maneuver) -> int:
    data = pack_data()
    return data.short_burst_targets if m.id == "short_burst" else data.long_burst_targets


@validator(*BURSTS)
def check_burst(state: VtmState, f: Fighter, a: Action) -> None:
    """The weapon's cadence (semi-automatic or automatic; automatic for a long burst) and
    the number of targets (1–3, 1–10)."""
    m = equipment.maneuver(state, a.kind)
    ids = named_targets(state, f, a, m.rule)
    check_attack(state, f, replace(a, target=ids[0]), m)
    w = firearm(state, f, a, m.rule)
    if not weapon_allows(m.id, w):
        raise ConteurError(
            "house_ranged.cadence", rule=m.rule, weapon=Labels([w]), maneuver=Labels([m])
        )
    if len(ids) > max_targets(m):
        raise ConteurError(
            "house_ranged.too_many_targets", rule=m.rule, count=len(ids), limit=max_targets(m)
        )
    for fid in (*leftover_order(a), *split_order(a)):
        if fid not in ids:
            raise ConteurError("vtm.spray.leftover", rule=m.rule, name=fid)


def split_order(a: Action) -> list[str]:
    """The shooter's split (``split``): target ids, one success each in turn, repeated."""
    raw = a.param("split") or []
    if isinstance(raw, str):
        raw = [t.strip() for t in raw.split(",") if t.strip()]
    return [str(t) for t in raw]


def split_successes(successes: int, ids: list[str], a: Action) -> dict[str, int]:
    """R-BURST-1/2: the successes split freely: by ``split`` when given, else evenly (the
    rest to ``leftovers``, then in the order named, as vtm's spray)."""
    order = split_order(a)
    if not order:
        return share_out(successes, ids, leftover_order(a))
    shares = dict.fromkeys(ids, 0)
    for i in range(successes):
        shares[order[i % len(order)]] += 1
    return shares


def spend_burst(ctx: Resolution, f: Fighter, m: Maneuver, w: Weapon) -> None:
    """The burst's rounds leave the clip; a clip too light refuses the burst."""
    if not tracks_ammo(w):
        return
    left, needed = rounds_of(f, w), burst_rounds(m, w)
    check_rounds(f, m, w, left, needed)
    ctx.emit(AmmoChanged(fighter=f.id, weapon=w.id, rounds=left - needed, rules=(m.rule,)))


@action(*BURSTS)
def burst(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """R-BURST-1/2: one roll at +3 (+10) dice and +1 (+2) difficulty, split among the targets."""
    state: VtmState = ctx.state
    m = equipment.maneuver(state, a.kind)
    ids = named_targets(state, f, a, m.rule)
    a = replace(a, target=ids[0])
    targets = [state.fighters[fid] for fid in ids]
    for t in targets:
        equipment.check_reach(state, f, t, a)
    spend_burst(ctx, f, m, firearm(state, f, a, m.rule))
    drafts = [draft_attack(state, f, t, a, penalty) for t in targets]
    hardest = max(drafts, key=lambda d: (d.difficulty, -d.pool))
    successes = roll_volley(ctx, hardest, m, willpower)
    if successes <= 0:
        strike_shares(ctx, drafts, {}, "V-ATK-5")
        return
    shares = split_successes(successes, ids, a)
    ctx.emit(
        BurstShared(
            attacker=f.id, successes=successes, shares=tuple(shares.items()), rules=(m.rule,)
        )
    )
    strike_shares(ctx, drafts, shares, m.rule)


@volley_odds(*BURSTS)
def burst_odds(d: AttackDraft) -> tuple[AttackDraft, Callable[[int], int]]:
    """R-BURST-1/2 in the odds: the one roll is drafted against the hardest target named
    (``target`` then ``targets``), and the target asked about gets its share of the split
    (``split``, else evenly with ``leftovers``)."""
    state, f, a = d.state, d.attacker, d.action
    ids = named_targets(state, f, a, equipment.maneuver(state, a.kind).rule)
    drafts = [
        d
        if fid == d.target.id
        else draft_attack(state, f, state.fighters[fid], a, d.multiple_penalty)
        for fid in ids
    ]
    hardest = max(drafts, key=lambda x: (x.difficulty, -x.pool))
    return hardest, lambda successes: split_successes(successes, ids, a).get(d.target.id, 0)
