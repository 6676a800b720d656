"""The ``western`` ruleset: scenario → state, command dispatch, legal commands, end state."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conteur.dice import RollKind
from conteur.engine import Command, CommandTemplate, Event, Param, Resolution, Ruleset
from conteur.engine.battlemap import BattleMap
from conteur.engine.commands import SETTLE_TIE
from conteur.engine.inputs import Key
from conteur.engine.joining import JOIN, WITHDRAW
from conteur.engine.npcs import Archetype
from conteur.engine.report import Fact
from conteur.engine.rules import RuleText, load_rule_texts
from conteur.engine.sheetform import SheetForm
from conteur.engine.views import Column, Roster, TurnView
from conteur.engine.visibility import Audiences, Visibility
from conteur.i18n import Bilingual, ConteurError, Lang

from . import battlemap, combat, joining, knockout, order, reputation
from .sheet import fighter_from_scenario
from .state import TablesRef, WesternState
from .sweep import OPTIONS
from .tables import load_tables

Handler = Callable[[Resolution, Command], None]

if TYPE_CHECKING:
    from conteur.sim.referee import Referee
    from conteur.sim.tactics import TacticFactory


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

    # ------------------------------------------------------------------ its other parts

    def referee(self) -> Referee:
        """The simulator's referee (``.sim``, imported when first asked for)."""
        from .sim import REFEREE

        return REFEREE

    def tactics(self) -> Mapping[str, TacticFactory]:
        """The simulator's tactics by name (``.sim``)."""
        from .sim import TACTICS

        return TACTICS

    def sweep_traits(self, state: WesternState) -> Mapping[str, str]:
        """The characteristics and skills of the scenario's tables (``.sweep``)."""
        from .sweep import sweep_traits

        return sweep_traits(state)

    def sweep_trait_name(self, state: WesternState, trait: str) -> Bilingual:
        """The characteristic's or skill's name in the tables (« tir visé au pistolet »)."""
        from .sweep import trait_name

        return trait_name(state, trait)

    def with_trait(
        self,
        state: WesternState,
        entry: Mapping[str, Any],
        trait: str,
        value: int,
        base_dir: Path | None = None,
    ) -> dict[str, Any]:
        from .sweep import with_trait

        return with_trait(state, entry, trait, value, base_dir)

    def sweep_options(self, state: WesternState) -> Mapping[str, str]:
        """The two table options (``.sweep``)."""
        return {key: key for key in OPTIONS}

    def positions(self, state: WesternState) -> Mapping[str, tuple[float, float]]:
        return {f.id: f.position for f in state.fighters.values()}

    def battle_map(self, state: WesternState, lang: Lang | None = None) -> BattleMap:
        """Positions in metres, the 20 m of instinctive fire, ranges (``.battlemap``)."""
        return battlemap.battle_map(state, lang)

    def roll_kinds(self) -> Sequence[RollKind]:
        """The rolls of this ruleset (``.dice``)."""
        from .dice import Percentile, PercentileResult

        return (RollKind(Percentile, PercentileResult),)

    def parse_command(self, line: str, state: Any, lang: Lang | None = None) -> Command:
        from .script import parse_line

        return parse_line(line, state)

    def vocabulary(self) -> frozenset[str]:
        """Its command types."""
        return frozenset(self.handlers)

    def due_actors(self, state: WesternState) -> list[str]:
        """Whose shot or blow comes next (W-SPD-2): ``turn_view(state).due``, kept for the
        readers that do not read ``turn_view`` yet."""
        return list(self.turn_view(state).due)

    def legal_commands(
        self, state: WesternState, actor: str | None = None
    ) -> list[CommandTemplate]:
        """What ``actor`` (or anyone) may do now, built by the checks the commands run
        (``legal.py``: one legality)."""
        from .legal import legal_commands

        return legal_commands(state, actor)

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

    def roster(self, state: WesternState) -> Roster:
        """A row per fighter: PV, reputation, cartridges in each hand, conditions."""
        from .views import roster

        return roster(state)

    def columns(self) -> tuple[Column, ...]:
        from .views import COLUMNS

        return COLUMNS

    def turn_view(self, state: WesternState) -> TurnView:
        """The round, its phase, whose shot comes now, the shots still to come (W-SPD-2)."""
        from .views import turn_view

        return turn_view(state)

    def reveals(self, command: Command, state: WesternState) -> bool:
        """A hidden fighter comes out when it acts; not when it does what the table does not
        see (``visibility.STAYS_HIDDEN``)."""
        from .visibility import STAYS_HIDDEN

        return command.actor is not None and command.type not in STAYS_HIDDEN

    def visibility(self, event: Event, state: WesternState) -> Visibility:
        """A shooter's roll is its own, a wound its victim's; the rest is public
        (``visibility.visibility``, which says it per event type)."""
        from .visibility import visibility

        return visibility(event, state)

    def join_rule(self, state: Any) -> str | None:
        """W-SPD-2: a newcomer takes its place in the order of combat from the next round."""
        return "W-SPD-2"

    def fight_facts(self, event: Event) -> Sequence[Fact]:
        """Attacks, hits, damage and every roll, for the summary (``.report``)."""
        from .report import fight_facts

        return fight_facts(event)

    def audiences(self) -> Audiences:
        from .visibility import AUDIENCES

        return AUDIENCES

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

    # ------------------------------------------------------------------ quick NPCs

    def archetypes(self, era: str | None = None) -> list[Archetype]:
        """Our default opponents (``data/archetypes.yaml``)."""
        from .npc import archetypes

        return list(archetypes())

    def sheet_form(self, era: str | None = None) -> SheetForm:
        """The characteristics and skills of the tables, the weapons, ambidexterity."""
        from .sheetform import sheet_form

        return sheet_form(era)

    def state_form(self, state: Mapping[str, Any], era: str | None = None) -> SheetForm:
        """PV, reputation, the cartridges in each hand, the fate."""
        from .sheetform import state_form

        return state_form(state, era)

    def quick_npc_params(self, era: str | None = None) -> tuple[Param, ...]:
        from .npc import quick_npc_params

        return quick_npc_params()

    def quick_npc_label(self, name: str, lang: Lang | None = None) -> str:
        from .npc import param_label

        return param_label(name, lang)

    def quick_npc(self, params: Mapping[str, Any], era: str | None = None) -> dict[str, Any]:
        from .npc import quick_npc

        return quick_npc(params)

    def attack_kinds(self, state: Any, attacker: str) -> list[str]:
        """What ``attacker`` can attack with: ``main`` and, with two guns, ``off``."""
        assert isinstance(state, WesternState)
        f = state.fighter(attacker)
        return ["main", "off"] if f.off_hand else ["main"]

    def rule_texts(self) -> Mapping[str, RuleText]:
        """The W- rules, title and summary in French and English (``data/rules.yaml``)."""
        return load_rule_texts("conteur.rulesets.western")


def _register_default_words() -> None:
    """The words of the default tables (``word.western.<id>``, skills), for every log line."""
    from .words import register_words

    register_words()


_register_default_words()
