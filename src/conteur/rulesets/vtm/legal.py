"""One legality: the commands vtm's templates offer are the ones its rules accept.

Each command handler checks what it is given with predicate functions; the templates of
``legal_commands`` are built by asking the same functions of every candidate — as
python-chess's move generator serves both "which moves are legal" and "is this move
legal". So:

* ``declare`` offers the action kinds and targets some pairing of which passes the
  declaration's own checks (``actions.validate_declared`` and the reach from where the
  blow is struck, ``actions.check_reach_now``: an attack out of reach is offered only
  with the opening move, ``move_to``, that closes the distance), the weapons such an
  action may use, and Celerity's extra actions, one pair of fields per action Celerity
  and blood allow (V-MAN-2);
* ``act`` is offered for the action due when ``actions.check_now`` accepts it — the same
  check ``act`` makes — or, when it cannot be carried out any more, with the actions a
  rule allows in its place (a lock's own: a grappled fighter breaks free, V-CC-7);
* ``defend`` comes from ``defence.defence_offer`` and the kinds
  ``defence.defence_kind_refusal`` allows, which ``announce`` asks too;
* ``ambush`` offers the targets not in the fight yet and the attacks ``check_now``
  accepts on them (V-MAN-7).

A form gives each field independently: a kind with a target it cannot reach, or a delay
with an action, cannot be ruled out by the fields' own choices. Each template states
those refusals (``CommandTemplate.refusals``): the keys met by the pairings it could not
rule out, the keys of fields that contradict each other, and what a handler still checks
as it goes (``hooks.FORM_REFUSALS``, ``hooks.ACT_REFUSALS``). Anything else refused is a
fault of the template (``tests/vtm/test_legality.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from conteur.engine import CommandTemplate, Param
from conteur.engine.joining import WITHDRAW
from conteur.i18n import ConteurError

from . import close, equipment, gm, hooks, locks, turn
from .actions import action_now, check_now
from .conditions import InCombat, KnockedDown, Prone
from .defence import defence_in_hand_refusal, defence_kind_refusal, defence_offer
from .hooks import ACT_REFUSALS, FORM_REFUSALS
from .rulebook import rules_of
from .state import DEFENSIVE, Action, Fighter, VtmState

Check = Callable[[VtmState, Fighter, Action], None]
"""A check of one action that raises its refusal (``check_now``, ``validate_declared``)."""

DECLARATION_FIELDS = (
    "vtm.declare.delay_alone",
    "vtm.declare.full_defense_alone",
    "vtm.declare.empty",
    "vtm.declare.then_alone",
    "vtm.declare.celerity_actions",
)
"""A declaration's fields that contradict each other (``turn.check_declaration``): a delay
or a turn of defence with actions, nothing at all, a second action with no first, Celerity
actions with no action of the turn's own (V-INI-3, V-INI-5, V-DEF-7, V-MAN-1, V-MAN-2)."""

REACH = ("vtm.attack.too_far", "vtm.attack.close_in", "vtm.attack.out_of_range")
"""A later action of a declaration strikes from where the earlier ones leave the fighter."""

GENERAL_ACTIONS = ("move", "other")

CELERITY_FIELDS = ("celerity_kind_{}", "celerity_target_{}")
"""The fields of Celerity's extra actions in a declaration form, numbered from 1 (V-MAN-2)."""


def refusal(check: Check, state: VtmState, f: Fighter, a: Action) -> ConteurError | None:
    """The refusal ``check`` gives ``a``, or None when it accepts it."""
    try:
        check(state, f, a)
    except ConteurError as err:
        return err
    return None


# ------------------------------------------------------------------ actions


def targets_of(state: VtmState, f: Fighter) -> tuple[str, ...]:
    """Every other fighter (an ally may be struck too)."""
    return tuple(o.id for o in state.fighters.values() if o.id != f.id)


def carried_categories(state: VtmState, f: Fighter) -> set[str]:
    """Categories of the weapons a fighter holds or carries (melee, ranged, thrown)."""
    cats = {equipment.weapon(state, w).category for w in equipment.owned_weapons(f)}
    held = equipment.weapon_in_hand(state, f)
    if held is not None:
        cats.add(held.category)
    return {str(c) for c in cats}


def action_kinds(state: VtmState, f: Fighter, defences: bool = True) -> tuple[str, ...]:
    """Actions this fighter could declare: general actions, the maneuvers whose powers, traits
    and weapons it has, and (``defences``) the defensive actions it may take; only the lock's
    own while locked (V-CC-7, V-CC-8). The candidates the templates check one by one."""
    cats = carried_categories(state, f)
    kinds = list(GENERAL_ACTIONS)
    if f.sheet.weapons:
        kinds.append("draw")
    if f.conditions.of(KnockedDown) or f.conditions.of(Prone):
        kinds.append("stand_up")
    if any(equipment.weapon(state, w).clip for w in equipment.owned_weapons(f)):
        kinds.append("reload")
    for m in equipment.tables(state).maneuvers.values():
        if m.id in kinds or not (equipment.is_attack(m) or m.id == "aim"):
            continue
        if m.requires.powers and not any(p in f.sheet.powers for p in m.requires.powers):
            continue
        if m.requires.weapon and not cats & set(m.requires.weapon):
            continue
        if any(f.trait(t) < n for t, n in m.requires.min_traits.items()):
            continue
        if not all(offered(state, f, m) for offered in rules_of(state).of(hooks.offer_check)):
            continue  # a pack's own requirement (a burst's cadence...)
        kinds.append(m.id)
    if defences:
        kinds.extend(k for k in DEFENSIVE if k != "parry" or "melee" in cats)
    return locks.allowed_kinds(state, f, dict.fromkeys(kinds))


@dataclass(frozen=True)
class Choices:
    """What a form may pick for one action: the kinds and the targets some pairing of which
    passes the check, the weapons such an action may use, and the reasons the pairings a
    form of independent fields cannot rule out are refused."""

    kinds: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    weapons: tuple[str, ...] = ()
    refusals: frozenset[str] = frozenset()


def choices(state: VtmState, f: Fighter, kinds: Iterable[str], check: Check) -> Choices:
    """Every (kind, target) pairing of ``kinds`` and the other fighters (or no target) put
    to ``check`` — as is, or, out of reach, with an opening move toward the target (V-MAN-6);
    the kinds and targets of the pairings it accepts are offered, field by field, with the
    reasons it refused the others among them."""
    kinds = tuple(kinds)
    others = targets_of(state, f)
    carried = tuple(dict.fromkeys(str(x) for x in f.sheet.weapons))
    details = form_details(state, f)
    fine: list[tuple[str, str | None]] = []
    refused: dict[tuple[str, str | None], str] = {}
    for kind in kinds:
        for target in (None, *others):
            err = refusal(check, state, f, Action(kind, target))
            if err is None:
                fine.append((kind, target))
                continue
            refused[(kind, target)] = err.key
            if target is not None and err.key in REACH:
                closer = Action(kind, target, params=(("move_to", target),))
                if refusal(check, state, f, closer) is None:
                    fine.append((kind, target))
                continue
            # Another field of the form may make it pass: a weapon named, a detail (a spot).
            helped = [Action(kind, target, w) for w in carried]
            if err.key in FORM_REFUSALS:
                helped += [Action(kind, target, params=(d,)) for d in details]
            if any(refusal(check, state, f, a) is None for a in helped):
                fine.append((kind, target))
    offered_kinds = tuple(dict.fromkeys(k for k, _ in fine))
    offered_targets = tuple(t for t in others if any(t == pair[1] for pair in fine))
    reasons = {
        key
        for (kind, target), key in refused.items()
        if kind in offered_kinds and (target is None or target in offered_targets)
    }
    weapons: list[str] = []
    armed = [
        (kind, target)
        for kind, target in fine
        if kind == "draw" or equipment.maneuver_or_none(state, kind) is not None
    ]  # the other actions use no weapon: naming one changes nothing
    for w in carried:
        tried = [refusal(check, state, f, Action(kind, target, w)) for kind, target in armed]
        if any(err is None for err in tried):
            weapons.append(w)
            reasons |= {err.key for err in tried if err is not None}
    return Choices(
        kinds=offered_kinds,
        targets=offered_targets,
        weapons=tuple(weapons),
        refusals=frozenset(reasons),
    )


# ------------------------------------------------------------------ declare


def form_details(state: VtmState, f: Fighter) -> list[tuple[str, Any]]:
    """Each value of the choices a declaration form gives beside the action's own fields
    (``form_params``: a called shot's spot...), as an action parameter to try."""
    return [
        (p.name, value)
        for extra in rules_of(state).of(hooks.form_params)
        for p in extra(state, f)
        if p.kind == "choice"
        for value in p.choices
    ]


def declare_template(state: VtmState, f: Fighter) -> CommandTemplate:
    """``declare``: an action (``kind``, ``target``, ``weapon``, and ``move_to`` to close in
    first, V-MAN-6) and maybe a second one (``then_kind``, ``then_target``: V-MAN-1); the
    extra actions of Celerity (``celerity_kind_1``, ``celerity_target_1``..., one pair per
    dot the blood pays for, V-MAN-2); Willpower's automatic success (V-INI-3); or ``delay``
    (V-INI-5); or ``full_defense`` with one defence (V-DEF-7). A command may also give
    ``actions``, a list of ``{kind, target, weapon, ...}`` with ``celerity`` the number of
    them that are Celerity's (the script language's form)."""
    offer = choices(state, f, action_kinds(state, f), check_now)
    kinds, targets = offer.kinds, offer.targets
    params = [
        Param("kind", "choice", kinds, required=False),
        Param("target", "choice", targets, required=False),
        Param("weapon", "choice", offer.weapons, required=False),
        Param("move_to", "choice", approaches(state, f, targets), required=False),
        Param("then_kind", "choice", kinds, required=False),
        Param("then_target", "choice", targets, required=False),
    ]
    for i in range(1, min(f.trait("celerity"), f.blood) + 1):
        kind_field, target_field = (name.format(i) for name in CELERITY_FIELDS)
        params.append(Param(kind_field, "choice", kinds, required=False))
        params.append(Param(target_field, "choice", targets, required=False))
    if f.willpower >= 1:
        params.append(Param("willpower", "bool", default=False))
    params.append(Param("delay", "bool", default=False))
    for extra in rules_of(state).of(hooks.form_params):
        params.extend(extra(state, f))
    full = tuple(k for k in kinds if k in DEFENSIVE)
    params.append(Param("full_defense", "choice", full, required=False))
    refusals = offer.refusals | set(DECLARATION_FIELDS) | set(REACH) | FORM_REFUSALS
    return CommandTemplate(
        "declare", f.id, tuple(params), rule="V-INI-3", refusals=frozenset(refusals), dice=False
    )


def approaches(state: VtmState, f: Fighter, targets: tuple[str, ...]) -> tuple[str, ...]:
    """Whom ``f`` may move toward before its action (V-MAN-6): none while locked in a
    grapple or hold, whose fighters take no other action than the lock's (V-CC-7, V-CC-8)."""
    return () if locks.lock_of(state, f) is not None else targets


# ------------------------------------------------------------------ act


def act_template(state: VtmState, f: Fighter) -> CommandTemplate | None:
    """``act``, for the fighter whose action is due (V-INI-4, V-INI-7): the declared action
    when ``check_now`` accepts it; a delayed one says what it is (V-INI-5); a declared one
    that can no longer be carried out is offered only with the actions a rule puts in its
    place (``kind``: a lock's own, V-CC-7, V-CC-8) — else the fighter may only pass."""
    due = turn.next_timing(state, f.id)
    if due is None:
        return None
    index, timing = due
    rule = {"delayed": "V-INI-5", "end": "V-INI-7"}.get(timing, "V-INI-4")
    refusals = frozenset(ACT_REFUSALS)
    if timing == "delayed":
        offer = choices(state, f, action_kinds(state, f, defences=False), check_now)
        if not offer.kinds:
            return None
        params = (
            Param("kind", "choice", offer.kinds),
            Param("target", "choice", offer.targets, required=False),
            Param("move_to", "choice", approaches(state, f, offer.targets), required=False),
        )
        reasons = offer.refusals | refusals
        return CommandTemplate("act", f.id, params, rule=rule, refusals=frozenset(reasons))
    as_declared = _refusal_now(state, f, index, timing, {})
    instead = tuple(
        k
        for k in action_kinds(state, f, defences=False)
        if _refusal_now(state, f, index, timing, {"kind": k}) is None
    )
    if as_declared is None and not _replaces(state, f, index, instead):
        return CommandTemplate("act", f.id, (), rule=rule, refusals=refusals)
    if not instead:
        return None
    kind = Param("kind", "choice", instead, required=as_declared is not None)
    return CommandTemplate("act", f.id, (kind,), rule=rule, refusals=refusals)


def _refusal_now(
    state: VtmState, f: Fighter, index: int, timing: str, args: dict[str, Any]
) -> ConteurError | None:
    """What ``act`` with ``args`` would be refused with before anything happens (None: it
    goes ahead): the action it takes (``action_now``) and ``check_now`` on it."""
    try:
        check_now(state, f, action_now(state, f, index, timing, args))
    except ConteurError as err:
        return err
    return None


def _replaces(state: VtmState, f: Fighter, index: int, instead: tuple[str, ...]) -> bool:
    """Whether ``act`` may name another action than the declared one (a lock's own)."""
    decl = f.progress.declaration
    declared = decl.actions[index].kind if decl is not None else None
    return any(k != declared for k in instead)


# ------------------------------------------------------------------ defend


def defend_template(state: VtmState, f: Fighter) -> CommandTemplate | None:
    """``defend``, with the defences ``announce`` accepts now and, to abort the declared
    action for one, the ways to pay (V-DEF-1, V-DEF-7, V-DEF-8, V-INI-6, V-MAN-3)."""
    offer = defence_offer(state, f)
    if isinstance(offer, ConteurError):
        return None
    kinds = tuple(
        k
        for k in DEFENSIVE
        if defence_kind_refusal(state, f, k) is None
        and defence_in_hand_refusal(state, f, k) is None
    )
    if not kinds:
        return None
    params: tuple[Param, ...] = (Param("kind", "choice", kinds),)
    if offer.via == "abort":
        params = (*params, Param("abort", "choice", offer.ways))
    return CommandTemplate("defend", f.id, params, rule=offer.rule)


# ------------------------------------------------------------------ ambush


def ambush_template(state: VtmState, f: Fighter) -> CommandTemplate | None:
    """``ambush`` before the fight on a target not yet in combat, with the attacks
    ``check_now`` accepts on it and the defence it may hold if the ambush ties (V-MAN-7)."""
    if state.phase != "setup" or state.turn != 0 or f.out_of_fight:
        return None
    if f.conditions.of(InCombat):
        return None
    maneuvers = equipment.tables(state).maneuvers
    attacks = [
        k
        for k in action_kinds(state, f, defences=False)
        if k in maneuvers and equipment.is_attack(maneuvers[k])
    ]
    ready = {o.id for o in state.enemies(f.id)}
    ready = {
        fid
        for fid in ready
        if not state.fighters[fid].conditions.of(InCombat) and not state.fighters[fid].out_of_fight
    }
    offer = choices(state, f, attacks, check_now)
    targets = tuple(t for t in offer.targets if t in ready)
    kinds = offer.kinds
    if not targets or not kinds:
        return None
    parries = {t: defence_in_hand_refusal(state, state.fighters[t], "parry") for t in targets}
    defences = tuple(k for k in DEFENSIVE if k != "parry" or None in parries.values())
    reasons = set(offer.refusals)
    if "parry" in defences:
        reasons |= {err.key for err in parries.values() if err is not None}
    return CommandTemplate(
        "ambush",
        f.id,
        (
            Param("target", "choice", targets),
            Param("kind", "choice", kinds),
            Param("weapon", "choice", offer.weapons, required=False),
            Param("defence", "choice", defences, required=False),
        ),
        rule="V-MAN-7",
        refusals=frozenset(reasons),
    )


# ------------------------------------------------------------------ the game master's

GM_REFUSALS: dict[str, tuple[str, ...]] = {
    "gm_modifier": ("vtm.gm.empty_modifier", "vtm.gm.reason"),
    "gm_willpower": ("vtm.gm.field",),
    "gm_override": (
        "vtm.gm.override_empty",
        "vtm.gm.field",
        "vtm.gm.health",
        "vtm.gm.ammo",
        "vtm.gm.conditions",
    ),
    "gm_maneuver": ("vtm.gm.spec", "vtm.gm.maneuver_id", "vtm.gm.maneuver_invalid"),
    "gm_complication": ("vtm.gm.reason",),
    "gm_note": ("vtm.gm.reason",),
    "gm_zone": ("vtm.gm.zone_points",),
}
"""What the game master's forms cannot rule out: no dice and no difficulty changed, a
number out of one fighter's own range (its Willpower), nothing to override, a text that
does not read (a health track, a maneuver's record, a zone's corners), an empty text."""


NO_DICE = frozenset(GM_REFUSALS) | {
    "gm_heal",
    "gm_condition",
    "gm_move",
    "gm_cover",
    "gm_zone",
    "gm_unzone",
    "gm_weapon",
}
"""The game master's commands that never roll (damage by fire rolls its soak, V-DMG-3)."""


def gm_templates(state: VtmState) -> list[CommandTemplate]:
    """The game master's commands (``gm.templates``), each with what it may still refuse.

    A text offers no value of its own: left empty, the command says what it lacks (a
    reason, a maneuver's id), one of the refusals its template states."""
    out = []
    for tp in gm.templates(state):
        params = tuple(replace(p, required=False) if p.kind == "text" else p for p in tp.params)
        refusals = frozenset(GM_REFUSALS.get(tp.type, ()))
        out.append(replace(tp, params=params, refusals=refusals, dice=tp.type not in NO_DICE))
    return out


# ------------------------------------------------------------------ every command


def legal_commands(state: VtmState, actor: str | None = None) -> list[CommandTemplate]:
    """What each fighter (or the game master) may do now, with the choices each accepts.

    * ``initiative`` between turns; ``ambush`` before the fight (V-MAN-7);
    * ``declare`` only for the fighters due to declare (slowest first, V-INI-3);
    * ``act`` and ``pass`` for the fighter whose action is due, and for a
      delayed fighter at any moment after its rank (V-INI-5);
    * ``defend`` for a fighter with an action left, with the defences it may
      use (V-DEF-1, V-INI-6), and the abort choices only for a fighter who has
      not acted yet (V-MAN-3);
    * the game master's commands, always (``actor`` None).
    """
    out: list[CommandTemplate] = []
    ids = [actor] if actor else list(state.fighters)
    if state.phase == "setup" and actor is None and turn.able_fighters(state):
        out.append(CommandTemplate("initiative", None, rule="V-INI-1"))
    for fid in ids:
        if fid not in state.fighters:
            continue
        f = state.fighters[fid]
        ambush = ambush_template(state, f)
        if ambush is not None:
            out.append(ambush)
        if state.phase == "declaration" and fid in turn.declaring_now(state):
            out.append(declare_template(state, f))
        if turn.next_timing(state, fid) is not None:
            act = act_template(state, f)
            if act is not None:
                out.append(act)
            out.append(CommandTemplate("pass", f.id, rule="V-INI-4"))
        defend = defend_template(state, f)
        if defend is not None:
            out.append(defend)
    out.extend(close.templates(state, actor))
    if actor is None:
        out.extend(gm_templates(state))
        standing = tuple(f.id for f in state.fighters.values() if not f.out_of_fight)
        if standing:
            out.append(
                CommandTemplate(
                    WITHDRAW, None, (Param("fighter", "choice", standing),), "V-INI-4", dice=False
                )
            )
    return out


__all__ = [
    "Choices",
    "act_template",
    "action_kinds",
    "ambush_template",
    "approaches",
    "choices",
    "declare_template",
    "defend_template",
    "legal_commands",
    "targets_of",
]
