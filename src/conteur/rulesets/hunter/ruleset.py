"""The ``hunter`` ruleset: scenario → state, command dispatch, legal commands, end state."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from conteur.engine import Command, CommandTemplate, Param, Resolution, Ruleset
from conteur.engine.rules import RuleText, load_rule_texts
from conteur.i18n import ConteurError, Lang

from . import actions, turn
from .attack import BANDS, BURSTS
from .grapple import OPTIONS
from .sheet import fighter_from_scenario
from .state import COVER_PENALTY, HunterState
from .tables import load_tables, option_values

Handler = Callable[[Resolution, Command], None]


class HunterRuleset(Ruleset[HunterState]):
    """Hunter in the new World of Darkness (``004``)."""

    name = "hunter"

    deferrable = frozenset({"hunter.act.not_due", "hunter.act.surprised"})
    """Refusals that only mean "not this fighter's turn yet" (H-INI-1, H-DEL-1, H-AMB-1)."""

    def __init__(self) -> None:
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
            "gm_damage": actions.gm_damage,
            "gm_xp_reset": actions.gm_xp_reset,
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

    def parse_command(self, line: str, state: Any, lang: Lang | None = None) -> Command:
        from .script import parse_line

        return parse_line(line, state)

    def legal_commands(self, state: Any, actor: str | None = None) -> list[CommandTemplate]:
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
        from .odds import attack_kinds

        return attack_kinds(state, attacker)

    def rule_texts(self) -> Mapping[str, RuleText]:
        """The H- rules, title and summary in French and English (``data/rules.yaml``)."""
        return load_rule_texts("conteur.rulesets.hunter")


def legal_commands(state: HunterState, actor: str | None = None) -> list[CommandTemplate]:
    """What ``actor`` may do now; when None, what anyone may (the game master's tools first)."""
    if actor is None:
        out = gm_commands(state)
        for fid in state.fighters:
            out += fighter_commands(state, fid)
        return out
    return fighter_commands(state, actor)


def gm_commands(state: HunterState) -> list[CommandTemplate]:
    """The game master's commands: the turn, the ambush, cover, damage."""
    ids = tuple(state.fighters)
    out: list[CommandTemplate] = []
    if state.phase != "over":
        out.append(CommandTemplate("initiative", None, (), rule="H-INI-1"))
    if state.phase == "setup":
        out.append(
            CommandTemplate("ambush", None, (Param("fighter", "choice", ids),), rule="H-AMB-1")
        )
    out.append(
        CommandTemplate(
            "gm_cover",
            None,
            (Param("fighter", "choice", ids), Param("cover", "choice", tuple(COVER_PENALTY))),
            rule="H-COV-1",
        )
    )
    out.append(
        CommandTemplate(
            "gm_damage",
            None,
            (
                Param("fighter", "choice", ids),
                Param("amount", "int", min=1, max=30),
                Param("damage_type", "choice", ("bashing", "lethal", "aggravated")),
            ),
            rule="H-ATK-3",
        )
    )
    hunters = tuple(fid for fid, f in state.fighters.items() if f.kind == "hunter")
    if hunters:
        out.append(
            CommandTemplate(
                "gm_xp_reset", None, (Param("fighter", "choice", hunters),), rule="H-XP-2"
            )
        )
    return out


def fighter_commands(state: HunterState, actor: str) -> list[CommandTemplate]:
    """What one fighter may do now (its action when due, a dodge, a quick draw...)."""
    ids = tuple(state.fighters)
    out: list[CommandTemplate] = []
    f = state.fighters.get(actor)
    if f is None or not f.able or state.phase != "resolution":
        return out
    others = tuple(fid for fid in ids if fid != actor and state.fighters[fid].able)
    if turn.due(state) == actor:
        kinds = _kinds(state, actor)
        out.append(
            CommandTemplate(
                "act",
                actor,
                (
                    Param("kind", "choice", kinds),
                    Param("target", "choice", others, required=False),
                    Param("weapon", "choice", f.weapons, required=False),
                    Param("range", "choice", BANDS, required=False, default="short"),
                    Param("burst", "choice", tuple(BURSTS), required=False),
                    Param("option", "choice", OPTIONS, required=False),
                    Param("all_out", "bool", required=False, default=False),
                    Param("off_hand", "bool", required=False, default=False),
                    Param("targets", "text", required=False),
                    Param("object", "choice", throwable(state, actor), required=False),
                    Param("distance", "int", required=False, min=0, max=2000),
                    Param("avoid", "int", required=False, min=0, max=10),
                    Param("avoid_grappling", "bool", required=False, default=False),
                    Param("ally", "choice", others, required=False),
                    Param("far", "bool", required=False, default=False),
                    Param("leave_cover", "bool", required=False, default=False),
                    Param("athletics_dodge", "bool", required=False, default=False),
                ),
                rule="H-INI-1",
            )
        )
        out.append(
            CommandTemplate("delay", actor, (Param("after", "choice", others),), rule="H-DEL-1")
        )
        out.append(CommandTemplate("pass", actor, (), rule="H-INI-1"))
    if not f.acted and not f.immobilised and f.initiative is not None:
        out.append(CommandTemplate("dodge", actor, (), rule="H-DODGE-1"))
    if "quick_draw" in f.merits:
        out.append(
            CommandTemplate(
                "quick_draw", actor, (Param("weapon", "choice", f.weapons),), rule="H-DRAW-1"
            )
        )
    if f.aim:
        out.append(CommandTemplate("stop_aiming", actor, (), rule="H-AIM-1"))
    return out


def throwable(state: HunterState, actor: str) -> tuple[str, ...]:
    """Objects of the tables the fighter is strong enough to throw (H-THR-3)."""
    strength = state.fighters[actor].trait("strength")
    return tuple(
        w.id for w in state.tables.weapons.values() if w.category != "firearm" and w.size < strength
    )


def _kinds(state: HunterState, actor: str) -> tuple[str, ...]:
    f = state.fighters[actor]
    if f.immobilised:
        return ("escape",)
    if f.held_by:
        return ("escape", "overpower", "dodge")
    w = state.weapon_of(f)
    kinds = ["attack", "throw"]
    if w is not None and w.autofire:
        kinds.append("burst")
    kinds += ["overpower"] if f.holding else ["grapple"]
    kinds += ["dodge", "aim"]
    if w is not None and w.category == "firearm":
        kinds.append("reload")
    if len(f.weapons) > (1 if f.weapon else 0):
        kinds.append("draw")
    return tuple(kinds)
