"""The import graph: the generic layers know no game.

Everything outside ``conteur.rulesets`` reaches a ruleset only through the contract and
the entry points (``engine/registry.py``), never by importing it — not at module level,
not inside a function, not for type checking. Read with grimp from the source itself.
"""

from __future__ import annotations

import grimp
import pytest

GENERIC = (
    "conteur.api",
    "conteur.cli",
    "conteur.cli_parts",
    "conteur.dice",
    "conteur.engine",
    "conteur.i18n",
    "conteur.launch",
    "conteur.records",
    "conteur.sim",
    "conteur.store",
    "conteur.web",
)
"""The packages and modules that must not import a ruleset."""


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("conteur")


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
