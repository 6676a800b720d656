"""WILD WEST 1873, "4 Les Combats (extraits)" (``003``): the ``western`` ruleset.

Importing the package registers its message catalogs (the fight, the command line)
and nothing else, so that its light modules (``dice``, ``cli``) load fast. The
ruleset itself, ``WesternRuleset`` (found through the entry-point group
``conteur.rulesets``), is imported when first asked for, with the words of its
default tables (zones, weapons, skills, stealth modifiers).
"""

from typing import TYPE_CHECKING

from conteur.rulesets import ruleset_package

__getattr__ = ruleset_package("conteur.rulesets.western", "WesternRuleset", ("cli", "sheetform"))

if TYPE_CHECKING:
    from .ruleset import WesternRuleset

__all__ = ["WesternRuleset"]
