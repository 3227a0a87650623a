"""`verify` checks what readers see (issue 9 §4): posting order, the prose beside a reveal, exports."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from anko_writer.dice import Dice, Roll
from anko_writer.errors import InputError
from anko_writer.hidden import prose_mismatches, reveal_line, seal_line, verify_dir

SEED = 531872096413385127


def _roll(key: str = "s1/league/r05/雷希特竞技-玛吉克联/events") -> Roll:
    return Dice(SEED).roll(key, "1D100", "主教练应对", hidden=True)


R = _roll()


def _write(folder: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")


def _posts(reveal_text: str | None = None) -> dict[str, str]:
    """m09 seals the roll; m10 (which sorts after m9 only as a number) opens with its reveal."""
    told = reveal_text or f"应对骰「1D100＝{R.total}」 + 3，伤情揭晓。\n{reveal_line(R, SEED)}\n"
    return {"s01/m09.md": f"# 第九月\n\n主教练应对「1D100＝？？？」 + 3。\n\n{seal_line(R, SEED)}\n",
            "s01/m10.md": f"# 第十月\n\n## 隐藏骰揭晓\n\n{told}\n## 一、月初判定\n"}


def test_a_true_reveal_in_its_paragraph_passes(tmp_path: Path) -> None:
    _write(tmp_path, _posts())
    report = verify_dir(tmp_path)
    assert report.ok and report.checked == 1 and not report.sealed


def test_a_reveal_that_disagrees_with_its_paragraph_is_reported(tmp_path: Path) -> None:
    other = R.total % 100 + 1
    _write(tmp_path, _posts(f"应对骰「1D100＝{other}」 + 3，伤情揭晓。\n{reveal_line(R, SEED)}\n"))
    report = verify_dir(tmp_path)
    assert not report.ok and report.checked == 1
    (problem,) = report.problems  # the commitment itself still opens: only the prose lies
    assert problem.endswith(f"m10.md:6: {R.id} 的揭晓是 1D100＝{R.total}，但帖子第 5 行印的是"
                            f"「1D100＝{other}」")


def test_a_die_in_another_paragraph_is_not_taken_for_the_reveal() -> None:
    text = f"另一颗骰「1D100＝7」。\n\n{reveal_line(R, SEED)}\n"
    assert prose_mismatches(text) == []
    assert prose_mismatches(f"攻势骰「1D30＝7」\n{reveal_line(R, SEED)}\n") == []  # other expression


def test_two_reveals_under_one_line_take_its_dice_in_order() -> None:
    a, b = Dice(SEED).roll("k", "1D20", "点球", hidden=True), Dice(SEED).roll("k2", "1D20", "扑救", hidden=True)
    line = f"- 第5轮 甲「1D20＝{a.total}」+ 1 对 乙「1D20＝{b.total}」+ 2"
    good = f"{line}\n  - {reveal_line(a, SEED)}\n  - {reveal_line(b, SEED)}\n"
    assert prose_mismatches(good) == []
    swapped = f"{line}\n  - {reveal_line(b, SEED)}\n  - {reveal_line(a, SEED)}\n"
    assert (a.total == b.total) == (prose_mismatches(swapped) == [])


def test_a_reveal_posted_before_its_seal_is_reported(tmp_path: Path) -> None:
    posts = _posts()
    posts["s01/m08.md"], posts["s01/m10.md"] = posts["s01/m10.md"], "# 第十月\n"
    _write(tmp_path, posts)
    report = verify_dir(tmp_path)
    assert any(p.endswith(f"{R.id} 的揭晓贴在它的封存（{tmp_path / 's01/m09.md'}:5）之前")
               and "m08.md:6:" in p for p in report.problems), report.problems


def test_a_reveal_above_its_seal_in_one_post_is_reported(tmp_path: Path) -> None:
    _write(tmp_path, {"s01/m01.md": f"{reveal_line(R, SEED)}\n\n{seal_line(R, SEED)}\n"})
    assert any("的揭晓贴在它的封存" in p for p in verify_dir(tmp_path).problems)


def test_posting_order_is_months_then_settlement_then_index_then_next_season(tmp_path: Path) -> None:
    """A seal in m12 revealed in end.md, one in end.md revealed in the next season: all in order."""
    r2 = _roll("s1/end/x")
    _write(tmp_path, {"s01/m12.md": seal_line(R, SEED) + "\n",
                      "s01/end.md": reveal_line(R, SEED) + "\n\n" + seal_line(r2, SEED) + "\n",
                      "s01/index.md": "总览\n",
                      "s02/m01.md": reveal_line(r2, SEED) + "\n"})
    report = verify_dir(tmp_path)
    assert report.ok and report.checked == 2, report.problems


def test_exports_are_their_own_thread_in_any_format_and_script(tmp_path: Path) -> None:
    posts = _posts()
    _write(tmp_path, posts)
    trad = {"s01/m09.md": posts["s01/m09.md"].replace("编号", "編號").replace("承诺", "承諾"),
            "s01/m10.md": posts["s01/m10.md"].replace("揭晓", "揭曉").replace("编号", "編號").replace("盐", "鹽")}
    assert "〔揭曉｜編號" in trad["s01/m10.md"]
    page = "<html><body>" + "".join(f"<p>{html.escape(line)}</p>\n" for t in posts.values()
                                    for line in t.splitlines()) + "</body></html>"
    _write(tmp_path, {"export/nga-hant/s01-m09-1.txt": f"[b]{trad['s01/m09.md']}[/b]",
                      "export/nga-hant/s01-m10-1.txt": trad["s01/m10.md"],
                      "export/html/s01.html": page})
    report = verify_dir(tmp_path)
    assert report.ok, report.problems
    assert report.checked == 3 and not report.sealed
    forged = trad["s01/m10.md"].replace(f"＝{R.total}｜", f"＝{R.total % 100 + 1}｜")
    (tmp_path / "export/nga-hant/s01-m10-1.txt").write_text(forged, encoding="utf-8")
    assert any("nga-hant/s01-m10-1.txt" in p and "的承诺不符" in p
               for p in verify_dir(tmp_path).problems)


def test_a_post_that_is_not_utf8_is_one_located_error(tmp_path: Path) -> None:
    _write(tmp_path, _posts())
    (tmp_path / "s01/m10.md").write_bytes("第十月\n".encode() + b"\xb5\xda\n")
    with pytest.raises(InputError, match=r"m10\.md: 不是 UTF-8 文本（第 2 行的字节 0xb5）"):
        verify_dir(tmp_path)


def test_private_and_hidden_files_are_not_read(tmp_path: Path) -> None:
    _write(tmp_path, _posts())
    (tmp_path / ".anko-stage-1234abcd").mkdir()
    (tmp_path / ".anko-stage-1234abcd/m10.md").write_bytes(b"\xff")
    (tmp_path / "manifest.json").write_text("{}", encoding="utf-8")
    assert verify_dir(tmp_path).ok


def test_the_cup_s_own_reveal_is_checked_against_its_die(tmp_path: Path) -> None:
    """The 群英杯's reveal prints 「核心重伤」 before the die (「…「1D100＝97」): the die is read as the die, so a
    reveal whose prose was edited is reported (the check once read 「核心重伤」…「1D100 as one expression)."""
    from anko_writer import cli
    from anko_writer.campaign import load_campaign
    from tests.util import PINNED, RES, campaign_file, season_run

    camp = load_campaign(campaign_file(tmp_path, seed=PINNED["sealed_injury"]))
    run = season_run(PINNED["sealed_injury"])
    month = next(c for c in run.months if c.results["reveals"])
    posts = {rel: text for c in run.months if c.month in (month.month - 1, month.month)
             for rel, text in cli.chapter_files(RES, c, camp).items() if rel.endswith(".md")}
    out = tmp_path / "out"
    _write(out, posts)
    assert verify_dir(out).ok
    rel = f"s01/m{month.month:02d}.md"
    (rev,) = month.results["reveals"]
    told = f"「{rev['expr']}＝{rev['total']}」"
    line = next(ln for ln in posts[rel].splitlines() if told in ln)
    assert "「核心重伤」" in line  # the shipped wording this test is about
    _write(out, {rel: posts[rel].replace(told, f"「{rev['expr']}＝{rev['total'] - 1}」", 1)})
    problems = verify_dir(out).problems
    assert len(problems) == 1 and f"印的是「{rev['expr']}＝{rev['total'] - 1}」" in problems[0]


def test_a_5000_digit_reveal_is_one_located_problem(tmp_path: Path) -> None:
    """Python refuses to read an integer of over 4,300 digits: such a reveal is a malformed line, reported
    once with its file and line, never a traceback."""
    from typer.testing import CliRunner

    from anko_writer.cli import app
    huge = reveal_line(R, SEED).replace(f"＝{R.total}｜", "＝" + "9" * 5000 + "｜")
    _write(tmp_path / "out", {"s01/m09.md": f"{seal_line(R, SEED)}\n\n「1D100＝{'9' * 5000}」\n{huge}\n"})
    res = CliRunner().invoke(app, ["verify", str(tmp_path / "out")])
    assert res.exit_code == 1 and "Traceback" not in res.output
    located = [ln for ln in res.output.splitlines() if "暗骰行格式不对" in ln]
    assert len(located) == 1 and located[0].strip().endswith("个字符）」") and ":4: 暗骰行格式不对" in located[0]
