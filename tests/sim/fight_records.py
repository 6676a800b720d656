"""Seeded simulated fights, recorded: how each ended and a digest of its whole log.

``tests/sim/fight_records.json`` was written from the engine that still deep-copied
the state before every command: first from ``main`` at d090bb0, where the "fights
without copies" work started, then — each time ``main`` was merged into that work —
from ``main`` at c85bdba and at 5fbbdd4 (its rules had changed the fights meanwhile;
each time the work gave the same 670 fights as the ``main`` it was measured against):

    PYTHONPATH=OLD/src .venv/bin/python benchmarks/fight_records.py --write   # from older code
    .venv/bin/python benchmarks/fight_records.py             # check every recorded fight

``test_fight_records.py`` checks the first fights of each configuration; run this
module to check all of them. A fight is run exactly as ``conteur simulate`` runs
run ``index`` of a simulation (``conteur.sim.encounters``: the same job, the same
seed of the run), and recorded as its ``FightRecord`` plus the SHA-256 of its log
(every command, event and dice record) and of what each fighter carries out of it:
equal records mean the same fight, roll for roll.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

from conteur.dice import SeededDice
from conteur.engine import Encounter
from conteur.engine.scenario import load_scenario
from conteur.sim import encounters
from conteur.sim.encounters import DEFAULT_ESCAPE, DEFAULT_MAX_TURNS, Job, prepare, run_seed
from conteur.sim.tactics import side_tactics

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).with_name("fight_records.json")

CONFIGS: list[tuple[str, str, dict[str, str], int]] = [
    # name, scenario (from the repository's root), tactic overrides, fights recorded
    ("vtm 4v4", "examples/simulation/4v4_1899.yaml", {}, 200),
    (
        "vtm 4v4 cover/weakest",
        "examples/simulation/4v4_1899.yaml",
        {"chasseurs": "cover", "vampires": "weakest"},
        30,
    ),
    (
        "vtm 4v4 aim/dodge",
        "examples/simulation/4v4_1899.yaml",
        {"chasseurs": "aim", "vampires": "dodge"},
        30,
    ),
    ("vtm 4v4 flee/nearest", "examples/simulation/4v4_1899.yaml", {"chasseurs": "flee"}, 30),
    ("vtm fusillade", "examples/fusillade.yaml", {}, 30),
    ("vtm saloon", "examples/saloon.yaml", {}, 30),
    ("vtm vampires", "examples/vampires.yaml", {}, 30),
    ("vtm house_ranged", "examples/house_ranged.yaml", {}, 30),
    ("hunter cellule", "examples/hunter/cellule.yaml", {}, 100),
    (
        "hunter cellule dodge/flee",
        "examples/hunter/cellule.yaml",
        {"cellule": "dodge", "bete": "flee"},
        30,
    ),
    ("western saloon", "examples/western/saloon.yaml", {}, 100),
    ("western duel", "examples/western/duel.yaml", {}, 30),
    ("western guard flee", "examples/western/guard.yaml", {}, 30),
]
SEED = 1899


def job_of(path: str, tactics: dict[str, str], seed: int = SEED) -> Job:
    """The job ``conteur simulate <path> --seed <seed> --tactic ...`` would fight."""
    data, base = load_scenario(ROOT / path)
    start = Encounter.start(data, base, keep_history=False)
    from conteur.sim.referee import get_referee

    referee = get_referee(start.ruleset.name)
    sides = referee.sides(start.state)
    chosen = side_tactics(data, sides, tactics)
    settings = data.get("simulation") or {}
    turns = int(settings.get("max_turns", DEFAULT_MAX_TURNS))
    metres = float(settings.get("escape", 0) or 0)
    if metres <= 0:
        # The referee knows how far apart its fighters stand (before ec5aa65: the simulator).
        farthest = getattr(referee, "farthest_enemies", None) or encounters.farthest_enemies  # type: ignore[attr-defined]
        metres = max(DEFAULT_ESCAPE, farthest(start.state) + 20.0)
    return Job(data, str(base), chosen, turns, metres, seed)


def fought(job: Job, index: int) -> tuple[Any, Encounter]:
    """Run ``index`` of ``job``, as the simulator fights it: its record and its encounter."""
    fight = getattr(encounters, "fight_encounter", None)
    if fight is not None:
        record, encounter = fight(job, index)
        return record, encounter
    # The simulator before fight_encounter existed (its fight_one, inline).
    prep = prepare(job)
    start = prep.encounter
    encounter = Encounter(
        start.ruleset, start.scenario, copy.deepcopy(start.state), keep_history=False
    )
    dice = SeededDice(run_seed(job.seed, index))
    record = prep.referee.fight(encounter, dice, prep.tactics, job.max_turns, job.escape)
    return record, encounter


def digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def record_of(job: Job, index: int) -> dict[str, Any]:
    """How run ``index`` ended, with digests of its log and its end state."""
    record, encounter = fought(job, index)
    return {
        "winner": record.winner,
        "rounds": record.rounds,
        "fates": list(record.fates),
        "timeout": record.timeout,
        "error": record.error,
        "commands": len(encounter.log),
        "log": digest(encounter.log_dicts()),
        "end": digest(encounter.end_state()),
    }


def records(name: str, fights: int) -> list[dict[str, Any]]:
    """The first ``fights`` records of configuration ``name``."""
    _, path, tactics, _ = next(c for c in CONFIGS if c[0] == name)
    job = job_of(path, tactics)
    return [record_of(job, i) for i in range(fights)]


def load() -> dict[str, list[dict[str, Any]]]:
    data: dict[str, list[dict[str, Any]]] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data
