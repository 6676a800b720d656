"""The ``hunter`` ruleset: scenario → state, command dispatch, legal commands, end state."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from conteur.engine import Resolution
from conteur.engine.battlemap import Unit
from conteur.engine.joining import JOIN, WITHDRAW
from conteur.engine.kit import Handler, KitRuleset
from conteur.i18n import ConteurError, register_words

from . import actions, joining, turn
from .sheet import fighter_from_scenario
from .state import HunterState
from .tables import load_tables, option_values


@cache
def _register_table_words() -> None:
    """Log lines name weapons and armour by the tables' names (``word.<id>``)."""
    tables = load_tables()
    words = {w.id: (w.fr, w.en) for w in tables.weapons.values()}
    words |= {a.id: (a.fr, a.en) for a in tables.armour.values()}
    register_words("conteur.rulesets.hunter/data (weapons, armour)", words)


class HunterRuleset(KitRuleset[HunterState]):
    """Hunter in the new World of Darkness (``004``)."""

    name = "hunter"

    deferrable = frozenset({"hunter.act.not_due", "hunter.act.surprised"})
    """Refusals that only mean "not this fighter's turn yet" (H-INI-1, H-DEL-1, H-AMB-1)."""

    def __init__(self) -> None:
        _register_table_words()
        self.handlers: dict[str, Handler] = {
            "initiative": turn.start_turn,
            "ambush": turn.ambush,
            "act": actions.act,
            "delay": turn.delay,
            "pass": actions.pass_action,
            "dodge": actions.dodge,
            "quick_draw": actions.quick_draw,
            "stop_aiming": actions.stop_aiming,
            "gm_cover": actions.set_cover,
            "gm_place": actions.place,
            "gm_zone": actions.zone,
            "gm_unzone": actions.unzone,
            "gm_damage": actions.gm_damage,
            "gm_xp_reset": actions.gm_xp_reset,
            JOIN: joining.join,
            WITHDRAW: joining.take_out,
        }

    def new_state(self, scenario: Mapping[str, Any], base_dir: Path | None = None) -> HunterState:
        tables = load_tables()
        state = HunterState(fighters={}, options=option_values(scenario.get("options")))
        for i, raw in enumerate(scenario.get("combatants", []) or []):
            f = fighter_from_scenario(raw, i, tables)
            if f.id in state.fighters:
                raise ConteurError("hunter.scenario.duplicate", id=f.id)
            state.fighters[f.id] = f
        return state

    def settle(self, ctx: Resolution) -> None:
        """After every command: is the fight over (``turn.check_over``)."""
        turn.check_over(ctx)

    # ------------------------------------------------------------------ its other parts

    def map_unit(self) -> Unit:
        """Hunter counts distances in yards (H-RNG-1)."""
        return "yard"

    def vocabulary(self) -> frozenset[str]:
        """Its command types and the commands and action kinds its script's verbs mean."""
        from .script import meanings

        return frozenset({*self.handlers, *meanings()})

    def end_state(self, state: Any) -> dict[str, dict[str, Any]]:
        """Health, fate, ammunition, weapon; a hunter's H-XP-2 counters too (``xp_counters``)."""
        out: dict[str, dict[str, Any]] = {}
        for f in state.fighters.values():
            out[f.id] = {
                "health": f.health.marks(),
                "fate": f.fate,
                "ammo": dict(sorted(f.ammo.items())),
                "weapon": f.weapon,
            }
            if f.kind == "hunter":
                out[f.id]["xp_counters"] = f.xp_counters()
        return out

    def join_rule(self, state: Any) -> str | None:
        """H-INI-1 (reading, as H-AMB-1): a newcomer rolls initiative at the next turn."""
        return None if state.phase == "over" else "H-INI-1"

    # ------------------------------------------------------------------ quick NPCs

    def attack_kinds(self, state: Any, attacker: str) -> list[str]:
        from .odds import attack_kinds

        return attack_kinds(state, attacker)
