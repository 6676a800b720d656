"""``conteur simulate --sweep`` (issue 17 item 3): the spec read against the scenario, the
copies placed and suffixed, the same result however it is run, JSON, fr/en, the plot."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import conteur
from conteur.cli import app
from conteur.engine import Encounter
from conteur.engine.scenario import load_scenario
from conteur.i18n import LANGS, ConteurError, percent
from conteur.sim.encounters import simulate
from conteur.sim.sweep import SPACING, formation, parse_sweep, scenario_at, sweep

ROOT = Path(__file__).resolve().parents[2]
VTM = ROOT / "examples" / "simulation" / "4v4_1899.yaml"
HUNTER = ROOT / "examples" / "hunter" / "cellule.yaml"
WESTERN = ROOT / "examples" / "western" / "duel.yaml"
SALOON = ROOT / "examples" / "western" / "saloon.yaml"
TOY = ROOT / "tests" / "plugins" / "examples" / "duel.yaml"


def started(path: Path) -> tuple[dict[str, Any], Path | None, Encounter]:
    data, base = load_scenario(path)
    return dict(data), base, Encounter.start(data, base)


def at(path: Path, spec: str, value: Any) -> Encounter:
    """The encounter the sweep ``spec`` fights at ``value``."""
    data, base, start = started(path)
    return Encounter.start(scenario_at(parse_sweep(spec, start), data, start, value, base), base)


def refusal(path: Path, spec: str) -> ConteurError:
    _, _, start = started(path)
    with pytest.raises(ConteurError) as error:
        parse_sweep(spec, start)
    return error.value


# ------------------------------------------------------------------ the spec


@pytest.mark.parametrize(
    ("path", "spec", "kind", "combatant", "trait", "option", "values"),
    [
        (VTM, "abberline*=2..4", "copies", "abberline", None, None, (2, 3, 4)),
        (VTM, "quin*=1..2", "copies", "quincey", None, None, (1, 2)),  # a unique beginning
        (VTM, "Mina Harker*=0,2", "copies", "mina", None, None, (0, 2)),  # the display name
        (VTM, "marius.célérité=0..3", "trait", "marius", "celerity", None, (0, 1, 2, 3)),
        (VTM, "MARIUS.Celerite=1", "trait", "marius", "celerity", None, (1,)),
        (VTM, "ysolde.volonte=3,5", "trait", "ysolde", "willpower", None, (3, 5)),
        (
            VTM,
            "vampires_halve_bashing=non,oui",
            "option",
            None,
            None,
            "vampires_halve_bashing",
            (False, True),
        ),
        (
            VTM,
            "options.damage_ones=false,true",
            "option",
            None,
            None,
            "damage_ones_cancel",
            (False, True),
        ),
        (HUNTER, "bete.force=3..5", "trait", "bete", "strength", None, (3, 4, 5)),
        (HUNTER, "goule*=1..2", "copies", "goule", None, None, (1, 2)),
        (HUNTER, "throw_far_penalty=1,2,3", "option", None, None, "throw_far_penalty", (1, 2, 3)),
        (
            WESTERN,
            "jack.tir visé au pistolet=40,60",
            "trait",
            "jack",
            "aimed_pistol",
            None,
            (40, 60),
        ),
        (WESTERN, "bill.RAPIDITÉ=10..11", "trait", "bill", "rapidite", None, (10, 11)),
        (
            WESTERN,
            "ko_strictly_under=no,yes",
            "option",
            None,
            None,
            "ko_strictly_under",
            (False, True),
        ),
        (TOY, "bob.garde=0..2", "trait", "bob", "guard", None, (0, 1, 2)),
        (TOY, "ana*=1..3", "copies", "ana", None, None, (1, 2, 3)),
    ],
)
def test_a_valid_spec_is_matched_against_the_scenario_and_its_ruleset(
    path: Path,
    spec: str,
    kind: str,
    combatant: str | None,
    trait: str | None,
    option: str | None,
    values: tuple[Any, ...],
) -> None:
    _, _, start = started(path)
    parsed = parse_sweep(spec, start)
    assert (parsed.kind, parsed.combatant, parsed.trait, parsed.option) == (
        kind,
        combatant,
        trait,
        option,
    )
    assert parsed.values == values
    assert [type(v) for v in parsed.values] == [type(v) for v in values]  # True is not 1


WHOLE = {"ana.zz=1", "ana.a=1..2", "marius.celerety=0..2", "jack.tir=1"}
"""The specs whose refusals below are given whole (the others by a part)."""


@pytest.mark.parametrize("path", [VTM, HUNTER, WESTERN, TOY], ids=lambda p: p.parent.name)
def test_every_trait_a_sweep_varies_has_a_name_that_reads_back_as_it(path: Path) -> None:
    """Each trait's name is written in words (no id's ``_``), is not its key in both
    languages (the contract's default), and typed as a sweep's trait in either language
    names that trait again."""
    _, _, start = started(path)
    ruleset = start.ruleset
    fighter = next(iter(ruleset.names(start.state)))
    keys = set(ruleset.sweep_traits(start.state).values())
    assert keys
    raw = set()
    for key in sorted(keys):
        name = ruleset.sweep_trait_name(start.state, key)
        said = {lang: name if isinstance(name, str) else name.describe(lang) for lang in LANGS}
        if set(said.values()) == {key} or any("_" in n for n in said.values()):
            raw.add((key, tuple(said.values())))
        for lang, text in said.items():
            assert parse_sweep(f"{fighter}.{text}=1", start).trait == key, (key, lang, text)
    assert raw == set(), raw


@pytest.mark.parametrize(
    ("path", "spec", "key", "fr", "en"),
    [
        (
            VTM,
            "m*=1..2",
            "sim.sweep.ambiguous_combatant",
            "--sweep : « m » désigne plusieurs combattants : marius, mina ; précisez lequel",
            '--sweep: "m" names several fighters: marius, mina; say which',
        ),
        (
            HUNTER,
            "ana.a=1..2",
            "sim.sweep.ambiguous_trait",
            "--sweep : « a » désigne plusieurs traits des règles « hunter » : Armes à feu, Astuce,"
            " Athlétisme, Mêlée ; précisez lequel",
            '--sweep: "a" names several traits of the ruleset "hunter": Athletics, Firearms,'
            " Weaponry, Wits; say which",
        ),
        (
            VTM,
            "aberline*=2..3",
            "sim.sweep.unknown_combatant",
            "aucun combattant « aberline » dans le scénario ; le plus proche : abberline"
            " (combattants : abberline, grendel, marius, mina, quincey, seward, tobias, ysolde)",
            'no fighter "aberline" in the scenario; the nearest: abberline (fighters: abberline,',
        ),
        (
            VTM,
            "marius.celerety=0..2",
            "sim.sweep.unknown_trait",
            "--sweep : les règles « vtm » n'ont pas de trait « celerety » ; le plus proche : Célérité",
            '--sweep: the ruleset "vtm" has no trait "celerety"; the nearest: Celerity',
        ),
        (
            WESTERN,
            "jack.tir=1",  # the skills by their names in the reader's language
            "sim.sweep.ambiguous_trait",
            "--sweep : « tir » désigne plusieurs traits des règles « western » : tir à l'arc,"
            " tir au fusil, tir au fusil de chasse, tir instinctif au pistolet, tir visé au"
            " pistolet ; précisez lequel",
            '--sweep: "tir" names several traits of the ruleset "western": aimed pistol, bow,'
            " instinctive pistol, rifle, shotgun; say which",
        ),
        (
            HUNTER,
            "ana.zz=1",  # nothing near: no suggestion
            "sim.sweep.unknown_trait",
            "--sweep : les règles « hunter » n'ont pas de trait « zz »",
            '--sweep: the ruleset "hunter" has no trait "zz"',
        ),
        (
            WESTERN,
            "ko_strict=oui",  # a beginning is enough, ...
            None,
            "",
            "",
        ),
        (
            WESTERN,
            "ko_strictement=oui",  # ... a misspelling is not
            "sim.sweep.unknown_option",
            "les règles « western » n'ont pas d'option « ko_strictement » ; la plus proche :"
            " ko_strictly_under (options : instinctive_beyond, ko_strictly_under)",
            'the ruleset "western" has no option "ko_strictement"; the nearest: ko_strictly_under',
        ),
        (
            TOY,
            "rounds=1..2",
            "sim.sweep.no_options",
            "« rounds » n'est ni COMBATTANT* ni COMBATTANT.TRAIT, et les règles « duel » n'ont"
            " pas d'options à faire varier",
            '"rounds" is neither FIGHTER* nor FIGHTER.TRAIT',
        ),
        (
            VTM,
            "abberline*2..3",
            "sim.sweep.format",
            "--sweep attend COMBATTANT*=2..6",
            "--sweep expects FIGHTER*=2..6",
        ),
        (
            VTM,
            "abberline*=4..2",
            "sim.sweep.range",
            "la plage 4..2 est à l'envers",
            "the range 4..2 is backwards",
        ),
        (
            VTM,
            "abberline*=1.5,2",
            "sim.sweep.whole",
            "sont des nombres entiers",
            "are whole numbers",
        ),
        (
            VTM,
            "abberline*=-1..1",
            "sim.sweep.negative",
            "ne peut pas être négatif",
            "cannot be negative",
        ),
        (
            VTM,
            "abberline*=1..500",
            "sim.sweep.too_many",
            "il faut de 1 à 100 valeurs",
            "from 1 to 100 values",
        ),
        (
            VTM,
            "abberline*=2,2",
            "sim.sweep.repeated",
            "une valeur est donnée deux fois",
            "a value is given twice",
        ),
    ],
)
def test_an_ambiguous_unknown_or_malformed_spec_is_refused_by_name(
    path: Path, spec: str, key: str | None, fr: str, en: str
) -> None:
    if key is None:
        _, _, start = started(path)
        assert parse_sweep(spec, start).option == "ko_strictly_under"
        return
    error = refusal(path, spec)
    assert error.key == key
    assert fr in error.message("fr")
    assert en in error.message("en")
    if spec in WHOLE:
        assert (error.message("fr"), error.message("en")) == (fr, en)


def test_a_value_the_rules_refuse_is_refused_before_any_fight() -> None:
    calls: list[int] = []
    with pytest.raises(ConteurError) as error:
        sweep(TOY, "bob.guard=1,oops", 2, seed=1, progress=calls.append)
    assert error.value.key == "sim.sweep.whole"
    with pytest.raises(ConteurError) as error:
        sweep(VTM, "marius.celerite=9..11", 2, seed=1, progress=calls.append)
    assert error.value.key == "sim.sweep.at_value"
    fr, en = error.value.message("fr"), error.value.message("en")
    nbsp = "\u202f"
    assert fr == (
        f"--sweep{nbsp}: avec Célérité (Marius) = 11{nbsp}: {VTM}{nbsp}: combattant n° 5 (marius)"
        f"{nbsp}: champ «{nbsp}Célérité{nbsp}»{nbsp}: doit valoir au plus 10 (reçu 11)"
    )
    assert en == (
        f"--sweep: with Celerity (Marius) = 11: {VTM}: combatant #5 (marius): "
        'field "Celerity": must be at most 10 (got 11)'
    )
    with pytest.raises(ConteurError) as error:
        sweep(WESTERN, "jack*=0..1", 2, seed=1, progress=calls.append)  # no jack: one side
    assert error.value.key == "sim.sweep.at_value" and error.value.params["value"] == 0
    assert "deux camps" in error.value.message("fr")
    assert calls == []  # nothing was fought


# ------------------------------------------------------------------ the scenarios


def test_copies_are_suffixed_and_stand_in_the_sides_line_beside_the_original() -> None:
    encounter = at(VTM, "abberline*=4", 4)
    fighters = encounter.state.fighters
    assert list(fighters) == [
        "abberline",
        "abberline-2",
        "abberline-3",
        "abberline-4",
        "mina",
        "quincey",
        "seward",
        "marius",
        "ysolde",
        "grendel",
        "tobias",
    ]
    names = [fighters[f"abberline-{n}"].sheet.name for n in (2, 3, 4)]
    assert names == ["Frederick Abberline 2", "Frederick Abberline 3", "Frederick Abberline 4"]
    assert {fighters[f"abberline-{n}"].side for n in (2, 3, 4)} == {"chasseurs"}
    original = fighters["abberline"].position
    hunters = [f.position for f in fighters.values() if f.side == "chasseurs"]
    vampires = [f.position for f in fighters.values() if f.side == "vampires"]
    base = [fighters[i].position for i in ("abberline", "mina", "quincey", "seward")]
    centre = [sum(c) / len(base) for c in zip(*base, strict=True)]
    enemy = [sum(c) / len(vampires) for c in zip(*vampires, strict=True)]
    front = (enemy[0] - centre[0], enemy[1] - centre[1])
    for n, metres in ((2, SPACING), (3, SPACING), (4, 2 * SPACING)):
        spot = fighters[f"abberline-{n}"].position
        offset = (spot[0] - original[0], spot[1] - original[1])
        assert math.hypot(*offset) == pytest.approx(metres, abs=0.02)
        # across the direction of the enemy: the side's line
        assert abs(offset[0] * front[0] + offset[1] * front[1]) / math.hypot(*front) < 0.02
    # left then right, and no two hunters on the same spot
    assert fighters["abberline-2"].position[1] > 0 > fighters["abberline-3"].position[1]
    for i, a in enumerate(hunters):
        for b in hunters[i + 1 :]:
            assert math.dist(a, b) >= SPACING / 2


def test_the_formation_skips_a_place_someone_already_holds() -> None:
    spots = formation((0.0, 0.0), [(0.0, 0.0), (0.0, 1.5)], [(10.0, 0.75)], 2)
    assert spots == [pytest.approx((0.0, -1.5)), pytest.approx((0.0, 3.0))]
    # with the enemy along y, the line runs along x
    spots = formation((0.0, 0.0), [(0.0, 0.0)], [(0.0, -8.0)], 1)
    assert spots == [pytest.approx((1.5, 0.0))]


def test_zero_copies_leave_the_combatant_out_and_no_position_is_invented() -> None:
    assert "quincey" not in at(VTM, "quincey*=0", 0).state.fighters
    data, base, start = started(HUNTER)  # the cell's scenario gives no positions
    varied = scenario_at(parse_sweep("ana*=2", start), data, start, 2, base)
    copy = next(e for e in varied["combatants"] if e["id"] == "ana-2")
    assert "position" not in copy and copy["nom"] == "Ana 2"
    assert list(Encounter.start(varied, base).state.fighters)[:2] == ["ana", "ana-2"]


@pytest.mark.parametrize(
    ("path", "spec", "value", "read"),
    [
        (
            VTM,
            "marius.célérité=3",
            3,
            lambda s: s.fighters["marius"].sheet.disciplines.get("celerity", 0),
        ),
        (
            VTM,
            "grendel.Puissance=4",
            4,
            lambda s: s.fighters["grendel"].sheet.disciplines.get("potence", 0),
        ),
        (
            VTM,
            "mina.volonte=3",
            3,
            lambda s: (s.fighters["mina"].sheet.willpower, s.fighters["mina"].willpower),
        ),
        (VTM, "vampires_halve_bashing=non", False, lambda s: s.options["vampires_halve_bashing"]),
        (HUNTER, "bete.force=2", 2, lambda s: s.fighters["bete"].traits["strength"]),
        (SALOON, "ike.bagarre=70", 70, lambda s: s.fighters["ike"].skills.get("brawl", 0)),
        (
            WESTERN,
            "jack.constitution=9",
            9,
            lambda s: s.fighters["jack"].characteristics["constitution"],
        ),
        (TOY, "bob.garde=4", 4, lambda s: s.fighters["bob"].guard),
    ],
)
def test_a_trait_or_option_is_set_in_the_scenario_the_rules_read(
    path: Path, spec: str, value: Any, read: Any
) -> None:
    before = read(started(path)[2].state)
    after = read(at(path, spec, value).state)
    expected = (value, value) if isinstance(before, tuple) else value
    assert after == expected and before != expected


# ------------------------------------------------------------------ the fights


def test_each_value_is_the_simulation_of_its_own_scenario() -> None:
    result = sweep(TOY, "ana*=1..3", 5, seed=11, workers=1, chunk_size=2)
    data, base, start = started(TOY)
    spec = parse_sweep("ana*=1..3", start)
    for value, point in zip(spec.values, result.points, strict=True):
        alone = simulate(scenario_at(spec, data, start, value, base), 5, seed=11, base_dir=base)
        assert point.outcome_dict()["fighters"] == alone.outcome_dict()["fighters"]
        assert point.tally.wins == alone.tally.wins and point.tally.rounds == alone.tally.rounds
    assert [len(p.fighters) for p in result.points] == [2, 3, 4]


def test_same_seed_same_sweep_with_one_or_two_workers() -> None:
    one = sweep(WESTERN, "bill.rapidite=8..11", 4, seed=5, workers=1, chunk_size=1)
    two = sweep(WESTERN, "bill.rapidite=8..11", 4, seed=5, workers=2, chunk_size=1)
    assert two.workers == 2
    assert one.outcome_dict() == two.outcome_dict()
    assert one.outcome_dict() != sweep(WESTERN, "bill.rapidite=8..11", 4, seed=6).outcome_dict()


def test_same_seed_same_sweep_on_a_local_dask_cluster(cluster: Any) -> None:
    remote = sweep(TOY, "ana*=1..3", 4, seed=21, dask=cluster.scheduler_address, chunk_size=1)
    local = sweep(TOY, "ana*=1..3", 4, seed=21, workers=1)
    assert remote.backend == "dask" and local.backend == "local"
    assert remote.outcome_dict() == local.outcome_dict()


# ------------------------------------------------------------------ the command


def flatten(text: str) -> str:
    """``text`` with every run of white space (line breaks, narrow no-break spaces) as one
    space."""
    return " ".join(text.split())


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["simulate", *args])
    return result.exit_code, result.stdout, result.stderr


def test_json_shape_and_where_the_fight_is_closest_to_even(tmp_path: Path) -> None:
    code, out, _ = cli(
        str(TOY),
        "--sweep",
        "bob.guard=0..3",
        "--runs",
        "6",
        "--seed",
        "3",
        "--workers",
        "1",
        "--json",
        "--plot",
        str(tmp_path / "sweep"),
    )
    assert code == 0, out
    data = json.loads(out)
    assert data["ruleset"] == "duel" and data["runs"] == 6 and data["seed"] == 3
    assert data["sweep"] == {
        "spec": "bob.guard=0..3",
        "label": "bob.guard",
        "kind": "trait",
        "combatant": "bob",
        "trait": "guard",
        "option": None,
        "values": [0, 1, 2, 3],
    }
    assert data["sides"] == ["rouges", "bleus"]
    assert [p["value"] for p in data["points"]] == [0, 1, 2, 3]
    spreads = []
    for point in data["points"]:
        result = point["result"]
        assert result["runs"] == 6
        for side in data["sides"]:
            assert point["win_rate"][side] == result["sides"][side]["wins"] / 6
            assert point["ci95"][side] == result["sides"][side]["ci95"]
        rates = list(point["win_rate"].values())
        assert point["spread"] == pytest.approx(max(rates) - min(rates))
        spreads.append(point["spread"])
    best = spreads.index(min(spreads))
    assert data["closest"]["index"] == best and data["closest"]["value"] == best
    assert data["closest"]["win_rate"] == data["points"][best]["win_rate"]
    assert len(set(spreads)) > 1  # the guard changes the fight: a real choice was made
    # where the favourite changes, recomputed from the points (values with a tie skipped)
    leaders = [
        (p["value"], max(p["win_rate"], key=p["win_rate"].get))
        for p in data["points"]
        if len(set(p["win_rate"].values())) == len(data["sides"])
    ]
    changes = [
        {"between": [a, b], "from": x, "to": y}
        for (a, x), (b, y) in itertools.pairwise(leaders)
        if x != y
    ]
    assert data["leader_changes"] == changes and changes  # this seed has one
    assert data["run"]["workers"] == 1 and data["run"]["backend"] == "local"
    assert data["plot"] == [str(tmp_path / "sweep.png"), str(tmp_path / "sweep.svg")]
    api = conteur.sweep(TOY, "bob.guard=0..3", runs=6, seed=3, workers=1)
    assert api.pop("plot") == [] and api.pop("run")["workers"] == 1
    data.pop("plot"), data.pop("run")
    assert api == data
    same = conteur.simulate(TOY, runs=6, seed=3, workers=1, sweep="bob.guard=0..3")
    assert same.pop("plot") == [] and same.pop("run")["workers"] == 1 and same == data


@pytest.mark.parametrize(
    ("spec", "runs", "seed", "fr", "en"),
    [
        ("ana*=1..3", "5", "2", "ana (exemplaires)", "ana (copies)"),  # no change of favourite
        ("bob.guard=0..3", "6", "3", "Garde (Bob)", "Guard (Bob)"),  # one
    ],
)
def test_the_text_in_french_and_in_english(
    spec: str,
    runs: str,
    seed: str,
    fr: str,
    en: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    args = [str(TOY), "--sweep", spec, "--runs", runs, "--seed", seed, "--workers", "1"]
    code, out, _ = cli(*args, "--json", "--no-plot")
    assert code == 0, out
    data = json.loads(out)
    best = data["closest"]
    values = data["sweep"]["values"]
    count = len(values)
    for lang, label, title, closest, tips in (
        (
            "fr",
            fr,
            f"duel.yaml : {fr} de {values[0]} à {values[-1]}, {count} valeurs × {runs} combats"
            f" (graine {seed}, 20 tours au plus)",
            "Le plus serré : {label} = {value} (rouges {a}, bleus {b} ;",
            "Le favori change entre {label} = {low} ({x}) et {label} = {high} ({y}).",
        ),
        (
            "en",
            en,
            f"duel.yaml: {en} from {values[0]} to {values[-1]}, {count} values × {runs} fights"
            f" (seed {seed}, at most 20 turns)",
            "Closest to even: {label} = {value} (rouges {a}, bleus {b};",
            "The favourite changes between {label} = {low} ({x}) and {label} = {high} ({y}).",
        ),
    ):
        code, text, _ = cli(*args, "--lang", lang)
        assert code == 0, text
        flat = flatten(text)  # Rich wraps lines, and may wrap at a narrow no-break space
        assert flatten(title) in flat
        line = closest.format(
            label=label,
            value=best["value"],
            a=percent(best["win_rate"]["rouges"], lang),
            b=percent(best["win_rate"]["bleus"], lang),
        )
        assert flatten(line) in flat
        said = [
            tips.format(
                label=label, low=c["between"][0], high=c["between"][1], x=c["from"], y=c["to"]
            )
            for c in data["leader_changes"]
        ]
        assert all(flatten(s) in flat for s in said)
        assert flat.count(flatten(tips.split("{label}")[0])) == len(said)
        for point in data["points"]:  # each row: the value and each side's rate as lang writes it
            rate = percent(point["win_rate"]["rouges"], lang)
            assert any(
                row.split()[1:2] == [str(point["value"])] and rate in row
                for row in text.splitlines()
            ), (point, text)
    assert (tmp_path / "duel-sweep.png").exists() and (tmp_path / "duel-sweep.svg").exists()


def test_the_plot_files_open_and_are_not_blank(tmp_path: Path) -> None:
    from PIL import Image

    code, out, _ = cli(
        str(WESTERN),
        "--sweep",
        "jack*=1..2",
        "--runs",
        "3",
        "--seed",
        "1",
        "--workers",
        "1",
        "--json",
        "--plot",
        str(tmp_path / "plot.png"),
    )
    assert code == 0, out
    png, svg = (Path(p) for p in json.loads(out)["plot"])
    assert png == tmp_path / "plot.png" and svg == tmp_path / "plot.svg"
    with Image.open(png) as image:
        image.load()
        assert image.width > 600 and image.height > 400
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20) or []
    assert len(colours) > 50  # lines, bands, text: not a blank canvas
    rgb = {colour for _, colour in colours}
    assert (0x1F, 0x77, 0xB4) in rgb and (0xD6, 0x27, 0x28) in rgb  # each side's line
    text = svg.read_text(encoding="utf-8")
    assert "<svg" in text[:2000] and text.count("<path") > 10


def test_a_bad_spec_exits_2_in_the_chosen_language() -> None:
    args = [str(VTM), "--sweep", "m*=1..2", "--runs", "2", "--no-plot"]
    code, out, err = cli(*args)
    assert code == 2 and out == "" and err.startswith("erreur : ")
    assert "« m » désigne plusieurs combattants : marius, mina" in err
    code, out, err = cli(*args, "--lang", "en", "--json")
    assert code == 2 and '"m" names several fighters: marius, mina' in json.loads(out)["message"]


@pytest.mark.parametrize(
    ("path", "spec", "count"),
    [
        (VTM, "tobias*=1..2", [8, 9]),
        (HUNTER, "goule.force=2..3", [5, 5]),
        (SALOON, "finn*=0..1", [4, 5]),
        (WESTERN, "instinctive_beyond=non,oui", [2, 2]),
        (TOY, "ana.attack=1..2", [2, 2]),
    ],
)
def test_the_shipped_examples_of_every_ruleset_sweep(
    path: Path, spec: str, count: list[int]
) -> None:
    result = sweep(path, spec, 1, seed=4, workers=1)
    assert [len(p.fighters) for p in result.points] == count
    assert all(p.tally.errors == 0 and p.runs == 1 for p in result.points)


def test_the_contracts_defaults_vary_nothing_and_copy_an_entry_plainly() -> None:
    from conteur.engine.ruleset import Ruleset

    bare: Ruleset[Any] = Ruleset()
    assert bare.sweep_traits(None) == {} and bare.sweep_options(None) == {}
    assert bare.positions(None) == {}
    with pytest.raises(ConteurError) as error:
        bare.with_trait(None, {"id": "a"}, "x", 1)
    assert error.value.key == "engine.sweep.no_traits"
    assert bare.with_option({"options": {"a": 1}, "x": 2}, "b", True) == {
        "options": {"a": 1, "b": True},
        "x": 2,
    }
    entry = {"id": "a", "nom": "Ana", "position": [1, 2], "sheet": {"Name": "Ana B"}}
    assert bare.copy_combatant(entry, "a-3", 3, (1.0, 3.5)) == {
        "id": "a-3",
        "nom": "Ana 3",
        "position": [1.0, 3.5],
        "sheet": {"Name": "Ana B 3"},
    }
    assert bare.copy_combatant({"id": "b"}, "b-2", 2, (0.0, 1.5)) == {"id": "b-2"}
    assert entry["nom"] == "Ana"  # the original is left as it was


def test_a_sheet_read_from_a_file_is_varied_and_copied_inline(tmp_path: Path) -> None:
    (tmp_path / "ann.yaml").write_text(
        "nom: Ann\nattributs: {Dextérité: 3, Astuce: 3}\nBagarre: 2\n", encoding="utf-8"
    )
    (tmp_path / "bo.yaml").write_text(
        "nom: Bo\ncaractéristiques: {RAPIDITÉ: 12}\ncompétences: {bagarre: 40}\n",
        encoding="utf-8",
    )
    (tmp_path / "vtm.yaml").write_text(
        "ruleset: vtm\ncombatants:\n"
        "  - {id: ann, side: a, position: [0, 0], sheet: ann.yaml}\n"
        "  - {id: cy, side: b, position: [3, 0], sheet: {nom: Cy, Bagarre: 1}}\n",
        encoding="utf-8",
    )
    (tmp_path / "western.yaml").write_text(
        "ruleset: western\ncombatants:\n"
        "  - {id: bo, camp: a, position: [0, 0], sheet: bo.yaml}\n"
        "  - {id: di, camp: b, position: [8, 0], compétences: {bagarre: 30}}\n",
        encoding="utf-8",
    )
    ann = at(tmp_path / "vtm.yaml", "ann.dexterite=5", 5).state.fighters["ann"].sheet
    assert ann.attributes["dexterity"] == 5 and ann.abilities["brawl"] == 2
    assert ann.attributes["wits"] == 3 and ann.name == "Ann"
    bo = at(tmp_path / "western.yaml", "bo.bagarre=70", 70).state.fighters["bo"]
    assert bo.skills["brawl"] == 70 and bo.characteristics["rapidite"] == 12
    assert bo.name == "Bo"
    copies = at(tmp_path / "western.yaml", "bo*=2", 2).state.fighters
    assert list(copies) == ["bo", "bo-2", "di"]
    assert copies["bo-2"].name == "Bo"  # the name is in the file: only the id is numbered
    assert copies["bo-2"].position == pytest.approx((0.0, 1.5))
