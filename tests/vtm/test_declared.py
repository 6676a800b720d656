"""A declaration's event keeps the declaration it was built from: equal to the one read back."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import yaml

from conteur.dice import SeededDice
from conteur.engine import Encounter
from conteur.rulesets.vtm.events import ActionDeclared, declaration_from_dict
from conteur.sim.referee import get_referee
from conteur.sim.tactics import make_tactic

VTM_4V4 = Path(__file__).resolve().parents[2] / "examples" / "simulation" / "4v4_1899.yaml"


def declared_events(tactics: tuple[str, str], seeds: range) -> list[ActionDeclared]:
    data = yaml.safe_load(VTM_4V4.read_text(encoding="utf-8"))
    out: list[ActionDeclared] = []
    for seed in seeds:
        enc = Encounter.start(data, VTM_4V4.parent, keep_history=False)
        sides = {
            side: make_tactic("vtm", name, {})
            for side, name in zip(("chasseurs", "vampires"), tactics, strict=True)
        }
        get_referee("vtm").fight(enc, SeededDice(seed), sides, 20, 50.0)
        out += [ev for ev in enc.events() if isinstance(ev, ActionDeclared)]
    return out


def test_the_kept_declaration_is_the_one_its_dict_reads_back() -> None:
    events = declared_events(("nearest", "nearest"), range(3)) + declared_events(
        ("aim", "dodge"), range(3)
    )
    assert len(events) > 50
    assert any(ev.declared.celerity for ev in events)  # Celerity's extra actions among them
    for ev in events:
        kept = ev.__dict__["declared"]  # set by ``ActionDeclared.of``, not read back
        read = declaration_from_dict(ev.declaration)
        assert kept == read
        assert [type(getattr(kept, f.name)) for f in dataclasses.fields(kept)] == [
            type(getattr(read, f.name)) for f in dataclasses.fields(read)
        ]
        for a, b in zip(kept.actions, read.actions, strict=True):
            assert a.params == b.params and type(a.celerity) is type(b.celerity)


def test_the_kept_declaration_is_no_field_of_the_event() -> None:
    ev = declared_events(("nearest", "nearest"), range(1))[0]
    plain = ActionDeclared(
        fighter=ev.fighter, declaration=ev.declaration, summary=ev.summary, rules=ev.rules
    )
    assert "declared" not in plain.__dict__
    assert plain == ev and plain.to_dict() == ev.to_dict()
    assert plain.declared == ev.declared  # read back when the event was not built by ``of``
    assert pickle.loads(pickle.dumps(ev)) == ev
