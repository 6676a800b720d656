"""The vtm health track (V-DMG-3, V-DMG-5).

Each box stores its damage type; bashing and lethal both show ``/`` and
aggravated ``X`` (display only). Worse types push lesser ones down the track,
off it when it is full (aggravated landing on a full track of lethal shows as
``X``); damage past the last box upgrades bashing to lethal, then goes past the
track: a mortal dies, a vampire falls into torpor, or meets Final Death when
the damage that went past was aggravated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from conteur.i18n import spelling

DamageType = Literal["bashing", "lethal", "aggravated"]
DAMAGE_TYPES: tuple[DamageType, ...] = ("bashing", "lethal", "aggravated")
SEVERITY: dict[str, int] = {"bashing": 1, "lethal": 2, "aggravated": 3}
MARK: dict[str, str] = {"bashing": "/", "lethal": "/", "aggravated": "X"}
_BOX_ORDER: dict[str | None, int] = {None: 0, **{kind: -n for kind, n in SEVERITY.items()}}
"""Where a box goes on the track: the most severe damage first, the empty boxes last."""
_box_order = _BOX_ORDER.__getitem__


@dataclass(frozen=True, kw_only=True)
class Level:
    """One box of the track: its name in both languages and its wound penalty."""

    key: str
    fr: str
    en: str
    penalty: int
    move_limit: float | None = None
    running: str = "full"


DEFAULT_LEVELS: tuple[Level, ...] = (
    Level(key="bruised", fr="Contusionné", en="Bruised", penalty=0),
    Level(key="hurt", fr="Touché", en="Hurt", penalty=-1),
    Level(
        key="injured",
        fr="Légèrement blessé",
        en="Injured",
        penalty=-1,
        move_limit=None,
        running="half",
    ),
    Level(key="wounded", fr="Blessé", en="Wounded", penalty=-2, move_limit=None, running="none"),
    Level(
        key="mauled", fr="Gravement blessé", en="Mauled", penalty=-2, move_limit=3.0, running="none"
    ),
    Level(key="crippled", fr="Estropié", en="Crippled", penalty=-5, move_limit=1.0, running="none"),
    Level(
        key="incapacitated",
        fr="Invalide",
        en="Incapacitated",
        penalty=0,
        move_limit=0.0,
        running="none",
    ),
)


@dataclass
class HealthTrack:
    """The boxes of one character, most severe damage first."""

    boxes: list[DamageType | None]
    levels: tuple[Level, ...] = DEFAULT_LEVELS
    past_track: DamageType | None = None
    """Type of the worst damage that went past the last box (None while on the track)."""

    @classmethod
    def empty(cls, levels: tuple[Level, ...] = DEFAULT_LEVELS) -> HealthTrack:
        return cls([None] * len(levels), levels)

    @classmethod
    def from_marks(
        cls, marks: list[str], levels: tuple[Level, ...] = DEFAULT_LEVELS
    ) -> HealthTrack:
        """Build from stored types (``bashing``/``lethal``/``aggravated``, or ``B``/``L``/``A``)."""
        short = {"b": "bashing", "l": "lethal", "a": "aggravated", "x": "aggravated"}
        short |= {"contondant": "bashing", "letal": "lethal", "letaux": "lethal"}
        short |= {"aggrave": "aggravated", "/": "lethal"}
        track = cls.empty(levels)
        for mark in marks:
            bare = spelling.bare(str(mark)).strip()
            bare = bare[:-1] if bare.endswith("s") and bare[:-1] in short else bare
            key = short.get(bare, bare)
            if key not in SEVERITY:
                raise ValueError(mark)
            track.take(1, key)  # type: ignore[arg-type]
        return track

    def __deepcopy__(self, memo: dict[int, Any]) -> HealthTrack:
        """Only the boxes change; the levels are shared."""
        return HealthTrack(list(self.boxes), self.levels, self.past_track)

    # --- reading -----------------------------------------------------------

    @property
    def filled(self) -> int:
        """How many boxes hold damage."""
        return len(self.boxes) - self.boxes.count(None)

    def count(self, kind: DamageType) -> int:
        """How many boxes hold ``kind``."""
        return self.boxes.count(kind)

    @property
    def level(self) -> Level | None:
        """The health level reached (None when unhurt)."""
        filled = len(self.boxes) - self.boxes.count(None)
        return self.levels[filled - 1] if filled else None

    @property
    def penalty(self) -> int:
        """The wound penalty on dice pools and initiative (V-DMG-5)."""
        level = self.level
        return level.penalty if level else 0

    @property
    def incapacitated(self) -> bool:
        """The last box is filled: no action (V-DMG-5)."""
        return None not in self.boxes

    @property
    def spent(self) -> bool:
        """Damage went past the track, or its last box is filled: out of the fight."""
        return self.past_track is not None or None not in self.boxes

    def marks(self) -> str:
        """The track as on a character sheet: ``[X][/][ ]...``."""
        return "".join(f"[{MARK[b] if b else ' '}]" for b in self.boxes)

    # --- changing ------------------------------------------------------------

    def take(self, levels: int, kind: DamageType) -> None:
        """Mark ``levels`` boxes of ``kind``, worst types first, overflow upgraded."""
        for _ in range(levels):  # none for 0 or fewer
            boxes = self.boxes
            if None in boxes:
                boxes[boxes.index(None)] = kind
            elif kind == "bashing" and "bashing" in boxes:
                # A full track turns further bashing into lethal, box by box.
                boxes[len(boxes) - 1 - boxes[::-1].index("bashing")] = "lethal"
            else:
                worse = kind if kind != "bashing" else "lethal"
                least = boxes[-1]  # the track is full and sorted, worst first
                if least is not None and SEVERITY[kind] > SEVERITY[least]:
                    # Worse damage pushes the lesser down and off the track: it shows.
                    boxes[-1] = kind
                if self.past_track is None or SEVERITY[worse] > SEVERITY[self.past_track]:
                    self.past_track = worse
            self.boxes = sorted(boxes, key=_box_order)  # ``_sort``, inline

    def heal(self, levels: int, kind: DamageType | None = None) -> int:
        """Clear up to ``levels`` boxes (of ``kind``, else least severe first); count cleared."""
        healed = 0
        for _ in range(max(0, levels)):
            candidates = [
                i for i, b in enumerate(self.boxes) if b is not None and (kind is None or b == kind)
            ]
            if not candidates:
                break
            self.boxes[candidates[-1]] = None
            healed += 1
            self._sort()
        if healed and self.past_track is not None:
            self.past_track = None
        return healed

    def _sort(self) -> None:
        """Worst damage first, the empty boxes last (stable: equal boxes keep their order)."""
        self.boxes = sorted(self.boxes, key=_box_order)


Fate = Literal["alive", "incapacitated", "dead", "torpor", "final_death"]


def fate(track: HealthTrack, kind: str) -> Fate:
    """What the track means for a character of ``kind`` (mortal, vampire, supernatural)."""
    if track.past_track is not None:
        if kind == "vampire":
            return "final_death" if track.past_track == "aggravated" else "torpor"
        return "dead"
    return "incapacitated" if track.incapacitated else "alive"
