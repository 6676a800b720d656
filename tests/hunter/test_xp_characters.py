"""H-XP-2 counts read from the characters (a campaign export) instead of the logs: both
paths agree on the shipped session-2 example."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from conteur.i18n import ConteurError
from conteur.rulesets.hunter.xp import session_report

from .campaign import EXAMPLES, session_2_export


def counters(export: str) -> dict[str, object]:
    data = yaml.safe_load(export)
    return {c["sheet"]["id"]: c["state"]["xp_counters"] for c in data["characters"]}


def test_H_XP_2_the_shipped_export_is_what_the_store_writes_after_the_fight(
    tmp_path: Path,
) -> None:
    played = session_2_export(tmp_path / "c.db")
    shipped = (EXAMPLES / "session-2-personnages.yaml").read_text("utf-8")
    assert counters(shipped) == counters(played)
    assert counters(played)["margot"] == {"exceptional_vs_monster": 1, "dramatic_failures": 0}


def test_H_XP_2_counting_the_characters_or_the_logs_gives_the_same_award() -> None:
    by_logs = session_report(EXAMPLES / "session-2.yaml")
    by_characters = session_report(EXAMPLES / "session-2-compteurs.yaml")
    assert [(line.key, line.count) for line in by_characters.award.lines] == [
        (line.key, line.count) for line in by_logs.award.lines
    ]
    exceptional = {line.key: line.count for line in by_characters.award.lines}
    assert exceptional["exceptional_successes"] == 2 and exceptional["dramatic_failures"] == 0
    assert by_characters.award.total == by_logs.award.total == 7
    assert [c.log for c in by_characters.logs] == [
        "session-2-personnages.yaml : margot",
        "session-2-personnages.yaml : lucien",
    ]
    assert all(c.character for c in by_characters.logs)
    assert not any(c.character for c in by_logs.logs)


def summary(tmp_path: Path, extra: str, export: str) -> Path:
    (tmp_path / "export.yaml").write_text(export, "utf-8")
    path = tmp_path / "s.yaml"
    path.write_text(
        "joueurs: [{nom: Alice, chasseurs: [margot]}]\npersonnages: export.yaml\n" + extra, "utf-8"
    )
    return path


ONE = "ruleset: hunter\nsheet: {id: margot}\nstate: {xp_counters: {dramatic_failures: 2}}\n"


def test_H_XP_2_a_single_character_export_counts_its_dramatic_failures(tmp_path: Path) -> None:
    report = session_report(summary(tmp_path, "", ONE))
    line = next(x for x in report.award.lines if x.key == "dramatic_failures")
    assert line.count == 2 and line.points == 2  # +1 each (H-XP-2)


@pytest.mark.parametrize(
    ("extra", "export", "key"),
    [
        ("rencontres: [{journal: x.json}]\n", ONE, "xp.bad_summary"),
        ("", ONE.replace("margot", "lucien"), "xp.characters.missing"),
        ("", "- 1\n- 2\n", "xp.characters.not_an_export"),
        ("", "characters: [{state: {}}]\n", "xp.characters.bad_entry"),
        ("", ONE.replace("hunter", "vtm"), "xp.characters.ruleset"),
        ("", ONE.replace("2}", "-2}"), "hunter.sheet.bad_value"),
    ],
)
def test_H_XP_2_a_bad_characters_file_is_refused(
    tmp_path: Path, extra: str, export: str, key: str
) -> None:
    with pytest.raises(ConteurError) as err:
        session_report(summary(tmp_path, extra, export))
    assert err.value.key == key
