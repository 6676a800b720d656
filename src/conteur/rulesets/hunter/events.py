"""The events of a Hunter fight: each names the rule ids it applied and carries its rolls.

Contract with the experience module (``xp.py``): every event that resolves a
roll against someone has ``actor`` and ``target``; a roll with no target has
``actor``; the ``RollRecord`` is in ``rolls``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from conteur.dice.asks import DiceCount, number, signed
from conteur.engine import Event
from conteur.engine.battlemap import ZoneDrawn, ZoneErased
from conteur.engine.events import Modifiers
from conteur.i18n import Lang, Msg, catalog, t

from .dice import HunterResult
from .health import HealthTrack, band_of
from .state import HunterState

WORDS = ("maneuver", "damage_type", "fate", "option", "cover", "action", "opposed")


def _word(value: str) -> Msg | str:
    """A word of the hunter tables in the reader's language (``hunter.word.<value>``)."""
    key = f"hunter.word.{value}"
    return Msg(key) if key in catalog() else value.replace("_", " ")


class HunterModifiers(Modifiers):
    """A roll's parts and modifiers, named by the ``hunter.mod.*`` catalog words."""

    def describe(self, lang: Lang | None = None) -> str:
        if not self.items:
            return ""
        shown = []
        for what, amount in self.items:
            key = f"hunter.mod.{what}"
            name = t(key, lang) if key in catalog() else what.replace("_", " ")
            shown.append(f"{name} {signed(amount, lang)}")
        return f" [{', '.join(shown)}]"


class ChancePool:
    """A pool at 0 dice or fewer, said as the chance die it rolls (H-CHANCE-1):
    « dé de chance (réserve −1) », not « -1 dé »."""

    __slots__ = ("pool",)

    def __init__(self, pool: int) -> None:
        self.pool = pool

    def describe(self, lang: Lang | None = None) -> str:
        value = signed(self.pool, lang) if self.pool < 0 else number(self.pool, lang)
        return t("hunter.log.chance", lang, pool=value)


@dataclasses.dataclass(frozen=True, kw_only=True)
class HunterEvent(Event, base=True):
    """Base of the hunter events: words shown through the ``hunter.word.*`` catalog keys.

    ``apply`` folds the event (``fold``, each event's own effect), then counts its
    hunter rolls into the roller's experience counters (H-XP-2, ``count_xp``).
    """

    def apply(self, state: HunterState) -> None:
        self.fold(state)
        count_xp(self, state)

    def fold(self, state: HunterState) -> None:
        """This event's own effect on the state (events that only inform change nothing)."""

    def veiled(
        self, lang: Lang | None = None, names: Mapping[str, str] | None = None
    ) -> str | None:
        """The line read by those who may not see this event: ``veil`` filled with its
        fields, or the line ``VEILED`` (below) writes for it."""
        veil = VEILED.get(type(self))
        return veil(self, lang, names) if veil is not None else super().veiled(lang, names)

    def params(self, names: Mapping[str, str] | None = None) -> dict[str, Any]:
        out = super().params(names)
        for f in WORDS:
            value = getattr(self, f, None)
            if isinstance(value, str) and f"hunter.word.{value}" in catalog():
                out[f] = Msg(f"hunter.word.{value}")
        for key, value in out.items():
            if isinstance(value, bool):
                out[key] = Msg("hunter.word.yes" if value else "hunter.word.no")
        if names:
            for f in ("after", "ally", "shield"):
                value = getattr(self, f, None)
                if isinstance(value, str):
                    out[f] = names.get(value, value)
        return out


class HunterTurnStarted(HunterEvent):
    """A new turn: per-turn states are reset (Defense, dodge, all-out, delay)."""

    turn: int
    heading: ClassVar[bool] = True

    def fold(self, state: HunterState) -> None:
        state.turn = self.turn
        state.phase = "resolution"
        for f in state.fighters.values():
            f.acted = False
            f.dodging = False
            f.all_out = False
            f.no_defense = False
            f.attacks_received = 0
            f.delay_after = None


class HunterInitiativeRolled(HunterEvent):
    """H-INI-1: one d10 + Dexterity + Composure, kept for the whole combat."""

    actor: str
    face: int
    base: int
    total: int
    veil: ClassVar[str | None] = "ev.HunterInitiativeRolled.veiled"

    def fold(self, state: HunterState) -> None:
        f = state.fighters[self.actor]
        f.initiative = self.total
        f.surprised = False


class HunterRollOff(HunterEvent):
    """H-INI-2: a tie that Dex + Composure does not break is rolled off."""

    actor: str
    face: int
    veil: ClassVar[str | None] = "ev.HunterRollOff.veiled"

    def fold(self, state: HunterState) -> None:
        f = state.fighters[self.actor]
        f.rolloff = (*f.rolloff, self.face)


class HunterOrderSet(HunterEvent):
    """The initiative ranking, best first."""

    ranking: tuple[str, ...]
    quiet: ClassVar[bool] = True

    def fold(self, state: HunterState) -> None:
        state.ranking = list(self.ranking)


class HunterAmbushChecked(HunterEvent):
    """H-AMB-1: Wits + Composure; no success, surprised (initiative only next turn)."""

    actor: str
    successes: int
    surprised: bool

    def fold(self, state: HunterState) -> None:
        state.fighters[self.actor].surprised = self.surprised

    def veil_key(self) -> str:
        """« Ana est prise par surprise », or « … réagit à temps »: not the successes."""
        return "ev.HunterAmbushChecked.veiled." + ("surprised" if self.surprised else "ready")


class HunterDelayed(HunterEvent):
    """H-DEL-1: the fighter will act right after ``after`` has acted."""

    actor: str
    after: str

    def fold(self, state: HunterState) -> None:
        state.fighters[self.actor].delay_after = self.after


@dataclasses.dataclass(frozen=True, kw_only=True)
class ActionSpent(HunterEvent, base=True):
    """Base of the events that spend ``actor``'s action of the turn, and any delay with it
    (H-DEL-1): an action done, passed, or given up to dodge."""

    actor: str

    def fold(self, state: HunterState) -> None:
        f = state.fighters[self.actor]
        f.acted = True
        f.delay_after = None


class HunterActionDone(ActionSpent):
    """The fighter's action of the turn is spent."""

    action: str
    quiet: ClassVar[bool] = True


class HunterPassed(ActionSpent):
    """The fighter lets its action of the turn go: spent, and any delay with it (H-DEL-1)."""


class HunterDodging(ActionSpent):
    """H-DODGE-1: the turn's action given up; Defense doubled (the lower of Wits and Dex)."""

    value: int
    veil: ClassVar[str | None] = "ev.HunterDodging.veiled"

    def fold(self, state: HunterState) -> None:
        super().fold(state)
        state.fighters[self.actor].dodging = True


class HunterAttackRolled(HunterEvent):
    """An attack roll against ``target``: the pool after modifiers, Defense and armour."""

    actor: str
    target: str
    maneuver: str
    pool: int
    modifiers: tuple[tuple[str, int], ...]
    defense: int
    armour: int
    successes: int
    dramatic: bool
    exceptional: bool
    chance: bool
    opposed: str = "defense"
    """What ``defense`` holds: the target's Defense, or its Strength (grappling)."""

    def params(self, names: Mapping[str, str] | None = None) -> dict[str, Any]:
        out = super().params(names)
        out["modifiers"] = HunterModifiers(self.modifiers)
        out["result"] = self.rolls[0].result if self.rolls else ""
        out["dice"] = ChancePool(self.pool) if self.chance else DiceCount(self.pool)
        # armour that takes nothing off is not said (« armure −0 »)
        out["armour"] = Msg("hunter.attack.armour", armour=self.armour) if self.armour else ""
        return out

    def fold(self, state: HunterState) -> None:
        if self.target in state.fighters and self.maneuver in ATTACKS_THAT_COUNT:
            state.fighters[self.target].attacks_received += 1


ATTACKS_THAT_COUNT = frozenset({"unarmed", "melee", "shoot", "throw", "burst", "grapple"})
"""Maneuvers that lower the target's Defense and dodge for later attacks (H-DODGE-1)."""


class HunterDamaged(HunterEvent):
    """H-ATK-3 / H-HLT-1: damage marked on the health track."""

    target: str
    amount: int
    damage_type: str
    track: str
    boxes: tuple[int, ...]
    fate: str

    def fold(self, state: HunterState) -> None:
        f = state.fighters[self.target]
        f.health = HealthTrack(list(self.boxes))
        f.fate = self.fate


class HunterConsciousnessRolled(HunterEvent):
    """Bashing in the last box: a Stamina roll to stay conscious (H-HLT-1, core rules)."""

    actor: str
    successes: int
    conscious: bool

    def fold(self, state: HunterState) -> None:
        if not self.conscious:
            state.fighters[self.actor].fate = "unconscious"

    def veil_key(self) -> str:
        """« Ana tient bon », or « … perd connaissance »: not the Stamina roll."""
        return "ev.HunterConsciousnessRolled.veiled." + ("conscious" if self.conscious else "out")


class HunterAmmoSpent(HunterEvent):
    """Rounds fired from ``weapon``: ``left`` are still in it."""

    actor: str
    weapon: str
    rounds: int
    left: int

    def fold(self, state: HunterState) -> None:
        state.fighters[self.actor].ammo[self.weapon] = self.left


class HunterAllOut(HunterEvent):
    """H-AOA-1: the attacker gives up its Defense for the turn."""

    actor: str

    def fold(self, state: HunterState) -> None:
        state.fighters[self.actor].all_out = True


class HunterAiming(HunterEvent):
    """H-AIM-1: one more die per turn spent aiming (at most three); no Defense meanwhile."""

    actor: str
    target: str
    aim: int

    def fold(self, state: HunterState) -> None:
        f = state.fighters[self.actor]
        f.aim = self.aim
        f.aim_target = self.target


class HunterAimLost(HunterEvent):
    """H-AIM-1: the aim bonus is gone (used, or given up to defend)."""

    actor: str

    def fold(self, state: HunterState) -> None:
        f = state.fighters[self.actor]
        f.aim = 0
        f.aim_target = None


class HunterReloaded(HunterEvent):
    """H-RLD-1: reloading takes the turn; bullet by bullet, no Defense meanwhile."""

    actor: str
    weapon: str
    rounds: int
    turns_left: int
    exposed: bool

    def fold(self, state: HunterState) -> None:
        f = state.fighters[self.actor]
        f.reloading = self.turns_left
        if self.turns_left == 0:
            f.ammo[self.weapon] = self.rounds
        if self.exposed:
            f.no_defense = True


class HunterDrawn(HunterEvent):
    """H-DRAW-1: a weapon drawn (the turn, unless Quick Draw)."""

    actor: str
    weapon: str
    quick: bool

    def fold(self, state: HunterState) -> None:
        state.fighters[self.actor].weapon = self.weapon


class HunterCoverChanged(HunterEvent):
    """H-COV-1/3: the fighter's concealment."""

    actor: str
    cover: str

    def fold(self, state: HunterState) -> None:
        state.fighters[self.actor].cover = self.cover


class HunterPlaced(HunterEvent):
    """The game master (or a player, for their own character) places a fighter on the battle
    map; ``yards``: how far it stands from where it stood (the range bands read positions)."""

    actor: str
    x: float
    y: float
    yards: float

    def fold(self, state: HunterState) -> None:
        state.fighters[self.actor].position = (self.x, self.y)


class HunterZoneDrawn(ZoneDrawn, HunterEvent):
    """The game master draws a cover zone on the map: whoever stands in it has its cover
    (H-COV-1..3; ``level`` is a row of the cover table, ``data/cover.yaml``)."""

    level_word = _word


class HunterZoneErased(ZoneErased, HunterEvent):
    """The game master erases a cover zone of the map."""

    level_word = _word


class HunterShotHitsCover(HunterEvent):
    """H-COV-1: a fully covered target: the shot hits the cover."""

    actor: str
    target: str


class HunterAllyHit(HunterEvent):
    """H-MEL-1: a dramatic failure shooting into close combat hits the ally (the attack on
    it, with the unpenalised pool, follows)."""

    actor: str
    target: str


class HunterShieldTakesShot(HunterEvent):
    """H-GRP-3: the grappled victim used as a shield takes the gunfire aimed at its holder."""

    actor: str
    target: str
    shield: str


class HunterGrappleSet(HunterEvent):
    """H-GRP-1/2: ``actor`` holds ``target``."""

    actor: str
    target: str

    def fold(self, state: HunterState) -> None:
        holder, held = state.fighters[self.actor], state.fighters[self.target]
        holder.holding, holder.held_by = held.id, None
        held.held_by, held.holding = holder.id, None
        held.shield = None
        holder.immobilised = False


class HunterGrappleEnded(HunterEvent):
    """The hold is broken (escape, or a fighter out of the fight)."""

    actor: str
    target: str

    def fold(self, state: HunterState) -> None:
        for fid in (self.actor, self.target):
            f = state.fighters[fid]
            f.holding = f.held_by = f.shield = None
            f.immobilised = False


class HunterOverpowered(HunterEvent):
    """H-GRP-3: the holder's chosen effect."""

    actor: str
    target: str
    option: str
    weapon: str | None = None

    def fold(self, state: HunterState) -> None:
        holder, held = state.fighters[self.actor], state.fighters[self.target]
        if self.option == "knock_down":
            held.prone = True
        elif self.option == "immobilise":
            held.immobilised = True
        elif self.option == "disarm":
            held.weapon = None
        elif self.option == "shield":
            holder.shield = held.id
        elif self.option == "draw" and self.weapon:
            holder.weapon = self.weapon


ROLLER_FIELDS = ("actor", "attacker", "fighter")
"""Event fields naming who rolled, in order of preference (as ``xp_log`` reads a log)."""


def count_xp(event: Event, state: HunterState) -> None:
    """H-XP-2: the counters of the hunter who rolled ``event``'s hunter dice.

    +1 per exceptional success (H-EXC-1) rolled directly against a monster (a
    fight is combat only); +1 per dramatic failure, whatever the roll. The same
    reading as ``xp_log.count_log`` on a stored log, so both agree.
    """
    rolls = [r for r in event.rolls if isinstance(r.result, HunterResult)]
    if not rolls:
        return
    roller = next(
        (getattr(event, f) for f in ROLLER_FIELDS if getattr(event, f, None) is not None), None
    )
    f = state.fighters.get(roller) if isinstance(roller, str) else None
    if f is None or f.kind != "hunter":
        return
    target_id = getattr(event, "target", None)
    target = state.fighters.get(target_id) if isinstance(target_id, str) else None
    for record in rolls:
        result = record.result
        if result.dramatic_failure:
            f.xp_dramatic_failures += 1
        if result.exceptional and target is not None and target.kind == "monster":
            f.xp_exceptional_vs_monster += 1


class HunterXpReset(HunterEvent):
    """H-XP-2: the game master sets a hunter's counters back to 0 (the award is given)."""

    actor: str
    exceptional_vs_monster: int
    dramatic_failures: int
    """The counts before the reset (shown in the log)."""

    def fold(self, state: HunterState) -> None:
        f = state.fighters[self.actor]
        f.xp_exceptional_vs_monster = 0
        f.xp_dramatic_failures = 0


class HunterCombatOver(HunterEvent):
    """One side has no fighter left able to fight: the combat is over.

    The rules text (004) states no end of combat: this is the tracker's
    bookkeeping, citing no rule. ``side`` is the side still standing (None when
    no side is). The game master's commands and undo still work.
    """

    side: str | None

    def params(self, names: Mapping[str, str] | None = None) -> dict[str, Any]:
        out = super().params(names)
        out["side"] = self.side if self.side is not None else Msg("hunter.word.nobody")
        return out

    def fold(self, state: HunterState) -> None:
        state.phase = "over"


GRAPPLING = frozenset({"grapple", "escape", "overpower", "fight_back"})
"""Maneuvers whose success is a hold, not a blow (their outcome reads « réussite »)."""


# ------------------------------------------------------------------ veiled lines


def _name(names: Mapping[str, str] | None, fid: str) -> str:
    return (names or {}).get(fid, fid)


def outcome(ev: HunterAttackRolled) -> Msg:
    """The outcome of an attack roll in a word: a dramatic failure, an exceptional success,
    a blow that lands or misses (a hold that succeeds or fails, for grappling)."""
    if ev.dramatic:
        return Msg("hunter.outcome.dramatic")
    if ev.successes <= 0:
        return Msg("hunter.outcome.failure" if ev.maneuver in GRAPPLING else "hunter.outcome.miss")
    if ev.exceptional:
        return Msg("hunter.outcome.exceptional")
    return Msg("hunter.outcome.success" if ev.maneuver in GRAPPLING else "hunter.outcome.hit")


def _attack(ev: Event, lang: Lang | None, names: Mapping[str, str] | None) -> str:
    """Who attacked whom, with what, the outcome; and, when the roll is a hunter's (owned by
    its target for the target's Defense in it), its successes: rolled in front of the table."""
    assert isinstance(ev, HunterAttackRolled)
    fields = {
        "actor": _name(names, ev.actor),
        "target": _name(names, ev.target),
        "maneuver": _word(ev.maneuver),
        "outcome": outcome(ev),
    }
    hunters_roll = ev.seen.owner == ev.target != ev.actor
    if hunters_roll and ev.successes > 0 and not ev.dramatic:
        return t("ev.HunterAttackRolled.veiled.successes", lang, successes=ev.successes, **fields)
    return t("ev.HunterAttackRolled.veiled", lang, **fields)


def _damaged(ev: Event, lang: Lang | None, names: Mapping[str, str] | None) -> str:
    assert isinstance(ev, HunterDamaged)
    return t(
        "ev.HunterDamaged.veiled",
        lang,
        target=_name(names, ev.target),
        damage_type=_word(ev.damage_type),
        band=Msg(band_of(ev.boxes, ev.fate)),
    )


Veil = Callable[[Event, Lang | None, Mapping[str, str] | None], str | None]

VEILED: dict[type[Event], Veil] = {
    HunterAttackRolled: _attack,
    HunterDamaged: _damaged,
}
"""The veiled lines that the event's own fields do not fill (an attack's outcome in a word,
the band of a health track); the other event types name their line's key in ``veil``, or
(the rounds left in a gun, experience counters) leave nothing to those who may not see them."""
