"""Who may see each event of a vtm fight, and what the others read instead.

The game master's notes, modifiers with their reasons, complications and custom
maneuvers are his alone; a fighter's pool, dice, soak, exact health and spent
Willpower are its own; the outcome of an attack is public, through the veiled lines
of the owned events (« Sam attaque Jack », « Jack est touché », « Bill est blessé »).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest

from conteur.dice import TypedDice
from conteur.engine import Command, Event
from conteur.engine.visibility import GM, GM_ONLY, PUBLIC, Viewer, owned_by, player
from conteur.rulesets.vtm.events import (
    AttackRolled,
    DamageRolled,
    DamageTaken,
    GmNote,
    ModifierAdded,
    SoakRolled,
)

from .examples import VTM_EXAMPLES, played
from .fight import Fight, attack

MARKER = "ZORGLUB"

SCENE = """
combatants:
  - {id: jack, name: Jack, side: pc, position: [0, 0], wits: 1, dexterity: 2, brawl: 2,
     stamina: 2, dodge: 2}
  - {id: sam, name: Sam, side: npc, position: [1, 0], wits: 4, dexterity: 4, brawl: 3,
     strength: 3, stamina: 2}
"""


def lines(events: Iterable[Event], viewer: Viewer, lang: str, names: dict[str, str]) -> list[str]:
    """What ``viewer`` reads: the events it may see described, the others' veiled lines."""
    out = []
    for ev in events:
        if viewer.sees(ev.seen):
            out.append(ev.describe(lang, names))  # type: ignore[arg-type]
        else:
            veiled = ev.veiled(lang, names)  # type: ignore[arg-type]
            if veiled:
                out.append(veiled)
    return out


def npc_fight() -> tuple[Fight, list[Event]]:
    """Sam (an NPC) punches Jack (a player's character), with the GM's note and modifier."""
    f = Fight(SCENE)
    events: list[Event] = []
    events += f.do("gm_note", reason=f"{MARKER} : Sam a bu")
    events += f.initiative(1, 10)  # Jack 1 + 3 = 4, Sam 10 + 8 = 18: Jack declares first
    modifier = {"fighter": "sam", "dice": 2, "difficulty": 0, "reason": f"{MARKER} rage"}
    events += f.encounter.execute(Command("gm_modifier", None, modifier), TypedDice([]))
    events += f.declare("jack", {"kind": "dodge"})
    events += f.declare("sam", attack("punch", "jack"))
    # Sam: 9 dice (Dex 4 + Brawl 3 + 2) → 4 successes; Jack's dodge (4 dice) → 1;
    # damage 3 + 2 = 5 dice → 3; Jack soaks 2 dice → 0: 3 levels.
    events += f.act("sam", [8, 8, 8, 8, 2, 2, 2, 2, 2] + [9, 2, 2, 2] + [7, 7, 7, 2, 2] + [2, 2])
    return f, events


def test_the_visibility_of_each_kind_of_event() -> None:
    """GM note and modifier: the GM's; the attack roll: Sam's; the defence, soak and levels
    lost: Jack's; the damage roll: Sam's (he rolls it); the miss or the conditions: public."""
    _, events = npc_fight()
    seen = {type(e).__name__: e.seen for e in events}
    assert seen["GmNote"] == GM_ONLY and seen["ModifierAdded"] == GM_ONLY
    assert seen["ModifiersUsed"] == GM_ONLY
    assert seen["AttackRolled"] == owned_by("sam")
    assert seen["DefenceRolled"] == owned_by("jack")
    assert seen["DamageRolled"] == owned_by("sam")
    assert seen["SoakRolled"] == owned_by("jack")
    assert seen["DamageTaken"] == owned_by("jack")
    assert seen["InitiativeRolled"] == owned_by("sam") or seen["InitiativeRolled"] == owned_by(
        "jack"
    )
    assert seen["ActionDeclared"] == PUBLIC and seen["InitiativeOrdered"] == PUBLIC


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_player_reads_no_npc_dice_nor_the_gm_s_words(lang: str) -> None:
    """Jack's player sees nothing of the GM's note or modifier (the marker), nor Sam's pool
    or faces; reads that Sam attacks Jack, and Jack's own dodge, soak and wounds."""
    f, events = npc_fight()
    names = f.encounter.ruleset.names(f.state)
    jack = player("jack", frozenset({"jack"}))
    read = lines(events, jack, lang, names)
    text = "\n".join(read)
    assert MARKER not in text
    for ev in events:
        if jack.sees(ev.seen):
            assert not isinstance(ev, (GmNote, ModifierAdded))
            assert ev.seen.owner in (None, "jack"), ev
        elif isinstance(ev, AttackRolled):
            veiled = ev.veiled(lang, names)  # type: ignore[arg-type]
            assert veiled is not None and not re.search(r"\d", veiled)
            assert str(ev.pool) not in veiled
    sam_faces = [r.faces for ev in events if ev.seen.owner == "sam" for r in ev.rolls]
    assert sam_faces  # Sam rolled: none of it is read
    visible_rolls = [r for ev in events if jack.sees(ev.seen) for r in ev.rolls]
    assert all(r not in visible_rolls for ev in events if ev.seen.owner == "sam" for r in ev.rolls)
    attacks = {"fr": "Sam attaque Jack (Coup de poing)", "en": "Sam attacks Jack (Punch)"}[lang]
    hit = {"fr": "Jack est touché (contondants)", "en": "Jack is hit (bashing)"}[lang]
    assert attacks in read and hit in read
    own = [e for e in events if isinstance(e, SoakRolled | DamageTaken)]
    assert own and all(e.describe(lang, names) in read for e in own)  # type: ignore[arg-type]


def test_the_game_master_sees_everything() -> None:
    f, events = npc_fight()
    names = f.encounter.ruleset.names(f.state)
    read = lines(events, GM, "fr", names)
    assert len(read) == len(events)
    assert any(MARKER in line for line in read)
    assert any("9 dés" in line for line in read)  # Sam's pool


def test_an_npc_wounded_by_a_player_reads_wounded() -> None:
    """Jack hits Sam: Jack's player sees his own attack and damage dice; Sam's soak and
    levels lost are veiled: « Sam est blessé » / "Sam is wounded"."""
    f = Fight(SCENE)
    f.initiative(10, 10)  # Jack 13, Sam 18: Jack declares first
    f.declare("jack", attack("punch", "sam"))
    f.declare("sam", {"kind": "other"})
    f.act("sam")
    events = list(f.act("jack", [8, 8, 8, 2] + [7, 7, 2] + [2, 2]))
    names = f.encounter.ruleset.names(f.state)
    jack = player("jack", frozenset({"jack"}))
    assert any(isinstance(e, DamageRolled) and jack.sees(e.seen) for e in events)
    for lang, wounded in (("fr", "Sam est blessé"), ("en", "Sam is wounded")):
        read = lines(events, jack, lang, names)
        assert wounded in read
        assert not any("absorbe" in line or "soaks" in line for line in read)


@pytest.mark.parametrize("name", VTM_EXAMPLES)
def test_every_hidden_event_of_the_examples_veils_without_numbers(name: str) -> None:
    """In each example, from a spectator's seat (no character): every event kept from it
    reads, if at all, without a digit — no pool, no successes, no faces — in both
    languages; the GM's note is never among what it reads."""
    enc = played(name)
    names = enc.ruleset.names(enc.state)
    spectator = player(None)
    kept = 0
    for ev in enc.events():
        if spectator.sees(ev.seen):
            assert not isinstance(ev, (GmNote, ModifierAdded))
            continue
        kept += 1
        for lang in ("fr", "en"):
            veiled = ev.veiled(lang, names)  # type: ignore[arg-type]
            if veiled is not None:
                assert not re.search(r"\d", veiled), (type(ev).__name__, veiled)
    assert kept
