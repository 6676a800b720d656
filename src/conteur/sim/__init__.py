"""Simulation: large batches of single attacks (numpy), and in time whole encounters."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .batch import StrikeBatch, roll_strikes

__all__ = ["StrikeBatch", "roll_strikes"]


def __getattr__(name: str) -> Any:
    """``StrikeBatch`` and ``roll_strikes``, loaded (with numpy) when first asked for: the CLI
    registers this package's message catalog at start-up and must not pay for numpy."""
    if name in __all__:
        from . import batch

        return getattr(batch, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
