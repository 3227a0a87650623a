"""A month's title never contradicts the month: only a month our club won every match of (two or more)
may be titled as a winning run, only a month without a win as a dark one."""

from __future__ import annotations

import json
from pathlib import Path

from anko_writer.yamlio import load_yaml_text

PHRASES = Path(__file__).resolve().parents[3] / "templates" / "purasbar" / "phrases.yaml"


def _bank(key: str) -> set[str]:
    """The titles of one phrase bank."""
    return set(load_yaml_text(PHRASES.read_text(encoding="utf-8"), PHRASES)[key])


def test_titles_follow_the_results(three: tuple[Path, int]) -> None:
    perfect, good, bad = _bank("title_perfect"), _bank("title_good"), _bank("title_bad")
    seen = 0
    for path in sorted(three[0].glob("s*/m*.json")):
        rec = json.loads(path.read_text(encoding="utf-8"))
        title = path.with_suffix(".md").read_text(encoding="utf-8").splitlines()[0].split("　", 1)[1]
        results = [rec["matches"][i]["winner"] for i in rec["our_matches"]]
        wins, losses = results.count(rec["club"]), sum(1 for w in results if w and w != rec["club"])
        if title in perfect:
            assert wins == len(results) >= 2, (path, title, results)
            seen += 1
        if title in good:
            assert wins >= 1 and losses == 0 and not wins == len(results) >= 2, (path, title, results)
        if title in bad:
            assert wins == 0 and losses >= 1, (path, title, results)
    assert seen > 0  # the built-in campaign has winning runs: the check above did run
