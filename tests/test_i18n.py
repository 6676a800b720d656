"""The message catalog: every key in French and English, same fields, every used key defined."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest
import yaml

import conteur.rulesets.vtm  # noqa: F401  (registers the ruleset's catalogs)
from conteur.cli.root import ROOT_COMMANDS
from conteur.engine import get_ruleset
from conteur.entry_points import resolve
from conteur.i18n import (
    CatalogError,
    ConteurError,
    Msg,
    catalog,
    parse_lang,
    percent,
    placeholders,
    register_catalog,
    t,
)
from conteur.sim import tactics as _sim_tactics  # noqa: F401  (registers the simulator's catalog)

SRC = Path(__file__).resolve().parents[1] / "src" / "conteur"
PLUGINS = Path(__file__).resolve().parent / "plugins"
"""The toy ruleset installed beside conteur (conftest): its catalog is checked like the others."""
CATALOG_FILES = sorted(SRC.rglob("messages*.yaml"))
SOURCE_FILES = sorted(SRC.rglob("*.py")) + sorted(PLUGINS.rglob("*.py"))

for _package in sorted({p.parent.relative_to(SRC).parts for p in CATALOG_FILES}):
    importlib.import_module(".".join(["conteur", *_package]))  # each registers its catalogs
for _command in ROOT_COMMANDS:  # each command's module registers its catalogs
    resolve(_command.target)
get_ruleset("duel")  # registers the toy's catalog, whichever test ran first


def load(path: Path) -> dict[str, dict[str, str]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    assert isinstance(data, dict), path
    return data


def test_catalog_files_are_found() -> None:
    assert CATALOG_FILES, "no messages*.yaml under src/conteur"


@pytest.mark.parametrize("path", CATALOG_FILES, ids=lambda p: str(p.relative_to(SRC)))
def test_every_key_has_a_french_and_an_english_form(path: Path) -> None:
    problems = []
    for key, forms in load(path).items():
        if not isinstance(forms, dict):
            problems.append(f"{key}: not a mapping")
            continue
        for lang in ("fr", "en"):
            text = forms.get(lang)
            if not isinstance(text, str) or not text.strip():
                problems.append(f"{key}: no {lang} form")
        extra = set(forms) - {"fr", "en"}
        if extra:
            problems.append(f"{key}: unexpected forms {sorted(extra)}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", CATALOG_FILES, ids=lambda p: str(p.relative_to(SRC)))
def test_both_forms_use_the_same_placeholders(path: Path) -> None:
    problems = []
    for key, forms in load(path).items():
        fr, en = placeholders(str(forms.get("fr", ""))), placeholders(str(forms.get("en", "")))
        if fr != en:
            problems.append(f"{key}: fr {sorted(fr)} != en {sorted(en)}")
    assert not problems, "\n".join(problems)


def test_the_loaded_catalog_is_the_files() -> None:
    keys = {key for path in CATALOG_FILES for key in load(path)}
    assert keys <= set(catalog())


def test_register_refuses_a_missing_form() -> None:
    with pytest.raises(CatalogError, match="needs exactly the forms"):
        register_catalog("test.yaml", "test.only_fr:\n  fr: bonjour\n")
    assert "test.only_fr" not in catalog()


def test_register_refuses_different_placeholders() -> None:
    with pytest.raises(CatalogError, match="different"):
        register_catalog("test.yaml", 'test.fields:\n  fr: "{a} dés"\n  en: "{b} dice"\n')
    assert "test.fields" not in catalog()


# ---------------------------------------------------------- keys used in src

CALL_KEY = re.compile(r"""\b(?:ConteurError|t|Msg|help_text)\(\s*["']([A-Za-z0-9_.]+)["']""")


def used_keys_in_calls() -> dict[str, list[str]]:
    """Keys passed literally to ConteurError(...), t(...), Msg(...), help_text(...)."""
    found: dict[str, list[str]] = {}
    for path in SOURCE_FILES:
        for match in CALL_KEY.finditer(path.read_text(encoding="utf-8")):
            found.setdefault(match.group(1), []).append(str(path.relative_to(SRC.parents[1])))
    return found


def key_like_literals() -> dict[str, list[str]]:
    """Every string constant in src that looks like a catalog key (``cli.label.dice``)."""
    prefixes = {key.split(".")[0] for key in catalog()}
    shape = re.compile(r"[a-z]+(\.[a-z0-9_]+)+")
    found: dict[str, list[str]] = {}
    for path in SOURCE_FILES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and shape.fullmatch(node.value)
                and node.value.split(".")[0] in prefixes
            ):
                found.setdefault(node.value, []).append(str(path.relative_to(SRC.parents[1])))
    return found


def test_the_scan_finds_keys() -> None:
    used = used_keys_in_calls()
    assert "dice.bad_face" in used and "cli.seed_and_dice" in used and "result.botch" in used


def test_every_key_used_in_src_exists() -> None:
    missing = {k: v for k, v in used_keys_in_calls().items() if k not in catalog()}
    assert not missing, f"keys used but not in the catalog: {missing}"


def test_every_key_like_literal_in_src_exists() -> None:
    """Catches keys chosen in a variable before ``t(key)``."""
    families = {k.rsplit(".", n)[0] for k in catalog() for n in range(1, k.count(".") + 1)}
    missing = {
        k: v
        for k, v in key_like_literals().items()
        # a family's prefix (a grammar's « hunter.script »: engine.grammar builds its keys)
        if k not in catalog() and k not in families
    }
    assert not missing, f"key-like strings not in the catalog: {missing}"


def dynamic_prefixes() -> set[str]:
    """Prefixes of keys built at run time, as in ``t(f"ev.{name}")``."""
    found: set[str] = set()
    for path in SOURCE_FILES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr) and node.values:
                head = node.values[0]
                if (
                    isinstance(head, ast.Constant)
                    and isinstance(head.value, str)
                    and re.fullmatch(r"[a-z]+(\.[a-z_]+)*\.", head.value)
                ):
                    found.add(head.value)
    return found


GRAMMARS = tuple(
    f"{importlib.import_module(f'conteur.rulesets.{name}.script').GRAMMAR.prefix}."
    for name in ("vtm", "hunter", "western")
)
"""The message prefixes of the rulesets' script grammars (``engine.grammar.Grammar``)."""


FORM_WORDS = tuple(
    f"{importlib.import_module(f'conteur.rulesets.{name}.sheetform').WORDS.prefix}."
    for name in ("hunter", "western")
)
"""The message prefixes of the rulesets' sheet forms (``engine.sheetform.FormWords``)."""


def _form_word(rest: str) -> bool:
    """A key's tail a sheet form's words build: a section, ``field.<key>`` or ``none``."""
    return re.fullmatch(r"(field\.)?\w+", rest) is not None


def _grammar_message(rest: str) -> bool:
    """A key's tail a grammar builds: one of its ``MESSAGES``, or ``expect.<what>``."""
    from conteur.engine.grammar import MESSAGES

    return rest in MESSAGES or re.fullmatch(r"expect\.\w+", rest) is not None


def test_every_catalog_key_is_used_somewhere() -> None:
    text = "\n".join(path.read_text(encoding="utf-8") for path in SOURCE_FILES)
    prefixes = tuple(dynamic_prefixes())
    unused = [
        key
        for key in catalog()
        if not key.startswith("test.")
        and f'"{key}"' not in text
        and f"'{key}'" not in text
        and not key.startswith(prefixes)
        # a ruleset's own label (view.label), word for a fate (view.fate_word), era
        # (view.era_title), one parameter's choice (view.word) or an optional choice left
        # empty (view.empty_choice)
        and not re.match(r"\w+\.(cmd|phase|param|fate|era|choice|empty)\.", key)
        # a script grammar's own messages (engine.grammar: <prefix>.missing,
        # <prefix>.expect.<kind>...)
        and not any(key.startswith(p) and _grammar_message(key[len(p) :]) for p in GRAMMARS)
        # a sheet form's section titles, field labels and empty choice (engine.sheetform)
        and not any(key.startswith(p) and _form_word(key[len(p) :]) for p in FORM_WORDS)
    ]
    assert not unused, f"catalog keys never used in src: {unused}"


def test_every_event_type_has_a_log_line_in_both_languages() -> None:
    """Each event a ruleset can emit has its ``ev.<Type>`` message in French and English."""
    from conteur.engine import event_types

    missing = [name for name in event_types() if f"ev.{name}" not in catalog()]
    assert not missing, f"events without a log line: {missing}"


# ---------------------------------------------------------------- rendering


def test_t_renders_each_language_and_defaults_to_french(monkeypatch: pytest.MonkeyPatch) -> None:
    assert t("result.successes", "fr", count=3) == "3 succès"
    assert t("result.successes", "en", count=3) == "3 successes"
    assert t("result.successes", count=2) == "2 succès"
    monkeypatch.setenv("CONTEUR_LANG", "en_GB.UTF-8")
    assert t("result.successes", count=2) == "2 successes"


def test_t_unknown_key_is_a_developer_error() -> None:
    with pytest.raises(KeyError):
        t("no.such.key", "fr")


@pytest.mark.parametrize(
    ("value", "lang"),
    [
        (None, "fr"),
        ("", "fr"),
        ("fr", "fr"),
        ("FR_fr", "fr"),
        ("en", "en"),
        ("en-US", "en"),
        ("EN", "en"),
        ("de", "fr"),
    ],
)
def test_parse_lang(value: str | None, lang: str) -> None:
    assert parse_lang(value) == lang


def test_msg_and_requests_render_in_the_language_asked() -> None:
    error = ConteurError("dice.bad_pool", field="x", value=1, reason=Msg("dice.reason.negative"))
    assert error.message("fr").endswith("(ne peut pas être négatif)")
    assert error.message("en").endswith("(cannot be negative)")


def test_error_message_carries_its_rule_id() -> None:
    error = ConteurError("result.failure", rule="V-ATK-5")
    assert error.message("fr") == "[V-ATK-5] échec"
    assert error.to_dict("en") == {
        "error": "result.failure",
        "rule": "V-ATK-5",
        "message": "[V-ATK-5] failure",
    }


def test_percent_is_written_the_french_or_the_english_way() -> None:
    assert percent(0.1234, "fr") == "12,3 %"
    assert percent(0.1234, "en") == "12.3%"
    assert percent(1.0, "fr", digits=0) == "100 %"


def test_signed_numbers_take_a_true_minus_through_babel() -> None:
    """« −2 » (U+2212) for a negative, « +3 » for the rest, grouped the language's way; a
    catalogue field written ``{x:+d}`` is filled so (vtm's ``ev.ModifierAdded``)."""
    from conteur.i18n import signed

    assert [signed(n, "fr") for n in (-2, 0, 3)] == ["\u22122", "+0", "+3"]
    assert signed(-1234, "fr") == "\u22121\u202f234" and signed(-1234, "en") == "\u22121,234"
    line = t("ev.ModifierAdded", "fr", fighter="Jack", dice=-1, difficulty=2, reason="pluie")
    assert line == (
        "Le Conteur modifie le prochain jet de Jack\u202f: dés \u22121, difficulté +2 (pluie)"
    )
