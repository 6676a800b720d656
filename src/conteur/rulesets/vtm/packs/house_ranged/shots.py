"""Single shot (R-SHOT-1, R-SHOT-2), called shot (R-CALL-1..6) and careful shot (R-AIM-1).

Readings (CHECKLIST, house_ranged):

* distances round up to the next whole metre; past 20 m the difficulty rises
  by 1 every 10 m, at most 10, and the weapon's maximum range still applies;
* the difficulty by distance replaces V-RNG-5 for every shot of the
  encounter (bursts included); the spread has its own bands (spread.py) and
  suppressive fire its flat difficulty (suppression.py);
* a called shot's "damage inflicted" is after soak; at the head it is compared
  with Stamina alone, and the health track is then filled past its end (a
  mortal dies, a vampire falls into torpor); an arm or leg roll is needed
  only when damage got through; its +2 difficulty lasts while the fighter
  keeps the condition (until healed or cleared by the game master);
* R-CALL-6: a target without wound penalties (condition ``no_wound_penalties``
  or ``apparition``) takes the damage but none of the location's effects,
  the head's two extra dice included;
* a careful shot is the same action declared round after round: the first
  lines the shot up (the target must be visible), the next fires at -1, or
  with ``wait`` lines it up once more for -2; any other action, a shot
  elsewhere, or a close attack on the shooter loses it.
"""

from __future__ import annotations

from conteur.engine import Param, Resolution
from conteur.engine.battlemap import MapBand
from conteur.i18n import ConteurError, Lang, Msg, number, t

from ... import equipment
from ...actions import check_attack
from ...asks import test_ask
from ...attack import attack
from ...dice import VtmPool
from ...events import ConditionSet, DamageTaken, WeaponChanged
from ...hooks import (
    AttackDraft,
    action,
    action_check,
    after_attack,
    after_hit,
    difficulty_rule,
    form_params,
    form_refusals,
    outside_odds,
    pool_rule,
    reads_effect,
    roll_rule,
    shows_bands,
    validator,
)
from ...modifiers import is_blind
from ...ranged import BASE_DIFFICULTY, maneuver_or_none, spend_rounds
from ...state import Action, Fighter, VtmState
from ...strike import StrikeOutcome
from ...tables import Labels, Weapon
from .common import firearm, no_wound_penalties
from .conditions import ArmHit, CarefulShot, LegHit
from .config import pack_data, shot_difficulty, shot_limits
from .events import CarefulAim, CarefulAimLost, HeadShotKill, LimbRolled, LocationIgnored

LOCATIONS = ("head", "torso", "arm", "leg")
"""R-CALL-2..5: where a called shot may aim."""
OWN_DIFFICULTY = ("shotgun_spread", "suppressive_fire")
"""Pack maneuvers whose difficulty is not the single shot's distance table."""
SINGLE_SHOTS = ("shoot", "called_shot", "careful_shot")
"""R-SHOT-2: shots of one bullet at one target."""


# ------------------------------------------------------------------ R-SHOT


def shot_bands(state: VtmState, w: Weapon, lang: Lang | None = None) -> tuple[MapBand, ...]:
    """R-SHOT-1 on the map: its metres and difficulties up to ``w``'s maximum range (the
    tables' last band, V-GEN-2), each said « 4 à 10 m, difficulté 5 »."""
    reach = max(band.limit(w.range or 0) for band in equipment.tables(state).ranges)
    rows = []
    for low, high, difficulty in shot_limits(reach):
        key = "house_ranged.map.band" if low <= high else "house_ranged.map.band_upto"
        label = t(key, lang, low=number(low, lang), high=number(high, lang), difficulty=difficulty)
        rows.append(MapBand(f"shot_{difficulty}", label, float(high), "R-SHOT-1"))
    return tuple(rows)


@difficulty_rule
@shows_bands(shot_bands)
def shot_distance(d: AttackDraft) -> None:
    """R-SHOT-1: 1–3 m: 4; 4–10 m: 5; 11–20 m: 6; then +1 each further 10 m (replaces V-RNG-5)."""
    if not d.ranged or d.weapon is None:
        return
    if equipment.maneuver_id(d.maneuver) in OWN_DIFFICULTY:
        return
    dist = d.state.distance(d.attacker.id, d.target.id)
    value = shot_difficulty(dist)
    d.add_difficulty("R-SHOT-1", "distance", value - BASE_DIFFICULTY)
    if not d.notes or d.notes[-1][0] != "R-SHOT-1":
        d.rules.append("R-SHOT-1")  # difficulty 6 at 11–20 m: no change, still the rule applied


@pool_rule
def single_shot_damage(d: AttackDraft) -> None:
    """R-SHOT-2: a hit does the weapon's damage, each success past the first one more die."""
    if d.ranged and equipment.maneuver_id(d.maneuver) in SINGLE_SHOTS:
        d.rules.append("R-SHOT-2")


@action_check
def replaced_details(state: VtmState, f: Fighter, a: Action) -> None:
    """With the pack on, a shot aims at a spot only as a called shot (R-CALL replaces V-MAN-8)."""
    if a.kind in ("called_shot",):
        return
    m = maneuver_or_none(state, a.kind)
    if m is None or m.kind != "ranged" or equipment.maneuver_id(m) == "called_shot":
        return
    if a.param("targeting") is not None or a.param("location") is not None:
        raise ConteurError("house_ranged.use_called_shot", rule="R-CALL-1", fighter=f.name)
    if a.param("careful_rounds") is not None:
        raise ConteurError("house_ranged.odds_only", rule="R-AIM-1", name="careful_rounds")


SEVERAL_TARGETS = ("short_burst", "long_burst", "shotgun_spread", "suppressive_fire")
"""R-BURST-1/2, R-SPREAD-2, R-SUPP-1: the maneuvers that name several targets."""
SPLIT = ("short_burst", "long_burst")
"""R-BURST-1/2: the maneuvers whose successes the shooter splits."""


@action_check
def several_targets_only(state: VtmState, f: Fighter, a: Action) -> None:
    """``targets`` only for a burst, a spread or suppressive fire, ``split`` only for a burst
    (the form offers both beside every first action: one filled in elsewhere is refused)."""
    m = maneuver_or_none(state, a.kind)
    kind = equipment.maneuver_id(m) if m is not None else a.kind
    for name, allowed in (("targets", SEVERAL_TARGETS), ("split", SPLIT)):
        if a.param(name) in (None, "", []) or kind in allowed:
            continue
        raise ConteurError(
            "house_ranged.not_for",
            rule="R-BURST-1",
            fighter=f.name,
            name=name,
            maneuver=Labels([m]) if m is not None else kind,
        )


# ------------------------------------------------------------------ R-CALL


form_refusals(
    "house_ranged.location",
    "house_ranged.use_called_shot",
    "house_ranged.not_for",
)
"""What the pack's details of a declaration form (``pack_details``) may meet: a called shot
with no spot, a spot or several targets given with a maneuver that takes none (R-CALL-1,
R-BURST-1)."""


@form_params
def pack_details(state: VtmState, f: Fighter) -> list[Param]:
    """The tracker's declaration form: the called shot's spot, a careful shot's ``wait``, the
    targets of a burst, a spread or suppressive fire (ids, the first ``target`` included or
    not) and a burst's ``split`` (R-BURST-1/2)."""
    return [
        Param("location", "choice", LOCATIONS, required=False),
        Param("wait", "bool", default=False),
        Param("targets", "text", required=False),
        Param("split", "text", required=False),
    ]


@validator("called_shot")
def check_called_shot(state: VtmState, f: Fighter, a: Action) -> None:
    """R-CALL-1: a ranged weapon and one of the locations (head, torso, arm, leg)."""
    m = equipment.maneuver(state, a.kind)
    check_attack(state, f, a, m)
    firearm(state, f, a, "R-CALL-1")
    where = a.param("location")
    if where not in LOCATIONS:
        raise ConteurError(
            "house_ranged.location",
            rule="R-CALL-1",
            value=str(where) if where is not None else "—",
            known=", ".join(LOCATIONS),
        )


def location_of(a: Action) -> str:
    """The spot a called shot aims at (the odds of one without a spot: the torso)."""
    where = a.param("location")
    return str(where) if where in LOCATIONS else "torso"


@pool_rule
def head_dice(d: AttackDraft) -> None:
    """R-CALL-2: a head shot does two more damage dice (R-CALL-6: not to apparitions)."""
    if equipment.maneuver_id(d.maneuver) != "called_shot":
        return
    if location_of(d.action) == "head" and not no_wound_penalties(d.target):
        dice = pack_data().head_damage_dice
        d.extra_damage_dice += dice
        d.notes.append(("R-CALL-2", "damage", dice))
        d.damage_parts.append(("head", dice))
        d.rules.append("R-CALL-2")


@action("called_shot")
def called_shot(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """R-CALL-1: one bullet at one spot of the target, at +2 difficulty."""
    state: VtmState = ctx.state
    m = equipment.maneuver(state, a.kind)
    spend_rounds(ctx, f, m, firearm(state, f, a, "R-CALL-1"))
    attack(ctx, f, a, penalty, willpower)


@after_hit("called_shot")
def location_effect(ctx: Resolution, d: AttackDraft, outcome: StrikeOutcome) -> None:
    """R-CALL-2..6: what the spot hit does once the damage is known."""
    if not outcome.hit:
        return
    target = ctx.state.fighters[d.target.id]
    where = location_of(d.action)
    if where == "torso":
        return  # R-CALL-3: the normal effects
    if no_wound_penalties(target):
        ctx.emit(LocationIgnored(target=target.id, location=where, rules=("R-CALL-6",)))
        return
    if where == "head":
        head_kill(ctx, target, outcome.levels)
    else:
        limb_hit(ctx, target, where, outcome.levels)


def head_kill(ctx: Resolution, target: Fighter, inflicted: int) -> None:
    """R-CALL-2: damage inflicted (after soak) at least the target's Stamina kills outright."""
    stamina = target.trait("stamina")
    if inflicted < stamina or target.health.past_track is not None:
        return
    ctx.emit(HeadShotKill(target=target.id, damage=inflicted, stamina=stamina, rules=("R-CALL-2",)))
    left = len(target.health.boxes) - target.health.filled + 1
    ctx.emit(
        DamageTaken(
            target=target.id, levels=left, damage_type="lethal", rules=("R-CALL-2", "V-DMG-5")
        )
    )


def limb_hit(ctx: Resolution, target: Fighter, where: str, inflicted: int) -> None:
    """R-CALL-4 (arm: Dexterity, drops what it holds) and R-CALL-5 (leg: Dex + Athletics, falls)."""
    data = pack_data()
    rule = "R-CALL-4" if where == "arm" else "R-CALL-5"
    ctx.emit(
        ConditionSet(
            target=target.id, condition=f"{where}_hit", value=data.limb_penalty, rules=(rule,)
        )
    )
    if inflicted <= 0:
        return
    pool = target.trait("dexterity") + (target.trait("athletics") if where == "leg" else 0)
    traits = ["dexterity", "athletics"] if where == "leg" else ["dexterity"]
    record = ctx.dice.roll(
        VtmPool(pool, data.limb_roll_difficulty),
        test_ask(
            target.id,
            target.name,
            Msg("ask.test.limb"),
            pool,
            data.limb_roll_difficulty,
            [(t, target.trait(t)) for t in traits],
        ),
    )
    got = record.result.successes
    ctx.emit(
        LimbRolled(
            target=target.id,
            location=where,
            pool=pool,
            difficulty=data.limb_roll_difficulty,
            successes=got,
            needed=inflicted,
            rules=(rule,),
            rolls=(record,),
        )
    )
    if got >= inflicted:
        return
    if where == "arm":
        if target.weapon is not None:
            ctx.emit(WeaponChanged(fighter=target.id, weapon=None, rules=(rule,)))
    else:
        ctx.emit(
            ConditionSet(target=target.id, condition="knocked_down", value=True, rules=(rule,))
        )


@roll_rule
def wounded_leg(state: VtmState, f: Fighter, purpose: str) -> tuple[int, str] | None:
    """R-CALL-5: +2 difficulty on every movement roll of a fighter hit in the leg (standing
    up, a jump, a climb...: ``movement_purposes``); moves and runs take no roll."""
    hit = f.conditions.of(LegHit)
    if not hit or not hit.penalty:
        return None
    if purpose.strip().lower().replace(" ", "_") not in pack_data().movement_purposes:
        return None
    return hit.penalty, "R-CALL-5"


@difficulty_rule
def wounded_limb(d: AttackDraft) -> None:
    """R-CALL-4: +2 difficulty on an attack made with a wounded arm (ranged or close)."""
    hit = d.attacker.conditions.of(ArmHit)
    if hit and hit.penalty:
        d.add_difficulty("R-CALL-4", ArmHit.key, hit.penalty)


# ------------------------------------------------------------------ R-AIM


def careful_held(state: VtmState, f: Fighter, a: Action) -> int:
    """R-AIM-1: rounds of careful aim the shooter holds for this shot (0: none).

    Held when the shooter lined up this target with this weapon in the
    previous round, and this is its first action of the round.
    """
    held = f.conditions.of(CarefulShot)
    if held is None:
        return 0
    try:
        w = equipment.weapon_for(state, f, a)
    except ConteurError:
        return 0
    fresh = (
        held.target == a.target
        and w is not None
        and held.weapon == w.id
        and held.last == state.turn - 1
        and f.progress.acted <= 1
        and f.progress.defences == 0
    )
    return held.rounds if fresh else 0


@reads_effect("aim_bonus", needs=("difficulty", "max"), of="careful_shot")
def careful_steps(state: VtmState) -> tuple[int, int]:
    """R-AIM-1: the careful shot's ``aim_bonus`` — difficulty off per round lined up (its
    ``difficulty``, -1) and the most rounds that count (its ``max``, 2)."""
    effect = equipment.maneuver(state, "careful_shot").effect("aim_bonus")
    if effect is None:
        return 0, 0
    return -int(effect.difficulty or 0), int(effect.max or 0)  # (check_effects_read)


@validator("careful_shot")
def check_careful_shot(state: VtmState, f: Fighter, a: Action) -> None:
    """R-AIM-1: a ranged weapon; to start aiming the shooter must see the target."""
    m = equipment.maneuver(state, a.kind)
    check_attack(state, f, a, m)
    equipment.weapon_for(state, f, a)
    if is_blind(state, f):
        raise ConteurError("house_ranged.careful_unseen", rule="R-AIM-1", fighter=f.name)


@action("careful_shot")
def careful_shot(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """R-AIM-1: line the shot up (first round, or ``wait``), or fire at the lowered difficulty."""
    state: VtmState = ctx.state
    held = careful_held(state, f, a)
    w = equipment.weapon_for(state, f, a)
    assert w is not None and a.target is not None
    step, most = careful_steps(state)
    if held and not (a.param("wait") and held < most):
        m = equipment.maneuver(state, a.kind)
        spend_rounds(ctx, f, m, w)
        attack(ctx, f, a, penalty, willpower)
        return
    rounds = held + 1
    ctx.emit(
        CarefulAim(
            fighter=f.id,
            target=a.target,
            weapon=w.id,
            rounds=rounds,
            last=state.turn,
            bonus=rounds * step,
            rules=("R-AIM-1",),
        )
    )


@difficulty_rule
def careful_bonus(d: AttackDraft) -> None:
    """R-AIM-1: -1 difficulty per round lined up (at most 2), for the careful shot itself.

    Out of play (the odds of a careful shot not lined up yet) it counts the
    rounds of the ``careful_rounds`` parameter, one by default.
    """
    if equipment.maneuver_id(d.maneuver) != "careful_shot":
        return
    rounds = careful_held(d.state, d.attacker, d.action)
    if not rounds:
        rounds = int(d.action.param("careful_rounds") or 1)
    step, most = careful_steps(d.state)
    rounds = max(1, min(most, rounds))
    d.add_difficulty("R-AIM-1", "careful", -rounds * step)


@after_attack
@outside_odds
def careful_spent_or_lost(ctx: Resolution, d: AttackDraft, outcome: StrikeOutcome) -> None:
    """R-AIM-1: a shot spends the aim; a close attack on a careful shooter disturbs it."""
    shooter = ctx.state.fighters[d.attacker.id]
    if CarefulShot.key in shooter.conditions:
        ctx.emit(
            ConditionSet(
                target=shooter.id, condition=CarefulShot.key, value=None, rules=("R-AIM-1",)
            )
        )
    target = ctx.state.fighters[d.target.id]
    if d.close and CarefulShot.key in target.conditions:
        ctx.emit(CarefulAimLost(fighter=target.id, rules=("R-AIM-1",)))
