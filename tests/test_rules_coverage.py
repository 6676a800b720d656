"""scripts/rules_coverage.py: rule ids from the checklist, cited by tests, missing ones listed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

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

CHECKLIST = """# Rules checklist
Dice words: a **pool** is a number of d10.
- **V-INI-1** Each combatant rolls one d10.
- **V-DMG-4** A damage pool is never below one die (see V-INI-1).
- **R-SHOT-1** Single shot.
- **W-CRIT-1** A critical success.
- **H-CHANCE-1** Chance die.
- **H-EXC-1** Exceptional.
"""

TESTS = '''
def test_V_INI_1_initiative() -> None:
    pass


def test_damage() -> None:
    """V-DMG-4: damage never botches."""


def helper_V_DMG_4() -> None:
    """Not a test: W-CRIT-1 here does not count."""


class TestHunter:
    def test_chance(self) -> None:
        """H-CHANCE-1 and an id the checklist lacks: H-ZZZ-9."""
'''


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "tests").mkdir(parents=True)
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "tests" / "test_fake.py").write_text(TESTS, encoding="utf-8")
    (root / "src" / "pkg" / "rules.py").write_text('RULE = "W-CRIT-1"\n', encoding="utf-8")
    rules = tmp_path / "shared" / "rules"
    rules.mkdir(parents=True)
    (rules / "CHECKLIST.md").write_text(CHECKLIST, encoding="utf-8")
    return root


def test_parse_checklist_keeps_bold_ids_in_order() -> None:
    assert rc.parse_checklist(CHECKLIST) == [
        "V-INI-1",
        "V-DMG-4",
        "R-SHOT-1",
        "W-CRIT-1",
        "H-CHANCE-1",
        "H-EXC-1",
    ]


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
        "H-CHANCE-1": ["tests/test_fake.py::TestHunter::test_chance"],
        "H-ZZZ-9": ["tests/test_fake.py::TestHunter::test_chance"],
    }


def test_page_lists_tests_code_and_missing_ids_per_ruleset(project: Path) -> None:
    cov = rc.collect(project, project.parent / "shared" / "rules" / "CHECKLIST.md")
    page = rc.render(cov)
    assert "| V-DMG-4 | `tests/test_fake.py::test_damage` | — |" in page
    assert "| W-CRIT-1 | — | `src/pkg/rules.py` |" in page
    missing = page.split("## Missing")[1]
    assert "— 0 missing" in missing.split("### vtm option")[0]
    assert "R-SHOT-1" in missing and "W-CRIT-1" in missing and "H-EXC-1" in missing
    assert "### hunter — new World of Darkness — 1 missing" in missing
    assert "H-ZZZ-9" in page.split("not in the checklist")[1]
    assert rc.render(cov) == page


def test_check_passes_when_up_to_date_and_fails_when_stale(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env: dict[str, str] = {}
    assert rc.main(["--check"], root=project, env=env) == 1
    assert rc.main([], root=project, env=env) == 0
    assert rc.main(["--check"], root=project, env=env) == 0
    (project / "tests" / "test_more.py").write_text("def test_H_EXC_1() -> None: ...\n")
    assert rc.main(["--check"], root=project, env=env) == 1
    assert "out of date" in capsys.readouterr().err


def test_rules_dir_from_the_environment(project: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "CHECKLIST.md").write_text("- **V-INI-1** Only one rule.\n", encoding="utf-8")
    assert rc.main([], root=project, env={"CONTEUR_RULES_DIR": str(elsewhere)}) == 0
    page = (project / "docs" / "rules-coverage.md").read_text(encoding="utf-8")
    assert "| **total** | 1 | 1 | 0 |" in page


def test_check_fails_loudly_without_the_checklist(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "lonely"
    (root / "tests").mkdir(parents=True)
    assert rc.main(["--check"], root=root, env={}) == 2
    assert "rules checklist not found" in capsys.readouterr().err
    assert rc.main(["--check"], root=root, env={"CONTEUR_RULES_DIR": str(tmp_path)}) == 2


def test_checked_in_page_is_up_to_date() -> None:
    """The real docs/rules-coverage.md matches the tests (skipped without shared/rules)."""
    try:
        checklist = rc.find_checklist(ROOT, {})
    except rc.ChecklistNotFound:
        pytest.skip("no shared/rules/CHECKLIST.md next to the repository")
    expected = rc.render(rc.collect(ROOT, checklist))
    assert (ROOT / "docs" / "rules-coverage.md").read_text(encoding="utf-8") == expected
