"""Where each fighter stands: health track (``/`` ``X`` ``*``), fate, ammunition, states."""

from __future__ import annotations

from typing import Any

from conteur.i18n import Lang, catalog, t

from .state import Fighter, HunterState


def summary(state: HunterState) -> list[dict[str, Any]]:
    """One entry per fighter, in the scenario's order (JSON-ready)."""
    return [fighter_summary(state, f) for f in state.fighters.values()]


def conditions(f: Fighter) -> dict[str, Any]:
    found: dict[str, Any] = {
        "surprised": f.surprised,
        "dodging": f.dodging,
        "all_out": f.all_out,
        "aim": f.aim,
        "holding": f.holding,
        "held_by": f.held_by,
        "immobilised": f.immobilised,
        "prone": f.prone,
        "shield": f.shield,
        "delay": f.delay_after,
    }
    return {k: v for k, v in found.items() if v not in (None, False, 0)}


def fighter_summary(state: HunterState, f: Fighter) -> dict[str, Any]:
    """H-HLT-1: the track as on a sheet (``/`` bashing, ``X`` lethal, ``*`` aggravated)."""
    return {
        "id": f.id,
        "name": f.name,
        "side": f.side,
        "kind": f.kind,
        "health": f.health.marks(),
        "level": f.fate if f.fate != "alive" else None,
        "penalty": f.health.penalty,
        "fate": f.fate,
        "initiative": f.initiative,
        "weapon": f.weapon,
        "ammo": dict(sorted(f.ammo.items())),
        "cover": f.cover,
        "conditions": conditions(f),
    }


def _word(value: str, lang: Lang) -> str:
    key = f"hunter.word.{value}"
    return t(key, lang) if key in catalog() else value.replace("_", " ")


def summary_lines(state: HunterState, lang: Lang) -> list[str]:
    """One line per fighter: ``Ana : santé [X][/][ ]… · fusil à pompe : 4 balles``."""
    lines = []
    for f in state.fighters.values():
        parts = [t("hunter.summary.health", lang, track=f.health.marks())]
        if f.fate != "alive":
            parts.append(_word(f.fate, lang))
        for wid, rounds in sorted(f.ammo.items()):
            parts.append(
                t(
                    "hunter.summary.ammo",
                    lang,
                    weapon=state.tables.weapon(wid).label(lang),
                    rounds=rounds,
                )
            )
        shown = [_word(k, lang) for k in conditions(f) if k not in ("aim", "delay")]
        if shown:
            parts.append(", ".join(shown))
        lines.append(t("hunter.summary.line", lang, fighter=f.name, parts=" · ".join(parts)))
    return lines
