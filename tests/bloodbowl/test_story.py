"""The chapters as an anko thread: story facts (``league/story.py``) and the prose the templates make of
them, measured on two real seasons: headlines unique within a season, no die lost, clean Markdown,
balanced folds, no prose problems, and at least 80 % of the narrative sentences distinct."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from anko_writer.render import find_problems
from anko_writer.rulesets.bloodbowl.league.story import headline_key, place
from anko_writer.rulesets.bloodbowl.ruleset import INFO
from tests.bloodbowl.conftest import run
from tests.main_text import main_lines


@pytest.fixture(scope="module")
def two_seasons(tmp_path_factory: pytest.TempPathFactory, league: Path, season_one: Path) -> Path:
    """Seasons 1 and 2 of the test league (the second from the first's state file)."""
    out = tmp_path_factory.mktemp("story") / "out"
    shutil.copytree(season_one, out)
    run("arc", league, "--arc", "2", "--out", out, "--force")
    return out


def chapters(out: Path, season: int) -> list[tuple[str, dict]]:
    folder = out / f"s{season:02d}"
    return [(p.read_text(encoding="utf-8"), json.loads(p.with_suffix(".json").read_text(encoding="utf-8")))
            for p in sorted(folder.glob("h*.md"))]


def narrative(md: str) -> list[str]:
    """The story sentences of a chapter: prose paragraphs outside folds, code, tables, lists, headings and
    the vote, with the dice lines taken out."""
    out: list[str] = []
    for line in main_lines(md):
        if not line.strip() or line.startswith(("#", "|", "- ", "〔")) or "字母，向" in line:
            continue  # headings, tables, lists, seals, a diagram's legend
        text = re.sub(r"「[^」]*」", "", line)
        out += [s.strip() for s in re.split(r"[。！？]", text) if re.search(r"[\u4e00-\u9fff]", s)]
    return out


def test_place_in_words() -> None:
    assert place([24, 2], "home") == {"to_go": 2, "half": "theirs", "lane": "left", "square": [24, 2],
                                      "side": "home"}
    assert place([1, 8], "away")["to_go"] == 0 and place([20, 8], "away")["half"] == "own"
    assert place([5, 14], "away")["lane"] == "left" and place([5, 14], "home")["lane"] == "right"
    assert place(None, "home") is None


def test_headline_keys() -> None:
    assert headline_key({"kind": "death", "victim_ours": True}) == "death_ours"
    assert headline_key({"kind": "cas", "ours": True}) == "cas_theirs"
    assert headline_key({"kind": "td_last", "ours": False}) == "td_last_theirs"
    assert headline_key({"kind": "ko"}) == "grind"


def test_titles_unique_and_true(two_seasons: Path) -> None:
    for season in (1, 2):
        titles = []
        for md, rec in chapters(two_seasons, season):
            title = md.splitlines()[0].split("　", 1)[1]
            titles.append(title)
            story = rec["story"]
            scored = [t for t in rec["turns"] if t["turnover"] == "touchdown"]
            if story["headline"].startswith("td"):
                assert scored, (title, story["headline"])
            if story["headline"].startswith("death"):
                assert any(c["outcome"].get("result") == "dead" for c in rec["casualties"])
            if story["headline"] == "grind":
                assert not scored and not rec["casualties"]
        assert len(titles) == len(set(titles)), titles


def test_no_die_lost(two_seasons: Path) -> None:
    for season in (1, 2):
        for md, rec in chapters(two_seasons, season):
            sealed = {r["id"] for r in rec["sealed"]}
            for r in rec["rolls"]:
                assert r["id"] in md, (rec["part"], r["id"])
                if r["id"] in sealed:
                    assert re.search(rf"〔封存｜编号 {re.escape(r['id'])}｜", md)


def test_clean_markdown_and_prose(two_seasons: Path) -> None:
    for season in (1, 2):
        for md, rec in chapters(two_seasons, season):
            assert "\n\n\n" not in md, rec["part"]
            opened = sum(1 for line in md.splitlines() if line.startswith("::: fold"))
            closed = sum(1 for line in md.splitlines() if line.strip() == ":::")
            assert opened == closed, rec["part"]
            assert md.count(":::: vote") == 1 and md.rstrip().endswith("::::")
            assert find_problems(md, INFO.allowed_words) == [], rec["part"]


def test_each_turn_is_told_before_its_dice(two_seasons: Path) -> None:
    md, rec = chapters(two_seasons, 1)[0]
    for block in md.split("\n### 第")[1:]:
        body = [line for line in block.splitlines()[1:] if line.strip()]
        if "回合 · " in block.splitlines()[0]:
            assert body and not body[0].startswith(("- ", ":::", "```")), block[:200]


def test_sentences_are_varied(two_seasons: Path) -> None:
    sentences = [s for season in (1, 2) for md, _ in chapters(two_seasons, season) for s in narrative(md)]
    ratio = len(set(sentences)) / len(sentences)
    print(f"distinct narrative sentences: {len(set(sentences))}/{len(sentences)} = {ratio:.1%}")
    assert ratio >= 0.8


HELD = ("护甲都挡住了", "都没受伤", "但没受伤", "又爬了起来", "倒地又爬起")
"""The scuffle sentences that say nobody's armour broke."""


def test_the_armour_held_only_where_it_did(two_seasons: Path) -> None:
    """A turn whose scuffle sentence says 「护甲都挡住了」 (or 「没受伤」) has no broken armour among the
    quiet actions it sums up (those in the turn's fold of other dice; the decisive ones have their own
    sentences)."""
    said = 0
    for season in (1, 2):
        for md, rec in chapters(two_seasons, season):
            for block in md.split("\n### 第")[1:]:
                lines = block.splitlines()[1:]
                story = next((line for line in lines if line.strip()), "")
                if not any(h in story for h in HELD):
                    continue
                said += 1
                fold = "\n".join(lines).split("::: fold 本回合的其余骰子")[1:]
                assert not any("护甲被击穿" in f.split("\n:::")[0] for f in fold), (rec["part"], story)
    assert said
