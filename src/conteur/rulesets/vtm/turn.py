"""The three stages of a turn (V-GEN-3): initiative, declarations, resolution.

* Initiative (V-INI-1, V-INI-2): one d10 + Dex + Wits, less wound penalties;
  ties go to the higher rating, then act simultaneously.
* Declarations (V-INI-3): slowest first; delays, multiple actions, Celerity
  and Willpower are declared now.
* Resolution (V-INI-4..7): fastest first; a delayed fighter may act at any
  moment after its rank; multiple and Celerity actions at the end of the
  turn, in initiative order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from conteur.dice import Expr
from conteur.engine import Command, Resolution
from conteur.engine.rules import rules_applied
from conteur.i18n import ConteurError

from . import hooks
from .asks import initiative_ask
from .conditions import Dazed, InitiativeMalus
from .defence_events import SimultaneousRank
from .events import (
    ActionDeclared,
    ActionLost,
    BloodSpent,
    DeclarationCursor,
    DeclarationsClosed,
    EndCursor,
    EndOfTurnStarted,
    InitiativeOrdered,
    InitiativeRolled,
    RankPassed,
    TurnEnded,
    TurnStarted,
    WillpowerSpent,
)
from .rulebook import rules_of
from .state import DEFENSIVE, Action, Declaration, Fighter, VtmState

D10 = Expr(1, 10)


INITIATIVE_TRAITS = ("dexterity", "wits")
"""The traits of the initiative rating (V-INI-1)."""


def initiative_parts(f: Fighter) -> list[tuple[str, int]]:
    """The initiative rating part by part: Dex and Wits (each said, even at 0), then the
    wound penalty (V-INI-1) and ``initiative_malus`` (a fighter who rolled to get up,
    V-DMG-7, spent by this initiative roll) when they take something off."""
    malus = held.amount if (held := f.conditions.of(InitiativeMalus)) else 0
    parts = [(trait, f.trait(trait)) for trait in INITIATIVE_TRAITS]
    return parts + [
        (what, n) for what, n in (("wounds", f.penalty), ("initiative_malus", -malus)) if n
    ]


def start_turn(ctx: Resolution, command: Command) -> None:
    """Roll initiative for every fighter still standing and order them (V-INI-1, V-INI-2)."""
    state: VtmState = ctx.state
    if state.phase not in ("setup",):
        raise ConteurError("vtm.turn.in_progress", rule="V-GEN-3", phase=state.phase)
    if not able_fighters(state):
        raise ConteurError("vtm.turn.nobody", rule="V-GEN-3")
    ctx.emit(TurnStarted(turn=state.turn + 1, rules=("V-GEN-3",)))
    scores: list[tuple[int, int, str]] = []
    for f in able_fighters(state):
        parts = initiative_parts(f)
        record = ctx.dice.roll(D10, partial(initiative_ask, f.id, f.name, D10.text, parts))
        rating = sum(n for _, n in parts)
        total = record.result.total + rating
        ctx.emit(
            InitiativeRolled(
                fighter=f.id,
                face=record.result.total,
                rating=rating,
                total=total,
                rules=("V-INI-1",),
                rolls=(record,),
            )
        )
        scores.append((total, rating, f.id))
    ctx.emit(InitiativeOrdered(order=rank_order(scores), rules=("V-INI-2",)))


def rank_order(scores: list[tuple[int, int, str]]) -> tuple[tuple[str, ...], ...]:
    """Highest total first; ties by higher rating; equal both: one simultaneous rank (V-INI-2)."""
    ranks: list[list[str]] = []
    last: tuple[int, int] | None = None
    for total, rating, fid in sorted(scores, key=lambda s: (-s[0], -s[1])):
        if (total, rating) == last:
            ranks[-1].append(fid)
        else:
            ranks.append([fid])
            last = (total, rating)
    return tuple(tuple(r) for r in ranks)


def able_fighters(state: VtmState) -> list[Fighter]:
    """Fighters who can still act (not incapacitated, dead, in torpor or unconscious)."""
    return [f for f in state.fighters.values() if not f.out_of_fight]


# ------------------------------------------------------------------- declaring


def declaring_now(state: VtmState) -> list[str]:
    """Who must declare now: the slowest rank not yet declared (V-INI-3)."""
    if state.phase != "declaration" or state.cursor < 0 or not state.order:
        return []
    return [
        fid for fid in state.order[state.cursor] if state.fighters[fid].progress.declaration is None
    ]


def declare(ctx: Resolution, command: Command, validate: Any) -> None:
    """Record a declaration in reverse initiative order (V-INI-3, V-MAN-1, V-MAN-2).

    ``validate(state, fighter, declaration)`` checks its actions against the
    maneuver rules before anything is recorded (``actions.validate_declaration``).
    """
    state: VtmState = ctx.state
    actor = command.actor or ""
    if state.phase != "declaration":
        raise ConteurError("vtm.declare.not_now", rule="V-INI-3", phase=state.phase)
    if actor not in state.fighters:
        raise ConteurError("vtm.unknown_fighter", name=actor)
    due = declaring_now(state)
    if actor not in due:
        raise ConteurError(
            "vtm.declare.order",
            rule="V-INI-3",
            fighter=state.fighters[actor].name,
            due=", ".join(state.fighters[d].name for d in due),
        )
    f = state.fighters[actor]
    decl = declaration_from_command(command)
    check_declaration(state, f, decl)
    validate(state, f, decl)
    if decl.celerity:
        ctx.emit(
            BloodSpent(fighter=actor, amount=decl.celerity, reason="celerity", rules=("V-MAN-2",))
        )
    if decl.willpower:
        ctx.emit(
            WillpowerSpent(fighter=actor, amount=1, reason="automatic_success", rules=("V-INI-3",))
        )
    rules = rules_applied(
        ("V-INI-3", True),
        ("V-MAN-1", decl.multiple > 1),
        ("V-MAN-2", bool(decl.celerity)),
        ("V-INI-5", decl.delayed),
        ("V-DEF-7", bool(decl.full_defense)),
    )
    ctx.emit(ActionDeclared.of(actor, decl, summary_of(decl), rules))
    if not declaring_now(state):
        next_cursor = state.cursor - 1
        if next_cursor >= 0:
            ctx.emit(DeclarationCursor(cursor=next_cursor))
        else:
            ctx.emit(DeclarationsClosed(rules=("V-INI-4",)))
            advance(ctx)


def summary_of(decl: Declaration) -> str:
    """A short machine-readable summary: ``shoot>bob+dodge`` (for logs and tests)."""
    if decl.delayed:
        return "delay"
    if decl.full_defense:
        return f"full_defense:{decl.full_defense}"
    parts = []
    for a in decl.actions:
        part = a.kind + (f">{a.target}" if a.target else "")
        parts.append(("*" if a.celerity else "") + part)
    return "+".join(parts)


def declaration_from_command(command: Command) -> Declaration:
    """Build a Declaration from a ``declare`` command's arguments."""
    args = command.args
    raw_actions = args.get("actions")
    celerity = int(args.get("celerity", 0) or 0)
    if raw_actions is None:
        raw_actions = flat_actions(args)
        if not celerity:
            celerity = len(celerity_fields(args))
    actions = []
    for i, raw in enumerate(raw_actions):
        params = {k: v for k, v in raw.items() if k not in ("kind", "target", "weapon")}
        actions.append(
            Action(
                kind=str(raw["kind"]),
                target=raw.get("target"),
                weapon=raw.get("weapon"),
                params=tuple(sorted(params.items())),
                celerity=i >= len(raw_actions) - celerity,
            )
        )
    return Declaration(
        actions=tuple(actions),
        celerity=celerity,
        willpower=bool(args.get("willpower")),
        full_defense=args.get("full_defense"),
        delayed=bool(args.get("delay")),
    )


FIRST_FIELDS = ("kind", "target", "weapon", "move_to")
FLAT_FIELDS = (*FIRST_FIELDS, "then_kind", "then_target")
"""A declaration's actions given field by field (``flat_actions``)."""
CELERITY_KIND = re.compile(r"celerity_kind_(\d+)")


def celerity_fields(args: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Celerity's extra actions given field by field: ``celerity_kind_1`` and
    ``celerity_target_1``, ``celerity_kind_2``... in their order (V-MAN-2)."""
    numbers = sorted(
        int(m.group(1)) for k in args if (m := CELERITY_KIND.fullmatch(k)) and args.get(k)
    )
    out = []
    for n in numbers:
        extra = {"kind": args[f"celerity_kind_{n}"]}
        if args.get(f"celerity_target_{n}"):
            extra["target"] = args[f"celerity_target_{n}"]
        out.append(extra)
    return out


def is_flat_field(key: str) -> bool:
    """Whether ``key`` is one of the fields a declaration's actions are given by."""
    return key in FLAT_FIELDS or bool(re.fullmatch(r"celerity_(kind|target)_\d+", key))


def flat_actions(args: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The actions of a declaration given field by field (a form): ``kind``, ``target``,
    ``weapon`` and ``move_to`` (an opening move, V-MAN-6), then maybe ``then_kind`` and
    ``then_target`` (V-MAN-1), then Celerity's extra actions (``celerity_fields``, V-MAN-2:
    the last ones of the turn)."""
    out: list[dict[str, Any]] = []
    if args.get("kind"):
        first = {k: args[k] for k in FIRST_FIELDS if args.get(k)}
        out.append(first)
    if args.get("then_kind"):
        if not out:
            raise ConteurError("vtm.declare.then_alone", rule="V-MAN-1")
        second = {"kind": args["then_kind"]}
        if args.get("then_target"):
            second["target"] = args["then_target"]
        out.append(second)
    return out + celerity_fields(args)


def check_declaration(state: VtmState, f: Fighter, decl: Declaration) -> None:
    """The limits of a declaration: Celerity dots and blood, Willpower, one kind of turn."""
    if decl.delayed and decl.actions:
        raise ConteurError("vtm.declare.delay_alone", rule="V-INI-5")
    if decl.full_defense:
        if decl.full_defense not in DEFENSIVE:
            raise ConteurError("vtm.declare.bad_defence", rule="V-DEF-7", kind=decl.full_defense)
        if decl.actions:
            raise ConteurError("vtm.declare.full_defense_alone", rule="V-DEF-7")
    if not decl.delayed and not decl.full_defense and not decl.actions:
        raise ConteurError("vtm.declare.empty", rule="V-INI-3")
    if decl.celerity:
        dots = f.trait("celerity")
        if decl.celerity > dots:
            raise ConteurError(
                "vtm.declare.celerity_dots",
                rule="V-MAN-2",
                fighter=f.name,
                asked=decl.celerity,
                dots=dots,
            )
        if decl.celerity > f.blood:
            raise ConteurError(
                "vtm.declare.no_blood", rule="V-MAN-2", fighter=f.name, blood=f.blood
            )
        if decl.celerity >= len(decl.actions):
            raise ConteurError("vtm.declare.celerity_actions", rule="V-MAN-2", count=decl.celerity)
    if decl.willpower and f.willpower < 1:
        raise ConteurError("vtm.no_willpower", rule="V-INI-3", fighter=f.name)
    for check in rules_of(state).of(hooks.declaration_check):
        check(state, f, decl)


# ------------------------------------------------------------------- resolving


def due_at_rank(state: VtmState) -> list[str]:
    """Fighters of the current rank with an action to take there (V-INI-4)."""
    if state.phase != "resolution" or state.cursor >= len(state.order):
        return []
    return [
        fid
        for fid in state.order[state.cursor]
        if first_of(state.fighters[fid].progress.pending, "rank") is not None
    ]


def due_at_end(state: VtmState) -> str | None:
    """The fighter whose end-of-turn actions are due (V-INI-7)."""
    if state.phase != "end_of_turn":
        return None
    ranked = state.ranked()
    if state.end_cursor < len(ranked):
        fid = ranked[state.end_cursor]
        if first_of(state.fighters[fid].progress.pending, "end") is not None:
            return fid
    return None


def waiting(state: VtmState) -> list[str]:
    """Delayed fighters past their rank, who may act at any moment (V-INI-5), if still able."""
    return [
        f.id
        for f in state.fighters.values()
        if f.progress.waiting
        and first_of(f.progress.pending, "delayed") is not None
        and not f.out_of_fight
    ]


def next_timing(state: VtmState, fid: str) -> tuple[int, str] | None:
    """The action ``fid`` may take now, if any: (index, timing)."""
    # ``due_at_rank``, ``due_at_end`` and ``waiting`` asked of this one fighter (the tactics
    # ask it of every fighter at every step: the lists of everyone are not built).
    f = state.fighters[fid]
    pending = f.progress.pending
    if (
        state.phase == "resolution"
        and state.cursor < len(state.order)
        and fid in state.order[state.cursor]
    ):
        found = first_of(pending, "rank")
        if found is not None:
            return found
    if fid == due_at_end(state):
        return first_of(pending, "end")
    if f.progress.waiting and not f.out_of_fight:
        return first_of(pending, "delayed")
    return None


def first_of(pending: Sequence[tuple[int, str]], timing: str) -> tuple[int, str] | None:
    """The first of the ``pending`` actions (index, timing) of ``timing``, None when none is
    (a loop: ``any`` or ``next`` over a generator cost more, asked ~400 times a fight)."""
    for p in pending:
        if p[1] == timing:
            return p
    return None


def advance(ctx: Resolution) -> None:
    """Move the resolution on until someone has an action due, or end the turn."""
    state: VtmState = ctx.state
    for fid in waiting(state):
        if state.fighters[fid].conditions.of(Dazed):
            ctx.emit(
                ActionLost(fighter=fid, reason="dazed", rules=("V-DMG-7",))
            )  # the delayed action is lost
    for _ in range(10_000):
        if state.phase == "resolution":
            if state.cursor >= len(state.order):
                ctx.emit(EndOfTurnStarted(rules=("V-INI-7",)))
                continue
            rank = state.order[state.cursor]
            for fid in rank:
                f = state.fighters[fid]
                if f.progress.frozen_penalty is not None:
                    continue  # acting simultaneously: the rank's start decides (V-INI-2)
                if first_of(f.progress.pending, "rank") is not None:
                    if f.out_of_fight:
                        f_lost_rank(ctx, fid)
                    elif f.conditions.of(Dazed):
                        ctx.emit(ActionLost(fighter=fid, reason="dazed", rules=("V-DMG-7",)))
            due = due_at_rank(state)
            if len(due) > 1 and any(state.fighters[d].progress.frozen_penalty is None for d in due):
                ctx.emit(
                    SimultaneousRank(
                        cursor=state.cursor,
                        fighters=tuple(due),
                        penalties=tuple(state.fighters[d].wound_penalty for d in due),
                        rules=("V-INI-2",),
                    )
                )
            if due:
                return
            ctx.emit(RankPassed(cursor=state.cursor, rules=("V-INI-4",)))
        elif state.phase == "end_of_turn":
            ranked = state.ranked()
            if state.end_cursor >= len(ranked):
                for fid in waiting(state):
                    ctx.emit(ActionLost(fighter=fid, reason="delay_unused", rules=("V-INI-5",)))
                for at_end in rules_of(state).of(hooks.at_turn_end):
                    at_end(ctx)
                ctx.emit(TurnEnded(turn=state.turn, rules=("V-GEN-3",)))
                return
            fid = ranked[state.end_cursor]
            f = state.fighters[fid]
            has_end = first_of(f.progress.pending, "end") is not None
            if has_end and f.out_of_fight:
                ctx.emit(ActionLost(fighter=fid, reason="out_of_fight", rules=("V-DMG-5",)))
                continue
            if has_end and f.conditions.of(Dazed):
                ctx.emit(ActionLost(fighter=fid, reason="dazed", rules=("V-DMG-7",)))
                continue
            if has_end:
                return
            ctx.emit(EndCursor(end_cursor=state.end_cursor + 1, rules=("V-INI-7",)))
        else:
            return


def f_lost_rank(ctx: Resolution, fid: str) -> None:
    """Drop every remaining action of a fighter who is out of the fight."""
    f = ctx.state.fighters[fid]
    while any(t != "defence" for _, t in f.progress.pending):
        ctx.emit(ActionLost(fighter=fid, reason="out_of_fight", rules=("V-DMG-5",)))
