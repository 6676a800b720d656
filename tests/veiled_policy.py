"""A visibility policy stamped for the readers' tests, whatever vtm's own policy is.

The GM's note is the GM's; an attack roll is its attacker's (an NPC's is nobody's at the
table), veiled as « X attaque Y ». The readers' side of the seam (the tracker, ``conteur
play --as``) is checked by itself with it: what a reader shows follows ``Event.seen``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from conteur.engine.events import Event
from conteur.engine.visibility import GM_ONLY, PUBLIC, Visibility, owned_by
from conteur.rulesets.vtm.events import AttackRolled, GmNote
from conteur.rulesets.vtm.ruleset import VtmRuleset


def install(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stamp vtm's events with the policy above for the rest of the test."""

    def visibility(self: VtmRuleset, event: Event, state: Any) -> Visibility:
        if isinstance(event, GmNote):
            return GM_ONLY
        if isinstance(event, AttackRolled):
            return owned_by(event.attacker)
        return PUBLIC if event.public else GM_ONLY

    def veiled(self: AttackRolled, lang: Any = None, names: Mapping[str, str] | None = None) -> str:
        names = names or {}
        return f"{names.get(self.attacker, self.attacker)} attaque {names.get(self.target)}"

    monkeypatch.setattr(VtmRuleset, "visibility", visibility)
    monkeypatch.setattr(AttackRolled, "veiled", veiled)
