"""The western script language (words in ``data/script.yaml``, French or English).

round                                   # the next round (GM)
bill: tire sur joe                      # the shot or blow due now
bill: tire sur joe vise tête mod -10    # aimed at a zone (no critical shift), GM modifier
bill: passe / recharge
mj: surprise joe soudain | attaqué
bill: approche garde : nuit, silence, peu de caches, 15 m
bill: assomme garde avec colt_saa
mj: ligote garde
mj: duel gagné par bill témoin
annuler
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import Any

import yaml

from conteur.engine import Command
from conteur.i18n import ConteurError

from .state import WesternState
from .tables import fold


@cache
def words() -> dict[str, Any]:
    text = (
        resources.files("conteur.rulesets.western")
        .joinpath("data/script.yaml")
        .read_text(encoding="utf-8")
    )
    data: dict[str, Any] = yaml.safe_load(text)
    return data


def _starts(text: str, forms: list[str]) -> tuple[str, str] | None:
    """The longest form ``text`` starts with (whole words), and the rest."""
    low = text.lower()
    for form in sorted(forms, key=len, reverse=True):
        f = form.lower()
        if low == f or low.startswith(f + " ") or low.startswith(f + ":"):
            return form, text[len(f) :].strip(" :")
    return None


def _split(rest: str, key: str) -> tuple[str, str | None]:
    """``rest`` cut at the first word of ``key`` (``vise``...), and what follows it."""
    forms = sorted(words()[key], key=len, reverse=True)
    pattern = r"\s+(?:" + "|".join(re.escape(f) for f in forms) + r")(?:\s+|$)"
    m = re.search(pattern, " " + rest, flags=re.IGNORECASE)
    if not m:
        return rest.strip(), None
    head = (" " + rest)[: m.start()].strip()
    return head, (" " + rest)[m.end() :].strip()


def _zone(state: WesternState, text: str) -> str:
    key = fold(text)
    for loc in state.tables.locations:
        if key in (fold(loc.id), fold(loc.fr), fold(loc.en)):
            return loc.id
    raise ConteurError(
        "western.unknown_zone", name=text, known=", ".join(loc.fr for loc in state.tables.locations)
    )


def parse_line(line: str, state: WesternState) -> Command:
    """One script line as a command (ConteurError ``western.script.unknown`` otherwise)."""
    text = line.strip()
    w = words()
    actor: str | None = None
    head, sep, tail = text.partition(":")
    if sep and not _starts(text, w["verbs"]["approach"]):
        who = head.strip()
        if fold(who) in {fold(g) for g in w["gm"]}:
            text = tail.strip()
        else:
            try:
                actor = state.fighter(who).id
                text = tail.strip()
            except ConteurError:
                actor = None
    elif sep:
        # "approche X : mods" has a colon of its own; a leading "name:" still counts
        try:
            actor = state.fighter(head.strip()).id
            text = tail.strip()
        except ConteurError:
            if fold(head.strip()) in {fold(g) for g in w["gm"]}:
                text = tail.strip()
    for verb, forms in w["verbs"].items():
        found = _starts(text, forms)
        if found is None:
            continue
        rest = found[1]
        if verb in ("round", "undo"):
            return Command(verb)
        if verb in ("pass", "reload", "run"):
            return Command(verb, actor)
        if verb == "attack":
            return _attack(state, actor, rest)
        if verb == "approach":
            target, _, mods = rest.partition(":")
            if not mods and "," in target:
                target, _, mods = target.partition(",")
            items = [m.strip() for m in mods.split(",") if m.strip()]
            args: dict[str, Any] = {"target": state.fighter(target.strip()).id}
            args["modifiers"] = [_stealth(state, m) for m in items]
            return Command("approach", actor, args)
        if verb == "knockout":
            who, obj = _split(rest, "with")
            args = {"target": state.fighter(who).id}
            if obj:
                args["weapon"] = state.tables.weapon(obj).id
            return Command("knockout", actor, args)
        if verb == "surprise":
            kind = "sudden"
            who = rest
            for k in ("attacked", "sudden"):
                for form in sorted(w[k], key=len, reverse=True):
                    if fold(rest).endswith(fold(form)):
                        kind = k
                        who = rest[: len(rest) - len(form)].strip()
                        break
                else:
                    continue
                break
            return Command("surprise", None, {"target": state.fighter(who).id, "surprise": kind})
        if verb == "bind":
            return Command("bind", None, {"target": state.fighter(rest).id})
        if verb == "duel_won":
            return _duel(state, rest)
    raise ConteurError("western.script.unknown", line=line)


def _attack(state: WesternState, actor: str | None, rest: str) -> Command:
    rest, mod = _split(rest, "modifier")
    rest, zone = _split(rest, "zone")
    target = rest.strip()
    for article in ("sur ", "at "):
        if target.lower().startswith(article):
            target = target[len(article) :]
    args: dict[str, Any] = {"target": state.fighter(target).id}
    if zone:
        args["zone"] = _zone(state, zone)
    if mod:
        try:
            args["modifier"] = int(mod.replace(" ", ""))
        except ValueError:
            raise ConteurError("western.script.bad_number", value=mod) from None
    return Command("attack", actor, args)


def _stealth(state: WesternState, item: str) -> str:
    from .knockout import stealth_entry

    return stealth_entry(state, item).id


def _duel(state: WesternState, rest: str) -> Command:
    w = words()
    witness: bool | None = None
    text = rest
    for key, value in (("no_witness", False), ("witness", True)):
        for form in sorted(w[key], key=len, reverse=True):
            if fold(text).endswith(fold(form)) and witness is None:
                witness = value
                text = text[: len(text) - len(form)].strip()
    side = text.strip()
    sides = {fold(f.side): f.side for f in state.fighters.values()}
    if fold(side) not in sides:
        try:
            side = state.fighter(side).side
        except ConteurError:
            raise ConteurError(
                "western.unknown_side", side=side, known=", ".join(sorted(set(sides.values())))
            ) from None
    else:
        side = sides[fold(side)]
    args: dict[str, Any] = {"side": side}
    if witness is not None:
        args["witness"] = witness
    return Command("duel_won", None, args)
