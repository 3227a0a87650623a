"""000 §5.8.4 in a knockout shoot-out of ours (DESIGN §10): from the first sealed kick on, the rest of the
shoot-out is one sealed block, so nothing printed before the reveal depends on a sealed die.

Whether a kick after a sealed one is taken depends on that sealed kick, so the published form is fixed
(designed): the first sealed kick (always taken: the four public pairs left the shoot-out open) with its two
sealed dice, then one line and one commitment (a secret fact) for every later kick.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from anko_writer.dice import Dice
from anko_writer.hidden import Fact, fact_commitment, prose_mismatches, scan, verify_dir
from anko_writer.render import find_problems, render_chapter
from anko_writer.resources import Resources
from anko_writer.rulesets.purasbar.match.penalties import HIDDEN_FROM_PAIR, KICKS, REST, shootout
from anko_writer.rulesets.purasbar.match.records import ShootoutRecord
from tests.contract.sealing import blank
from tests.util import player

SEED = 7
SCORE, MISS = (20, 1), (1, 20)
"""Taker and keeper faces: ATK 50 (+5) against GK 30 (+3), 25 > 4 scores and 6 < 23 is saved."""
REVEAL_HEAD = "**点球大战落幕，揭开封存的罚球**"
MATCH = {"id": "m", "home": "甲队", "away": "乙队", "neutral": False}


def _play(public: list[bool], sealed: list[int], hide: bool = True, faces: tuple[int, ...] = ()) -> ShootoutRecord:
    """A shoot-out (甲 first) whose first four pairs both score (True) or both miss (False), then ``sealed``
    faces; ``faces`` instead of ``public``: the public kicks' faces as given."""
    a = [player(f"甲{i}", "FW", atk=50) for i in range(11)]
    b = [player(f"乙{i}", "FW", atk=50) for i in range(11)]
    d = Dice(1)
    d.fix(1, *(faces or [f for both in public for f in (SCORE if both else MISS) * 2]), *sealed)
    rec = shootout(d, "m/pens", ("甲队", "乙队"), (a, b), (player("甲门", "GK"), player("乙门", "GK")),
                   lambda i, k: k.attrs["GK"], hide)
    rec["order_source"] = {"home": "ai", "away": "ai"}
    return rec


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A template folder holding one page that renders ``match.j2``'s ``shootout`` macro."""
    top = tmp_path_factory.mktemp("tpl")
    (top / "templates" / "purasbar").mkdir(parents=True)
    (top / "templates" / "purasbar" / "t.md.j2").write_text(
        "{% import 'match.j2' as mm with context %}{{ mm.shootout(mt, so) }}\n", encoding="utf-8")
    return top


def _render(root: Path, so: ShootoutRecord) -> str:
    context: dict[str, Any] = {"mt": MATCH, "so": so, "club": "甲队", "clubs": [], "month": 1, "campaign": {}}
    return render_chapter(Resources("purasbar", root), "t.md.j2", context, seed=SEED)


def test_the_rest_is_one_fact_of_the_later_kicks() -> None:
    """Level after five, 甲 misses and 乙 misses in pair 5, pair 6 both score, pair 7 甲 scores and 乙 misses."""
    so = _play([True] * 4, [*MISS, *MISS, *SCORE, *SCORE, *SCORE, *MISS])
    hidden = [k for k in so["kicks"] if k["hidden"]]
    assert [k["pair"] for k in hidden] == [5, 5, 6, 6, 7, 7] and so["score"] == [6, 5]
    rest = so["sealed_rest"]
    assert rest["id"] == f"m/pens#{REST}" and rest["hidden"] is True
    assert rest["fact"] == [[1, 20], [20, 1], [20, 1], [20, 1], [1, 20]]  # every kick after pair 5's first


def test_the_first_sealed_kick_can_end_the_shootout_and_leave_the_rest_empty() -> None:
    so = _play([], [*SCORE], faces=(*SCORE, *SCORE) * 3 + (*SCORE, *MISS))  # 4 : 3 after four pairs
    assert [k["hidden"] for k in so["kicks"]] == [False] * 8 + [True] and so["score"] == [5, 3]  # 乙 cannot catch up
    assert so["sealed_rest"]["fact"] == []


def test_nothing_sealed_no_rest() -> None:
    assert "sealed_rest" not in _play([True] * 4, [*SCORE, *MISS], hide=False)
    level = _play([True] * 4, [*SCORE, *MISS])
    assert HIDDEN_FROM_PAIR == KICKS == 5 and [k["pair"] for k in level["kicks"] if k["hidden"]] == [5, 5]
    a = [player(f"甲{i}", "FW", atk=50) for i in range(11)]
    d = Dice(1)
    d.fix(1, *SCORE, *MISS, *SCORE, *MISS, *SCORE, *MISS)  # 3 : 0 after three pairs: over before pair 5
    rec = shootout(d, "k", ("甲", "乙"), (a, a), (player("x", "GK"), player("y", "GK")),
                   lambda i, k: k.attrs["GK"], hide=True)
    assert len(rec["kicks"]) == 6 and "sealed_rest" not in rec


def test_the_block_is_printed_as_one_commitment_and_opens_at_the_reveal(root: Path) -> None:
    so = _play([True] * 4, [*MISS, *MISS, *SCORE, *SCORE, *SCORE, *MISS])
    md = _render(root, so)
    assert find_problems(md) == [] and prose_mismatches(md) == []
    before, after = md.split(REVEAL_HEAD)
    seals, reveals = scan(before)
    first = next(k for k in so["kicks"] if k["hidden"])
    assert [s.roll_id for s in seals] == [first["taker_roll"]["id"], first["keeper_roll"]["id"], so["sealed_rest"]["id"]]
    assert not reveals and before.count("点球第") == 9 and "点球第6轮" not in before
    fact = Fact(so["sealed_rest"]["id"], so["sealed_rest"]["fact"])
    assert seals[2].commitment == fact_commitment(fact, SEED)
    _, opened = scan(after)
    assert [r.roll_id for r in opened] == [s.roll_id for s in seals]
    assert all(r.matches(s) for r, s in zip(opened, seals, strict=True))
    assert json.loads(opened[2].payload) == so["sealed_rest"]["fact"]
    for k in (k for k in so["kicks"] if k["hidden"]):
        assert f"- 第{k['pair']}轮 {k['taker']}「1D20＝{k['taker_roll']['total']}」" in after
    assert "**点球大战 甲队 6 : 5 乙队，甲队胜出。**" in after


def test_verify_checks_the_block_and_catches_a_changed_later_kick(root: Path, tmp_path: Path) -> None:
    """``verify`` opens the three seals; a later kick's die changed in the fact's reveal no longer opens it."""
    so = _play([True] * 4, [*MISS, *MISS, *SCORE, *MISS])
    md = _render(root, so)
    (tmp_path / "s01").mkdir()
    post = tmp_path / "s01" / "m12.md"
    post.write_text(md, encoding="utf-8")
    report = verify_dir(tmp_path)
    assert report.ok and report.checked == 3 and not report.sealed, report.problems
    assert so["sealed_rest"]["fact"] == [[1, 20], [20, 1], [1, 20]]
    post.write_text(md.replace("事实＝[[1,20],[20,1],[1,20]]", "事实＝[[1,20],[20,1],[20,1]]"), encoding="utf-8")
    bad = verify_dir(tmp_path)
    assert not bad.ok and any("的承诺不符" in p for p in bad.problems)


faces = st.lists(st.integers(1, 20), min_size=60, max_size=60)


@settings(max_examples=25, deadline=None)
@given(public=st.lists(st.booleans(), min_size=4, max_size=4), a=faces, b=faces)
@example(public=[True] * 4, a=[*SCORE, *MISS] + [1] * 58, b=[*MISS, *MISS] + [*SCORE] * 28)
def test_what_is_printed_before_the_reveal_does_not_depend_on_the_sealed_dice(root: Path, public: list[bool],
                                                                              a: list[int], b: list[int]) -> None:
    """Two shoot-outs alike in their public pairs, any sealed dice (so any number of sealed kicks, any takers,
    any score): the text up to the reveal is the same but for the commitments, and the reveal tells each."""
    left, right = _play(public, a), _play(public, b)
    md_left, md_right = _render(root, left), _render(root, right)
    assert blank(md_left.split(REVEAL_HEAD)[0]) == blank(md_right.split(REVEAL_HEAD)[0])
    for so, md in ((left, md_left), (right, md_right)):
        after = md.split(REVEAL_HEAD)[1]
        assert [k["taker"] for k in so["kicks"] if k["hidden"]] == \
            [line.split(" ")[2].split("「")[0] for line in after.splitlines() if line.startswith("- 第")]
        assert f"**点球大战 甲队 {so['score'][0]} : {so['score'][1]} 乙队，{so['winner']}胜出。**" in after
