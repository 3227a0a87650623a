"""The scene loop's numbered cases (tests/sanguo/scene_cases.yaml): each a small scene played through the
ruleset, its chapters' TURN records checked field by field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.sanguo.cases import load
from tests.scenario import dig, play, write_campaign

CASES = load("scene_cases.yaml")


def campaign(case: dict[str, Any]) -> dict[str, Any]:
    """A one-scene campaign around the case's map and units (a camp for each side in the bottom corners)."""
    rows = case["terrain"]
    cols = len(rows[0])
    people = {u["主将"]: u["side"] for u in case["units"]}
    return {
        "title": case["name"], "ruleset": "sanguo", "seed": 720394857120394857, "readers": "汉军",
        "options": {"day_turns": case.get("day_turns", 3)},
        "scenes": [{
            "name": case["id"], "days": 1, "first": "汉军",
            "map": {"cols": cols, "rows": len(rows), "terrain": "\n".join(rows) + "\n"},
            "strongholds": [{"id": "汉营", "kind": "camp", "level": case.get("level", 1), "side": "汉军",
                             "corner": f"A{len(rows)}",
                             "store": case.get("store", 0)},
                            {"id": "黄营", "kind": "camp", "level": 1, "side": "黄巾",
                             "corner": f"{chr(64 + cols)}{len(rows)}"}],
            "characters": [{"name": n, "side": s, "统率": 8, "武力": 5, "智力": 5} for n, s in people.items()],
            "units": case["units"],
            "victory": [{"side": "汉军", "kind": "hold", "stronghold": "汉营"}],
            "facilities": case.get("facilities", []),
            "ai": {"黄巾": case.get("ai", {"posture": "hold", "objective": "黄营"})}}],
        "orders": case.get("orders", {})}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_scene_case(tmp_path: Path, case: dict[str, Any]) -> None:
    _, run = play(write_campaign(tmp_path, campaign(case)))
    chapters = {c.part: c.results for c in run.chapters if c.name is None}
    for part, turn, field, value in case["expect"]:
        got = dig(chapters[part]["turns"][turn], field)
        assert got == value, f"{case['id']}: chapter {part} turn {turn} {field}: {got!r} != {value!r}"
    for part, field, value in case.get("day_end", []):
        got = dig(chapters[part]["day_end"], field)
        assert got == value, f"{case['id']}: chapter {part} day_end {field}: {got!r} != {value!r}"
