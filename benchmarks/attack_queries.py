"""Distinct attack-odds queries for the benchmark and its test (vtm, generated).

Each query is a fresh encounter of two fighters built from a scenario dict:
attacker pools 1..12 (Dexterity + Firearms, Brawl or Melee), difficulties
3..10 (range, cover, aim...), weapons of damage 1..10, soak 0..8 (Stamina,
Fortitude, armour), no defence / dodge / parry, and the target's health track
already marked. Every query is different (the generator drops repeats).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from conteur.engine import Encounter
from conteur.rulesets.vtm.state import VtmState

RANGED = ["light_revolver", "heavy_revolver", "light_pistol", "heavy_pistol", "rifle", "shotgun"]
MELEE = ["knife", "club", "sword", "axe", "staff", "sap"]
ARMOUR = [None, None, None, "reinforced_clothing", "leather_coat", "kevlar_vest", "flak_jacket"]
MARKS = ["bashing", "lethal", "aggravated"]


@dataclass(frozen=True)
class Query:
    """One attack to price: a scenario, the state to price it in, who attacks whom."""

    key: tuple[Any, ...]
    scenario: dict[str, Any]
    defence: str | None
    marks: tuple[str, ...]
    maneuver: str

    def state(self) -> VtmState:
        """A fresh starting state, the target's defence ready and its track marked."""
        state = Encounter.start(self.scenario).state
        assert isinstance(state, VtmState)
        t = state.fighters["t"]
        for mark in self.marks:
            t.health.take(1, mark)  # type: ignore[arg-type]
        if self.defence is not None:
            t.progress.ready_defence = self.defence
            t.progress.ready_via = "delayed"
        return state


def query(rng: random.Random) -> Query:
    """One random attack (the key says what makes it distinct)."""
    style = rng.choice(["ranged", "ranged", "melee", "brawl"])
    dex = rng.randint(1, 5)
    skill = rng.randint(0, 7)
    a: dict[str, Any] = {"id": "a", "side": "x", "dexterity": dex, "strength": rng.randint(1, 5)}
    if skill > 5:  # a mortal has at most 5 dots (the sheet refuses more): a supernatural one
        a["kind"] = "supernatural"
    t: dict[str, Any] = {
        "id": "t",
        "side": "y",
        "stamina": rng.randint(1, 5),
        "dexterity": rng.randint(1, 4),
        "dodge": rng.randint(0, 4),
        "melee": rng.randint(0, 3),
        "brawl": rng.randint(0, 3),
    }
    if rng.random() < 0.35:
        t["kind"] = "vampire"
        t["fortitude"] = rng.randint(0, 3)
    armour = rng.choice(ARMOUR)
    if armour:
        t["armour"] = armour
    if style == "ranged":
        a["firearms"] = skill
        a["weapons"] = [rng.choice(RANGED)]
        maneuver = "shoot"
        distance = rng.choice([2, 4, 8, 12])
        t["cover"] = rng.choice([0, 0, 1, 2])
        defence = rng.choice([None, "dodge"])
    else:
        if style == "melee":
            a["melee"] = skill
            a["weapons"] = [rng.choice(MELEE)]
            maneuver = "weapon_strike"
        else:
            a["brawl"] = skill
            maneuver = rng.choice(["punch", "kick"])
        distance = 1
        defence = rng.choice([None, "dodge", "parry", "block"])
        if defence == "parry":
            t["weapons"] = [rng.choice(MELEE)]
    a["position"] = [0, 0]
    t["position"] = [distance, 0]
    marks = tuple(rng.choice(MARKS) for _ in range(rng.choice([0, 0, 1, 2, 3, 5])))
    scenario = {"ruleset": "vtm", "era": "modern", "combatants": [a, t]}
    key = (repr(sorted(a.items())), repr(sorted(t.items())), defence, marks, maneuver)
    return Query(key, scenario, defence, marks, maneuver)


def distinct_queries(n: int, seed: int = 8) -> list[Query]:
    """``n`` different queries (no two with the same key)."""
    rng = random.Random(seed)
    seen: set[tuple[Any, ...]] = set()
    out: list[Query] = []
    while len(out) < n:
        q = query(rng)
        if q.key not in seen:
            seen.add(q.key)
            out.append(q)
    return out
