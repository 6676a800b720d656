"""Reputation after a duel (W-REP-1..3)."""

from __future__ import annotations

from conteur.engine import Command, Resolution
from conteur.i18n import ConteurError

from .events import DuelJudged, ReputationGained
from .state import Fighter, WesternState


def one_on_one_gain(opponent_reputation: int) -> int:
    """W-REP-1: +3 above 15, +2 above 10, +1 above 5 (the highest that applies)."""
    if opponent_reputation > 15:
        return 3
    if opponent_reputation > 10:
        return 2
    if opponent_reputation > 5:
        return 1
    return 0


def group_gain(winners: int, losers: int) -> int:
    """W-REP-2: +1 when fewer; +1 when more by at most one against at least two; else 0."""
    if winners < losers:
        return 1
    if winners > losers and losers >= 2 and winners - losers <= 1:
        return 1
    return 0


def duel_gain(winners: list[Fighter], losers: list[Fighter], witness: bool) -> int:
    """What each winner gains; nothing without a witness (W-REP-3)."""
    if not witness or not winners or not losers:
        return 0
    if len(winners) == 1 and len(losers) == 1:
        return one_on_one_gain(losers[0].reputation)
    return group_gain(len(winners), len(losers))


def duel_won(ctx: Resolution, command: Command) -> None:
    """``duel_won`` (game master): ``side`` won the duel; reputation is applied at once."""
    state: WesternState = ctx.state
    side = str(command.get("side") or "")
    sides = {f.side for f in state.fighters.values()}
    if side not in sides:
        raise ConteurError("western.unknown_side", side=side, known=", ".join(sorted(sides)))
    if state.duel_judged:
        raise ConteurError("western.duel_judged")
    witness_arg = command.get("witness")
    judge(ctx, side, state.witnesses if witness_arg is None else bool(witness_arg))


def judge_if_over(ctx: Resolution) -> None:
    """In a scenario marked ``duel: true``, the duel is judged as soon as one side alone
    stands (W-REP-1..3: the change of reputation is immediate)."""
    state: WesternState = ctx.state
    if not state.duel or state.duel_judged:
        return
    standing = {f.side for f in state.fighters.values() if f.standing}
    if len(standing) == 1:
        judge(ctx, standing.pop(), state.witnesses)


def judge(ctx: Resolution, side: str, witness: bool) -> None:
    """The duel won by ``side``: each winner's gain from the sides' numbers and reputations."""
    state: WesternState = ctx.state
    winners = [f for f in state.fighters.values() if f.side == side]
    losers = [f for f in state.fighters.values() if f.side != side]
    gain = duel_gain(winners, losers, witness)
    one = len(winners) == 1 and len(losers) == 1
    rules = ("W-REP-1", "W-REP-3") if one else ("W-REP-2", "W-REP-3")
    ctx.emit(
        DuelJudged(
            side=side,
            winners=len(winners),
            losers=len(losers),
            witness=witness,
            gain=gain,
            rules=rules,
        )
    )
    if gain:
        for f in winners:
            if f.fate in ("alive", "unconscious", "out"):
                ctx.emit(
                    ReputationGained(
                        fighter=f.id, amount=gain, total=f.reputation + gain, rules=rules
                    )
                )
