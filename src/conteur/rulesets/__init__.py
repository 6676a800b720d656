"""Rulesets, each found by name through ``conteur.engine.get_ruleset``.

Each ruleset package's ``__init__`` makes itself with ``ruleset_package``: importing it
registers its message catalogues and nothing else, so that its light modules (``dice``,
``cli``) load fast; its ruleset class (which the entry-point group ``conteur.rulesets``
names) is imported from its ``ruleset`` module when first asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any

import conteur.i18n


def ruleset_package(package: str, ruleset: str, catalogs: Iterable[str]) -> Callable[[str], Any]:
    """Register ``package``'s ``messages.yaml`` and ``messages-<part>.yaml`` for each of
    ``catalogs`` (the command line's, ``cli``, first); return the package's module
    ``__getattr__``, which imports ``ruleset`` (the class, with every rule module) from
    ``package.ruleset`` when first asked for."""
    parts = list(catalogs)
    if "cli" in parts:  # first: catalogs are read in order until one has the key asked for,
        parts.remove("cli")  # so that ``conteur odds <ruleset>`` reads only what it prints from
        conteur.i18n.register_package_catalog(package, "messages-cli.yaml")
    conteur.i18n.register_package_catalog(package)
    for part in parts:
        conteur.i18n.register_package_catalog(package, f"messages-{part}.yaml")

    def __getattr__(name: str) -> Any:
        if name == ruleset:
            return getattr(importlib.import_module(f"{package}.ruleset"), ruleset)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


__all__ = ["ruleset_package"]
