"""Positions in metres on a plane, and the distances the rules read from them."""

from __future__ import annotations

import math

Position = tuple[float, float]


def distance(a: Position, b: Position) -> float:
    """Straight-line distance in metres."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


def move_toward(start: Position, goal: Position, metres: float) -> Position:
    """The point reached moving ``metres`` from ``start`` toward ``goal`` (no further than goal)."""
    d = distance(start, goal)
    if d <= metres or d == 0:
        return goal
    f = metres / d
    return (start[0] + (goal[0] - start[0]) * f, start[1] + (goal[1] - start[1]) * f)


def parse_position(value: object) -> Position:
    """A position from ``[x, y]``, ``(x, y)`` or ``"x,y"``."""
    if isinstance(value, str):
        parts = value.replace(";", ",").split(",")
        return (float(parts[0]), float(parts[1]) if len(parts) > 1 else 0.0)
    if isinstance(value, list | tuple) and len(value) in (1, 2):
        return (float(value[0]), float(value[1]) if len(value) > 1 else 0.0)
    if isinstance(value, int | float):
        return (float(value), 0.0)
    raise ValueError(f"not a position: {value!r}")
