"""The game master stays in charge: modifiers, damage and healing by hand, conditions,
complications, custom maneuvers (V-CC-0), notes. Each is an event like any other.
"""

from __future__ import annotations

from typing import Any

from conteur.engine import Command, CommandTemplate, Param, Resolution
from conteur.engine.geometry import parse_position
from conteur.i18n import ConteurError

from . import equipment
from .actions import fighter
from .events import (
    ComplicationChosen,
    ConditionSet,
    CoverTaken,
    DamageTaken,
    GmNote,
    Healed,
    ManeuverDefined,
    ModifierAdded,
    Moved,
    WeaponChanged,
    WillpowerSpent,
)
from .health import DAMAGE_TYPES
from .state import VtmState

CONDITIONS = (
    "knocked_down",
    "dazed",
    "prone",
    "blinded",
    "no_room",
    "unconscious",
    "in_combat",
    "immobilised",
    "disarmed",
    "running",
)


def _reason(command: Command) -> str:
    reason = str(command.get("reason", "") or "").strip()
    if not reason:
        raise ConteurError("vtm.gm.reason")
    return reason


def modifier(ctx: Resolution, command: Command) -> None:
    """Dice ± and difficulty ± on a fighter's next roll, with the reason (logged)."""
    f = fighter(ctx.state, command.get("fighter"))
    dice = int(command.get("dice", 0) or 0)
    diff = int(command.get("difficulty", 0) or 0)
    if not dice and not diff:
        raise ConteurError("vtm.gm.empty_modifier")
    ctx.emit(ModifierAdded(f.id, dice, diff, _reason(command)))


def damage(ctx: Resolution, command: Command) -> None:
    """Health levels marked by hand (V-DMG-3, V-DMG-5)."""
    f = fighter(ctx.state, command.get("fighter"))
    kind = str(command.get("damage_type", "lethal"))
    if kind not in DAMAGE_TYPES:
        raise ConteurError("vtm.gm.damage_type", value=kind)
    levels = int(command.get("levels", 1))
    if levels < 1:
        raise ConteurError("vtm.gm.levels", value=levels)
    ctx.emit(DamageTaken(f.id, levels, kind, rules=("V-DMG-3", "V-DMG-5")))


def heal(ctx: Resolution, command: Command) -> None:
    """Health levels cleared by hand (least severe first, or of one type)."""
    f = fighter(ctx.state, command.get("fighter"))
    kind = command.get("damage_type")
    if kind is not None and kind not in DAMAGE_TYPES:
        raise ConteurError("vtm.gm.damage_type", value=kind)
    levels = int(command.get("levels", 1))
    if levels < 1:
        raise ConteurError("vtm.gm.levels", value=levels)
    ctx.emit(Healed(f.id, levels, kind, rules=("V-DMG-5",)))


def condition(ctx: Resolution, command: Command) -> None:
    """Set or clear a condition (``value`` false clears it)."""
    f = fighter(ctx.state, command.get("fighter"))
    name = str(command.get("condition", ""))
    if name not in CONDITIONS:
        raise ConteurError("vtm.gm.condition", value=name, known=", ".join(CONDITIONS))
    value: Any = command.get("value", True)
    ctx.emit(
        ConditionSet(
            f.id,
            name,
            value if value not in (False, "off", "non", "no") else None,
            rules=("V-DMG-7",),
        )
    )


def complication(ctx: Resolution, command: Command) -> None:
    """Complete the oldest open botch of a fighter with a complication (V-ATK-5)."""
    state: VtmState = ctx.state
    f = fighter(state, command.get("fighter"))
    if not any(b["fighter"] == f.id and b["complication"] is None for b in state.botches):
        raise ConteurError("vtm.gm.no_botch", fighter=f.name)
    text = str(command.get("text", "") or "")
    ref = command.get("id")
    if ref:
        found = {c.id: c for c in equipment.tables(state).complications}
        if ref not in found:
            raise ConteurError("vtm.gm.complication", value=ref, known=", ".join(found))
        text = found[ref].text.get(None)
    if not text:
        raise ConteurError("vtm.gm.reason")
    ctx.emit(ComplicationChosen(f.id, text, rules=("V-ATK-5",)))


def define_maneuver(ctx: Resolution, command: Command) -> None:
    """A maneuver of the table's own, approved by the Conteur (V-CC-0), validated as data."""
    spec = dict(command.get("spec") or {})
    mid = str(command.get("id") or spec.get("id") or "").strip()
    if not mid:
        raise ConteurError("vtm.gm.maneuver_id")
    spec["id"] = mid
    spec.setdefault("custom", True)
    equipment.custom_maneuver(mid, spec)  # raises a ConteurError naming the field when invalid
    ctx.emit(ManeuverDefined(mid, spec, rules=("V-CC-0",)))


def note(ctx: Resolution, command: Command) -> None:
    """A line of the game master's in the log."""
    ctx.emit(GmNote(_reason(command)))


def move(ctx: Resolution, command: Command) -> None:
    """Place a fighter by hand (metres)."""
    f = fighter(ctx.state, command.get("fighter"))
    try:
        x, y = parse_position(command.get("to"))
    except (ValueError, TypeError, IndexError):
        raise ConteurError("vtm.gm.position", value=str(command.get("to"))) from None
    ctx.emit(Moved(f.id, x, y, 0.0))


def cover(ctx: Resolution, command: Command) -> None:
    """Set a fighter's cover: 0 none, 1 light, 2 good, 3 superior (V-RNG-3)."""
    f = fighter(ctx.state, command.get("fighter"))
    level = int(command.get("level", 0))
    if level not in (0, 1, 2, 3):
        raise ConteurError("vtm.gm.cover", value=level)
    ctx.emit(CoverTaken(f.id, level, rules=("V-RNG-3",)))


def weapon(ctx: Resolution, command: Command) -> None:
    """Put a weapon in a fighter's hand (or none)."""
    f = fighter(ctx.state, command.get("fighter"))
    ref = command.get("weapon")
    ctx.emit(WeaponChanged(f.id, equipment.weapon(ctx.state, str(ref)).id if ref else None))


def willpower(ctx: Resolution, command: Command) -> None:
    """Spend (positive) or restore (negative) Willpower points by hand."""
    f = fighter(ctx.state, command.get("fighter"))
    amount = int(command.get("amount", 1))
    ctx.emit(WillpowerSpent(f.id, amount, "gm"))


def templates(state: VtmState) -> list[CommandTemplate]:
    """The game master's commands, always available."""
    ids = tuple(state.fighters)
    who = Param("fighter", "choice", ids)
    return [
        CommandTemplate(
            "gm_modifier",
            None,
            (
                who,
                Param("dice", "int", min=-10, max=10, default=0),
                Param("difficulty", "int", min=-5, max=5, default=0),
                Param("reason", "text"),
            ),
        ),
        CommandTemplate(
            "gm_damage",
            None,
            (
                who,
                Param("levels", "int", min=1, max=10, default=1),
                Param("damage_type", "choice", DAMAGE_TYPES),
            ),
        ),
        CommandTemplate("gm_heal", None, (who, Param("levels", "int", min=1, max=10, default=1))),
        CommandTemplate(
            "gm_condition",
            None,
            (who, Param("condition", "choice", CONDITIONS), Param("value", "bool", default=True)),
        ),
        CommandTemplate(
            "gm_cover", None, (who, Param("level", "int", min=0, max=3)), rule="V-RNG-3"
        ),
        CommandTemplate("gm_note", None, (Param("reason", "text"),)),
        CommandTemplate(
            "gm_maneuver", None, (Param("id", "text"), Param("spec", "text")), rule="V-CC-0"
        ),
        *(
            [
                CommandTemplate(
                    "gm_complication",
                    None,
                    (
                        Param(
                            "fighter",
                            "choice",
                            tuple(
                                {b["fighter"] for b in state.botches if b["complication"] is None}
                            ),
                        ),
                        Param("text", "text"),
                    ),
                    rule="V-ATK-5",
                )
            ]
            if any(b["complication"] is None for b in state.botches)
            else []
        ),
    ]
