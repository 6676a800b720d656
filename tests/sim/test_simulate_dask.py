"""``--dask ADDRESS`` (issue 8 item 4): the same batches on a Dask cluster, the same result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conteur.cli import app
from conteur.i18n import ConteurError
from conteur.sim import encounters
from conteur.sim.encounters import simulate

distributed = pytest.importorskip("distributed")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "simulation" / "4v4_1899.yaml"


def test_a_dask_run_equals_the_local_run_with_the_same_seed(cluster: Any) -> None:
    local = simulate(EXAMPLE, 10, seed=99, workers=1, chunk_size=3)
    remote = simulate(EXAMPLE, 10, seed=99, dask=cluster.scheduler_address, chunk_size=2)
    assert remote.backend == "dask"
    assert remote.outcome_dict() == local.outcome_dict()


def test_the_cli_takes_the_scheduler_address(cluster: Any) -> None:
    args = ["simulate", str(EXAMPLE), "--runs", "4", "--seed", "5", "--json", "--no-plot"]
    on_dask = CliRunner().invoke(app, [*args, "--dask", cluster.scheduler_address])
    here = CliRunner().invoke(app, [*args, "--workers", "1"])
    assert on_dask.exit_code == 0 and here.exit_code == 0, on_dask.output
    a, b = json.loads(on_dask.stdout), json.loads(here.stdout)
    assert a.pop("run")["backend"] == "dask" and b.pop("run")["backend"] == "local"
    assert a == b


def test_an_unreachable_scheduler_is_a_user_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encounters, "DASK_CONNECT_TIMEOUT", 1.0)
    with pytest.raises(ConteurError) as err:
        simulate(EXAMPLE, 2, seed=1, dask="tcp://127.0.0.1:9")
    assert err.value.key == "sim.dask.unreachable"
    assert "127.0.0.1:9" in err.value.message("fr") and err.value.message("en")
