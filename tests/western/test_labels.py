"""Every command and parameter the western ruleset offers has a label in French and English."""

from __future__ import annotations

from conteur.dice import SeededDice
from conteur.engine import Command, Encounter
from conteur.i18n import catalog
from conteur.web.view import label

from .fight import gunman


def test_every_offered_command_and_parameter_is_labelled() -> None:
    enc = Encounter.start(
        {
            "ruleset": "western",
            "combatants": [
                # A gun not full (reload), a helpless victim at hand (knockout, W-KO-5).
                gunman("bill", off_hand="colt_saa", ammo={"main": 3}),
                gunman("joe", x=10),
                gunman("tied", x=1, helpless=True),
            ],
        }
    )
    templates = enc.legal_commands()
    enc.execute(Command("round"), SeededDice(1))
    templates += enc.legal_commands()
    for fid in enc.end_state():
        templates += enc.legal_commands(fid)
    assert {"round", "attack", "pass", "reload", "run", "surprise", "approach", "knockout"} <= {
        tp.type for tp in templates
    }
    missing = set()
    for tp in templates:
        if not {f"web.cmd.{tp.type}", f"cmd.{tp.type}"} & set(catalog()):
            missing.add(f"cmd.{tp.type}")
        for p in tp.params:
            if not {f"web.param.{p.name}", f"param.{p.name}"} & set(catalog()):
                missing.add(f"param.{p.name}")
    assert not missing, f"commands or parameters without a label: {sorted(missing)}"
    assert (
        label("cmd", "attack", "fr") == "tirer / frapper"
        and label("cmd", "attack", "en") == "shoot / strike"
    )
