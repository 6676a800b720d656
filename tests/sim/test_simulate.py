"""Monte Carlo of whole encounters (issue 8 item 2): reproducibility, statistics, outcomes."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from conteur.i18n import ConteurError
from conteur.sim.encounters import Job, Tally, chunks, run_chunk, run_seed, simulate, wilson
from conteur.sim.referee import FightRecord
from conteur.sim.tactics import side_tactics, tactic_names

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "simulation" / "4v4_1899.yaml"

LOPSIDED = """
ruleset: vtm
era: "1899"
combatants:
  - {id: elder, side: kindred, position: [0, 0], kind: vampire, strength: 4, dexterity: 4,
     stamina: 4, wits: 3, brawl: 4, dodge: 3, potence: 2, fortitude: 3, celerity: 2,
     powers: [feral_claws], blood: 20}
  - {id: childe, side: kindred, position: [0, 2], kind: vampire, strength: 3, dexterity: 3,
     stamina: 3, wits: 3, brawl: 3, fortitude: 2, powers: [feral_claws]}
  - {id: tom, side: mob, position: [3, 0], strength: 2, dexterity: 2, stamina: 2, brawl: 1}
  - {id: dick, side: mob, position: [3, 2], strength: 2, dexterity: 2, stamina: 2, brawl: 1}
"""


def lopsided() -> dict[str, Any]:
    data = yaml.safe_load(LOPSIDED)
    assert isinstance(data, dict)
    return data


# ------------------------------------------------------------------ seeds and statistics


def test_run_seed_is_the_spawned_child_of_the_master_seed() -> None:
    children = np.random.SeedSequence(1899).spawn(5)
    for i, child in enumerate(children):
        expected = int.from_bytes(child.generate_state(4, np.uint32).tobytes(), "little")
        assert run_seed(1899, i) == expected
    assert len({run_seed(1899, i) for i in range(100)}) == 100


@pytest.mark.parametrize(
    ("k", "n", "lo", "hi"),
    [
        (5, 10, 0.236593090, 0.763406910),  # the textbook p = 1/2 case
        (0, 10, 0.0, 0.277532799),
        (10, 10, 0.722467201, 1.0),
    ],
)
def test_wilson_interval(k: int, n: int, lo: float, hi: float) -> None:
    got = wilson(k, n)
    assert got == pytest.approx((lo, hi), abs=1e-6)


def test_wilson_interval_by_its_definition() -> None:
    """The bounds are the two proportions p0 where |p̂ − p0| = z·sqrt(p0(1 − p0)/n)."""
    for k, n in ((3, 17), (40, 50), (1, 1000)):
        p = k / n
        for bound in wilson(k, n):
            z = 1.959963984540054
            assert abs(p - bound) == pytest.approx(z * math.sqrt(bound * (1 - bound) / n))
    assert wilson(0, 0) == (0.0, 1.0)


def test_chunks_cover_every_run_once() -> None:
    assert chunks(10, 4) == [(0, 4), (4, 8), (8, 10)]
    assert chunks(3, 100) == [(0, 3)]


def test_tallies_of_chunks_add_up_to_the_tally_of_all_runs() -> None:
    data = lopsided()
    job = Job(data, None, side_tactics(data, ["kindred", "mob"]), 10, 50.0, 7)
    whole = run_chunk(job, 0, 6)
    parts = run_chunk(job, 4, 6)
    parts.merge(run_chunk(job, 0, 4))
    assert parts == whole
    assert whole.runs == 6 and sum(whole.wins.values()) + whole.draws == 6


def test_first_error_is_the_earliest_run_whatever_the_merge_order() -> None:
    a, b = Tally(["x", "y"], 1), Tally(["x", "y"], 1)
    a.add(7, FightRecord(None, 1, ("alive",), error="late"))
    b.add(2, FightRecord(None, 1, ("alive",), error="early"))
    a.merge(b)
    assert a.first_error == (2, "early") and a.errors == 2 and a.draws == 2


# ------------------------------------------------------------------ reproducibility


def test_same_seed_same_result_whatever_the_workers_and_chunks() -> None:
    one = simulate(EXAMPLE, 16, seed=42, workers=1)
    two = simulate(EXAMPLE, 16, seed=42, workers=2)
    odd = simulate(EXAMPLE, 16, seed=42, workers=1, chunk_size=3)
    assert one.outcome_dict() == two.outcome_dict() == odd.outcome_dict()
    assert two.workers == 2 and one.tally.errors == 0
    other = simulate(EXAMPLE, 16, seed=43, workers=1)
    assert other.outcome_dict() != one.outcome_dict()


def test_a_fresh_seed_is_reported_and_gives_the_result_back() -> None:
    first = simulate(lopsided(), 4)
    again = simulate(lopsided(), 4, seed=first.seed)
    assert first.outcome_dict() == again.outcome_dict()


# ------------------------------------------------------------------ outcomes


def test_a_lopsided_fight_is_won_by_the_stronger_side() -> None:
    """Two clawed vampires against two untrained mortals: the mortals (almost) never win."""
    result = simulate(lopsided(), 40, seed=3)
    assert result.tally.errors == 0
    assert result.win_rate("kindred") >= 0.9
    lo, hi = result.win_interval("kindred")
    assert lo <= result.win_rate("kindred") <= hi and lo > 0.75
    out = result.outcome_dict()
    assert out["sides"]["mob"]["incapacitated_mean"] > 1.5
    assert out["fighters"]["elder"]["killed"] == 0.0


def test_the_result_counts_every_run_once() -> None:
    result = simulate(EXAMPLE, 8, seed=11)
    out = result.to_dict()
    assert set(out) == {
        "scenario",
        "ruleset",
        "runs",
        "seed",
        "max_turns",
        "escape_m",
        "sides",
        "draws",
        "rounds",
        "fighters",
        "errors",
        "run",
    }
    assert out["runs"] == 8 and out["errors"] == {"count": 0, "first": None}
    wins = sum(s["wins"] for s in out["sides"].values())
    assert wins + out["draws"]["count"] == 8
    assert sum(out["rounds"]["distribution"].values()) == 8
    for fighter in out["fighters"].values():
        assert sum(fighter["fates"].values()) == 8
        assert 0.0 <= fighter["killed"] <= fighter["incapacitated"] <= 1.0
    assert set(out["sides"]["chasseurs"]) == {
        "tactic",
        "wins",
        "win_rate",
        "ci95",
        "fighters",
        "incapacitated_mean",
        "killed_mean",
        "fled_mean",
    }


def test_the_turn_limit_makes_draws() -> None:
    result = simulate(EXAMPLE, 6, seed=1, max_turns=1)
    assert result.tally.draws == result.tally.timeouts == 6
    assert set(result.tally.rounds) == {1}


@pytest.mark.parametrize("name", ["nearest", "weakest", "cover", "aim", "dodge", "flee"])
def test_every_tactic_fights_to_the_end_with_no_refused_command(name: str) -> None:
    result = simulate(EXAMPLE, 4, seed=5, tactics={"chasseurs": name, "vampires": name})
    assert result.tally.errors == 0, result.tally.first_error
    assert result.tactics == {"chasseurs": name, "vampires": name}


def test_tactic_names_are_listed() -> None:
    assert tactic_names("vtm") == ["aim", "cover", "dodge", "flee", "nearest", "weakest"]


# ------------------------------------------------------------------ user errors


@pytest.mark.parametrize(
    ("kwargs", "key"),
    [
        ({"tactics": {"chasseurs": "bogus"}}, "sim.tactic.unknown"),
        ({"tactics": {"pirates": "nearest"}}, "sim.tactic.unknown_side"),
        ({"runs": 0}, "sim.runs"),
        ({"workers": 0}, "sim.workers"),
        ({"max_turns": 0}, "sim.max_turns"),
    ],
)
def test_bad_arguments_are_refused_before_any_fight(kwargs: dict[str, Any], key: str) -> None:
    args: dict[str, Any] = {"runs": 2, "seed": 1, **kwargs}
    with pytest.raises(ConteurError) as err:
        simulate(EXAMPLE, **args)
    assert err.value.key == key
    assert err.value.message("fr") and err.value.message("en")


def test_bad_sides_in_the_scenario_are_refused() -> None:
    data = lopsided()
    data["sides"] = {"kindred": {"tactic": "cover", "range": 3}}
    with pytest.raises(ConteurError) as err:
        simulate(data, 2, seed=1)
    assert err.value.key == "sim.tactic.option" and "range" in err.value.message("en")
    data["sides"] = {"kindred": {"tactic": "cover", "cover": 7}}
    with pytest.raises(ConteurError) as err:
        simulate(data, 2, seed=1)
    assert err.value.key == "sim.tactic.option_value"
    data = lopsided()
    del data["combatants"][2:]
    with pytest.raises(ConteurError) as err:
        simulate(data, 2, seed=1)
    assert err.value.key == "sim.one_side"


@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("*.yaml")), ids=lambda p: p.name)
def test_every_shipped_example_can_be_simulated(path: Path) -> None:
    """The examples written for ``conteur play`` fight to the end as well."""
    result = simulate(path, 5, seed=8)
    assert result.tally.errors == 0, result.tally.first_error
    assert result.runs == 5 and len(result.sides) >= 2
