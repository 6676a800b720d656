"""``KitRuleset`` finds every part it hands a reader on to, in each shipped ruleset.

The kit reads each part by name (``self.part("views", "roster")``) when first asked
for, so a ruleset missing one would fail only when a reader asks. This reads the
kit's methods from its source and checks, for every shipped ruleset, that each part
a method it does not override reads is there, callable where the method calls it, and
has ``mypy --strict`` check each part module it leaves to the kit against the protocol the
kit reads it as (no ruleset lists its parts for the type checker by hand).
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path
from typing import Any

import pytest

from conteur.engine import kit
from conteur.engine.kit import KitRuleset
from conteur.engine.registry import available_rulesets, get_ruleset


def part_binding(node: ast.AST) -> tuple[str, str, str] | None:
    """``views: ViewsPart = self.part("views")`` as (local name, protocol, part module)."""
    if (
        isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and isinstance(node.annotation, ast.Name)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and node.value.func.attr == "part"
        and isinstance(node.value.args[0], ast.Constant)
    ):
        return node.target.id, node.annotation.id, str(node.value.args[0].value)
    return None


def parts_by_method() -> dict[str, list[tuple[str, str, bool]]]:
    """Each method of ``KitRuleset`` → the (module, name, called) parts it reads: a method
    binds a module (``views: ViewsPart = self.part("views")``) and reads names of it."""
    tree = ast.parse(inspect.getsource(kit))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "KitRuleset")
    out: dict[str, list[tuple[str, str, bool]]] = {}
    for method in cls.body:
        if not isinstance(method, ast.FunctionDef):
            continue
        bound = {  # local name → the part module it holds
            b[0]: b[2] for node in ast.walk(method) if (b := part_binding(node)) is not None
        }
        called = {id(n.func) for n in ast.walk(method) if isinstance(n, ast.Call)}
        for node in ast.walk(method):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in bound
            ):
                read = (bound[node.value.id], node.attr, id(node) in called)
                out.setdefault(method.name, []).append(read)
    return out


KIT_RULESETS = [n for n in available_rulesets() if isinstance(get_ruleset(n), KitRuleset)]


def test_the_kit_reads_parts_and_the_shipped_rulesets_use_it() -> None:
    parts = parts_by_method()
    assert {"roster", "legal_commands", "referee", "with_trait"} <= set(parts)
    assert {"hunter", "vtm", "western"} <= set(KIT_RULESETS)


def missing_parts(ruleset: KitRuleset[Any]) -> list[str]:
    """``method: module.name`` for each part a method the ruleset leaves to the kit reads
    and its package lacks (or holds uncallable where the method calls it)."""
    missing = []
    for method, parts in parts_by_method().items():
        if getattr(type(ruleset), method) is not getattr(KitRuleset, method):
            continue  # the ruleset says it its own way
        for module, part, called in parts:
            try:
                found = getattr(importlib.import_module(f"{ruleset.parts}.{module}"), part, None)
            except ModuleNotFoundError:
                found = None
            if found is None or (called and not callable(found)):
                missing.append(f"{method}: {module}.{part}")
    return missing


@pytest.mark.parametrize("name", KIT_RULESETS)
def test_every_part_the_ruleset_leaves_to_the_kit_is_there(name: str) -> None:
    ruleset = get_ruleset(name)
    assert isinstance(ruleset, KitRuleset)
    assert missing_parts(ruleset) == []


def test_the_check_sees_a_missing_part() -> None:
    """The test above can fail: a package that is no ruleset's lacks the parts."""

    class Bare(KitRuleset[object]):
        parts = "conteur.engine"

    missing = missing_parts(Bare())
    assert "row: views.status" in missing and "referee: sim.REFEREE" in missing
    assert "turn_view: views.order" in missing
    assert "columns: views.COLUMNS" in missing


def part_protocols() -> dict[str, str]:
    """Each part module the kit reads → the protocol of ``engine/kit.py`` it reads it as
    (``views: ViewsPart = self.part("views")``)."""
    tree = ast.parse(inspect.getsource(kit))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "KitRuleset")
    return {b[2]: b[1] for node in ast.walk(cls) if (b := part_binding(node)) is not None}


def typed_parts(ruleset: KitRuleset[Any]) -> list[tuple[str, str]]:
    """(module, protocol) for each part module the kit reads of ``ruleset``: every method
    reading it left to the kit (a ruleset that says some of a part its own way, as vtm its
    events' visibility, keeps the rest of that module in its own shape)."""
    protocols = part_protocols()
    kit_read: set[str] = set()
    own: set[str] = set()
    for method, parts in parts_by_method().items():
        leaves = getattr(type(ruleset), method) is getattr(KitRuleset, method)
        (kit_read if leaves else own).update(module for module, _, _ in parts)
    return sorted((module, protocols[module]) for module in kit_read - own)


def mypy_errors(source: str, folder: Path) -> list[str]:
    """The error lines of ``mypy`` (the project's settings, its cache) on ``source``."""
    from mypy import api

    root = Path(__file__).resolve().parents[1]
    check = folder / "kit_parts_check.py"
    check.write_text(source, encoding="utf-8")
    config = ["--config-file", str(root / "pyproject.toml")]
    cache = ["--cache-dir", str(root / ".mypy_cache")]
    out, err, _ = api.run([*config, *cache, "--no-error-summary", str(check)])
    assert err == "", err
    return [line.split(": error: ")[0] for line in out.splitlines() if ": error: " in line]


def test_each_part_a_ruleset_leaves_to_the_kit_has_its_protocol(tmp_path: Path) -> None:
    """``mypy --strict`` checks every part module each shipped kit ruleset leaves to the kit
    against the protocol the kit reads it as (its signatures, its constants' types); one
    line given a module of another part's shape shows the check can fail."""
    lines = ["from conteur.engine import kit"]
    for name in KIT_RULESETS:
        package = get_ruleset(name).parts
        for module, protocol in typed_parts(get_ruleset(name)):
            lines.append(f"import {package}.{module}")
            lines.append(f"_{name}_{module}: kit.{protocol} = {package}.{module}")
    lines.append("import conteur.rulesets.hunter.legal")
    lines.append("_wrong: kit.ScriptPart = conteur.rulesets.hunter.legal")
    errors = mypy_errors("\n".join(lines) + "\n", tmp_path)
    failing = [lines[int(error.rsplit(":", 1)[1]) - 1] for error in errors]
    assert failing == [lines[-1]]
