"""Hunter, new World of Darkness (``004_951d1ab1e0a088a2.txt``): the ``hunter`` ruleset.

Importing the package registers its message catalogs (the fight, practical
experience, the command line) and nothing else, so that its light modules
(``dice``, ``cli``) load fast. The ruleset itself, ``HunterRuleset`` (found through
the entry-point group ``conteur.rulesets``), is imported when first asked for.
"""

from typing import TYPE_CHECKING, Any

import conteur.i18n

# The command line's catalog first (read in this order until one has the key asked for).
conteur.i18n.register_package_catalog("conteur.rulesets.hunter", "messages-cli.yaml")
conteur.i18n.register_package_catalog("conteur.rulesets.hunter")
for _part in ("xp", "sheetform"):
    conteur.i18n.register_package_catalog("conteur.rulesets.hunter", f"messages-{_part}.yaml")

if TYPE_CHECKING:
    from .ruleset import HunterRuleset

__all__ = ["HunterRuleset"]


def __getattr__(name: str) -> Any:
    """``HunterRuleset``, imported (with every rule module) when first asked for."""
    if name == "HunterRuleset":
        from .ruleset import HunterRuleset

        return HunterRuleset
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
