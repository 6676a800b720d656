"""The events of the house_ranged pack (each cites its R- ids; log lines in messages.yaml)."""

from __future__ import annotations

from conteur.engine import Event

from ...events import PutsCondition, SuccessesShared
from ...state import VtmState
from ...visibility import owned
from .conditions import CarefulShot, LinedUp, Suppressed


class BurstShared(SuccessesShared):
    """A burst's successes split among its targets (R-BURST-1, R-BURST-2)."""

    veil = "ev.BurstShared.veiled"
    """« Dario tire une rafale : Vidal, Rosa »: who is aimed at, not the successes."""


class SpreadFired(Event):
    """A shotgun spread: its band and the targets in the cone (R-SPREAD-2, R-SPREAD-3)."""

    attacker: str
    band: int
    metres: int
    targets: tuple[str, ...]


class SuppressionLaid(Event):
    """Suppressive fire pins its targets down for the turn (R-SUPP-1, R-SUPP-2)."""

    fighter: str
    weapon: str
    successes: int
    targets: tuple[str, ...]
    turn: int

    def apply(self, state: VtmState) -> None:
        for fid in self.targets:
            state.fighters[fid].conditions.put(
                Suppressed(
                    by=self.fighter, weapon=self.weapon, successes=self.successes, turn=self.turn
                )
            )

    veil = "ev.SuppressionLaid.veiled"
    """« Dario arrose de tirs de suppression : Vidal, Rosa »: not the successes."""


class SuppressionTested(Event):
    """A suppressed fighter's Willpower test before it exposes itself (R-SUPP-2)."""

    fighter: str
    successes: int
    needed: int
    passed: bool

    def apply(self, state: VtmState) -> None:
        conditions = state.fighters[self.fighter].conditions
        held = conditions.of(Suppressed)
        if held is not None:
            conditions.put(held.after_test(self.passed))

    def veil_key(self) -> str:
        """« Vidal tient bon sous le feu » or « … se terre »: not the test's numbers."""
        return "ev.SuppressionTested.veiled." + ("passed" if self.passed else "failed")


class PinnedDown(Event):
    """A suppressed fighter failed its test: its exposing action is lost (R-SUPP-2)."""

    fighter: str
    kind: str


class LimbRolled(Event):
    """The roll of a fighter hit in an arm or a leg (R-CALL-4, R-CALL-5)."""

    target: str
    location: str
    pool: int
    difficulty: int
    successes: int
    needed: int


class HeadShotKill(Event):
    """A head shot whose damage reached the target's Stamina (R-CALL-2)."""

    target: str
    damage: int
    stamina: int

    veil = "ev.HeadShotKill.veiled"
    """« Lupo est tué sur le coup »: not the damage nor its Stamina (R-CALL-2)."""


class LocationIgnored(Event):
    """A target without wound penalties shrugs off the location's effect (R-CALL-6)."""

    target: str
    location: str


class CarefulAim(LinedUp, PutsCondition):
    """A round spent lining up a careful shot (R-AIM-1)."""

    puts = CarefulShot

    bonus: int


class CarefulAimLost(Event):
    """The shooter was disturbed: the careful shot's bonus is lost (R-AIM-1)."""

    fighter: str

    def apply(self, state: VtmState) -> None:
        state.fighters[self.fighter].conditions.drop(CarefulShot)


owned("attacker", "BurstShared")
owned("fighter", "SuppressionLaid", "SuppressionTested")
owned("target", "LimbRolled", "HeadShotKill")
