"""A bounded fuzz of the loaders and of the command line (issue 18, item 1): whatever a
user writes — a scenario spoilt key by key, a sheet, a YAML text, a character file, any
option of any command — ends in a result or in a ``ConteurError`` (exit code 0 or 2, a
message), never in a traceback; and a refused import stores nothing.

Hypothesis draws the inputs from the shipped examples' shapes; ``max_examples`` keeps the
whole file to a few seconds.
"""

from __future__ import annotations

import contextlib
import copy
import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conteur.cli import app
from conteur.engine import Encounter
from conteur.engine.inputs import parse_data
from conteur.i18n import ConteurError
from test_strict_input import PAIRS

EXAMPLES = int(os.environ.get("CONTEUR_FUZZ_INPUTS", "25"))
"""Examples per test (25: a few seconds; raise it to search longer)."""

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["far", "oui", "mortel", "vampire", "colt_saa", "couteau", "1,2", "[]"]),
)
values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
KNOWN_KEYS = [
    "id", "side", "camp", "position", "sheet", "fiche", "nom", "name", "type", "weapon",
    "arme", "armes", "weapons", "willpower", "blood", "health", "santé", "ammo", "cover",
    "conditions", "Bagarre", "Force", "force", "dextérité", "caractéristiques", "compétences",
    "pv", "fate", "attack", "guard", "era", "packs", "options", "tables", "sides",
    "simulation", "darkness", "witnesses", "duel", "title", "combatants", "ruleset",
]  # fmt: skip
keys = st.one_of(st.sampled_from(KNOWN_KEYS), st.text(max_size=10))


@st.composite
def spoilt(draw: st.DrawFn, ruleset: str) -> dict[str, Any]:
    """A valid scenario of ``ruleset`` with up to three things changed: a key set to any
    value, a key added, or a key taken out — at the top, in an entry or in its sheet."""
    entries = copy.deepcopy(PAIRS[ruleset])
    data: dict[str, Any] = {"ruleset": ruleset, "combatants": entries}
    for _ in range(draw(st.integers(1, 3))):
        places: list[dict[str, Any]] = [data, *entries]
        places += [c["sheet"] for c in entries if isinstance(c.get("sheet"), dict)]
        place = draw(st.sampled_from(places))
        if place is data and draw(st.booleans()):
            continue  # keep the ruleset and the entries most of the time
        how = draw(st.sampled_from(["set", "set", "drop"]))
        if how == "drop" and place:
            place.pop(draw(st.sampled_from(sorted(place, key=str))), None)
        else:
            place[draw(keys)] = draw(values)
    return data


def starts_or_refuses(data: dict[str, Any]) -> None:
    try:
        encounter = Encounter.start(data, source="fuzz.yaml")
    except ConteurError as error:
        assert error.message("fr") and error.message("en")
        return
    encounter.ruleset.summary(encounter.state)  # a state that started can be read


@FUZZ
@given(st.data())
def test_a_spoilt_scenario_starts_or_is_refused_vtm(data: st.DataObject) -> None:
    starts_or_refuses(data.draw(spoilt("vtm")))


@FUZZ
@given(st.data())
def test_a_spoilt_scenario_starts_or_is_refused_hunter(data: st.DataObject) -> None:
    starts_or_refuses(data.draw(spoilt("hunter")))


@FUZZ
@given(st.data())
def test_a_spoilt_scenario_starts_or_is_refused_western(data: st.DataObject) -> None:
    starts_or_refuses(data.draw(spoilt("western")))


@FUZZ
@given(st.data())
def test_a_spoilt_scenario_starts_or_is_refused_duel(data: st.DataObject) -> None:
    starts_or_refuses(data.draw(spoilt("duel")))


@FUZZ
@given(st.text(alphabet="[]{}:,- \n\"'ab1#&*!|>", max_size=200))
def test_any_text_is_data_or_an_input_error(text: str) -> None:
    try:
        parse_data(text, "fuzz.yaml")
    except ConteurError as error:
        assert error.message("fr").startswith("fuzz.yaml\u202f: ")


# ------------------------------------------------------------------ every command

runner = CliRunner()
numbers = st.one_of(
    st.integers(-(10**6), 10**6).map(str), st.sampled_from(["x", "1.5", "", "-0", "1e9"])
)
EXAMPLE = str(Path(__file__).resolve().parent.parent / "examples" / "fusillade.yaml")
SCRIPT = str(Path(__file__).resolve().parent.parent / "examples" / "fusillade.txt")


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    """One command line of any command, its options filled with odd values."""
    n = numbers
    pick = draw(
        st.sampled_from(
            [
                lambda: ["roll", "vtm", "--pool", draw(n), "--difficulty", draw(n)],
                lambda: ["roll", "vtm", "--pool", draw(n), "--auto", draw(n), "--damage"],
                lambda: ["roll", "hunter", "--pool", draw(n), "--again", draw(n)],
                lambda: ["roll", "western", "--skill", draw(n)],
                lambda: ["roll", "expr", draw(st.text(max_size=10))],
                lambda: ["roll", "vtm", "--pool", "3", "--dice", draw(st.text(max_size=12))],
                lambda: ["odds", "vtm", "--pool", draw(n), "--difficulty", draw(n)],
                lambda: ["odds", "vtm", "--table", "--max-pool", draw(n)],
                lambda: ["odds", "hunter", "--pool", draw(n), "--again", draw(n)],
                lambda: ["odds", "western", "--skill", draw(n)],
                lambda: ["odds", "attack", EXAMPLE, "--attacker", draw(keys), "--target", "x"],
                lambda: (
                    ["npc", draw(st.sampled_from(["vtm", "hunter", "western", "x"]))]
                    + ["--param", f"{draw(keys)}={draw(n)}"]
                ),
                lambda: ["npc", "vtm", draw(st.text(max_size=8)), "--era", draw(keys)],
                lambda: ["play", EXAMPLE, "--script", SCRIPT, "--seed", draw(n)],
                lambda: ["play", EXAMPLE, "--script", draw(st.text(max_size=8)) or "x"],
                lambda: ["simulate", EXAMPLE, "--runs", draw(n), "--seed", "1"],
            ]
        )
    )
    args: list[str] = pick()
    return [*args, *draw(st.sampled_from([[], ["--json"], ["--lang", "en"]]))]


@FUZZ
@given(command_lines())
def test_every_command_answers_or_refuses_never_a_traceback(args: list[str]) -> None:
    if args[0] == "simulate" and args[3].lstrip("-").isdigit() and int(args[3]) > 3:
        args[3] = "3"  # a few runs are enough to read the options
    # a simulation writes its plot into the working directory: an empty one, not the clone
    with tempfile.TemporaryDirectory() as here, contextlib.chdir(here):
        result = runner.invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args,
        result.exception,
    )
    assert result.exit_code in (0, 2), (args, result.output)
    if result.exit_code == 2:
        assert "Traceback" not in result.output


# ------------------------------------------------------------------ the store


@settings(FUZZ, max_examples=max(1, EXAMPLES // 2))
@given(st.data(), st.sampled_from(["yaml", "json"]))
def test_a_refused_import_stores_nothing(data: st.DataObject, fmt: str) -> None:
    import json

    import yaml

    from conteur.store import open_store
    from conteur.web.demo import load_demo

    store = _STORE.get("s")
    if store is None:
        store = _STORE["s"] = open_store("sqlite:///:memory:")
        load_demo(store)
    first = data.draw(spoilt("vtm")).get("combatants")
    entry = (
        dict(first[0]) if isinstance(first, list) and first and isinstance(first[0], dict) else {}
    )
    doc = {"sheet": entry.pop("sheet", {}), "state": entry}
    text = json.dumps(doc, default=str) if fmt == "json" else yaml.safe_dump(doc)
    before = [(c.id, c.version) for c in store.list_characters(1)]
    try:
        added = store.import_characters(1, text, fmt, source="fuzz")
    except ConteurError as error:
        assert error.message("fr") and error.message("en")
        assert [(c.id, c.version) for c in store.list_characters(1)] == before
    else:
        assert len(store.list_characters(1)) == len(before) + len(added)


_STORE: dict[str, Any] = {}
