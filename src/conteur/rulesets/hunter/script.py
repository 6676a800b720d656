"""The script language (French or English words): one line → one ``Command``.

``initiative`` · ``embuscade bob`` · ``couvert bob partiel`` · ``dégâts bob 2 létal`` ·
``ana: tire sur bête portée moyenne`` · ``ana: rafale longue bête goule`` ·
``bob: empoigne bête`` · ``bob: domine renverse`` · ``ana: retarde après bob``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from conteur.engine import Command
from conteur.i18n import ConteurError

from .sheet import normalize
from .state import HunterState

ACT_KINDS = frozenset(
    {"attack", "throw", "burst", "grapple", "escape", "overpower", "aim", "reload", "draw"}
)
GM = frozenset({"initiative", "ambush", "gm_cover", "gm_damage", "undo"})


@lru_cache(maxsize=1)
def words() -> dict[str, Any]:
    text = resources.files("conteur.rulesets.hunter").joinpath("data", "script.yaml")
    data: dict[str, Any] = yaml.safe_load(text.read_text("utf-8"))
    return data


def fighter_ids(state: HunterState) -> dict[str, str]:
    out: dict[str, str] = {}
    for f in state.fighters.values():
        out[normalize(f.name)] = f.id
        out[normalize(f.id)] = f.id
    return out


def parse_line(line: str, state: HunterState) -> Command:
    """Read one script line (ConteurError ``hunter.script.*`` naming the word not understood)."""
    text = line.strip()
    actor: str | None = None
    who = fighter_ids(state)
    m = re.match(r"^([^:]+):\s*(.*)$", text)
    if m:
        head = normalize(m.group(1))
        if head in ("mj", "gm", "conteur"):
            text = m.group(2)
        elif head in who:
            actor, text = who[head], m.group(2)
        else:
            raise ConteurError("hunter.script.unknown_fighter", word=m.group(1).strip())
    tokens = [normalize(t) for t in re.split(r"[\s,;]+", text) if t.strip()]
    if not tokens:
        raise ConteurError("hunter.script.empty")
    w = words()
    verb = w["verbs"].get(tokens[0])
    if verb is None:
        raise ConteurError("hunter.script.unknown_verb", word=tokens[0])
    rest = tokens[1:]
    if (verb in GM) != (actor is None):
        raise ConteurError("hunter.script.who", word=tokens[0])
    if verb in ("initiative", "undo"):
        return Command(verb)
    if verb == "ambush":
        return Command("ambush", None, {"fighter": _fighter(rest, who)})
    if verb == "gm_cover":
        level = next((w["cover"][t] for t in rest if t in w["cover"]), None)
        if level is None:
            raise ConteurError("hunter.script.missing", word="cover")
        return Command("gm_cover", None, {"fighter": _fighter(rest, who), "cover": level})
    if verb == "gm_damage":
        numbers = [int(t) for t in rest if t.isdigit()]
        kind = next((w["damage_types"][t] for t in rest if t in w["damage_types"]), "lethal")
        if not numbers:
            raise ConteurError("hunter.script.missing", word="amount")
        args = {"fighter": _fighter(rest, who), "amount": numbers[0], "damage_type": kind}
        return Command("gm_damage", None, args)
    if verb in ("pass", "dodge", "stop_aiming"):
        return Command(verb, actor)
    if verb == "delay":
        return Command("delay", actor, {"after": _fighter(rest, who)})
    if verb == "quick_draw":
        return Command("quick_draw", actor, {"weapon": _weapon_word(rest, state)})
    return Command("act", actor, _act_args(verb, rest, who, state))


def _fighter(tokens: list[str], who: dict[str, str]) -> str:
    for t in tokens:
        if t in who:
            return who[t]
    raise ConteurError("hunter.script.missing", word="fighter")


def weapon_words(state: HunterState) -> dict[str, str]:
    """Each weapon by its id and its one-word French or English name (``pneu``, ``tyre``)."""
    out: dict[str, str] = {}
    for w in state.tables.weapons.values():
        out[normalize(w.fr)] = out[normalize(w.en)] = w.id
        out[w.id] = w.id
    return out


def _weapon_word(tokens: list[str], state: HunterState) -> str:
    named = weapon_words(state)
    for t in tokens:
        if t in named:
            return named[t]
    raise ConteurError("hunter.script.missing", word="weapon")


def _act_args(
    verb: str, tokens: list[str], who: dict[str, str], state: HunterState
) -> dict[str, Any]:
    w = words()
    args: dict[str, Any] = {"kind": verb}
    targets: list[str] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if t in w["flags"]:
            args[w["flags"][t]] = True
        elif t in w["valued"]:
            key = w["valued"][t]
            if nxt is None:
                raise ConteurError("hunter.script.missing", word=t)
            i += 1
            if key == "range":
                if nxt not in w["bands"]:
                    raise ConteurError("hunter.script.unknown_word", word=nxt)
                args["range"] = w["bands"][nxt]
            elif key in ("distance", "avoid"):
                if not nxt.isdigit():
                    raise ConteurError("hunter.script.unknown_word", word=nxt)
                args[key] = int(nxt)
            elif key == "ally":
                args["ally"] = who.get(nxt, nxt)
            else:
                args[key] = weapon_words(state).get(nxt, nxt)
        elif verb == "burst" and "burst" not in args and t in w["bands"]:
            args["burst"] = w["bands"][t]
        elif verb == "overpower" and "option" not in args and t in w["options"]:
            args["option"] = w["options"][t]
        elif t in who:
            targets.append(who[t])
        elif verb in ("throw", "draw") and t in weapon_words(state):
            args["object" if verb == "throw" else "weapon"] = weapon_words(state)[t]
        elif t in w["fillers"]:
            pass
        else:
            raise ConteurError("hunter.script.unknown_word", word=t)
        i += 1
    if verb == "burst":
        if targets:
            args["targets"] = targets
    elif targets:
        args["target"] = targets[0]
    return args
