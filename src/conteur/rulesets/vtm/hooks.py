"""How each rule declares its part without editing the attack pipeline.

A rule module declares handlers with the decorators below; declaring runs nothing and
switches nothing on. At an encounter's start ``rulebook.compose`` picks the handlers in
play (vtm's own, then those of each option pack listed, less the core handlers a pack
replaces) into one ``Rulebook`` that the pipeline reads. The points:

* ``action``: handler of each action kind (``punch``, ``shoot``, ``dodge``...).
* ``pool`` / ``difficulty`` (``pool_rule``, ``difficulty_rule``): small functions, one per
  rule, that look at an attack being built and change it with the rule id.
* ``after_hit``: what a maneuver does once its dice are rolled (knock-down, grapple,
  disarm...), by maneuver id or effect type.
* ``validator``: checks run when an action of a kind is declared or taken.
* ``action_check``: checks run on every action, whatever its kind (a grapple forbids any
  other action, V-CC-7).
* ``after_attack``: what runs after the dice of every attack.
* ``substitute``: actions a rule allows in place of a declared action that became
  impossible (a fighter grappled before its rank breaks free instead).
* ``declaration_check``: checks of a whole declaration, run before its actions are
  validated (V-INI-3: rate of fire, aiming alone...).
* ``before_action``: what runs when an action is taken, before its handler; a hook
  returning False stops the action (a suppressed fighter pinned down, house_ranged).
* ``form_params``: details of the first declared action a form may give (a pack's spot...).
* ``strike``: last touches to a fixed ``Strike`` (a pack doubling armour...).
* ``offer_check``: whether a maneuver is offered to a fighter (``legal_commands``), beside
  its tables' requirements (a pack's burst only with a weapon of the right cadence).
* ``own_reach``: maneuvers whose reach is their own, checked instead of the weapon's
  maximum range (V-GEN-2): a pack's shotgun spread reaches as far as its bands.
* ``volley_odds``: for the odds of a maneuver that rolls once for several targets (a
  pack's burst or spread), the draft the roll is made with and the asked target's share
  of its successes.
* ``turn_end``: what runs as a turn ends, before ``TurnEnded`` (house_ranged's suppression).
* ``roll``: difficulty changes to a roll that is not an attack, by its purpose
  (standing up, a jump...; a leg hit makes movement harder, house_ranged).

``shows_bands`` gives a difficulty rule that prices a shot by distance the bands the battle
map draws while that rule is in play (core V-RNG-5's, or house_ranged's R-SHOT-1).

``outside_odds`` declares that an after-dice hook (``after_hit``, ``after_attack``) changes
nothing an attack's exact odds read of its target (``odds.py`` need not run it).

``implements`` names the rule ids a handler implements, which an option pack's
``replaces`` takes out of its encounters. ``FORM_REFUSALS`` / ``ACT_REFUSALS``: the error
keys a declaration filled in field by field, and an action carried out, may still meet
whatever values their templates offer (``legal.py``): fields that contradict each other,
a check of the declaration as a whole (rate of fire), what a handler checks as it goes
(the clip, a spray's zone).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

if TYPE_CHECKING:
    from conteur.engine import Param, Resolution
    from conteur.engine.battlemap import MapBand
    from conteur.i18n import Lang

    from .state import Action, Declaration, Fighter, VtmState
    from .strike import Strike, StrikeOutcome
    from .tables import Maneuver, Weapon


@dataclass
class AttackDraft:
    """An attack being put together: who, with what, and the modifiers found so far."""

    state: VtmState
    attacker: Fighter
    target: Fighter
    action: Action
    maneuver: Any
    weapon: Any | None
    ranged: bool
    close: bool
    multiple_penalty: int = 0
    pool: int = 0
    difficulty: int = 6
    notes: list[tuple[str, str, int]] = field(default_factory=list)
    """(rule id, what, amount) for each modifier, for the log and the odds view."""
    rules: list[str] = field(default_factory=list)
    pool_parts: list[tuple[str, int]] = field(default_factory=list)
    """The pool's parts (trait, ability, each modifier in dice), for the roll's ask."""
    difficulty_parts: list[tuple[str, int]] = field(default_factory=list)
    """What moved the difficulty, and by how much, for the roll's ask."""
    extra_damage_dice: int = 0
    damage_dice: int = 0
    damage_parts: list[tuple[str, int]] = field(default_factory=list)
    """What the rules added to ``damage_dice`` and ``extra_damage_dice``, part by part (a
    called shot's bonus, a spread's band), for the damage roll's ask and log line."""
    flags: dict[str, Any] = field(default_factory=dict)

    def add_dice(self, rule: str, what: str, amount: int, *, part: str | None = None) -> None:
        """Change the attack pool by ``amount`` dice under ``rule``, because of ``what``;
        ``part``: what every reader of the attack's line is told instead (the GM's reason
        is his alone: his ``ModifierAdded`` line gives it)."""
        if amount:
            self.pool += amount
            self.notes.append((rule, part or what, amount))
            self.pool_parts.append((part or what, amount))
            self.rules.append(rule)

    def add_difficulty(self, rule: str, what: str, amount: int, *, part: str | None = None) -> None:
        """Change the difficulty by ``amount`` under ``rule`` (``part`` as for ``add_dice``)."""
        if amount:
            self.difficulty += amount
            self.notes.append((rule, part or what, amount))
            self.difficulty_parts.append((part or what, amount))
            self.rules.append(rule)

    def set_difficulty(self, rule: str, what: str, value: int) -> None:
        """Replace the base difficulty (range bands, V-RNG-5)."""
        delta = value - self.difficulty
        self.difficulty = value
        self.notes.append((rule, what, delta))
        if delta:
            self.difficulty_parts.append((what, delta))
        self.rules.append(rule)


DraftRule = Callable[[AttackDraft], None]
ActionHandler = Callable[["Resolution", "Fighter", "Action", int, bool], None]
"""(ctx, fighter, action, multiple-action penalty, Willpower's automatic success) → events."""
AfterHit = Callable[["Resolution", AttackDraft, "StrikeOutcome"], None]
Validator = Callable[["VtmState", "Fighter", "Action"], None]
Substitute = Callable[["VtmState", "Fighter", "Action", dict[str, Any]], "Action | None"]
"""(state, fighter, declared action, ``act`` arguments) → the action taken instead, or None."""
DeclarationCheck = Callable[["VtmState", "Fighter", "Declaration"], None]
BeforeAction = Callable[["Resolution", "Fighter", "Action"], bool]
StrikeRule = Callable[[AttackDraft, "Strike"], "Strike"]
FormParams = Callable[["VtmState", "Fighter"], "list[Param]"]
RollRule = Callable[["VtmState", "Fighter", str], "tuple[int, str] | None"]
OfferCheck = Callable[["VtmState", "Fighter", "Maneuver"], bool]
VolleyOdds = Callable[[AttackDraft], "tuple[AttackDraft, Callable[[int], int]]"]
"""(the asked target's draft) → (the draft the one roll is made with, successes → its share)."""
TurnEnd = Callable[["Resolution"], None]


@dataclass(frozen=True)
class Declared:
    """One handler as a rule module declares it: where it plugs in, under which key."""

    point: str
    key: str | None
    fn: Callable[..., Any]
    seq: int
    """Its rank among every declaration (the order within a module: top to bottom)."""

    @property
    def name(self) -> str:
        """``module.function`` (``ranged.range_band``), for errors, tests and the docs."""
        return f"{self.fn.__module__.rsplit('.', 1)[-1]}.{self.fn.__name__}"


DECLARED: list[Declared] = []
"""Every handler declared by a rule module, core or pack, in declaration order. Declaring
runs no rule: an encounter's ``Rulebook`` (``compose``) picks the ones in play."""
IMPLEMENTS: dict[Callable[..., Any], tuple[tuple[str, bool], ...]] = {}
"""The rule ids a handler implements (and whether only for shots), for packs' ``replaces``."""
FORM_REFUSALS: set[str] = set()
ACT_REFUSALS: set[str] = set()


Hook = TypeVar("Hook", bound=Callable[..., Any])


def _declare(point: str, keys: tuple[str | None, ...]) -> Callable[[Hook], Hook]:
    """A decorator that declares its function at ``point`` under each of ``keys``."""

    def wrap(fn: Hook) -> Hook:
        for key in keys:
            DECLARED.append(Declared(point, key, fn, len(DECLARED)))
        return fn

    return wrap


class _Point:
    """One point of the pipeline, named as its handlers are declared (``Declared.point``)."""

    __slots__ = ("point",)

    every: ClassVar[list[str]]
    """Every point of the kind, in the order declared below."""

    def __init__(self, point: str) -> None:
        self.point = point
        type(self).every.append(point)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.point!r})"


class Keyed(_Point, Generic[Hook]):
    """A point whose handlers are found by a key (an action kind, a maneuver id, an effect
    type): the decorator that declares one under each key given (``@action("run")``) and
    the key that reads them from an encounter's rulebook (``book.at(action)``), typed alike."""

    __slots__ = ()
    every: ClassVar[list[str]] = []

    def __call__(self, *keys: str) -> Callable[[Hook], Hook]:
        return _declare(self.point, keys)


class Listed(_Point, Generic[Hook]):
    """A point whose handlers all run, in the composed order (``pool``, ``roll``...): the
    decorator that declares one (``@pool_rule``) and the key that reads them from an
    encounter's rulebook (``book.of(pool_rule)``), typed alike."""

    __slots__ = ()
    every: ClassVar[list[str]] = []

    def __call__(self, fn: Hook) -> Hook:
        DECLARED.append(Declared(self.point, None, fn, len(DECLARED)))
        return fn


# The points (what each is for: the module's text). A handler under an effect type
# (``knockdown_check``, ``grapple``...) runs for every maneuver with such an effect,
# custom ones included (V-CC-0); ``own_reach`` is checked instead of the weapon's range
# (V-GEN-2).
action = Keyed[ActionHandler]("action")
validator = Keyed[Validator]("validator")
after_hit = Keyed[AfterHit]("after_hit")
own_reach = Keyed[Validator]("own_reach")
volley_odds = Keyed[VolleyOdds]("volley_odds")
pool_rule = Listed[DraftRule]("pool")
difficulty_rule = Listed[DraftRule]("difficulty")
action_check = Listed[Validator]("action_check")
after_attack = Listed[AfterHit]("after_attack")
substitute = Listed[Substitute]("substitute")
declaration_check = Listed[DeclarationCheck]("declaration_check")
before_action = Listed[BeforeAction]("before_action")
strike_rule = Listed[StrikeRule]("strike")
form_params = Listed[FormParams]("form_params")
roll_rule = Listed[RollRule]("roll")
at_turn_end = Listed[TurnEnd]("turn_end")
offer_check = Listed[OfferCheck]("offer_check")

KEYED = tuple(Keyed.every)
"""Points whose handlers are found by a key (an action kind, a maneuver id, an effect type)."""
LISTED = tuple(Listed.every)
"""Points whose handlers all run, in the composed order."""


def implements(*rules: str, shots: bool = False) -> Callable[[Hook], Hook]:
    """Declare the rule ids a handler implements (``shots``: for ranged attacks only), so an
    option pack that replaces one of them leaves the handler out of its encounters.

    A handler under a maneuver's id (an action, a validator) implements that maneuver's
    rule without saying so (``compose`` reads it from the tables).
    """

    def wrap(fn: Hook) -> Hook:
        IMPLEMENTS[fn] = (*IMPLEMENTS.get(fn, ()), *((r, shots) for r in rules))
        return fn

    return wrap


OUTSIDE_ODDS: set[Callable[..., Any]] = set()
"""The after-dice hooks declared ``outside_odds``."""


def outside_odds(fn: Hook) -> Hook:
    """Declare that an after-dice hook (``after_hit``, ``after_attack``) changes nothing the
    exact odds of an attack read of its target: its health track (its fate), its armour,
    whether it is knocked down, dazed or out of the fight (which V-DMG-7 reads after the
    hooks). It may read anything and change anything else (the attacker's conditions, a
    lock, the target's cover or weapon). When every after-dice hook of an attack is so
    declared, ``odds.attack_odds`` runs none of them: it reads each end of the dice straight
    from the strike's stages, without a copy of the state or a replay of the strike."""
    OUTSIDE_ODDS.add(fn)
    return fn


BandSource = Callable[["VtmState", "Weapon", "Lang | None"], "tuple[MapBand, ...]"]
"""(state, ranged weapon in hand, reader's language) → the bands a shot with it is priced
by, nearest first, as the battle map draws them (``battlemap.battle_map``)."""
MAP_BANDS: dict[Callable[..., Any], BandSource] = {}
"""The difficulty rules that price a shot by its distance, each with its bands (``shows_bands``)."""


def shows_bands(source: BandSource) -> Callable[[Hook], Hook]:
    """Declare that a difficulty rule prices a shot by distance bands, which ``source``
    gives: while the rule is in an encounter's rulebook, the battle map draws them (V-RNG-5's
    point blank / short / maximum; house_ranged's R-SHOT-1 metres)."""

    def wrap(fn: Hook) -> Hook:
        MAP_BANDS[fn] = source
        return fn

    return wrap


def declared_kinds() -> frozenset[str]:
    """Every action kind some rule module handles, in play in this encounter or not (the
    script's words for a pack's maneuver are known while it is off, to refuse it by name)."""
    return frozenset(d.key for d in DECLARED if d.point == "action" and d.key is not None)


def form_refusals(*keys: str) -> None:
    """Declare error keys a declaration form may meet whatever values it offers: a check of
    several actions together, a detail given with a maneuver that takes none."""
    FORM_REFUSALS.update(keys)


def act_refusals(*keys: str) -> None:
    """Declare error keys an action accepted by ``check_now`` may still meet when its handler
    carries it out (the rounds left in the clip, the width of a spray's zone)."""
    ACT_REFUSALS.update(keys)


EFFECT_READERS: dict[str, list[Callable[..., Any]]] = {}
"""The functions that read each maneuver effect type of the tables (``reads_effect``)."""
EFFECT_NEEDS: dict[tuple[str, str | None], set[str]] = {}
"""The fields of an effect type (of one maneuver, or of any: None) its readers need."""
EFFECT_OF: dict[str, set[str]] = {}
"""The maneuvers whose effect of a type a reader looks up by id (``multiple_opponents``...)."""


def reads_effect(
    *types: str, needs: tuple[str, ...] = (), of: str | None = None
) -> Callable[[Hook], Hook]:
    """Declare that a function reads these maneuver effect types (``Maneuver.effect``),
    needs these fields of them, and (``of``) looks them up on that maneuver: the tables
    loader refuses an effect type no function reads, an effect without a field its reader
    needs, and that maneuver without the effect (``tables.check_effects_read``)."""

    def wrap(fn: Hook) -> Hook:
        for t in types:
            EFFECT_READERS.setdefault(t, []).append(fn)
            EFFECT_NEEDS.setdefault((t, of), set()).update(needs)
            if of is not None:
                EFFECT_OF.setdefault(of, set()).add(t)
        return fn

    return wrap


def effect_readers() -> dict[str, tuple[str, ...]]:
    """Each effect type some rule reads, with its readers (``module.function``): those that
    declare it, and the after-hit hooks declared under an effect type."""
    out: dict[str, list[str]] = {}
    for t, fns in EFFECT_READERS.items():
        out.setdefault(t, []).extend(f"{f.__module__.rsplit('.', 1)[-1]}.{f.__name__}" for f in fns)
    for d in DECLARED:
        if d.point == "after_hit" and d.key is not None:
            out.setdefault(d.key, []).append(d.name)
    return {t: tuple(names) for t, names in out.items()}
