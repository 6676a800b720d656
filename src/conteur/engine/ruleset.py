"""The ruleset contract: what a game system provides to the engine and to every reader.

A ruleset is a ``Ruleset[S]`` over its own state type ``S``. The engine calls
``new_state`` and ``resolve``; the tracker, the CLI and the simulator read the
fight only through the typed views the ruleset builds (``roster``, ``turn_view``,
``legal_commands``, the ``visibility`` of each event) and reach its other parts
(sheet loading, odds, the simulator's referee and tactics, its roll kinds, its
catalogues, its demo campaign) through the methods below. Each has a default, so a
ruleset overrides what it has and nothing probes for attributes.

Rulesets are found by name through the entry-point group ``conteur.rulesets``
(``conteur.engine.registry``): a ruleset may live in a separately installed package.
What a ruleset adds to the command line (``conteur roll <name>``, ``conteur odds
<name>``...) is declared apart, in the entry-point group ``conteur.cli``
(``conteur.cli_parts``), so that the CLI lists and runs those commands without
loading the ruleset.
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic

from typing_extensions import TypeVar

from conteur.dice import DiceSource
from conteur.i18n import ConteurError, Describable, Lang, Msg, catalog, t

from .answers import KEY as ANSWERS
from .commands import Command, CommandTemplate, Param
from .events import Event, event_types
from .odds import AttackOdds, AttackQuery
from .views import Column, Roster, TurnView
from .visibility import PUBLIC, Audiences, Visibility

if TYPE_CHECKING:
    from conteur.dice import RollKind
    from conteur.sim.referee import Referee
    from conteur.sim.tactics import TacticFactory

    from .battlemap import BattleMap, Unit
    from .characters import Importer
    from .inputs import Key
    from .npcs import Archetype
    from .report import Fact
    from .rules import RuleText
    from .sheetform import SheetForm

S = TypeVar("S", default=Any)
"""A ruleset's own state type (``Any`` where a reader does not know which ruleset)."""


class Resolution(Generic[S]):
    """The working context of one command: the encounter's live state, the dice, the events.

    ``emit`` stamps the event with who may see it (the ruleset's ``visibility``),
    folds it into the state at once, so later steps of the same command see its
    effect, and records it; rule code changes the state only this way. When the
    command fails half-way, the encounter restores the state from its events in
    force (nothing is copied before a command).
    """

    def __init__(
        self,
        state: S,
        dice: DiceSource,
        see: Callable[[Event, S], Visibility] | None = None,
    ) -> None:
        self.state = state
        self.dice = dice
        self.events: list[Event] = []
        self._see = see
        self._fields: dict[str, Any] | None = getattr(state, "__dict__", None)
        """The state's own fields, where ``emit`` drops the answers kept for it
        (``engine/answers.py``; a restore refills the same dict)."""

    def emit(self, event: Event) -> Event:
        """Record ``event`` (stamped with its visibility) and fold it into the state."""
        if self._see is not None:
            seen = self._see(event, self.state)
            if seen is not event.seen and seen != event.seen:
                event = _stamped(event, seen)
        fields = self._fields
        if fields is not None:
            fields.pop(ANSWERS, None)  # answers computed from the state before (``forget``)
        event.apply(self.state)
        self.events.append(event)
        return event


def _renamed(entry: Mapping[str, Any], number: int) -> dict[str, Any]:
    """``entry`` with the value of its ``name`` or ``nom`` key (any case) followed by
    ``number``."""
    return {
        k: f"{v} {number}" if str(k).strip().lower() in ("name", "nom") and v else v
        for k, v in entry.items()
    }


_PLAIN: dict[type, bool] = {}
"""Event classes by whether they have no ``__post_init__`` (``_stamped``)."""


def _stamped(event: Event, seen: Visibility) -> Event:
    """``event`` with its visibility ``seen`` (events are frozen).

    An event whose class has no ``__post_init__`` (nothing computed from its fields) is
    copied field for field into a new instance with ``seen`` replaced: what
    ``dataclasses.replace`` gives, without calling ``__init__`` through every field's
    descriptor (it was the largest single cost of ``emit`` in a simulated fight)."""
    cls = type(event)
    plain = _PLAIN.get(cls)
    if plain is None:  # asked once per class: ``hasattr`` on a missing name raises inside
        plain = _PLAIN[cls] = not hasattr(cls, "__post_init__")
    if not plain or not hasattr(event, "__dict__"):
        return dataclasses.replace(event, seen=seen)
    copy = object.__new__(cls)
    fields = copy.__dict__
    fields.update(event.__dict__)
    fields["seen"] = seen
    return copy


Answer = AttackOdds
"""An odds answer (``engine.odds.AttackOdds``, ``to_dict()`` JSON-ready), see
``Ruleset.attack_odds``."""


class Ruleset(Generic[S]):
    """A game system: its state, how commands resolve, what is legal, and its views.

    Subclasses set ``name`` and implement the five methods marked *required*; every
    other method has a default that says "this ruleset has none".

    A command's parameters are all a reader knows of it: a form gets one field per
    ``Param`` of a ``legal_commands`` template, and the command is
    ``Command(type, actor, {name: value})``.
    """

    name: ClassVar[str] = ""

    deferrable: ClassVar[frozenset[str]] = frozenset()
    """Error keys that only mean "not this fighter's turn yet": a script player may hold a
    line refused with one of them until its turn comes."""

    # ----------------------------------------------------------------- required

    def new_state(self, scenario: Mapping[str, Any], base_dir: Path | None = None) -> S:
        """*Required.* The state at the start of an encounter described by ``scenario``."""
        raise NotImplementedError

    def resolve(self, ctx: Resolution[S], command: Command) -> None:
        """*Required.* Check ``command`` against ``ctx.state`` and emit its events
        (``ConteurError`` when it is illegal)."""
        raise NotImplementedError

    def legal_commands(self, state: S, actor: str | None = None) -> list[CommandTemplate]:
        """*Required.* The commands ``actor`` (or anyone, when None) may issue now.

        One legality: the templates are built by the code that validates the command,
        so any value a template offers is accepted, or refused only for a reason it
        states (dice still to roll, a target that moved).
        """
        raise NotImplementedError

    def parse_command(self, line: str, state: S, lang: Lang | None = None) -> Command:
        """*Required.* Read one line of the script language (French or English words)."""
        raise NotImplementedError

    def end_state(self, state: S) -> dict[str, dict[str, Any]]:
        """*Required.* What each character carries out of the encounter."""
        raise NotImplementedError

    # ----------------------------------------------------------------- views

    def roster(self, state: S) -> Roster:
        """*Required for readers.* A row per combatant and the ruleset's resource columns."""
        raise NotImplementedError

    def names(self, state: S) -> dict[str, str]:
        """Each combatant's display name by id (the roster's names)."""
        return {row.id: row.name for row in self.roster(state).rows}

    def columns(self) -> tuple[Column, ...]:
        """The resource columns of the roster (a pool of points per combatant...), in order."""
        return ()

    def turn_view(self, state: S) -> TurnView:
        """The turn, the phase, who is due, the order with its totals.

        The default reads no state: turn 0, phase ``setup``, the actors of the
        ``declare``/``act`` templates due. Every real ruleset overrides it.
        """
        due = tuple(
            dict.fromkeys(
                tp.actor
                for tp in self.legal_commands(state)
                if tp.actor and tp.type in ("declare", "act")
            )
        )
        return TurnView(turn=0, phase="setup", due=due)

    def visibility(self, event: Event, state: S) -> Visibility:
        """Who may see ``event``, decided when it is emitted (``state`` as it stands then).

        Default: what ``audiences`` declares (an event marked ``public=False`` is the
        game master's), public otherwise. Rulesets mark GM notes and modifiers GM-only,
        and a combatant's dice, pool and exact health as owned by it (``owned_by``);
        they override this for the types their table lists as ``decided``.
        """
        return self.audiences().of(event) or PUBLIC

    def audiences(self) -> Audiences:
        """Who sees each of this ruleset's event types (default: every type is public)."""
        return Audiences()

    def title(self) -> Msg | str:
        """What a reader calls the ruleset (« Vampire : la Mascarade »): its catalogues'
        ``ruleset.<name>``, else its name."""
        key = f"ruleset.{self.name}"
        return Msg(key) if key in catalog() else self.name

    def vocabulary(self) -> frozenset[str]:
        """The names this ruleset's commands use: its command types and the kinds their
        parameters take (the maneuvers of every era and option pack, the kinds of action
        its script's verbs mean). A reader outside the ruleset never writes one of them
        down (``tests/test_ruleset_seam.py`` checks the package). Default: none."""
        return frozenset()

    def event_types(self) -> tuple[type[Event], ...]:
        """Every event type this ruleset (and its packs) may emit, by name.

        Default: the registered event classes defined in the ruleset's package, once its
        ``events`` module is imported; a ruleset defining events elsewhere imports those
        modules first.
        """
        package = sys.modules[type(self).__module__].__package__ or type(self).__module__
        try:
            importlib.import_module(f"{package}.events")
        except ModuleNotFoundError as missing:
            if missing.name != f"{package}.events":
                raise
        inside = (
            c
            for c in event_types().values()
            if c.__module__ == package or c.__module__.startswith(f"{package}.")
        )
        return tuple(sorted(inside, key=lambda c: c.type_name))

    def reveals(self, command: Command, state: S) -> bool:
        """Whether ``command``, carried out by its hidden actor, brings it out of hiding
        (``conteur.engine.hidden``; ``state`` as it stood before the command).

        Default: any command of its own — it acts, and the table sees it. A ruleset keeps
        hidden what the table does not see happen (a declaration made in secret, a pass,
        creeping up on someone)."""
        return command.actor is not None

    def summary(self, state: S) -> list[dict[str, Any]]:
        """Where each combatant stands, JSON-ready (``conteur play --json``'s ``summary``)."""
        return [
            {
                "id": r.id,
                "name": r.name,
                "side": r.side,
                "health": r.health.text(),
                "status": r.status,
                "fate": r.fate,
                "penalty": r.penalty,
            }
            for r in self.roster(state).rows
        ]

    def summary_lines(self, state: S, lang: Lang) -> list[str]:
        """One line per combatant for the end of a played script (``conteur play``)."""
        lines = []
        for r in self.roster(state).rows:
            parts = [r.health.text(lang)] + [
                f"{res.label.describe(lang)} {res.text(lang)}" for res in r.resources
            ]
            lines.append(t("engine.summary.line", lang, fighter=r.name, parts=" · ".join(parts)))
        return lines

    def join_rule(self, state: S) -> str | None:
        """The rule by which a combatant may join the fight now (``conteur.engine.joining``:
        ``resolve`` then accepts ``Command("join", None, {"combatant": entry})``), or None
        when nobody may (the default; a fight that is over). The ruleset says where a
        newcomer enters the order, and its ``legal_commands`` offer ``withdraw``."""
        return None

    def fight_facts(self, event: Event) -> Sequence[Fact]:
        """What the summary after the fight counts in ``event`` (``conteur.engine.report``):
        attacks, hits, damage, and each roll with whose it was and how good its result is.
        Default: nothing (a summary of names and zeros)."""
        return ()

    # ----------------------------------------------------------------- odds

    def attack_kinds(self, state: S, attacker: str) -> list[str]:
        """The maneuvers ``attacker`` could attack with now, each priced by ``attack_odds``."""
        return []

    def odds_toggles(
        self, state: S, attacker: str, target: str, maneuver: str | None
    ) -> list[Param]:
        """The options of that attack which change its odds (its modifiers), each with its
        default as things stand; the values chosen go to ``attack_odds(params=...)``."""
        return []

    @property
    def prices_attacks(self) -> bool:
        """Whether ``attack_odds`` answers (a ruleset without odds leaves it False)."""
        return type(self).price_attack is not Ruleset.price_attack

    def attack_odds(
        self,
        state: S,
        attacker: str,
        target: str,
        maneuver: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> Answer:
        """The exact odds of one attack now; the answer has ``to_dict()`` (JSON-ready)."""
        asked = AttackQuery(
            attacker=attacker, target=target, maneuver=maneuver, params=params or {}
        )
        return self.price_attack(state, asked)

    def price_attack(self, state: S, query: AttackQuery) -> Answer:
        """What ``attack_odds`` answers: the ruleset's odds of one attack (none by default)."""
        raise ConteurError("engine.no_odds", ruleset=self.name)

    # ----------------------------------------------------------------- its other parts

    def load_sheet(self, data: Mapping[str, Any], source: str = "<sheet>") -> object | None:
        """Validate one character sheet (``ConteurError`` naming file, entry and field), and
        return it as the ruleset reads it (a pydantic model keeps its canonical keys).

        Default None: no check of its own; starting an encounter with it checks the rest."""
        return None

    def check_setup(self, scenario: Mapping[str, Any]) -> None:
        """Check a campaign's rules before it is stored: ``scenario`` names the ruleset, its
        packs, options and era, and no combatant yet (``ConteurError`` naming the field).

        Default: an encounter with no combatant starts (``new_state``). A ruleset that
        cannot start without fighters checks its packs and options here instead."""
        self.new_state(scenario)

    def check_combatant(self, scenario: Mapping[str, Any]) -> None:
        """Check one campaign character as an encounter would read it: ``scenario`` holds it
        alone (``{id, sheet, ...carried state}``) with the campaign's rules.

        Default: an encounter with that one combatant starts (``new_state``); whatever it
        refuses (an unknown health mark, an unknown weapon's ammunition) is refused here."""
        self.new_state(scenario)

    def scenario_keys(self) -> Sequence[Key]:
        """The top-level scenario keys this ruleset reads beyond the generic ones
        (``conteur.engine.scenario.GENERIC_KEYS``); any other key is refused by name, with
        the nearest valid one (``check_scenario``). Default: none."""
        return ()

    def pack_names(self) -> Sequence[str]:
        """The option packs a scenario may name (``packs:``); () for none."""
        return ()

    def rule_texts(self) -> Mapping[str, RuleText]:
        """Every rule id this ruleset cites, with its title and summary in French and English
        (``conteur.engine.rules.load_rule_texts`` of its ``data/rules.yaml``)."""
        return {}

    def message_catalogs(self) -> Sequence[tuple[str, str]]:
        """The message catalogs to register, as ``(package, file name)`` pairs."""
        return ()

    def referee(self) -> Referee | None:
        """The simulator's referee (``conteur.sim.referee.Referee``), or None: not simulated."""
        return None

    def tactics(self) -> Mapping[str, TacticFactory]:
        """The simulator's tactics by name (``conteur.sim.tactics.TacticFactory``); the first
        line of each factory's documentation is its summary (``conteur simulate --help``)."""
        return {}

    def roll_kinds(self) -> Sequence[RollKind]:
        """The kinds of roll the ruleset makes (``conteur.dice.kinds``), registered when it
        is loaded so that its stored rolls read back (``record_from_dict``)."""
        return ()

    def demo_campaign(self) -> Mapping[str, Any] | None:
        """The demo campaign ``conteur serve --demo`` may load (``conteur.web.demo``), or None.

        Keys: ``ruleset`` (this one's name), ``campaign``, ``era``, ``encounter`` and
        ``combatants`` (``id``, ``side``, ``position``, ``sheet``, optionally ``weapon``)."""
        return None

    # ----------------------------------------------------------------- sweeps

    def sweep_traits(self, state: S) -> Mapping[str, str]:
        """The numbers of a combatant a sweep may vary (``conteur simulate --sweep
        ID.TRAIT=0..3``): each spelling a user may type (case and accents do not count) →
        the trait's key, given to ``with_trait``. Default {}: none."""
        return {}

    def sweep_trait_name(self, state: S, trait: str) -> Describable | str:
        """The name a reader knows the trait ``trait`` (a key of ``sweep_traits``) by, in
        either language: a ``Msg`` of the ruleset's catalogue, or a ``Bilingual`` from its
        tables. Sweep tables, plots and errors show it. Default: the key itself."""
        return trait

    def with_trait(
        self,
        state: S,
        entry: Mapping[str, Any],
        trait: str,
        value: int,
        base_dir: Path | None = None,
    ) -> dict[str, Any]:
        """The scenario's combatant ``entry`` with its trait ``trait`` (a key of
        ``sweep_traits``) set to ``value``, any other spelling of it gone (a sheet read from
        a file comes back inline). ``state`` is the encounter's start; the value is checked
        when the encounter starts."""
        raise ConteurError("engine.sweep.no_traits", ruleset=self.name)

    def sweep_options(self, state: S) -> Mapping[str, str]:
        """The scenario's options a sweep may vary (``--sweep OPTION=a,b``): each spelling →
        the option's key under the scenario's ``options``. Default {}: none."""
        return {}

    def with_option(self, scenario: Mapping[str, Any], option: str, value: Any) -> dict[str, Any]:
        """The scenario with its option ``option`` set to ``value`` (default: under
        ``options``); the value is checked when the encounter starts."""
        options = scenario.get("options") or {}
        options = dict(options) if isinstance(options, Mapping) else {}
        options[option] = value
        return {**scenario, "options": options}

    def positions(self, state: S) -> Mapping[str, tuple[float, float]]:
        """Where each combatant stands, in metres (``conteur.engine.geometry``); {}: the
        ruleset has no positions. A sweep's copies are placed from them."""
        return {}

    def map_unit(self) -> Unit:
        """The unit of this ruleset's positions and distances: the battle map's grid."""
        return "metre"

    def battle_map(self, state: S, lang: Lang | None = None) -> BattleMap | None:
        """The battle map of ``state`` (``conteur.engine.battlemap``): positions, cover
        zones, the rules' range bands and cover levels, labelled in ``lang``, and the
        commands that move a combatant or draw a zone; None: this ruleset has no map."""
        return None

    def copy_combatant(
        self,
        entry: Mapping[str, Any],
        copy_id: str,
        number: int,
        position: tuple[float, float] | None = None,
    ) -> dict[str, Any]:
        """A copy of the scenario's combatant ``entry``: the id ``copy_id``, its name followed
        by ``number`` (a ``name``/``nom`` key of the entry or of its inline ``sheet``; a sheet
        in a file keeps its name), and ``position`` when the entry gives one."""
        out = _renamed(entry, number)
        if isinstance(out.get("sheet"), Mapping):
            out["sheet"] = _renamed(out["sheet"], number)
        out["id"] = copy_id
        if position is not None and "position" in entry:
            out["position"] = [round(position[0], 2), round(position[1], 2)]
        return out

    # ----------------------------------------------------------------- characters

    def importers(self) -> Mapping[str, Importer]:
        """Characters read from other programs' files, by format name (``conteur import``):
        each reads the parsed file into an ``ImportResult`` (``conteur.engine.characters``)."""
        return {}

    def eras(self) -> tuple[str, ...]:
        """The eras a scenario may name (``era:``), the default first; () for none."""
        return ()

    def archetypes(self, era: str | None = None) -> list[Archetype]:
        """The bundled opponents (our defaults) of ``era`` (the default era when None), each
        with the scenario entry it makes (``conteur.engine.npcs``)."""
        return []

    def quick_npc_params(self, era: str | None = None) -> tuple[Param, ...]:
        """The numbers a quick NPC is made from, with their ranges (a form's fields, each
        labelled by ``quick_npc_label``)."""
        return ()

    def quick_npc_label(self, name: str, lang: Lang | None = None) -> str:
        """The label of the quick-NPC parameter ``name`` in ``lang`` (default: the name)."""
        return name

    def sheet_form(self, era: str | None = None) -> SheetForm | None:
        """The fields of a character sheet of ``era`` for a form (``conteur.engine.sheetform``:
        sections of typed fields, each naming its place in the sheet); what the form gives is
        checked as an import is. Default None: sheets come from files only."""
        return None

    def state_form(self, state: Mapping[str, Any], era: str | None = None) -> SheetForm | None:
        """The fields of a character's written-back ``state`` (health, Willpower, ammunition,
        counters...) for the game master to read in words and edit between fights (keys
        under ``state.``). Default None: nothing carried, or nothing editable."""
        return None

    def quick_npc(self, params: Mapping[str, Any], era: str | None = None) -> dict[str, Any]:
        """A scenario combatant entry from ``params`` (checked against ``quick_npc_params``;
        ConteurError naming the parameter otherwise)."""
        raise ConteurError("engine.npc.none", ruleset=self.name)


__all__ = ["Answer", "Resolution", "Ruleset"]
