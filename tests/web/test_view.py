"""What the pages read from an encounter: the ruleset's views, and the log as each reader
may see it (hidden events stay off the players' log)."""

from __future__ import annotations

import dataclasses

from conteur.dice import SeededDice, TypedDice
from conteur.engine import Encounter
from conteur.engine.commands import Command
from conteur.engine.encounter import CommandEntry
from conteur.engine.views import (
    Column,
    ConditionView,
    HealthView,
    Resource,
    Roster,
    RosterRow,
)
from conteur.engine.visibility import GM, GM_ONLY, PUBLIC, owned_by, player
from conteur.i18n import Msg
from conteur.web import view
from conteur.web.demo import demo_data


def test_hidden_events_are_left_out_of_the_players_log() -> None:
    data = demo_data()
    enc = Encounter.start({"ruleset": "vtm", "era": data["era"], "combatants": data["combatants"]})
    enc.execute(Command("initiative"), SeededDice(1))
    entry = enc.log[-1]
    assert isinstance(entry, CommandEntry)
    hidden = tuple(dataclasses.replace(e, seen=GM_ONLY) for e in entry.events)
    enc.log[-1] = CommandEntry(entry.seq, entry.command, hidden)
    gm_lines = view.log_items(enc, "fr")[0].lines
    assert gm_lines and any("initiative" in line for line in gm_lines)
    # Nothing of that command is the players': no entry at all in their log.
    assert view.log_items(enc, "fr", viewer=player("jack", frozenset({"jack"}))) == []


def test_an_event_owned_by_an_npc_is_veiled_for_the_players(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Owned by a combatant no player plays, an event is the GM's: the players read its
    veiled line, with no faces; the owner's own player (and the table's) read it whole."""
    data = demo_data()
    enc = Encounter.start({"ruleset": "vtm", "era": data["era"], "combatants": data["combatants"]})
    enc.execute(Command("initiative"), SeededDice(1))
    entry = enc.log[-1]
    assert isinstance(entry, CommandEntry)
    rolled = [e for e in entry.events if e.rolls]
    assert rolled
    kind = type(rolled[0])
    monkeypatch.setattr(kind, "veiled", lambda self, lang=None, names=None: "VEILED")
    owned = tuple(
        dataclasses.replace(e, seen=owned_by("sam")) if type(e) is kind else e for e in entry.events
    )
    enc.log[-1] = CommandEntry(entry.seq, entry.command, owned)
    gm = view.log_items(enc, "fr")[0]
    table = view.log_items(enc, "fr", viewer=player("jack", frozenset({"jack", "billy"})))[0]
    assert "VEILED" not in gm.lines and any(gm.faces)
    shown = [f for line, f in zip(table.lines, table.faces, strict=True) if line == "VEILED"]
    assert shown and shown == [""] * len(shown)  # veiled: no faces
    assert len(table.lines) == len(gm.lines)
    sam = view.log_items(enc, "fr", viewer=player("sam", frozenset({"jack", "sam"})))[0]
    assert sam.lines == gm.lines and sam.faces == gm.faces


def test_the_players_read_the_rulesets_band_never_a_guess() -> None:
    """An unhurt fighter whose health is points (a western one) is « indemne »: the word is
    the ruleset's ``band``, the status its ``status``; conditions name who holds whom."""
    roster = Roster(
        columns=(Column(key="rep", label=Msg("web.name")),),
        rows=(
            RosterRow(
                id="bill",
                name="Bill Tanner",
                side="a",
                health=HealthView.of_points(16, 18, ""),
                status="unhurt",
                band="band.unhurt",
                resources=(Resource(key="rep", label=Msg("web.name"), value=8),),
                conditions=(
                    ConditionView(key="held_by", label=Msg("vtm.cond.held_by"), other="sam"),
                ),
            ),
            RosterRow(
                id="sam",
                name="Sam le barman",
                side="b",
                health=HealthView.boxes(("/", "", "")),
                status="wounded",
                band="band.wounded",
                fate="incapacitated",
            ),
        ),
    )
    names = {"bill": "Bill Tanner", "sam": "Sam le barman"}
    fr = view.roster_view(roster, "fr", names)
    assert [(p.status, p.band) for p in fr.public] == [("unhurt", "indemne"), ("wounded", "blessé")]
    bill, sam = fr.rows
    assert bill.health_text == "16/18" and bill.cells == ("8",) and bill.extras == ()
    assert bill.conditions == ("tenu par Sam le barman",) and bill.fate == ""
    assert sam.health_text == "[/][ ][ ]" and sam.cells == ("",) and sam.fate
    en = view.roster_view(roster, "en", names)
    assert en.public[0].band == "unhurt" and en.rows[0].conditions == ("held by Sam le barman",)
    assert [r.id for r in fr.only(frozenset({"bill"})).rows] == ["bill"]
    assert len(fr.only(frozenset()).public) == 2


def test_the_roster_signs_a_wound_penalty_with_a_true_minus() -> None:
    """A wounded fighter's penalty reads « −1 » (U+2212) on the roster and the player's card,
    in both languages; an unhurt one's is left blank."""
    enc = Encounter.start(
        {
            "ruleset": "vtm",
            "combatants": [
                {"id": "jack", "side": "a", "dexterity": 3, "health": ["lethal", "lethal"]},
                {"id": "bill", "side": "b", "dexterity": 3},
            ],
        }
    )
    names = enc.ruleset.names(enc.state)
    for lang in ("fr", "en"):
        rows = view.roster_view(enc.ruleset.roster(enc.state), lang, names).rows
        assert [(r.penalty, r.penalty_text) for r in rows] == [(-1, "\u22121"), (0, "")]


def test_a_choice_is_said_as_its_own_parameter_says_it() -> None:
    """Hunter's « short » is a range in the range field and a burst in the burst field (not
    vtm's « portée courte » for both, nor « medium » raw); each empty option says what it
    does (the map's band, the short burst); each starts with a capital, as a list's choices."""
    enc = Encounter.start(
        {
            "ruleset": "hunter",
            "combatants": [
                {"id": "a", "side": "x", "dexterity": 3, "firearms": 2, "weapon": "large_smg"},
                {"id": "b", "side": "y"},
            ],
        }
    )
    enc.execute(Command("initiative", None, {}), TypedDice([9, 1]))  # a's turn
    for lang, range_, burst in (
        (
            "fr",
            ["Selon la carte", "Courte portée", "Portée moyenne", "Longue portée"],
            ["Rafale courte (par défaut)", "Rafale courte", "Rafale moyenne", "Longue rafale"],
        ),
        (
            "en",
            ["From the map", "Short range", "Medium range", "Long range"],
            ["Short burst (default)", "Short burst", "Medium burst", "Long burst"],
        ),
    ):
        act = next(f for f in view.forms(enc, lang, actor="a") if f.type == "act")
        fields = {f.name: [f.empty, *(text for _, text in f.choices)] for f in act.fields}
        assert (fields["range"], fields["burst"]) == (range_, burst)


def test_every_player_of_a_table_is_one_audience() -> None:
    """The players of one table see the same events, so they share a snapshot; the GM and
    a reader of another table do not."""
    from conteur.web.panels import audience

    table = frozenset({"jack", "billy"})
    jack, billy = player("jack", table), player("billy", table)
    assert audience(jack) == audience(billy) != audience(GM)
    assert audience(player("jack", frozenset({"jack"}))) != audience(jack)
    for seen in (PUBLIC, GM_ONLY, owned_by("jack"), owned_by("billy"), owned_by("sam")):
        assert audience(jack).sees(seen) == jack.sees(seen) == billy.sees(seen)


def test_the_web_layer_names_no_ruleset_maneuver() -> None:
    """Ruleset-neutral: attacks, second actions and odds options come from the ruleset
    (``legal_commands``, ``attack_kinds``, ``odds_toggles``), never from the web's code."""
    from pathlib import Path

    source = "".join(p.read_text(encoding="utf-8") for p in Path(view.__file__).parent.glob("*.py"))
    for word in ("punch", "shoot", "weapon_strike", "then_kind", "then_target", "cover", "aim"):
        assert f'"{word}"' not in source, word


def test_the_shared_log_grows_as_a_fresh_one_and_undo_marks_old_entries(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Panels extends the previous state's log; it must equal one built from scratch."""
    from conteur.store import open_store
    from conteur.web.panels import Panels, table_viewer

    store = open_store(f"sqlite:///{tmp_path / 'log.db'}")
    from conteur.web.demo import load_demo

    load_demo(store)

    def render(name: str, lang: str, **context: object) -> str:
        return repr(sorted((k, str(v)) for k, v in context.items()))

    kept = Panels(store, render)
    enc = store.encounter(1)
    lines = ["mj: note coup un", "mj: note coup deux", "annuler", "mj: note coup trois"]
    for line in lines:
        enc = store.encounter(1)
        command = enc.ruleset.parse_command(line, enc.state, "fr")
        if command.type == "undo":
            store.undo(1)
        else:
            store.execute(1, command, SeededDice(1))
        for viewer in (GM, table_viewer(store.get_encounter(1), "jack")):
            shared = kept.snapshot(1, "fr", viewer=viewer)
            fresh = Panels(store, render).snapshot(1, "fr", viewer=viewer)
            assert shared.log_html == fresh.log_html
            assert [i.undone for i in shared.items] == [i.undone for i in fresh.items]
    assert [i.undone for i in kept.snapshot(1, "fr", viewer=GM).items] == [
        False,
        True,
        False,
        False,
    ]
    assert shared.items == []  # the player's: GM notes (and their undo) are the GM's alone
    store.close()


def test_the_roster_shows_each_rulesets_own_columns() -> None:
    """The toy duel (tests/plugins): health in points, its own Guard column, no Willpower."""
    from pathlib import Path

    import yaml
    from jinja2 import Environment, PackageLoader

    scenario = Path(__file__).parents[1] / "plugins" / "examples" / "duel.yaml"
    enc = Encounter.start(yaml.safe_load(scenario.read_text(encoding="utf-8")))
    env = Environment(loader=PackageLoader("conteur.web", "templates"), autoescape=True)
    names = enc.ruleset.names(enc.state)
    for lang, unit, guard in (("fr", "PV", "Garde"), ("en", "HP", "Guard")):
        html = env.get_template("_roster.html").render(
            _=lambda k, **p: view.msg(k, lang, **p),  # noqa: B023 (rendered at once)
            roster=view.roster_view(enc.ruleset.roster(enc.state), lang, names),
            sit=view.situation(enc.ruleset.turn_view(enc.state), lang),
        )
        assert f'<th data-column="guard">{guard}</th>' in html
        assert f'data-health="points">5/5 {unit}</td>' in html
        assert "Volont" not in html and "Willpower" not in html
