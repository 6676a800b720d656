"""Simulated western fights: a referee that runs rounds, and tactics (nearest, weakest, flee).

The referee opens each round (``round``) and asks the side of the fighter due
(the order of combat, W-SPD-2) for its command; every command goes through
``Encounter.execute`` and the real rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conteur.engine import Command
from conteur.engine.geometry import distance
from conteur.i18n import ConteurError
from conteur.sim.referee import Bout, EscapeReferee
from conteur.sim.tactics import PlainTactic, TacticFactory

from .combat import may_take
from .shooting import weapon_in
from .state import Fighter, WesternState

ROUND = Command("round")
ACTION_OF = {"attack": "shoot", "reload": "reload", "run": "run"}
"""The round's simple action each command spends (W-RND-1)."""


def foes(state: WesternState, f: Fighter) -> list[Fighter]:
    return [o for o in state.fighters.values() if o.side != f.side and o.standing]


def in_reach(state: WesternState, f: Fighter, hand: str, target: Fighter) -> bool:
    w = weapon_in(state, f, hand)
    reach = max(w.range, state.tables.close_reach) if w.kind in ("melee", "fists") else w.range
    return distance(f.position, target.position) <= reach


class WesternTactic(PlainTactic):
    """Shoot at a chosen adversary in reach; reload when empty; run toward one out of reach."""

    def choose(self, state: WesternState, f: Fighter, among: list[Fighter]) -> Fighter:
        return min(among, key=lambda o: distance(f.position, o.position))

    def act(self, state: Any, fighter: Any) -> Command:
        assert isinstance(state, WesternState)
        f: Fighter = fighter
        due = state.due()
        hand = due[1] if due else "main"
        wanted = self.wanted(state, f, hand)
        action = ACTION_OF.get(wanted.type)
        if action is not None and not may_take(state, f, action):
            return Command("pass", f.id)  # one simple action a round (W-RND-1)
        return wanted

    def wanted(self, state: WesternState, f: Fighter, hand: str) -> Command:
        """What the fighter would do with this shot's turn, the round's action aside."""
        if self.fleeing(state, f):
            return Command("run", f.id)
        if hand in f.ammo and f.ammo[hand] <= 0:
            return Command("reload", f.id)
        among = foes(state, f)
        if not among:
            return Command("pass", f.id)
        reachable = [o for o in among if in_reach(state, f, hand, o)]
        if not reachable:
            return Command("run", f.id, {"toward": True})
        return Command("attack", f.id, {"target": self.choose(state, f, reachable).id})


class Nearest(WesternTactic):
    """Shoot the nearest adversary in reach."""


class Weakest(WesternTactic):
    """Shoot the adversary in reach with the fewest PV left."""

    def choose(self, state: WesternState, f: Fighter, among: list[Fighter]) -> Fighter:
        return min(among, key=lambda o: (o.pv, distance(f.position, o.position)))


class Flee(WesternTactic):
    """Fight like ``nearest``; run away at half PV or less (option ``at``: the fraction)."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self.at = float(self.options.get("at", 0.5))

    def fleeing(self, state: Any, fighter: Any) -> bool:
        f: Fighter = fighter
        return f.pv <= f.pv_max * self.at


class WesternReferee(EscapeReferee):
    """Runs a western encounter round by round with the sides' tactics."""

    max_steps = 20_000

    def run(self, bout: Bout) -> None:
        encounter, dice, tactics = bout.encounter, bout.dice, bout.tactics
        for _ in range(self.max_steps):
            state: WesternState = encounter.state
            if self.decided(state, bout):
                return
            due = state.due()
            if due is None:
                if state.turn >= bout.max_turns:
                    return
                encounter.execute(ROUND, dice)
                continue
            f = state.fighters[due[0]]
            encounter.execute(tactics[f.side].act(state, f), dice)
        raise ConteurError("sim.stuck", turn=encounter.state.turn, phase=encounter.state.phase)

    def standing(self, state: WesternState, bout: Bout) -> dict[str, list[str]]:
        """Fighters still in the fight by side: standing, and not fled."""
        return self.able_standing(state, bout)

    def able(self, state: WesternState) -> list[Fighter]:
        return [f for f in state.fighters.values() if f.standing]

    def fate(self, state: WesternState, f: Fighter, bout: Bout) -> str:
        """``referee.FATES``: out of the fight and unconscious are *incapacitated*."""
        if f.fate == "dead":
            return "dead"
        if f.fate in ("out", "unconscious"):
            return "incapacitated"
        enemies = [o for o in state.fighters.values() if o.side != f.side and o.standing]
        return "fled" if self.fled(state, f, enemies, bout) else "alive"


REFEREE = WesternReferee()
"""The referee of this ruleset's simulated fights (``Ruleset.referee()``)."""

TACTICS: dict[str, TacticFactory] = {
    "nearest": Nearest,
    "weakest": Weakest,
    "flee": Flee,
}
"""This ruleset's tactics by name (``Ruleset.tactics()``)."""
