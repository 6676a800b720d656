"""The answer of every ruleset's ``attack_odds``: one typed result over ``Dist``.

``AttackOdds`` holds what every attack has (who, the roll, the chance to hit, the
distribution of the damage and of the levels the target loses, its fate) and, as typed
data, the values a ruleset adds (``chances``: more probabilities, such as a botch;
``shares``: a probability per named outcome, such as a hit location; ``words``: a fact
the answer names). ``to_dict`` is ``conteur odds attack --json``'s object, the same for
the CLI, ``conteur.Scenario.attack_odds`` and the tracker's odds drawer.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from conteur.dice import Dist
from conteur.i18n import Msg
from conteur.records import lean


def _json_dist(d: Dist) -> dict[str, float]:
    """Integer outcomes as strings, ascending (the outcomes of positive probability)."""
    return {str(k): p for k, p in d.items()}


@lean
@dataclass(frozen=True, kw_only=True)
class AttackQuery:
    """One attack to price: who attacks whom, with which maneuver (None: the ruleset's
    default) and the attack's options (``params``, as the CLI's ``--param`` gives them)."""

    attacker: str
    target: str
    maneuver: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)


@lean
@dataclass(frozen=True, kw_only=True)
class AttackOdds:
    """The exact odds of one attack against the target's current state."""

    attacker: str
    target: str
    maneuver: str
    pool: int | None = None
    """The dice (or the chance, for a percentile roll) the attack rolls."""
    difficulty: int | str | None = None
    """What each die must reach (``"—"`` when the roll has none)."""
    roll: Msg | None = None
    """How the roll reads, when pool and difficulty do not say it (a d100 skill)."""
    modifiers: tuple[tuple[str, int], ...] = ()
    defence: str | None = None
    p_hit: float
    successes: Dist | None = None
    """The successes that decide the hit (0: a miss), when the roll counts them."""
    damage: Dist
    """The damage rolled (0 for a miss)."""
    levels: Dist
    """What the target loses (health levels, points...; 0 for a miss)."""
    p_incapacitated: float
    """The target ends out of the fight or worse (from a state where it was not)."""
    p_killed: float
    chances: Mapping[str, float] = field(default_factory=dict)
    """The ruleset's own probabilities by name (``p_botch``, ``p_dazed``...)."""
    shares: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    """The ruleset's own distributions over named outcomes (``locations``...)."""
    words: Mapping[str, str] = field(default_factory=dict)
    """The ruleset's own facts by name (``skill``...)."""

    @property
    def expected_levels(self) -> float:
        """Mean of what the target loses."""
        return math.fsum(k * p for k, p in self.levels.items())

    def chance(self, name: str) -> float:
        """One of the ruleset's own probabilities (``KeyError`` if it has none of that name)."""
        return self.chances[name]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (probabilities as floats, integer outcomes as strings)."""
        out: dict[str, Any] = {
            "attacker": self.attacker,
            "target": self.target,
            "maneuver": self.maneuver,
            **self.words,
        }
        if self.pool is not None:
            out["pool"] = self.pool
        if self.difficulty is not None:
            out["difficulty"] = self.difficulty
        if self.roll is not None:
            out["roll"] = {"key": self.roll.key, "params": dict(self.roll.params)}
        out["modifiers"] = [[what, amount] for what, amount in self.modifiers]
        out["defence"] = self.defence
        out["p_hit"] = self.p_hit
        out.update(self.chances)
        if self.successes is not None:
            out["successes"] = _json_dist(self.successes)
        out.update({name: dict(sorted(share.items())) for name, share in self.shares.items()})
        out["damage"] = _json_dist(self.damage)
        out["levels"] = _json_dist(self.levels)
        out["expected_levels"] = self.expected_levels
        out["p_incapacitated"] = self.p_incapacitated
        out["p_killed"] = self.p_killed
        return out


__all__ = ["AttackOdds", "AttackQuery"]
