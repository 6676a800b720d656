"""Why the system refused a file, in the reader's words (issue 18): « ce fichier n'existe
pas », « c'est un dossier, pas un fichier », « permission refusée »..., never the system's
English (« No such file or directory ») inside a French sentence.

Each case is a real file given to the CLI as a user gives it (a scenario, a script, a
backup, an export's output, a character to import): missing, a folder, not readable.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conteur.cli import app
from conteur.i18n import LANGS, Lang, os_reason, t
from conteur.store import open_store

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "fusillade.yaml"
NNBSP = "\u202f"

REASONS = {
    "missing": {"fr": "ce fichier n'existe pas", "en": "no such file"},
    "folder": {"fr": "c'est un dossier, pas un fichier", "en": "it is a folder, not a file"},
    "denied": {"fr": "permission refusée", "en": "permission denied"},
}
DISK = {
    "full": {"fr": "plus de place sur le disque", "en": "no space left on the disk"},
    "read_only": {"fr": "le disque est en lecture seule", "en": "the disk is read-only"},
}
ERROR = {"fr": f"erreur{NNBSP}: ", "en": "error: "}
COLON = {"fr": f"{NNBSP}: ", "en": ": "}


def _files(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "dossier"
    folder.mkdir()
    locked = tmp_path / "verrouillé.yaml"
    locked.write_text("ruleset: vtm\n", encoding="utf-8")
    locked.chmod(0)
    return {"missing": tmp_path / "absent.yaml", "folder": folder, "denied": locked}


def _denied_is_testable() -> None:
    if os.geteuid() == 0:  # root reads a chmod 000 file: ``test_os_reason_*`` covers EACCES
        pytest.skip("running as root: a chmod 000 file stays readable")


CASES = ["missing", "folder", "denied"]


def _case(tmp_path: Path, case: str) -> Path:
    """The file of ``case`` (skipped for ``denied`` where a chmod 000 file stays readable)."""
    if case == "denied":
        _denied_is_testable()
    return _files(tmp_path)[case]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stderr.strip()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", CASES)
def test_a_scenario_that_cannot_be_read(tmp_path: Path, case: str, lang: Lang) -> None:
    path = _case(tmp_path, case)
    script, dice = EXAMPLE.with_suffix(".txt"), EXAMPLE.with_suffix(".dice")
    code, err = run("play", str(path), "--script", str(script), "--dice", str(dice), "--lang", lang)
    said = {"fr": "impossible de lire le fichier", "en": "cannot read the file"}[lang]
    assert code == 2
    assert err == f"{ERROR[lang]}{path}{COLON[lang]}{said} ({REASONS[case][lang]})"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", CASES)
def test_a_script_that_cannot_be_read(tmp_path: Path, case: str, lang: Lang) -> None:
    path = _case(tmp_path, case)
    dice = EXAMPLE.with_suffix(".dice")
    code, err = run(
        "play", str(EXAMPLE), "--script", str(path), "--dice", str(dice), "--lang", lang
    )
    said = {
        "fr": f"impossible de lire le fichier «{NNBSP}{path}{NNBSP}»",
        "en": f'cannot read the file "{path}"',
    }[lang]
    assert code == 2
    assert err == f"{ERROR[lang]}{said}{COLON[lang]}{REASONS[case][lang]}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", CASES)
def test_a_backup_that_cannot_be_read(tmp_path: Path, case: str, lang: Lang) -> None:
    path = _case(tmp_path, case)
    url = f"sqlite:///{tmp_path / 'x.db'}"
    code, err = run("db", "import", str(path), "--url", url, "--lang", lang)
    said = {"fr": "Impossible de lire", "en": "Cannot read"}[lang]
    assert code == 2
    assert err == f"{ERROR[lang]}{said} {path}{COLON[lang]}{REASONS[case][lang]}"
    assert not (tmp_path / "x.db").exists()  # refused before any database is opened


@pytest.mark.parametrize("lang", LANGS)
def test_an_export_that_cannot_be_written(tmp_path: Path, lang: Lang) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    store = open_store(url)
    camp = store.create_campaign("Saloon", "vtm")
    store.close()
    folder = _files(tmp_path)["folder"]
    code, err = run(
        "db", "export", "--campaign", str(camp.id), "--output", str(folder), "--url", url,
        "--lang", lang,
    )  # fmt: skip
    said = {"fr": "Impossible d'écrire", "en": "Cannot write"}[lang]
    assert code == 2
    assert err == f"{ERROR[lang]}{said} {folder}{COLON[lang]}{REASONS['folder'][lang]}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", CASES)
def test_a_character_to_import_that_cannot_be_read(tmp_path: Path, case: str, lang: Lang) -> None:
    path = _case(tmp_path, case)
    code, err = run("import", "foundry", str(path), "--lang", lang)
    said = {"fr": "impossible de lire le fichier", "en": "cannot read the file"}[lang]
    assert code == 2
    assert err == f"{ERROR[lang]}{said} {path}{COLON[lang]}{REASONS[case][lang]}"


@pytest.mark.parametrize("lang", LANGS)
def test_os_reason_words_the_common_cases_and_keeps_the_rare_ones(lang: Lang) -> None:
    """EACCES (what root cannot provoke with chmod), a full or read-only disk: our words;
    an errno we have none for: the system's own text."""
    words = {
        errno.EACCES: REASONS["denied"][lang],
        errno.EPERM: REASONS["denied"][lang],
        errno.ENOENT: REASONS["missing"][lang],
        errno.EISDIR: REASONS["folder"][lang],
        errno.ENOSPC: DISK["full"][lang],
        errno.EROFS: DISK["read_only"][lang],
    }
    for number, said in words.items():
        reason = os_reason(OSError(number, os.strerror(number)))
        assert t("cli.db.unreadable", lang, source="f", reason=reason).endswith(said), number
    rare = OSError(errno.EXDEV, os.strerror(errno.EXDEV))
    assert os_reason(rare) == os.strerror(errno.EXDEV)


@pytest.mark.parametrize("lang", LANGS)
def test_a_plot_that_cannot_be_written(tmp_path: Path, lang: Lang) -> None:
    """``simulate --plot`` under a file: refused in words, not a traceback."""
    blocker = tmp_path / "fichier"
    blocker.write_text("x", encoding="utf-8")
    plot = blocker / "graphique"
    code, err = run(
        "simulate", str(ROOT / "examples" / "saloon.yaml"), "--runs", "2", "--plot", str(plot),
        "--workers", "1", "--lang", lang,
    )  # fmt: skip
    said = {
        "fr": f"impossible d'écrire le graphique {plot}{NNBSP}: un fichier porte déjà ce nom, "
        "ou celui d'un dossier au-dessus",
        "en": f"cannot write the plot {plot}: a file already has that name, or that of a "
        "folder above it",
    }[lang]
    assert code == 2
    assert err.splitlines()[-1] == f"{ERROR[lang]}{said}"
