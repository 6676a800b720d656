"""A toy ruleset: a d6 duel, written only against conteur's public ruleset contract.

The rules, numbered like the real rulesets' (``D-...``):

- **D-TURN-1** — fighters act one after the other, in the scenario's order; a
  fighter out of the fight is skipped.
- **D-ATK-1** — an attack rolls 1D6 + the attacker's ``attack``; the target
  guards with 1D6 + its ``guard``; the attack hits when its total is higher.
- **D-DMG-1** — a hit takes the margin (attack total − guard total) off the
  target's health points.
- **D-END-1** — a fighter at 0 health is out; the duel is over when at most
  one side still stands.

The game master may bring a fighter in while the duel lasts: it takes the last
place of the order (D-TURN-1), and acts when the turn comes round to it; a fighter
taken out leaves the order at once (``conteur.engine.joining``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from conteur.dice import Dist, Expr
from conteur.engine import Command, CommandTemplate, Event, Param, Resolution, Ruleset
from conteur.engine.inputs import Key, check_keys, common, entry_of
from conteur.engine.joining import (
    JOIN,
    WITHDRAW,
    WITHDRAWN,
    CombatantJoined,
    CombatantWithdrawn,
    leaving,
    newcomer,
)
from conteur.engine.npcs import check_params
from conteur.engine.odds import AttackOdds, AttackQuery
from conteur.engine.report import Fact, rolled
from conteur.engine.rules import RuleText, load_rule_texts
from conteur.engine.sheetform import FormField, FormSection, SheetForm
from conteur.engine.views import (
    Column,
    HealthView,
    OrderSlot,
    Resource,
    Roster,
    RosterRow,
    Status,
    TurnView,
)
from conteur.engine.visibility import GM_ONLY, PUBLIC, Visibility, owned_by
from conteur.i18n import ConteurError, Lang, Msg, t

D6 = Expr(1, 6)


def _total(result: Any) -> float:
    """A d6's face: the higher, the better for the one who rolls it."""
    return float(result.total)


@dataclass
class Duellist:
    id: str
    name: str
    side: str
    attack: int
    guard: int
    health: int
    health_max: int
    withdrawn: bool = False

    @property
    def standing(self) -> bool:
        return self.health > 0 and not self.withdrawn


@dataclass
class DuelState:
    fighters: dict[str, Duellist]
    turn: int = 0
    cursor: int = 0
    over: bool = False
    notes: list[str] = field(default_factory=list)

    def due(self) -> str | None:
        """D-TURN-1: whose turn it is (None before the first turn and once it is over)."""
        if self.turn == 0 or self.over:
            return None
        return list(self.fighters)[self.cursor]

    def admit(self, entry: Mapping[str, Any]) -> None:
        """A newcomer takes the last place of the order (D-TURN-1)."""
        f = duellist(entry, len(self.fighters))
        self.fighters[f.id] = f

    def withdraw(self, fighter: str) -> None:
        self.fighters[fighter].withdrawn = True


# ---------------------------------------------------------------- events


class DuelBegun(Event):
    def apply(self, state: Any) -> None:
        state.turn = 1
        state.cursor = 0


class DuelAttackRolled(Event):
    attacker: str
    target: str
    total: int

    def veiled(self, lang: Lang | None = None, names: Mapping[str, str] | None = None) -> str:
        names = names or {}
        return t(
            "ev.DuelAttackRolled.veiled",
            lang,
            attacker=names.get(self.attacker, self.attacker),
            target=names.get(self.target, self.target),
        )


class DuelGuardRolled(Event):
    target: str
    total: int


class DuelHit(Event):
    attacker: str
    target: str
    outcome: str
    """``duel_hit`` or ``duel_miss`` (a word of the catalogue)."""

    @property
    def hit(self) -> bool:
        return self.outcome == "duel_hit"


class DuelHurt(Event):
    target: str
    amount: int
    left: int

    def apply(self, state: Any) -> None:
        state.fighters[self.target].health = self.left

    def veiled(self, lang: Lang | None = None, names: Mapping[str, str] | None = None) -> str:
        names = names or {}
        return t("ev.DuelHurt.veiled", lang, target=names.get(self.target, self.target))


class DuelOut(Event):
    fighter: str


class DuelTurnPassed(Event):
    cursor: int
    turn: int

    quiet = True

    def apply(self, state: Any) -> None:
        state.cursor = self.cursor
        state.turn = self.turn


class DuelOver(Event):
    winner: str

    def apply(self, state: Any) -> None:
        state.over = True


class DuelNote(Event):
    text: str

    def apply(self, state: Any) -> None:
        state.notes.append(self.text)


# ---------------------------------------------------------------- the ruleset

KEYS = (
    Key("id", "id", "id"),
    Key("name", "nom", "name"),
    Key("side", "camp", "side"),
    Key("attack", "attaque", "attack"),
    Key("guard", "garde", "guard"),
    Key("health", "santé", "health"),
)
SHEET = Key("sheet", "fiche", "sheet")
"""A campaign character's entry: ``{id, sheet: {name, attack, guard, health}, side...}``."""


def duellist(raw: Any, i: int) -> Duellist:
    """The fighter of one scenario entry (ConteurError naming the bad field; an unknown key
    is refused with the nearest one)."""
    if not isinstance(raw, Mapping):
        raise ConteurError("duel.scenario.bad", index=i + 1, field="combatants")
    entry = entry_of(i, raw)
    raw = check_keys(raw, (*KEYS, SHEET), entry=entry)
    sheet = raw.pop("sheet", None)
    if sheet is not None:  # a campaign character: its sheet's numbers, the entry's id/side
        if not isinstance(sheet, Mapping):
            raise ConteurError("duel.scenario.bad", index=i + 1, field="sheet")
        raw = {**check_keys(sheet, KEYS, entry=entry), **raw}
    given = common(raw, known=KEYS, entry=entry)
    fid = given.id or f"f{i + 1}"
    health = _number(raw, "health", i, 6)
    return Duellist(
        id=fid,
        name=given.name or fid,
        side=given.side or fid,
        attack=_number(raw, "attack", i, 0),
        guard=_number(raw, "guard", i, 0),
        health=health,
        health_max=health,
    )


_LINE = re.compile(
    r"^\s*(?P<actor>[\w-]+)\s*:?\s+(?P<verb>attaque|attacks|attack|passe|passes|pass)"
    r"(?:\s+(?P<target>[\w-]+))?\s*$",
    re.IGNORECASE,
)
_NOTE = re.compile(r"^\s*(?:note|mj|gm)\s*:\s*(?P<text>.+)$", re.IGNORECASE)


class DuelRuleset(Ruleset[DuelState]):
    """A d6 duel (D-TURN-1, D-ATK-1, D-DMG-1, D-END-1)."""

    name = "duel"

    def message_catalogs(self) -> tuple[tuple[str, str], ...]:
        return (("conteur_duel", "messages.yaml"),)

    def sweep_traits(self, state: DuelState) -> Mapping[str, str]:
        """The three numbers of a duellist (``conteur simulate --sweep ana.attack=0..3``)."""
        return {
            "attack": "attack",
            "attaque": "attack",
            "guard": "guard",
            "garde": "guard",
            "health": "health",
            "santé": "health",
        }

    def sweep_trait_name(self, state: DuelState, trait: str) -> Msg:
        return Msg(f"duel.trait.{trait}")

    def with_trait(
        self,
        state: DuelState,
        entry: Mapping[str, Any],
        trait: str,
        value: int,
        base_dir: Path | None = None,
    ) -> dict[str, Any]:
        return {**entry, trait: value}

    def referee(self) -> Any:
        from .sim import REFEREE

        return REFEREE

    def tactics(self) -> Mapping[str, Any]:
        from .sim import TACTICS

        return TACTICS

    def rule_texts(self) -> Mapping[str, RuleText]:
        return load_rule_texts("conteur_duel")

    # ------------------------------------------------------------ state

    def load_sheet(self, data: Mapping[str, Any], source: str = "<sheet>") -> object | None:
        """A duellist's sheet: a name and three numbers (refused by field otherwise); kept
        as given (no canonical form of its own)."""
        duellist(data, 0)
        return None

    def check_setup(self, scenario: Mapping[str, Any]) -> None:
        """A duel has no packs nor options; its fighters come later (D-TURN-1 needs two)."""
        for name in ("packs", "options"):
            if scenario.get(name):
                raise ConteurError("duel.scenario.none", field=name)

    def check_combatant(self, scenario: Mapping[str, Any]) -> None:
        """One campaign character, as an encounter reads it (alone, it cannot duel)."""
        for i, raw in enumerate(scenario.get("combatants") or []):
            duellist(raw, i)

    def new_state(self, scenario: Mapping[str, Any], base_dir: Path | None = None) -> DuelState:
        fighters: dict[str, Duellist] = {}
        for i, raw in enumerate(scenario.get("combatants") or []):
            f = duellist(raw, i)
            fighters[f.id] = f
        if len(fighters) < 2:
            raise ConteurError("duel.scenario.two")
        return DuelState(fighters=fighters)

    # ------------------------------------------------------------ commands

    def legal_commands(self, state: DuelState, actor: str | None = None) -> list[CommandTemplate]:
        out: list[CommandTemplate] = []
        if actor is None:
            if state.turn == 0:
                out.append(CommandTemplate("begin", None, (), "D-TURN-1"))
            out.append(CommandTemplate("gm_note", None, (Param("text", "text"),), None, dice=False))
            standing = tuple(f.id for f in state.fighters.values() if f.standing)
            if standing and not state.over:
                out.append(
                    CommandTemplate(
                        WITHDRAW, None, (Param("fighter", "choice", standing),), None, dice=False
                    )
                )
        due = state.due()
        if due is not None and actor in (None, due):
            f = state.fighters[due]
            foes = tuple(o.id for o in state.fighters.values() if o.side != f.side and o.standing)
            if foes:
                out.append(
                    CommandTemplate("attack", due, (Param("target", "choice", foes),), "D-ATK-1")
                )
            out.append(CommandTemplate("pass", due, (), "D-TURN-1"))
        return out

    def resolve(self, ctx: Resolution[DuelState], command: Command) -> None:
        state = ctx.state
        if command.type == "gm_note":
            ctx.emit(DuelNote(text=str(command.get("text", ""))))
            return
        if command.type == JOIN:
            if self.join_rule(state) is None:
                raise ConteurError("engine.join.closed")
            entry = newcomer(command.args, state.fighters)
            duellist(entry, len(state.fighters))  # refused before anything is emitted
            ctx.emit(CombatantJoined(fighter=entry["id"], entry=entry, rules=("D-TURN-1",)))
            return
        if command.type == WITHDRAW and not state.over:
            standing = {f.id: f for f in state.fighters.values() if f.standing}
            fid = leaving(command.args, standing)
            due = state.due()
            ctx.emit(CombatantWithdrawn(fighter=fid, rules=("D-TURN-1",)))
            sides = {f.side for f in state.fighters.values() if f.standing}
            if state.turn and len(sides) <= 1:
                ctx.emit(DuelOver(winner=next(iter(sides), ""), rules=("D-END-1",)))
            elif due == fid:
                self._next(ctx)
            return
        legal = {(tp.type, tp.actor): tp for tp in self.legal_commands(state, command.actor)}
        template = legal.get((command.type, command.actor))
        if template is None:
            raise ConteurError("duel.not_now", command=command.type)
        if command.type == "begin":
            ctx.emit(DuelBegun(rules=("D-TURN-1",)))
            return
        if command.type == "attack":
            target = str(command.get("target", ""))
            if target not in template.param("target").choices:
                raise ConteurError("duel.bad_target", target=target)
            self._attack(ctx, str(command.actor), target)
        self._next(ctx)

    def _attack(self, ctx: Resolution[DuelState], attacker: str, target: str) -> None:
        a, d = ctx.state.fighters[attacker], ctx.state.fighters[target]
        attack = ctx.dice.roll(D6)
        attack_total = attack.result.total + a.attack
        ctx.emit(
            DuelAttackRolled(
                attacker=attacker,
                target=target,
                total=attack_total,
                rules=("D-ATK-1",),
                rolls=(attack,),
            )
        )
        guard = ctx.dice.roll(D6)
        guard_total = guard.result.total + d.guard
        ctx.emit(
            DuelGuardRolled(target=target, total=guard_total, rules=("D-ATK-1",), rolls=(guard,))
        )
        hit = attack_total > guard_total
        outcome = "duel_hit" if hit else "duel_miss"
        ctx.emit(DuelHit(attacker=attacker, target=target, outcome=outcome, rules=("D-ATK-1",)))
        if not hit:
            return
        margin = attack_total - guard_total
        left = max(0, d.health - margin)
        ctx.emit(DuelHurt(target=target, amount=margin, left=left, rules=("D-DMG-1",)))
        if left == 0:
            ctx.emit(DuelOut(fighter=target, rules=("D-END-1",)))
            sides = {f.side for f in ctx.state.fighters.values() if f.standing}
            if len(sides) <= 1:
                ctx.emit(DuelOver(winner=a.side, rules=("D-END-1",)))

    def _next(self, ctx: Resolution[DuelState]) -> None:
        state = ctx.state
        if state.over:
            return
        order = list(state.fighters)
        cursor, turn = state.cursor, state.turn
        for _ in order:
            cursor += 1
            if cursor == len(order):
                cursor, turn = 0, turn + 1
            if state.fighters[order[cursor]].standing:
                break
        ctx.emit(DuelTurnPassed(cursor=cursor, turn=turn, rules=("D-TURN-1",)))

    def parse_command(self, line: str, state: DuelState, lang: Lang | None = None) -> Command:
        text = line.strip()
        if text.lower() in ("début", "debut", "begin", "initiative"):
            return Command("begin")
        note = _NOTE.match(text)
        if note:
            return Command("gm_note", None, {"text": note.group("text").strip()})
        m = _LINE.match(text)
        if not m or m.group("actor") not in state.fighters:
            raise ConteurError("duel.script.not_understood", line=line)
        verb = m.group("verb").lower()
        if verb.startswith("pass"):
            return Command("pass", m.group("actor"))
        if not m.group("target"):
            raise ConteurError("duel.script.not_understood", line=line)
        return Command("attack", m.group("actor"), {"target": m.group("target")})

    def sheet_form(self, era: str | None = None) -> SheetForm:
        """A duellist's name, side and three numbers (the contract's form, no web code)."""
        dots = tuple(
            FormField(k, "dots", Msg(f"duel.npc.{k}"), 0, 6, default=0) for k in ("attack", "guard")
        )
        return SheetForm(
            sections=(
                FormSection(
                    "duellist",
                    Msg("duel.form.duellist"),
                    (
                        FormField("name", "text", Msg("duel.npc.name"), required=True),
                        FormField("side", "text", Msg("duel.form.side")),
                        *dots,
                        FormField("health", "number", Msg("duel.npc.health"), 1, 20, default=6),
                    ),
                ),
            )
        )

    def quick_npc_params(self, era: str | None = None) -> tuple[Param, ...]:
        """A duellist from its name and three numbers."""
        return (
            Param("name", "text", default="PNJ"),
            Param("attack", "int", min=0, max=6, default=1),
            Param("guard", "int", min=0, max=6, default=1),
            Param("health", "int", min=1, max=30, default=5),
        )

    def quick_npc_label(self, name: str, lang: Lang | None = None) -> str:
        return t(f"duel.npc.{name}", lang)

    def quick_npc(self, params: Mapping[str, Any], era: str | None = None) -> dict[str, Any]:
        values = check_params(self.quick_npc_params(era), params)
        name = str(values["name"]).strip() or "PNJ"
        ident = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "pnj"
        return {
            "id": ident,
            "name": name,
            "attack": values["attack"],
            "guard": values["guard"],
            "health": values["health"],
        }

    def join_rule(self, state: DuelState) -> str | None:
        """D-TURN-1: a newcomer takes the last place of the order, until the duel is over."""
        return None if state.over else "D-TURN-1"

    def end_state(self, state: DuelState) -> dict[str, dict[str, Any]]:
        return {f.id: {"health": f.health} for f in state.fighters.values()}

    # ------------------------------------------------------------ views

    def columns(self) -> tuple[Column, ...]:
        return (Column(key="guard", label=Msg("duel.res.guard")),)

    def roster(self, state: DuelState) -> Roster:
        rows = []
        for f in state.fighters.values():
            status: Status = (
                "out" if not f.standing else "wounded" if f.health < f.health_max else "unhurt"
            )
            fate = WITHDRAWN if f.withdrawn else "alive" if f.standing else "out"
            rows.append(
                RosterRow(
                    id=f.id,
                    name=f.name,
                    side=f.side,
                    health=HealthView.of_points(f.health, f.health_max, "duel.unit.hp"),
                    status=status,
                    band=f"band.{status}",
                    resources=(Resource(key="guard", label=Msg("duel.res.guard"), value=f.guard),),
                    fate=fate,
                )
            )
        return Roster(columns=self.columns(), rows=tuple(rows))

    def turn_view(self, state: DuelState) -> TurnView:
        due = state.due()
        phase = "over" if state.over else "setup" if state.turn == 0 else "duel"
        order = tuple(OrderSlot(ids=(f.id,)) for f in state.fighters.values() if not f.withdrawn)
        return TurnView(
            turn=state.turn,
            phase=phase,
            due=(due,) if due else (),
            order=order,
            over=state.over,
        )

    def visibility(self, event: Event, state: DuelState) -> Visibility:
        """A note is the GM's; a fighter's roll and its exact health are its own; the rest
        (who hit whom, who is out) is public."""
        if isinstance(event, DuelNote):
            return GM_ONLY
        if isinstance(event, DuelAttackRolled):
            return owned_by(event.attacker)
        if isinstance(event, (DuelGuardRolled, DuelHurt)):
            return owned_by(event.target)
        return PUBLIC

    # ------------------------------------------------------------ the summary

    def fight_facts(self, event: Event) -> Sequence[Fact]:
        """D-ATK-1's attack and guard rolls (their totals), a hit, the points lost."""
        if isinstance(event, DuelAttackRolled):
            return (
                Fact("attack", event.attacker, event.target),
                *rolled(event, event.attacker, _total),
            )
        if isinstance(event, DuelGuardRolled):
            return rolled(event, event.target, _total)
        if isinstance(event, DuelHit) and event.hit:
            return (Fact("hit", event.attacker, event.target),)
        if isinstance(event, DuelHurt):
            return (Fact("damage", None, event.target, event.amount),)
        return ()

    # ------------------------------------------------------------ odds

    def attack_kinds(self, state: DuelState, attacker: str) -> list[str]:
        return ["duel_attack"] if attacker in state.fighters else []

    def price_attack(self, state: DuelState, query: AttackQuery) -> AttackOdds:
        """D-ATK-1 and D-DMG-1 over the 36 equally likely pairs of faces."""
        attacker, target = query.attacker, query.target
        a, d = state.fighters[attacker], state.fighters[target]
        levels: dict[int, Fraction] = {}
        for x, y in itertools.product(range(1, 7), repeat=2):
            margin = max(0, x + a.attack - (y + d.guard))
            levels[margin] = levels.get(margin, Fraction(0)) + Fraction(1, 36)
        lost = Dist.from_mapping({k: float(p) for k, p in levels.items()})
        return AttackOdds(
            attacker=attacker,
            target=target,
            maneuver="duel_attack",
            roll=Msg("duel.odds.roll", attack=a.attack, guard=d.guard),
            p_hit=float(sum(p for k, p in levels.items() if k > 0)),
            damage=lost,
            levels=lost,
            p_incapacitated=float(sum(p for k, p in levels.items() if k >= d.health)),
            p_killed=0.0,  # no one dies in a duel (D-END-1: out at 0 health)
        )


def _number(raw: Mapping[str, Any], key: str, index: int, default: int) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 20:
        raise ConteurError("duel.scenario.bad", index=index + 1, field=key)
    if key == "health" and value < 1:
        raise ConteurError("duel.scenario.bad", index=index + 1, field=key)
    return value


__all__ = ["DuelRuleset", "DuelState"]
