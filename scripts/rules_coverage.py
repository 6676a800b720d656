#!/usr/bin/env python3
"""Write ``docs/rules-coverage.md``: for each rule id, the tests that drive it through the engine.

Where the ids come from: the rule catalogue inside the package (each ruleset's
``data/rules.yaml``, read through ``conteur.engine.rules.all_rule_texts``), so
the check needs nothing outside the repository.

What counts. A test *cites* a rule when its function name (``test_V_INI_1_...``)
or its docstring names the id, written ``V-INI-1`` or ``V_INI_1``. A citation
*counts* only when the test also ran the rules engine: resolved a command,
read a roll with the dice rules, computed odds, and so on (the entry points are
listed in ``tests/engine_runs.py``). That plugin is loaded by
``tests/conftest.py`` in every pytest run and writes, at the end of the run,
which tests ran the engine to ``.pytest_cache/engine-runs.json``; this script
reads that record. So a test that only reads a fixture, a table or a golden
file cites its rules for nothing: the page lists such citations apart.

Run pytest first (``make test`` runs the whole suite, then this check). The
page also lists, per rule, the files under ``src/`` that name the id (the
catalogue files themselves aside).

    python scripts/rules_coverage.py          # rewrite docs/rules-coverage.md
    python scripts/rules_coverage.py --check  # exit 1 when the page is out of date,
                                              # or a rule has no engine-running test

Exit 2 when the record is missing or does not know a citing test (pytest has
not run it yet).
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = Path("docs") / "rules-coverage.md"
RECORD = Path(".pytest_cache") / "engine-runs.json"
"""Written by ``tests/engine_runs.py`` at the end of each pytest run."""

RULESETS: tuple[tuple[str, str], ...] = (
    ("V", "vtm — Vampire: la Mascarade"),
    ("R", "vtm option pack house_ranged"),
    ("W", "western — d100 Western"),
    ("H", "hunter — new World of Darkness"),
)
"""Id prefix and ruleset title, in the page's order."""

CITED_ID = re.compile(r"(?<![A-Za-z0-9])([VRWH])[-_]([A-Z]+)[-_](\d+)(?![0-9])")
SOURCE_SUFFIXES = (".py", ".yaml", ".yml", ".json")
CATALOGUE_NAME = "rules.yaml"
"""The catalogue files name every id: they are not code references."""


class RecordError(Exception):
    """The record of engine-running tests is missing or does not cover the citing tests."""


@dataclass
class Coverage:
    """Rule ids in catalogue order, who cites each of them, and which citations count."""

    ids: list[str]
    titles: dict[str, str] = field(default_factory=dict)
    tests: dict[str, list[str]] = field(default_factory=dict)
    """Engine-running tests citing each id (the citations that count)."""
    plain: dict[str, list[str]] = field(default_factory=dict)
    """Tests citing each id that ran no rules code (not counted)."""
    code: dict[str, list[str]] = field(default_factory=dict)
    unknown: dict[str, list[str]] = field(default_factory=dict)

    def missing(self) -> list[str]:
        return [i for i in self.ids if i not in self.tests]


def catalogue() -> dict[str, str]:
    """``{rule id: English title}`` of the rulesets conteur ships (``RULESETS``' prefixes),
    from the package's rule catalogue (a ruleset installed beside it is not reported)."""
    sys.path.insert(0, str(ROOT / "src"))
    from conteur.engine.rules import all_rule_texts

    shipped = {prefix for prefix, _ in RULESETS}
    return {
        rule: text.title("en")
        for rule, text in all_rule_texts().items()
        if rule.split("-")[0] in shipped
    }


def cited_ids(text: str) -> list[str]:
    """The rule ids named in ``text``, as ``V-INI-1`` (from ``V-INI-1`` or ``V_INI_1``)."""
    found: dict[str, None] = {}
    for match in CITED_ID.finditer(text):
        found.setdefault("-".join(match.groups()), None)
    return list(found)


Function = ast.FunctionDef | ast.AsyncFunctionDef


def _test_functions(tree: ast.Module) -> Iterable[tuple[str, Function]]:
    """``(qualified name, node)`` of each test function, including methods of test classes."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            yield node.name, node
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and (
                    item.name.startswith("test")
                ):
                    yield f"{node.name}::{item.name}", item


def scan_tests(root: Path, tests_dir: Path) -> dict[str, list[str]]:
    """``{rule id: ["tests/file.py::test_name", ...]}`` from test names and docstrings."""
    found: dict[str, list[str]] = {}
    for path in sorted(tests_dir.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        rel = path.relative_to(root).as_posix()
        for name, node in _test_functions(tree):
            text = name + "\n" + (ast.get_docstring(node) or "")
            for rule in cited_ids(text):
                found.setdefault(rule, []).append(f"{rel}::{name}")
    return found


def scan_sources(root: Path, src_dir: Path) -> dict[str, list[str]]:
    """``{rule id: ["src/.../file.py", ...]}``: package files that name the id."""
    found: dict[str, list[str]] = {}
    files = sorted(
        p
        for p in src_dir.rglob("*")
        if p.is_file() and p.suffix in SOURCE_SUFFIXES and p.name != CATALOGUE_NAME
    )
    for path in files:
        rel = path.relative_to(root).as_posix()
        for rule in cited_ids(path.read_text(encoding="utf-8")):
            found.setdefault(rule, []).append(rel)
    return found


def read_record(path: Path) -> dict[str, bool]:
    """``{test id: ran the engine}`` from the record pytest wrote."""
    if not path.is_file():
        raise RecordError(
            f"{path} not found: run pytest first (its plugin tests/engine_runs.py "
            "records which tests run the rules engine)"
        )
    data = json.loads(path.read_text(encoding="utf-8"))
    verdicts = {test: False for test in data.get("plain", [])}
    verdicts.update({test: True for test in data.get("engine", [])})
    return verdicts


def collect(root: Path, titles: Mapping[str, str], record: Mapping[str, bool]) -> Coverage:
    """Scan ``tests/`` and ``src/`` under ``root``; keep the citations of engine-running tests."""
    ids = list(titles)
    cited = scan_tests(root, root / "tests") if (root / "tests").is_dir() else {}
    code = scan_sources(root, root / "src") if (root / "src").is_dir() else {}
    unseen = sorted({t for tests in cited.values() for t in tests if t not in record})
    if unseen:
        shown = ", ".join(unseen[:3]) + (", ..." if len(unseen) > 3 else "")
        raise RecordError(
            f"{len(unseen)} citing test(s) not in the record of engine runs ({shown}): "
            "run pytest first (the whole suite, or at least these tests)"
        )
    known = set(ids)
    cov = Coverage(ids=ids, titles=dict(titles))
    for rule, tests in cited.items():
        if rule not in known:
            cov.unknown[rule] = tests
            continue
        ran = [t for t in tests if record[t]]
        idle = [t for t in tests if not record[t]]
        if ran:
            cov.tests[rule] = ran
        if idle:
            cov.plain[rule] = idle
    cov.code = {k: v for k, v in code.items() if k in known}
    cov.unknown = dict(sorted(cov.unknown.items()))
    return cov


def _cell(items: Sequence[str]) -> str:
    return "<br>".join(f"`{item}`" for item in items) if items else "—"


def render(cov: Coverage) -> str:
    """The Markdown page (deterministic: the same inputs give the same bytes)."""
    groups = {prefix: [i for i in cov.ids if i.startswith(prefix + "-")] for prefix, _ in RULESETS}
    lines = [
        "# Rules coverage",
        "",
        "Generated by `scripts/rules_coverage.py` from the rule catalogue",
        "(`src/conteur/rulesets/*/data/rules.yaml`, the pack's included) and the last",
        "pytest run: do not edit by hand, run `make coverage-doc` after the tests",
        "(`make test` fails when this page is out of date).",
        "",
        "A test *cites* a rule when its name (`test_V_DMG_4_...`) or its docstring names",
        "the id (`V-DMG-4` or `V_DMG_4`). A citation counts only when the test ran the",
        "rules engine (resolved a command, read a roll with the dice rules, computed",
        "odds...: `tests/engine_runs.py` records it during pytest). Citations by tests",
        "that ran no rules code are listed at the end, not counted.",
        "*Code* lists the files under `src/` that name the id.",
        "",
        "## Summary",
        "",
        "| ruleset | ids | run by a test | missing |",
        "|---|---:|---:|---:|",
    ]
    total = covered_total = 0
    for prefix, title in RULESETS:
        ids = groups[prefix]
        covered = sum(1 for i in ids if i in cov.tests)
        total += len(ids)
        covered_total += covered
        lines.append(f"| {title} (`{prefix}-`) | {len(ids)} | {covered} | {len(ids) - covered} |")
    lines.append(f"| **total** | {total} | {covered_total} | {total - covered_total} |")
    lines.append("")
    for prefix, title in RULESETS:
        shown = [i for i in groups[prefix] if i in cov.tests or i in cov.code]
        lines += [f"## {title}", ""]
        if not shown:
            lines += ["No test or code cites these rules yet.", ""]
            continue
        lines += ["| rule | title | tests | code |", "|---|---|---|---|"]
        for rule in shown:
            lines.append(
                f"| {rule} | {cov.titles.get(rule, '')} | {_cell(cov.tests.get(rule, []))} "
                f"| {_cell(cov.code.get(rule, []))} |"
            )
        lines.append("")
    lines += ["## Missing: rules no engine-running test cites", ""]
    for prefix, title in RULESETS:
        missing = [i for i in groups[prefix] if i not in cov.tests]
        lines.append(f"### {title} — {len(missing)} missing")
        lines.append("")
        lines.append(", ".join(missing) if missing else "None.")
        lines.append("")
    if cov.plain:
        by_test: dict[str, list[str]] = {}
        for rule in cov.ids:
            for test in cov.plain.get(rule, []):
                by_test.setdefault(test, []).append(rule)
        lines += [
            "## Not counted: citations by tests that ran no rules code",
            "",
            "These tests read tables, parse scripts or check data; they may be useful, but",
            "they drive no rule through the engine.",
            "",
        ]
        lines += [f"- `{test}`: {', '.join(rules)}" for test, rules in sorted(by_test.items())]
        lines.append("")
    if cov.unknown:
        lines += ["## Cited by tests but not in the catalogue", ""]
        for rule, tests in cov.unknown.items():
            lines.append(f"- {rule}: {_cell(tests)}")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def main(
    argv: Sequence[str] | None = None,
    root: Path = ROOT,
    titles: Mapping[str, str] | None = None,
) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1] if __doc__ else None)
    parser.add_argument(
        "--check",
        action="store_true",
        help="fail when docs/rules-coverage.md is out of date or a rule has no engine test",
    )
    args = parser.parse_args(argv)
    try:
        cov = collect(root, catalogue() if titles is None else titles, read_record(root / RECORD))
    except RecordError as error:
        print(f"rules_coverage: error: {error}", file=sys.stderr)
        return 2
    page = render(cov)
    doc = root / DOC
    if not args.check:
        doc.parent.mkdir(parents=True, exist_ok=True)
        doc.write_text(page, encoding="utf-8")
        print(f"rules_coverage: wrote {DOC.as_posix()}")
        return 0
    status = 0
    current = doc.read_text(encoding="utf-8") if doc.is_file() else ""
    if current != page:
        print(
            f"rules_coverage: {DOC.as_posix()} is out of date: run `make coverage-doc` "
            "and commit the result",
            file=sys.stderr,
        )
        diff = difflib.unified_diff(
            current.splitlines(), page.splitlines(), "checked in", "regenerated", lineterm="", n=1
        )
        for line in list(diff)[:40]:
            print(line, file=sys.stderr)
        status = 1
    missing = cov.missing()
    if missing:
        print(
            f"rules_coverage: {len(missing)} rule(s) with no engine-running test: "
            + ", ".join(missing),
            file=sys.stderr,
        )
        status = 1
    if status == 0:
        print(f"rules_coverage: {DOC.as_posix()} is up to date, every rule run by a test")
    return status


if __name__ == "__main__":
    sys.exit(main())
