"""The whole state of an encounter as plain data, to compare two states field by field."""

from __future__ import annotations

import dataclasses
from typing import Any

from pydantic import BaseModel

from conteur.rulesets.vtm.tables import TablesRef


def dump(value: Any) -> Any:
    """Plain data of ``value``: dataclasses and models as dicts, the shared tables by name."""
    if isinstance(value, TablesRef):
        return f"tables:{value.tables.era}"
    if isinstance(value, BaseModel):
        return value  # immutable models (sheets) compare field by field
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if value.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return value  # immutable records (actions, declarations, levels) compare as they are
        return {f.name: dump(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): dump(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(dump(v) for v in value)
    if isinstance(value, list):
        return [dump(v) for v in value]
    return value
