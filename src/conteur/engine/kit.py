"""A ruleset built the kit's way: each of its parts in a module of its package, by name.

``Ruleset`` says what a game system provides; ``KitRuleset`` says where to find it when
the ruleset's package follows one layout, so that a ruleset writes the rules and not the
methods that hand each reader on to them. Every method below calls one name of one
module of the package (``KitRuleset.parts``), imported when first asked for (the
tracker never loads the simulator's referee, a script player never loads the forms),
with the method's own arguments:

==================  ==========================================================
module              names
==================  ==========================================================
``legal``           ``legal_commands(state, actor)``
``script``          ``parse_line(line, state)``
``views``           ``COLUMNS``; ``health``, ``status``, ``band``, ``penalty``,
                    ``resources``, ``conditions`` (each ``(state, fighter)``);
                    ``due``, ``order``, ``over`` (each ``(state)``)
``visibility``      ``visibility(event, state)``, ``AUDIENCES``, ``STAYS_HIDDEN``
``report``          ``fight_facts(event)``
``summary``         ``summary(state)``, ``summary_lines(state, lang)``
``odds``            ``attack_odds(state, query)`` (``engine.odds.AttackQuery``)
``battlemap``       ``battle_map(state, lang)``
``dice``            ``ROLL_KINDS``
``sim``             ``REFEREE``, ``TACTICS``
``sweep``           ``sweep_traits(state)``, ``trait_name(state, trait)``,
                    ``with_trait(state, entry, trait, value, base_dir)``,
                    ``sweep_options(state)``
``npc``             ``archetypes(era)``, ``quick_npc_params(era)``,
                    ``param_label(name, lang)``, ``quick_npc(params, era)``
``sheetform``       ``sheet_form(era)``, ``state_form(state, era)``
==================  ==========================================================

and ``rule_texts`` reads the package's ``data/rules.yaml``; ``roster`` makes a row of each
of the state's ``fighters`` from the ``id``, ``name``, ``side``, ``fate`` and ``withdrawn``
of each and the ruleset's answers about it, ``turn_view`` reads the state's ``turn`` and
``phase``, and ``positions`` reads the ``position`` of each fighter (what every state of
the kit's rulesets holds). A command goes to the handler ``handlers`` gives for
its type, then to ``settle``. A ruleset whose part is shaped otherwise overrides that
method, as it would ``Ruleset``'s.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, cast

from conteur.i18n import ConteurError, Describable, Lang

from .commands import Command, CommandTemplate, Param
from .events import Event
from .odds import AttackQuery
from .rules import RuleText, load_rule_texts
from .ruleset import Answer, Resolution, Ruleset, S
from .views import OrderSlot, Roster, RosterRow, TurnView, shown_fate
from .visibility import Audiences, Visibility

if TYPE_CHECKING:
    from conteur.dice import RollKind
    from conteur.sim.referee import Referee
    from conteur.sim.tactics import TacticFactory

    from .battlemap import BattleMap
    from .npcs import Archetype
    from .report import Fact
    from .sheetform import SheetForm
    from .views import Column, ConditionView, HealthView, Resource, Status

Handler = Callable[[Resolution[Any], Command], None]
"""What carries out one type of command: check it against ``ctx.state``, emit its events."""


# ------------------------------------------------------------------ the parts, typed
#
# Each part module of a kit ruleset, as a protocol its module implements (a module's
# functions stand for the protocol's methods, its constants for the properties).
# ``tests/test_ruleset_kit.py`` checks that each part a ruleset leaves to the kit is there,
# and has ``mypy --strict`` check each such module against the protocol of its name (read
# from the annotations below), for every shipped kit ruleset.


class LegalPart(Protocol):
    def legal_commands(self, state: Any, actor: str | None, /) -> list[CommandTemplate]: ...


class ScriptPart(Protocol):
    def parse_line(self, line: str, state: Any, /) -> Command: ...


class ViewsPart(Protocol):
    @property
    def COLUMNS(self) -> tuple[Column, ...]: ...

    def health(self, state: Any, fighter: Any, /) -> HealthView: ...

    def status(self, state: Any, fighter: Any, /) -> Status: ...

    def band(self, state: Any, fighter: Any, /) -> str: ...

    def penalty(self, state: Any, fighter: Any, /) -> int: ...

    def resources(self, state: Any, fighter: Any, /) -> tuple[Resource, ...]: ...

    def conditions(self, state: Any, fighter: Any, /) -> tuple[ConditionView, ...]: ...

    def due(self, state: Any, /) -> tuple[str, ...]: ...

    def order(self, state: Any, /) -> Iterable[tuple[Sequence[str], int | None]]: ...

    def over(self, state: Any, /) -> bool: ...


class VisibilityPart(Protocol):
    @property
    def AUDIENCES(self) -> Audiences: ...

    @property
    def STAYS_HIDDEN(self) -> frozenset[str]: ...

    def visibility(self, event: Event, state: Any, /) -> Visibility: ...


class ReportPart(Protocol):
    def fight_facts(self, event: Event, /) -> Sequence[Fact]: ...


class SummaryPart(Protocol):
    def summary(self, state: Any, /) -> list[dict[str, Any]]: ...

    def summary_lines(self, state: Any, lang: Lang, /) -> list[str]: ...


class OddsPart(Protocol):
    def attack_odds(self, state: Any, query: AttackQuery, /) -> Answer: ...


class BattleMapPart(Protocol):
    def battle_map(self, state: Any, lang: Lang | None, /) -> BattleMap | None: ...


class DicePart(Protocol):
    @property
    def ROLL_KINDS(self) -> Sequence[RollKind]: ...


class SimPart(Protocol):
    @property
    def REFEREE(self) -> Referee | None: ...

    @property
    def TACTICS(self) -> Mapping[str, TacticFactory]: ...


class SweepPart(Protocol):
    def sweep_traits(self, state: Any, /) -> Mapping[str, str]: ...

    def trait_name(self, state: Any, trait: str, /) -> Describable | str: ...

    def with_trait(
        self,
        state: Any,
        entry: Mapping[str, Any],
        trait: str,
        value: int,
        base_dir: Path | None,
        /,
    ) -> dict[str, Any]: ...

    def sweep_options(self, state: Any, /) -> Mapping[str, str]: ...


class NpcPart(Protocol):
    def archetypes(self, era: str | None, /) -> Sequence[Archetype]: ...

    def quick_npc_params(self, era: str | None, /) -> tuple[Param, ...]: ...

    def param_label(self, name: str, lang: Lang | None, /) -> str: ...

    def quick_npc(self, params: Mapping[str, Any], era: str | None, /) -> dict[str, Any]: ...


class SheetFormPart(Protocol):
    def sheet_form(self, era: str | None, /) -> SheetForm | None: ...

    def state_form(self, state: Mapping[str, Any], era: str | None, /) -> SheetForm | None: ...


@cache
def _part(package: str, module: str) -> Any:
    """The module ``package.module`` (imported on the first call)."""
    return importlib.import_module(f"{package}.{module}")


class KitRuleset(Ruleset[S]):
    """A ``Ruleset`` whose parts are the modules of its package (see the module's table).

    A subclass fills ``handlers`` (command type → handler) when it is made, and may
    override ``settle``; ``parts`` is the package of the module that defines the first
    subclass, which that subclass's own subclasses keep.
    """

    parts: ClassVar[str] = ""
    """The package whose modules hold the parts (``conteur.rulesets.<name>``...)."""

    handlers: dict[str, Handler]
    """Each command type this ruleset resolves, with the handler that carries it out."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.parts:
            module = sys.modules[cls.__module__]
            cls.parts = module.__package__ or cls.__module__

    def part(self, module: str) -> Any:
        """The module ``module`` of the ruleset's package (typed by its caller: one of the
        part protocols above)."""
        return _part(self.parts, module)

    # ----------------------------------------------------------------- commands

    def resolve(self, ctx: Resolution[S], command: Command) -> None:
        """The handler of the command's type carries it out, then the rules ``settle``."""
        handler = self.handlers.get(command.type)
        if handler is None:
            raise ConteurError("engine.unknown_command", command=command.type)
        handler(ctx, command)
        self.settle(ctx)

    def settle(self, ctx: Resolution[S]) -> None:
        """What the rules check after every command (whether the fight is over...).
        Default: nothing."""

    def legal_commands(self, state: S, actor: str | None = None) -> list[CommandTemplate]:
        """What ``actor`` (or anyone) may do now, built by the checks the commands run
        (``legal.legal_commands``: one legality)."""
        legal: LegalPart = self.part("legal")
        return legal.legal_commands(state, actor)

    def parse_command(self, line: str, state: S, lang: Lang | None = None) -> Command:
        """One line of the ruleset's script (``script.parse_line``)."""
        script: ScriptPart = self.part("script")
        return script.parse_line(line, state)

    # ----------------------------------------------------------------- views

    def roster(self, state: S) -> Roster:
        """A row per combatant of the state's ``fighters``, in their order (``row``),
        under the columns ``views.COLUMNS``."""
        views: ViewsPart = self.part("views")
        fighters: Mapping[str, Any] = cast("Any", state).fighters
        return Roster(
            columns=views.COLUMNS, rows=tuple(self.row(state, f) for f in fighters.values())
        )

    def row(self, state: S, fighter: Any) -> RosterRow:
        """One fighter as the roster shows it: its id, name, side and fate (``withdrawn``
        when taken out of the fight alive), and the ruleset's answers about it (``views``:
        its health, status, band, wound penalty, resources and conditions). A fighter
        ``withdrawn`` is out of the fight, unless its status says it is dead."""
        views: ViewsPart = self.part("views")
        status = views.status(state, fighter)
        return RosterRow(
            id=fighter.id,
            name=fighter.name,
            side=fighter.side,
            health=views.health(state, fighter),
            status="out" if fighter.withdrawn and status != "dead" else status,
            band=views.band(state, fighter),
            penalty=views.penalty(state, fighter),
            resources=views.resources(state, fighter),
            conditions=views.conditions(state, fighter),
            fate=shown_fate(fighter.fate, fighter.withdrawn),
        )

    def columns(self) -> tuple[Column, ...]:
        """The roster's resource columns (``views.COLUMNS``)."""
        views: ViewsPart = self.part("views")
        return views.COLUMNS

    def turn_view(self, state: S) -> TurnView:
        """The state's ``turn`` and ``phase``, who is due (``views.due``), the order
        (``views.order``: who shares each rank, and its total), and whether the fight is over
        (``views.over``)."""
        views: ViewsPart = self.part("views")
        return TurnView(
            turn=cast("Any", state).turn,
            phase=str(cast("Any", state).phase),
            due=views.due(state),
            order=tuple(OrderSlot(ids=tuple(ids), total=n) for ids, n in views.order(state)),
            over=views.over(state),
        )

    def visibility(self, event: Event, state: S) -> Visibility:
        """Who may see ``event`` (``visibility.visibility``, which says it per event type)."""
        visibility: VisibilityPart = self.part("visibility")
        return visibility.visibility(event, state)

    def audiences(self) -> Audiences:
        """Who sees each event type (``visibility.AUDIENCES``)."""
        visibility: VisibilityPart = self.part("visibility")
        return visibility.AUDIENCES

    def reveals(self, command: Command, state: S) -> bool:
        """A hidden combatant comes out when it acts; not when it does what the table does
        not see (the command types of ``visibility.STAYS_HIDDEN``)."""
        visibility: VisibilityPart = self.part("visibility")
        hidden = visibility.STAYS_HIDDEN
        return command.actor is not None and command.type not in hidden

    def fight_facts(self, event: Event) -> Sequence[Fact]:
        """Attacks, hits, damage and every roll, for the summary (``report.fight_facts``)."""
        report: ReportPart = self.part("report")
        return report.fight_facts(event)

    def summary(self, state: S) -> list[dict[str, Any]]:
        """Where each combatant stands, JSON-ready (``summary.summary``)."""
        summary: SummaryPart = self.part("summary")
        return summary.summary(state)

    def summary_lines(self, state: S, lang: Lang) -> list[str]:
        """The same, a line of prose per combatant (``summary.summary_lines``)."""
        summary: SummaryPart = self.part("summary")
        return summary.summary_lines(state, lang)

    def battle_map(self, state: S, lang: Lang | None = None) -> BattleMap | None:
        """Positions, cover zones, range bands (``battlemap.battle_map``)."""
        bmap: BattleMapPart = self.part("battlemap")
        return bmap.battle_map(state, lang)

    def positions(self, state: S) -> Mapping[str, tuple[float, float]]:
        """Where each combatant stands: the ``position`` of each of the state's ``fighters``."""
        fighters: Mapping[str, Any] = cast("Any", state).fighters
        return {f.id: f.position for f in fighters.values()}

    # ----------------------------------------------------------------- odds

    def price_attack(self, state: S, query: AttackQuery) -> Answer:
        """The exact odds of one attack now (``odds.attack_odds``)."""
        odds: OddsPart = self.part("odds")
        return odds.attack_odds(state, query)

    # ----------------------------------------------------------------- its other parts

    def rule_texts(self) -> Mapping[str, RuleText]:
        """Every rule the ruleset cites, title and summary in French and English (the
        package's ``data/rules.yaml``)."""
        return load_rule_texts(self.parts)

    def roll_kinds(self) -> Sequence[RollKind]:
        """The kinds of roll the ruleset makes (``dice.ROLL_KINDS``)."""
        dice: DicePart = self.part("dice")
        return dice.ROLL_KINDS

    def referee(self) -> Referee | None:
        """The simulator's referee (``sim.REFEREE``)."""
        sim_part: SimPart = self.part("sim")
        return sim_part.REFEREE

    def tactics(self) -> Mapping[str, TacticFactory]:
        """The simulator's tactics by name (``sim.TACTICS``)."""
        sim_part: SimPart = self.part("sim")
        return sim_part.TACTICS

    # ----------------------------------------------------------------- sweeps

    def sweep_traits(self, state: S) -> Mapping[str, str]:
        """The numbers of a combatant a sweep may vary, by spelling (``sweep.sweep_traits``)."""
        sweep: SweepPart = self.part("sweep")
        return sweep.sweep_traits(state)

    def sweep_trait_name(self, state: S, trait: str) -> Describable | str:
        """The name a reader knows ``trait`` by (``sweep.trait_name``)."""
        sweep: SweepPart = self.part("sweep")
        return sweep.trait_name(state, trait)

    def with_trait(
        self,
        state: S,
        entry: Mapping[str, Any],
        trait: str,
        value: int,
        base_dir: Path | None = None,
    ) -> dict[str, Any]:
        """The combatant ``entry`` with ``trait`` at ``value`` (``sweep.with_trait``)."""
        sweep: SweepPart = self.part("sweep")
        return sweep.with_trait(state, entry, trait, value, base_dir)

    def sweep_options(self, state: S) -> Mapping[str, str]:
        """The scenario's options a sweep may vary (``sweep.sweep_options``)."""
        sweep: SweepPart = self.part("sweep")
        return sweep.sweep_options(state)

    # ----------------------------------------------------------------- characters

    def archetypes(self, era: str | None = None) -> list[Archetype]:
        """The bundled opponents of ``era`` (``npc.archetypes``)."""
        npc: NpcPart = self.part("npc")
        return list(npc.archetypes(era))

    def quick_npc_params(self, era: str | None = None) -> tuple[Param, ...]:
        """The numbers a quick NPC is made from (``npc.quick_npc_params``)."""
        npc: NpcPart = self.part("npc")
        return npc.quick_npc_params(era)

    def quick_npc_label(self, name: str, lang: Lang | None = None) -> str:
        """The label of one of those numbers (``npc.param_label``)."""
        npc: NpcPart = self.part("npc")
        return npc.param_label(name, lang)

    def quick_npc(self, params: Mapping[str, Any], era: str | None = None) -> dict[str, Any]:
        """A scenario combatant entry from ``params`` (``npc.quick_npc``)."""
        npc: NpcPart = self.part("npc")
        return npc.quick_npc(params, era)

    def sheet_form(self, era: str | None = None) -> SheetForm | None:
        """The fields of a character sheet of ``era`` (``sheetform.sheet_form``)."""
        sheetform: SheetFormPart = self.part("sheetform")
        return sheetform.sheet_form(era)

    def state_form(self, state: Mapping[str, Any], era: str | None = None) -> SheetForm | None:
        """The fields of a character's written-back state (``sheetform.state_form``)."""
        sheetform: SheetFormPart = self.part("sheetform")
        return sheetform.state_form(state, era)


__all__ = ["Handler", "KitRuleset"]
