"""The import cycles of a package: its strongly connected components of more than one module.

Read with grimp from the source: every ``import`` counts, at module level or inside a
function (a function-local import that dodges a cycle at run time is still a cycle);
only the imports under ``if TYPE_CHECKING:`` are left out, since they never run.

Run as a script to list them: ``.venv/bin/python tests/import_cycles.py [package]``.
"""

from __future__ import annotations

import sys

import grimp


def import_graph(package: str = "conteur") -> grimp.ImportGraph:
    """The package's import graph, without the imports made for type checking only."""
    return grimp.build_graph(package, exclude_type_checking_imports=True, cache_dir=None)


def import_cycles(graph: grimp.ImportGraph) -> list[frozenset[str]]:
    """Every strongly connected component of more than one module, largest first.

    Tarjan's algorithm, iterative (the graph has a few hundred modules, a recursive walk
    would be fine, but an iterative one cannot hit the recursion limit).
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    imported = graph.find_modules_directly_imported_by(child)
                    work.append((child, iter(sorted(imported))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return sorted(found, key=lambda c: (-len(c), sorted(c)))


def cycle_edges(graph: grimp.ImportGraph, component: frozenset[str]) -> list[str]:
    """The imports inside one component, ``importer -> imported (line: text)``."""
    lines = []
    for importer in sorted(component):
        for imported in sorted(graph.find_modules_directly_imported_by(importer) & component):
            details = graph.get_import_details(importer=importer, imported=imported)
            where = "; ".join(f"{d['line_number']}: {d['line_contents']}" for d in details)
            lines.append(f"  {importer} -> {imported}  ({where})")
    return lines


def main(argv: list[str]) -> int:
    package = argv[1] if len(argv) > 1 else "conteur"
    graph = import_graph(package)
    cycles = import_cycles(graph)
    for component in cycles:
        sys.stdout.write(f"{len(component)} modules: {', '.join(sorted(component))}\n")
        sys.stdout.write("\n".join(cycle_edges(graph, component)) + "\n")
    modules = sum(len(c) for c in cycles)
    sys.stdout.write(f"{len(cycles)} cycles (components > 1), {modules} modules in them\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
