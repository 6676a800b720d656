"""The import graph: the generic layers know no game, and no module imports itself back.

Everything outside ``conteur.rulesets`` reaches a ruleset only through the contract and
the entry points (``engine/registry.py``), never by importing it — not at module level,
not inside a function, not for type checking. Read with grimp from the source itself.

No import cycle (``import_cycles``): every strongly connected component of the graph is
one module, counting the imports made inside functions (which dodge a cycle at run time
but keep it in the design) and leaving out only those made for type checking.
"""

from __future__ import annotations

import sys
from pathlib import Path

import grimp
import pytest

from import_cycles import cycle_edges, import_cycles, import_graph

GENERIC = (
    "conteur.api",
    "conteur.cli",
    "conteur.cli_parts",
    "conteur.dice",
    "conteur.engine",
    "conteur.entry_points",
    "conteur.i18n",
    "conteur.launch",
    "conteur.records",
    "conteur.runcache",
    "conteur.sim",
    "conteur.store",
    "conteur.web",
)
"""The packages and modules that must not import a ruleset."""


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("conteur", cache_dir=None)


def test_every_top_level_part_is_listed(graph: grimp.ImportGraph) -> None:
    top = {m for m in graph.modules if m.count(".") == 1}
    assert top - set(GENERIC) == {"conteur.rulesets"}


@pytest.mark.parametrize("layer", GENERIC)
def test_the_generic_layer_imports_no_ruleset(graph: grimp.ImportGraph, layer: str) -> None:
    chains = graph.find_shortest_chains(
        importer=layer, imported="conteur.rulesets", as_packages=True
    )
    assert chains == set(), sorted(chains)


def test_the_check_sees_a_ruleset_import(graph: grimp.ImportGraph) -> None:
    """The test above can fail: a ruleset module does import another ruleset module."""
    chains = graph.find_shortest_chains(
        importer="conteur.rulesets.vtm.ruleset",
        imported="conteur.rulesets.vtm.tables",
        as_packages=False,
    )
    assert chains


ALLOWED_CYCLES: dict[frozenset[str], str] = {}
"""Import cycles still allowed, each with the reason it is left; none now. A cycle not
listed fails the test below, and so does a listed one that is gone (remove its entry)."""


def test_no_import_cycle() -> None:
    graph = import_graph("conteur")
    cycles = import_cycles(graph)
    new = [c for c in cycles if c not in ALLOWED_CYCLES]
    assert new == [], "\n".join(line for c in new for line in cycle_edges(graph, c))
    gone = [sorted(c) for c in ALLOWED_CYCLES if c not in cycles]
    assert gone == [], gone


def test_the_cycle_check_sees_a_cycle() -> None:
    """The test above can fail: a package whose two modules import each other has one
    cycle, made of those two (and an import under TYPE_CHECKING alone makes none)."""
    graph = grimp.ImportGraph()
    for module in ("pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.d"):
        graph.add_module(module)
    graph.add_import(importer="pkg.a", imported="pkg.b")
    graph.add_import(importer="pkg.b", imported="pkg.a")
    graph.add_import(importer="pkg.c", imported="pkg.a")
    graph.add_import(importer="pkg.c", imported="pkg.d")
    assert import_cycles(graph) == [frozenset({"pkg.a", "pkg.b"})]
    graph.add_import(importer="pkg.d", imported="pkg.c")
    assert import_cycles(graph) == [
        frozenset({"pkg.a", "pkg.b"}),
        frozenset({"pkg.c", "pkg.d"}),
    ]


def test_a_function_local_import_counts(tmp_path: Path) -> None:
    """An import inside a function closes a cycle as well as one at the top; one under
    ``if TYPE_CHECKING:`` does not (grimp reads the source, as for ``conteur``)."""
    root = tmp_path / "cyclepkg"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "a.py").write_text("from . import b\n")
    (root / "b.py").write_text("def f():\n    from . import a\n    return a\n")
    (root / "c.py").write_text("from . import d\n")
    (root / "d.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import c\n"
    )
    sys.path.insert(0, str(root.parent))
    try:
        cycles = import_cycles(import_graph("cyclepkg"))
    finally:
        sys.path.remove(str(root.parent))
    assert cycles == [frozenset({"cyclepkg.a", "cyclepkg.b"})]
