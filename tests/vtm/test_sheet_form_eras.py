"""The vtm sheet form offers the abilities of its era only (``data/abilities.yaml``):
no Computer nor Technology in 1899, both in the modern era."""

from __future__ import annotations

from conteur.engine.registry import get_ruleset


def _abilities(era: str) -> list[str]:
    form = get_ruleset("vtm").sheet_form(era)
    assert form is not None
    section = next(s for s in form.sections if s.id == "abilities")
    return [f.key.removeprefix("abilities.") for f in section.fields]


def test_the_1899_form_has_no_computer_nor_technology() -> None:
    victorian, modern = _abilities("1899"), _abilities("modern")
    assert "computer" not in victorian and "technology" not in victorian
    assert {"computer", "technology"} <= set(modern)
    assert set(modern) - set(victorian) == {"computer", "technology"}
    assert "riding" in victorian and "firearms" in victorian
