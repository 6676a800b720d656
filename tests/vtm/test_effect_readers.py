"""Every effect type of the vtm tables has a rule that reads it, and its numbers are the data's.

A reader declares the effect types it reads (``hooks.reads_effect``), the fields it needs and
the maneuver it looks them up on; the tables loader (``tables.check_effects_read``) refuses an
effect no rule reads, a field a reader needs left out, and such a maneuver without its effect.
The fights below change an effect's numbers in a game master's file: the rules follow.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.vtm import hooks
from conteur.rulesets.vtm.events import AttackRolled, DefenceRolled, RollMade
from conteur.rulesets.vtm.packs import packs
from conteur.rulesets.vtm.tables import (
    EFFECT_TYPES,
    Effect,
    Maneuver,
    check_effects_read,
    load_tables,
)

from .fight import Fight, attack

PACK = "house_ranged"


def readers() -> dict[str, tuple[str, ...]]:
    load_tables("1899")  # the loader imports the rule modules that declare the readers
    packs()[PACK].maneuvers()
    return hooks.effect_readers()


def test_every_effect_type_has_a_reader() -> None:
    unread = [t for t in EFFECT_TYPES if t not in readers()]
    assert unread == []
    assert len(EFFECT_TYPES) == 28


@pytest.mark.parametrize(
    ("effect", "reader"),
    [
        ("parry_riposte", "defence.ready_defence"),
        ("block_limit", "defence.why_not"),
        ("needs_room", "defence.why_not"),
        ("take_cover", "ranged.take_cover_after_dodge"),
        ("shared_successes", "ranged.spray_shares"),
        ("dodge_difficulty", "defence.ready_defence"),
        ("multiple_action", "readiness.multiple_actions_count"),
        ("full_turn", "ranged.whole_turn"),
        ("per_opponent", "modifiers.opponents_penalty"),
        ("resisted", "general.ambush_rolls"),
        ("close_in", "equipment.closing_distance"),
        ("abort", "defence.abort"),
        ("full_defense", "defence.ready_defence"),
        ("aim_bonus", "shots.careful_steps"),
    ],
)
def test_the_effects_once_read_by_no_code_have_their_reader(effect: str, reader: str) -> None:
    assert reader in readers()[effect]


def test_every_shipped_effect_is_read() -> None:
    """Core, both eras, and the pack's maneuvers: each effect they hold is of a read type."""
    known = readers()
    used = {
        e.type
        for tables in (load_tables("1899"), load_tables("modern"))
        for m in (*tables.maneuvers.values(), *packs()[PACK].maneuvers())
        for e in m.effects
    }
    assert used <= set(known)
    assert used == set(EFFECT_TYPES)  # every type the tables know is used by some maneuver


def test_the_loader_refuses_an_effect_no_rule_reads() -> None:
    """An effect built past validation (a type the tables do not know) reaches the check."""
    base = load_tables("1899").maneuvers["sweep"]
    odd = Effect.model_construct(type="smoke", rule="V-CC-0")
    sweep = Maneuver.model_construct(**{**dict(base), "effects": [*base.effects, odd]})
    with pytest.raises(ConteurError) as info:
        check_effects_read({"sweep": (sweep, "maison.yaml")})
    err = info.value
    assert err.key == "vtm.tables.invalid"
    assert err.message("fr") == (
        "fichier maison.yaml, entrée «\u202fsweep\u202f», champ «\u202feffects[2].type\u202f»\u202f: "
        "aucune règle ne lit un effet «\u202fsmoke\u202f»"
    )
    assert err.message("en") == (
        'file maison.yaml, entry "sweep", field "effects[2].type": no rule reads an effect "smoke"'
    )


def gm_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "maison.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_loader_refuses_an_effect_without_the_field_its_reader_needs(tmp_path: Path) -> None:
    path = gm_file(
        tmp_path,
        "maneuvers:\n  - id: multiple_opponents\n"
        "    effects: [{type: per_opponent, max: 4, rule: V-CC-11}]\n",
    )
    with pytest.raises(ConteurError) as info:
        load_tables("1899", [path])
    assert info.value.message("en") == (
        f'file {path}, entry "multiple_opponents", field "effects[1].difficulty": '
        'an effect "per_opponent" must give "difficulty"'
    )
    assert "«\u202fdifficulty\u202f»" in info.value.message("fr")


def test_the_loader_refuses_a_maneuver_without_the_effect_a_rule_looks_up(tmp_path: Path) -> None:
    path = gm_file(tmp_path, "maneuvers:\n  - id: ambush\n    effects: []\n")
    with pytest.raises(ConteurError) as info:
        load_tables("1899", [path])
    assert info.value.message("fr") == (
        f"fichier {path}, entrée «\u202fambush\u202f», champ «\u202feffects\u202f»\u202f: "
        "il faut un effet «\u202fresisted\u202f» (une règle le lit)"
    )


# ------------------------------------------------------------------ the numbers are the data's


def surrounded(enemies: int, tables: Path | None = None) -> Fight:
    near = [f"  - {{id: e{i}, side: y, position: [1, {i * 0.2}], wits: 1}}" for i in range(enemies)]
    head = f"tables: [{tables}]\n" if tables is not None else ""
    return Fight(
        head
        + "combatants:\n  - {id: a, side: x, position: [0, 0], wits: 5, dexterity: 3, brawl: 2,"
        " dodge: 2}\n" + "\n".join(near)
    )


def punch_difficulty(f: Fight, enemies: int) -> int:
    f.initiative(10, *([1] * enemies))
    for fid in f.state.fighters:
        if fid != "a":
            f.declare(fid, {"kind": "other"})
    f.declare("a", attack("punch", "e0"))
    return f.act("a", [2] * 5).one(AttackRolled).difficulty


@pytest.mark.parametrize(("enemies", "shipped", "house"), [(2, 7, 8), (3, 8, 9), (5, 10, 9)])
def test_V_CC_11_the_penalty_per_opponent_and_its_cap_are_the_tables(
    tmp_path: Path, enemies: int, shipped: int, house: int
) -> None:
    """V-CC-11: +1 per opponent beyond the first, at most +4, as shipped; a house rule of +2,
    at most +3, changes the same fight."""
    path = gm_file(
        tmp_path,
        "maneuvers:\n  - id: multiple_opponents\n"
        "    effects: [{type: per_opponent, difficulty: 2, max: 3, rule: V-CC-11}]\n",
    )
    assert punch_difficulty(surrounded(enemies), enemies) == shipped
    assert punch_difficulty(surrounded(enemies, path), enemies) == house


def test_V_DEF_9_a_defence_against_several_opponents_follows_the_tables(tmp_path: Path) -> None:
    """V-DEF-9 / V-CC-11: the dodge of a fighter among three opponents, +1 each beyond the
    first as shipped, +2 each with the house rule."""
    path = gm_file(
        tmp_path,
        "maneuvers:\n  - id: multiple_opponents\n"
        "    effects: [{type: per_opponent, difficulty: 2, max: 4, rule: V-CC-11}]\n",
    )
    for tables, difficulty in ((None, 8), (path, 10)):
        f = surrounded(3, tables)
        f.initiative(1, 10, 1, 1)
        for fid in ("e1", "e2"):  # the slowest declare first (V-INI-3)
            f.declare(fid, {"kind": "other"})
        f.declare("a", {"kind": "dodge"})
        f.declare("e0", attack("punch", "a"))
        dodged = f.act("e0", [8] + [2] * 5 + [2]).one(DefenceRolled)
        assert dodged.difficulty == difficulty


def test_V_MAN_7_the_ambush_rolls_at_the_tables_difficulty(tmp_path: Path) -> None:
    """V-MAN-7: the resisted roll at 6 (a reading) as shipped; at 8 with a house rule."""
    path = gm_file(
        tmp_path,
        "maneuvers:\n  - id: ambush\n    effects: [{type: resisted, traits: [perception,"
        " alertness], difficulty: 8, rule: V-MAN-7}]\n",
    )
    for tables, difficulty in ((None, 6), (path, 8)):
        f = Fight(
            (f"tables: [{tables}]\n" if tables else "")
            + "combatants:\n  - {id: a, side: x, position: [0, 0], dexterity: 3, stealth: 2}\n"
            "  - {id: t, side: y, position: [1, 0], perception: 2, alertness: 1}\n"
        )
        events = f.do("ambush", "a", [2] * 5 + [2] * 3 + [2] * 3, target="t", kind="punch")
        rolls = events.of(RollMade)
        assert [(r.purpose, r.difficulty) for r in rolls[:2]] == [
            ("ambush", difficulty),
            ("alertness", difficulty),
        ]
