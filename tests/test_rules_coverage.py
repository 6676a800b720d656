"""scripts/rules_coverage.py: rule ids from the catalogue, counted only for engine-running tests."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

import engine_runs

ROOT = Path(__file__).resolve().parents[1]


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "rules_coverage", ROOT / "scripts" / "rules_coverage.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["rules_coverage"] = module
    spec.loader.exec_module(module)
    return module


rc = load_script()

TITLES = {
    "V-INI-1": "Initiative roll",
    "V-DMG-4": "At least one damage die",
    "R-SHOT-1": "Single shot",
    "W-CRIT-1": "Critical success",
    "H-CHANCE-1": "Chance die",
    "H-EXC-1": "Exceptional success",
}

TESTS = '''
def test_V_INI_1_initiative() -> None:
    pass


def test_damage() -> None:
    """V-DMG-4: damage never botches."""


def test_reads_a_fixture() -> None:
    """R-SHOT-1 and W-CRIT-1, cited by a test that runs no rules code."""


def helper_V_DMG_4() -> None:
    """Not a test: W-CRIT-1 here does not count."""


class TestHunter:
    def test_chance(self) -> None:
        """H-CHANCE-1 and an id the catalogue lacks: H-ZZZ-9."""
'''

ENGINE = {
    "tests/test_fake.py::test_V_INI_1_initiative": True,
    "tests/test_fake.py::test_damage": True,
    "tests/test_fake.py::test_reads_a_fixture": False,
    "tests/test_fake.py::TestHunter::test_chance": True,
}


def write_record(root: Path, verdicts: dict[str, bool]) -> None:
    engine_runs.write_record(root / rc.RECORD, verdicts)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "tests").mkdir(parents=True)
    (root / "src" / "pkg" / "data").mkdir(parents=True)
    (root / "tests" / "test_fake.py").write_text(TESTS, encoding="utf-8")
    (root / "src" / "pkg" / "rules.py").write_text('RULE = "W-CRIT-1"\n', encoding="utf-8")
    (root / "src" / "pkg" / "data" / "rules.yaml").write_text("V-INI-1: {}\n", encoding="utf-8")
    write_record(root, ENGINE)
    return root


def test_cited_ids_reads_dashes_and_underscores() -> None:
    assert rc.cited_ids("test_V_DMG_4_x and H-CHANCE-1, not V_DMG_41 nor XV-DMG-4") == [
        "V-DMG-4",
        "H-CHANCE-1",
        "V-DMG-41",
    ]


def test_scan_finds_test_names_docstrings_and_methods(project: Path) -> None:
    found = rc.scan_tests(project, project / "tests")
    assert found == {
        "V-INI-1": ["tests/test_fake.py::test_V_INI_1_initiative"],
        "V-DMG-4": ["tests/test_fake.py::test_damage"],
        "R-SHOT-1": ["tests/test_fake.py::test_reads_a_fixture"],
        "W-CRIT-1": ["tests/test_fake.py::test_reads_a_fixture"],
        "H-CHANCE-1": ["tests/test_fake.py::TestHunter::test_chance"],
        "H-ZZZ-9": ["tests/test_fake.py::TestHunter::test_chance"],
    }


def test_the_catalogue_files_are_not_code_references(project: Path) -> None:
    assert rc.scan_sources(project, project / "src") == {"W-CRIT-1": ["src/pkg/rules.py"]}


def test_only_engine_running_tests_count(project: Path) -> None:
    cov = rc.collect(project, TITLES, rc.read_record(project / rc.RECORD))
    assert cov.tests == {
        "V-INI-1": ["tests/test_fake.py::test_V_INI_1_initiative"],
        "V-DMG-4": ["tests/test_fake.py::test_damage"],
        "H-CHANCE-1": ["tests/test_fake.py::TestHunter::test_chance"],
    }
    assert cov.plain == {
        "R-SHOT-1": ["tests/test_fake.py::test_reads_a_fixture"],
        "W-CRIT-1": ["tests/test_fake.py::test_reads_a_fixture"],
    }
    assert cov.missing() == ["R-SHOT-1", "W-CRIT-1", "H-EXC-1"]
    assert cov.unknown == {"H-ZZZ-9": ["tests/test_fake.py::TestHunter::test_chance"]}


def test_page_lists_tests_code_missing_and_uncounted_citations(project: Path) -> None:
    cov = rc.collect(project, TITLES, rc.read_record(project / rc.RECORD))
    page = rc.render(cov)
    assert "| V-DMG-4 | At least one damage die | `tests/test_fake.py::test_damage` | — |" in page
    assert "| W-CRIT-1 | Critical success | — | `src/pkg/rules.py` |" in page
    assert "| vtm — Vampire: la Mascarade (`V-`) | 2 | 2 | 0 |" in page
    assert "| **total** | 6 | 3 | 3 |" in page
    missing = page.split("## Missing")[1].split("## Not counted")[0]
    assert "### vtm — Vampire: la Mascarade — 0 missing" in missing
    assert "### vtm option pack house_ranged — 1 missing\n\nR-SHOT-1\n" in missing
    assert "### hunter — new World of Darkness — 1 missing\n\nH-EXC-1\n" in missing
    uncounted = page.split("## Not counted")[1].split("## Cited by tests")[0]
    assert "- `tests/test_fake.py::test_reads_a_fixture`: R-SHOT-1, W-CRIT-1\n" in uncounted
    assert "- H-ZZZ-9: `tests/test_fake.py::TestHunter::test_chance`" in page
    assert rc.render(cov) == page


def test_check_passes_when_up_to_date_and_fails_when_stale(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    titles = {k: v for k, v in TITLES.items() if k in ("V-INI-1", "V-DMG-4", "H-CHANCE-1")}
    assert rc.main(["--check"], root=project, titles=titles) == 1
    assert rc.main([], root=project, titles=titles) == 0
    assert rc.main(["--check"], root=project, titles=titles) == 0
    assert "every rule run by a test" in capsys.readouterr().out
    # a test that stops running the engine stops counting: the page changes
    write_record(project, {**ENGINE, "tests/test_fake.py::test_damage": False})
    assert rc.main(["--check"], root=project, titles=titles) == 1
    err = capsys.readouterr().err
    assert "out of date" in err and "1 rule(s) with no engine-running test: V-DMG-4" in err


def test_check_fails_when_a_rule_has_no_engine_test(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert rc.main([], root=project, titles=TITLES) == 0
    assert rc.main(["--check"], root=project, titles=TITLES) == 1
    assert "3 rule(s) with no engine-running test: R-SHOT-1, W-CRIT-1, H-EXC-1" in (
        capsys.readouterr().err
    )


def test_check_needs_the_record_of_a_pytest_run(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / rc.RECORD).unlink()
    assert rc.main(["--check"], root=project, titles=TITLES) == 2
    assert "run pytest first" in capsys.readouterr().err
    write_record(project, {"tests/test_fake.py::test_damage": True})
    assert rc.main(["--check"], root=project, titles=TITLES) == 2
    err = capsys.readouterr().err
    assert "3 citing test(s) not in the record" in err and "run pytest first" in err


def test_the_ids_come_from_the_package_catalogue() -> None:
    """The script reads the package, not a file beside the repository."""
    titles = rc.catalogue()
    assert len(titles) == 147
    assert titles["V-DMG-4"] == "At least one damage die"
    assert [rule for rule in titles if rule.startswith("V-")][:2] == ["V-GEN-1", "V-GEN-2"]
    assert {rule.split("-")[0] for rule in titles} == {"V", "R", "W", "H"}


# ------------------------------------------------------------------ the plugin's record


def test_record_ids_drop_parameters() -> None:
    assert engine_runs.function_id("tests/a.py::test_x[fr-saloon]") == "tests/a.py::test_x"
    assert engine_runs.function_id("tests/a.py::TestA::test_x") == "tests/a.py::TestA::test_x"


def test_record_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "engine-runs.json"
    assert engine_runs.read_record(path) == {}
    engine_runs.write_record(path, {"tests/a.py::test_b": False, "tests/a.py::test_a": True})
    assert json.loads(path.read_text("utf-8")) == {
        "engine": ["tests/a.py::test_a"],
        "plain": ["tests/a.py::test_b"],
    }
    assert engine_runs.read_record(path) == rc.read_record(path)


PLUGIN_CONFTEST = """
import engine_runs

def pytest_configure(config):
    config.pluginmanager.register(engine_runs.EngineRuns(config.rootpath), "engine-runs")
"""

PLUGIN_TESTS = """
import json
from pathlib import Path

import pytest

from conteur.dice import TypedDice
from conteur.rulesets.vtm.dice import VtmPool


def roll():
    return TypedDice("6").roll(VtmPool(1, 6)).result.successes


@pytest.fixture(scope="module")
def rolled():
    return roll()


def test_rolls():
    assert roll() == 1


def test_reads_a_file():
    assert json.loads(Path("data.json").read_text()) == {"successes": 1}


def test_uses_a_fixture_that_rolled(rolled):
    assert rolled == 1


def test_uses_it_again_from_the_cache(rolled):
    assert rolled == 1


@pytest.mark.parametrize("n", [1, 2])
def test_one_parameter_rolls(n):
    assert n == 1 or roll() == 1


def test_rolls_and_fails():
    assert roll() == 2


@pytest.mark.skip(reason="not today")
def test_skipped():
    roll()
"""


def test_the_plugin_records_which_tests_ran_the_engine(pytester: pytest.Pytester) -> None:
    """A pytest run of a small suite: the record names the tests that rolled dice."""
    pytester.makeconftest(PLUGIN_CONFTEST)
    pytester.makepyfile(test_fake=PLUGIN_TESTS)
    (pytester.path / "data.json").write_text('{"successes": 1}', encoding="utf-8")
    (pytester.path / ".pytest_cache").mkdir()
    old = {"test_fake.py::test_gone": True, "test_fake.py::test_rolls": False}
    engine_runs.write_record(pytester.path / engine_runs.RECORD, old)
    result = pytester.runpytest_inprocess("-p", "no:randomly")
    result.assert_outcomes(passed=6, failed=1, skipped=1)
    record = json.loads((pytester.path / engine_runs.RECORD).read_text("utf-8"))
    assert record == {
        "engine": [
            "test_fake.py::test_gone",  # not run this time: its old verdict stays
            "test_fake.py::test_one_parameter_rolls",
            "test_fake.py::test_rolls",  # run again: the new verdict replaces the old
            "test_fake.py::test_uses_a_fixture_that_rolled",
            "test_fake.py::test_uses_it_again_from_the_cache",
        ],
        "plain": [
            "test_fake.py::test_reads_a_file",
            "test_fake.py::test_rolls_and_fails",
            "test_fake.py::test_skipped",
        ],
    }
