"""The ``hunter`` ruleset: scenario → state, command dispatch, legal commands, end state."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conteur.dice import RollKind
from conteur.engine import Command, CommandTemplate, Event, Param, Resolution, Ruleset
from conteur.engine.battlemap import BattleMap, Unit
from conteur.engine.joining import JOIN, WITHDRAW
from conteur.engine.npcs import Archetype
from conteur.engine.report import Fact
from conteur.engine.rules import RuleText, load_rule_texts
from conteur.engine.sheetform import SheetForm
from conteur.engine.views import Column, Roster, TurnView
from conteur.engine.visibility import Audiences, Visibility
from conteur.i18n import ConteurError, Lang, Msg, register_words

from . import actions, joining, turn
from .sheet import fighter_from_scenario
from .state import HunterState
from .tables import load_tables, option_values

Handler = Callable[[Resolution, Command], None]

if TYPE_CHECKING:
    from conteur.sim.referee import Referee
    from conteur.sim.tactics import TacticFactory


@cache
def _register_table_words() -> None:
    """Log lines name weapons and armour by the tables' names (``word.<id>``)."""
    tables = load_tables()
    words = {w.id: (w.fr, w.en) for w in tables.weapons.values()}
    words |= {a.id: (a.fr, a.en) for a in tables.armour.values()}
    register_words("conteur.rulesets.hunter/data (weapons, armour)", words)


class HunterRuleset(Ruleset[HunterState]):
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

    def resolve(self, ctx: Resolution, command: Command) -> None:
        handler = self.handlers.get(command.type)
        if handler is None:
            raise ConteurError("engine.unknown_command", command=command.type)
        handler(ctx, command)
        turn.check_over(ctx)

    # ------------------------------------------------------------------ its other parts

    def referee(self) -> Referee:
        """The simulator's referee (``.sim``, imported when first asked for)."""
        from .sim import REFEREE

        return REFEREE

    def tactics(self) -> Mapping[str, TacticFactory]:
        """The simulator's tactics by name (``.sim``)."""
        from .sim import TACTICS

        return TACTICS

    def sweep_traits(self, state: HunterState) -> Mapping[str, str]:
        """The traits the rules read, French or English (``.sweep``)."""
        from .sweep import sweep_traits

        return sweep_traits()

    def sweep_trait_name(self, state: HunterState, trait: str) -> Msg:
        """The trait's name in the catalogue (« Dextérité » / "Dexterity")."""
        return Msg(f"hunter.form.trait.{trait}")

    def with_trait(
        self,
        state: HunterState,
        entry: Mapping[str, Any],
        trait: str,
        value: int,
        base_dir: Path | None = None,
    ) -> dict[str, Any]:
        from .sweep import with_trait

        return with_trait(entry, trait, value)

    def sweep_options(self, state: HunterState) -> Mapping[str, str]:
        """The table options (``.sweep``)."""
        from .sweep import sweep_options

        return sweep_options()

    def map_unit(self) -> Unit:
        """Hunter counts distances in yards (H-RNG-1)."""
        return "yard"

    def positions(self, state: HunterState) -> Mapping[str, tuple[float, float]]:
        return {f.id: f.position for f in state.fighters.values()}

    def battle_map(self, state: HunterState, lang: Lang | None = None) -> BattleMap:
        """Positions in yards, cover zones, range bands (``.battlemap``)."""
        from .battlemap import battle_map

        return battle_map(state, lang)

    def roll_kinds(self) -> Sequence[RollKind]:
        """The rolls of this ruleset (``.dice``)."""
        from .dice import HunterPool, HunterResult

        return (RollKind(HunterPool, HunterResult),)

    def parse_command(self, line: str, state: Any, lang: Lang | None = None) -> Command:
        from .script import parse_line

        return parse_line(line, state)

    def vocabulary(self) -> frozenset[str]:
        """Its command types and the commands and action kinds its script's verbs mean."""
        from .script import words

        return frozenset({*self.handlers, *(str(m) for m in words()["verbs"].values())})

    def legal_commands(self, state: HunterState, actor: str | None = None) -> list[CommandTemplate]:
        """What ``actor`` (or anyone) may do now, built by the checks the commands run
        (``legal.py``: one legality)."""
        from .legal import legal_commands

        return legal_commands(state, actor)

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

    def roster(self, state: HunterState) -> Roster:
        """A row per fighter: the track (H-HLT-1), Defense, ammunition, conditions."""
        from .views import roster

        return roster(state)

    def columns(self) -> tuple[Column, ...]:
        from .views import COLUMNS

        return COLUMNS

    def turn_view(self, state: HunterState) -> TurnView:
        """The turn, its phase, who acts now, the initiative ranking with its totals."""
        from .views import turn_view

        return turn_view(state)

    def reveals(self, command: Command, state: HunterState) -> bool:
        """A hidden fighter comes out when it acts; not when it does what the table does not
        see (``visibility.STAYS_HIDDEN``)."""
        from .visibility import STAYS_HIDDEN

        return command.actor is not None and command.type not in STAYS_HIDDEN

    def visibility(self, event: Event, state: HunterState) -> Visibility:
        """A fighter's dice, Defense and track are its own; the rest is public
        (``visibility.visibility``, which says it per event type)."""
        from .visibility import visibility

        return visibility(event, state)

    def join_rule(self, state: Any) -> str | None:
        """H-INI-1 (reading, as H-AMB-1): a newcomer rolls initiative at the next turn."""
        return None if state.phase == "over" else "H-INI-1"

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
        """The traits as dots, the template, Size, the tables' weapons and armour, merits."""
        from .sheetform import sheet_form

        return sheet_form(era)

    def state_form(self, state: Mapping[str, Any], era: str | None = None) -> SheetForm:
        """The track, the rounds left, the fate, a hunter's H-XP-2 counters."""
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
        from .odds import attack_kinds

        return attack_kinds(state, attacker)

    def rule_texts(self) -> Mapping[str, RuleText]:
        """The H- rules, title and summary in French and English (``data/rules.yaml``)."""
        return load_rule_texts("conteur.rulesets.hunter")
