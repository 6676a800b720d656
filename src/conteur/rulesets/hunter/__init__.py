"""Hunter, new World of Darkness (``004_951d1ab1e0a088a2.txt``): the ``hunter`` ruleset.

Importing the package registers its message catalogs (the fight, practical
experience, the command line) and nothing else, so that its light modules
(``dice``, ``cli``) load fast. The ruleset itself, ``HunterRuleset`` (found through
the entry-point group ``conteur.rulesets``), is imported when first asked for.
"""

from typing import TYPE_CHECKING

from conteur.rulesets import ruleset_package

__getattr__ = ruleset_package(
    "conteur.rulesets.hunter", "HunterRuleset", ("xp", "cli", "sheetform")
)

if TYPE_CHECKING:
    from .ruleset import HunterRuleset

__all__ = ["HunterRuleset"]
