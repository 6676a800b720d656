"""Who sees what of a hunter fight (``visibility.py``): the shipped fight where the Bête and
its Goule attack, read by Ana's player alone at the table — no pool, face, track or
Defense of anyone else, but every attack, hit or miss, and every wound in words — and by
the Storyteller, who sees everything."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from conteur.engine import Encounter, Event
from conteur.engine.script import play_script, script_lines, start, typed_dice
from conteur.engine.visibility import GM, PUBLIC, Viewer, owned_by, player
from conteur.i18n import LANGS, Lang
from conteur.rulesets.hunter.events import (
    HunterAttackRolled,
    HunterCoverChanged,
    HunterDamaged,
    HunterDodging,
    HunterXpReset,
)

from .fight import Fight, sheet

ROOT = Path(__file__).resolve().parents[2]
ANA = player("ana", frozenset({"ana"}))


@cache
def cellule() -> Encounter:
    path = ROOT / "examples" / "hunter" / "cellule.yaml"
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


def test_the_example_has_the_monsters_attack() -> None:
    attacks = cellule().events().of(HunterAttackRolled)
    assert {a.actor for a in attacks} >= {"bete", "goule", "ana", "lea", "marc"}


@pytest.mark.parametrize("lang", LANGS)
def test_a_player_sees_no_one_elses_pool_faces_track_or_defense(lang: Lang) -> None:
    enc = cellule()
    others = {fid for fid in enc.state.fighters if fid not in ANA.players}
    tracks = {ev.track for ev in enc.events().of(HunterDamaged) if ev.target in others}
    for ev, text, veiled in read(enc, ANA, lang):
        if veiled:
            # Names and words only; a hunter's own successes at most.
            words = re.sub(r"\d+ (succès|successes|success)\b", "", text)
            assert not re.search(r"\d|\[|Défense|Defense|dés|dice", words), text
            continue
        rolled_by = getattr(ev, "actor", None)
        assert not (ev.rolls and rolled_by in others), text  # no one else's dice
        assert not (isinstance(ev, HunterDamaged) and ev.target in others), text  # track
        assert not any(track in text for track in tracks), text
        # A roll against someone else names its Defense (or Strength): not read.
        assert not (isinstance(ev, HunterAttackRolled) and ev.target in others), text
        assert not (isinstance(ev, HunterDodging) and ev.actor in others), text


def test_the_monsters_attacks_are_read_as_hit_or_miss_in_words() -> None:
    lines = [text for _, text, veiled in read(cellule(), ANA, "fr") if veiled]
    assert "la Bête → Marc (mains nues) : coup au but" in lines
    assert "Marc subit des dégâts létaux : égratigné" in lines
    assert "la Goule → Ana (arme de mêlée) : échec dramatique" in lines
    en = [text for _, text, veiled in read(cellule(), ANA, "en") if veiled]
    assert "la Bête → Marc (unarmed): hit" in en
    # Ana's own shot at the Bête carries the Bête's Defense: she reads its successes.
    assert "Ana → la Bête (tir) : 4 succès, coup au but" in lines
    assert "la Bête subit des dégâts contondants : gravement blessé" in lines


def test_the_storyteller_sees_every_event_in_full() -> None:
    enc = cellule()
    seen = read(enc, GM, "fr")
    assert len(seen) == len([e for e in enc.events() if not type(e).quiet])
    assert not any(veiled for _, _, veiled in seen)
    assert any("la Bête → Marc, mains nues : 7 dés" in text for _, text, _ in seen)


def test_who_owns_each_kind_of_event() -> None:
    enc = cellule()
    for ev in enc.events():
        if isinstance(ev, HunterAttackRolled):
            kinds = {fid: f.kind for fid, f in enc.state.fighters.items()}
            owner = ev.actor if kinds[ev.actor] != "hunter" else ev.target
            if kinds[ev.actor] == kinds[ev.target] == "hunter":
                owner = ev.actor
            assert ev.seen == owned_by(owner), ev
        elif isinstance(ev, HunterDamaged):
            assert ev.seen == owned_by(ev.target)
    assert {e.seen for e in enc.events() if type(e).__name__ == "HunterGrappleSet"} == {PUBLIC}


def test_the_storytellers_commands_cover_public_damage_the_targets_xp_the_hunters() -> None:
    f = Fight(sheet("ana", side="cell"), sheet("bete", kind="monstre"))
    cover = f.do("gm_cover", fighter="bete", cover="partial").one(HunterCoverChanged)
    assert cover.seen == PUBLIC
    hurt = f.do("gm_damage", fighter="bete", amount=2, damage_type="lethal").one(HunterDamaged)
    assert hurt.seen == owned_by("bete") and not ANA.sees(hurt.seen)
    assert hurt.veiled("fr", {"bete": "la Bête"}) == "la Bête subit des dégâts létaux : égratigné"
    reset = f.do("gm_xp_reset", fighter="ana").one(HunterXpReset)
    assert reset.seen == owned_by("ana") and ANA.sees(reset.seen)
    assert reset.veiled("fr") is None
    assert not player("bob", frozenset({"bob"})).sees(reset.seen)
