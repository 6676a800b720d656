"""Seeded simulated fights are the same, roll for roll, as on the engine that copied the state
before every command (``fight_records.json``, written from main at 5fbbdd4)."""

from __future__ import annotations

import pytest

from .fight_records import CONFIGS, load, records

FIGHTS = 12
"""Fights checked per configuration here; ``benchmarks/fight_records.py`` checks them all."""


@pytest.mark.parametrize("name", [c[0] for c in CONFIGS])
def test_seeded_fights_are_the_recorded_ones(name: str) -> None:
    want = load()[name][:FIGHTS]
    assert records(name, len(want)) == want
