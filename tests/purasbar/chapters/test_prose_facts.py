"""Sentences the review found wrong, checked over three seasons of the built-in campaign (issue 15)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.purasbar.published import record

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


def test_every_vote_ends_with_its_rules_and_a_reply_line(three: tuple[Path, int]) -> None:
    """Months 1–11 of every season: the vote block states the deadline, one vote per reader and the tie
    rule, and gives a reply line with next month's key to copy."""
    out, _ = three
    for season in CN_SEASON:
        for month in range(1, 12):
            text = (out / f"s{season:02d}" / f"m{month:02d}.md").read_text(encoding="utf-8")
            block = text[text.index(":::: vote"):]
            assert "截止 **下一帖发出之前**" in block and "每位读者一票" in block and "平票时" in block
            assert re.search(rf"```\n【安价 s{season}m{month + 1}】阵型：[A-F]；老板：\S+；摊牌：否", block), (season, month)


def test_the_deadline_is_the_campaigns(tmp_path: Path) -> None:
    """``options.vote_deadline`` is what the vote block says."""
    from typer.testing import CliRunner

    from anko_writer.cli import app
    text = (Path(__file__).parents[3] / "campaigns" / "recht.yaml").read_text(encoding="utf-8")
    assert "  reveal_delay: 1" in text
    camp = tmp_path / "recht.yaml"
    camp.write_text(text.replace("  reveal_delay: 1", "  reveal_delay: 1\n  vote_deadline: 12 月 3 日 20:00", 1),
                    encoding="utf-8")
    res = CliRunner().invoke(app, ["month", str(camp), "--season", "1", "--month", "1", "--out", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    assert "截止 **12 月 3 日 20:00**" in (tmp_path / "out" / "s01" / "m01.md").read_text(encoding="utf-8")


def test_the_settlement_vote_ends_with_its_rules_and_a_reply_line(three: tuple[Path, int]) -> None:
    """The summer window's vote in every settlement (end.md) states the deadline and gives the reply line
    with next season's first month."""
    out, _ = three
    for season in CN_SEASON:
        text = (out / f"s{season:02d}" / "end.md").read_text(encoding="utf-8")
        block = text[text.index(":::: vote"):]
        assert "截止 **下一帖发出之前**" in block and "每位读者一票" in block
        assert f"```\n【安价 s{season + 1}m1】买入：" in block


def test_chapter0_ends_with_month_1s_vote_as_month_1_will_play_it(tmp_path: Path) -> None:
    """Chapter 0 asks for month 1's vote: the opponents and the owner's ranges are the ones month 1 uses,
    and the block ends with the reply line for s1m1."""
    from anko_writer.campaign import load_campaign
    from anko_writer.chapters import ChapterKey
    from anko_writer.rulesets.purasbar import RULESET
    from tests.util import RES, render_ctx
    made = RULESET.new_campaign({"city": "雷希特"}, 123456789012345678, RES)
    vote = made.chapter0.results["vote"]
    (tmp_path / made.filename).write_text(made.yaml_text, encoding="utf-8")
    month1 = RULESET.play_chapter(load_campaign(tmp_path / made.filename), ChapterKey(1, 1), RES).chapters[0].results
    used = [[r["lo"], r["hi"]] for r in month1["life"]["owner"]["ranges"]]
    assert [o["range"] for o in vote["owner_options"]] == used and vote["key"] == "s1m1"
    ours = month1["club"]
    played = sorted(m["away"] if m["home"] == ours else m["home"] for m in month1["matches"] if ours in (m["home"], m["away"]))
    assert sorted(o["team"] for o in vote["opponents"]) == played
    md = render_ctx(RES, made.chapter0.template, {**made.chapter0.results, "seed": 123456789012345678})
    assert "## 第一月安价" in md and re.search(r"```\n【安价 s1m1】阵型：[A-F]；老板：\S+；摊牌：否\n```", md)


def test_market_votes_state_the_budget_the_window_rule_gives(three: tuple[Path, int]) -> None:
    """A market vote (month 6 for the winter window, the settlement for summer) states the transfer budget the
    designed rule gives from the funds at the chapter's end: funds × 30 % × the owner's injection %, rounded
    down to 10,000 and never above the funds."""

    out, _ = three
    for season in CN_SEASON:
        for name in ("m06", "end"):
            rec = record(out / f"s{season:02d}" / f"{name}.json")
            b = rec["market_budget"]
            funds = (rec["life"]["money"]["cashflow"]["closing"] if name == "m06"
                     else rec["settlement"]["season_money"]["balance"])
            assert b["funds"] == funds and b["funds_percent"] == 30
            assert b["budget"] == min(max(0, funds), max(0, funds) * 30 * b["injection_percent"] // 10000 // 10000 * 10000)
            text = (out / f"s{season:02d}" / f"{name}.md").read_text(encoding="utf-8")
            assert re.search(rf"\*\*转会预算\*\*（设计规则）：\S+的资金 {funds:,} P\$ × 30% × 老板出资比例 "
                             rf"{b['injection_percent']}% → \*\*{b['budget']:,} P\$\*\*", text), (season, name)
