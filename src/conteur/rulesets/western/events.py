"""The events of a western fight; each folds itself into the state and names its rules."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from conteur.engine import Event
from conteur.i18n import Msg, catalog

from .shooting import ShotAim
from .state import Fighter, WesternState


def _with_words(out: dict[str, Any], *fields: str) -> dict[str, Any]:
    """Zone and weapon ids shown by their table names (``word.western.<id>``)."""

    for name in fields:
        value = out.get(name)
        if isinstance(value, str) and f"word.western.{value}" in catalog():
            out[name] = Msg(f"word.western.{value}")
    return out


class WesternEvent:
    """Mixin of the western events: yes/no fields are shown as words."""

    def params(self, names: Any = None) -> dict[str, Any]:

        out: dict[str, Any] = Event.params(self, names)  # type: ignore[arg-type]
        for key, value in out.items():
            if isinstance(value, bool):
                out[key] = Msg("western.yes" if value else "western.no")
        return out


def labelled(items: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """Modifier labels read from the western words (``word.western.<id>``)."""
    return tuple((f"western.{what}", amount) for what, amount in items)


def _state(state: Any) -> WesternState:
    assert isinstance(state, WesternState)
    return state


class RoundStarted(WesternEvent, Event):
    """A new round: its order of combat, one entry per shot or blow (W-SPD-2)."""

    turn: int
    slots: tuple[tuple[str, str], ...]

    def apply(self, state: Any) -> None:
        s = _state(state)
        s.turn = self.turn
        s.phase = "round"
        s.slots = [(str(f), str(h)) for f, h in self.slots]
        s.done = 0
        for f in s.fighters.values():
            f.behind = None

    def without(self, hidden: frozenset[str]) -> RoundStarted:
        """The round's order of combat without the hidden fighters' shots."""
        return replace(self, slots=tuple(s for s in self.slots if s[0] not in hidden))


class VolleyCounted(WesternEvent, Event):
    """How many shots or blows a fighter has this round (W-SPD-1, W-SPD-3)."""

    fighter: str
    speed: int
    kind: str
    shots: int
    off_shots: int = 0

    def params(self, names: Any = None) -> dict[str, Any]:

        out = super().params(names)
        out["off"] = Msg("western.volley.off", shots=self.off_shots) if self.off_shots else ""
        return out


class StillUnconscious(WesternEvent, Event):
    """An unconscious fighter's count goes down by one round; at 0 it wakes (W-KO-4)."""

    fighter: str
    left: int

    def apply(self, state: Any) -> None:
        f = _state(state).fighters[self.fighter]
        f.unconscious = self.left
        if self.left <= 0 and f.fate == "unconscious":
            f.fate = "alive"

    def veil_key(self) -> str:
        """« Bill est toujours sans connaissance », or « … reprend connaissance » (W-KO-4)."""
        return "ev.StillUnconscious.veiled." + ("still" if self.left > 0 else "awake")


class Surprised(WesternEvent, Event):
    """A fighter is surprised: attacked (no action this round) or by a sudden adversary."""

    fighter: str
    kind: str

    def apply(self, state: Any) -> None:
        s = _state(state)
        f = s.fighters[self.fighter]
        f.surprised = self.kind
        # Between two rounds (or before the first) the surprise is for the round to come.
        f.surprised_round = s.turn if s.phase == "round" else s.turn + 1
        if self.kind == "attacked" and s.phase == "round":
            s.drop_slots(self.fighter)


class ShotRolled(WesternEvent, ShotAim, Event):
    """One shot or blow: the skill used and the d100 against the adjusted percentage."""

    veil = "ev.ShotRolled.veiled"

    roll: int
    hit: bool
    critical: bool
    margin: int
    modifiers: tuple[tuple[str, int], ...] = ()

    def apply(self, state: Any) -> None:
        from .shooting import instinctive_now

        s = _state(state)
        f = took(s, self.attacker, "shoot")
        revolver = s.tables.weapon(self.weapon).kind == "revolver"
        if self.skill == "instinctive_pistol" or (revolver and instinctive_now(s, f)):
            # From the moment it draws or is surprised, at ALL its adversaries (W-SKL-2),
            # even when this shot, beyond 20 m, was aimed (W-SKL-4).
            f.instinctive_round = s.turn
        f.ready = True
        if self.hand in f.ammo:
            f.ammo[self.hand] = max(0, f.ammo[self.hand] - 1)

    def params(self, names: Any = None) -> dict[str, Any]:
        from conteur.engine.events import Modifiers

        out = super().params(names)
        out["skill"] = Msg(f"western.skill.{self.skill}")
        out["outcome"] = Msg(
            "western.outcome.critical"
            if self.critical and self.hit
            else "western.outcome.hit"
            if self.hit
            else "western.outcome.miss"
        )
        out["modifiers"] = Modifiers(labelled(self.modifiers))
        return _with_words(out, "weapon")


class LocationRolled(WesternEvent, Event):
    """Where the shot landed: 1D100 on the hit-location table, or the zone aimed at."""

    veil = "ev.LocationRolled.veiled"

    target: str
    face: int
    zone: str

    def params(self, names: Any = None) -> dict[str, Any]:
        return _with_words(super().params(names), "zone")


class LocationShifted(WesternEvent, Event):
    """A critical hit moves up the zone's ladder by its margin (W-CRIT-2)."""

    veil = "ev.LocationShifted.veiled"

    target: str
    rolled: str
    zone: str
    margin: int

    def params(self, names: Any = None) -> dict[str, Any]:
        return _with_words(super().params(names), "zone", "rolled")


class DamageDealt(WesternEvent, Event):
    """Damage dice times the zone's multiplier, taken from PV (W-LOC-1)."""

    veil = "ev.DamageDealt.veiled"

    target: str
    zone: str
    dice: int
    multiplier: float
    pv_lost: int

    def params(self, names: Any = None) -> dict[str, Any]:
        return _with_words(super().params(names), "zone")

    def apply(self, state: Any) -> None:
        lose_pv(_state(state), self.target, self.pv_lost)


def took(s: WesternState, fid: str, action: str) -> Fighter:
    """One of the round's shots and blows is played: ``fid`` spends this round on one
    simple action (W-RND-1); the fighter, for the rest of the fold."""
    s.done += 1
    f = s.fighters[fid]
    f.action = action
    f.action_round = s.turn
    return f


def wound(f: Fighter, amount: int, dead_at: int) -> None:
    """The fighter loses ``amount`` PV: out of the fight at 0, dead at ``dead_at``."""
    f.pv -= amount
    if f.pv <= dead_at:
        f.fate = "dead"
    elif f.pv <= 0 and f.fate != "dead":
        f.fate = "out"


def lose_pv(s: WesternState, fid: str, amount: int) -> None:
    """``wound``; a fighter out of the fight loses its shots left this round."""
    f = s.fighters[fid]
    wound(f, amount, s.dead_at)
    if f.fate in ("out", "dead"):
        s.drop_slots(fid)


class Passed(WesternEvent, Event):
    """A fighter lets its shot or blow go."""

    fighter: str

    def apply(self, state: Any) -> None:
        _state(state).done += 1


class Reloaded(WesternEvent, Event):
    """A fighter spends its turn reloading a weapon."""

    veil = "ev.Reloaded.veiled"

    fighter: str
    hand: str
    rounds: int

    def apply(self, state: Any) -> None:
        f = took(_state(state), self.fighter, "reload")
        f.ammo[self.hand] = self.rounds


class RoundEnded(WesternEvent, Event):
    """Every shot and blow of the round is done."""

    turn: int

    def apply(self, state: Any) -> None:
        _state(state).phase = "end"


class StealthNeeded(WesternEvent, Event):
    """The stealth rolls an approach needs: the sum of its modifiers, at least one (W-KO-1)."""

    fighter: str
    target: str
    needed: int
    modifiers: tuple[tuple[str, int], ...] = ()

    def params(self, names: Any = None) -> dict[str, Any]:
        from conteur.engine.events import Modifiers

        out = super().params(names)
        out["modifiers"] = Modifiers(labelled(self.modifiers))
        return out


class StealthRolled(WesternEvent, Event):
    """One stealth roll of an approach."""

    fighter: str
    roll: int
    percent: int
    success: bool


class Approached(WesternEvent, Event):
    """The approach ends: right behind the victim, or spotted."""

    fighter: str
    target: str
    success: bool

    def apply(self, state: Any) -> None:
        _state(state).fighters[self.fighter].behind = self.target if self.success else None


class KnockOutRolled(WesternEvent, Event):
    """1D20 at or under (FORCE + 10) − RÉSISTANCE, or automatic on a helpless victim."""

    veil = "ev.KnockOutRolled.veiled"

    attacker: str
    target: str
    face: int
    threshold: int
    success: bool
    automatic: bool = False

    def params(self, names: Any = None) -> dict[str, Any]:

        out = super().params(names)
        if self.automatic:
            out["face"] = Msg("western.automatic")
        out["result"] = Msg("western.result.success" if self.success else "western.result.failure")
        return out

    def apply(self, state: Any) -> None:
        _state(state).fighters[self.attacker].behind = None


class KnockOutHurt(WesternEvent, Event):
    """The victim of a knock-out attempt loses 1D6 PV, success or not (W-KO-4)."""

    veil = "ev.KnockOutHurt.veiled"

    target: str
    pv_lost: int

    def apply(self, state: Any) -> None:
        lose_pv(_state(state), self.target, self.pv_lost)


class KnockedOut(WesternEvent, Event):
    """The victim falls unconscious for 3D10 rounds (W-KO-4)."""

    veil = "ev.KnockedOut.veiled"

    target: str
    rounds: int

    def apply(self, state: Any) -> None:
        s = _state(state)
        f = s.fighters[self.target]
        f.unconscious = self.rounds
        if f.fate == "alive":
            f.fate = "unconscious"
        s.drop_slots(self.target)


class Bound(WesternEvent, Event):
    """A fighter is tied up or otherwise unable to defend itself (W-KO-5)."""

    fighter: str

    def apply(self, state: Any) -> None:
        _state(state).fighters[self.fighter].helpless = True


class DuelJudged(WesternEvent, Event):
    """Who won a duel, the sides' numbers, a witness, and the reputation it is worth."""

    side: str
    winners: int
    losers: int
    witness: bool
    gain: int

    def apply(self, state: Any) -> None:
        _state(state).duel_judged = True


class ReputationGained(WesternEvent, Event):
    """RÉPUTATION goes up at once (W-REP-1, W-REP-2)."""

    fighter: str
    amount: int
    total: int

    def apply(self, state: Any) -> None:
        _state(state).fighters[self.fighter].characteristics["reputation"] = self.total


class Ran(WesternEvent, Event):
    """A fighter spends its turn running (a simple action, W-RND-1)."""

    fighter: str
    x: float
    y: float

    def apply(self, state: Any) -> None:
        f = took(_state(state), self.fighter, "run")
        f.position = (self.x, self.y)


class Placed(WesternEvent, Event):
    """The game master (or a player, for their own character) places a fighter on the battle
    map; ``metres``: how far from where it stood. Not an action: the shots read the place."""

    fighter: str
    x: float
    y: float
    metres: float

    def apply(self, state: Any) -> None:
        _state(state).fighters[self.fighter].position = (self.x, self.y)
