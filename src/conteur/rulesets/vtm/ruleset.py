"""The ``vtm`` ruleset: scenario → state, command dispatch, legal commands, end state."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from conteur.engine import Command, Event, Param
from conteur.engine.characters import Importer
from conteur.engine.inputs import (
    Key,
)
from conteur.engine.joining import JOIN, WITHDRAW
from conteur.engine.kit import Handler, KitRuleset
from conteur.engine.odds import AttackOdds, AttackQuery
from conteur.engine.rules import RuleText, load_rule_texts
from conteur.engine.visibility import Audiences, Visibility
from conteur.i18n import ConteurError

from . import (
    actions,
    close,
    defence,
    equipment,
    general,
    gm,
    hooks,
    joining,
    modifiers,
    ranged,
    turn,
)
from .conditions import Aiming, VtmConditions
from .entries import (
    ENTRY_KEYS,
    STATE_KEYS,
    VtmEntry,
    fighter_from_scenario,
    health_levels,
    scenario_cover,
    sheet_file,
)
from .legal import action_kinds, declare_template, legal_commands, targets_of
from .rulebook import CORE, CORE_MODULES, Rulebook, Source, compose, rules_of
from .sheet import load_sheet
from .state import VtmState
from .tables import Tables, TablesRef, load_tables
from .visibility import visibility as event_visibility
from .words import register_words

SCENARIO_KEYS = (
    Key("tables", "tables", "tables"),
    Key("darkness", "obscurité", "darkness", ("nuit_noire",)),
)
"""The top-level keys vtm reads beyond the generic ones (``era``, ``packs``, ``options``)."""


RULE_MODULES = (modifiers, actions, close, ranged, defence, general)
"""vtm's rule modules, imported for the handlers they declare (``rulebook.CORE_MODULES``
gives their order)."""


class VtmRuleset(KitRuleset[VtmState]):
    """Vampire: la Mascarade, "Le Combat" (``000``), with its option packs."""

    name = "vtm"

    deferrable = frozenset({"vtm.declare.order", "vtm.act.not_due"})
    """Refusals that only mean "not this fighter's turn yet" (V-INI-3, V-INI-4): a
    script player may hold such a line until its turn comes."""

    def __init__(self) -> None:
        self.handlers: dict[str, Handler] = {
            "initiative": close.ending_fallen_locks(turn.start_turn),
            "declare": lambda ctx, c: turn.declare(
                ctx, first_action_details(ctx.state, c), actions.validate_declaration
            ),
            "act": actions.act,
            "defend": defence.announce,
            "pass": general.pass_action,
            "ambush": general.ambush,
            "gm_modifier": gm.modifier,
            "gm_damage": close.ending_fallen_locks(gm.damage),
            "gm_heal": gm.heal,
            "gm_condition": gm.condition,
            "gm_complication": gm.complication,
            "gm_maneuver": gm.define_maneuver,
            "gm_note": gm.note,
            "gm_move": gm.move,
            "gm_cover": gm.cover,
            "gm_zone": gm.zone,
            "gm_unzone": gm.unzone,
            "gm_weapon": gm.weapon,
            "gm_willpower": gm.willpower,
            "gm_override": gm.override,
            "get_up": close.get_up,
            "close_wound": close.close_wound,
            "gm_disarm_botch": close.gm_disarm_botch,
            JOIN: joining.join,
            WITHDRAW: joining.take_out,
        }
        from .packs import discover

        self.packs: dict[str, Any] = discover()
        self.core = Source(
            CORE,
            tuple(f"{__package__}.{m}" for m in CORE_MODULES),
            conditions=tuple(VtmConditions.kinds.values()),
        )

    def compose(self, packs: Sequence[str], tables: Tables) -> Rulebook:
        """The rulebook of an encounter with these option packs (``tables``: the era's own)."""
        known = [p.source() for p in self.packs.values()]
        return compose(self.core, [self.packs[p].source() for p in packs], known, tables)

    # ------------------------------------------------------------------ state

    def new_state(self, scenario: Mapping[str, Any], base_dir: Path | None = None) -> VtmState:
        """The state at the start of the encounter described by ``scenario``."""
        era = str(scenario.get("era", "1899"))
        extra = [str((base_dir or Path(".")) / p) for p in scenario.get("tables", []) or []]
        tables = load_tables(era, extra)
        register_words(tables)
        options = tables.option_values(scenario.get("options") or {})
        packs = tuple(str(p) for p in scenario.get("packs", []) or [])
        for pack in packs:
            if pack not in self.packs:
                raise ConteurError(
                    "vtm.unknown_pack", name=pack, known=", ".join(sorted(self.packs)) or "—"
                )
        book = self.compose(packs, tables)
        for pack in packs:
            tables = self.packs[pack].adjust_tables(tables)
        register_words(tables)
        state = VtmState(fighters={}, options=dict(options), era=era, packs=packs)
        state.darkness = bool(scenario.get("darkness", False))
        state.meta["tables"] = TablesRef(tables)
        state.meta["rules"] = book
        levels = health_levels(tables)
        seen: set[str] = set()
        for i, raw in enumerate(scenario.get("combatants", []) or []):
            f = fighter_from_scenario(raw, i, tables, levels, base_dir, book.conditions)
            if f.id in seen:
                raise ConteurError("vtm.scenario.duplicate", id=f.id)
            seen.add(f.id)
            state.fighters[f.id] = f
            # A sheet's own weapons join the encounter's tables.
            tables = tables.with_weapons(f.sheet.custom_weapons)
        state.meta["tables"] = TablesRef(tables)
        return state

    def scenario_keys(self) -> Sequence[Key]:
        return SCENARIO_KEYS

    def pack_names(self) -> Sequence[str]:
        return sorted(self.packs)

    def vocabulary(self) -> frozenset[str]:
        """Its command types and the maneuvers of both eras' tables, with every option
        pack's."""
        found = set(self.handlers)
        for era in self.eras():
            tables = load_tables(era)
            found |= set(tables.maneuvers)
            for pack in self.packs.values():
                found |= set(pack.adjust_tables(tables).maneuvers)
        return frozenset(found)

    # ------------------------------------------------------------------ commands

    def load_sheet(self, data: Mapping[str, Any], source: str = "<sheet>") -> object:
        """A sheet validated, French or English names (``sheet.load_sheet``)."""

        return load_sheet(data, source)

    # ------------------------------------------------------------------ its other parts

    def demo_campaign(self) -> Mapping[str, Any]:
        """The saloon of 1899 (``data/demo-saloon.yaml``), ``conteur serve --demo``'s campaign."""
        import yaml

        text = resources.files(__package__).joinpath("data/demo-saloon.yaml").read_text("utf-8")
        data = yaml.safe_load(text)
        assert isinstance(data, dict)
        return data

    def visibility(self, event: Event, state: VtmState) -> Visibility:
        """The game master's notes, modifiers, complications and custom maneuvers are his;
        a fighter's dice, pools, exact health and spent resources are its own; the rest is
        public (``visibility.py``)."""
        return event_visibility(event)

    def audiences(self) -> Audiences:
        from .visibility import audiences

        return audiences()

    def join_rule(self, state: Any) -> str | None:
        """V-INI-1: a newcomer rolls initiative with everyone at the next turn."""
        return "V-INI-1"

    def price_attack(self, state: Any, query: AttackQuery) -> AttackOdds:
        """Exact odds of one attack now (``odds.odds_for_scenario``, imported when asked)."""
        from .odds import odds_for_scenario

        return odds_for_scenario(state, query)

    # ------------------------------------------------------------------ characters

    def importers(self) -> Mapping[str, Importer]:
        """``foundry``: an actor of Foundry VTT's World of Darkness 20th system (``foundry``)."""
        from .foundry import import_actor

        return {"foundry": import_actor}

    def eras(self) -> tuple[str, ...]:
        from .tables import DEFAULT_ERA, ERAS

        return (DEFAULT_ERA, *(e for e in ERAS if e != DEFAULT_ERA))

    def attack_kinds(self, state: Any, attacker: str) -> list[str]:
        """The maneuvers ``attacker`` could attack with now (its traits, powers and weapons
        allow them), each of which ``attack_odds`` prices."""
        assert isinstance(state, VtmState)
        f = state.fighters.get(attacker)
        if f is None:
            return []
        maneuvers = equipment.tables(state).maneuvers
        return [
            k
            for k in action_kinds(state, f, defences=False)
            if k in maneuvers and equipment.is_attack(maneuvers[k]) and k not in ("aim", "reload")
        ]  # aiming and reloading are ranged maneuvers, but roll against no one

    def odds_toggles(
        self, state: Any, attacker: str, target: str, maneuver: str | None = None
    ) -> list[Param]:
        """The options of one attack that change its odds (``attack_odds``'s ``params``),
        each defaulting to things as they stand: the target's cover and the turns spent
        aiming, for shots (V-RNG-3, V-RNG-1); a called shot (V-MAN-8); the number of
        actions declared this turn (V-MAN-1)."""
        from .odds import default_maneuver
        from .ranged import SHOTS, SINGLE_SHOTS, cover_level

        assert isinstance(state, VtmState)
        a, t = state.fighters.get(attacker), state.fighters.get(target)
        if a is None or t is None:
            return []
        kind = maneuver or default_maneuver(state, a)
        out: list[Param] = []
        if kind in SHOTS:
            levels = tuple(f"cover_{c}" for c in ("none", *equipment.tables(state).cover))
            level = min(cover_level(state, t), len(levels) - 1)
            out.append(
                Param("target_cover", "choice", levels, required=False, default=levels[level])
            )
        if kind in SINGLE_SHOTS:
            aim = a.conditions.of(Aiming)
            turns = aim.turns if aim is not None else 0
            out.append(
                Param(
                    "aim_turns",
                    "int",
                    min=0,
                    max=max(1, a.trait("perception")),
                    required=False,
                    default=turns,
                )
            )
        m = equipment.tables(state).maneuvers.get(kind)
        if m is None or m.effect("no_targeting") is None:
            sizes = ("target_medium", "target_small", "target_precise")
            out.append(Param("targeting", "choice", sizes, required=False))
        decl = a.progress.declaration
        declared = decl.multiple if decl is not None and decl.multiple else 1
        out.append(Param("actions", "int", min=1, max=6, required=False, default=declared))
        return out

    def end_state(self, state: Any) -> dict[str, dict[str, Any]]:
        """Wounds, Willpower, blood, ammunition and conditions each fighter carries out."""
        assert isinstance(state, VtmState)
        return {
            f.id: {
                "health": [b for b in f.health.boxes if b is not None],
                "fate": f.fate,
                "willpower": f.willpower,
                "blood": f.blood,
                "ammo": dict(f.ammo),
                "weapon": f.weapon,
                "armour_destroyed": f.armour_destroyed,
            }
            for f in state.fighters.values()
        }

    def rule_texts(self) -> Mapping[str, RuleText]:
        """The V- rules of "Le Combat" and the R- rules of its option pack (``data/rules.yaml``)."""
        pack = load_rule_texts("conteur.rulesets.vtm.packs.house_ranged")
        return {**load_rule_texts("conteur.rulesets.vtm"), **pack}


def first_action_details(state: VtmState, c: Command) -> Command:
    """Details a form gives beside the declaration (``form_params``) join its first action."""
    f = state.fighters.get(c.actor or "")
    listed = c.args.get("actions")
    first = turn.flat_actions(c.args) if listed is None else listed  # a form: field by field
    if f is None or not first or all(k == "actions" for k in c.args):
        return c  # nothing beside the actions (the simulator's declarations): nothing to move
    extras = rules_of(state).of(hooks.form_params)
    if not extras:
        return c  # no rule in play offers details to move (only an option pack's do)
    names = {p.name for extra in extras for p in extra(state, f)}
    moved = {k: v for k, v in c.args.items() if k in names}
    if not moved:
        return c
    acts = [dict(a) for a in first]
    acts[0] = {**{k: v for k, v in moved.items() if v not in (None, False)}, **acts[0]}
    flat = listed is None
    args = {
        k: v for k, v in c.args.items() if k not in moved and not (flat and turn.is_flat_field(k))
    }
    if flat and not args.get("celerity"):
        celerity = len(turn.celerity_fields(c.args))
        if celerity:
            args["celerity"] = celerity  # the last actions are Celerity's (V-MAN-2)
    return Command(c.type, c.actor, {**args, "actions": acts})


def _register_maneuver_words() -> None:
    """Log lines name maneuvers by their table names (``word.<id>``), in French and English
    (made when the catalogs are read up to them)."""
    import conteur.i18n

    maneuvers = load_tables().maneuvers

    def words(known: Mapping[str, object]) -> dict[str, dict[str, str]]:
        return {
            f"word.{m.id}": {"fr": m.names.fr, "en": m.names.en}
            for m in maneuvers.values()
            if f"word.{m.id}" not in known
        }

    conteur.i18n.register_catalog_later("conteur.rulesets.vtm/data/maneuvers.yaml", words)


_register_maneuver_words()


__all__ = [
    "ENTRY_KEYS",
    "STATE_KEYS",
    "VtmEntry",
    "VtmRuleset",
    "action_kinds",
    "declare_template",
    "fighter_from_scenario",
    "first_action_details",
    "health_levels",
    "legal_commands",
    "scenario_cover",
    "sheet_file",
    "targets_of",
]
