"""Rulesets, each found by name through ``conteur.engine.get_ruleset``."""
