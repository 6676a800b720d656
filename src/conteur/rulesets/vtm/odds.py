"""Exact odds of one vtm attack, before anyone rolls.

Not a second copy of the rules: the attack's own code runs over every outcome
of its dice (``conteur.dice.explore``). First the dice chain alone
(``strike.roll_strike``: attack → defence → damage → soak), whose equal
outcomes are merged; then, for each distinct outcome, the whole ``attack``
on a copy of the state, so that what follows the dice (health track, armour,
knock-down, grapple...) is played by the same code as in a fight.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from conteur.dice import DiceSource, ForcedDice, explore
from conteur.engine import Resolution

from .attack import attack, draft_attack, multiple_penalty, strike_for
from .defence import ready_defence
from .state import Action, VtmState
from .strike import StrikeOutcome, roll_strike

KILLED = ("dead", "torpor", "final_death")


@dataclass(frozen=True)
class AttackOdds:
    """The exact odds of one attack against the target's current state."""

    attacker: str
    target: str
    maneuver: str
    pool: int
    difficulty: int
    modifiers: tuple[tuple[str, int], ...]
    defence: str | None
    p_hit: float
    p_botch: float
    successes: dict[int, float]
    """Net successes after the defence (0: a miss)."""
    damage: dict[int, float]
    """Damage successes before soak (0 for a miss)."""
    levels: dict[int, float]
    """Health levels the target loses."""
    p_incapacitated: float
    """The target ends incapacitated or worse."""
    p_killed: float
    """The target ends dead, in torpor, or destroyed."""
    p_armour_destroyed: float
    p_knocked_down: float
    p_dazed: float
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def expected_levels(self) -> float:
        """Mean health levels lost."""
        return sum(k * p for k, p in self.levels.items())

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (probabilities as floats, integer keys as strings)."""
        return {
            "attacker": self.attacker,
            "target": self.target,
            "maneuver": self.maneuver,
            "pool": self.pool,
            "difficulty": self.difficulty,
            "modifiers": [[what, amount] for what, amount in self.modifiers],
            "defence": self.defence,
            "p_hit": self.p_hit,
            "p_botch": self.p_botch,
            "successes": {str(k): v for k, v in sorted(self.successes.items())},
            "damage": {str(k): v for k, v in sorted(self.damage.items())},
            "levels": {str(k): v for k, v in sorted(self.levels.items())},
            "expected_levels": self.expected_levels,
            "p_incapacitated": self.p_incapacitated,
            "p_killed": self.p_killed,
            "p_armour_destroyed": self.p_armour_destroyed,
            "p_knocked_down": self.p_knocked_down,
            "p_dazed": self.p_dazed,
        }


def _key(o: StrikeOutcome) -> tuple[Any, ...]:
    return (*o.summary(), o.damage)


def attack_odds(
    state: VtmState, attacker: str, action: Action, *, willpower: bool | None = None
) -> AttackOdds:
    """The exact odds of ``attacker`` carrying out ``action`` now."""
    a = state.fighters[attacker]
    assert action.target is not None
    target = state.fighters[action.target]
    penalty = multiple_penalty(a, action)
    decl = a.progress.declaration
    if willpower is None:
        willpower = bool(decl and decl.willpower and not a.progress.willpower_used)
    draft = draft_attack(state, a, target, action, penalty)
    defence = ready_defence(Resolution(state, ForcedDice(())), draft)
    strike = strike_for(draft, defence, willpower)

    # Stage 1: the dice chain alone, equal outcomes merged.
    groups: dict[tuple[Any, ...], tuple[tuple[int, ...], StrikeOutcome, float]] = {}
    for script, outcome, p in explore(lambda dice: roll_strike(strike, dice)):
        k = _key(outcome)
        if k in groups:
            s0, o0, p0 = groups[k]
            groups[k] = (s0, o0, p0 + p)
        else:
            groups[k] = (script, outcome, p)

    # Stage 2: the whole attack on a copy, for each distinct outcome.
    def finish(dice: DiceSource) -> tuple[str, bool, bool, bool]:
        work = copy.deepcopy(state)
        attack(Resolution(work, dice), work.fighters[attacker], action, penalty, willpower)
        t = work.fighters[target.id]
        return (
            t.fate,
            bool(t.conditions.get("knocked_down")),
            bool(t.conditions.get("dazed")),
            t.armour_destroyed and not target.armour_destroyed,
        )

    successes: dict[int, float] = {}
    damage: dict[int, float] = {}
    levels: dict[int, float] = {}
    totals = {
        "hit": 0.0,
        "botch": 0.0,
        "incap": 0.0,
        "killed": 0.0,
        "armour": 0.0,
        "down": 0.0,
        "dazed": 0.0,
    }
    for script, outcome, p in groups.values():
        successes[outcome.net] = successes.get(outcome.net, 0.0) + p
        damage[outcome.damage] = damage.get(outcome.damage, 0.0) + p
        levels[outcome.levels] = levels.get(outcome.levels, 0.0) + p
        totals["hit"] += p if outcome.hit else 0.0
        totals["botch"] += p if outcome.botch else 0.0
        for _, (fate, down, dazed, broken), q in explore(finish, script, p):
            totals["incap"] += q if fate != "alive" else 0.0
            totals["killed"] += q if fate in KILLED else 0.0
            totals["down"] += q if down else 0.0
            totals["dazed"] += q if dazed else 0.0
            totals["armour"] += q if broken else 0.0
    return AttackOdds(
        attacker=attacker,
        target=target.id,
        maneuver=strike.maneuver,
        pool=strike.pool,
        difficulty=min(10, max(2, strike.difficulty)),
        modifiers=strike.modifiers,
        defence=defence.kind if defence else None,
        p_hit=totals["hit"],
        p_botch=totals["botch"],
        successes=successes,
        damage=damage,
        levels=levels,
        p_incapacitated=totals["incap"],
        p_killed=totals["killed"],
        p_armour_destroyed=totals["armour"],
        p_knocked_down=totals["down"],
        p_dazed=totals["dazed"],
    )


def odds_for_scenario(
    state: VtmState,
    attacker: str,
    target: str,
    maneuver: str | None = None,
    params: Mapping[str, Any] | None = None,
) -> AttackOdds:
    """Odds of ``attacker`` attacking ``target`` with ``maneuver`` (default: its weapon's).

    ``params`` are the action's own (``targeting``, ``location``...) and, as a what-if
    on a copy of the state, ``cover`` (the target's: ``none``, a cover id or 0–3,
    V-RNG-3), ``aim_turns`` (turns the shooter has aimed at the target, V-RNG-1) and
    ``actions`` (how many actions the attacker declared this turn, V-MAN-1).
    """
    a = state.fighters[attacker]
    if maneuver is None:
        maneuver = default_maneuver(state, a)
    rest = dict(params or {})
    size = rest.get("targeting")
    if isinstance(size, str) and size.startswith("target_"):  # a form's choice: target_small
        rest["targeting"] = size.removeprefix("target_")
    what_if: dict[str, Any] = {
        k: rest.pop(k) for k in ("cover", "aim_turns", "actions") if k in rest
    }
    if what_if:
        state = _what_if(state, attacker, target, maneuver, what_if)
    action = Action(maneuver, target, None, tuple(sorted(rest.items())))
    return attack_odds(state, attacker, action)


def default_maneuver(state: VtmState, a: Any) -> str:
    """The attack a fighter makes with the weapon in hand (a punch without one)."""
    from . import equipment

    w = equipment.weapon_in_hand(state, a)
    if w is None:
        return "punch"
    return {"ranged": "shoot", "thrown": "throw"}.get(str(w.category), "weapon_strike")


def _what_if(
    state: VtmState, attacker: str, target: str, maneuver: str, what_if: Mapping[str, Any]
) -> VtmState:
    """A copy of the state with the target's cover, the aim or the declared actions set."""
    from . import equipment
    from .ruleset import scenario_cover
    from .state import Declaration

    state = copy.deepcopy(state)
    a, t = state.fighters[attacker], state.fighters[target]
    if "cover" in what_if:
        cover = what_if["cover"]
        if isinstance(cover, str):  # a form's choice: cover_good
            cover = cover.removeprefix("cover_")
        t.cover = 0 if cover in (None, "none") else scenario_cover(cover, equipment.tables(state))
    if "aim_turns" in what_if:
        turns = int(what_if["aim_turns"] or 0)
        a.conditions.pop("aim", None)
        w = equipment.weapon_in_hand(state, a)
        if turns > 0 and w is not None:
            a.conditions["aim"] = {
                "target": target,
                "weapon": w.id,
                "turns": turns,
                "since": state.turn - turns,
                "last": state.turn - 1,
                "scope": False,
            }
    if "actions" in what_if:
        n = max(1, int(what_if["actions"] or 1))
        decl = a.progress.declaration or Declaration()
        actions = (Action(maneuver, target),) * n
        a.progress.declaration = dataclasses.replace(decl, actions=actions, celerity=0)
        a.progress.acted = 0
    return state
