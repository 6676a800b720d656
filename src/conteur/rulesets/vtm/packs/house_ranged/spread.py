"""Shotgun spread (R-SPREAD-1..3): one roll, every target in the cone hit by its own damage.

Readings: the band is the distance to the target aimed at (``target``); the
game master names the others in the cone (``targets``), allies included,
and the engine checks them against the band: how many it may hit (1, 1–3,
all) and, from the positions, that no two are farther apart than the
cone's diameter. Each target in the cone takes a separate damage roll with
all the roll's successes (after its own dodge). At 41–80 m there is no base
damage: one success rolls no die at all (beating V-DMG-4's one-die
minimum). A sawed-off gun halves the distance limits, not the cones. The
bands reach 80 m (40 m sawed off) whatever the weapon's range.
"""

from __future__ import annotations

from dataclasses import replace

from conteur.engine import Resolution
from conteur.i18n import ConteurError

from ... import equipment
from ...actions import check_attack
from ...attack import draft_attack
from ...hooks import AttackDraft, action, difficulty_rule, own_reach, strike_rule, validator
from ...ranged import BASE_DIFFICULTY, roll_volley, spend_rounds, strike_shares
from ...state import Action, Fighter, VtmState
from ...strike import Strike
from ...tables import Labels, Weapon
from .common import firearm, named_targets, volley, weapon_allows
from .config import Band, metres, pack_data, spread_band, spread_reach
from .events import SpreadFired


def band_for(state: VtmState, f: Fighter, a: Action, w: Weapon) -> Band:
    """R-SPREAD-2/3: the band of the target aimed at, or the refusal past the last one."""
    assert a.target is not None
    dist = state.distance(f.id, a.target)
    band = spread_band(dist, w.sawed_off)
    if band is None:
        raise ConteurError(
            "vtm.attack.out_of_range",
            rule="R-SPREAD-3" if w.sawed_off else "R-SPREAD-2",
            target=state.fighters[a.target].name,
            metres=round(dist, 1),
            limit=spread_reach(w.sawed_off),
        )
    return band


@validator("shotgun_spread")
def check_spread(state: VtmState, f: Fighter, a: Action) -> None:
    """R-SPREAD-1: a smooth-bore gun loaded with shot or buckshot; R-SPREAD-2: the cone."""
    m = equipment.maneuver(state, a.kind)
    ids = named_targets(state, f, a, "R-SPREAD-2")
    a = replace(a, target=ids[0])
    check_attack(state, f, a, m)
    w = firearm(state, f, a, "R-SPREAD-1")
    if not weapon_allows("shotgun_spread", w):
        raise ConteurError("house_ranged.spread_weapon", rule="R-SPREAD-1", weapon=Labels([w]))
    check_cone(state, ids, band_for(state, f, a, w))


@own_reach("shotgun_spread")
def spread_reach_check(state: VtmState, f: Fighter, a: Action) -> None:
    """R-SPREAD-2/3 (reading): a spread reaches as far as its bands (80 m, 40 m sawed off),
    whatever the shotgun's own range: the text gives the 41–80 m band to every smooth-bore
    gun; the odds and the action check the same."""
    band_for(state, f, a, firearm(state, f, a, "R-SPREAD-1"))


def check_cone(state: VtmState, ids: list[str], band: Band) -> None:
    """R-SPREAD-2: the band's number of targets, and the cone's diameter between them."""
    limit = band.spec.max_targets
    if limit is not None and len(ids) > limit:
        raise ConteurError(
            "house_ranged.too_many_targets", rule="R-SPREAD-2", count=len(ids), limit=limit
        )
    cone = band.spec.cone
    if cone is None or len(ids) < 2:
        return
    widest = max(state.distance(x, y) for x in ids for y in ids if x < y)
    if widest > cone + 1e-9:
        raise ConteurError(
            "house_ranged.cone", rule="R-SPREAD-2", metres=round(widest, 1), cone=cone
        )


def spread_of(d: AttackDraft) -> Band | None:
    if equipment.maneuver_id(d.maneuver) != "shotgun_spread":
        return None
    if d.weapon is None or d.action.target is None:
        return None
    dist = d.state.distance(d.attacker.id, d.action.target)
    return spread_band(dist, bool(d.weapon.sawed_off))


@difficulty_rule
def spread_band_rule(d: AttackDraft) -> None:
    """R-SPREAD-2: the band's difficulty (replacing 6) and its damage dice."""
    band = spread_of(d)
    if band is None:
        return
    rule = "R-SPREAD-3" if d.weapon is not None and d.weapon.sawed_off else "R-SPREAD-2"
    d.add_difficulty(rule, "spread_band", band.spec.difficulty - BASE_DIFFICULTY)
    d.rules.append("R-SPREAD-2")
    if band.spec.base_damage:
        if band.spec.damage_dice:
            d.damage_dice += band.spec.damage_dice
            d.notes.append(("R-SPREAD-2", "damage", band.spec.damage_dice))
            d.damage_parts.append(("spread_band", band.spec.damage_dice))
    else:
        assert d.weapon is not None and d.weapon.damage.dice is not None
        d.damage_dice -= d.weapon.damage.dice
        d.flags["no_base_damage"] = True
        d.notes.append(("R-SPREAD-2", "no_base_damage", -d.weapon.damage.dice))
        d.damage_parts.append(("no_base_damage", -d.weapon.damage.dice))


@strike_rule
def spread_strike(d: AttackDraft, s: Strike) -> Strike:
    """R-SPREAD-1: armour counts double; R-SPREAD-2: no base damage, no minimum die."""
    if spread_of(d) is None:
        return s
    armour = equipment.armour_of(d.state, d.target)
    extra = 0
    if armour is not None and s.armour_rating and s.damage_type in ("bashing", "lethal"):
        extra = armour.rating * (pack_data().spread_armour_factor - 1)
    return replace(
        s,
        soak=s.soak + extra,
        min_one_die=not d.flags.get("no_base_damage"),
        rules=tuple(dict.fromkeys((*s.rules, "R-SPREAD-1"))),
    )


@action("shotgun_spread")
def spread(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """One roll at the band's difficulty; each target in the cone takes its own damage."""
    state: VtmState = ctx.state
    m, ids, a, w = volley(state, f, a, "R-SPREAD-2", "R-SPREAD-1")
    band = band_for(state, f, a, w)
    check_cone(state, ids, band)
    spend_rounds(ctx, f, m, w)
    targets = [state.fighters[fid] for fid in ids]
    dist = metres(state.distance(f.id, ids[0]))
    ctx.emit(
        SpreadFired(
            attacker=f.id,
            band=band.index,
            metres=dist,
            targets=tuple(ids),
            rules=("R-SPREAD-2", *(("R-SPREAD-3",) if w.sawed_off else ())),
        )
    )
    drafts = [draft_attack(state, f, t, a, penalty) for t in targets]
    successes = roll_volley(ctx, drafts[0], m, willpower)
    strike_shares(ctx, drafts, dict.fromkeys(ids, successes), "V-ATK-5")
