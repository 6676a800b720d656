"""``KitRuleset`` finds every part it hands a reader on to, in each shipped ruleset.

The kit reads each part by name (``self.part("views", "roster")``) when first asked
for, so a ruleset missing one would fail only when a reader asks. This reads the
kit's methods from its source and checks, for every shipped ruleset, that each part
a method it does not override reads is there, callable where the method calls it.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from typing import Any

import pytest

from conteur.engine import kit
from conteur.engine.kit import KitRuleset
from conteur.engine.registry import available_rulesets, get_ruleset


def parts_by_method() -> dict[str, list[tuple[str, str, bool]]]:
    """Each method of ``KitRuleset`` → the (module, name, called) parts it reads: a method
    binds a module (``views: ViewsPart = self.part("views")``) and reads names of it."""
    tree = ast.parse(inspect.getsource(kit))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "KitRuleset")
    out: dict[str, list[tuple[str, str, bool]]] = {}
    for method in cls.body:
        if not isinstance(method, ast.FunctionDef):
            continue
        bound: dict[str, str] = {}  # local name → the part module it holds
        for node in ast.walk(method):
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Attribute)
                and node.value.func.attr == "part"
                and isinstance(node.value.args[0], ast.Constant)
            ):
                bound[node.target.id] = str(node.value.args[0].value)
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
    assert "roster: views.row" in missing and "referee: sim.REFEREE" in missing
    assert "columns: views.COLUMNS" in missing
