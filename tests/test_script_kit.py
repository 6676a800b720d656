"""The script language's kit (``conteur.engine.lexicon``) and the three rulesets' words on it.

``tests/golden/script_lines.json`` holds, for every line of every example script of the
three rulesets, the command each ruleset's parser made of it (or the error it gave)
before the parsers were put on the shared kit, read in the state the fight had at that
line. Each example is played again here and every line read again must give the same.
Regenerate (when a change of the language is meant) with::

    python tests/test_script_kit.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from conteur.engine import Command
from conteur.engine.lexicon import Entry, Lexicon, Reader, head, name_forms, speaker, tokenize
from conteur.engine.script import play_script, script_lines, start, typed_dice
from conteur.i18n import ConteurError

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
LINES = Path(__file__).resolve().parent / "golden" / "script_lines.json"


def _examples() -> list[str]:
    found = [*EXAMPLES.glob("*.yaml"), *EXAMPLES.glob("*/*.yaml")]
    return sorted(
        p.relative_to(EXAMPLES).with_suffix("").as_posix()
        for p in found
        if p.with_suffix(".txt").exists() and p.with_suffix(".dice").exists()
    )


def _outcome(parse: Any, line: str, state: Any) -> dict[str, Any]:
    try:
        command: Command = parse(line, state)
    except ConteurError as error:
        return {"line": line, "error": error.key, "fr": error.message("fr")}
    return {"line": line, "command": command.to_dict()}


def read_example(name: str) -> list[dict[str, Any]]:
    """Every line of example ``name`` read by its ruleset's parser, in the order played
    (a line waiting for its turn is read again each time it is tried)."""
    path = EXAMPLES / name
    encounter = start(path.with_suffix(".yaml"))
    ruleset = encounter.ruleset
    seen: list[dict[str, Any]] = []
    real = ruleset.parse_command

    def parse(line: str, state: Any, lang: Any = None) -> Command:
        seen.append(_outcome(lambda t, s: real(t, s, lang), line, state))
        return real(line, state, lang)

    ruleset.parse_command = parse  # type: ignore[method-assign]
    try:
        play_script(
            encounter,
            script_lines(path.with_suffix(".txt")),
            typed_dice(path.with_suffix(".dice")),
            "fr",
        )
    finally:
        del ruleset.parse_command
    return seen


@pytest.mark.parametrize("name", _examples())
def test_every_example_line_reads_as_before(name: str) -> None:
    stored = json.loads(LINES.read_text(encoding="utf-8"))
    assert name in stored, f"{name}: not in {LINES.name} (python {__file__})"
    now = read_example(name)
    assert len(now) == len(stored[name])
    for before, after in zip(stored[name], now, strict=True):
        assert after == before


def test_the_stored_lines_cover_every_ruleset() -> None:
    """The comparison above is not empty: each ruleset's examples read many commands."""
    stored = json.loads(LINES.read_text(encoding="utf-8"))
    by_folder: dict[str, int] = {}
    for name, lines in stored.items():
        folder = name.split("/")[0] if "/" in name else "vtm"
        by_folder[folder] = by_folder.get(folder, 0) + sum("command" in x for x in lines)
    assert set(by_folder) == {"vtm", "hunter", "western"}
    assert min(by_folder.values()) >= 10


# --------------------------------------------------------------------------- the kit itself


def test_tokens_fold_accents_and_keep_quotes_numbers_pairs() -> None:
    toks = tokenize("Bob: tire sur « le Grand Œil » 3,5 x2 -1 dégâts")
    assert [(t.type, t.norm or t.value) for t in toks] == [
        ("word", "bob"),
        ("word", "tire"),
        ("word", "sur"),
        ("text", "le Grand Œil"),
        ("pos", (3.0, 5.0)),
        ("rep", 2),
        ("num", "1"),
        ("word", "degats"),
    ]
    assert toks[6].value == -1


def test_the_longest_phrase_wins_then_the_priority() -> None:
    lex = Lexicon(("verb", "word"))
    lex.add("dégaine", Entry("verb", "draw"))
    lex.add("dégaine vite", Entry("verb", "quick"))
    lex.add("degaine", Entry("word", "other"))
    toks = tokenize("DEGAINE-VITE colt")
    assert [(n, [e.key for e in es]) for n, es in lex.matches(toks, 0)] == [(1, ["quick"])]
    toks = tokenize("Dégaine colt")
    assert [(n, [e.key for e in es]) for n, es in lex.matches(toks, 0)] == [(1, ["draw", "other"])]


def test_fighters_are_named_by_id_name_or_a_word_only_they_have() -> None:
    forms = name_forms({"a1": "Ana Reyes", "b1": "Bob Reyes", "c1": "Al"})
    assert forms == {
        "a1": ["a1", "Ana Reyes", "ana"],
        "b1": ["b1", "Bob Reyes", "bob"],
        "c1": ["c1", "Al"],
    }


def test_the_head_names_the_speaker() -> None:
    lex = Lexicon()
    lex.add("Ana Reyes", Entry("actor", "ana"))
    lex.add("mj", Entry("actor", ""))
    line = head("ANA-reyes: tire")
    assert line.colon and line.body == " tire"
    found = speaker(line.head, lex, "actor")
    assert found is not None and found.key == "ana"
    assert speaker("zorglub", lex, "actor") is None
    assert not head("initiative").colon


def test_an_unknown_word_names_the_line_the_word_and_the_closest() -> None:
    lex = Lexicon()
    lex.add("esquive", Entry("verb", "dodge"))
    reader = Reader(
        "ana: esquiv", "esquiv", ("vtm.script.unknown_word", "vtm.script.unknown_word_suggest")
    )
    assert reader.peek() is not None
    error = reader.unknown(reader.toks[0], lex)
    assert error.key == "vtm.script.unknown_word_suggest"
    assert error.params["line"] == "ana: esquiv"
    assert error.params["word"] == "esquiv"
    assert error.params["suggestions"].words == ["esquive"]
    assert error.params["suggestions"].describe("en") == '"esquive"'


if __name__ == "__main__":
    out = {name: read_example(name) for name in _examples()}
    LINES.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    sys.exit(0)


# --------------------------------------------------------------------------- the grammar


def _hunter_words() -> str:
    from importlib import resources

    path = resources.files("conteur.rulesets.hunter").joinpath("data", "script.yaml")
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new", "entry", "field", "fr", "en"),
    [
        # A slot of a kind no grammar reads.
        (
            "amount: {kind: int,",
            "amount: {kind: entier,",
            "gm_verbs.gm_damage",
            "slots.amount.kind",
            "«\u202fentier\u202f»",
            '"entier"',
        ),
        # A misspelt field of a verb.
        (
            "words: [embuscade, ambush]",
            "wrds: [embuscade, ambush]",
            "gm_verbs.ambush",
            "wrds",
            "wrds",
            "wrds",
        ),
        # A body no grammar reads.
        (
            "words: [passe, pass]",
            "words: [passe, pass]\n    body: dance",
            "verbs.pass",
            "body",
            "dance",
            "dance",
        ),
    ],
)
def test_a_mistake_in_the_script_words_names_file_entry_and_field(
    old: str, new: str, entry: str, field: str, fr: str, en: str
) -> None:
    from conteur.engine.grammar import parse_words
    from conteur.engine.inputs import InputError
    from conteur.rulesets.hunter.script import GRAMMAR, ScriptWords

    text = _hunter_words()
    assert old in text
    with pytest.raises(InputError) as err:
        parse_words(
            text.replace(old, new), "hunter/data/script.yaml", ScriptWords, GRAMMAR.known_kinds()
        )
    assert err.value.params["entry"] == entry
    assert err.value.field == field
    message_fr, message_en = err.value.message("fr"), err.value.message("en")
    assert "hunter/data/script.yaml" in message_fr and "hunter/data/script.yaml" in message_en
    assert entry in message_fr and entry in message_en
    assert fr in message_fr and en in message_en
    assert message_fr != message_en


def test_a_verb_added_to_the_data_reads_without_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hunter's words with one more verb (its slots in the data only) read that verb."""
    from conteur.engine.grammar import parse_words
    from conteur.rulesets.hunter import script
    from conteur.rulesets.hunter.script import GRAMMAR, ScriptWords

    extra = (
        "  taunt:\n"
        "    command: act\n"
        "    args: {kind: taunt}\n"
        "    words: [nargue, taunt]\n"
        "    slots:\n"
        "      target: {kind: fighter, positional: true, required: true}\n"
        "      loud: {kind: flag, words: [fort, loudly]}\n"
        "      times: {kind: int, words: [fois, times]}\n"
    )
    text = _hunter_words().replace("\nverbs:\n", "\nverbs:\n" + extra)
    words = parse_words(text, "hunter/data/script.yaml", ScriptWords, GRAMMAR.known_kinds())
    monkeypatch.setattr(script, "words", lambda: words)
    script._CACHE.clear()
    try:
        from tests.hunter.fight import Fight, sheet

        f = Fight(sheet("ana"), sheet("bete", name="la Bête"))
        parse = f.encounter.ruleset.parse_command
        assert parse("ana: nargue la Bête fort fois 3", f.state) == Command(
            "act", "ana", {"kind": "taunt", "target": "bete", "loud": True, "times": 3}
        )
        with pytest.raises(ConteurError) as err:
            parse("ana: taunt", f.state)
        assert err.value.key == "hunter.script.missing"
        assert err.value.message("en") == '"ana: taunt": missing a character'
        assert err.value.message("fr") == "«\u202fana: taunt\u202f»\u202f: il manque un personnage"
    finally:
        script._CACHE.clear()


def _hunter_fight() -> Any:
    from tests.hunter.fight import Fight, sheet

    return Fight(sheet("ana"), sheet("bete", name="la Bête"), sheet("goule"))


def _western_encounter() -> Any:
    from tests.western.test_examples import enc

    return enc()


@pytest.mark.parametrize(
    ("ruleset", "line", "key", "fr", "en"),
    [
        # A word the line does not take is named, not dropped (a second target).
        (
            "hunter",
            "ana: attaque bete goule",
            "hunter.script.unknown_word",
            "«\u202fana: attaque bete goule\u202f»\u202f: mot non compris «\u202fgoule\u202f»",
            '"ana: attaque bete goule": word not understood: "goule"',
        ),
        (
            "hunter",
            "mj: degats bete 2 3",
            "hunter.script.number",
            "«\u202fmj: degats bete 2 3\u202f»\u202f: nombre en trop «\u202f3\u202f»",
            '"mj: degats bete 2 3": a number this command does not take: "3"',
        ),
        (
            "western",
            "bill: passe maintenant",
            "western.script.unknown_word",
            "Ligne non comprise\u202f: «\u202fbill: passe maintenant\u202f»\u202f: "
            "«\u202fmaintenant\u202f»\u202f?",
            'Line not understood: "bill: passe maintenant": "maintenant"?',
        ),
        (
            "western",
            "mj: ligote",
            "western.script.missing",
            "Ligne non comprise\u202f: «\u202fmj: ligote\u202f»\u202f: il manque un personnage",
            'Line not understood: "mj: ligote": missing a character',
        ),
        (
            "western",
            "bill: assomme joe avec",
            "western.script.expected",
            "Ligne non comprise\u202f: «\u202fbill: assomme joe avec\u202f»\u202f: "
            "après «\u202favec\u202f», il faut une arme",
            'Line not understood: "bill: assomme joe avec": after "avec", expected a weapon',
        ),
    ],
)
def test_the_grammar_names_the_line_and_the_word_in_both_languages(
    ruleset: str, line: str, key: str, fr: str, en: str
) -> None:
    if ruleset == "hunter":
        f = _hunter_fight()
        parse, state = f.encounter.ruleset.parse_command, f.state
    else:
        e = _western_encounter()
        parse, state = e.ruleset.parse_command, e.state
    with pytest.raises(ConteurError) as err:
        parse(line, state)
    assert err.value.key == key
    assert err.value.message("fr") == fr
    assert err.value.message("en") == en


def test_western_names_run_up_to_the_next_keyword() -> None:
    """A keyword may come in any order after the target; the words between are the name."""
    e = _western_encounter()
    parse = e.ruleset.parse_command
    assert parse("bill: tire sur joe mod -10 vise tête", e.state) == Command(
        "attack", "bill", {"target": "joe", "zone": "head", "modifier": -10}
    )
    assert parse("mj: surprise joe attaqué", e.state) == Command(
        "surprise", None, {"target": "joe", "surprise": "attacked"}
    )
