"""Shared test setup: French by default, whatever the developer's environment says."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _default_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests start with ``CONTEUR_LANG`` unset, so the default language is French."""
    monkeypatch.delenv("CONTEUR_LANG", raising=False)
