#!/usr/bin/env python3
"""Write ``docs/rules-coverage.md``: for each rule id of the checklist, the tests that cite it.

The rules checklist (``CHECKLIST.md``) numbers every rule of the four texts
(``**V-INI-1**``, ``**H-CHANCE-1**``, ...). A test *cites* a rule when its
function name (``test_V_INI_1_...``) or its docstring names the id, written
``V-INI-1`` or ``V_INI_1``. Source files under ``src/`` that name an id are
listed as code references. Ids that no test cites are listed as missing,
per ruleset.

The checklist is looked up in ``$CONTEUR_RULES_DIR`` when set, else in
``../shared/rules/`` next to the repository (where CI puts it).

    python scripts/rules_coverage.py          # rewrite docs/rules-coverage.md
    python scripts/rules_coverage.py --check  # exit 1 when the file is out of date
"""

from __future__ import annotations

import argparse
import ast
import difflib
import os
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = Path("docs") / "rules-coverage.md"
ENV_VAR = "CONTEUR_RULES_DIR"

RULESETS: tuple[tuple[str, str], ...] = (
    ("V", "vtm — Vampire: la Mascarade"),
    ("R", "vtm option pack house_ranged"),
    ("W", "western — d100 Western"),
    ("H", "hunter — new World of Darkness"),
)
"""Id prefix and ruleset title, in the checklist's order."""

CHECKLIST_ID = re.compile(r"\*\*([VRWH]-[A-Z]+-\d+)\*\*")
CITED_ID = re.compile(r"(?<![A-Za-z0-9])([VRWH])[-_]([A-Z]+)[-_](\d+)(?![0-9])")
SOURCE_SUFFIXES = (".py", ".yaml", ".yml", ".json")


class ChecklistNotFound(Exception):
    """The rules checklist is not where it should be."""


@dataclass
class Coverage:
    """Rule ids in checklist order, and who cites each of them."""

    ids: list[str]
    tests: dict[str, list[str]] = field(default_factory=dict)
    code: dict[str, list[str]] = field(default_factory=dict)
    unknown: dict[str, list[str]] = field(default_factory=dict)


def find_checklist(root: Path, env: Mapping[str, str]) -> Path:
    """``$CONTEUR_RULES_DIR/CHECKLIST.md`` when set, else ``../shared/rules/CHECKLIST.md``."""
    if env.get(ENV_VAR):
        candidates = [Path(env[ENV_VAR]) / "CHECKLIST.md"]
    else:
        candidates = [root.parent / "shared" / "rules" / "CHECKLIST.md"]
    for path in candidates:
        if path.is_file():
            return path
    tried = ", ".join(str(p) for p in candidates)
    raise ChecklistNotFound(
        f"rules checklist not found (tried {tried}); put the shared/ folder next to the "
        f"repository or set {ENV_VAR} to the folder holding CHECKLIST.md"
    )


def parse_checklist(text: str) -> list[str]:
    """Every rule id defined in the checklist (``**V-INI-1**``), in order, once each."""
    seen: dict[str, None] = {}
    for match in CHECKLIST_ID.finditer(text):
        seen.setdefault(match.group(1), None)
    return list(seen)


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
    files = sorted(p for p in src_dir.rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES)
    for path in files:
        rel = path.relative_to(root).as_posix()
        for rule in cited_ids(path.read_text(encoding="utf-8")):
            found.setdefault(rule, []).append(rel)
    return found


def collect(root: Path, checklist: Path) -> Coverage:
    """Read the checklist and scan ``tests/`` and ``src/`` under ``root``."""
    ids = parse_checklist(checklist.read_text(encoding="utf-8"))
    if not ids:
        raise ChecklistNotFound(f"{checklist} defines no rule id (expected **V-INI-1** and such)")
    tests = scan_tests(root, root / "tests") if (root / "tests").is_dir() else {}
    code = scan_sources(root, root / "src") if (root / "src").is_dir() else {}
    known = set(ids)
    return Coverage(
        ids=ids,
        tests={k: v for k, v in tests.items() if k in known},
        code={k: v for k, v in code.items() if k in known},
        unknown={k: v for k, v in sorted(tests.items()) if k not in known},
    )


def _cell(items: Sequence[str]) -> str:
    return "<br>".join(f"`{item}`" for item in items) if items else "—"


def render(cov: Coverage) -> str:
    """The Markdown page (deterministic: the same inputs give the same bytes)."""
    groups = {prefix: [i for i in cov.ids if i.startswith(prefix + "-")] for prefix, _ in RULESETS}
    lines = [
        "# Rules coverage",
        "",
        "Generated by `scripts/rules_coverage.py` from the rules checklist",
        "(`shared/rules/CHECKLIST.md`) and the test suite: do not edit by hand, run",
        "`make coverage-doc` (`make test` fails when this page is out of date).",
        "",
        "A test *cites* a rule when its name (`test_V_DMG_4_...`) or its docstring names",
        "the id (`V-DMG-4` or `V_DMG_4`). Citing is not the same as done: a rule is done",
        "when a test drives it through the public engine and asserts what the text says.",
        "*Code* lists the files under `src/` that name the id.",
        "",
        "## Summary",
        "",
        "| ruleset | ids | cited by a test | missing |",
        "|---|---:|---:|---:|",
    ]
    total = cited_total = 0
    for prefix, title in RULESETS:
        ids = groups[prefix]
        cited = sum(1 for i in ids if i in cov.tests)
        total += len(ids)
        cited_total += cited
        lines.append(f"| {title} (`{prefix}-`) | {len(ids)} | {cited} | {len(ids) - cited} |")
    lines.append(f"| **total** | {total} | {cited_total} | {total - cited_total} |")
    lines.append("")
    for prefix, title in RULESETS:
        shown = [i for i in groups[prefix] if i in cov.tests or i in cov.code]
        lines += [f"## {title}", ""]
        if not shown:
            lines += ["No test or code cites these rules yet.", ""]
            continue
        lines += ["| rule | tests | code |", "|---|---|---|"]
        for rule in shown:
            lines.append(
                f"| {rule} | {_cell(cov.tests.get(rule, []))} | {_cell(cov.code.get(rule, []))} |"
            )
        lines.append("")
    lines += ["## Missing: rules no test cites", ""]
    for prefix, title in RULESETS:
        missing = [i for i in groups[prefix] if i not in cov.tests]
        lines.append(f"### {title} — {len(missing)} missing")
        lines.append("")
        lines.append(", ".join(missing) if missing else "None.")
        lines.append("")
    if cov.unknown:
        lines += ["## Cited by tests but not in the checklist", ""]
        for rule, tests in cov.unknown.items():
            lines.append(f"- {rule}: {_cell(tests)}")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def main(
    argv: Sequence[str] | None = None,
    root: Path = ROOT,
    env: Mapping[str, str] | None = None,
) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1] if __doc__ else None)
    parser.add_argument(
        "--check", action="store_true", help="fail when docs/rules-coverage.md is out of date"
    )
    args = parser.parse_args(argv)
    try:
        checklist = find_checklist(root, os.environ if env is None else env)
        page = render(collect(root, checklist))
    except ChecklistNotFound as error:
        print(f"rules_coverage: error: {error}", file=sys.stderr)
        return 2
    doc = root / DOC
    if args.check:
        current = doc.read_text(encoding="utf-8") if doc.is_file() else ""
        if current == page:
            print(f"rules_coverage: {DOC.as_posix()} is up to date")
            return 0
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
        return 1
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(page, encoding="utf-8")
    print(f"rules_coverage: wrote {DOC.as_posix()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
