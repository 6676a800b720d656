"""Random distinct hunter attack-odds queries (seeded), for the odds benchmark and tests.

Each query is a small hunter fight (built by the real sheet code, ``Encounter.start``)
then set as a fight leaves it: wounds already marked (bashing near the last box, so
that damage ties into the roll to stay conscious), Defense already used, dodges, aim,
cover, holds and human shields; and one attack of ``a`` at ``t`` with its parameters:
a plain attack (unarmed, melee, shoot), a throw, a burst (at one target or several),
a grab, with ranges, all-out, off hand, the people to avoid and an ally into close
combat (H-MEL-1).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from conteur.engine import Encounter
from conteur.rulesets.hunter.health import HealthTrack
from conteur.rulesets.hunter.state import HunterState

MELEE = ("sap", "club", "knife", "rapier", "sword", "torch", "stake", "great_axe")
FIREARMS = ("light_revolver", "heavy_pistol", "shotgun", "rifle")
AUTOFIRE = ("small_smg", "large_smg", "assault_rifle")
THROWN = ("stone", "throwing_knife", "molotov", "javelin")
ARMOUR = (None, None, "reinforced_clothing", "kevlar_vest", "flak_jacket", "riot_gear")
COVERS = ("none", "none", "none", "barely", "partial", "substantial", "full")
OTHERS = ("o1", "o2", "o3")


@dataclass(frozen=True)
class Query:
    """One attack to price: the fight as set, the attack's kind and parameters."""

    scenario: dict[str, Any]
    marks: dict[str, tuple[int, ...]]
    tweaks: dict[str, dict[str, Any]]
    kind: str
    params: dict[str, Any]

    def state(self) -> HunterState:
        """A fresh state of the query's fight, set as the query says."""
        state = Encounter.start(self.scenario).state
        assert isinstance(state, HunterState)
        for fid, boxes in self.marks.items():
            f = state.fighters[fid]
            f.health = HealthTrack(list(boxes))
            f.fate = f.health.fate() if f.fate == "alive" else f.fate
        for fid, fields in self.tweaks.items():
            for name, value in fields.items():
                setattr(state.fighters[fid], name, value)
        return state


def _fighter(rng: random.Random, fid: str, kind: str) -> dict[str, Any]:
    traits = {
        t: rng.randint(1, 4)
        for t in ("strength", "dexterity", "stamina", "wits", "composure", "brawl")
    }
    traits |= {t: rng.randint(0, 4) for t in ("weaponry", "firearms", "athletics")}
    out: dict[str, Any] = {"id": fid, "side": "hunters" if fid == "a" else "prey", **traits}
    out["kind"] = rng.choice(("hunter", "monster", "bystander"))
    weapons = {
        "attack": rng.choice((None, *MELEE, *FIREARMS)),
        "burst": rng.choice(AUTOFIRE),
        "throw": rng.choice(THROWN + MELEE[:3]),
        "grapple": rng.choice((None, *MELEE[:2])),
    }[kind]
    if weapons:
        out["weapon"] = weapons
        out["weapons"] = [weapons]
    armour = rng.choice(ARMOUR)
    if armour:
        out["armour"] = armour
    if rng.random() < 0.3:
        out["vulnerable"] = ["fire"]
    if rng.random() < 0.3:
        out["unarmed"] = rng.choice(("lethal", "aggravated"))
    out["position"] = [rng.randint(0, 60), rng.randint(0, 30)]
    return out


def _marks(rng: random.Random, size: int) -> tuple[int, ...]:
    """A track already hurt: mostly bashing a box or two short of the last (H-HLT-1)."""
    left = rng.choice((0, 1, 1, 2, 2, 3, size))
    filled = max(0, size - left)
    boxes = [rng.choice((1, 1, 1, 2, 3)) if i < filled else 0 for i in range(size)]
    return tuple(sorted(boxes, reverse=True))


def one_query(rng: random.Random, extra_targets: int = 2) -> Query:
    """One random query; a burst at up to ``extra_targets`` more targets than ``t``."""
    kind = rng.choice(("attack", "attack", "attack", "throw", "burst", "burst", "grapple"))
    others = OTHERS[: rng.randint(1, 3)]
    combatants = [_fighter(rng, fid, kind) for fid in ("a", "t", *others)]
    for c in combatants[1:]:
        if c.get("weapon") in AUTOFIRE:
            c.pop("weapon"), c.pop("weapons")
    options = {
        "no_defense_vs_firearms": rng.random() < 0.2,
        "autofire_penalty": rng.choice(("text", "core")),
        "long_burst_max_targets": rng.choice((0, 0, 2)),
    }
    scenario = {"ruleset": "hunter", "combatants": combatants, "options": options}
    state = Encounter.start(scenario).state
    marks = {
        fid: _marks(rng, state.fighters[fid].health.size)
        for fid in ("t", *others)
        if rng.random() < 0.6
    }
    tweaks: dict[str, dict[str, Any]] = {fid: {} for fid in ("a", "t", *others)}
    for fid in ("t", *others):
        f = tweaks[fid]
        f["attacks_received"] = rng.choice((0, 0, 1, 2))
        f["dodging"] = rng.random() < 0.25
        f["cover"] = rng.choice(COVERS)
        if rng.random() < 0.1:
            f["fate"] = "unconscious"
    if rng.random() < 0.2:
        tweaks["a"]["aim"], tweaks["a"]["aim_target"] = rng.randint(1, 3), "t"
    if rng.random() < 0.1:
        tweaks["a"]["cover"] = "full"
    # Holds (H-GRP-1..3): pairs among everyone, a human shield sometimes.
    ids = ["a", "t", *others]
    rng.shuffle(ids)
    for holder, held in zip(ids[::2], ids[1::2], strict=False):
        if rng.random() < 0.35:
            tweaks[holder] |= {"holding": held}
            tweaks[held] |= {"held_by": holder, "immobilised": rng.random() < 0.3}
            if rng.random() < 0.5:
                tweaks[holder]["shield"] = held
    params: dict[str, Any] = {}
    if kind != "grapple":
        params["range"] = rng.choice(("short", "short", "medium", "long"))
        params["all_out"] = rng.random() < 0.2
        params["off_hand"] = rng.random() < 0.1
        params["leave_cover"] = True
        if rng.random() < 0.3:
            params["ally"] = rng.choice((*others, *others, "t"))
        if kind != "burst" and rng.random() < 0.2:
            params["avoid"] = rng.randint(1, 2)
            params["avoid_grappling"] = rng.random() < 0.5
    if kind == "throw":
        params["far"] = rng.random() < 0.2
        params["athletics_dodge"] = rng.random() < 0.3
        params["range"] = "short"
    if kind == "burst":
        burst = rng.choice(("short", "medium", "medium", "long"))
        params["burst"] = burst
        many = [*others][: rng.randint(0, extra_targets)] if burst != "short" else []
        targets = ["t", *many]
        rng.shuffle(targets)
        params["targets"] = targets
    return Query(scenario, marks, tweaks, kind, params)


def distinct_queries(n: int, seed: int = 17, extra_targets: int = 2) -> list[Query]:
    """``n`` random queries (seeded); bursts at up to ``extra_targets`` more targets."""
    rng = random.Random(seed)
    return [one_query(rng, extra_targets) for _ in range(n)]
