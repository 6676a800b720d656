"""``CONTEUR_DATA_DIR`` through the strict input layer (issue 18): a data folder that
cannot be made — under a file, or where no folder can be — is refused naming the folder and
the variable, why in words, in French and in English, by ``conteur db`` and ``conteur serve``
alike (exit code 2, no traceback, no database)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from conteur.cli import app

runner = CliRunner()


@pytest.mark.parametrize("command", [["db", "info"], ["db", "init"], ["serve"]])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_data_folder_under_a_file_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str], lang: str
) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("un fichier, pas un dossier", encoding="utf-8")
    folder = blocker / "conteur"
    monkeypatch.setenv("CONTEUR_DATA_DIR", str(folder))
    monkeypatch.delenv("CONTEUR_DATABASE_URL", raising=False)
    result = runner.invoke(app, [*command, "--lang", lang])
    assert result.exit_code == 2
    if lang == "fr":
        want = (
            f"erreur\u202f: Impossible de créer le dossier de la base de données {folder} "
            "(donné par CONTEUR_DATA_DIR, ou le dossier de l'utilisateur)\u202f: un fichier "
            "porte déjà ce nom, ou celui d'un dossier au-dessus.\n"
        )
    else:
        want = (
            f"error: Cannot create the database's folder {folder} (given by CONTEUR_DATA_DIR, "
            "or the user's data folder): a file already has that name, or that of a folder "
            "above it.\n"
        )
    assert result.stderr == want
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
