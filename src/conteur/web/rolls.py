"""Rolls at the table: an action that needs the table's dice asks for them one roll at a time.

The action waits in the store (``Store.begin_pending``: its command and the faces entered so
far, per roll), not in the engine's state and not in the log. Each step re-runs the command
as a dry run (``next_roll``) with the faces so far: the roll it still needs is asked; when
none is, the command runs for real with ``TableDice(rolls)`` and the waiting row goes, in the
same transaction (``Store.commit_pending``). Nothing reaches the log before the last roll.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass

from conteur.dice.table import RollNeeded, TableDice
from conteur.engine.commands import Command
from conteur.engine.plan import next_roll
from conteur.i18n import ConteurError, Lang, t
from conteur.store import Store
from conteur.store.service import PendingInfo

MAX_FACES = 200
"""The most faces one roll may be given at once."""


@dataclass
class RollsView:
    """The waiting action as ``_rolls.html`` shows it (to the GM, or to the player asked)."""

    version: str
    """Changes whenever what the pad shows changes (the page polls with it)."""
    stale: bool = False
    title: str = ""
    """The roll asked, named and counted (« Jet d'attaque de Jack : 6 dés, difficulté 6 »)."""
    action: str = ""
    count: int = 0
    sides: int = 10
    so_far: tuple[int, ...] = ()
    number: int = 1
    """The roll's rank in the action (1 for the first)."""
    wave: int = 0
    step: int = 0
    waiting_for: str | None = None
    """The player whose phone the roll is asked on (GM's view), or None."""
    line: str = ""
    """The pool's parts, its total and its difficulty (« Dextérité 3 + Bagarre 3 = 6 dés… »)."""
    what: str = ""
    """What the roll is for, in a sentence (« attaque de Jack »)."""


NONE_VERSION = "none"


def view_of(
    store: Store,
    eid: int,
    lang: Lang,
    *,
    player_input: bool,
    players: Mapping[str, int],
    me: str | None = None,
    gm: bool = True,
) -> RollsView | None:
    """What the pad shows now: None when no action waits (or, for a player, when the roll
    asked is not theirs to roll: an NPC's, a hidden one, another player's)."""
    pending = store.pending(eid)
    if pending is None:
        return None
    if pending.stale:
        return RollsView(version=f"{pending.step}:stale", stale=True) if gm else None
    need = _need(store, eid, pending)
    if need is None:  # can run as it stands (no roll left): the next submit commits it
        if not gm:
            return None
        return RollsView(version=f"{pending.step}:ready", step=pending.step, count=0)
    ask = need.ask
    who = ask.who if ask is not None else None
    playable = player_input and who is not None and who in players and not ask.hidden  # type: ignore[union-attr]
    if not gm and (not playable or who != me):
        return None
    names = store.read_encounter(eid, lambda enc: enc.ruleset.names(enc.state))
    actor = names.get(pending.command.actor or "", "")
    return RollsView(
        version=f"{pending.step}:{need.index}:{len(need.faces_so_far)}",
        title=ask.title(lang) if ask is not None else need.message(lang),
        line=ask.describe(lang) if ask is not None else "",
        what=ask.what.describe(lang) if ask is not None else need.message(lang),
        action=t("web.rolls.action", lang, actor=actor)
        if actor
        else t("web.rolls.action.gm", lang),
        count=need.count,
        sides=need.sides,
        so_far=need.faces_so_far,
        number=need.index + 1,
        wave=need.wave,
        step=pending.step,
        waiting_for=names.get(who or "", who) if playable and gm else None,
    )


def _need(store: Store, eid: int, pending: PendingInfo) -> RollNeeded | None:
    return _next(store, eid, pending.command, [list(r) for r in pending.rolls])


def _next(store: Store, eid: int, command: Command, rolls: list[list[int]]) -> RollNeeded | None:
    """``next_roll`` under the store's lock: a command of another request changes the live
    state in place, and the dry run starts from a copy of it."""
    return store.read_encounter(eid, lambda enc: next_roll(enc, command, rolls))


def begin(store: Store, eid: int, command: Command) -> bool:
    """Start ``command`` with the table's dice; True when it ran at once (it rolls nothing)."""
    need = _next(store, eid, command, [])  # an illegal command is refused here, nothing kept
    if need is None:
        store.execute(eid, command, TableDice([]), all_dice_used=True)
        return True
    store.begin_pending(eid, command)
    return False


def parse_pad(raw: str, sides: int) -> list[int]:
    """The faces a pad sent ("8 3 10", "0" = 10 on a d10, "00" = 100 on a d100)."""
    tokens = raw.replace(",", " ").split()
    if len(tokens) > MAX_FACES:
        raise ConteurError("web.rolls.too_many", count=len(tokens), needed=MAX_FACES)
    faces = []
    for token in tokens:
        if not token.isdigit() or len(token) > 4:
            raise ConteurError("web.rolls.bad_face", face=token, sides=sides)
        face = int(token)
        if face == 0 and sides in (10, 100):
            face = sides
        if not 1 <= face <= sides:
            raise ConteurError("web.rolls.bad_face", face=token, sides=sides)
        faces.append(face)
    return faces


def enter(store: Store, eid: int, raw: str | None, *, step: int, who: str | None = None) -> bool:
    """Enter the faces of the roll asked now (``raw``; None: the program rolls them); True
    when that was the action's last roll and it was committed. ``who``: the player entering
    them (refused unless the roll asked is theirs)."""
    pending = store.pending(eid)
    if pending is None:
        raise ConteurError("store.pending.none")
    if pending.stale:
        store.drop_pending(eid)
        raise ConteurError("store.pending.stale")
    if pending.step != step:
        raise ConteurError("store.pending.moved")
    rolls = [list(r) for r in pending.rolls]
    need = _need(store, eid, pending)
    if need is not None:
        if who is not None and (need.ask is None or need.ask.who != who or need.ask.hidden):
            raise ConteurError("web.rolls.not_yours")
        if raw is None:
            draw = secrets.SystemRandom()
            faces = [draw.randint(1, need.sides) for _ in range(need.count)]
        else:
            faces = parse_pad(raw, need.sides)
            if len(faces) < need.count:
                raise ConteurError("web.rolls.too_few", count=len(faces), needed=need.count)
            if len(faces) > need.count:
                raise ConteurError("web.rolls.too_many", count=len(faces), needed=need.count)
        while len(rolls) <= need.index:
            rolls.append([])
        rolls[need.index] = [*need.faces_so_far, *faces]
        if _next(store, eid, pending.command, rolls) is not None:
            store.update_pending(eid, rolls, step=step)
            return False
    elif who is not None:
        raise ConteurError("web.rolls.not_yours")
    store.commit_pending(eid, TableDice(rolls), step=step)
    return True


def cancel(store: Store, eid: int) -> bool:
    """Drop the waiting action (nothing was logged); whether there was one."""
    return store.drop_pending(eid)
