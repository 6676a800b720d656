"""The PostgreSQL test setup: found where Debian installs it; missing, it fails CI and skips elsewhere."""

from __future__ import annotations

import pytest
from _pytest.outcomes import Failed, Skipped

import pg_cluster


@pytest.mark.parametrize(
    ("env", "required"),
    [
        ({}, False),
        ({"CI": "true"}, True),
        ({"CONTEUR_REQUIRE_PG": "1"}, True),
        ({"CI": "0"}, False),
    ],
)
def test_pg_is_required_in_ci(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], required: bool
) -> None:
    for name in ("CI", "CONTEUR_REQUIRE_PG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert pg_cluster.pg_required() is required


def test_missing_binaries_fail_when_required_and_skip_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pg_cluster, "find_binaries", lambda: None)
    monkeypatch.delenv("CONTEUR_TEST_PG_URL", raising=False)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(Failed, match="initdb"):
        pg_cluster.start_for_tests()
    monkeypatch.delenv("CI")
    monkeypatch.delenv("CONTEUR_REQUIRE_PG", raising=False)
    with pytest.raises(Skipped, match="postgresql"):
        pg_cluster.start_for_tests()


def test_the_debian_binaries_are_found_when_installed() -> None:
    folder = pg_cluster.find_binaries()
    if folder is None:
        pytest.skip(pg_cluster.MISSING)
    assert (folder / "initdb").exists() and (folder / "pg_ctl").exists()
