"""Monte Carlo of whole encounters: the same scenario fought many times with the real engine.

``simulate(scenario, runs, seed=, workers=, tactics=, max_turns=)`` fights the
scenario ``runs`` times to the end — one side left with a fighter in the
fight, none, or the turn limit — each time through ``Encounter.execute`` and
the ruleset's own rules, driven by the sides' tactics (``tactics.py``) and the
ruleset's referee (``referee.py``). Lean: ``keep_history=False`` (no snapshots of
the state for undo), no text is rendered.

Reproducible whatever the parallelism: run *i* rolls with ``SeededDice``
seeded from the i-th child of ``numpy.random.SeedSequence(seed)`` (the one
``SeedSequence(seed).spawn(runs)[i]`` gives, computed on its own); runs are
cut into chunks, fought in this process, in a ``multiprocessing`` pool
(``workers``) or on a Dask cluster (``dask``), and the chunks' tallies —
integer counts — are added up. Same seed, same result, however it was run.

The result gives each side's win rate with its 95 % Wilson interval, the
draws, the turns fought, and the casualties by side and by fighter
(incapacitated: out of the fight by wounds, killed included; killed: dead
or Final Death; fled).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, TypedDict, Unpack

import pydantic.main  # noqa: F401  (mypyc loads BaseModel, a base class, from there)
from pydantic import BaseModel, ConfigDict, Field

from conteur.dice import SeededDice
from conteur.engine import Encounter
from conteur.engine.inputs import TOP, Count, InputError, Key, check_keys, short, validate
from conteur.engine.scenario import load_scenario
from conteur.engine.scratch import scratch_copier
from conteur.i18n import ConteurError, Msg

from .referee import DOWN, FATES, KILLED, FightRecord, Referee, get_referee
from .tactics import Tactic, make_tactic, side_tactics

Z95 = 1.959963984540054
"""The 97.5th percentile of the standard normal: a two-sided 95 % interval."""

DEFAULT_MAX_TURNS = 20
DEFAULT_ESCAPE = 50.0
"""Metres from every enemy beyond which a fighter has left the fight (fled)."""

DASK_CONNECT_TIMEOUT = 10.0
"""Seconds to wait for a Dask scheduler before giving up."""

Progress = Callable[[int], None]
"""Called with 0 once the arguments are checked and the fights begin, then with the number
of runs each chunk finished (to drive a progress bar)."""


# ------------------------------------------------------------------ statistics


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default); (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return lo, hi


def run_seed(seed: int, index: int) -> int:
    """The seed of run ``index``: the state of ``SeedSequence(seed).spawn(...)[index]``.

    ``SeedSequence(seed, spawn_key=(index,))`` is that very child, computed
    without spawning the others, so any worker can seed any run.
    """
    import numpy as np

    child = np.random.SeedSequence(seed, spawn_key=(index,))
    return int.from_bytes(child.generate_state(4, np.uint32).tobytes(), "little")


# ------------------------------------------------------------------ tallies


@dataclass
class Tally:
    """Integer counts over some runs; tallies of disjoint runs add up (``merge``)."""

    sides: list[str]
    fighters: int
    runs: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    timeouts: int = 0
    errors: int = 0
    first_error: tuple[int, str] | None = None
    rounds: dict[int, int] = field(default_factory=dict)
    fates: list[dict[str, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for side in self.sides:
            self.wins.setdefault(side, 0)
        while len(self.fates) < self.fighters:
            self.fates.append({fate: 0 for fate in FATES})

    def add(self, index: int, record: FightRecord) -> None:
        """Count run ``index``."""
        self.runs += 1
        if record.winner is not None:
            self.wins[record.winner] = self.wins.get(record.winner, 0) + 1
        else:
            self.draws += 1
        if record.timeout:
            self.timeouts += 1
        if record.error is not None:
            self.errors += 1
            if self.first_error is None or index < self.first_error[0]:
                self.first_error = (index, record.error)
        self.rounds[record.rounds] = self.rounds.get(record.rounds, 0) + 1
        for counts, fate in zip(self.fates, record.fates, strict=True):
            counts[fate] = counts.get(fate, 0) + 1

    def merge(self, other: Tally) -> None:
        """Add ``other``'s counts (runs disjoint from this tally's)."""
        self.runs += other.runs
        for side, n in other.wins.items():
            self.wins[side] = self.wins.get(side, 0) + n
        self.draws += other.draws
        self.timeouts += other.timeouts
        self.errors += other.errors
        if other.first_error is not None and (
            self.first_error is None or other.first_error[0] < self.first_error[0]
        ):
            self.first_error = other.first_error
        for rounds, n in other.rounds.items():
            self.rounds[rounds] = self.rounds.get(rounds, 0) + n
        for mine, theirs in zip(self.fates, other.fates, strict=True):
            for fate, n in theirs.items():
                mine[fate] = mine.get(fate, 0) + n


# ------------------------------------------------------------------ the job


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to fight runs of one simulation (picklable)."""

    scenario: dict[str, Any]
    base_dir: str | None
    tactics: dict[str, tuple[str, dict[str, Any]]]
    max_turns: int
    escape: float
    seed: int

    @cached_property
    def key(self) -> str:
        """Identifies the job, so a worker prepares it once for all its chunks (computed once
        per job: every fight asks it)."""
        text = json.dumps(
            [self.scenario, self.base_dir, self.tactics, self.max_turns, self.escape],
            sort_keys=True,
            default=str,
        )
        return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Prepared:
    """A job made ready in one process: the starting state, the tactics, the referee."""

    encounter: Encounter
    referee: Referee
    tactics: dict[str, Tactic]
    sides: list[str]
    fighters: list[tuple[str, str, str]]
    fresh: Callable[[], Any] = field(default=lambda: None, repr=False)
    """A fresh copy of the starting state at each call (``scratch_copier``: the start is
    studied once, then each run's copy is a few C-level copies)."""


_PREPARED: dict[str, Prepared] = {}


SETTING_KEYS = (
    Key("max_turns", "tours_max", "max_turns"),
    Key("escape", "fuite", "escape"),
)


class Settings(BaseModel):
    """A scenario's ``simulation:`` settings, checked (an unknown key: the nearest one)."""

    model_config = ConfigDict(extra="forbid")

    max_turns: Count = DEFAULT_MAX_TURNS
    escape: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 0.0


def simulation_settings(raw: Any, file: str) -> Settings:
    """The ``simulation:`` mapping of a scenario (absent: the defaults); ``InputError``
    naming the key otherwise."""
    where = Key("simulation", "simulation", "simulation")
    if raw is None:
        return Settings()
    if not isinstance(raw, Mapping):
        raise InputError(
            Msg("input.reason.not_mapping", value=short(raw)), file=file, entry=TOP, field=where
        )
    keys = check_keys(raw, SETTING_KEYS, entry=where, file=file)
    return validate(Settings, keys, known=SETTING_KEYS, entry=where, file=file)


def prepare(job: Job) -> Prepared:
    """The job's starting encounter (scenario read and checked once), tactics and referee."""
    key = job.key
    found = _PREPARED.get(key)
    if found is not None:
        return found
    base = Path(job.base_dir) if job.base_dir else None
    encounter = Encounter.start(job.scenario, base, keep_history=False)
    referee = get_referee(encounter.ruleset.name)
    tactics = {
        side: make_tactic(encounter.ruleset.name, name, options)
        for side, (name, options) in job.tactics.items()
    }
    prepared = Prepared(
        encounter,
        referee,
        tactics,
        referee.sides(encounter.state),
        referee.fighters(encounter.state),
        scratch_copier(encounter.origin),
    )
    _PREPARED.clear()
    _PREPARED[key] = prepared
    return prepared


def fight_encounter(job: Job, index: int) -> tuple[FightRecord, Encounter]:
    """Fight run ``index`` of the job to its end: how it ended, and the encounter fought."""
    prep = prepare(job)
    start = prep.encounter
    # Each run plays on its own copy of the prepared start; its refolds (after a refused
    # command) start from that start itself, which nothing changes.
    encounter = Encounter(
        start.ruleset,
        start.scenario,
        prep.fresh(),
        keep_history=False,
        base_dir=start.base_dir,
        origin=start.origin,
    )
    dice = SeededDice(run_seed(job.seed, index))
    record = prep.referee.fight(encounter, dice, prep.tactics, job.max_turns, job.escape)
    return record, encounter


def fight_one(job: Job, index: int) -> FightRecord:
    """Fight run ``index`` of the job to its end."""
    return fight_encounter(job, index)[0]


def run_chunk(job: Job, start: int, stop: int) -> Tally:
    """Fight runs ``start`` to ``stop - 1`` and tally them."""
    prep = prepare(job)
    tally = Tally(list(prep.sides), len(prep.fighters))
    for index in range(start, stop):
        tally.add(index, fight_one(job, index))
    return tally


def _run_task(task: tuple[int, tuple[Job, int, int]]) -> tuple[int, Tally]:
    index, (job, start, stop) = task
    return index, run_chunk(job, start, stop)


def chunks(runs: int, size: int) -> list[tuple[int, int]]:
    """``[start, stop)`` ranges covering ``runs`` runs, ``size`` at a time."""
    return [(start, min(runs, start + size)) for start in range(0, runs, size)]


# ------------------------------------------------------------------ the result


class RunReport:
    """A result that says how it was run: ``to_dict`` is ``outcome_dict`` and a ``run`` block
    (workers, backend, time taken, fights per second)."""

    workers: int
    backend: str
    elapsed: float

    @property
    def fights_per_second(self) -> float:
        raise NotImplementedError

    def outcome_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready result, with how it was run (workers, backend, time taken)."""
        out = self.outcome_dict()
        out["run"] = {
            "workers": self.workers,
            "backend": self.backend,
            "elapsed_s": round(self.elapsed, 3),
            "fights_per_second": round(self.fights_per_second, 1),
        }
        return out


@dataclass(frozen=True)
class Planned:
    """What a simulation fights, as its plan holds it and its result reports it: the
    scenario's name, its ruleset, each side's tactic, the sides and the fighters
    ``(id, side, name)``."""

    scenario: str
    ruleset: str
    tactics: dict[str, str]
    sides: list[str]
    fighters: list[tuple[str, str, str]]


@dataclass(frozen=True)
class SimulationResult(Planned, RunReport):
    """What ``simulate`` found: outcomes, turns and casualties over every run."""

    seed: int
    max_turns: int
    escape: float
    tally: Tally
    workers: int = 1
    backend: str = "local"
    elapsed: float = 0.0

    @property
    def runs(self) -> int:
        return self.tally.runs

    def win_rate(self, side: str) -> float:
        return self.tally.wins.get(side, 0) / self.runs if self.runs else 0.0

    def win_interval(self, side: str) -> tuple[float, float]:
        return wilson(self.tally.wins.get(side, 0), self.runs)

    def draw_rate(self) -> float:
        return self.tally.draws / self.runs if self.runs else 0.0

    def rounds_mean(self) -> float:
        total = sum(r * n for r, n in self.tally.rounds.items())
        return total / self.runs if self.runs else 0.0

    def rounds_median(self) -> int:
        half, seen = (self.runs + 1) // 2, 0
        for r in sorted(self.tally.rounds):
            seen += self.tally.rounds[r]
            if seen >= half:
                return r
        return 0

    def fighter_rate(self, index: int, fates: Iterable[str]) -> float:
        counts = self.tally.fates[index]
        return sum(counts.get(f, 0) for f in fates) / self.runs if self.runs else 0.0

    def side_mean(self, side: str, fates: Iterable[str]) -> float:
        """Mean number of the side's fighters ending in one of ``fates``, per run."""
        wanted = tuple(fates)
        return sum(
            self.fighter_rate(i, wanted) for i, (_, s, _) in enumerate(self.fighters) if s == side
        )

    @property
    def fights_per_second(self) -> float:
        return self.runs / self.elapsed if self.elapsed > 0 else 0.0

    def outcome_dict(self) -> dict[str, Any]:
        """The JSON-ready result without how it was run (equal for equal seeds)."""
        runs = self.runs
        sides = {}
        for side in self.sides:
            lo, hi = self.win_interval(side)
            sides[side] = {
                "tactic": self.tactics.get(side, ""),
                "wins": self.tally.wins.get(side, 0),
                "win_rate": self.win_rate(side),
                "ci95": [lo, hi],
                "fighters": sum(1 for _, s, _ in self.fighters if s == side),
                "incapacitated_mean": self.side_mean(side, DOWN),
                "killed_mean": self.side_mean(side, KILLED),
                "fled_mean": self.side_mean(side, ("fled",)),
            }
        lo, hi = wilson(self.tally.draws, runs)
        fighters = {}
        for i, (fid, side, name) in enumerate(self.fighters):
            fighters[fid] = {
                "side": side,
                "name": name,
                "incapacitated": self.fighter_rate(i, DOWN),
                "killed": self.fighter_rate(i, KILLED),
                "fled": self.fighter_rate(i, ("fled",)),
                "fates": {f: self.tally.fates[i].get(f, 0) for f in FATES},
            }
        rounds = self.tally.rounds
        return {
            "scenario": self.scenario,
            "ruleset": self.ruleset,
            "runs": runs,
            "seed": self.seed,
            "max_turns": self.max_turns,
            "escape_m": self.escape,
            "sides": sides,
            "draws": {
                "count": self.tally.draws,
                "rate": self.draw_rate(),
                "ci95": [lo, hi],
                "timeouts": self.tally.timeouts,
            },
            "rounds": {
                "mean": self.rounds_mean(),
                "median": self.rounds_median(),
                "min": min(rounds) if rounds else 0,
                "max": max(rounds) if rounds else 0,
                "distribution": {str(r): rounds[r] for r in sorted(rounds)},
            },
            "fighters": fighters,
            "errors": {
                "count": self.tally.errors,
                "first": None
                if self.tally.first_error is None
                else {"run": self.tally.first_error[0], "message": self.tally.first_error[1]},
            },
        }


# ------------------------------------------------------------------ simulate


@dataclass(frozen=True)
class Plan(Planned):
    """A simulation checked and ready to fight: what it fights, its job, its chunks."""

    job: Job
    runs: int

    def tasks(self, workers: int, chunk_size: int | None = None) -> list[tuple[Job, int, int]]:
        """The chunks of runs to fight, ``(job, start, stop)``."""
        size = chunk_size or max(1, min(100, math.ceil(self.runs / (4 * workers))))
        return [(self.job, a, b) for a, b in chunks(self.runs, size)]

    def result(self, tally: Tally, workers: int, backend: str, elapsed: float) -> SimulationResult:
        """What the fights of this plan found, once ``tally`` holds them all."""
        return SimulationResult(
            scenario=self.scenario,
            ruleset=self.ruleset,
            tactics=dict(self.tactics),
            sides=list(self.sides),
            fighters=list(self.fighters),
            seed=self.job.seed,
            max_turns=self.job.max_turns,
            escape=self.job.escape,
            tally=tally,
            workers=workers,
            backend=backend,
            elapsed=elapsed,
        )


def fresh_seed() -> int:
    """A master seed for a run given none (reported in its result, to reproduce it)."""
    import random

    return random.SystemRandom().randrange(1, 1_000_000)


def plan_simulation(
    data: Mapping[str, Any],
    runs: int,
    seed: int,
    tactics: Mapping[str, str] | None = None,
    max_turns: int | None = None,
    *,
    name: str = "<scenario>",
    base_dir: Path | str | None = None,
    escape: float | None = None,
) -> Plan:
    """Check the scenario ``data`` and the arguments (ConteurError naming what is wrong)
    and make the plan of its simulation: nothing is fought yet."""
    if runs < 1:
        raise ConteurError("sim.runs", value=runs)
    start = Encounter.start(
        data, Path(base_dir) if base_dir else None, keep_history=False, source=name
    )
    data = dict(start.scenario)  # its keys canonical (``check_scenario``)
    settings = simulation_settings(data.get("simulation"), name)
    turns = int(max_turns if max_turns is not None else settings.max_turns)
    if turns < 1:
        raise ConteurError("sim.max_turns", value=turns)
    ruleset = start.ruleset.name
    referee = get_referee(ruleset)
    sides = referee.sides(start.state)
    if len(sides) < 2:
        raise ConteurError("sim.one_side", sides=", ".join(sides) or "—")
    chosen = side_tactics(data, sides, tactics)
    for tactic, options in chosen.values():
        make_tactic(ruleset, tactic, options)  # refuse a bad name or option now, in this process
    metres = float(escape if escape is not None else settings.escape)
    if metres <= 0:
        metres = max(DEFAULT_ESCAPE, referee.farthest_enemies(start.state) + 20.0)
    job = Job(
        scenario=dict(data),
        base_dir=str(base_dir) if base_dir else None,
        tactics=chosen,
        max_turns=turns,
        escape=metres,
        seed=int(seed),
    )
    return Plan(
        scenario=name,
        ruleset=ruleset,
        tactics={side: tactic for side, (tactic, _) in chosen.items()},
        sides=list(sides),
        fighters=referee.fighters(start.state),
        job=job,
        runs=runs,
    )


class SimulateOptions(TypedDict, total=False):
    """``simulate``'s arguments after ``runs``, every one optional (``sweep`` takes them too).

    ``seed``: the master seed (None: a fresh one, reported in the result); ``workers``:
    processes fighting in parallel on this machine (default 1); ``tactics``: ``{side:
    tactic name}`` overriding the scenario's ``sides``; ``max_turns``: the turn limit (else
    the scenario's ``simulation.max_turns``, else 20); ``base_dir``: the folder of the
    scenario's files (default: the scenario file's); ``escape``: metres from every enemy
    beyond which a fighter has fled (else ``simulation.escape``, else 50 m, or 20 m beyond
    the farthest two enemies start apart if that is more); ``dask``: the address of a Dask
    scheduler (or a ``distributed.Client``) to fight on instead of local processes;
    ``progress``: called with 0 when the fights begin, then with the runs finished, chunk
    by chunk; ``chunk_size``: the runs a worker fights at a time (default: about a quarter
    of each worker's share, at most 100)."""

    seed: int | None
    workers: int
    tactics: Mapping[str, str] | None
    max_turns: int | None
    base_dir: Path | str | None
    escape: float | None
    dask: str | Any | None
    progress: Progress | None
    chunk_size: int | None


@dataclass(frozen=True)
class Simulation:
    """A scenario read and its ``SimulateOptions`` checked: it plans the scenario (or a
    variant of it, for ``sweep``) and fights the plans."""

    data: dict[str, Any]
    name: str
    base_dir: Path | str | None
    runs: int
    seed: int
    options: SimulateOptions

    @classmethod
    def read(
        cls, scenario: Mapping[str, Any] | str | Path, runs: int, options: SimulateOptions
    ) -> Simulation:
        """Read ``scenario`` (a mapping or a YAML/JSON file) and check the workers and the
        runs (ConteurError naming what is wrong); the master seed is drawn if not given."""
        data, name, base_dir = read_scenario(scenario, options.get("base_dir"))
        workers = options.get("workers", 1)
        if workers < 1:
            raise ConteurError("sim.workers", value=workers)
        if runs < 1:
            raise ConteurError("sim.runs", value=runs)
        seed = options.get("seed")
        return cls(data, name, base_dir, runs, fresh_seed() if seed is None else int(seed), options)

    def plan(self, data: Mapping[str, Any]) -> Plan:
        """The checked plan of ``data``: the scenario read, or a variant of it."""
        return plan_simulation(
            data,
            self.runs,
            self.seed,
            self.options.get("tactics"),
            self.options.get("max_turns"),
            name=self.name,
            base_dir=self.base_dir,
            escape=self.options.get("escape"),
        )

    @property
    def workers(self) -> int:
        """The processes fighting on this machine (default 1)."""
        return self.options.get("workers", 1)

    @property
    def backend(self) -> str:
        """Where the fights are fought: ``dask`` or ``local``."""
        return "dask" if self.options.get("dask") is not None else "local"

    def fight(self, plans: Sequence[Plan]) -> tuple[list[SimulationResult], float]:
        """Fight ``plans`` together (``fight_plans``): each plan's result, in order, and the
        seconds the fights took."""
        tallies, elapsed = fight_plans(
            plans,
            self.workers,
            self.options.get("dask"),
            self.options.get("progress"),
            self.options.get("chunk_size"),
        )
        results = [
            plan.result(tally, self.workers, self.backend, elapsed)
            for plan, tally in zip(plans, tallies, strict=True)
        ]
        return results, elapsed


def simulate(
    scenario: Mapping[str, Any] | str | Path, runs: int, **options: Unpack[SimulateOptions]
) -> SimulationResult:
    """Fight ``scenario`` (a mapping, as ``Encounter.start`` takes, or a YAML/JSON file)
    ``runs`` times to the end and tally the outcomes; ``options``: ``SimulateOptions``."""
    simulation = Simulation.read(scenario, runs, options)
    (result,), _ = simulation.fight([simulation.plan(simulation.data)])
    return result


def fight_plans(
    plans: Sequence[Plan],
    workers: int,
    dask: str | Any | None = None,
    progress: Progress | None = None,
    chunk_size: int | None = None,
) -> tuple[list[Tally], float]:
    """Fight the chunks of every plan together (``fight_tasks``); each plan's tally, in
    order, and the seconds the fights took. ``progress`` is called with 0 first, then with
    the runs each chunk finished."""
    tasks: list[tuple[Job, int, int]] = []
    owner: list[int] = []
    for i, plan in enumerate(plans):
        mine = plan.tasks(workers, chunk_size)
        tasks.extend(mine)
        owner.extend([i] * len(mine))
    tallies = [Tally(list(p.sides), len(p.fighters)) for p in plans]
    if progress is not None:
        progress(0)  # everything checked: the fights begin
    began = time.perf_counter()
    for index, tally in fight_tasks(tasks, workers, dask):
        tallies[owner[index]].merge(tally)
        if progress is not None:
            progress(tally.runs)
    return tallies, time.perf_counter() - began


def read_scenario(
    scenario: Mapping[str, Any] | str | Path, base_dir: Path | str | None = None
) -> tuple[dict[str, Any], str, Path | str | None]:
    """The scenario's data, the name it is reported under and the folder of its files."""
    if isinstance(scenario, str | Path):
        data, base = load_scenario(scenario)
        return dict(data), str(scenario), base_dir or base
    return dict(scenario), "<scenario>", base_dir


def fight_tasks(
    tasks: list[tuple[Job, int, int]], workers: int, dask: str | Any | None = None
) -> Iterator[tuple[int, Tally]]:
    """Fight the chunks ``tasks``, here (one worker), in a pool of ``workers`` processes or on
    a Dask cluster; each chunk's tally with its index in ``tasks``, as the chunks finish."""
    if dask is not None:
        return run_on_dask(dask, tasks)
    if workers == 1:
        return ((i, run_chunk(*task)) for i, task in enumerate(tasks))
    return run_in_pool(workers, tasks)


def run_in_pool(workers: int, tasks: list[tuple[Job, int, int]]) -> Iterator[tuple[int, Tally]]:
    """The chunks' tallies (with their indices) from a pool of ``workers`` processes, as they
    finish."""
    import multiprocessing

    with multiprocessing.get_context().Pool(min(workers, len(tasks) or 1)) as pool:
        yield from pool.imap_unordered(_run_task, list(enumerate(tasks)))


def run_on_dask(
    address: str | Any, tasks: list[tuple[Job, int, int]]
) -> Iterator[tuple[int, Tally]]:
    """The chunks' tallies (with their indices) from a Dask cluster (``address`` of its
    scheduler, or a Client), as they finish; each job is sent to the workers once."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ConteurError("sim.dask.missing") from None
    own = not isinstance(address, Client)
    client: Any
    try:
        client = (
            Client(address, timeout=DASK_CONNECT_TIMEOUT)  # type: ignore[no-untyped-call]
            if own
            else address
        )
    except (OSError, TimeoutError, ValueError) as exc:
        raise ConteurError("sim.dask.unreachable", address=str(address), reason=str(exc)) from None
    try:
        shared: dict[str, Any] = {}
        futures = {}
        for index, (job, a, b) in enumerate(tasks):
            if job.key not in shared:
                shared[job.key] = client.scatter(job, broadcast=True)
            futures[client.submit(run_chunk, shared[job.key], a, b, pure=False)] = index
        for future in as_completed(list(futures)):  # type: ignore[no-untyped-call]
            yield futures[future], future.result()
    finally:
        if own:
            client.close()


def default_workers() -> int:
    """The processes to use by default: one per CPU this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


__all__ = [
    "Job",
    "Plan",
    "Planned",
    "RunReport",
    "SimulateOptions",
    "Simulation",
    "SimulationResult",
    "Tally",
    "chunks",
    "default_workers",
    "fight_encounter",
    "fight_one",
    "fight_plans",
    "fight_tasks",
    "fresh_seed",
    "plan_simulation",
    "read_scenario",
    "run_chunk",
    "run_seed",
    "simulate",
    "wilson",
]
