"""Every command and parameter a ruleset offers has a label in French and English."""

from __future__ import annotations

from pathlib import Path

import pytest

from conteur.engine import Encounter
from conteur.engine.scenario import load_scenario
from conteur.i18n import catalog
from conteur.web.view import label

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("name", ["saloon", "fusillade", "vampires"])
def test_every_offered_command_and_parameter_is_labelled(name: str) -> None:
    data, base = load_scenario(EXAMPLES / f"{name}.yaml")
    enc = Encounter.start(data, base)
    templates = enc.legal_commands()
    for fid in enc.end_state():
        templates += enc.legal_commands(fid)
    missing = set()
    for tp in templates:
        if not {f"web.cmd.{tp.type}", f"cmd.{tp.type}"} & set(catalog()):
            missing.add(f"cmd.{tp.type}")
        for p in tp.params:
            if not {f"web.param.{p.name}", f"param.{p.name}"} & set(catalog()):
                missing.add(f"param.{p.name}")
    assert not missing, f"commands or parameters without a label: {sorted(missing)}"
    assert label("cmd", "ambush", "fr") == "embuscade" and label("cmd", "ambush", "en") == "ambush"
