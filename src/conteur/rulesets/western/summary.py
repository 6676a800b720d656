"""Where each fighter stands: PV, fate, reputation, ammunition (JSON-ready, and in prose)."""

from __future__ import annotations

from typing import Any

from conteur.i18n import Lang, t

from .state import Fighter, WesternState


def summary(state: WesternState) -> list[dict[str, Any]]:
    """One entry per fighter, in the scenario's order."""
    return [fighter_summary(state, f) for f in state.fighters.values()]


def fighter_summary(state: WesternState, f: Fighter) -> dict[str, Any]:
    hurt = f.pv < f.pv_max
    return {
        "id": f.id,
        "name": f.name,
        "side": f.side,
        "health": f"{f.pv}/{f.pv_max} PV" + (" /" if hurt else ""),
        "pv": f.pv,
        "pv_max": f.pv_max,
        "fate": f.fate,
        "level": "incapacitated" if f.fate in ("out", "unconscious") else None,
        "reputation": f.reputation,
        "ammo": dict(sorted(f.ammo.items())),
        "weapon": f.weapons[0] if f.weapons else None,
        "off_hand": f.off_hand,
        "position": [round(f.position[0], 2), round(f.position[1], 2)],
        "unconscious": f.unconscious,
    }


def summary_lines(state: WesternState, lang: Lang) -> list[str]:
    """``Bill : 12/17 PV · réputation 9 · hors de combat``."""
    lines = []
    for f in state.fighters.values():
        parts = [t("western.summary.pv", lang, pv=f.pv, pv_max=f.pv_max)]
        parts.append(t("western.summary.reputation", lang, reputation=f.reputation))
        for hand, rounds in sorted(f.ammo.items()):
            parts.append(
                t("western.summary.ammo", lang, hand=t(f"word.{hand}", lang), rounds=rounds)
            )
        if f.fate != "alive":
            parts.append(t(f"western.fate.{f.fate}", lang))
        lines.append(t("western.summary.line", lang, fighter=f.name, parts=" · ".join(parts)))
    return lines
