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

Rule modules register into these at import; ``rules.py`` imports them all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conteur.engine import Param, Resolution

    from .state import Action, Declaration, Fighter, VtmState
    from .strike import Strike, StrikeOutcome


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
    extra_damage_dice: int = 0
    damage_dice: int = 0
    flags: dict[str, Any] = field(default_factory=dict)

    def add_dice(self, rule: str, what: str, amount: int) -> None:
        """Change the attack pool by ``amount`` dice under ``rule``."""
        if amount:
            self.pool += amount
            self.notes.append((rule, what, amount))
            self.rules.append(rule)

    def add_difficulty(self, rule: str, what: str, amount: int) -> None:
        """Change the difficulty by ``amount`` under ``rule``."""
        if amount:
            self.difficulty += amount
            self.notes.append((rule, what, amount))
            self.rules.append(rule)

    def set_difficulty(self, rule: str, what: str, value: int) -> None:
        """Replace the base difficulty (range bands, V-RNG-5)."""
        delta = value - self.difficulty
        self.difficulty = value
        self.notes.append((rule, what, delta))
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


def action(*kinds: str) -> Callable[[ActionHandler], ActionHandler]:
    """Register the handler of one or more action kinds."""

    def wrap(fn: ActionHandler) -> ActionHandler:
        for kind in kinds:
            ACTIONS[kind] = fn
        return fn

    return wrap


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

    def wrap(fn: AfterHit) -> AfterHit:
        for m in maneuvers:
            AFTER_HIT[m] = fn
        return fn

    return wrap


def validator(*kinds: str) -> Callable[[Validator], Validator]:
    """Register a check for declaring or taking actions of these kinds."""

    def wrap(fn: Validator) -> Validator:
        for kind in kinds:
            VALIDATORS[kind] = fn
        return fn

    return wrap


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
