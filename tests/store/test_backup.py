"""``conteur db export`` / ``conteur db import``: a campaign played (commands, an undo, an
encounter closed and written back to the characters, another still open), backed up as one
JSON file and restored into a fresh database, SQLite or PostgreSQL: every encounter replays
to the same state and roster, the characters have the same history, the players get new
tokens; a bad file is refused with the file and the field named, and nothing is imported."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conteur.cli import app
from conteur.i18n import ConteurError
from conteur.store import Participant, Store, open_store
from conteur.store.backup import FORMAT, VERSION

from .helpers import gm, one_turn, run, saloon

runner = CliRunner()


def played(store: Store) -> int:
    """A campaign played for a while; its id."""
    campaign, chars, first = saloon(store)
    one_turn(store, first.id)
    store.undo(first.id)  # Cid's miss is retracted
    run(store, first.id, "act", "cid", [3, 3, 3])
    store.execute(first.id, gm("gm_note", reason="la bagarre se calme"), _no_dice())
    store.close_encounter(first.id, awards={chars["ann"].id: {"experience": 1}})
    store.update_character(chars["cid"].id, sheet={**CID_EDITED})
    second = store.start_encounter(
        campaign.id,
        "Revanche",
        [Participant(chars["ann"].id, side="a"), Participant(chars["bob"].id, side="b")],
    )
    run(store, second.id, "initiative", dice=[7, 2])
    store.undo(second.id)
    run(store, second.id, "initiative", dice=[4, 6])
    store.update_campaign(campaign.id, settings={"player_input": True})
    return campaign.id


CID_EDITED = {
    "name": "Cid",
    "kind": "vampire",
    "dexterity": 3,
    "wits": 1,
    "brawl": 2,
    "willpower": 6,
}


def _no_dice() -> Any:
    from conteur.dice import TypedDice

    return TypedDice([])


def snapshot(store: Store, campaign_id: int) -> dict[str, Any]:
    """Everything a restored campaign must give back, ids left out (they are new)."""
    camp = store.get_campaign(campaign_id)
    chars = store.list_characters(campaign_id)
    by_id = {c.id: c.slug for c in chars}
    encounters = sorted(store.list_encounters(campaign_id), key=lambda e: e.id)
    order = {e.id: n for n, e in enumerate(encounters)}
    out: dict[str, Any] = {
        "campaign": (camp.name, camp.ruleset, camp.packs, camp.options, camp.era, camp.settings),
        "dates": (camp.created_at, camp.updated_at),
        "characters": {
            c.slug: {
                "sheet": c.sheet,
                "state": c.state,
                "version": c.version,
                "history": [
                    (
                        v.version,
                        v.sheet,
                        v.state,
                        v.reason,
                        None if v.encounter_id is None else order[v.encounter_id],
                        v.created_at,
                    )
                    for v in store.character_history(c.id)
                ],
            }
            for c in chars
        },
        "encounters": [],
    }
    for info in encounters:
        enc = store.encounter(info.id)
        rebuilt = enc.rebuild()
        out["encounters"].append(
            {
                "name": info.name,
                "status": info.status,
                "dates": (info.created_at, info.closed_at),
                "scenario": info.scenario,
                "links": {cid: by_id[ch] for cid, ch in info.characters.items()},
                "log": store.log(info.id),
                "roster": enc.ruleset.summary(enc.state),  # type: ignore[attr-defined]
                "rebuilt roster": enc.ruleset.summary(rebuilt),  # type: ignore[attr-defined]
                "end": enc.end_state(),
                "rebuilt end": enc.ruleset.end_state(rebuilt),
            }
        )
    return out


@pytest.fixture
def source(tmp_path: Path) -> tuple[Store, int]:
    store = open_store(f"sqlite:///{tmp_path / 'source.db'}")
    return store, played(store)


def test_a_campaign_comes_back_whole_in_a_fresh_database(
    source: tuple[Store, int], store: Store
) -> None:
    old, cid = source
    data = json.loads(json.dumps(old.export_campaign(cid)))  # through its file's text
    assert data["format"] == FORMAT and data["version"] == VERSION
    assert "token" not in json.dumps(data)
    done = store.import_campaign(data, "sauvegarde.json")
    assert snapshot(store, done.campaign.id) == snapshot(old, cid)
    assert done.entries == sum(len(old.log(e.id)) for e in old.list_encounters(cid))
    # new tokens: the old links do not open the restored characters
    old_tokens = {c.token for c in old.list_characters(cid)}
    new = store.list_characters(done.campaign.id)
    assert not old_tokens & {c.token for c in new}
    assert all(store.character_by_token(t) is None for t in old_tokens)
    # the restored open encounter goes on
    second = max(done.encounters.values())
    store.execute(second, gm("gm_note", reason="on reprend"), _no_dice())
    # and importing again makes another campaign beside it
    again = store.import_campaign(data, "sauvegarde.json")
    assert again.campaign.id != done.campaign.id
    assert store.counts()["campaigns"] == 2
    old.close()


def test_conteur_db_export_and_import(
    source: tuple[Store, int], db_url: str, tmp_path: Path
) -> None:
    old, cid = source
    old_url = str(old.engine.url)
    expected = snapshot(old, cid)
    old.close()
    backup = tmp_path / "partie.json"
    out = runner.invoke(
        app, ["db", "export", "--campaign", str(cid), "-o", str(backup), "--url", old_url]
    )
    assert out.exit_code == 0, out.output
    assert "sauvegardée" in out.output and str(backup) in out.output
    stdout = runner.invoke(app, ["db", "export", "--campaign", str(cid), "--url", old_url])
    assert json.loads(stdout.output)["campaign"]["name"] == expected["campaign"][0]
    back = runner.invoke(app, ["db", "import", str(backup), "--url", db_url, "--json"])
    assert back.exit_code == 0, back.output
    answer = json.loads(back.output)
    target = open_store(db_url)
    try:
        assert snapshot(target, answer["campaign"]) == expected
    finally:
        target.close()
    en = runner.invoke(app, ["db", "import", str(backup), "--url", db_url, "--lang", "en"])
    assert en.exit_code == 0 and "restored" in en.output and "links are new" in en.output
    missing = runner.invoke(app, ["db", "export", "--campaign", "99", "--url", old_url])
    assert missing.exit_code == 2


def _broken(data: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    bad = copy.deepcopy(data)
    where: Any = bad
    for key in path[:-1]:
        where = where[key]
    if value is KeyError:
        del where[path[-1]]
    elif callable(value):  # made from what is there (a list of events doubled)
        where[path[-1]] = value(where[path[-1]])
    else:
        where[path[-1]] = value
    return bad


ANN, BOB, CID = (("personnage n° 1 (ann)", "character #1 (ann)"), ("personnage n° 2 (bob)",
    "character #2 (bob)"), ("personnage n° 3 (cid)", "character #3 (cid)"))  # fmt: skip
SALOON = ("rencontre n° 1 (Bagarre au saloon)", "encounter #1 (Bagarre au saloon)")
REVANCHE = ("rencontre n° 2 (Revanche)", "encounter #2 (Revanche)")
TOP = ("en-tête", "top level")
CAMP = ("campagne", "campaign")

BAD: list[tuple[list[Any], Any, tuple[str, str], str, str, str]] = [
    # path spoilt, value put there, entry (fr, en), field, reason in French, in English
    (["format"], "conteur.character", TOP, "format",
     "ce n'est pas une sauvegarde de campagne de conteur (format « conteur.character », "
     "attendu « conteur.campaign »)",
     'not a conteur campaign backup (format "conteur.character", expected "conteur.campaign")'),
    (["version"], 99, TOP, "version",
     "sauvegarde en version 99 ; ce conteur lit les versions 1 à 1 (mettez conteur à jour)",
     "backup version 99; this conteur reads versions 1 to 1 (update conteur)"),
    (["campain"], {}, TOP, "campain",
     "champ inconnu ; vouliez-vous dire « campaign » ?", 'unknown field; did you mean "campaign"?'),
    (["campaign", "name"], KeyError, CAMP, "name", "obligatoire, absent", "required, missing"),
    (["campaign", "name"], "x" * 300, CAMP, "name",
     "300 caractères, au plus 200 permis", "300 characters, at most 200 allowed"),
    (["campaign", "settings"], [], CAMP, "settings",
     "doit être une table de clés et de valeurs (reçu « [] »)",
     'must be a mapping of keys to values (got "[]")'),
    (["campaign", "era"], "1700", CAMP, "era",
     "refusé par les règles : [V-ERA-1] époque inconnue « 1700 » (époques connues : 1899, modern)",
     'refused by the rules: [V-ERA-1] unknown era "1700" (known eras: 1899, modern)'),
    (["characters", 0, "slgu"], "ann", ANN, "slgu",
     "champ inconnu ; vouliez-vous dire « slug » ?", 'unknown field; did you mean "slug"?'),
    (["characters", 1, "versions", 0, "state"], "blessé", BOB, "versions[1].state",
     "doit être une table de clés et de valeurs (reçu « blessé »)",
     'must be a mapping of keys to values (got "blessé")'),
    (["characters", 2, "sheet", "dexterity"], "beaucoup", CID, "sheet › {Dextérité|Dexterity}",
     "doit être un nombre entier (reçu « beaucoup »)", 'must be a whole number (got "beaucoup")'),
    (["characters", 1, "sheet", "dexteryty"], 2, BOB, "sheet › dexteryty",
     "clé inconnue ; vouliez-vous dire « Dextérité » ?", 'unknown key; did you mean "Dexterity"?'),
    # a campaign character's sheet needs its name and its kind (a scenario's has defaults)
    (["characters", 0, "sheet", "nom"], KeyError, ANN, "sheet › {nom|name}",
     "obligatoire, absent", "required, missing"),
    (["characters", 1, "sheet", "kind"], KeyError, BOB, "sheet › {type|kind}",
     "obligatoire, absent", "required, missing"),
    (["characters", 0, "state", "willpower"], -5, ANN, "state › willpower",
     "doit valoir au moins 0 (reçu -5)", "must be at least 0 (got -5)"),
    (["characters", 0, "created_at"], "hier", ANN, "created_at",
     "doit être une date ISO 8601, comme 2026-12-01T20:00:00+00:00 (reçu « hier »)",
     'must be an ISO 8601 date, such as 2026-12-01T20:00:00+00:00 (got "hier")'),
    (["encounters", 1, "log", 1, "seq"], 7, REVANCHE, "log[2].seq",
     "7 au lieu de 1 (les numéros se suivent depuis le début)",
     "7 instead of 1 (numbers follow on from the start)"),
    (["encounters", 0, "log", 0, "kind"], "undo", SALOON, "log[1].kind",
     "« undo », mais l'entrée du journal dit « command »",
     '"undo", but the log entry says "command"'),
    # a log that does not replay: the entry, its command and the event named, no Python error
    (["encounters", 0, "log", 3, "entry", "events"], [{"type": "Nope"}], SALOON,
     "log[4].entry.events[1].type",
     "la commande « declare » de ann porte un événement d'un type que ces règles ne "
     "connaissent pas, « Nope »",
     'the command "declare" by ann carries an event of a type these rules do not know, "Nope"'),
    (["encounters", 0, "log", 3, "entry", "events", 0, "fighter"], KeyError, SALOON,
     "log[4].entry.events[1].fighter",
     "obligatoire, absent de l'événement « ActionDeclared » (la commande « declare » de ann)",
     'required, missing from the event "ActionDeclared" (the command "declare" by ann)'),
    (["encounters", 0, "log", 3, "entry", "events", 0, "fighter"], "zed", SALOON,
     "log[4].entry.events[1]",
     "l'événement n° 1 (« ActionDeclared ») de la commande « declare » de ann ne s'applique "
     "pas à la rencontre telle que le journal l'a menée jusque-là",
     'event #1 ("ActionDeclared") of the command "declare" by ann does not apply to the '
     "encounter as the log has brought it so far"),
    (["encounters", 0, "log", 3, "entry", "events", 0, "rolls"], [{"x": 1}], SALOON,
     "log[4].entry.events[1]",
     "l'événement « ActionDeclared » de la commande « declare » de ann ne se lit pas",
     'the event "ActionDeclared" of the command "declare" by ann cannot be read'),
    # a log that replays but that the rules would not have written: each command resolved
    # again with its own dice, its events compared field by field
    (["encounters", 0, "log", 4, "entry", "events", 0, "index"], 3, SALOON,
     "log[5].entry.events[1].index",
     "l'événement « ActionTaken » de la commande « act » de ann dit « 3 », les règles donnent "
     "« 0 »",
     'the event "ActionTaken" of the command "act" by ann says "3", the rules give "0"'),
    (["encounters", 0, "log", 4, "entry", "events", 0, "index"], "0", SALOON,
     "log[5].entry.events[1].index",
     "doit être un nombre entier (reçu « 0 »)", 'must be a whole number (got "0")'),
    (["encounters", 0, "log", 4, "entry", "events", 0, "bonus"], 2, SALOON,
     "log[5].entry.events[1].bonus",
     "champ inconnu de l'événement « ActionTaken »", 'unknown field of the event "ActionTaken"'),
    (["encounters", 0, "log", 4, "entry", "events", 1, "successes"], 5, SALOON,
     "log[5].entry.events[2].successes",
     "l'événement « AttackRolled » de la commande « act » de ann dit « 5 », les règles donnent "
     "« 3 »",
     'the event "AttackRolled" of the command "act" by ann says "5", the rules give "3"'),
    (["encounters", 0, "log", 8, "entry", "events"], lambda events: events * 2, SALOON,
     "log[9].entry.events",
     "la commande « gm_note » porte 2 événements, les règles en donnent 1",
     'the command "gm_note" carries 2 events, the rules give 1'),
    (["encounters", 0, "log", 3, "entry", "events"], "x", SALOON, "log[4].entry.events",
     "doit être une liste (reçu « x »)", 'must be a list (got "x")'),
    (["encounters", 0, "log", 3, "entry", "command"], KeyError, SALOON, "log[4].entry.command",
     "obligatoire, absent (une commande sans type)", "required, missing (a command with no type)"),
    (["encounters", 0, "log", 6, "entry", "undoes"], KeyError, SALOON, "log[7].entry.undoes",
     "obligatoire, absent (l'annulation)", "required, missing (the undo)"),
    (["encounters", 0, "scenario", "combatants", 0, "nom"], "Ann", SALOON,
     "scenario › {combattant n° 1 (ann) › nom|combatant #1 (ann) › nom}",
     "clé inconnue (clés permises : arme, armure_détruite, blood, camp, conditions, couvert, "
     "fiche, health, id, munitions, position, willpower)",
     "unknown key (allowed keys: ammo, armour_destroyed, blood, conditions, cover, health, id, "
     "position, sheet, side, weapon, willpower)"),
    (["encounters", 0, "characters", "ann"], 999, SALOON, "characters.ann",
     "le personnage n° 999 n'est pas dans la sauvegarde",
     "the character number 999 is not in the backup"),
    (["encounters", 1, "status"], "paused", REVANCHE, "status",
     "« paused » n'est pas permis (choix : open, closed)",
     '"paused" is not allowed (choices: open, closed)'),
]  # fmt: skip


def expected(entry: tuple[str, str], field: str, fr: str, en: str) -> tuple[str, str]:
    """The whole error line a reader gets, in French (its typography) and in English."""
    fr_field, en_field = field, field
    if "{" in field:  # a sheet's field, in each language's words
        head, words = field.split("{")
        fr_word, en_word = words.rstrip("}").split("|")
        fr_field, en_field = head + fr_word, head + en_word
    french = typo(f"partie.json : {entry[0]} : champ « {fr_field} » : {fr}")
    return french, f'partie.json: {entry[1]}: field "{en_field}": {en}'


def typo(text: str) -> str:
    """French typography: a narrow no-break space before « : ; ? ! » and inside « »."""
    text = re.sub(r" ([:;?!])", "\u202f\\1", text)
    return text.replace("« ", "«\u202f").replace(" »", "\u202f»")


@pytest.mark.parametrize(("path", "value", "entry", "field", "fr", "en"), BAD)
def test_a_bad_backup_is_refused_naming_file_entry_and_field_and_nothing_is_imported(
    source: tuple[Store, int],
    store: Store,
    path: list[Any],
    value: Any,
    entry: tuple[str, str],
    field: str,
    fr: str,
    en: str,
) -> None:
    old, cid = source
    data = json.loads(json.dumps(old.export_campaign(cid)))
    old.close()
    before = store.counts()
    with pytest.raises(ConteurError) as caught:
        store.import_campaign(_broken(data, path, value), "partie.json")
    assert (caught.value.message("fr"), caught.value.message("en")) == expected(
        entry, field, fr, en
    )
    assert store.counts() == before


@pytest.mark.parametrize(
    "field",
    [
        "slgu",
        "sheet › {nom|name}",
        "sheet › {type|kind}",
        "log[5].entry.events[1].bonus",
        "log[4].entry.events[1].type",
        "log[4].entry.events[1]",
    ],
)
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_conteur_db_import_refuses_a_bad_file_and_creates_nothing(
    source: tuple[Store, int], tmp_path: Path, lang: str, field: str
) -> None:
    """Through the command: exit 2, the file, entry and field named, « nothing imported »;
    the target database, which did not exist, still does not (the file is read first). A
    log that does not replay names its entry, command and event, not a Python error."""
    old, cid = source
    data = json.loads(json.dumps(old.export_campaign(cid)))
    old.close()
    backup = tmp_path / "partie.json"
    path, value, entry, _, fr, en = next(case for case in BAD if case[3] == field)
    backup.write_text(json.dumps(_broken(data, path, value)))
    target = tmp_path / "neuve.db"
    out = runner.invoke(
        app, ["db", "import", str(backup), "--url", f"sqlite:///{target}", "--lang", lang]
    )
    assert out.exit_code == 2
    line = expected(entry, field, fr, en)[0 if lang == "fr" else 1]
    nothing = {
        "fr": "Rien n'a été importé\u202f: la base est telle qu'avant.",
        "en": "Nothing was imported: the database is as it was.",
    }[lang]
    error = {"fr": "erreur\u202f: ", "en": "error: "}[lang]
    assert out.stderr == f"{error}{line.replace('partie.json', str(backup), 1)}\n{nothing}\n"
    assert not target.exists()


def test_an_unreadable_file_is_refused_in_both_languages(tmp_path: Path, db_url: str) -> None:
    bad = tmp_path / "cassé.json"
    bad.write_text('{"format": "conteur.campaign",\n "version": 1,,}', encoding="utf-8")
    fr = runner.invoke(app, ["db", "import", str(bad), "--url", db_url])
    assert fr.exit_code == 2 and "cassé.json" in fr.output and "ligne 2" in fr.output
    en = runner.invoke(app, ["db", "import", str(bad), "--url", db_url, "--lang", "en"])
    assert en.exit_code == 2 and "line 2" in en.output
    gone = runner.invoke(app, ["db", "import", str(tmp_path / "absent.json"), "--url", db_url])
    assert gone.exit_code == 2 and "absent.json" in gone.output
