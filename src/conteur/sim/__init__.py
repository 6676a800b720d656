"""Simulation: large batches of single attacks (numpy), and in time whole encounters."""

from .batch import StrikeBatch, roll_strikes

__all__ = ["StrikeBatch", "roll_strikes"]
