"""The ``western`` ruleset: scenario → state, command dispatch, legal commands, end state."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from conteur.engine import Command, CommandTemplate, Param, Resolution, Ruleset
from conteur.engine.rules import RuleText, load_rule_texts
from conteur.i18n import ConteurError, Lang

from . import combat, knockout, order, reputation
from .sheet import fighter_from_scenario
from .state import TablesRef, WesternState
from .tables import load_tables

Handler = Callable[[Resolution, Command], None]


class WesternRuleset(Ruleset[WesternState]):
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
        known = {"ko_strictly_under", "instinctive_beyond"}
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

    # ------------------------------------------------------------------ commands

    def resolve(self, ctx: Resolution, command: Command) -> None:
        handler = self.handlers.get(command.type)
        if handler is None:
            raise ConteurError("engine.unknown_command", command=command.type)
        handler(ctx, command)
        reputation.judge_if_over(ctx)

    def load_sheet(self, data: Mapping[str, Any], source: str = "<sheet>") -> object:
        """A sheet validated, French or English names (``sheet.load_sheet``)."""
        from .sheet import load_sheet

        return load_sheet(data, source)

    def parse_command(self, line: str, state: Any, lang: Lang | None = None) -> Command:
        from .script import parse_line

        return parse_line(line, state)

    def due_actors(self, state: Any) -> list[str]:
        """Whose shot or blow comes next in the round's order of combat (W-SPD-2)."""
        due = state.due()
        return [str(due[0])] if due is not None else []

    def legal_commands(self, state: Any, actor: str | None = None) -> list[CommandTemplate]:
        assert isinstance(state, WesternState)
        out: list[CommandTemplate] = []
        fighters = state.fighters
        alive = tuple(f.id for f in fighters.values() if f.fate != "dead")
        if actor is None:
            if state.phase != "round":
                out.append(CommandTemplate("round", None, (), "W-RND-1"))
            out.append(
                CommandTemplate(
                    "surprise",
                    None,
                    (
                        Param("target", "choice", alive),
                        Param("surprise", "choice", ("sudden", "attacked")),
                    ),
                    "W-RND-2",
                )
            )
            out.append(CommandTemplate("bind", None, (Param("target", "choice", alive),), "W-KO-5"))
            sides = tuple(dict.fromkeys(f.side for f in fighters.values()))
            if not state.duel_judged:
                out.append(
                    CommandTemplate(
                        "duel_won",
                        None,
                        (Param("side", "choice", sides), Param("witness", "bool", required=False)),
                        "W-REP-1",
                    )
                )
        due = state.due()
        for f in fighters.values():
            if actor is not None and f.id != actor:
                continue
            others = tuple(x for x in alive if x != f.id)
            if due is not None and due[0] == f.id:
                zones = tuple(loc.id for loc in state.tables.locations)
                out.append(
                    CommandTemplate(
                        "attack",
                        f.id,
                        (
                            Param("target", "choice", others),
                            Param("zone", "choice", zones, required=False),
                            Param("modifier", "int", min=-100, max=100, required=False, default=0),
                        ),
                        "W-SEQ-1",
                    )
                )
                out.append(CommandTemplate("pass", f.id, (), "W-SPD-2"))
                out.append(
                    CommandTemplate(
                        "run",
                        f.id,
                        (
                            Param("metres", "int", min=1, max=20, required=False, default=8),
                            Param("toward", "bool", required=False),
                        ),
                        "W-RND-1",
                    )
                )
                if due[1] in f.ammo:
                    out.append(CommandTemplate("reload", f.id, (), "W-RND-1"))
            if f.standing and others:
                heavy = tuple(
                    w
                    for w in f.weapons + ([f.off_hand] if f.off_hand else [])
                    if state.tables.weapon(w).heavy
                )
                out.append(
                    CommandTemplate(
                        "approach",
                        f.id,
                        (
                            Param("target", "choice", others),
                            Param("modifiers", "text", required=False),
                        ),
                        "W-KO-1",
                    )
                )
                if heavy:
                    out.append(
                        CommandTemplate(
                            "knockout",
                            f.id,
                            (
                                Param("target", "choice", others),
                                Param("weapon", "choice", tuple(dict.fromkeys(heavy))),
                            ),
                            "W-KO-3",
                        )
                    )
        return out

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

    def summary(self, state: Any) -> list[dict[str, Any]]:
        from .summary import summary

        return summary(state)

    def summary_lines(self, state: Any, lang: Lang) -> list[str]:
        from .summary import summary_lines

        return summary_lines(state, lang)

    def attack_odds(
        self,
        state: Any,
        attacker: str,
        target: str,
        maneuver: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> Any:
        from .odds import attack_odds

        return attack_odds(state, attacker, target, maneuver, params)

    def attack_kinds(self, state: Any, attacker: str) -> list[str]:
        """What ``attacker`` can attack with: ``main`` and, with two guns, ``off``."""
        assert isinstance(state, WesternState)
        f = state.fighter(attacker)
        return ["main", "off"] if f.off_hand else ["main"]

    def rule_texts(self) -> Mapping[str, RuleText]:
        """The W- rules, title and summary in French and English (``data/rules.yaml``)."""
        return load_rule_texts("conteur.rulesets.western")
