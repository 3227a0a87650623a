"""DESIGN §10, 000 §5.8.4: a knockout shoot-out of ours whose kicks are sealed is revealed later in the same
chapter, so nothing the chapter prints above the reveal may tell who won it or its score: not the title or the
opening paragraph, not the month's people, not the match heading, not the match's story.

Seed 23 with ``options.sealed: [shootout]`` (tests/contract/test_sealed_option.py): the 雷希特竞技 of the
example campaign beat 布拉斯皇家 4 : 2 on penalties in the cup's quarter-final (month 12) after 8 : 8, the
fifth pair sealed, then lose the semi-final. The first sealed die forced to another total, or the sealed kicks
forced so that 布拉斯皇家 win (and 雷希特竞技 play no semi-final): the chapter from its start to the reveal
paragraph reads the same, commitments aside.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer import cli
from anko_writer.campaign import Campaign
from anko_writer.chapters import ChapterKey
from anko_writer.hidden import scan
from anko_writer.render import phrase_bank
from anko_writer.rulesets.purasbar.season import headlines, story
from tests.contract import rulesets
from tests.contract.sealing import blank, faces_with_another_total, forcing
from tests.contract.test_sealed_option import _campaign

SEED = 23
CUP = ChapterKey(1, 12)
"""The cup month of arc 1: the quarter-final's shoot-out is sealed from its fifth pair on."""
TOP = 20
"""A 1D20's top face: a taker's top against a keeper's 1 always scores (bonuses are ATK / 10, GK / 10 ≤ 9)."""
REVEAL_HEAD = "**点球大战落幕，揭开封存的罚球**"
Played = tuple[Campaign, str, dict[str, Any]]
"""The campaign, the cup month's post and its record."""


def _post(camp: Campaign, mp: pytest.MonkeyPatch) -> tuple[str, dict[str, Any]]:
    """Arc 1 played up to the cup month: that chapter's Markdown as posted and its record."""
    mp.setenv("ANKO_WRITER_CACHE", "off")
    rs = rulesets.get("purasbar")
    run = rs.play(camp, CUP, camp.resources())
    chapter = next(c for c in run.chapters if c.key == CUP)
    return cli.chapter_files(camp.resources(), chapter, camp)[rs.info.keys.paths(CUP)[0]], chapter.results


def _sealed_match(results: dict[str, Any]) -> dict[str, Any]:
    """Our match of the month whose shoot-out is sealed."""
    return next(m for i in results["our_matches"] if "sealed_rest" in ((m := results["matches"][i]).get("shootout") or {}))


def _above_reveal(md: str, rid: str) -> str:
    """The chapter from its start up to the paragraph holding ``rid``'s reveal line, commitments blanked."""
    reveal = next(r.line for r in scan(md)[1] if r.roll_id == rid)
    lines = md.split("\n")[:reveal - 1]
    gaps = [i for i, line in enumerate(lines) if not line.strip()]
    return blank("\n".join(lines[:gaps[-1]]))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pens2")


@pytest.fixture(scope="module")
def played(folder: Path) -> Iterator[Played]:
    """The campaign, the cup month's post and its record, as played."""
    with pytest.MonkeyPatch.context() as mp:
        camp = _campaign(rulesets.get("purasbar"), folder, ["shootout"], SEED)
        md, results = _post(camp, mp)
        yield camp, md, results


def _pattern(phrasing: str) -> str:
    """A regular expression matching ``phrasing`` whatever its slots say."""
    return ".+?".join(re.escape(part) for part in re.split(r"\{\{\s*\w+\s*\}\}", phrasing))


def _first_sealed(mt: dict[str, Any]) -> dict[str, Any]:
    return next(k for k in mt["shootout"]["kicks"] if k["hidden"])


def test_the_seed_seals_a_quarter_final_shootout_we_win(played: Played) -> None:
    """The case the other tests rest on: our quarter-final, level after extra time, won on sealed kicks."""
    _, md, results = played
    mt = _sealed_match(results)
    assert mt["stage"] == "quarter_final" and mt["extra_time"] and mt["score"][0] == mt["score"][1]
    assert mt["winner"] == "雷希特竞技" and mt["penalties"] == [4, 2] and _first_sealed(mt)["pair"] == 5


def test_the_first_sealed_die_at_another_total_changes_nothing_above_the_reveal(
        played: Played, monkeypatch: pytest.MonkeyPatch) -> None:
    camp, md, results = played
    roll = _first_sealed(_sealed_match(results))["taker_roll"]
    faces = faces_with_another_total(roll["expr"], roll["total"])
    assert faces is not None
    forcing(monkeypatch, roll["id"], faces)
    forced, after = _post(camp, monkeypatch)
    assert _first_sealed(_sealed_match(after))["taker_roll"]["total"] != roll["total"]
    assert _above_reveal(forced, roll["id"]) == _above_reveal(md, roll["id"])


def test_the_other_side_winning_the_sealed_kicks_changes_nothing_above_the_reveal(
        played: Played, monkeypatch: pytest.MonkeyPatch) -> None:
    """From the first sealed kick on the winner's takers all miss and the loser's all score: the loser wins
    (and plays the semi-final in our place), yet the chapter above the reveal is the same."""
    camp, md, before = played
    mt = _sealed_match(before)
    first = _first_sealed(mt)
    key, n = first["taker_roll"]["id"].rsplit("#", 1)
    winner = 0 if mt["winner"] == mt["home"] else 1
    side = first["side"]
    for kick in range(6):  # the rest of pair 5, then two sudden-death pairs at most
        scores = side != winner
        forcing(monkeypatch, f"{key}#{int(n) + 2 * kick}", (TOP if scores else 1,))
        forcing(monkeypatch, f"{key}#{int(n) + 2 * kick + 1}", (1 if scores else TOP,))
        side = 1 - side
    forced, results = _post(camp, monkeypatch)
    flipped = _sealed_match(results)
    assert flipped["winner"] != mt["winner"] and flipped["penalties"] != mt["penalties"]
    assert len(results["our_matches"]) < len(before["our_matches"])  # no semi-final for us
    assert _above_reveal(forced, first["taker_roll"]["id"]) == _above_reveal(md, first["taker_roll"]["id"])
    assert f"{flipped['winner']}胜出。**" in forced.split(REVEAL_HEAD)[1]


def test_above_the_reveal_the_tie_goes_to_penalties_and_after_it_is_told_as_before(
        played: Played) -> None:
    """The heading says 「（加时，点球大战）」 and the story ends on a phrasing of story_fulltime_pens_sealed; the
    verdict line after the reveal and the bracket still give the shoot-out's score and winner."""
    camp, md, _ = played
    above, below = md.split(REVEAL_HEAD)
    heading = next(line for line in above.splitlines() if line.startswith("#### 四分之一决赛"))
    assert heading.endswith("8 : 8 布拉斯皇家（加时，点球大战）")
    story = above.split(heading)[1].strip().split("\n")[0]
    bank = phrase_bank(camp.resources())["story_fulltime_pens_sealed"]
    assert any(re.search(_pattern(p) + "$", story) for p in bank), story
    assert "4 : 2" not in above and "点球 4" not in above and "淘汰" not in story and "晋级" not in story
    assert "**点球大战 雷希特竞技 4 : 2 布拉斯皇家，雷希特竞技胜出。**" in below
    assert "| 四分之一决赛 | **雷希特竞技 — 布拉斯皇家** | 8 : 8 | 加时，点球 4 : 2 | 雷希特竞技 |" in below
    assert "#### 半决赛" in below and "半决赛" not in above.split("## 上月安价")[0]


def test_without_the_seal_the_heading_and_story_tell_the_shootout(folder: Path) -> None:
    """``sealed: []``: the kicks are public, and the heading and story say the shoot-out's result as before."""
    camp = _campaign(rulesets.get("purasbar"), folder, [], SEED)
    with pytest.MonkeyPatch.context() as mp:
        md, _ = _post(camp, mp)
    assert all("pens" not in s.roll_id for s in scan(md)[0])
    heading = "#### 四分之一决赛　雷希特竞技（主）8 : 8 布拉斯皇家（加时，点球 4 : 2）"
    story = md.split(heading + "\n")[1].strip().split("\n")[0]
    bank = phrase_bank(camp.resources())["story_fulltime_pens_win"]
    assert any(re.search(_pattern(p) + "$", story) for p in bank), story


def _tie(winner: str, pens: list[int], sealed_kicks: bool, goals: list[str]) -> dict[str, Any]:
    """A quarter-final 甲 — 乙 level after extra time, its goals scored by ``goals`` (team names) in turn."""
    attacks = [{"slice": 1 + n % 8, "team": t, "goal": True, "shooter": f"{t}{n % 3}", "shooter_pos": "FW"}
               for n, t in enumerate(goals)]
    shootout: dict[str, Any] = {"winner": winner, "score": pens, **({"sealed_rest": {}} if sealed_kicks else {})}
    return {"id": "qf", "home": "甲", "away": "乙", "score": [goals.count("甲"), goals.count("乙")], "winner": winner,
            "penalties": pens, "extra_time": True, "competition": "knockout", "stage": "quarter_final",
            "attacks": attacks, "lineups": {}, "shootout": shootout}


def _month(tie: dict[str, Any]) -> dict[str, Any]:
    """Month 12 with the tie, then (for 甲 only, as its winner) a semi-final lost 0 : 2."""
    semi = {"id": "sf", "home": "甲", "away": "丙", "score": [0, 2], "winner": "丙", "penalties": None,
            "extra_time": False, "competition": "knockout", "stage": "semi_final", "attacks": [], "lineups": {}}
    ours = [0, 1] if tie["winner"] == "甲" else [0]
    return {"month": 12, "club": "甲", "our_matches": ours, "clubs": [], "standings": [], "reveals": [],
            "matches": [tie, semi], "champion": "丙"}


@settings(max_examples=30, deadline=None)
@given(level=st.lists(st.sampled_from(["甲", "乙"]), max_size=5), pens=st.tuples(st.integers(0, 9), st.integers(0, 9)))
def test_a_sealed_tie_heads_and_tells_the_same_whoever_wins_it(level: list[str], pens: tuple[int, int]) -> None:
    """Hypothesis: a sealed tie (level: each side's goals mirrored) won by either side, on any shoot-out score,
    gives the same headlines and the same story; unsealed, the story's verdict tells the winner."""
    goals = level + ["乙" if t == "甲" else "甲" for t in level]
    a, b = max(pens) + 1, min(pens)
    won, lost = _tie("甲", [a, b], True, goals), _tie("乙", [b, a], True, goals)
    assert headlines.rank(_month(won), headlines.fresh())[0] == headlines.rank(_month(lost), headlines.fresh())[0]
    assert story.story(won, "甲")["beats"] == story.story(lost, "甲")["beats"]
    assert story.story(won, "甲")["beats"][-1]["verdict"] == "pens_sealed"
    told = [story.story(_tie(w, p, False, goals), "甲")["beats"][-1]["verdict"] for w, p in (("甲", [a, b]), ("乙", [b, a]))]
    assert told == ["pens_win", "pens_loss"]
