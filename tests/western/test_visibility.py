"""Who sees what of a western fight (``visibility.py``): the saloon, where the Clantons shoot
at Wyatt and Doc, read by the players of Wyatt and Doc — no Clanton's percentage, roll or
PV, but every shot, hit or miss, and every wound in words — and by the Storyteller, who
sees everything; the guard's approach, which its victim must not know about."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from conteur.engine import Encounter, Event
from conteur.engine.script import play_script, script_lines, start, typed_dice
from conteur.engine.visibility import GM, PUBLIC, Viewer, owned_by, player
from conteur.i18n import LANGS, Lang
from conteur.rulesets.western.events import (
    Approached,
    Bound,
    DamageDealt,
    DuelJudged,
    LocationRolled,
    LocationShifted,
    ShotRolled,
    Surprised,
)

ROOT = Path(__file__).resolve().parents[2]
TABLE = player("wyatt", frozenset({"wyatt", "doc"}))
SECRET = (ShotRolled, LocationRolled, LocationShifted, DamageDealt)


@cache
def played(name: str) -> Encounter:
    path = ROOT / "examples" / "western" / f"{name}.yaml"
    enc = start(path)
    _, stopped = play_script(
        enc, script_lines(path.with_suffix(".txt")), typed_dice(path.with_suffix(".dice")), "fr"
    )
    assert stopped is None
    return enc


def read(enc: Encounter, viewer: Viewer, lang: Lang) -> list[tuple[Event, str, bool]]:
    """What ``viewer`` reads: each event it sees described, the others' veiled lines."""
    names = enc.ruleset.names(enc.state)
    out = []
    for ev in enc.events():
        if type(ev).quiet:
            continue
        if viewer.sees(ev.seen):
            out.append((ev, ev.describe(lang, names), False))
        else:
            line = ev.veiled(lang, names)
            if line is not None:
                out.append((ev, line, True))
    return out


def shooter_of(enc: Encounter) -> dict[int, str]:
    """For each event of a shot (by its position in the log), who fired it."""
    out: dict[int, str] = {}
    shooter = ""
    for i, ev in enumerate(enc.events()):
        if isinstance(ev, ShotRolled):
            shooter = ev.attacker
        out[i] = shooter
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_the_players_see_no_clantons_percentage_roll_or_pv(lang: Lang) -> None:
    enc = played("saloon")
    clantons = {fid for fid in enc.state.fighters if fid not in TABLE.players}
    assert clantons == {"ike", "billy", "finn"}
    assert any(isinstance(e, ShotRolled) and e.attacker in clantons for e in enc.events())
    shooters = shooter_of(enc)
    index = {id(ev): i for i, ev in enumerate(enc.events())}
    for ev, text, veiled in read(enc, TABLE, lang):
        if veiled:
            # Names and words only (a weapon's name may hold its year, « Remington 1875 »).
            assert not re.search(r"\d|%|PV", re.sub(r"\([^)]*\)", "", text)), text
            continue
        assert not (isinstance(ev, ShotRolled) and ev.attacker in clantons), text
        assert not (isinstance(ev, LocationShifted) and shooters[index[id(ev)]] in clantons), text
        wound = isinstance(ev, LocationRolled | DamageDealt)
        assert not (wound and getattr(ev, "target", None) in clantons), text


def test_the_clantons_shots_are_read_as_hit_or_miss_and_wounds_in_words() -> None:
    enc = played("saloon")
    fr = [text for _, text, veiled in read(enc, TABLE, "fr") if veiled]
    assert "Billy Clanton → Wyatt Earp (Colt Single Action Army) : touché" in fr
    assert "Finn Clanton → Wyatt Earp (fusil à double canon) : raté" in fr
    assert "Ike Clanton → Wyatt Earp (Remington 1875) : réussite critique" in fr
    assert "Réussite critique : abdomen → poitrine" in fr  # Ike's margin is his
    assert "Billy Clanton est blessé (bras gauche)" in fr
    en = [text for _, text, veiled in read(enc, TABLE, "en") if veiled]
    assert "Billy Clanton → Wyatt Earp (Colt Single Action Army): hit" in en
    # Wyatt's own wound is his: its dice and PV are read in full.
    mine = [text for ev, text, veiled in read(enc, TABLE, "fr") if not veiled]
    assert "Wyatt Earp : 2 × 2 (poitrine) = 4 PV perdus (W-LOC-1)" in mine


def test_the_storyteller_sees_every_event_in_full() -> None:
    enc = played("saloon")
    seen = read(enc, GM, "fr")
    assert len(seen) == len([e for e in enc.events() if not type(e).quiet])
    assert not any(veiled for _, _, veiled in seen)
    assert any("Ike Clanton → Wyatt Earp : tir visé au pistolet 40 %" in t for _, t, _ in seen)


def test_the_victim_of_an_approach_reads_nothing_of_it() -> None:
    enc = played("guard")
    garde = player("garde", frozenset({"garde"}))
    approach = [e for e in enc.events() if isinstance(e, Approached)]
    assert approach and approach[0].success and approach[0].seen == owned_by("bill")
    lines = read(enc, garde, "fr")
    assert not any("discrétion" in text or "approche" in text for _, text, _ in lines)
    assert ("Bill Tanner tente d'assommer le garde : réussite") in [t for _, t, _ in lines]


def test_the_storytellers_commands_are_public() -> None:
    enc = played("saloon")
    assert {e.seen for e in enc.events() if isinstance(e, Surprised)} == {PUBLIC}
    duel = played("duel")
    assert {e.seen for e in duel.events() if isinstance(e, DuelJudged)} == {PUBLIC}
    assert not [e for e in enc.events() if isinstance(e, Bound)]  # bind: see test_knockout
