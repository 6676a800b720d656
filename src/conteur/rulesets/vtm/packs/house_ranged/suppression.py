"""Suppressive fire (R-SUPP-1, R-SUPP-2): the clip emptied toward the enemy pins targets down.

Readings: no success, no effect; the targets stay pinned down for the turn
of the fire; before an action that exposes it (an attack, a move, or any
action with a move) a pinned fighter rolls Willpower at difficulty 6 and
needs as many successes as the shooter: on a failure that action is lost
(the fighter stays in cover; the rest of its turn is its own), on a
success it acts but first takes the weapon's base damage (no extra dice
for the shooter's successes; it can be soaked). One test per turn: its
result stands for the turn's other exposing actions.
"""

from __future__ import annotations

from dataclasses import replace

from conteur.engine import Event, Resolution
from conteur.i18n import ConteurError, Msg

from ... import equipment
from ...asks import test_ask, willpower_roll
from ...attack import soak_pool
from ...dice import VtmPool
from ...events import AttackRolled, Botched, ConditionSet
from ...hooks import action, at_turn_end, before_action, validator
from ...ranged import spend_rounds
from ...state import Action, Fighter, VtmState
from ...strike import Strike, roll_damage
from ...tables import Labels
from .common import firearm, named_targets, volley
from .conditions import Suppressed
from .config import pack_data
from .events import PinnedDown, SuppressionLaid, SuppressionTested
from .shots import careful_held

EXPOSING_KINDS = ("move", "run", "charge")


def target_limit(cadence: str) -> int | None:
    """R-SUPP-1: 1 target single shot, 3 semi-automatic, any number automatic (None)."""
    value = pack_data().suppression_targets.get(cadence, 1)
    return None if value == "all" else int(value)


@validator("suppressive_fire")
def check_suppression(state: VtmState, f: Fighter, a: Action) -> None:
    """R-SUPP-1: any firearm; as many targets as its cadence allows."""
    m = equipment.maneuver(state, a.kind)
    ids = named_targets(state, f, a, "R-SUPP-1")
    w = firearm(state, f, replace(a, target=ids[0]), "R-SUPP-1")
    limit = target_limit(w.fire_cadence)
    if limit is not None and len(ids) > limit:
        raise ConteurError(
            "house_ranged.suppression_targets",
            rule="R-SUPP-1",
            weapon=Labels([w]),
            count=len(ids),
            limit=limit,
            maneuver=Labels([m]),
        )


@action("suppressive_fire")
def suppressive_fire(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """R-SUPP-1: Manipulation + Firearms at difficulty 6, the clip emptied; the targets pinned."""
    state: VtmState = ctx.state
    m, ids, a, w = volley(state, f, a, "R-SUPP-1", "R-SUPP-1")
    for fid in ids:
        equipment.check_reach(state, f, state.fighters[fid], a)
    spend_rounds(ctx, f, m, w)
    # Wound penalties (V-DMG-5) and a multiple action (V-MAN-1) still take their dice.
    pool = f.trait("manipulation") + f.trait("firearms") + f.penalty - penalty
    notes = tuple((what, n) for what, n in (("wounds", f.penalty), ("multiple", -penalty)) if n)
    difficulty = pack_data().suppression_difficulty
    record = ctx.dice.roll(
        VtmPool(max(pool, 0), difficulty, auto=1 if willpower else 0),
        test_ask(
            f.id,
            f.name,
            Msg("ask.test.volley"),
            pool,
            difficulty,
            [
                ("manipulation", f.trait("manipulation")),
                ("firearms", f.trait("firearms")),
                ("wounds", f.penalty),
                ("multiple_actions", -penalty),
            ],
            auto=1 if willpower else 0,
        ),
    )
    successes = record.result.successes
    ctx.emit(
        AttackRolled(
            attacker=f.id,
            target=ids[0],
            maneuver=m.id,
            pool=max(pool, 0),
            difficulty=record.request.effective_difficulty,
            successes=successes,
            botch=record.result.botch,
            modifiers=notes,
            rules=("R-SUPP-1",),
            rolls=(record,),
        )
    )
    if record.result.botch:
        ctx.emit(Botched(fighter=f.id, context=m.id, rules=("R-SUPP-1",)))
    if successes <= 0:
        return
    ctx.emit(
        SuppressionLaid(
            fighter=f.id,
            weapon=w.id,
            successes=successes,
            targets=tuple(ids),
            turn=state.turn,
            rules=("R-SUPP-1",),
        )
    )


def suppression_on(state: VtmState, f: Fighter) -> Suppressed | None:
    held = f.conditions.of(Suppressed)
    return held if held is not None and held.turn == state.turn else None


@at_turn_end
def suppression_over(ctx: Resolution) -> None:
    """R-SUPP-2 (reading): the targets stay pinned down for the turn of the fire only; as
    it ends they come out of it (the condition leaves the summary)."""
    state: VtmState = ctx.state
    for f in state.fighters.values():
        if Suppressed.key in f.conditions:
            ctx.emit(
                ConditionSet(target=f.id, condition=Suppressed.key, value=None, rules=("R-SUPP-2",))
            )


def exposes(state: VtmState, f: Fighter, a: Action) -> bool:
    """An attack, a move, or an action that starts with a move exposes the fighter
    (aiming, lining up a careful shot or reloading do not)."""
    if a.kind in EXPOSING_KINDS or a.param("move_to") is not None:
        return True
    try:
        m = equipment.maneuver(state, a.kind)
    except ConteurError:
        return False
    if not equipment.is_attack(m) or m.damage.base == "none":
        return False
    return equipment.maneuver_id(m) != "careful_shot" or careful_held(state, f, a) > 0


@before_action
def pinned_down(ctx: Resolution, f: Fighter, a: Action) -> bool:
    """R-SUPP-2: the Willpower test of a pinned fighter who exposes itself, and its price."""
    state: VtmState = ctx.state
    held = suppression_on(state, f)
    if held is None or not exposes(state, f, a):
        return True
    if held.tested == "failed":
        ctx.emit(PinnedDown(fighter=f.id, kind=a.kind, rules=("R-SUPP-2",)))
        return False
    if held.tested == "passed":
        return True
    needed = held.successes
    difficulty = pack_data().suppression_willpower_difficulty
    record = willpower_roll(ctx, f, Msg("ask.test.suppression"), difficulty)
    got = record.result.successes
    passed = got >= needed
    ctx.emit(
        SuppressionTested(
            fighter=f.id,
            successes=got,
            needed=needed,
            passed=passed,
            rules=("R-SUPP-2",),
            rolls=(record,),
        )
    )
    if not passed:
        ctx.emit(PinnedDown(fighter=f.id, kind=a.kind, rules=("R-SUPP-2",)))
        return False
    exposed_damage(ctx, f, held.by, held.weapon)
    return True


def exposed_damage(ctx: Resolution, f: Fighter, shooter: str, weapon_id: str) -> None:
    """R-SUPP-2: the weapon's base damage, no extra die, soaked as usual."""
    state: VtmState = ctx.state
    w = equipment.weapon(state, weapon_id)
    dtype, source = equipment.health_damage(str(w.damage_type), "weapon")
    strike = Strike(
        attacker=shooter,
        target=f.id,
        maneuver="suppressive_fire",
        pool=0,
        difficulty=6,
        damage_dice=int(w.damage.dice or 0),
        damage_parts=((w.id, int(w.damage.dice or 0)),),
        damage_type=dtype,
        soak=soak_pool(f, dtype, source, state),
        armour_rating=0,
        halve_bashing=f.kind == "vampire" and dtype == "bashing",
        rules=("R-SUPP-2",),
    )
    found: list[Event] = []
    roll_damage(strike, 1, 1, ctx.dice, found)
    for event in found:
        ctx.emit(event)
