"""Every word in the reader's language: no catalogue id, no raw catalog key, no English
decimal in French, no plural hack, and each language's typography.

The ids come from the rulesets' own tables (``data/*.yaml``: weapons, armour, maneuvers,
conditions, locations, options...); the texts are every event of every shipped example
described in French and in English (and the veiled lines players read instead), the
``conteur play`` prose of each example, and the catalog itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from conteur.cli import app
from conteur.engine import Encounter
from conteur.engine.registry import available_rulesets, get_ruleset
from conteur.engine.script import play_script, script_lines, start, typed_dice
from conteur.engine.visibility import player
from conteur.i18n import LANGS, Lang, catalog, register_package_catalog, t

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = [
    *sorted(
        p
        for p in (ROOT / "examples").rglob("*.yaml")
        if p.with_suffix(".txt").exists() and p.with_suffix(".dice").exists()
    ),
    ROOT / "tests" / "plugins" / "examples" / "duel.yaml",  # the toy ruleset's (issue 12)
]
"""Every played example (a scenario with its script and dice), the toy duel's included."""
NNBSP = "\u202f"

for _pkg in ("conteur.web", "conteur.sim", "conteur.store"):
    register_package_catalog(_pkg)
for _part in ("db", "serve", "characters", "chrome"):
    register_package_catalog("conteur.cli", f"messages-{_part}.yaml")


# ---------------------------------------------------------------- the catalogue ids


def _names(node: dict[str, Any]) -> tuple[str, str] | None:
    if isinstance(node.get("fr"), str) and isinstance(node.get("en"), str):
        return node["fr"], node["en"]
    if isinstance(node.get("name_fr"), str):
        return node["name_fr"], str(node.get("name_en", node["name_fr"]))
    for key in ("name", "names"):
        if isinstance(node.get(key), dict) and "fr" in node[key]:
            return str(node[key]["fr"]), str(node[key]["en"])
    return None


def _walk(node: Any, key: Any, out: dict[str, tuple[str, str]]) -> None:
    if isinstance(node, dict):
        names = _names(node)
        if names and isinstance(key, str):
            out.setdefault(str(node.get("id", key)).removeprefix("word."), names)
        for k, v in node.items():
            if names and k in ("name", "names"):
                continue  # the entry's own name, not an entry called "name"
            _walk(v, k, out)
    elif isinstance(node, list):
        for v in node:
            _walk(v, v.get("id", key) if isinstance(v, dict) else key, out)


@cache
def catalogue_ids() -> dict[str, tuple[str, str]]:
    """Every id of the rulesets' tables with its French and English names."""
    out: dict[str, tuple[str, str]] = {}
    skip = {"rules.yaml", "archetypes.yaml", "script.yaml", "xp.yaml", "foundry.yaml"}
    for name in available_rulesets():
        module = type(get_ruleset(name)).__module__
        package = module.rpartition(".")[0] or module
        data = resources.files(package).joinpath("data")
        if not data.is_dir():
            continue
        for f in data.iterdir():
            if f.name.endswith(".yaml") and f.name not in skip:
                _walk(yaml.safe_load(f.read_text(encoding="utf-8")), None, out)
    return out


@cache
def _names_in(lang: Lang) -> re.Pattern[str]:
    """Every table name in ``lang`` (taken out of a text before looking for ids in it),
    whatever its case: two rulesets name one id « Full riot gear » and "full riot gear",
    and either may be the one ``catalogue_ids`` kept."""
    names = {(fr if lang == "fr" else en) for fr, en in catalogue_ids().values()}
    words = sorted((n for n in names if n), key=len, reverse=True)
    return re.compile(r"(?<!\w)(" + "|".join(map(re.escape, words)) + r")(?!\w)", re.IGNORECASE)


@cache
def _raw_patterns(lang: Lang) -> re.Pattern[str]:
    """The ids that must not show in ``lang``: those whose name there is another word."""
    raw: set[str] = set()
    for ident, (fr, en) in catalogue_ids().items():
        name = fr if lang == "fr" else en
        if len(ident) < 3 or ident.lower() in (name.lower(), name.lower().replace(" ", "_")):
            continue
        raw.add(ident)
        if "_" in ident:
            raw.add(ident.replace("_", " "))
    raw -= ALLOWED[lang]
    words = sorted(raw, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, words)) + r")(?![\w-])")


ALLOWED: dict[Lang, set[str]] = {
    # ids that are also ordinary words of that language (an English "close" combat...)
    "fr": {
        "notes",
        "names",
        "force",
        "intelligence",
        "courage",
        "constitution",
        "rapidité",
        "perception",
    },
    "en": {
        "notes",
        "shoot",
        "strike",
        "names",
        "close",
        "other",
        "pass",
        "dead",
        "out",
        "draw",
        "delay",
        "charge",
        "stand",
        "short",
        "long",
        "text",  # a complication's text (vtm's complications.yaml); "text" a field's label
    }
    | {
        "good",
        "light",
        "superior",
        "medium",
        "heavy",
        "burst",
        "shotgun",
        "rifle",
        "knife",
        "club",
    },
}

KEY = re.compile(r"\b(?:ev|word|web|cmd|param|phase|vtm|hunter|western|duel)\.[a-z_]+[\w.]*\b")
ENGLISH_DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")
HACK = re.compile(r"\w\((?:s|x|es)\)")


def problems(text: str, lang: Lang) -> list[str]:
    """What is wrong with one text a reader reads in ``lang``."""
    found: list[str] = []
    note = t("ev.GmNote", lang, text="").strip()
    if text.strip().startswith(note):
        return found  # the game master's own words follow
    ids = _raw_patterns(lang).findall(_names_in(lang).sub("#", text))
    if ids:
        found.append(f"catalogue ids {sorted(set(ids))}")
    keys = [k for k in KEY.findall(text) if k in catalog() or k.count(".") >= 1]
    if keys:
        found.append(f"catalog keys {keys}")
    if HACK.search(text):
        found.append("a (s)/(x) plural")
    if lang == "fr":
        if ENGLISH_DECIMAL.search(text):
            found.append(f"an English decimal {ENGLISH_DECIMAL.findall(text)}")
        if re.search(r"[ \u00a0][:;?!](\s|$)", text) or re.search(r"«[ \u00a0]|[ \u00a0]»", text):
            found.append("a plain space where French wants a narrow no-break one")
        if re.search(r"\w[;?!]|\w:(\s|$)", text.replace("://", "")):
            found.append("no space before « : ; ? ! »")
    elif re.search(r"\s[:;?!](\s|$)", text):
        found.append("a space before a colon in English")
    return found


def check(texts: Iterator[tuple[str, str]], lang: Lang) -> None:
    bad = [
        f"{where}: {text!r}: {', '.join(p)}" for where, text in texts if (p := problems(text, lang))
    ]
    assert not bad, f"{len(bad)} texts are wrong in {lang}:\n" + "\n".join(bad[:40])


# ---------------------------------------------------------------- the catalog itself


def _strip_fields(text: str) -> str:
    return re.sub(r"\{[^{}]*\}", "X", text.replace("{{", "").replace("}}", ""))


def test_every_catalog_entry_follows_its_languages_typography() -> None:
    """French: a narrow no-break space before « : ; ? ! » and inside « »; English: none;
    no « (s) » plural hack anywhere (a ``{n:one|other}`` field instead)."""
    for name in available_rulesets():
        get_ruleset(name)
    bad = []
    for key, forms in catalog().items():
        fr, en = _strip_fields(forms["fr"]), _strip_fields(forms["en"])
        if re.search(r"[ \u00a0][:;?!]", fr) or re.search(r"«[ \u00a0]|[ \u00a0]»", fr):
            bad.append(f"{key} (fr): {forms['fr']!r}")
        if re.search(r"\s[:;?!](\s|$)", en):
            bad.append(f"{key} (en): {forms['en']!r}")
        if HACK.search(fr) or HACK.search(en):
            bad.append(f"{key}: a plural hack")
    assert not bad, "\n".join(bad)


def test_plural_fields_and_decimals_follow_babel() -> None:
    from conteur.i18n import number, plural

    assert plural(1, "dé|dés", "fr") == "1 dé" and plural(0, "dé|dés", "fr") == "0 dé"
    assert plural(3, "dé|dés", "fr") == "3 dés" and plural(0, "die|dice", "en") == "0 dice"
    assert number(2.5, "fr") == "2,5" and number(2.5, "en") == "2.5"


# ---------------------------------------------------------------- every event, both languages


@cache
def played(path: Path) -> Encounter:
    enc = start(path)
    _, stopped = play_script(
        enc, script_lines(path.with_suffix(".txt")), typed_dice(path.with_suffix(".dice")), "fr"
    )
    assert stopped is None, stopped
    return enc


def event_texts(path: Path, lang: Lang) -> Iterator[tuple[str, str]]:
    enc = played(path)
    names = enc.ruleset.names(enc.state)
    reader = player(None)
    for entry in enc.log:
        for ev in getattr(entry, "events", ()):
            if "Note" in ev.type_name:
                continue  # the game master's own words
            yield ev.type_name, ev.describe(lang, names)
            veiled = ev.veiled(lang, names)
            if veiled and not reader.sees(ev.seen):
                yield f"{ev.type_name} (veiled)", veiled


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_event_of_every_example_reads_in_the_readers_language(path: Path, lang: Lang) -> None:
    check(event_texts(path, lang), lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_conteur_play_prose_reads_in_the_readers_language(path: Path, lang: Lang) -> None:
    args = [
        str(path),
        "--script",
        str(path.with_suffix(".txt")),
        "--dice",
        str(path.with_suffix(".dice")),
    ]
    result = CliRunner().invoke(app, ["play", *args, "--lang", lang])
    assert result.exit_code == 0, result.output
    lines = [
        re.sub(r"«[^»]*»", "«»", line)  # a script line quoted back as typed
        for line in result.output.splitlines()
        if not line.startswith("»")
    ]
    check(((f"line {i}", line) for i, line in enumerate(lines)), lang)


def test_labels_are_looked_up_per_ruleset_first() -> None:
    """Two games may label one command differently: ``<ruleset>.cmd.<type>`` first."""
    from conteur.web.view import label, rule_ids

    get_ruleset("duel")
    assert label("cmd", "attack", "fr", "duel") == "frapper"
    assert label("cmd", "attack", "en", "duel") == "strike"
    assert label("phase", "duel", "fr", "duel") == "duel en cours"
    cited = rule_ids("Ann attaque (V-DMG-4) <b>", "en")
    assert '<abbr class="rule" title="V-DMG-4' in cited and "&lt;b&gt;" in cited
