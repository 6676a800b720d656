"""Every command and parameter the hunter ruleset offers has its label in hunter's own
catalog (as ``cmd.X`` or ``hunter.cmd.X``) or the core one (fr and en), except the generic ones the web layer labels for every
ruleset."""

from __future__ import annotations

from importlib import resources

import yaml

from conteur.engine import CommandTemplate

from .fight import Fight, sheet

GENERIC = {
    "cmd": {"initiative", "declare", "act", "pass", "gm_cover", "gm_damage"},
    "param": {"target", "weapon", "kind", "fighter"},
}


def own_catalog() -> dict[str, dict[str, str]]:
    """Hunter's own messages and the core catalog's (labels shared by every ruleset)."""
    out: dict[str, dict[str, str]] = {}
    for package in ("conteur.rulesets.hunter", "conteur.i18n"):
        text = resources.files(package).joinpath("messages.yaml").read_text("utf-8")
        data = yaml.safe_load(text)
        assert isinstance(data, dict)
        out.update(data)
    return out


def offered() -> list[CommandTemplate]:
    """The commands of a fight before it starts, and of each fighter once it has."""
    quick = sheet("ana", weapon="heavy_pistol", weapons=["knife"], merits=["quick_draw"])
    f = Fight(quick, sheet("bete", kind="monstre"))
    templates = f.encounter.legal_commands()
    f.start(9, 1)
    f.act("ana", kind="aim", target="bete")
    f.do("initiative")
    templates += f.encounter.legal_commands()
    for fid in f.state.fighters:
        templates += f.encounter.legal_commands(fid)
    return templates


def test_hunter_labels_every_command_and_parameter_it_offers() -> None:
    catalog = own_catalog()
    wanted = set()
    for tp in offered():
        if tp.type not in GENERIC["cmd"]:
            wanted.add(f"cmd.{tp.type}")
        wanted |= {f"param.{p.name}" for p in tp.params if p.name not in GENERIC["param"]}
    # The ruleset's own key (``hunter.cmd.gm_place``, read first by ``web.view.label``) or
    # the shared one (``cmd.gm_place``).
    missing = sorted(
        k
        for k in wanted
        if {"fr", "en"} not in (set(catalog.get(k) or {}), set(catalog.get(f"hunter.{k}") or {}))
    )
    assert not missing, missing
    assert {"cmd.quick_draw", "cmd.gm_xp_reset", "param.damage_type", "cmd.gm_place"} <= wanted
