"""Every DATC-style case of tests/engage/*_cases.yaml, one parametrized test (cases.judge runs each)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engage.builders import BUILDERS
from tests.engage.cases import HERE, judge, load

CASES: list[dict[str, Any]] = [c for path in sorted(HERE.glob("*_cases.yaml")) for c in load(path.name)]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case: dict[str, Any]) -> None:
    """One numbered case: its judgement is the expected one."""
    judge(case, BUILDERS)


def test_ids_are_unique_across_files() -> None:
    """A case id names one case in the whole suite."""
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
