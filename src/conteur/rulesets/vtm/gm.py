"""The game master stays in charge ("Le Conteur doit être souple en arbitrant un combat").

Modifiers, damage and healing by hand, conditions, complications, custom
maneuvers (V-CC-0), notes, positions, cover, weapons, Willpower, and
``gm_override``, which sets a fighter's health, Willpower, blood, ammunition
or conditions outright. Each is a command like any other: its events go to
the log, it can be undone, and a replay plays it again.

Every argument is checked before anything happens; a bad one is refused
with an error naming the field (``ConteurError.params["field"]``) and the
state is left as it was.

Game-master modifiers (``gm_modifier``) wait for the fighter's next *action
roll*: an attack, a block, dodge or parry, an ambush or alertness roll,
breaking free of a hold (V-CC-7, V-CC-8), or the roll of an ``other``
action; that roll uses all of them at once (``ModifiersUsed``). Reflexive
rolls — soak, the Willpower roll to abort — do not take them: they are no
action and the text keeps them apart (no wound penalty either, V-SOAK-3,
V-MAN-3). To change a soak, the game master marks or heals the levels by
hand (``gm_damage``, ``gm_heal``, ``gm_override``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from conteur.engine import Command, CommandTemplate, Param, Resolution
from conteur.engine.battlemap import new_zone_id, parse_points
from conteur.engine.geometry import distance, parse_position
from conteur.i18n import ConteurError

from . import equipment
from .asks import soak_ask
from .defence_events import OVERRIDE_FIELDS, GmOverride
from .dice import VtmPool
from .events import (
    Burned,
    ComplicationChosen,
    ConditionSet,
    CoverTaken,
    CoverZoneDrawn,
    CoverZoneErased,
    DamageTaken,
    GmNote,
    Healed,
    ManeuverDefined,
    ModifierAdded,
    Moved,
    SoakRolled,
    WeaponChanged,
    WillpowerSpent,
)
from .health import DAMAGE_TYPES, SEVERITY
from .soak import soak_pool
from .state import Fighter, VtmState
from .strike import SOAK_DIFFICULTY
from .traits import normalize_key
from .turn import advance

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
    "no_wound_penalties",
)
OFF = (False, None, "off", "non", "no", "false", 0)
MARKS = {
    "b": "bashing",
    "l": "lethal",
    "a": "aggravated",
    "x": "aggravated",
    "contondant": "bashing",
    "contondants": "bashing",
    "letal": "lethal",
    "letaux": "lethal",
    "aggrave": "aggravated",
    "aggraves": "aggravated",
}
"""Health marks as typed: letters (``LLB``), English or French damage types."""
MAX_BLOOD = 100


# ------------------------------------------------------------------ checking arguments


def _bad(field: str, value: Any, key: str = "vtm.gm.field", **params: Any) -> ConteurError:
    return ConteurError(key, field=field, value=_shown(value), **params)


def _shown(value: Any) -> str:
    return "—" if value is None or value == "" else str(value)


@contextmanager
def _field(name: str) -> Iterator[None]:
    """Errors raised while reading ``name`` name that field."""
    try:
        yield
    except ConteurError as err:
        err.params.setdefault("field", name)
        raise


def _fighter(state: VtmState, command: Command) -> Fighter:
    fid = command.get("fighter")
    if not isinstance(fid, str) or fid not in state.fighters:
        raise ConteurError("vtm.unknown_fighter", field="fighter", name=_shown(fid))
    return state.fighters[fid]


def _int(
    command: Command,
    name: str,
    default: int | None,
    low: int,
    high: int,
    key: str = "vtm.gm.field",
) -> int:
    """An integer argument within ``low..high`` (``vtm.gm.field`` naming it otherwise)."""
    raw = command.get(name, default)
    value: int | None = None
    if not isinstance(raw, bool) and raw is not None:
        try:
            value = int(str(raw).strip())
        except ValueError:
            value = None
    if value is None or not low <= value <= high:
        raise _bad(name, raw, key=key, low=low, high=high)
    return value


def _text(command: Command, name: str) -> str:
    text = command.get(name)
    if not isinstance(text, str) or not text.strip():
        raise ConteurError("vtm.gm.reason", field=name)
    return text.strip()


def _reason(command: Command) -> str:
    return _text(command, "reason")


def carry_on(ctx: Resolution) -> None:
    """After the game master changed who can act (wounds, conditions), the turn moves on:
    a fighter now out of the fight or dazed loses the action due (V-DMG-5, V-DMG-7)."""
    if ctx.state.phase in ("resolution", "end_of_turn"):
        advance(ctx)


# ------------------------------------------------------------------ commands


def modifier(ctx: Resolution, command: Command) -> None:
    """Dice ± and difficulty ± on a fighter's next action roll, with the reason (logged)."""
    f = _fighter(ctx.state, command)
    dice = _int(command, "dice", 0, -20, 20)
    diff = _int(command, "difficulty", 0, -8, 8)
    if not dice and not diff:
        raise ConteurError("vtm.gm.empty_modifier", field="dice")
    ctx.emit(ModifierAdded(fighter=f.id, dice=dice, difficulty=diff, reason=_reason(command)))


GM_DAMAGE_TYPES = (*DAMAGE_TYPES, equipment.FIRE)
"""What ``gm_damage`` deals: levels marked by hand, or fire, which the victim soaks."""


def damage(ctx: Resolution, command: Command) -> None:
    """Health levels marked by hand (V-DMG-3, V-DMG-5); fire is soaked first (V-SOAK-1)."""
    f = _fighter(ctx.state, command)
    kind = command.get("damage_type", "lethal")
    if kind not in GM_DAMAGE_TYPES:
        raise ConteurError("vtm.gm.damage_type", field="damage_type", value=_shown(kind))
    levels = _int(command, "levels", 1, 1, 20, key="vtm.gm.levels")
    if kind == equipment.FIRE:
        burn(ctx, f, levels)
    else:
        ctx.emit(
            DamageTaken(
                target=f.id, levels=levels, damage_type=str(kind), rules=("V-DMG-3", "V-DMG-5")
            )
        )
    carry_on(ctx)


def burn(ctx: Resolution, f: Fighter, levels: int) -> None:
    """Fire: ``levels`` of aggravated damage (V-DMG-3) that only Fortitude soaks, never
    Stamina nor armour (V-SOAK-1, V-SOAK-2, V-ARM-1); the soak is reflexive, difficulty
    6, and never botches (V-SOAK-3)."""
    state: VtmState = ctx.state
    pool = soak_pool(f, "aggravated", equipment.FIRE, state)
    ctx.emit(
        Burned(target=f.id, levels=levels, soak=pool, rules=("V-DMG-3", "V-SOAK-1", "V-ARM-1"))
    )
    soaked = 0
    if pool > 0:
        ones = bool(state.options.get("damage_ones_cancel", False))
        record = ctx.dice.roll(
            VtmPool(pool, SOAK_DIFFICULTY, ones_cancel=ones, can_botch=False),
            soak_ask(f.id, f.name, pool),
        )
        soaked = record.result.successes
        rules = ("V-SOAK-2", "V-SOAK-3")
        ctx.emit(SoakRolled(target=f.id, pool=pool, successes=soaked, rules=rules, rolls=(record,)))
    if levels > soaked:
        ctx.emit(
            DamageTaken(
                target=f.id,
                levels=levels - soaked,
                damage_type="aggravated",
                rules=("V-DMG-3", "V-DMG-5"),
            )
        )


def heal(ctx: Resolution, command: Command) -> None:
    """Health levels cleared by hand (least severe first, or of one type)."""
    f = _fighter(ctx.state, command)
    kind = command.get("damage_type")
    if kind is not None and kind not in DAMAGE_TYPES:
        raise ConteurError("vtm.gm.damage_type", field="damage_type", value=_shown(kind))
    levels = _int(command, "levels", 1, 1, 20, key="vtm.gm.levels")
    ctx.emit(Healed(target=f.id, levels=levels, damage_type=kind, rules=("V-DMG-5",)))


def _condition_name(value: Any, field: str = "condition") -> str:
    if value not in CONDITIONS:
        raise ConteurError(
            "vtm.gm.condition", field=field, value=_shown(value), known=", ".join(CONDITIONS)
        )
    return str(value)


def condition(ctx: Resolution, command: Command) -> None:
    """Set or clear a condition (``value`` false clears it)."""
    f = _fighter(ctx.state, command)
    name = _condition_name(command.get("condition"))
    value: Any = command.get("value", True)
    if isinstance(value, list):
        value = tuple(value)  # events hold tuples: the stored log reads back the same
    ctx.emit(
        ConditionSet(
            target=f.id, condition=name, value=None if value in OFF else value, rules=("V-DMG-7",)
        )
    )
    carry_on(ctx)


def complication(ctx: Resolution, command: Command) -> None:
    """Complete the oldest open botch of a fighter with a complication (V-ATK-5)."""
    state: VtmState = ctx.state
    f = _fighter(state, command)
    if not any(b["fighter"] == f.id and b["complication"] is None for b in state.botches):
        raise ConteurError("vtm.gm.no_botch", rule="V-ATK-5", field="fighter", fighter=f.name)
    ref = command.get("id")
    if ref:
        found = {c.id: c for c in equipment.tables(state).complications}
        if ref not in found:
            raise ConteurError(
                "vtm.gm.complication", field="id", value=_shown(ref), known=", ".join(found)
            )
        chosen = found[ref].text
        ctx.emit(
            ComplicationChosen(fighter=f.id, text=chosen.fr, text_en=chosen.en, rules=("V-ATK-5",))
        )
        return
    ctx.emit(ComplicationChosen(fighter=f.id, text=_text(command, "text"), rules=("V-ATK-5",)))


def define_maneuver(ctx: Resolution, command: Command) -> None:
    """A maneuver of the table's own, approved by the Conteur (V-CC-0), validated as data."""
    raw = command.get("spec") or {}
    if not isinstance(raw, Mapping):
        raise _bad("spec", raw, key="vtm.gm.spec")
    spec = dict(raw)
    mid = command.get("id") or spec.get("id") or ""
    if not isinstance(mid, str) or not mid.strip():
        raise ConteurError("vtm.gm.maneuver_id", field="id")
    mid = mid.strip()
    spec["id"] = mid
    spec.setdefault("custom", True)
    with _field("spec"):
        equipment.custom_maneuver(mid, spec)  # a ConteurError naming the bad field of the spec
    ctx.emit(ManeuverDefined(maneuver=mid, spec=spec, rules=("V-CC-0",)))


def note(ctx: Resolution, command: Command) -> None:
    """A line of the game master's in the log."""
    ctx.emit(GmNote(text=_reason(command)))


def move(ctx: Resolution, command: Command) -> None:
    """Place a fighter by hand (metres)."""
    f = _fighter(ctx.state, command)
    raw = command.get("to")
    try:
        x, y = parse_position(raw)
    except (ValueError, TypeError, IndexError):
        raise ConteurError("vtm.gm.position", field="to", value=_shown(raw)) from None
    ctx.emit(Moved(fighter=f.id, x=x, y=y, metres=round(distance(f.position, (x, y)), 2)))


def cover(ctx: Resolution, command: Command) -> None:
    """Set a fighter's cover: 0 none, 1 light, 2 good, 3 superior (V-RNG-3)."""
    f = _fighter(ctx.state, command)
    try:
        level = _int(command, "level", 0, 0, 3)
    except ConteurError:
        raise ConteurError(
            "vtm.gm.cover", field="level", value=_shown(command.get("level"))
        ) from None
    ctx.emit(CoverTaken(fighter=f.id, level=level, rules=("V-RNG-3",)))


def zone(ctx: Resolution, command: Command) -> None:
    """Draw a cover zone on the map: a polygon (``points``, ``"x,y x,y x,y"`` in metres) with
    a level of the cover table (``level``: its id or one of its words); whoever stands in it
    has that cover (V-RNG-3), read by the shots at them and by theirs."""
    raw = command.get("points")
    try:
        points = parse_points(raw)
    except (ValueError, TypeError):
        raise ConteurError("vtm.gm.zone_points", field="points", value=_shown(raw)) from None
    level = command.get("level")
    rows = list(equipment.tables(ctx.state).cover.values())
    if isinstance(level, int) and not isinstance(level, bool) and 1 <= level <= len(rows):
        row = rows[level - 1]  # the script's level: the table's row, 1 light ... 3 superior
    else:
        with _field("level"):
            row = equipment.tables(ctx.state).find_cover(str(level or ""))
    zid = new_zone_id(ctx.state.zones)
    ctx.emit(CoverZoneDrawn(zone=zid, points=points, level=row.id, rules=("V-RNG-3",)))


def unzone(ctx: Resolution, command: Command) -> None:
    """Erase a cover zone of the map."""
    zid = command.get("zone")
    found = ctx.state.zones.get(str(zid))
    if found is None:
        raise ConteurError("vtm.gm.zone_unknown", field="zone", value=_shown(zid))
    ctx.emit(CoverZoneErased(zone=found.id, level=found.level, rules=("V-RNG-3",)))


def weapon(ctx: Resolution, command: Command) -> None:
    """Put a weapon in a fighter's hand (any weapon of the era: picked up), or none."""
    f = _fighter(ctx.state, command)
    ref = command.get("weapon")
    if ref in (None, "", "none", "aucune"):
        ctx.emit(WeaponChanged(fighter=f.id, weapon=None))
        return
    with _field("weapon"):
        w = equipment.weapon(ctx.state, str(ref))
    ctx.emit(WeaponChanged(fighter=f.id, weapon=w.id))


def willpower(ctx: Resolution, command: Command) -> None:
    """Spend (positive ``amount``) or restore (negative) Willpower points by hand."""
    f = _fighter(ctx.state, command)
    amount = _int(command, "amount", 1, f.willpower - f.sheet.willpower, f.willpower)
    if amount == 0:
        raise _bad("amount", 0, low=f.willpower - f.sheet.willpower, high=f.willpower)
    ctx.emit(WillpowerSpent(fighter=f.id, amount=amount, reason="gm"))


def override(ctx: Resolution, command: Command) -> None:
    """Set a fighter's health, Willpower, blood, ammunition or conditions outright.

    ``health``: the boxes' damage types, worst first or not (``[lethal,
    bashing]``, or the letters ``"LB"``; ``[]`` heals all); ``willpower``:
    0..the sheet's rating; ``blood``: 0..100; ``ammo``: ``{weapon: rounds}``;
    ``conditions``: ``{name: value}`` (a false value clears). Every field is
    checked before any is set; ``reason`` is optional and logged.
    """
    state: VtmState = ctx.state
    f = _fighter(state, command)
    reason = str(command.get("reason") or "").strip()
    changes: list[tuple[str, Any]] = []
    for name in OVERRIDE_FIELDS:
        if name in command.args:
            changes.append((name, _override_value(state, f, command, name)))
    if not changes:
        raise ConteurError(
            "vtm.gm.override_empty", field="fighter", fields=", ".join(OVERRIDE_FIELDS)
        )
    for name, value in changes:
        ctx.emit(GmOverride(fighter=f.id, field=name, value=value, reason=reason))
    carry_on(ctx)


def _override_value(state: VtmState, f: Fighter, command: Command, name: str) -> Any:
    raw = command.get(name)
    if name == "health":
        marks = list(raw) if isinstance(raw, str | list | tuple) else None
        if marks is None:
            raise _bad(name, raw, key="vtm.gm.health", boxes=len(f.health.boxes))
        kinds = [MARKS.get(normalize_key(str(m)), normalize_key(str(m))) for m in marks]
        kinds = [k for k in kinds if k]
        if any(k not in SEVERITY for k in kinds) or len(kinds) > len(f.health.boxes):
            raise _bad(name, raw, key="vtm.gm.health", boxes=len(f.health.boxes))
        return tuple(sorted(kinds, key=lambda k: -SEVERITY[k]))
    if name == "willpower":
        return _int(command, name, None, 0, f.sheet.willpower)
    if name == "blood":
        return _int(command, name, None, 0, MAX_BLOOD)
    if name == "ammo":
        if not isinstance(raw, Mapping) or not raw:
            raise _bad(name, raw, key="vtm.gm.ammo")
        out: dict[str, int] = {}
        for ref, rounds in raw.items():
            with _field(name):
                w = equipment.weapon(state, str(ref))
            out[w.id] = _int(Command("gm", None, {name: rounds}), name, None, 0, 1000)
        return out
    if not isinstance(raw, Mapping) or not raw:
        raise _bad(name, raw, key="vtm.gm.conditions")
    return {
        _condition_name(key, name): (None if value in OFF else value) for key, value in raw.items()
    }


# ------------------------------------------------------------------ templates


def templates(state: VtmState) -> list[CommandTemplate]:
    """The game master's commands, always available (the Conteur stays in charge)."""
    ids = tuple(state.fighters)
    if not ids:
        return [CommandTemplate("gm_note", None, (Param("reason", "text"),))]
    who = Param("fighter", "choice", ids)
    out = [
        CommandTemplate(
            "gm_modifier",
            None,
            (
                who,
                Param("dice", "int", min=-20, max=20, default=0),
                Param("difficulty", "int", min=-8, max=8, default=0),
                Param("reason", "text"),
            ),
        ),
        CommandTemplate(
            "gm_damage",
            None,
            (
                who,
                Param("levels", "int", min=1, max=20, default=1),
                Param("damage_type", "choice", GM_DAMAGE_TYPES),
            ),
            rule="V-DMG-5",
        ),
        CommandTemplate(
            "gm_heal",
            None,
            (
                who,
                Param("levels", "int", min=1, max=20, default=1),
                Param("damage_type", "choice", DAMAGE_TYPES, required=False),
            ),
            rule="V-DMG-5",
        ),
        CommandTemplate(
            "gm_condition",
            None,
            (who, Param("condition", "choice", CONDITIONS), Param("value", "bool", default=True)),
        ),
        CommandTemplate("gm_move", None, (who, Param("to", "position"))),
        CommandTemplate(
            "gm_cover", None, (who, Param("level", "int", min=0, max=3)), rule="V-RNG-3"
        ),
        CommandTemplate(
            "gm_zone",
            None,
            (
                Param("points", "text"),
                Param("level", "choice", tuple(equipment.tables(state).cover)),
            ),
            rule="V-RNG-3",
        ),
        *(
            [CommandTemplate("gm_unzone", None, (Param("zone", "choice", tuple(state.zones)),))]
            if state.zones
            else []
        ),
        CommandTemplate(
            "gm_weapon",
            None,
            (
                who,
                Param("weapon", "choice", tuple(equipment.tables(state).weapons), required=False),
            ),
        ),
        CommandTemplate(
            "gm_willpower", None, (who, Param("amount", "int", min=-10, max=10, default=1))
        ),
        CommandTemplate(
            "gm_override",
            None,
            (
                who,
                Param("health", "text", required=False),
                Param("willpower", "int", min=0, max=10, required=False),
                Param("blood", "int", min=0, max=MAX_BLOOD, required=False),
                Param("ammo", "text", required=False),
                Param("conditions", "text", required=False),
                Param("reason", "text", required=False),
            ),
        ),
        CommandTemplate("gm_note", None, (Param("reason", "text"),)),
        CommandTemplate(
            "gm_maneuver", None, (Param("id", "text"), Param("spec", "text")), rule="V-CC-0"
        ),
    ]
    open_botches = tuple(
        dict.fromkeys(b["fighter"] for b in state.botches if b["complication"] is None)
    )
    if open_botches:
        out.append(
            CommandTemplate(
                "gm_complication",
                None,
                (
                    Param("fighter", "choice", open_botches),
                    Param("text", "text", required=False),
                    Param(
                        "id",
                        "choice",
                        tuple(c.id for c in equipment.tables(state).complications),
                        required=False,
                    ),
                ),
                rule="V-ATK-5",
            )
        )
    return out
