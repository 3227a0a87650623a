"""The battle loop's numbered cases (tests/engage/rounds.yaml): each a small battle played through the
ruleset, its round records checked field by field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.scenario import dig, play, write_campaign
from tests.shared import case_data

HERE = Path(__file__).parent
CASES: list[dict[str, Any]] = case_data(HERE / "rounds.yaml")


def campaign(case: dict[str, Any]) -> dict[str, Any]:
    """A one-battle campaign around the case's units: zones 甲 and 乙 at the case's distance."""
    return {"title": case["name"], "ruleset": "engage", "seed": 720394857120394857, "readers": "边防军",
            "battles": [{"name": case["id"], "zones": [{"id": "甲"}, {"id": "乙"}],
                         "distances": [["甲", "乙", case["distance"]]], "units": case["units"],
                         "ai": {"巨魔": case.get("ai", {"posture": "attack"})}}],
            "orders": case.get("orders", {})}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_round_case(tmp_path: Path, case: dict[str, Any]) -> None:
    _, run = play(write_campaign(tmp_path, campaign(case)), part=12)
    rounds = {c.part: c.results for c in run.chapters if c.name is None}
    for n, where, want in case["expect"]:
        assert dig(rounds[n], where) == want, f"{case['id']}: round {n}: {where}"


def test_a_long_fight_continues_the_pool_of_the_round_before(tmp_path: Path) -> None:
    """E8: the 久战 round throws onto the pool the 接战 round left (RND-02's battle)."""
    case = next(c for c in CASES if c["id"] == "RND-02")
    _, run = play(write_campaign(tmp_path, campaign(case)), part=2)
    one, two = (dig(c.results, "engagements.attacker=剑士") for c in run.chapters[:2])
    assert two["pool_before"] == one["pool_after"] and two["pool_after"][:len(one["pool_after"])] == one["pool_after"]
