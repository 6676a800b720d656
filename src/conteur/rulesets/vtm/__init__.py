"""Vampire: la Mascarade, "Le Combat" (``000_2b289214c933fb00.txt``): the ``vtm`` ruleset.

Importing the package registers its message catalogs (``messages.yaml`` for sheets
and tables, ``messages-play.yaml`` for the fight, ``messages-cli.yaml`` for the
command line) and nothing else, so that its light modules (``dice``, ``cli``) load
fast. The ruleset itself, ``VtmRuleset`` (found through the entry-point group
``conteur.rulesets``), is imported when first asked for, with the words of its tables.
"""

from typing import TYPE_CHECKING

from conteur.rulesets import ruleset_package

__getattr__ = ruleset_package(
    "conteur.rulesets.vtm",
    "VtmRuleset",
    ("play", "close", "ranged", "defence", "foundry", "npc", "cli", "views", "sheetform"),
)

if TYPE_CHECKING:
    from .ruleset import VtmRuleset

__all__ = ["VtmRuleset"]
