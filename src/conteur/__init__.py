"""conteur — rules engine and live combat tracker for French tabletop role-playing games.

The public Python API (``conteur.api``): ``conteur.Scenario.load(path)``,
``scenario.attack_odds(attacker, target, maneuver=None, **params)`` and
``conteur.simulate(path, runs=..., seed=..., workers=...)`` and
``conteur.sweep(path, spec, runs=..., seed=..., workers=...)``, loaded on first use so that
``import conteur`` (and every CLI command) stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import runcache

runcache.install()  # before any of conteur's classes is created (see conteur.runcache)

__version__ = "0.1.0"

if TYPE_CHECKING:
    from .api import Scenario, simulate, sweep

__all__ = ["Scenario", "__version__", "simulate", "sweep"]


def __getattr__(name: str) -> Any:
    if name in ("Scenario", "simulate", "sweep"):
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'conteur' has no attribute {name!r}")
