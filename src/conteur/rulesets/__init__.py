"""Rulesets: one package per game system (``vtm``, later ``hunter``, ``western``)."""
