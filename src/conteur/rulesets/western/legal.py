"""What each fighter and the Storyteller may do now, built by the checks the commands run.

One legality (python-chess's move generator serves both "the legal moves" and "is this
move legal"): the ``attack`` template offers the targets ``draft_shot`` — the very code
that fixes every number of a shot — accepts from where the shooter stands (in range or
reach, a cartridge in the gun, not dead); a shot, a reload or a run only while it is the
round's one simple action (``may_take``, W-RND-1); ``reload`` only when ``reload_refusal``
has nothing against it; ``knockout`` offers the victims and objects ``knockout_refusal``
allows. What a template cannot rule out parameter by parameter — a zone aimed at on a
target with no hit locations — it states in its ``refusals``.
"""

from __future__ import annotations

from conteur.engine import CommandTemplate, Param
from conteur.engine.commands import SETTLE_TIE
from conteur.engine.joining import WITHDRAW
from conteur.i18n import ConteurError

from .combat import may_take, reload_refusal
from .joining import tied_now
from .knockout import knockout_refusal
from .shooting import draft_shot
from .state import Fighter, WesternState


def shot_refusal(state: WesternState, f: Fighter, target: str, hand: str) -> str | None:
    """The key of what ``draft_shot`` refuses for ``f`` shooting ``target`` with ``hand``
    now, aiming at no zone (None: the shot can be fired)."""
    try:
        draft_shot(state, f.id, target, hand)
    except ConteurError as error:
        return error.key
    return None


def legal_commands(state: WesternState, actor: str | None = None) -> list[CommandTemplate]:
    """The Storyteller's commands (``actor`` None), and each fighter's (or ``actor``'s)."""
    out: list[CommandTemplate] = []
    if actor is None:
        out += gm_commands(state)
    for f in state.fighters.values():
        if actor is None or f.id == actor:
            out += fighter_commands(state, f)
    return out


def gm_commands(state: WesternState) -> list[CommandTemplate]:
    """A new round, a surprise, a victim tied up, a fighter placed, the duel's winner."""
    fighters = state.fighters
    alive = tuple(f.id for f in fighters.values() if f.fate != "dead")
    out: list[CommandTemplate] = []
    if state.phase != "round":
        out.append(CommandTemplate("round", None, (), "W-RND-1"))
    out.append(
        CommandTemplate(
            "surprise",
            None,
            (
                Param("target", "choice", alive),
                Param("surprise", "choice", ("sudden", "attacked")),
            ),
            "W-RND-2",
            dice=False,
        )
    )
    out.append(
        CommandTemplate("bind", None, (Param("target", "choice", alive),), "W-KO-5", dice=False)
    )
    out.append(  # the battle map's place command (``.battlemap``): the shots read positions
        CommandTemplate(
            "gm_place",
            None,
            (Param("fighter", "choice", tuple(fighters)), Param("to", "position")),
            "W-RNG-1",
            dice=False,
        )
    )
    standing = tuple(f.id for f in fighters.values() if f.standing)
    if standing:
        out.append(
            CommandTemplate(
                WITHDRAW, None, (Param("fighter", "choice", standing),), "W-SPD-2", dice=False
            )
        )
    tied = tied_now(state)
    if tied:
        out.append(
            CommandTemplate(
                SETTLE_TIE, None, (Param("first", "choice", tied),), "W-SPD-2", dice=False
            )
        )
    sides = tuple(dict.fromkeys(f.side for f in fighters.values()))
    if not state.duel_judged:
        out.append(
            CommandTemplate(
                "duel_won",
                None,
                (Param("side", "choice", sides), Param("witness", "bool", required=False)),
                "W-REP-1",
                dice=False,
            )
        )
    return out


def fighter_commands(state: WesternState, f: Fighter) -> list[CommandTemplate]:
    """Its shot or blow when due (W-SPD-2), and what it may do outside the order of combat."""
    out: list[CommandTemplate] = []
    others = tuple(x.id for x in state.fighters.values() if x.fate != "dead" and x.id != f.id)
    due = state.due()
    if due is not None and due[0] == f.id:
        hand = due[1]
        targets = tuple(t for t in others if shot_refusal(state, f, t, hand) is None)
        if targets and may_take(state, f, "shoot"):
            zones = tuple(loc.id for loc in state.tables.locations)
            no_zones = any(not state.fighters[t].human for t in targets)
            out.append(
                CommandTemplate(
                    "attack",
                    f.id,
                    (
                        Param("target", "choice", targets),
                        Param("zone", "choice", zones, required=False),
                        Param("modifier", "int", min=-100, max=100, required=False, default=0),
                    ),
                    "W-SEQ-1",
                    refusals=frozenset({"western.no_zones"} if no_zones else ()),
                )
            )
        out.append(CommandTemplate("pass", f.id, (), "W-SPD-2"))
        if may_take(state, f, "run"):
            out.append(
                CommandTemplate(
                    "run",
                    f.id,
                    (
                        Param("metres", "int", min=1, max=20, required=False, default=8),
                        Param("toward", "bool", required=False),
                    ),
                    "W-RND-1",
                    dice=False,
                )
            )
        if may_take(state, f, "reload") and reload_refusal(state, f, hand) is None:
            out.append(CommandTemplate("reload", f.id, (), "W-RND-1"))
    if f.standing and others:
        out.append(
            CommandTemplate(
                "approach",
                f.id,
                (
                    Param("target", "choice", others),
                    Param("modifiers", "text", required=False),
                ),
                "W-KO-1",
            )
        )
        heavy = tuple(
            dict.fromkeys(
                w
                for w in f.weapons + ([f.off_hand] if f.off_hand else [])
                if state.tables.weapon(w).heavy
            )
        )
        victims = tuple(
            t
            for t in others
            if heavy and knockout_refusal(state, f, state.fighters[t], heavy[0]) is None
        )
        if victims:
            out.append(
                CommandTemplate(
                    "knockout",
                    f.id,
                    (Param("target", "choice", victims), Param("weapon", "choice", heavy)),
                    "W-KO-3",
                )
            )
    return out
