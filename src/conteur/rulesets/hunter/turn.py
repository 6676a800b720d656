"""Initiative (H-INI-1/2), the turn, delaying (H-DEL-1) and ambush (H-AMB-1)."""

from __future__ import annotations

from conteur.dice import Expr
from conteur.engine import Command, Resolution
from conteur.i18n import ConteurError, Msg

from .asks import initiative_ask, roll_off_ask, trait_ask
from .dice import HunterPool
from .events import (
    HunterAmbushChecked,
    HunterCombatOver,
    HunterDelayed,
    HunterInitiativeRolled,
    HunterOrderSet,
    HunterRollOff,
    HunterTurnStarted,
)
from .health_events import consciousness_roll
from .rolls import roll_rules
from .state import Fighter, HunterState


def start_turn(ctx: Resolution, command: Command) -> None:
    """``initiative``: the first call rolls everyone's initiative; later ones open the next turn.

    H-INI-1: the roll is kept for the whole combat. H-AMB-1: the surprised
    roll theirs at the start of the next turn.
    """
    state: HunterState = ctx.state
    if state.phase == "over":
        raise ConteurError("hunter.turn.over")
    ctx.emit(HunterTurnStarted(turn=state.turn + 1, rules=("H-INI-1",)))
    first = state.turn == 1
    for f in state.fighters.values():
        if not f.able or f.initiative is not None:
            continue
        if f.surprised and first:
            continue
        roll_initiative(ctx, f, ("H-INI-1", "H-AMB-1") if f.surprised else ("H-INI-1",))
    rank(ctx)
    if not first:
        for f in state.fighters.values():
            if f.able and f.health.last == 1:
                consciousness_roll(ctx, f.id)


def roll_initiative(ctx: Resolution, f: Fighter, rules: tuple[str, ...]) -> None:
    die = Expr(1, 10)
    record = ctx.dice.roll(die, lambda: initiative_ask(f.id, f.name, die.text, f.initiative_parts))
    face = record.faces[0]
    ctx.emit(
        HunterInitiativeRolled(
            actor=f.id,
            face=face,
            base=f.initiative_base,
            total=face + f.initiative_base,
            rolls=(record,),
            rules=rules,
        )
    )


def rank(ctx: Resolution) -> None:
    """Order everyone with an initiative; ties on total and Dex + Composure roll off (H-INI-2)."""
    state: HunterState = ctx.state
    while True:
        rolled = [
            f for f in state.fighters.values() if f.initiative is not None and not f.withdrawn
        ]
        keys: dict[tuple[int, int, tuple[int, ...]], list[Fighter]] = {}
        for f in rolled:
            keys.setdefault(f.rank_key(), []).append(f)
        tied = [group for group in keys.values() if len(group) > 1]
        if not tied:
            break
        for group in tied:
            for f in group:
                record = ctx.dice.roll(Expr(1, 10), roll_off_ask(f.id, f.name, f.initiative_base))
                ctx.emit(
                    HunterRollOff(
                        actor=f.id, face=record.faces[0], rolls=(record,), rules=("H-INI-2",)
                    )
                )
    ranking = sorted(rolled, key=lambda f: f.rank_key(), reverse=True)
    ctx.emit(HunterOrderSet(ranking=tuple(f.id for f in ranking), rules=("H-INI-1", "H-INI-2")))


def waiting(state: HunterState) -> list[Fighter]:
    """Fighters still to act this turn, in initiative order."""
    if state.phase != "resolution":
        return []
    return [
        state.fighters[fid]
        for fid in state.ranking
        if state.fighters[fid].able and not state.fighters[fid].acted
    ]


def due(state: HunterState) -> str | None:
    """Who acts now: a delayer whose moment came (H-DEL-1), else the best initiative left."""
    left = waiting(state)
    for f in left:
        if f.delay_after:
            other = state.fighters[f.delay_after]
            if other.acted or not other.able:
                return f.id
    for f in left:
        if not f.delay_after:
            return f.id
    return left[0].id if left else None


def check_due(state: HunterState, actor: str | None) -> None:
    """ConteurError ``hunter.act.not_due`` when it is not ``actor``'s turn to act."""
    if state.phase == "setup":
        raise ConteurError("hunter.act.no_initiative")
    if actor not in state.fighters:
        raise ConteurError(
            "hunter.unknown_fighter", name=str(actor), known=", ".join(state.fighters)
        )
    f = state.fighters[actor]
    if not f.able:
        raise ConteurError("hunter.act.out_of_fight", fighter=f.name)
    if f.acted:
        raise ConteurError("hunter.act.already", fighter=f.name)
    now = due(state)
    if now != actor:
        if f.initiative is None:
            raise ConteurError("hunter.act.surprised", fighter=f.name, rule="H-AMB-1")
        raise ConteurError(
            "hunter.act.not_due",
            fighter=f.name,
            due=state.fighters[now].name if now else "—",
            rule="H-INI-1",
        )


def delay(ctx: Resolution, command: Command) -> None:
    """H-DEL-1: act right after ``after`` has acted."""
    state: HunterState = ctx.state
    check_due(state, command.actor)
    after = command.get("after")
    if after not in state.fighters or after == command.actor:
        raise ConteurError(
            "hunter.unknown_fighter", name=str(after), known=", ".join(state.fighters)
        )
    other = state.fighters[str(after)]
    if other.id not in waitable(state, command.actor or ""):
        raise ConteurError("hunter.delay.already_acted", fighter=other.name, rule="H-DEL-1")
    assert command.actor is not None
    ctx.emit(HunterDelayed(actor=command.actor, after=other.id, rules=("H-DEL-1", "H-INI-2")))


def waitable(state: HunterState, actor: str) -> tuple[str, ...]:
    """H-DEL-1: the fighters ``actor`` may delay its action for (able, still to act)."""
    return tuple(
        fid for fid, o in state.fighters.items() if fid != actor and o.able and not o.acted
    )


def ambush(ctx: Resolution, command: Command) -> None:
    """H-AMB-1: the game master has a fighter roll Wits + Composure before the first turn."""
    state: HunterState = ctx.state
    if state.phase != "setup":
        raise ConteurError("hunter.ambush.too_late", rule="H-AMB-1")
    fid = command.get("fighter")
    if fid not in state.fighters:
        raise ConteurError("hunter.unknown_fighter", name=str(fid), known=", ".join(state.fighters))
    f = state.fighters[str(fid)]
    record = ctx.dice.roll(
        HunterPool(f.trait("wits") + f.trait("composure")),
        trait_ask(
            f.id,
            f.name,
            Msg("ask.test.ambush"),
            [("wits", f.trait("wits")), ("composure", f.trait("composure"))],
        ),
    )
    ctx.emit(
        HunterAmbushChecked(
            actor=f.id,
            successes=record.result.successes,
            surprised=record.result.successes == 0,
            rolls=(record,),
            rules=("H-AMB-1", *roll_rules(record.result)),
        )
    )


def sides_standing(state: HunterState) -> tuple[set[str], set[str]]:
    """The sides of the fight (bystanders left out), and those with a fighter still able."""
    fighting = [f for f in state.fighters.values() if f.kind != "bystander"]
    return {f.side for f in fighting}, {f.side for f in fighting if f.able}


def check_over(ctx: Resolution) -> None:
    """After each command of a turn: when one side has no fighter left able to fight, the
    combat is over (``HunterCombatOver``; the text states no rule for it, so none is cited)."""
    state: HunterState = ctx.state
    if state.phase != "resolution":
        return
    sides, standing = sides_standing(state)
    if len(sides) >= 2 and len(standing) <= 1:
        ctx.emit(HunterCombatOver(side=next(iter(standing), None)))
