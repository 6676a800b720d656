"""One roll for several targets (bursts, spread): the roll, then each target's share of it."""

from __future__ import annotations

from conteur.dice import VtmPool
from conteur.engine import Event, Resolution

from ...attack import dazed_by_damage, defence_for, format_notes, strike_for
from ...events import AttackMissed, AttackRolled, Botched, ModifiersUsed
from ...hooks import AttackDraft
from ...ranged import take_cover_after_dodge
from ...strike import resolve_successes
from ...tables import Maneuver


def roll_once(ctx: Resolution, lead: AttackDraft, m: Maneuver, willpower: bool) -> int:
    """The one attack roll, drafted as ``lead``; its successes (0: every target missed)."""
    f = lead.attacker
    record = ctx.dice.roll(VtmPool(lead.pool, lead.difficulty, auto=1 if willpower else 0))
    if ctx.state.pending_modifiers.get(f.id):
        ctx.emit(ModifiersUsed(f.id))
    successes = record.result.successes
    ctx.emit(
        AttackRolled(
            f.id,
            lead.target.id,
            m.id,
            lead.pool,
            record.request.effective_difficulty,
            successes,
            record.result.botch,
            format_notes(lead),
            rules=(*dict.fromkeys(lead.rules), "V-ATK-5"),
            rolls=(record,),
        )
    )
    if record.result.botch:
        ctx.emit(Botched(f.id, m.id, rules=("V-ATK-5",)))
    return max(successes, 0)


def strike_each(
    ctx: Resolution, drafts: list[AttackDraft], shares: dict[str, int], rule: str
) -> None:
    """Each target's share of the successes against its own defence, damage and soak."""
    for d in drafts:
        share = shares.get(d.target.id, 0)
        if share <= 0:
            ctx.emit(AttackMissed(d.attacker.id, d.target.id, rules=(rule,)))
            continue
        strike = strike_for(d, defence_for(ctx, d), False)
        found: list[Event] = []
        outcome = resolve_successes(strike, share, ctx.dice, found)
        for event in found:
            ctx.emit(event)
        take_cover_after_dodge(ctx, d, outcome)
        dazed_by_damage(ctx, d.target, outcome)
