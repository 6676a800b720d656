"""The round and the order of combat (W-RND-1, W-RND-2, W-SPD-1..3).

Each round, every fighter able to act gets its shots or blows from its combat
speed and weapon kind (the speed table, W-SPD-1). The order of combat follows
(W-SPD-2; the text's 4.2.2.4 is missing, so this is a default kept as data,
``order.delay`` in the tables): each shot is ranked at the fighter's combat
speed less ``delay`` for every shot it fires before it in the round, highest
first; a tie goes to the faster fighter, then to the one listed first. A very
fast shooter thus fires first, second, third... before a slow one fires once.

An unconscious fighter counts a round off at the end of each round, and is
back for the round after its last one (W-KO-4).
"""

from __future__ import annotations

from conteur.engine import Resolution

from .events import RoundEnded, RoundStarted, StillUnconscious, VolleyCounted
from .state import Fighter, WesternState


def volley(state: WesternState, f: Fighter) -> tuple[int, int]:
    """(main-hand shots, off-hand shots) this round (W-SPD-1, W-SPD-3).

    The off-hand revolver fires one bullet fewer than the main hand, none when
    the main hand fires one; an ambidextrous fighter fires as many with both.
    """
    tables = state.tables
    main = tables.weapon(f.weapons[0]) if f.weapons else tables.weapon("fists")
    shots = tables.shots(main.kind, f.speed)
    off = 0
    if f.off_hand is not None:
        off_weapon = tables.weapon(f.off_hand)
        off_own = tables.shots(off_weapon.kind, f.speed)
        off = min(off_own, shots) if f.ambidextrous else max(0, min(off_own, shots - 1))
    return shots, off


def able_to_act(state: WesternState, f: Fighter, turn: int) -> bool:
    """Standing, and not attacked by surprise this round (W-RND-2)."""
    if not f.standing:
        return False
    return not (f.surprised == "attacked" and f.surprised_round == turn)


def order_of_combat(
    state: WesternState, volleys: list[tuple[Fighter, list[str]]]
) -> list[tuple[str, str]]:
    """Every (fighter, hand) shot of the round, spread by speed (W-SPD-2, ``order.delay``)."""
    delay = state.tables.order.delay
    ranked: list[tuple[int, int, int, int, str, str]] = []
    for index, (f, hands) in enumerate(volleys):
        for k, hand in enumerate(hands):
            ranked.append((-(f.speed - k * delay), -f.speed, index, k, f.id, hand))
    return [(fid, hand) for *_, fid, hand in sorted(ranked)]


def end_round(ctx: Resolution) -> None:
    """The round is over: each unconscious fighter has one round fewer to go (W-KO-4)."""
    state: WesternState = ctx.state
    for f in state.fighters.values():
        if f.fate == "unconscious":
            ctx.emit(StillUnconscious(fighter=f.id, left=f.unconscious - 1, rules=("W-KO-4",)))
    ctx.emit(RoundEnded(turn=state.turn, rules=("W-RND-1",)))


def start_round(ctx: Resolution) -> None:
    """``round``: the next round, its volleys and its order of combat."""
    state: WesternState = ctx.state
    turn = state.turn + 1
    counts: list[tuple[Fighter, list[str]]] = []
    for f in state.fighters.values():
        if not able_to_act(state, f, turn):
            continue
        main, off = volley(state, f)
        kind = state.tables.weapon(f.weapons[0]).kind if f.weapons else "fists"
        rules = ("W-SPD-1", "W-SPD-3") if f.off_hand else ("W-SPD-1",)
        ctx.emit(
            VolleyCounted(
                fighter=f.id, speed=f.speed, kind=kind, shots=main, off_shots=off, rules=rules
            )
        )
        hands: list[str] = []
        for i in range(max(main, off)):
            if i < main:
                hands.append("main")
            if i < off:
                hands.append("off")
        counts.append((f, hands))
    slots = order_of_combat(state, counts)
    ctx.emit(RoundStarted(turn=turn, slots=tuple(slots), rules=("W-RND-1", "W-SPD-2", "W-SEQ-1")))
    if not slots:
        end_round(ctx)
