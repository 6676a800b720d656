"""The session summary a game master writes for practical experience (H-XP-1..H-XP-5).

A YAML file with French keys (English ones accepted), validated with pydantic;
a mistake becomes a ``ConteurError`` naming the field as the user wrote it.
The adjustments and purchases are read against the table in ``data/xp.yaml``.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from conteur.engine.inputs import not_utf8, plain_path, pydantic_reason, safe_yaml
from conteur.i18n import ConteurError, Msg, os_reason
from conteur.i18n.spelling import key_of

FighterKind = Literal["hunter", "monster", "bystander"]

KIND_WORDS: dict[str, FighterKind] = {
    "chasseur": "hunter",
    "hunter": "hunter",
    "monstre": "monster",
    "monster": "monster",
    "passant": "bystander",
    "spectateur": "bystander",
    "bystander": "bystander",
}
"""Words a summary or a sheet may use for a fighter's kind (French and English)."""

Source = Literal["log", "flag", "count"]


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Adjustment:
    """One line of H-XP-2: points per occurrence and where its count comes from."""

    key: str
    fr: str
    en: str
    points: int
    source: Source


@dataclass(frozen=True)
class PurchaseKind:
    """Something practical experience may buy (H-XP-5) and how its cost is reckoned."""

    key: str
    fr: str
    en: str
    cost: Literal["per_dot", "per_point", "flat", "stated"]
    rate: int
    banked: bool
    allowed: bool
    rule: str


@dataclass(frozen=True)
class XpTable:
    """The award and purchase table of ``data/xp.yaml``."""

    adjustments: tuple[Adjustment, ...]
    information_points: int
    purchases: Mapping[str, PurchaseKind]

    def adjustment_for(self, word: str) -> Adjustment | None:
        """The adjustment a summary key names (French or English, accents optional)."""
        wanted = key_of(word)
        for adj in self.adjustments:
            if wanted in (key_of(adj.fr), key_of(adj.en)):
                return adj
        return None

    def purchase_for(self, word: str) -> PurchaseKind | None:
        """The purchase a summary word names (French or English, accents optional)."""
        wanted = key_of(word)
        for kind in self.purchases.values():
            if wanted in (key_of(kind.fr), key_of(kind.en)):
                return kind
        return None


TABLE_FILE = "xp" + ".yaml"
"""The award and purchase table in the package's ``data`` folder (built so that the
catalog test does not read the file name as an ``xp.*`` message key)."""


@cache
def xp_table() -> XpTable:
    """The shipped table (read once)."""
    data = resources.files("conteur.rulesets.hunter").joinpath("data")
    text = data.joinpath(TABLE_FILE).read_text("utf-8")
    raw = yaml.safe_load(text)
    return XpTable(
        adjustments=tuple(Adjustment(**a) for a in raw["adjustments"]),
        information_points=int(raw["information_points"]),
        purchases={key: PurchaseKind(key=key, **p) for key, p in raw["purchases"].items()},
    )


# --------------------------------------------------------------------------- the summary


def _aliases(fr: str, en: str) -> Any:
    return Field(validation_alias=AliasChoices(fr, en))


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Player(_Model):
    """A player and the hunters they play."""

    name: str = _aliases("nom", "name")
    hunters: list[str] = Field(default=[], validation_alias=AliasChoices("chasseurs", "hunters"))


class EncounterRef(_Model):
    """A fought encounter: its stored log (or a script to replay), and the kind of each fighter."""

    log: str | None = Field(default=None, validation_alias=AliasChoices("journal", "log"))
    scenario: str | None = Field(
        default=None, validation_alias=AliasChoices("scénario", "scenario")
    )
    script: str | None = None
    dice: str | None = Field(default=None, validation_alias=AliasChoices("dés", "dice"))
    fighters: dict[str, str] = Field(
        default={}, validation_alias=AliasChoices("combattants", "fighters")
    )

    @field_validator("fighters")
    @classmethod
    def _known_kinds(cls, value: dict[str, str]) -> dict[str, str]:
        for fighter, word in value.items():
            if key_of(str(word)) not in KIND_WORDS:
                raise PydanticCustomError(
                    "vtm",
                    "{key}",
                    {
                        "key": "xp.reason.kind",
                        "field": fighter,
                        "value": word,
                        "expected": "chasseur, monstre, passant",
                    },
                )
        return {f: KIND_WORDS[key_of(str(w))] for f, w in value.items()}

    @model_validator(mode="after")
    def _log_or_replay(self) -> EncounterRef:
        """A stored log, or a scenario, a script and the table's dice to replay it."""
        replay = (self.scenario, self.script, self.dice)
        if (self.log is None) == (self.script is None) or (
            self.script is not None and None in replay
        ):
            raise PydanticCustomError("vtm", "{key}", {"key": "xp.reason.log_or_replay"})
        return self

    @property
    def source(self) -> str:
        """The file the counts come from, as the summary names it."""
        return self.log if self.log is not None else str(self.script)


class Information(_Model):
    """Something new the players learned about monsters (H-XP-3)."""

    text: str = _aliases("texte", "text")
    points: int | None = Field(default=None, ge=0)
    player: str | None = Field(default=None, validation_alias=AliasChoices("joueur", "player"))


class Purchase(_Model):
    """One thing a player buys with practical experience (H-XP-5)."""

    kind: str = _aliases("achat", "purchase")
    trait: str | None = None
    from_dots: int | None = Field(default=None, ge=0, validation_alias=AliasChoices("de", "from"))
    to_dots: int | None = Field(default=None, ge=1, validation_alias=AliasChoices("à", "to"))
    points: int | None = Field(default=None, ge=1)
    cost: int | None = Field(default=None, ge=0, validation_alias=AliasChoices("coût", "cost"))
    from_bank: bool = Field(default=False, validation_alias=AliasChoices("banque", "from_bank"))

    @field_validator("kind")
    @classmethod
    def _known_purchase(cls, value: str) -> str:
        table = xp_table()
        found = table.purchase_for(value)
        if found is None:
            words = ", ".join(p.fr for p in table.purchases.values())
            raise PydanticCustomError(
                "vtm", "{key}", {"key": "xp.reason.purchase", "value": value, "expected": words}
            )
        return found.key


class Share(_Model):
    """A player's part of the award, what they buy with it and what they bank (H-XP-4)."""

    share: int = Field(ge=0, validation_alias=AliasChoices("part", "share"))
    bank_before: int = Field(
        default=0, ge=0, validation_alias=AliasChoices("banque_avant", "bank_before")
    )
    purchases: list[Purchase] = Field(
        default=[], validation_alias=AliasChoices("achats", "purchases")
    )
    banked: int = Field(default=0, ge=0, validation_alias=AliasChoices("en_banque", "banked"))


class Session(_Model):
    """The whole summary of a session."""

    title: str | None = Field(default=None, validation_alias=AliasChoices("titre", "title"))
    players: list[Player] = Field(min_length=1, validation_alias=AliasChoices("joueurs", "players"))
    gm_hunters: list[str] = Field(
        default=[], validation_alias=AliasChoices("chasseurs_mj", "gm_hunters")
    )
    encounters: list[EncounterRef] = Field(
        default=[], validation_alias=AliasChoices("rencontres", "encounters")
    )
    characters: str | None = Field(
        default=None, validation_alias=AliasChoices("personnages", "characters")
    )
    """A campaign export whose hunters carry their H-XP-2 counters (instead of the logs)."""
    adjustments: dict[str, int | bool] = Field(
        default={}, validation_alias=AliasChoices("ajustements", "adjustments")
    )
    planned_flight: bool = Field(
        default=False, validation_alias=AliasChoices("fuite_prévue", "planned_flight")
    )
    information: list[Information] = Field(
        default=[], validation_alias=AliasChoices("informations", "information")
    )
    split: dict[str, Share] = Field(default={}, validation_alias=AliasChoices("partage", "split"))

    def hunters(self) -> list[str]:
        """Every hunter of the cell: the players' and the game master's."""
        return [h for p in self.players for h in p.hunters] + list(self.gm_hunters)

    @model_validator(mode="after")
    def _counts_once(self) -> Session:
        """The H-XP-2 rolls come from the logs or from the characters, never both."""
        if self.characters is not None and self.encounters:
            raise PydanticCustomError("vtm", "{key}", {"key": "xp.reason.characters_or_encounters"})
        return self

    @model_validator(mode="after")
    def _each_once(self) -> Session:
        """A player, or a hunter, counts once in the base (H-XP-1)."""
        for field, names in (
            ("joueurs", [p.name for p in self.players]),
            ("chasseurs", self.hunters()),
        ):
            twice = sorted({n for n in names if names.count(n) > 1})
            if twice:
                raise PydanticCustomError(
                    "vtm", "{key}", {"key": "xp.reason.twice", "field": field, "name": twice[0]}
                )
        return self


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class StatedAdjustments:
    """What the summary states for each H-XP-2 line (counts; flags as 0 or 1)."""

    counts: Mapping[str, int]


def read_adjustments(raw: Mapping[str, int | bool], section: str) -> StatedAdjustments:
    """Check the ``ajustements`` keys and values against the table (ConteurError naming the key)."""
    table = xp_table()
    counts: dict[str, int] = {}
    words: dict[str, str] = {}
    for word, value in raw.items():
        adj = table.adjustment_for(word)
        field = f"{section}.{word}"
        if adj is None:
            known = [a.fr for a in table.adjustments] + [a.en for a in table.adjustments]
            close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
            reason = (
                Msg("input.reason.unknown_field_suggest", suggestion=close[0])
                if close
                else Msg(
                    "input.reason.unknown_field", allowed=", ".join(a.fr for a in table.adjustments)
                )
            )
            raise ConteurError("xp.bad_summary", field=field, reason=reason)
        if adj.source == "flag":
            if not isinstance(value, bool):
                raise ConteurError(
                    "xp.bad_summary", field=field, reason=Msg("input.reason.not_bool", value=value)
                )
            count = int(value)
        else:
            if isinstance(value, bool) or value < 0:
                raise ConteurError(
                    "xp.bad_summary",
                    field=field,
                    reason=Msg("input.reason.min", limit=0, value=value),
                )
            count = value
        if adj.key in words:
            reason = Msg("vtm.reason.duplicate", first=words[adj.key], second=word)
            raise ConteurError("xp.bad_summary", field=field, reason=reason)
        counts[adj.key] = count
        words[adj.key] = word
    return StatedAdjustments(counts)


def parse_session(raw: Any) -> Session:
    """Validate a loaded summary (ConteurError ``xp.bad_summary`` naming the first bad field)."""
    if not isinstance(raw, dict):
        raise ConteurError(
            "xp.bad_summary", field="-", reason=Msg("input.reason.not_mapping", value=raw)
        )
    try:
        session = Session.model_validate(raw)
    except ValidationError as exc:
        loc, reason = pydantic_reason(exc.errors()[0])
        if exc.errors()[0]["type"] == "extra_forbidden":
            reason = Msg("xp.reason.unknown_field", name=str(loc[-1]))
        raise ConteurError("xp.bad_summary", field=plain_path(loc), reason=reason) from None
    return session


def read_text(path: Path) -> str:
    """The text of a file the summary names (ConteurError ``xp.unreadable`` naming it)."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(path, exc) from None
    except OSError as exc:
        raise ConteurError("xp.unreadable", path=str(path), reason=os_reason(exc)) from None


def read_yaml(path: Path) -> Any:
    """A YAML file the summary names, loaded (ConteurError ``xp.unreadable`` naming it)."""
    text = read_text(path)
    try:
        return safe_yaml(text)
    except yaml.YAMLError as exc:
        raise ConteurError("xp.unreadable", path=str(path), reason=str(exc)) from None


def load_session(path: Path) -> Session:
    """Read and validate the summary at ``path``."""
    return parse_session(read_yaml(path))
