"""``tests.shared.case_data``: every YAML case file of the tests reads as ruamel.yaml's safe loader reads it
(the same values of the same types, key order included), whether libyaml's fast path took it or declined it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from tests.shared import case_data

TESTS = Path(__file__).resolve().parents[1]
FILES = sorted(p for folder in ("sanguo", "engage") for p in (TESTS / folder).glob("*.yaml"))


def typed(value: Any) -> Any:
    """``value`` with every scalar paired with its exact type and every mapping as its list of items (so
    ``1 == 1.0 == True`` and a reordered mapping are told apart)."""
    if isinstance(value, dict):
        return [(typed(k), typed(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [typed(v) for v in value]
    return (type(value), value)


def test_the_case_files_are_all_there() -> None:
    assert len(FILES) >= 20 and (TESTS / "sanguo" / "board_cases.yaml") in FILES


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_a_case_file_reads_as_ruamel_yaml_reads_it(path: Path) -> None:
    assert typed(case_data(path)) == typed(YAML(typ="safe").load(path.read_text(encoding="utf-8")))
