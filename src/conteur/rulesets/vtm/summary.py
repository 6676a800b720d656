"""Where each fighter stands: health track (``/`` and ``X``), Willpower, blood, ammunition.

``summary`` is JSON-ready (ids, numbers); ``summary_lines`` says it in French
or English for the end of a played script (``conteur play``).
"""

from __future__ import annotations

from typing import Any

from conteur.i18n import Lang, catalog, t

from . import equipment
from .state import Fighter, VtmState


def summary(state: VtmState) -> list[dict[str, Any]]:
    """One entry per fighter, in the scenario's order."""
    return [fighter_summary(state, f) for f in state.fighters.values()]


def fighter_summary(state: VtmState, f: Fighter) -> dict[str, Any]:
    """The health track as on a sheet (V-DMG-3: ``/`` bashing or lethal, ``X`` aggravated)..."""
    return {
        "id": f.id,
        "name": f.name,
        "side": f.side,
        "health": f.health.marks(),
        "level": f.health.level.key if f.health.level else None,
        "penalty": f.wound_penalty,
        "fate": f.fate,
        "willpower": f"{f.willpower}/{f.sheet.willpower}",
        "blood": f.blood if f.kind == "vampire" else None,
        "ammo": dict(sorted(f.ammo.items())),
        "weapon": f.weapon,
        "position": [round(f.position[0], 2), round(f.position[1], 2)],
        "cover": f.cover,
        "conditions": {
            k: v for k, v in sorted(f.conditions.json().items()) if v not in (None, False)
        },
    }


def _word(value: str, lang: Lang) -> str:
    key = f"word.{value}"
    return t(key, lang) if key in catalog() else value


def _weapon(state: VtmState, ref: str, lang: Lang) -> str:
    try:
        return equipment.weapon(state, ref).label(lang)
    except Exception:  # a weapon outside the tables keeps its id
        return ref


def summary_lines(state: VtmState, lang: Lang) -> list[str]:
    """One line per fighter: ``Bob : santé [/][/][ ]… · Volonté 4/5 · Colt : 3 balles``."""
    lines = []
    for f in state.fighters.values():
        s = fighter_summary(state, f)
        parts = [t("vtm.summary.health", lang, track=s["health"])]
        if s["fate"] != "alive":
            parts.append(_word(str(s["fate"]), lang))
        parts.append(t("vtm.summary.willpower", lang, willpower=s["willpower"]))
        if s["blood"] is not None:
            parts.append(t("vtm.summary.blood", lang, blood=s["blood"]))
        for weapon, rounds in s["ammo"].items():
            parts.append(
                t("vtm.summary.ammo", lang, weapon=_weapon(state, weapon, lang), rounds=rounds)
            )
        conditions = [_word(str(c), lang) for c in s["conditions"] if c != "aim"]
        if conditions:
            parts.append(", ".join(conditions))
        lines.append(t("vtm.summary.line", lang, fighter=f.name, parts=" · ".join(parts)))
    return lines
