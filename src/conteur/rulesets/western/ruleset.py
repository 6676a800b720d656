"""The ``western`` ruleset: scenario → state, command dispatch, legal commands, end state."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from conteur.engine import Resolution
from conteur.engine.commands import SETTLE_TIE
from conteur.engine.inputs import Key
from conteur.engine.joining import JOIN, WITHDRAW
from conteur.engine.kit import Handler, KitRuleset
from conteur.i18n import ConteurError

from . import battlemap, combat, joining, knockout, order, reputation
from .sheet import fighter_from_scenario
from .state import TablesRef, WesternState
from .sweep import OPTIONS
from .tables import load_tables


class WesternRuleset(KitRuleset[WesternState]):
    """WILD WEST 1873, "4 Les Combats (extraits)" (``003``), with default tables as data."""

    name = "western"

    deferrable = frozenset({"western.not_due"})
    """A shot that is not due yet (W-SPD-2): a script may hold it until its turn comes."""

    def __init__(self) -> None:
        self.handlers: dict[str, Handler] = {
            "round": lambda ctx, c: order.start_round(ctx),
            "attack": combat.attack,
            "pass": combat.pass_turn,
            "reload": combat.reload,
            "run": combat.run,
            "surprise": combat.surprise,
            "approach": knockout.approach,
            "knockout": knockout.knock_out,
            "bind": knockout.bind,
            "duel_won": reputation.duel_won,
            battlemap.PLACE: battlemap.place,
            JOIN: joining.join,
            WITHDRAW: joining.take_out,
            SETTLE_TIE: joining.settle_tie,
        }

    # ------------------------------------------------------------------ state

    def new_state(self, scenario: Mapping[str, Any], base_dir: Path | None = None) -> WesternState:
        own = scenario.get("tables")
        path = (base_dir or Path(".")) / str(own) if own else None
        tables = load_tables(path)
        if path is not None:
            from .words import register_words

            register_words(tables)
        state = WesternState(fighters={})
        state.meta["tables"] = TablesRef(tables)
        state.dead_at = tables.health.dead_at
        state.witnesses = bool(scenario.get("witnesses", False))
        state.duel = bool(scenario.get("duel", False))
        options = scenario.get("options") or {}
        if not isinstance(options, Mapping):
            raise ConteurError("western.bad_options")
        known = set(OPTIONS)
        for key in options:
            if key not in known:
                raise ConteurError(
                    "western.unknown_option", name=key, known=", ".join(sorted(known))
                )
        state.options = {str(k): bool(v) for k, v in options.items()}
        for i, raw in enumerate(scenario.get("combatants", []) or []):
            f = fighter_from_scenario(raw, i, tables, base_dir)
            if f.id in state.fighters:
                raise ConteurError("western.duplicate", id=f.id)
            state.fighters[f.id] = f
        return state

    def scenario_keys(self) -> Sequence[Key]:
        """Its own tables, witnesses to the fight, a duel (W-REP-3)."""
        return (
            Key("tables", "tables", "tables"),
            Key("witnesses", "témoins", "witnesses"),
            Key("duel", "duel", "duel"),
        )

    # ------------------------------------------------------------------ commands

    def settle(self, ctx: Resolution) -> None:
        """After every command: a duel is judged once one side alone stands (W-REP-1..3)."""
        reputation.judge_if_over(ctx)

    def load_sheet(self, data: Mapping[str, Any], source: str = "<sheet>") -> object:
        """A sheet validated, French or English names (``sheet.load_sheet``)."""
        from .sheet import load_sheet

        return load_sheet(data, source)

    # ------------------------------------------------------------------ its other parts

    def vocabulary(self) -> frozenset[str]:
        """Its command types."""
        return frozenset(self.handlers)

    def due_actors(self, state: WesternState) -> list[str]:
        """Whose shot or blow comes next (W-SPD-2): ``turn_view(state).due``, kept for the
        readers that do not read ``turn_view`` yet."""
        return list(self.turn_view(state).due)

    # ------------------------------------------------------------------ views

    def end_state(self, state: Any) -> dict[str, dict[str, Any]]:
        """PV, fate, reputation and ammunition each fighter carries out."""
        assert isinstance(state, WesternState)
        return {
            f.id: {
                "pv": f.pv,
                "pv_max": f.pv_max,
                "fate": f.fate,
                "reputation": f.reputation,
                "ammo": dict(f.ammo),
                "unconscious": f.unconscious,
            }
            for f in state.fighters.values()
        }

    def join_rule(self, state: Any) -> str | None:
        """W-SPD-2: a newcomer takes its place in the order of combat from the next round."""
        return "W-SPD-2"

    # ------------------------------------------------------------------ quick NPCs

    def attack_kinds(self, state: Any, attacker: str) -> list[str]:
        """What ``attacker`` can attack with: ``main`` and, with two guns, ``off``."""
        assert isinstance(state, WesternState)
        f = state.fighter(attacker)
        return ["main", "off"] if f.off_hand else ["main"]


def _register_default_words() -> None:
    """The words of the default tables (``word.western.<id>``, skills), for every log line."""
    from .words import register_words

    register_words()


_register_default_words()
