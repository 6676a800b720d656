"""Simulated Hunter fights: a referee and tactics (nearest, weakest, dodge, flee).

Hunter fights have no positions: "nearest" is the enemy a fighter is
grappling with, else the first enemy still standing in the scenario's order.
A fleeing fighter (``flee``) spends its action getting away; from then on the
referee counts it as gone (fate ``fled``) and the tactics stop targeting it.
Every command goes through ``Encounter.execute`` and the real rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conteur.engine import Command
from conteur.i18n import ConteurError
from conteur.sim.referee import Bout, EscapeReferee
from conteur.sim.tactics import PlainTactic, TacticFactory

from .state import Fighter, HunterState
from .turn import due

ATTACKS = frozenset({"attack", "throw", "burst", "grapple"})


class HunterTactic(PlainTactic):
    """Attack the chosen enemy with what is in hand; reload an empty gun; fight a hold."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self.gone: set[str] = set()
        """Fighters that have fled (kept up to date by the referee)."""

    def foes(self, state: HunterState, f: Fighter) -> list[Fighter]:
        return [
            o
            for o in state.fighters.values()
            if o.side != f.side and o.able and o.id not in self.gone
        ]

    def target(self, state: HunterState, f: Fighter, among: list[Fighter]) -> Fighter:
        """Nearest: the one it grapples with, else the first enemy standing."""
        for o in among:
            if o.id in (f.holding, f.held_by):
                return o
        return among[0]

    def act(self, state: HunterState, f: Fighter) -> Command:
        if f.held_by or f.immobilised:
            return Command("act", f.id, {"kind": "escape"})
        among = self.foes(state, f)
        if not among:
            return Command("pass", f.id)
        if f.holding and f.holding in {o.id for o in among}:
            return Command("act", f.id, {"kind": "overpower", "option": "damage"})
        target = self.target(state, f, among)
        w = state.weapon_of(f)
        if w is not None and w.category == "firearm":
            if f.ammo.get(w.id, 0) < (3 if w.autofire else 1):
                return Command("act", f.id, {"kind": "reload"})
            if w.autofire:
                return Command(
                    "act", f.id, {"kind": "burst", "burst": "short", "targets": [target.id]}
                )
        return Command("act", f.id, {"kind": "attack", "target": target.id})


class Nearest(HunterTactic):
    """Attack the enemy it grapples with, else the first enemy standing."""


class Weakest(HunterTactic):
    """Attack the enemy with the fewest health boxes left."""

    def target(self, state: HunterState, f: Fighter, among: list[Fighter]) -> Fighter:
        return min(among, key=lambda o: o.health.size - o.health.filled)


class Dodge(HunterTactic):
    """Like nearest, but once hurt, dodge when attacked before acting (H-DODGE-1)."""

    def react(self, state: HunterState, fighter: Fighter) -> Command | None:
        hurt = fighter.health.filled > 0 or bool(self.options.get("always"))
        ready = not fighter.acted and fighter.initiative is not None
        if hurt and ready and not fighter.immobilised:
            return Command("dodge", fighter.id)
        return None


class Flee(HunterTactic):
    """Like nearest, but run away once wounded to the last three boxes (option ``at``)."""

    def fleeing(self, state: HunterState, fighter: Fighter) -> bool:
        return fighter.health.penalty <= -int(self.options.get("at", 1))

    def act(self, state: HunterState, f: Fighter) -> Command:
        if self.fleeing(state, f):
            if f.held_by or f.immobilised:
                return Command("act", f.id, {"kind": "escape"})
            return Command("pass", f.id)
        return super().act(state, f)


class HunterReferee(EscapeReferee):
    """Runs a hunter encounter turn by turn with the sides' tactics. A fleeing fighter
    leaves the fight by passing (``Bout.gone``), at any distance."""

    max_steps = 5_000

    def run(self, bout: Bout) -> None:
        for tactic in bout.tactics.values():
            if isinstance(tactic, HunterTactic):
                tactic.gone = bout.gone
        encounter, dice, tactics, gone = bout.encounter, bout.dice, bout.tactics, bout.gone
        for _ in range(self.max_steps):
            state: HunterState = encounter.state
            if len(self.standing(state, bout)) < 2:
                return
            now = due(state)
            if now is None:
                if state.turn >= bout.max_turns:
                    return
                encounter.execute(Command("initiative"), dice)
                continue
            f = state.fighters[now]
            tactic = tactics[f.side]
            if now in gone:
                encounter.execute(Command("pass", now), dice)
                continue
            cmd = tactic.act(state, f)
            if cmd.type == "act" and cmd.get("kind") in ATTACKS:
                self.before_attack(bout, cmd)
            encounter.execute(cmd, dice)
            if cmd.type == "pass" and tactic.fleeing(encounter.state, f):
                gone.add(now)
        raise ConteurError("sim.stuck", turn=encounter.state.turn, phase=encounter.state.phase)

    def before_attack(self, bout: Bout, cmd: Command) -> None:
        """Each target of the attack about to be made may react (a dodge)."""
        state: HunterState = bout.encounter.state
        targets = cmd.get("targets") or [cmd.get("target")]
        for tid in targets:
            t = state.fighters.get(str(tid))
            if t is None or not t.able:
                continue
            reaction = bout.tactics[t.side].react(bout.encounter.state, t)
            if reaction is not None:
                bout.encounter.execute(reaction, bout.dice)

    def standing(self, state: HunterState, bout: Bout) -> dict[str, list[str]]:
        """Fighters still in the fight by side: able, and not gone."""
        out: dict[str, list[str]] = {}
        for f in state.fighters.values():
            if f.able and f.id not in bout.gone:
                out.setdefault(f.side, []).append(f.id)
        return out

    def fate(self, state: HunterState, f: Fighter, bout: Bout) -> str:
        """``referee.FATES``: dead, incapacitated (not able), fled (gone) or alive."""
        if f.fate == "dead":
            return "dead"
        if not f.able:
            return "incapacitated"
        return "fled" if f.id in bout.gone else "alive"


REFEREE = HunterReferee()
"""The referee of this ruleset's simulated fights (``Ruleset.referee()``)."""

TACTICS: dict[str, TacticFactory] = {
    "nearest": Nearest,
    "weakest": Weakest,
    "dodge": Dodge,
    "flee": Flee,
}
"""This ruleset's tactics by name (``Ruleset.tactics()``)."""

__all__ = [
    "REFEREE",
    "TACTICS",
    "Dodge",
    "Flee",
    "HunterReferee",
    "HunterTactic",
    "Nearest",
    "Weakest",
]
