"""Sentences the review found wrong, checked over three seasons of the built-in campaign (issue 15)."""

from __future__ import annotations

import re
from pathlib import Path

CN_SEASON = {1: "一", 2: "二", 3: "三"}


def test_the_season_close_names_its_own_season(three: tuple[Path, int]) -> None:
    """「…的第一季落幕」 was hard-coded: season N's month 12 names season N (or no season at all)."""
    out, _ = three
    for season, digit in CN_SEASON.items():
        text = (out / f"s{season:02d}" / "m12.md").read_text(encoding="utf-8")
        named = set(re.findall(r"的第(.)季落幕", text))
        assert named <= {digit}, (season, named)


def test_the_doctor_shortens_only_what_he_shortened(three: tuple[Path, int]) -> None:
    """「→ 1 周，队医 2 级缩短为 1 周」: a doctor is said to shorten an absence only when the weeks changed."""
    out, _ = three
    seen = 0
    for path in sorted(out.glob("s*/*.md")):
        for before, after in re.findall(r"→ (\d+) 周，队医 \d 级缩短为 (\d+) 周", path.read_text(encoding="utf-8")):
            seen += 1
            assert int(after) < int(before), (path.name, before, after)
    assert seen > 0  # the check ran on real sentences
