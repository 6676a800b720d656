"""The events of a vtm fight and how each one folds into the state.

Log text: the catalog key ``ev.<EventType>`` in ``messages-play.yaml``, in French and English.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, ClassVar, Literal

from conteur.dice.asks import RollAsk
from conteur.engine.battlemap import ZoneDrawn, ZoneErased
from conteur.engine.conditions import Fields
from conteur.engine.events import Event, Modifiers
from conteur.i18n import Lang, Msg, catalog, env_lang, t

from .asks import parts as named_parts
from .condition_words import TIMED_SUFFIX, condition_words
from .conditions import Dazed, InitiativeMalus, OffBalance
from .readiness import spend_defence
from .rulebook import rules_of
from .state import Action, Declaration, Progress, VtmState


def declaration_to_dict(decl: Declaration) -> dict[str, Any]:
    """A JSON-ready declaration."""
    return {
        "actions": [
            {
                "kind": a.kind,
                "target": a.target,
                "weapon": a.weapon,
                "params": {k: v for k, v in a.params},
                "celerity": a.celerity,
            }
            for a in decl.actions
        ],
        "celerity": decl.celerity,
        "willpower": decl.willpower,
        "full_defense": decl.full_defense,
        "delayed": decl.delayed,
    }


def declaration_from_dict(data: dict[str, Any]) -> Declaration:
    """Read back ``declaration_to_dict``."""
    actions = tuple(
        Action(
            kind=a["kind"],
            target=a.get("target"),
            weapon=a.get("weapon"),
            params=tuple(sorted((a.get("params") or {}).items())),
            celerity=bool(a.get("celerity")),
        )
        for a in data.get("actions", ())
    )
    return Declaration(
        actions=actions,
        celerity=int(data.get("celerity", 0)),
        willpower=bool(data.get("willpower")),
        full_defense=data.get("full_defense"),
        delayed=bool(data.get("delayed")),
    )


class Bilingual:
    """A text of the tables in French and English, shown in the reader's language."""

    def __init__(self, fr: str, en: str) -> None:
        self.fr = fr
        self.en = en

    def describe(self, lang: Lang | None = None) -> str:
        return self.en if (lang or env_lang()) == "en" else self.fr


class DeclarationText:
    """A declaration in the log's language: each action's word, its target, Celerity."""

    def __init__(self, declaration: Mapping[str, Any], names: Mapping[str, str]) -> None:
        self.declaration = declaration
        self.names = names

    def describe(self, lang: Lang | None = None) -> str:
        def word(value: str) -> str:
            key = f"word.{value}"
            return t(key, lang) if key in catalog() else value

        decl = self.declaration
        if decl.get("delayed"):
            return word("delay")
        if decl.get("full_defense"):
            return f"{word('full_defense')} ({word(str(decl['full_defense']))})"
        parts = []
        for a in decl.get("actions", ()):
            text = word(str(a["kind"]))
            if a.get("target"):
                text += " → " + self.names.get(a["target"], str(a["target"]))
            if a.get("celerity"):
                text += f" ({word('celerity')})"
            parts.append(text)
        return t("vtm.declaration.then", lang).join(parts)


class PoolRoll(Event, base=True):
    """Base of the rolls whose log line says the pool part by part, as the table was asked
    it (``dice``: « Dextérité 3 + Bagarre 3 = 6 dés »; without ``pool_parts``, « 6 dés »)."""

    pool: int
    pool_parts: tuple[tuple[str, int], ...]

    def params(self, names: Mapping[str, str] | None = None) -> dict[str, Any]:
        out = super().params(names)
        out["dice"] = pool_breakdown(self.pool_parts, self.pool)
        return out


@dataclass(frozen=True, kw_only=True)
class SuccessesShared(Event, base=True):
    """Base of an attack whose successes are split among several targets: its log line
    says each target's share (``shares``: « Jack 2, Bill 1 »), its veiled line only who is
    aimed at (``targets``: « Jack, Bill »)."""

    attacker: str
    successes: int
    shares: tuple[tuple[str, int], ...]

    def params(self, names: Mapping[str, str] | None = None) -> dict[str, Any]:
        out = super().params(names)
        shown = [((names or {}).get(fid, fid), n) for fid, n in self.shares]
        out["shares"] = ", ".join(f"{name} {n}" for name, n in shown)
        out["targets"] = ", ".join(name for name, _ in shown)
        return out


@dataclass(frozen=True, kw_only=True)
class PutsCondition(Event, base=True):
    """Base of the events that give ``fighter`` the condition ``puts``, made of the event's
    fields of the same names (``Fields.read_from``): the event carries that record's
    fields (a class of them that the condition derives from too), then its own."""

    puts: ClassVar[type[Fields]]

    fighter: str

    def apply(self, state: VtmState) -> None:
        state.fighters[self.fighter].conditions.put(self.puts.read_from(self))


# ----------------------------------------------------------------- turn stages


class TurnStarted(Event):
    """A new 3-second turn begins with its initiative stage (V-GEN-3)."""

    heading = True
    """Logs show it as the header of the turn."""

    turn: int

    def apply(self, state: VtmState) -> None:
        state.turn = self.turn
        state.phase = "declaration"
        state.order = []
        state.cursor = 0
        state.end_cursor = 0
        for f in state.fighters.values():
            f.progress = Progress()
            f.initiative = None
            off = f.conditions.of(OffBalance)
            if off is not None and off.turn < self.turn:
                f.conditions.drop(OffBalance)


class InitiativeRolled(Event):
    """One d10 plus Dex + Wits, less the wound penalty (V-INI-1)."""

    fighter: str
    face: int
    rating: int
    total: int

    def apply(self, state: VtmState) -> None:
        state.fighters[self.fighter].initiative = (self.total, self.rating)
        state.fighters[self.fighter].conditions.drop(InitiativeMalus)


class InitiativeOrdered(Event):
    """Ranks fastest first; several ids in a rank act simultaneously (V-INI-2)."""

    order: tuple[tuple[str, ...], ...]

    def apply(self, state: VtmState) -> None:
        state.order = [list(rank) for rank in self.order]
        state.phase = "declaration"
        state.cursor = len(self.order) - 1

    def params(self, names: Mapping[str, str] | None = None) -> dict[str, Any]:
        def show(fid: str) -> str:
            return names.get(fid, fid) if names else fid

        text = " > ".join(" = ".join(show(i) for i in rank) for rank in self.order)
        return {"order": text}

    def without(self, hidden: frozenset[str]) -> InitiativeOrdered:
        """The order without the hidden fighters (an empty rank dropped)."""
        ranks = (tuple(i for i in rank if i not in hidden) for rank in self.order)
        return replace(self, order=tuple(r for r in ranks if r))


class ActionDeclared(Event):
    """A fighter's declaration, slowest first (V-INI-3)."""

    fighter: str
    declaration: dict[str, Any]
    summary: str = ""

    def params(self, names: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The summary in words: ``tir → Bob puis esquive`` (``summary`` stays for machines)."""
        out = super().params(names)
        out["summary"] = DeclarationText(self.declaration, names or {})
        return out

    @classmethod
    def of(
        cls, fighter: str, decl: Declaration, summary: str, rules: tuple[str, ...]
    ) -> ActionDeclared:
        """The event of ``decl``, which it keeps as read (``declared``): what
        ``declaration_from_dict`` reads back from its ``declaration`` is equal to it."""
        event = cls(
            fighter=fighter, declaration=declaration_to_dict(decl), summary=summary, rules=rules
        )
        event.__dict__["declared"] = decl  # ``declared``'s value, not a field
        return event

    @cached_property
    def declared(self) -> Declaration:
        """The declaration read back from ``declaration`` (once: an event is immutable)."""
        return declaration_from_dict(self.declaration)

    def apply(self, state: VtmState) -> None:
        decl = self.declared
        progress = state.fighters[self.fighter].progress
        progress.declaration = decl
        if decl.delayed:
            progress.pending = [(0, "delayed")]
        else:
            progress.pending = [
                (i, timing_of(decl, i, state.options)) for i in range(len(decl.actions))
            ]


def timing_of(decl: Declaration, index: int, options: dict[str, Any]) -> Any:
    """When declared action ``index`` happens (V-INI-4, V-INI-7)."""
    action = decl.actions[index]
    if decl.delayed:
        return "delayed"
    if action.defensive:
        return "defence"
    if action.celerity:
        return "end"
    if decl.multiple > 1:
        first_non_defensive = next(
            i for i, a in enumerate(decl.actions) if not a.defensive and not a.celerity
        )
        if options.get("multiple_first_at_rank") and index == first_non_defensive:
            return "rank"
        return "end"
    return "rank"


class DeclarationsClosed(Event):
    """Every fighter has declared: resolution starts with the fastest (V-INI-4)."""

    def apply(self, state: VtmState) -> None:
        state.phase = "resolution"
        state.cursor = 0


class DeclarationCursor(Event):
    """The next rank to declare (slowest first)."""

    quiet = True

    cursor: int

    def apply(self, state: VtmState) -> None:
        state.cursor = self.cursor


class RankPassed(Event):
    """The resolution moves past a rank."""

    quiet = True

    cursor: int

    def apply(self, state: VtmState) -> None:
        for fid in state.order[self.cursor] if self.cursor < len(state.order) else []:
            progress = state.fighters[fid].progress
            progress.rank_passed = True
            progress.frozen_penalty = None  # a simultaneous rank is over (V-INI-2)
            if progress.declaration is not None and progress.declaration.delayed:
                progress.waiting = True
        state.cursor = self.cursor + 1


class EndOfTurnStarted(Event):
    """Multiple and Celerity actions now take place, in initiative order (V-INI-7)."""

    def apply(self, state: VtmState) -> None:
        state.phase = "end_of_turn"
        state.end_cursor = 0


class EndCursor(Event):
    """The end-of-turn pass moves to the next fighter."""

    quiet = True

    end_cursor: int

    def apply(self, state: VtmState) -> None:
        state.end_cursor = self.end_cursor


class TurnEnded(Event):
    """Every action of the turn is spent."""

    turn: int

    def apply(self, state: VtmState) -> None:
        state.phase = "setup"
        for f in state.fighters.values():
            f.progress.pending = []
            f.progress.ready_defence = None
            f.progress.waiting = False


class ActionTaken(Event):
    """A declared action is carried out (or given up)."""

    fighter: str
    index: int
    kind: str
    counts: bool = True
    willpower: bool = False

    def apply(self, state: VtmState) -> None:
        progress = state.fighters[self.fighter].progress
        progress.pending = [p for p in progress.pending if p[0] != self.index]
        if self.counts:
            progress.acted += 1
        if self.willpower:
            progress.willpower_used = True
        progress.waiting = False if not progress.pending else progress.waiting


class ActionLost(Event):
    """A fighter loses an action (dazed, out of the fight, a delay never used...)."""

    fighter: str
    reason: str

    def apply(self, state: VtmState) -> None:
        progress = state.fighters[self.fighter].progress
        for i, (_, timing) in enumerate(progress.pending):
            if timing != "defence":
                progress.pending.pop(i)
                break
        if self.reason == "dazed":
            state.fighters[self.fighter].conditions.drop(Dazed)


# ----------------------------------------------------------------- resources


@dataclass(frozen=True, kw_only=True)
class PointsSpent(Event, base=True):
    """Points of one of a fighter's pools (``points``: its Willpower, its blood) spent."""

    points: ClassVar[Literal["willpower", "blood"]]

    fighter: str
    amount: int
    reason: str

    def apply(self, state: VtmState) -> None:
        f = state.fighters[self.fighter]
        setattr(f, self.points, getattr(f, self.points) - self.amount)


class WillpowerSpent(PointsSpent):
    """A Willpower point is spent."""

    points = "willpower"


class BloodSpent(PointsSpent):
    """Blood points are spent (Celerity)."""

    points = "blood"


class AmmoChanged(Event):
    """Rounds left in a weapon's clip."""

    fighter: str
    weapon: str
    rounds: int

    def apply(self, state: VtmState) -> None:
        state.fighters[self.fighter].ammo[self.weapon] = self.rounds


# ----------------------------------------------------------------- attacks


class AttackRolled(PoolRoll):
    """An attack roll: pool, difficulty and successes (V-ATK-1..5)."""

    attacker: str
    target: str
    maneuver: str
    pool: int
    difficulty: int
    successes: int
    botch: bool
    modifiers: tuple[tuple[str, int], ...] = ()
    pool_parts: tuple[tuple[str, int], ...] = ()
    """The pool's parts (« Dextérité 3 + Bagarre 3 = 6 dés » in the log)."""

    def params(self, names: Mapping[str, str] | None = None) -> dict[str, Any]:
        out = super().params(names)
        in_pool = {what for what, _ in self.pool_parts}  # said in the breakdown already
        out["details"] = Modifiers((w, n) for w, n in self.modifiers if w not in in_pool)
        return out

    veil = "ev.AttackRolled.veiled"
    """« Sam attaque Jack (coup de poing) »: who attacks whom, and how; not the dice."""


class DefenceAnnounced(Event):
    """A defensive action is ready for the next attack (V-DEF-1, V-INI-6, V-MAN-3)."""

    fighter: str
    kind: str
    via: str

    def apply(self, state: VtmState) -> None:
        f = state.fighters[self.fighter]
        f.progress.ready_defence = self.kind
        f.progress.ready_via = self.via
        if self.via in ("abort_point", "abort_roll", "delayed"):
            # The declared (or delayed) action is dropped for the defence (V-MAN-3).
            for i, (_, timing) in enumerate(f.progress.pending):
                if timing in ("rank", "end", "delayed"):
                    f.progress.pending.pop(i)
                    break
            f.progress.waiting = False


class AbortFailed(Event):
    """The Willpower roll to abort failed: the declared action must be carried out (V-MAN-3)."""

    fighter: str

    def apply(self, state: VtmState) -> None:
        state.fighters[self.fighter].progress.abort_failed = True


class DefenceRolled(PoolRoll):
    """A block, dodge or parry opposes the attack roll (V-DEF-2)."""

    defender: str
    kind: str
    pool: int
    difficulty: int
    successes: int
    attack_successes: int
    net: int
    pool_parts: tuple[tuple[str, int], ...] = ()
    """The pool's parts (« Dextérité 2 + Esquive 2 = 4 dés » in the log)."""

    def apply(self, state: VtmState) -> None:
        spend_defence(state.fighters[self.defender])  # V-DEF-7, V-DEF-8 (readiness.py)

    def veil_key(self) -> str:
        """« Jack : esquive, l'attaque est arrêtée » or « …, en vain » (V-DEF-2)."""
        if self.attack_successes <= 0:
            return "ev.DefenceRolled.veiled"
        outcome = "stopped" if self.net <= 0 else "through"
        return f"ev.DefenceRolled.veiled.{outcome}"


class AttackMissed(Event):
    """No net success: the attack misses and does no damage (V-ATK-5, V-DEF-2)."""

    attacker: str
    target: str


class Botched(Event):
    """A botch: the game master completes it with a complication (V-ATK-5)."""

    fighter: str
    context: str

    def apply(self, state: VtmState) -> None:
        state.botches.append(
            {"fighter": self.fighter, "context": self.context, "complication": None}
        )


class ComplicationChosen(Event):
    """The game master's complication for the oldest open botch (V-ATK-5).

    ``text`` as typed, or the French text of a table's complication, whose
    English text is ``text_en`` (the log shows each reader its language).
    """

    fighter: str
    text: str
    text_en: str | None = None

    def params(self, names: Mapping[str, str] | None = None) -> dict[str, Any]:
        out = super().params(names)
        if self.text_en is not None:
            out["text"] = Bilingual(self.text, self.text_en)
        out.pop("text_en", None)
        return out

    def apply(self, state: VtmState) -> None:
        for b in state.botches:
            if b["fighter"] == self.fighter and b["complication"] is None:
                b["complication"] = self.text
                return


class DamageRolled(PoolRoll):
    """The damage roll: pool, type and successes (V-DMG-1, V-DMG-2, V-DMG-4)."""

    target: str
    pool: int
    damage_type: str
    successes: int
    pool_parts: tuple[tuple[str, int], ...] = ()
    """The pool's parts (« Force 3 + couteau 1 + succès en plus 2 = 6 dés » in the log)."""

    veil = "ev.DamageRolled.veiled"
    """« Jack est touché (létal) »: the attack hit (V-DMG-1), not how hard."""


class ArmourDestroyed(Event):
    """One attack's damage successes reached twice the armour rating (V-ARM-3)."""

    target: str
    armour: str

    def apply(self, state: VtmState) -> None:
        state.fighters[self.target].armour_destroyed = True


class SoakRolled(PoolRoll):
    """The reflexive soak roll (V-SOAK-1..3, V-ARM-1)."""

    target: str
    pool: int
    successes: int
    pool_parts: tuple[tuple[str, int], ...] = ()
    """The pool's parts (« Vigueur 3 + armure 2 = 5 dés » in the log)."""


class Burned(Event):
    """Fire: aggravated damage that only Fortitude soaks, never armour (V-DMG-3, V-ARM-1)."""

    target: str
    levels: int
    soak: int

    veil = "ev.Burned.veiled"
    """« Le feu brûle Bill »: not the levels nor the soak dice."""


class DamageTaken(Event):
    """Health levels marked on the track (V-DMG-3, V-DMG-5)."""

    target: str
    levels: int
    damage_type: str

    def apply(self, state: VtmState) -> None:
        state.fighters[self.target].health.take(self.levels, self.damage_type)  # type: ignore[arg-type]

    def veil_key(self) -> str:
        """« Bill est blessé » (or « n'est pas blessé »): not the levels lost (V-DMG-3)."""
        return "ev.DamageTaken.veiled" if self.levels > 0 else "ev.DamageTaken.veiled.unhurt"


class Healed(Event):
    """Health levels cleared by the game master."""

    target: str
    levels: int
    damage_type: str | None = None

    def apply(self, state: VtmState) -> None:
        state.fighters[self.target].health.heal(self.levels, self.damage_type)  # type: ignore[arg-type]

    veil = "ev.Healed.veiled"
    """« Bill est soigné »: not the levels healed."""


class ConditionSet(Event):
    """A condition is set (knocked down, dazed, grappled...) or cleared (``value`` None)."""

    target: str
    condition: str
    value: Any = True

    def apply(self, state: VtmState) -> None:
        kinds = rules_of(state).conditions
        state.fighters[self.target].conditions.set(self.condition, self.value, kinds)

    def params(self, names: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The condition in words (« tient Bob », « sonné »), and the last turn a timed one
        holds (``off_balance_turn``)."""
        words = condition_words(self.condition, self.value, names or {}, _weapon_word)
        return {**super().params(names), "condition": words, "turn": self.value}

    def describe(self, lang: Lang | None = None, names: Mapping[str, str] | None = None) -> str:
        """« Jack : sonné », « Jack : déséquilibré jusqu'au tour 3 », « Jack : fin de « à
        terre » »: the condition set, until when, or cleared."""
        if self.value is None or self.value is False:
            key = "ev.ConditionSet.cleared"
        elif self.condition.endswith(TIMED_SUFFIX) and type(self.value) is int:
            key = "ev.ConditionSet.until"
        elif self._own_words(names or {}):
            key = "ev.ConditionSet.noted"
        else:
            key = "ev.ConditionSet"
        text = t(key, lang, **self.params(names))
        return f"{text} ({', '.join(self.rules)})" if self.rules else text

    def _own_words(self, names: Mapping[str, str]) -> bool:
        """Whether the value is the game master's own words (« deux tours »), not a yes or
        the fighter the condition involves."""
        value = self.value
        return isinstance(value, str) and value not in names and value.lower() not in YES


YES = frozenset({"oui", "yes", "on", "true"})
"""The game master's words for « set » that say nothing more."""


def _weapon_word(ref: str) -> Msg | str:
    """A weapon's name from its id (``word.<id>``), else the id as written."""
    return Msg(f"word.{ref}") if f"word.{ref}" in catalog() else ref


def shown_value(value: Any, names: Mapping[str, str] | None) -> Any:
    """A condition's value as a reader reads it: yes or no for a flag set or cleared, a
    combatant's name, a table word (``word.<id>``), a record's fields one after another."""
    if value is None or isinstance(value, bool):
        return Msg("vtm.condition.on" if value else "vtm.condition.off")
    if isinstance(value, str):
        if names and value in names:
            return names[value]
        return Msg(f"word.{value}") if f"word.{value}" in catalog() else value
    if isinstance(value, Mapping):
        value = tuple(v for v in value.values() if not isinstance(v, bool))
    if isinstance(value, tuple | list):
        return Joined(tuple(shown_value(v, names) for v in value))
    return value


class Joined:
    """Values shown one after another, each in the reader's language."""

    def __init__(self, values: tuple[Any, ...]) -> None:
        self.values = values

    def describe(self, lang: Lang | None = None) -> str:
        shown = (v.describe(lang) if hasattr(v, "describe") else str(v) for v in self.values)
        return ", ".join(shown) or "—"


class CoverTaken(Event):
    """The fighter's cover level changes: 0 none, 1 light, 2 good, 3 superior (V-RNG-3)."""

    fighter: str
    level: int

    def apply(self, state: VtmState) -> None:
        state.fighters[self.fighter].cover = self.level


COVER_WORDS = {
    "light": "word.cover_light",
    "good": "word.cover_good",
    "superior": "word.cover_superior",
}
"""The words of the cover table's levels (those of the odds' cover toggle)."""


def _cover_word(level: str) -> Msg | str:
    """A cover level's word (a game master's own level: as written)."""
    return Msg(COVER_WORDS[level]) if level in COVER_WORDS else level


class CoverZoneDrawn(ZoneDrawn):
    """The game master draws a cover zone on the map: whoever stands in it has its cover
    (V-RNG-3; ``level`` is a row of the cover table)."""

    level_word = _cover_word


class CoverZoneErased(ZoneErased):
    """The game master erases a cover zone."""

    level_word = _cover_word


class Moved(Event):
    """The fighter moves to a new position (metres)."""

    fighter: str
    x: float
    y: float
    metres: float

    def apply(self, state: VtmState) -> None:
        state.fighters[self.fighter].position = (self.x, self.y)


class WeaponChanged(Event):
    """The weapon in hand changes (drawn, dropped, disarmed); None is empty-handed."""

    fighter: str
    weapon: str | None

    def apply(self, state: VtmState) -> None:
        state.fighters[self.fighter].weapon = self.weapon

    def params(self, names: Mapping[str, str] | None = None) -> dict[str, Any]:
        out = super().params(names)
        if self.weapon is None:
            out["weapon"] = Msg("vtm.word.empty_handed")
        return out


class RollMade(Event):
    """A roll that is not an attack (a resisted or reflexive roll), with its purpose."""

    fighter: str
    purpose: str
    pool: int
    difficulty: int
    successes: int

    def veil_key(self) -> str:
        """« Bill : jet (garder l'équilibre) réussi »: the outcome, not the dice."""
        outcome = "success" if self.successes > 0 else "failure"
        return f"ev.RollMade.veiled.{outcome}"


# ----------------------------------------------------------------- game master


class ModifierAdded(Event):
    """A game-master modifier for a fighter's next roll: dice ±, difficulty ±, and why."""

    fighter: str
    dice: int
    difficulty: int
    reason: str

    def apply(self, state: VtmState) -> None:
        state.pending_modifiers.setdefault(self.fighter, []).append(
            {"dice": self.dice, "difficulty": self.difficulty, "reason": self.reason}
        )


class ModifiersUsed(Event):
    """The pending game-master modifiers of a fighter were applied to a roll."""

    fighter: str

    def apply(self, state: VtmState) -> None:
        state.pending_modifiers.pop(self.fighter, None)


class ManeuverDefined(Event):
    """A maneuver created by the game master or a player, with the Conteur's approval (V-CC-0)."""

    maneuver: str
    spec: dict[str, Any]

    def apply(self, state: VtmState) -> None:
        state.custom_maneuvers[self.maneuver] = dict(self.spec)

    def params(self, names: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The maneuver by the names its spec gives it (its id, as typed, when none)."""
        out = super().params(names)
        given = self.spec.get("names")
        if isinstance(given, Mapping) and given.get("fr") and given.get("en"):
            out["maneuver"] = Bilingual(str(given["fr"]), str(given["en"]))
        return out


class GmNote(Event):
    """A line of the game master's (an override explained, a narrative note)."""

    text: str


class AmbushResolved(Event):
    """The outcome of an ambush roll: surprise, first strike, spotted, or over (V-MAN-7)."""

    attacker: str
    target: str
    outcome: str
    extra: int

    def apply(self, state: VtmState) -> None:
        if self.outcome in ("surprise", "first_strike"):
            state.ambush = {"attacker": self.attacker, "target": self.target, "extra": self.extra}
        else:
            state.ambush = None
        if self.outcome == "over":
            state.fighters[self.target].progress.ready_defence = None
            state.fighters[self.target].progress.ready_via = None


def pool_breakdown(items: tuple[tuple[str, int], ...], pool: int) -> RollAsk:
    """A pool said part by part in the log, as the table was asked it: « Dextérité 3 +
    Bagarre 3 = 6 dés » (without parts: « 6 dés »)."""
    return RollAsk(
        who=None, what=Msg("ask.part.other"), breakdown=named_parts(items, pool), dice=pool
    )
