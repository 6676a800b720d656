"""WILD WEST 1873, "4 Les Combats (extraits)" (``003``): the ``western`` ruleset.

Importing the package registers its message catalogs (the fight, the command line)
and nothing else, so that its light modules (``dice``, ``cli``) load fast. The
ruleset itself, ``WesternRuleset`` (found through the entry-point group
``conteur.rulesets``), is imported when first asked for, with the words of its
default tables (zones, weapons, skills, stealth modifiers).
"""

from typing import TYPE_CHECKING, Any

import conteur.i18n

# The command line's catalog first (read in this order until one has the key asked for).
conteur.i18n.register_package_catalog("conteur.rulesets.western", "messages-cli.yaml")
conteur.i18n.register_package_catalog("conteur.rulesets.western")
conteur.i18n.register_package_catalog("conteur.rulesets.western", "messages-sheetform.yaml")

if TYPE_CHECKING:
    from .ruleset import WesternRuleset

__all__ = ["WesternRuleset"]


def __getattr__(name: str) -> Any:
    """``WesternRuleset``, imported (with the words of its default tables) when first asked for."""
    if name == "WesternRuleset":
        from .ruleset import WesternRuleset

        return WesternRuleset
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
