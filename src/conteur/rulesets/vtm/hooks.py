"""Registries that let each rule add its part without editing the attack pipeline.

* ``ACTIONS``: handler of each action kind (``punch``, ``shoot``, ``dodge``...).
* ``POOL_RULES`` / ``DIFFICULTY_RULES``: small functions, one per rule, that
  look at an attack being built and return their modifier with the rule id.
* ``AFTER_HIT``: what a maneuver does once its dice are rolled (knock-down,
  grapple, disarm...).
* ``VALIDATORS``: checks run when an action is declared or taken.
* ``ACTION_CHECKS``: checks run on every action, whatever its kind (a grapple
  forbids any other action, V-CC-7).
* ``AFTER_ATTACK``: what runs after the dice of every attack.
* ``SUBSTITUTES``: actions a rule allows in place of a declared action that
  became impossible (a fighter grappled before its rank breaks free instead).
* ``DECLARATION_CHECKS``: checks of a whole declaration (rate of fire, aiming alone...).
* ``BEFORE_ACTION``: what runs when an action is taken, before its handler; a hook
  returning False stops the action (a suppressed fighter pinned down, house_ranged).
* ``FORM_PARAMS``: details of the first declared action a form may give (a pack's spot...).
* ``STRIKE_RULES``: last touches to a fixed ``Strike`` (a pack doubling armour...).
* ``REPLACED_RULES``: the rule ids each option pack replaces while it is on.
* ``OFFER_CHECKS``: whether a maneuver is offered to a fighter (``legal_commands``), beside
  its tables' requirements (a pack's burst only with a weapon of the right cadence).
* ``OWN_REACH``: maneuvers whose reach is their own, checked instead of the weapon's
  maximum range (V-GEN-2): a pack's shotgun spread reaches as far as its bands.
* ``VOLLEY_ODDS``: for the odds of a maneuver that rolls once for several targets (a
  pack's burst or spread), the draft the roll is made with and the asked target's share
  of its successes.
* ``TURN_END``: what runs as a turn ends, before ``TurnEnded`` (a condition that lasts the
  turn cleared, house_ranged's suppression).
* ``ROLL_RULES``: difficulty changes to a roll that is not an attack, by its purpose
  (standing up, a jump...; a leg hit makes movement harder, house_ranged).
* ``FORM_REFUSALS`` / ``ACT_REFUSALS``: the error keys a declaration filled in field by
  field, and an action carried out, may still meet whatever values their templates offer
  (``legal.py``): fields that contradict each other, a check of the declaration as a
  whole (rate of fire), what a handler checks as it goes (the clip, a spray's zone).

Rule modules register into these at import; ``rules.py`` imports them all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from conteur.engine import Param, Resolution

    from .state import Action, Declaration, Fighter, VtmState
    from .strike import Strike, StrikeOutcome
    from .tables import Maneuver


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
    flags: dict[str, Any] = field(default_factory=dict)

    def add_dice(self, rule: str, what: str, amount: int) -> None:
        """Change the attack pool by ``amount`` dice under ``rule``."""
        if amount:
            self.pool += amount
            self.notes.append((rule, what, amount))
            self.pool_parts.append((what, amount))
            self.rules.append(rule)

    def add_difficulty(self, rule: str, what: str, amount: int) -> None:
        """Change the difficulty by ``amount`` under ``rule``."""
        if amount:
            self.difficulty += amount
            self.notes.append((rule, what, amount))
            self.difficulty_parts.append((what, amount))
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
"""(state, roller, the roll's purpose) → (difficulty change, rule id), or None."""

ACTIONS: dict[str, ActionHandler] = {}
POOL_RULES: list[DraftRule] = []
DIFFICULTY_RULES: list[DraftRule] = []
AFTER_HIT: dict[str, AfterHit] = {}
VALIDATORS: dict[str, Validator] = {}
ACTION_CHECKS: list[Validator] = []
AFTER_ATTACK: list[AfterHit] = []
SUBSTITUTES: list[Substitute] = []
DECLARATION_CHECKS: list[DeclarationCheck] = []
BEFORE_ACTION: list[BeforeAction] = []
STRIKE_RULES: list[StrikeRule] = []
FORM_PARAMS: list[FormParams] = []
REPLACED_RULES: dict[str, frozenset[str]] = {}
ROLL_RULES: list[RollRule] = []
OfferCheck = Callable[["VtmState", "Fighter", "Maneuver"], bool]
OFFER_CHECKS: list[OfferCheck] = []
OWN_REACH: dict[str, Validator] = {}
VolleyOdds = Callable[[AttackDraft], "tuple[AttackDraft, Callable[[int], int]]"]
"""(the asked target's draft) → (the draft the one roll is made with, successes → its share)."""
VOLLEY_ODDS: dict[str, VolleyOdds] = {}
TURN_END: list[Callable[[Resolution], None]] = []
FORM_REFUSALS: set[str] = set()
ACT_REFUSALS: set[str] = set()


Hook = TypeVar("Hook")


def _under(table: dict[str, Hook], keys: tuple[str, ...]) -> Callable[[Hook], Hook]:
    """A decorator that registers its function in ``table`` under each of ``keys``."""

    def wrap(fn: Hook) -> Hook:
        for key in keys:
            table[key] = fn
        return fn

    return wrap


def action(*kinds: str) -> Callable[[ActionHandler], ActionHandler]:
    """Register the handler of one or more action kinds."""
    return _under(ACTIONS, kinds)


def pool_rule(fn: DraftRule) -> DraftRule:
    """Register a rule that changes attack pools."""
    POOL_RULES.append(fn)
    return fn


def difficulty_rule(fn: DraftRule) -> DraftRule:
    """Register a rule that changes attack difficulties."""
    DIFFICULTY_RULES.append(fn)
    return fn


def after_hit(*maneuvers: str) -> Callable[[AfterHit], AfterHit]:
    """Register what a maneuver does after its dice, by maneuver id or by effect type.

    A hook registered under an effect type (``knockdown_check``, ``grapple``...)
    runs for every maneuver with such an effect, custom ones included (V-CC-0).
    """
    return _under(AFTER_HIT, maneuvers)


def validator(*kinds: str) -> Callable[[Validator], Validator]:
    """Register a check for declaring or taking actions of these kinds."""
    return _under(VALIDATORS, kinds)


def action_check(fn: Validator) -> Validator:
    """Register a check run on every action declared or taken, whatever its kind."""
    ACTION_CHECKS.append(fn)
    return fn


def after_attack(fn: AfterHit) -> AfterHit:
    """Register what runs after the dice of every attack."""
    AFTER_ATTACK.append(fn)
    return fn


def substitute(fn: Substitute) -> Substitute:
    """Register a rule that may replace a declared action when it is taken."""
    SUBSTITUTES.append(fn)
    return fn


def declaration_check(fn: DeclarationCheck) -> DeclarationCheck:
    """Register a check of a whole declaration, run before its actions are validated (V-INI-3)."""
    DECLARATION_CHECKS.append(fn)
    return fn


def before_action(fn: BeforeAction) -> BeforeAction:
    """Register what runs when an action is taken, before its handler (False stops it)."""
    BEFORE_ACTION.append(fn)
    return fn


def replaces(pack: str, *rules: str) -> None:
    """Declare that option pack ``pack`` replaces these rule ids while it is on."""
    REPLACED_RULES[pack] = frozenset(rules)


def replaced(state: VtmState, rule: str) -> bool:
    """Whether an option pack of this encounter replaces ``rule``."""
    return any(rule in REPLACED_RULES.get(pack, ()) for pack in state.packs)


def strike_rule(fn: StrikeRule) -> StrikeRule:
    """Register a last change to every strike once its numbers are fixed."""
    STRIKE_RULES.append(fn)
    return fn


def form_params(fn: FormParams) -> FormParams:
    """Register details a declaration form may give for its first action."""
    FORM_PARAMS.append(fn)
    return fn


def roll_rule(fn: RollRule) -> RollRule:
    """Register a difficulty change to rolls that are not attacks (by their purpose)."""
    ROLL_RULES.append(fn)
    return fn


def roll_modifiers(state: VtmState, f: Fighter, purpose: str) -> tuple[int, tuple[str, ...]]:
    """The difficulty change the registered rules make to ``f``'s ``purpose`` roll, and
    their rule ids."""
    total, rules = 0, []
    for rule in ROLL_RULES:
        found = rule(state, f, purpose)
        if found is not None:
            total += found[0]
            rules.append(found[1])
    return total, tuple(rules)


def at_turn_end(fn: Callable[[Resolution], None]) -> Callable[[Resolution], None]:
    """Register what runs when every action of a turn is spent, before ``TurnEnded``."""
    TURN_END.append(fn)
    return fn


def offer_check(fn: OfferCheck) -> OfferCheck:
    """Register a check of whether a maneuver is offered to a fighter (False: left out)."""
    OFFER_CHECKS.append(fn)
    return fn


def own_reach(*maneuvers: str) -> Callable[[Validator], Validator]:
    """Register the reach check of maneuvers that do not use the weapon's range (V-GEN-2)."""
    return _under(OWN_REACH, maneuvers)


def volley_odds(*maneuvers: str) -> Callable[[VolleyOdds], VolleyOdds]:
    """Register how the odds price a maneuver that rolls once for several targets."""
    return _under(VOLLEY_ODDS, maneuvers)


def form_refusals(*keys: str) -> None:
    """Declare error keys a declaration form may meet whatever values it offers: a check of
    several actions together, a detail given with a maneuver that takes none."""
    FORM_REFUSALS.update(keys)


def act_refusals(*keys: str) -> None:
    """Declare error keys an action accepted by ``check_now`` may still meet when its handler
    carries it out (the rounds left in the clip, the width of a spray's zone)."""
    ACT_REFUSALS.update(keys)
