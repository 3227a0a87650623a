"""Readers' NGA ``[dice]`` rolls recomputed from a saved page (issue 28): the generator, the expression, the
draw order within a post, the page's ids, and the tally's report of a true, a faked and a typed roll.

The expected faces come from a reference written here from the rule as NGA's ``js_bbscode_core.js`` states it
(``seed = authorId + tid + pid``; each die ``seed = (seed * 9301 + 49297) % 233280`` then
``floor(seed / 233280 * faces) + 1``), never from the module under test; two real NGA floors pin it to the
site."""

from __future__ import annotations

import datetime
import math
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from anko_writer.ballot import Ballot, Option, Question
from anko_writer.tally import count_votes, format_count, read_replies
from anko_writer.tally import ngadice as nd

DATA = Path(__file__).parent.parent / "data" / "replies"
PAGE = DATA / "nga-dice-gbk.html"
TID = 46162468
"""The fixture's thread (its ``setDefault`` and its saved-from address)."""


def reference(seed: int, faces: list[int]) -> list[int]:
    """The faces of consecutive dice from one post's seed, by the rule stated in the module docstring (the
    face in the page script's double arithmetic, as JavaScript computes it)."""
    out = []
    for f in faces:
        seed = (seed * 9301 + 49297) % 233280
        out.append(math.floor(seed / 233280.0 * f) + 1)
    return out


def test_the_generator_is_nga_s() -> None:
    assert (nd.MULTIPLIER, nd.INCREMENT, nd.MODULUS) == (9301, 49297, 233280)
    assert nd.step(0) == 49297 and nd.step(1) == 9301 + 49297
    assert nd.step(233280) == 49297  # the state is taken modulo 233280


@given(st.integers(0, 2**53 // 9301 - 49297), st.lists(st.integers(1, 1000), min_size=1, max_size=10))
def test_dice_follow_the_generator(seed: int, faces: list[int]) -> None:
    expr = "+".join(f"d{f}" for f in faces)
    got = nd.roll(expr, seed)
    want = reference(seed, faces)
    assert [d.face for d in got.dice] == want
    assert got.total == str(sum(want))


@given(st.integers(1, 10**9), st.lists(st.tuples(st.integers(1, 10), st.integers(1, 1000)), min_size=1, max_size=4))
def test_a_post_s_tags_share_one_sequence_in_order(seed: int, tags: list[tuple[int, int]]) -> None:
    post = " 然后 ".join(f"[dice]{n}d{f}[/dice]" for n, f in tags)
    rolls = nd.roll_post(post, seed)
    assert [d.face for r in rolls for d in r.dice] == reference(seed, [f for n, f in tags for _ in range(n)])


def test_the_face_is_computed_in_doubles() -> None:
    # state 67392 on a d45: 67392 / 233280 * 45 is 13 exactly but 12.999… in doubles, so the page shows
    # floor(12.999…) + 1 = 13, where integer arithmetic would give 14
    seed = 167795
    assert (seed * 9301 + 49297) % 233280 == 67392
    assert nd.roll("d45", seed).dice[0].face == 13 == 67392 * 45 // 233280


def test_real_nga_floors() -> None:
    # two floors of real NGA threads whose hosts reported the web page's result in a later floor:
    # tid 46868034 floor 8 (d100 → 74); tid 46162468 floor 5 (four d6 → 3 6 3 5)
    assert nd.roll_post("[dice]d100[/dice]", 65352962 + 46868034 + 869683556)[0].total == "74"
    four = nd.roll_post("[dice]d6[/dice]" * 4, 60423359 + 46162468 + 857425480)
    assert [r.total for r in four] == ["3", "6", "3", "5"]


def test_the_expression_reads_as_nga_reads_it() -> None:
    r = nd.roll("2d6+3+d8", 5)
    faces = reference(5, [6, 6, 8])
    assert r.expansion == f"d6({faces[0]})+d6({faces[1]})+3+d8({faces[2]})"
    assert r.text == f"ROLL : 2d6+3+d8={r.expansion}={sum(faces) + 3}"
    assert nd.roll("D20", 5).dice == nd.roll("d20", 5).dice  # the tag is read case-blind
    assert nd.roll("0d6+4", 5).dice == () and nd.roll("0d6+4", 5).total == "4"


def test_the_limits_are_10_dice_and_1000_faces() -> None:
    assert (nd.MAX_DICE, nd.MAX_FACES) == (10, 1000)
    assert len(nd.roll("10d6", 1).dice) == 10 and nd.roll("d1000", 1).dice[0].faces == 1000
    for expr in ("11d6", "d1001"):
        r = nd.roll(expr, 1)
        assert (r.dice, r.total) == ((), "ERROR") and "OUT OF LIMIT" in r.expansion
    # a term past the limits rolls nothing: the next die takes the first draw
    assert [d.face for d in nd.roll("11d6+d20", 1).dice] == reference(1, [20])


def test_code_blocks_are_not_rolled() -> None:
    assert nd.expressions("[code][dice]d100[/dice][/code][dice]d6[/dice]") == ["d6"]
    assert nd.expressions("[dice]d6\n+ d8[/dice]") == ["d6 + d8"]


def _page_checks() -> dict[str, nd.Check]:
    html = PAGE.read_bytes().decode("gbk")
    return {c.floor.floor or "": c for c in nd.check_page(html)}


def test_the_page_carries_the_ids() -> None:
    tid, posts = nd.floors(PAGE.read_bytes().decode("gbk"))
    assert tid == TID
    assert [(f.floor, f.author, f.author_id, f.pid) for f in posts][:3] == [
        ("0", "哈洛温记者", 41417929, 0), ("1", "小红", 60423359, 857425480), ("2", "杠精本精", 12345678, 857425611)]


def test_a_true_roll_a_faked_one_and_a_typed_one() -> None:
    checks = _page_checks()
    assert sorted(checks) == ["1", "2", "3", "4"]  # #0 and #5 roll nothing
    true = checks["1"]
    assert true.status == "ok"
    assert [d.face for d in true.rolls[0].dice] == reference(60423359 + TID + 857425480, [6, 20])
    fake = checks["2"]
    assert fake.status == "bad" and fake.shown == ("ROLL : d20=d20(20)=20",)
    assert [d.face for d in fake.rolls[0].dice] == reference(12345678 + TID + 857425611, [20]) != [20]
    assert checks["3"].status == "typed"
    two = checks["4"]  # two tags in one post: the second continues the first's sequence
    assert two.status == "ok"
    assert [d.face for r in two.rolls for d in r.dice] == reference(7000001 + TID + 857425800, [100, 6, 6])


def _post(body: str, pid: str = "857425480", uid: str = "60423359") -> str:
    anchor = f"<a id='pid{pid}Anchor'></a>" if pid else ""
    href = f"nuke.php?func=ucp&uid={uid}" if uid else "nuke.php"
    return (f"<!DOCTYPE html><!-- saved from url=(0040)https://bbs.nga.cn/read.php?tid={TID} --><html><body>"
            f"<a id='postauthor0' class='author' href='{href}'>小红</a><div class='postInfo'>{anchor}"
            f"<a>#7</a></div><span id='postcontent0' class='postcontent ubbcode'>{body}</span></body></html>")


def test_a_page_saved_before_the_script_ran_is_rolled_from_its_tags() -> None:
    (c,) = nd.check_page(_post("我掷 [dice]d6+d20[/dice]<br>好"))
    assert c.status == "rolled" and c.where() == "#7 小红"
    assert [d.face for d in c.rolls[0].dice] == reference(60423359 + TID + 857425480, [6, 20])


def test_missing_ids_and_folds_are_not_judged() -> None:
    (c,) = nd.check_page(_post("[dice]d6[/dice]", pid=""))
    assert c.status == "unknown" and "回复 pid" in c.why
    (c,) = nd.check_page(_post("[dice]d6[/dice]", uid=""))
    assert c.status == "unknown" and "作者 uid" in c.why
    (c,) = nd.check_page(_post("[collapse=骰子][dice]d6[/dice][/collapse]"))
    assert c.status == "unknown" and "折叠" in c.why
    rendered = ("<div class='collapse_content'><table class='dice'><tr><td><b>ROLL : d6</b>=d6(1)=<b>1</b>"
                "</td></tr></table></div>")
    (c,) = nd.check_page(_post(rendered))
    assert c.status == "unknown" and "折叠" in c.why


def test_tally_reports_the_dice_in_chinese() -> None:
    formation = Question("阵型", ("formation",), "choice", tuple(Option(v, (k,)) for k, v in (
        ("A", "4 4 2"), ("B", "4 3 3"), ("C", "5 4 1"), ("D", "3 5 2"))))
    ballot = Ballot("s1m3", ("decisions", "s1m3"), (formation,))
    lay, replies = read_replies(PAGE)
    assert lay.name == "nga"
    count = count_votes(replies, ballot, 7, datetime.datetime(2026, 12, 1, 20, 0))
    assert len(count.counted) == 5  # the dice take nothing from the vote
    text = format_count(count, "s01/m03.md", lay.name, None)
    section = text.split("### 读者的 NGA 骰子：", 1)[1].split("###", 1)[0]
    assert section.startswith("4 楼（相符 2，不符 1，手打 1）")
    lines = [x for x in section.splitlines() if x.startswith("- ")]
    assert lines[0].startswith("- #2 杠精本精：页面显示「ROLL : d20=d20(20)=20」") and "不同" in lines[0]
    assert lines[1].startswith("- #3 老周：") and "手打" in lines[1]


def test_other_pages_report_no_dice() -> None:
    lay, replies = read_replies(DATA / "nga-s1m3.txt")
    assert replies.dice == ()


def test_a_saved_page_without_dice_lists_none() -> None:
    assert nd.has_dice(PAGE.read_bytes().decode("gbk"))
    lay, replies = read_replies(DATA / "nga-s1m3-gbk.html")
    assert lay.name == "nga" and replies.dice == ()


def test_the_tally_command_prints_the_dice(tmp_path: Path) -> None:
    import shutil

    from typer.testing import CliRunner

    from anko_writer.cli import app

    camp = tmp_path / "recht.yaml"
    shutil.copy(Path(__file__).parent.parent.parent / "campaigns" / "recht.yaml", camp)
    runner = CliRunner()
    assert runner.invoke(app, ["month", str(camp), "--season", "1", "--month", "1"]).exit_code == 0
    res = runner.invoke(app, ["tally", str(camp), str(PAGE), "--chapter", "s1m1"])
    assert res.exit_code == 0, res.output
    assert "### 读者的 NGA 骰子：4 楼（相符 2，不符 1，手打 1）" in res.output
    assert "没有写入战役文件（加 --write" in res.output
