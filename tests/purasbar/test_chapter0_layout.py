"""Chapter 0's formation vote (issue 28): each of the four formations is its own bullet, as in a month's vote."""

from __future__ import annotations

import re
from pathlib import Path

SHIPPED = Path(__file__).resolve().parents[2] / "campaigns" / "recht-chapter0.md"


def test_the_four_formations_are_four_bullets() -> None:
    text = SHIPPED.read_text(encoding="utf-8")
    bullets = re.findall(r"^- \*\*([A-D])\. ", text, re.M)
    assert bullets == ["A", "B", "C", "D"]
    assert not re.search(r"无克制- \*\*|克制 [+−]\d- \*\*", text)  # no option runs into the next
