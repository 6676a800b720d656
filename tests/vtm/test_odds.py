"""Exact odds of an attack are the attack's own code run over distributions.

Checked against brute force over every face, and against a Monte Carlo run of
the real engine with seeded dice.
"""

from __future__ import annotations

import copy
import math
from collections import Counter

from conteur.dice import SeededDice, TypedDice
from conteur.engine import Resolution
from conteur.engine.odds import AttackQuery
from conteur.i18n import ConteurError
from conteur.rulesets.vtm.attack import attack
from conteur.rulesets.vtm.odds import odds_for_scenario
from conteur.rulesets.vtm.state import Action, VtmState

from .fight import Fight

SMALL = """
combatants:
  - {id: a, side: x, position: [0, 0], dexterity: 1, strength: 1}
  - {id: t, side: y, position: [1, 0], stamina: 1, kind: vampire}
"""


def levels_after(state: VtmState, faces: list[int]) -> int:
    """Play the punch with these faces on a copy; the target's filled boxes."""
    work = copy.deepcopy(state)
    dice = TypedDice(faces)
    attack(Resolution(work, dice), work.fighters["a"], Action("punch", "t"))
    dice.check_all_used()
    return work.fighters["t"].health.filled


def brute_force(state: VtmState) -> dict[int, float]:
    """Every face sequence the attack can consume, each with probability 10^-n."""
    out: Counter[int] = Counter()
    stack: list[list[int]] = [[]]
    while stack:
        faces = stack.pop()
        try:
            out[levels_after(state, faces)] += 10.0 ** -len(faces)
        except ConteurError as err:
            if err.key != "dice.too_few":
                raise
            stack.extend([*faces, f] for f in range(1, 11))
    return dict(out)


def test_V_DMG_1_attack_odds_equal_brute_force_over_every_face() -> None:
    """V-DMG-1, V-SOAK-3, V-DMG-6: exact odds of a punch equal the enumeration of every face."""
    f = Fight(SMALL)
    odds = odds_for_scenario(f.state, AttackQuery(attacker="a", target="t", maneuver="punch"))
    expected = brute_force(f.state)
    for k in set(expected) | set(odds.levels.to_dict()):
        assert math.isclose(odds.levels.prob(k), expected.get(k, 0.0), abs_tol=1e-12), k
    assert math.isclose(odds.levels.total(), 1.0, abs_tol=1e-12)


def test_V_ATK_5_attack_odds_match_a_monte_carlo_of_the_engine() -> None:
    """V-ATK-5, V-DMG-2, V-SOAK-1: a shot's level distribution, exact vs 4,000 seeded attacks.

    Each outcome's frequency must lie within 4.5 standard errors of its exact
    probability (false alarm about 7e-6 per outcome).
    """
    f = Fight("""
combatants:
  - {id: a, side: x, position: [0, 0], dexterity: 3, firearms: 2, weapons: [heavy_revolver]}
  - {id: t, side: y, position: [8, 0], kind: vampire, stamina: 2, fortitude: 1}
""")
    odds = odds_for_scenario(f.state, AttackQuery(attacker="a", target="t", maneuver="shoot"))
    dice = SeededDice(20261129)
    runs = 4_000
    seen: Counter[int] = Counter()
    for _ in range(runs):
        work = copy.deepcopy(f.state)
        attack(Resolution(work, dice), work.fighters["a"], Action("shoot", "t"))
        seen[work.fighters["t"].health.filled] += 1
    for k, p in odds.levels.items():
        se = math.sqrt(p * (1 - p) / runs)
        assert abs(seen[k] / runs - p) <= 4.5 * se + 1e-9, (k, seen[k] / runs, p)
    assert odds.p_hit == sum(p for k, p in odds.successes.items() if k > 0)
