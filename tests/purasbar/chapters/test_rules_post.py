"""The 开帖 (``OUT/rules.md``): written with the chapters, and every number in it is the number the code
plays (:mod:`anko_writer.rulesets.purasbar.rules_post`)."""

from __future__ import annotations

from pathlib import Path

from anko_writer.render import find_problems
from anko_writer.rulesets.purasbar import rules_post
from anko_writer.rulesets.purasbar.competition.cup import SWISS_ROUNDS
from anko_writer.rulesets.purasbar.events.match_events import POINTS
from anko_writer.rulesets.purasbar.match.engine import GOAL_THRESHOLD, SHOT_THRESHOLD
from anko_writer.rulesets.purasbar.match.injuries import RETIRE_FACE, RETIRE_STAMINA
from anko_writer.rulesets.purasbar.match.side import SUBS_NORMAL
from anko_writer.rulesets.purasbar.match.tactics import FLEXIBLE, STUBBORN


def test_rules_post_states_the_played_numbers(three: tuple[Path, int]) -> None:
    post = (three[0] / "rules.md").read_text(encoding="utf-8")
    assert post.startswith("# 开帖　")
    assert f"大于 {SHOT_THRESHOLD} 形成射门" in post and f"大于 {GOAL_THRESHOLD} 进球" in post
    assert "1–50 前锋、51–80 中场、81–100 后卫或门将" in post
    assert f"换人（每场 {SUBS_NORMAL} 次）" in post
    assert f"体力低于 {RETIRE_STAMINA} 的球员掷 1D20，≤ {RETIRE_FACE} 被迫离场" in post
    assert f"（1D100 ≤ {POINTS[0]}）" in post and f"（≤ {POINTS[1]}、≤ {POINTS[2]}）" in post
    assert f"固执 ≤ {FLEXIBLE} 再 −1、≥ {STUBBORN} 再 +1" in post
    assert f"二十四队打{'五' if SWISS_ROUNDS == 5 else SWISS_ROUNDS}轮瑞士轮" in post
    assert find_problems(post) == []
    # a month refers to it instead of repeating it
    month = (three[0] / "s01" / "m03.md").read_text(encoding="utf-8")
    assert "算法见开帖" in month and "规则速查：攻势值" not in month


def test_the_post_follows_a_changed_number(monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(rules_post, "SHOT_THRESHOLD", 17)
    assert rules_post.numbers()["shot"] == 17
