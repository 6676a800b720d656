"""Vampire: la Mascarade, "Le Combat" (``000_2b289214c933fb00.txt``): the ``vtm`` ruleset.

Importing the package registers its message catalogs (``messages.yaml`` for sheets
and tables, ``messages-play.yaml`` for the fight, ``messages-cli.yaml`` for the
command line) and nothing else, so that its light modules (``dice``, ``cli``) load
fast. The ruleset itself, ``VtmRuleset`` (found through the entry-point group
``conteur.rulesets``), is imported when first asked for, with the words of its tables.
"""

from typing import TYPE_CHECKING, Any

import conteur.i18n

# The command line's catalog first: catalogs are read in this order until one has the key
# asked for, so that ``conteur odds vtm`` reads only the catalogs it prints from.
conteur.i18n.register_package_catalog("conteur.rulesets.vtm", "messages-cli.yaml")
conteur.i18n.register_package_catalog("conteur.rulesets.vtm")
for _part in ("play", "close", "ranged", "defence", "foundry", "npc", "views", "sheetform"):
    conteur.i18n.register_package_catalog("conteur.rulesets.vtm", f"messages-{_part}.yaml")

if TYPE_CHECKING:
    from .ruleset import VtmRuleset

__all__ = ["VtmRuleset"]


def __getattr__(name: str) -> Any:
    """``VtmRuleset``, imported (with every rule module) when first asked for."""
    if name == "VtmRuleset":
        from .ruleset import VtmRuleset

        return VtmRuleset
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
