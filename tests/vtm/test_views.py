"""vtm through the seam's views: roster rows and the turn, read on the shipped examples.

The roster shows the track's boxes with their marks (V-DMG-3), the status, the word
players read (a ladder over the health levels, ``data/bands.yaml``), the wound penalty
(V-DMG-5), Willpower, blood and rounds, and conditions in words naming who holds whom.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from conteur.i18n import catalog, t
from conteur.rulesets.vtm import gm
from conteur.rulesets.vtm.bands import ladder
from conteur.rulesets.vtm.conditions import VtmConditions
from conteur.rulesets.vtm.health import DEFAULT_LEVELS
from conteur.rulesets.vtm.state import VtmState
from conteur.rulesets.vtm.tables import load_tables
from conteur.rulesets.vtm.views import BOOKKEEPING, condition_label

from .examples import VTM_EXAMPLES, played, steps
from .fight import Fight

SOURCE = Path(__file__).resolve().parents[2] / "src" / "conteur" / "rulesets" / "vtm"

DYNAMIC_SITES = {
    ("close.py", "keep_footing"): "a knock-down effect's conditions (the tables)",
    ("close.py", "timed_conditions"): "a timed effect's conditions, and <name>_turn",
    ("gm.py", "condition"): "gm.CONDITIONS",
    ("packs/house_ranged/shots.py", "limb_hit"): "arm_hit, leg_hit (R-CALL-4, R-CALL-5)",
}
"""The places that set a condition whose key is neither a kind's ``key`` nor written out,
and where the keys come from."""


def _condition_sites() -> tuple[set[str], set[tuple[str, str]], set[tuple[str, str]]]:
    """The condition keys vtm's code writes out in a ``ConditionSet``, the places that set
    one whose key is computed (file, function), and the places that read or write a
    fighter's conditions by a key written out (the typed records are read by kind)."""
    keys: set[str] = set()
    dynamic: set[tuple[str, str]] = set()
    by_key: set[tuple[str, str]] = set()
    for path in sorted(SOURCE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(SOURCE).as_posix()
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Call):
                    name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                    owner = getattr(node.func, "value", None)
                    on_conditions = getattr(owner, "attr", getattr(owner, "id", None))
                    if name == "ConditionSet":
                        found = next(k.value for k in node.keywords if k.arg == "condition")
                        if isinstance(found, ast.Constant) and isinstance(found.value, str):
                            keys.add(found.value)
                        elif not (isinstance(found, ast.Attribute) and found.attr == "key"):
                            dynamic.add((where, fn.name))
                    elif (
                        name in ("get", "pop", "drop", "set")
                        and on_conditions == "conditions"
                        and node.args
                        and isinstance(node.args[0], ast.Constant)
                    ):
                        by_key.add((where, fn.name))
                elif (
                    isinstance(node, ast.Subscript)
                    and getattr(node.value, "attr", None) == "conditions"
                    and isinstance(node.slice, ast.Constant)
                ):
                    by_key.add((where, fn.name))
    return keys, dynamic, by_key


def every_condition_key() -> set[str]:
    """Every condition key vtm's code can set or reads: its declared kinds, the game
    master's, and those the tables' effects name."""
    keys, dynamic, by_key = _condition_sites()
    assert dynamic <= set(DYNAMIC_SITES), (
        f"new computed condition keys: {dynamic - set(DYNAMIC_SITES)}"
    )
    assert not by_key, f"conditions read or set by a key written out, not by kind: {by_key}"
    tables = load_tables()
    from conteur.rulesets.vtm.packs import discover

    for pack in discover().values():
        tables = pack.adjust_tables(tables)
    declared = set(VtmConditions.kinds)  # the packs' kinds declared as they were imported
    assert keys <= declared, f"keys set that no kind declares: {keys - declared}"
    assert set(gm.CONDITIONS) <= declared
    keys |= declared
    for m in tables.maneuvers.values():
        for effect in m.effects:
            if effect.turns:  # close.timed_conditions
                keys |= {f"{c}_turn" for c in effect.conditions}
            else:
                keys |= set(effect.conditions)
    assert keys <= declared, (
        f"keys the tables' effects set that no kind declares: {keys - declared}"
    )
    keys |= set(tables.conditions)
    return keys


def test_every_condition_key_the_code_can_set_has_words_in_both_languages() -> None:
    """No condition key reaches a reader as its id: each has ``vtm.cond.<key>`` or
    ``word.<key>`` in French and English (a timed ``<name>_turn`` reads as ``<name>``).
    The words of the tables register with the first encounter (``words.register_words``)."""
    Fight("combatants: [{id: a}]")
    missing = sorted(k for k in every_condition_key() if condition_label(k) is None)
    assert not missing, f"conditions without words: {missing}"
    for key in every_condition_key():
        label = condition_label(key)
        assert label is not None
        for lang in ("fr", "en"):
            text = t(label, lang, other="Bob", weapon="x", amount=2, name=key)
            assert text and "_" not in text and "{" not in text, (key, lang, text)
    assert every_condition_key() >= BOOKKEEPING


def test_the_health_ladder_covers_every_level_of_the_track() -> None:
    """V-DMG-5: each level of the default track reads as a word of the ladder (data)."""
    bands = ladder()
    listed = {lvl for b in bands.bands for lvl in b.levels}
    assert {lvl.key for lvl in DEFAULT_LEVELS} <= listed
    words = [(t(b.key, "fr"), t(b.key, "en")) for b in bands.bands]
    assert words[:5] == [
        ("indemne", "unhurt"),
        ("égratigné", "scratched"),
        ("blessé", "wounded"),
        ("gravement blessé", "badly wounded"),
        ("hors de combat", "out of the fight"),
    ]


@pytest.mark.parametrize("name", VTM_EXAMPLES)
def test_every_roster_row_of_every_step_reads_in_words(name: str) -> None:
    """At each step of the example: the track has one mark per box (``/``, ``X`` or empty,
    V-DMG-3), the band and every condition read in both languages without an id, the
    status follows the track, Willpower never exceeds the sheet's rating."""
    for enc in steps(name):
        rules, state = enc.ruleset, enc.state
        assert isinstance(state, VtmState)
        names = rules.names(state)
        for row in rules.roster(state).rows:
            f = state.fighters[row.id]
            assert row.health.kind == "boxes"
            assert len(row.health.marks) == len(f.health.boxes)
            assert set(row.health.marks) <= {"", "/", "X"}
            assert row.band in catalog()
            assert (row.status == "unhurt") == (not f.health.filled and not f.out_of_fight)
            assert row.penalty == f.penalty
            wp = row.resource("willpower")
            assert wp is not None and wp.maximum is not None and wp.value <= wp.maximum
            for c in row.conditions:
                for lang in ("fr", "en"):
                    text = c.text(lang, names)
                    assert "_" not in text and "{" not in text, (name, c.key, text)


def test_V_CC_7_the_roster_says_who_holds_whom() -> None:
    """V-CC-7: while Varney grapples Lucrèce, her row reads « tenu par Varney », his
    « tient Lucrèce de Valmont » (and in English)."""
    seen = False
    for enc in steps("vampires"):
        rows = {r.id: r for r in enc.ruleset.roster(enc.state).rows}
        names = enc.ruleset.names(enc.state)
        held = [c for c in rows["lucrece"].conditions if c.key == "held_by"]
        if not held:
            continue
        seen = True
        assert held[0].other == "varney"
        assert held[0].text("fr", names) == "tenu par Varney"
        assert held[0].text("en", names) == "held by Varney"
        holding = next(c for c in rows["varney"].conditions if c.key == "holding")
        assert holding.text("en", names) == "holding Lucrèce de Valmont"
    assert seen


def test_bands_follow_the_levels_reached() -> None:
    """V-DMG-5: Lucrèce ends mauled (five boxes, four aggravated): « gravement blessé »,
    Varney bruised: « égratigné »; Jack, incapacitated in the saloon: « hors de combat »."""
    vampires = played("vampires")
    rows = {r.id: r for r in vampires.ruleset.roster(vampires.state).rows}
    assert rows["lucrece"].health.text() == "[X][X][X][X][/][ ][ ]"
    assert t(rows["lucrece"].band, "fr") == "gravement blessé"
    assert t(rows["varney"].band, "en") == "scratched"
    saloon = played("saloon")
    jack = saloon.ruleset.roster(saloon.state).row("jack")
    assert (jack.status, t(jack.band, "fr")) == ("out", "hors de combat")


def test_resources_willpower_blood_and_rounds() -> None:
    """Willpower out of the sheet's rating; blood for a vampire and a ghoul (a mortal with
    Potence and blood, a sheet with a blood pool), not for a plain mortal; rounds out of the
    clip and chamber."""
    f = Fight("""
combatants:
  - {id: v, kind: vampire, side: a, willpower: 4, blood: 7}
  - {id: g, side: a, potence: 1, blood: 3}
  - {id: h, side: a, sheet: {nom: Hans, sang: 2}}
  - {id: m, side: b, weapons: [heavy_revolver], ammo: {heavy_revolver: 2}}
""")
    rules = f.encounter.ruleset
    rows = {r.id: r for r in rules.roster(f.state).rows}
    v_wp, v_blood = rows["v"].resource("willpower"), rows["v"].resource("blood")
    assert v_wp is not None and (v_wp.value, v_wp.maximum) == (4, 5)  # 4 left of the sheet's 5
    assert v_blood is not None and v_blood.value == 7
    ghoul = rows["g"].resource("blood")
    assert ghoul is not None and ghoul.value == 3
    sheet_pool = rows["h"].resource("blood")
    assert sheet_pool is not None and sheet_pool.value == 2
    assert rows["m"].resource("blood") is None
    rounds = rows["m"].resource("ammo.heavy_revolver")
    assert rounds is not None and (rounds.value, rounds.maximum) == (2, 6)
    assert rounds.label.describe("fr").startswith("Revolver")


def test_the_turn_view_gives_the_phase_who_is_due_and_the_order_with_totals() -> None:
    """V-INI-1..4: after the initiative of the vampires' first turn, Varney (9) declares
    first (the slower, V-INI-3); in the resolution, Lucrèce (13) is due."""
    views = []
    for enc in steps("vampires"):
        views.append(enc.ruleset.turn_view(enc.state))
        if len(views) > 6:
            break
    assert (views[0].turn, views[0].phase, views[0].due) == (0, "setup", ())
    first = views[2]  # after the note, then the initiative
    assert (first.turn, first.phase, first.due) == (1, "declaration", ("varney",))
    assert [(s.ids, s.total) for s in first.order] == [(("lucrece",), 13), (("varney",), 9)]
    assert views[4].phase == "resolution" and views[4].due == ("lucrece",)
