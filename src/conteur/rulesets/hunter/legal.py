"""What each fighter and the Storyteller may do now, built by the checks the commands run.

One legality (python-chess's move generator serves both "the legal moves" and "is this
move legal"): ``kind_refusal`` says why a fighter may not take an action of a kind now,
and ``act`` raises it; the ``act`` template offers exactly the kinds that have none. The
choices of the other parameters come from the same checks (``dodge_refusal``,
``turn.waitable``, ``overpower_refusal``, ``ammo_refusal``...), and the attack plans
(``plan_attack``, ``plan_grab``) are run on every target offered to find what a target
may still refuse. What a template cannot rule out parameter by parameter — a combination
of values, such as a grab on a fighter already grappling or a distance beyond the range
of the object thrown — it states in its ``refusals``.
"""

from __future__ import annotations

from conteur.engine import CommandTemplate, Param
from conteur.engine.joining import WITHDRAW
from conteur.i18n import ConteurError

from . import turn
from .attack import BANDS, BURSTS, ammo_refusal, maneuver_for, plan_attack
from .cover import COVER_PENALTY, cover_of, full, zone_levels
from .grapple import OPTIONS, overpower_refusal, plan_grab
from .state import Fighter, HunterState

KINDS = (
    "attack",
    "throw",
    "burst",
    "grapple",
    "escape",
    "overpower",
    "dodge",
    "aim",
    "reload",
    "draw",
)
"""The ``kind`` of an ``act`` command."""

HELD_KINDS = frozenset({"escape", "overpower", "dodge"})
"""H-GRP-2: what a grappled fighter may do with its action."""

TARGETED = frozenset({"attack", "throw", "burst", "grapple", "aim"})
"""Kinds that need a target (a burst may name its targets instead)."""


def kind_refusal(state: HunterState, f: Fighter, kind: str) -> ConteurError | None:
    """Why ``f`` may not take an action of ``kind`` now, whatever else it says (None: it may).

    The same refusals the action itself would give, found before any die is rolled."""
    if kind not in KINDS:
        return ConteurError("hunter.act.bad_kind", value=kind, known=", ".join(KINDS))
    if f.immobilised and kind != "escape":
        return ConteurError("hunter.grapple.immobilised", fighter=f.name, rule="H-GRP-3")
    if f.held_by and kind not in HELD_KINDS:
        return ConteurError("hunter.grapple.held", fighter=f.name, rule="H-GRP-2")
    w = state.weapon_of(f)
    if kind == "attack":
        maneuver = maneuver_for(state, f)
        if maneuver == "shoot" and w is not None:
            return ammo_refusal(f, w, 1)
    if kind == "throw" and not throwable(state, f.id):
        return ConteurError("hunter.attack.nothing_to_throw", rule="H-THR-3")
    if kind == "burst":
        if w is None or not w.autofire:
            return ConteurError("hunter.attack.no_autofire", rule="H-AUTO-1")
        return ammo_refusal(f, w, min(rounds for rounds, _ in BURSTS.values()))
    if kind == "reload" and (w is None or w.category != "firearm"):
        return ConteurError("hunter.attack.no_firearm", rule="H-RLD-1")
    if kind == "grapple" and (f.holding or f.held_by):
        return ConteurError("hunter.grapple.already", rule="H-GRP-1")
    if kind == "escape" and not f.held_by:
        return ConteurError("hunter.grapple.not_held", rule="H-GRP-2")
    if kind == "overpower" and not (f.holding or f.held_by):
        return ConteurError("hunter.grapple.not_holding", rule="H-GRP-3")
    if kind == "draw" and not f.weapons:
        return ConteurError("hunter.draw.not_carried", weapon="", rule="H-DRAW-1")
    return None


def dodge_refusal(state: HunterState, f: Fighter) -> ConteurError | None:
    """H-DODGE-1: why ``f`` may not give up its action to dodge now (None: it may)."""
    if state.phase != "resolution":
        return ConteurError("hunter.act.no_initiative")
    if not f.able or f.acted or f.immobilised:
        return ConteurError("hunter.dodge.no_action", fighter=f.name, rule="H-DODGE-1")
    if f.initiative is None:
        return ConteurError("hunter.act.surprised", fighter=f.name, rule="H-AMB-1")
    return None


def throwable(state: HunterState, actor: str) -> tuple[str, ...]:
    """Objects of the tables the fighter is strong enough to throw (H-THR-3)."""
    strength = state.fighters[actor].trait("strength")
    return tuple(
        w.id for w in state.tables.weapons.values() if w.category != "firearm" and w.size < strength
    )


def targets_of(state: HunterState, actor: str) -> tuple[str, ...]:
    """Whom ``actor`` may attack: anyone else not dead (a fighter down may still be hit)."""
    return tuple(fid for fid, o in state.fighters.items() if fid != actor and o.fate != "dead")


PLANNED = frozenset({"attack", "throw", "burst", "grapple"})
"""Kinds whose roll is planned against a target before any die (``plan_refusal``)."""


def plan_refusal(state: HunterState, f: Fighter, kind: str, target: str) -> str | None:
    """The key of what the plan of ``kind`` against ``target`` refuses with the template's
    defaults (the weapon in hand, the band of the map, no option): None when it is planned."""
    try:
        if kind == "grapple":
            plan_grab(state, f, state.fighters[target])
        else:
            maneuver = maneuver_for(state, f) if kind == "attack" else kind
            plan_attack(state, f.id, target, maneuver, {})
    except ConteurError as error:
        return error.key
    return None


def act_template(state: HunterState, f: Fighter) -> CommandTemplate:
    """``act``: the due fighter's action (H-INI-1), its kinds those ``kind_refusal`` allows."""
    kinds = tuple(
        k
        for k in KINDS
        if kind_refusal(state, f, k) is None
        and (k != "draw" or len(f.weapons) > (1 if f.weapon else 0))
    )
    targets = targets_of(state, f.id)
    others = tuple(fid for fid in state.fighters if fid != f.id and state.fighters[fid].able)
    w = state.weapon_of(f)
    bursts = tuple(
        b for b, (rounds, _) in BURSTS.items() if w is not None and not ammo_refusal(f, w, rounds)
    )
    options = tuple(o for o in OPTIONS if overpower_refusal(state, f, o, None) is None)
    ranged = bool({"throw", "burst"} & set(kinds)) or (
        "attack" in kinds and maneuver_for(state, f) in ("shoot", "throw")
    )
    refusals: set[str] = set()
    if TARGETED & set(kinds):
        refusals.add("hunter.act.needs_target")
    for kind in PLANNED & set(kinds):
        refusals |= {k for t in targets if (k := plan_refusal(state, f, kind, t)) is not None}
    if ranged:
        refusals.add("hunter.attack.out_of_range")  # ``distance``: against the range in use
        if full(cover_of(state, f)):
            refusals.add("hunter.attack.in_full_cover")  # unless ``leave_cover`` (H-COV-3)
    if "burst" in kinds:
        refusals.add("hunter.attack.avoid_single_shot")  # ``avoid``: a single shot's (H-MEL-1)
    if "draw" in kinds or ("overpower" in kinds and "draw" in options):
        refusals.add("hunter.draw.not_carried")  # ``weapon``: the one to draw
    return CommandTemplate(
        "act",
        f.id,
        (
            Param("kind", "choice", kinds),
            Param("target", "choice", targets, required=False),
            Param("weapon", "choice", f.weapons, required=False),
            Param("range", "choice", BANDS, required=False, default=""),  # "": the map's band
            Param("burst", "choice", bursts, required=False),
            Param("option", "choice", options, required=False),
            Param("all_out", "bool", required=False, default=False),
            Param("off_hand", "bool", required=False, default=False),
            Param("targets", "text", required=False),
            Param("object", "choice", throwable(state, f.id), required=False),
            Param("distance", "int", required=False, min=0, max=2000),
            Param("avoid", "int", required=False, min=0, max=10),
            Param("avoid_grappling", "bool", required=False, default=False),
            Param("ally", "choice", others, required=False),
            Param("far", "bool", required=False, default=False),
            Param("leave_cover", "bool", required=False, default=False),
            Param("athletics_dodge", "bool", required=False, default=False),
        ),
        rule="H-INI-1",
        refusals=frozenset(refusals),
    )


def legal_commands(state: HunterState, actor: str | None = None) -> list[CommandTemplate]:
    """What ``actor`` may do now; when None, what anyone may (the game master's tools first)."""
    if actor is None:
        out = gm_commands(state)
        for fid in state.fighters:
            out += fighter_commands(state, fid)
        return out
    return fighter_commands(state, actor)


def map_commands(state: HunterState) -> list[CommandTemplate]:
    """The battle map's commands: place a fighter, draw a cover zone, erase one."""
    out = [
        CommandTemplate(
            "gm_place",
            None,
            (Param("fighter", "choice", tuple(state.fighters)), Param("to", "position")),
            rule="H-RNG-1",
            dice=False,
        ),
        CommandTemplate(
            "gm_zone",
            None,
            (Param("points", "text", required=False), Param("level", "choice", zone_levels())),
            rule="H-COV-1",
            refusals=frozenset({"hunter.gm.zone_points"}),  # the corners: free text
            dice=False,
        ),
    ]
    if state.zones:
        out.append(
            CommandTemplate(
                "gm_unzone",
                None,
                (Param("zone", "choice", tuple(state.zones)),),
                rule="H-COV-1",
                dice=False,
            )
        )
    return out


def gm_commands(state: HunterState) -> list[CommandTemplate]:
    """The game master's commands: the turn, the ambush, cover, damage, experience."""
    ids = tuple(state.fighters)
    out: list[CommandTemplate] = []
    if state.phase != "over":
        out.append(CommandTemplate("initiative", None, (), rule="H-INI-1"))
    if state.phase == "setup":
        out.append(
            CommandTemplate(
                "ambush", None, (Param("fighter", "choice", ids),), rule="H-AMB-1", dice=True
            )
        )
    out.append(
        CommandTemplate(
            "gm_cover",
            None,
            (Param("fighter", "choice", ids), Param("cover", "choice", tuple(COVER_PENALTY))),
            rule="H-COV-1",
            dice=False,
        )
    )
    out += map_commands(state)
    out.append(
        CommandTemplate(
            "gm_damage",
            None,
            (
                Param("fighter", "choice", ids),
                Param("amount", "int", min=1, max=30),
                Param("damage_type", "choice", ("bashing", "lethal", "aggravated")),
            ),
            rule="H-ATK-3",
            dice=True,  # marked damage may call for a roll (mark_damage: staying conscious)
        )
    )
    standing = tuple(fid for fid, f in state.fighters.items() if f.able)
    if state.phase != "over" and standing:
        out.append(
            CommandTemplate(
                WITHDRAW, None, (Param("fighter", "choice", standing),), "H-INI-1", dice=False
            )
        )
    hunters = tuple(fid for fid, f in state.fighters.items() if f.kind == "hunter")
    if hunters:
        out.append(
            CommandTemplate(
                "gm_xp_reset",
                None,
                (Param("fighter", "choice", hunters),),
                rule="H-XP-2",
                dice=False,
            )
        )
    return out


def fighter_commands(state: HunterState, actor: str) -> list[CommandTemplate]:
    """What one fighter may do now (its action when due, a dodge, a quick draw...)."""
    out: list[CommandTemplate] = []
    f = state.fighters.get(actor)
    if f is None or not f.able or state.phase != "resolution":
        return out
    if turn.due(state) == actor:
        out.append(act_template(state, f))
        after = turn.waitable(state, actor)
        if after:
            out.append(
                CommandTemplate(
                    "delay", actor, (Param("after", "choice", after),), rule="H-DEL-1", dice=False
                )
            )
        out.append(CommandTemplate("pass", actor, (), rule="H-INI-1"))
    if dodge_refusal(state, f) is None:
        out.append(CommandTemplate("dodge", actor, (), rule="H-DODGE-1"))
    if "quick_draw" in f.merits and f.weapons:
        out.append(
            CommandTemplate(
                "quick_draw", actor, (Param("weapon", "choice", f.weapons),), rule="H-DRAW-1"
            )
        )
    if f.aim:
        out.append(CommandTemplate("stop_aiming", actor, (), rule="H-AIM-1"))
    return out
