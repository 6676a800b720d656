"""Simulation: whole encounters played thousands of times through the real rules.

The generic parts only (``encounters``, ``referee``, ``tactics``, ``report``): each
ruleset gives its referee and tactics (``Ruleset.referee()``, ``Ruleset.tactics()``)
and may carry its own batch tools (a numpy batch of one attack, say) in its package.
"""
