"""000 §6.3 比赛事件池: odds per point, match depth, the ±3 tables once, the coach's response, hidden dice."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest

from anko_writer.dice import Dice
from anko_writer.errors import TableError
from anko_writer.resources import Resources
from anko_writer.rulesets.purasbar.events.match_events import (
    POINTS,
    PRE,
    MatchDepth,
    check,
    halve,
    load_match_event_tables,
    worsen,
)
from tests.util import RES

T = load_match_event_tables(RES)
KEY = "s1/league/r01/ev"
FANS, REFEREE, LOCKER, RAIN, CORE = 60, 5, 9, 40, 3
"""Event faces of Appendix A rows: 球迷助威 (+2 us), 裁判争议 (−3 us, play), 更衣室争吵 (−10 morale),
暴雨 (neutral, both −2), 核心重伤 (pre, hidden)."""


def run(*faces: int, point: int = 1, depth: MatchDepth | None = None, resume: int = 0, hidden: bool = False,
        dice: Dice | None = None) -> dict:
    """One check on fixed dice (trigger, event, response …)."""
    d = dice or Dice(1)
    d.fix(*faces, prefix=KEY)
    rec = check(d, KEY, point, depth if depth is not None else MatchDepth(), resume, hidden, T)
    assert rec is not None
    return rec


def test_tables_follow_the_row_contract() -> None:
    assert (len(T.base), len(T.golden), len(T.dark)) == (26, 6, 6)
    assert {t.source for t in (T.base, T.golden, T.dark)} == {"designed"}
    assert sum(r.hi - r.lo + 1 for r in T.base.rows) == 100
    hidden = [r.params["key"] for r in T.base.rows if r.params.get("hidden")]
    assert hidden == ["core_injury"] and T.base.lookup(CORE).params["when"] == "pre"
    assert all("fallback" in r.params for r in T.base.rows if "when" in r.params)
    assert {r.params["polarity"] for r in T.golden.rows} == {"positive"}
    assert {r.params["polarity"] for r in T.dark.rows} == {"negative"}


def test_a_row_limited_in_time_needs_a_fallback(tmp_path: Path) -> None:
    src = (Path(__file__).resolve().parents[3] / "tables/purasbar/match_events.yaml").read_text("utf-8")
    folder = tmp_path / "tables/purasbar"
    folder.mkdir(parents=True)
    cut = src.index("    fallback:\n      effect: morale")
    end = src.index("  - range: 8-11")
    (folder / "match_events.yaml").write_text(src[:cut] + src[end:], "utf-8")
    with pytest.raises(TableError, match=r"rows\[1\]\.when"):
        load_match_event_tables(Resources("purasbar", tmp_path))


def test_points_and_their_odds_are_exact() -> None:
    assert POINTS == {PRE: 40, 1: 20, 2: 25, 4: 20, 5: 25, 7: 30, 8: 30}
    for point, odds in POINTS.items():
        assert run(odds, FANS, point=point)["triggered"]
        miss = run(odds + 1, point=point)
        assert not miss["triggered"] and "event_roll" not in miss
    d = Dice(1)
    assert check(d, KEY, 3, MatchDepth(), 0, False, T) is None  # 补时 slices: no check
    assert check(d, KEY, 6, MatchDepth(), 0, False, T) is None and not d.log


def test_match_depth_moves_on_2_and_99_only() -> None:
    for face, move in ((2, -1), (3, 0), (98, 0), (99, 1)):
        depth = MatchDepth()
        rec = run(40, face, 60, point=PRE, depth=depth)  # a harmful row gets a response roll (60)
        assert depth.value == move == rec["depth_after"]
        assert (rec["depth_move"] is not None) == bool(move)
    depth = MatchDepth(value=2)
    rec = run(20, 99, depth=depth)
    assert (rec["scale_depth"], rec["depth_after"], rec["table"]) == (2, 3, "base")  # scaled before moving


def test_exclusive_tables_once_then_depth_has_no_effect() -> None:
    depth = MatchDepth(value=3)
    first = run(20, 60, depth=depth)
    assert (first["table"], first["exclusive"], first["key"]) == ("golden", True, "stadium_quake")
    assert (depth.value, depth.spent, first["amount"]) == (3, True, 25)
    again = run(20, FANS, depth=depth)
    assert (again["table"], again["scale_depth"], again["amount"], depth.value) == ("base", 0, 2, 3)
    assert run(20, 100, depth=depth)["depth_after"] == 3
    dark = MatchDepth(value=-3)
    rec = run(20, 20, 30, depth=dark)
    assert (rec["table"], rec["key"], rec["response"]["outcome"]) == ("dark", "red_card", "failed")
    assert rec["apply"] == [{"effect": "match_mod", "side": "us", "delta": -5, "slices": "all"}]
    assert run(20, FANS, depth=dark)["table"] == "base" and dark.value == -3


def test_response_roll_halves_fails_or_worsens() -> None:
    failed = run(20, REFEREE, 49)
    assert failed["response"]["outcome"] == "failed" and failed["apply"][0]["delta"] == -3
    halved = run(20, REFEREE, 40, resume=10)  # 联赛熟手 +10 (000 §6.3.3)
    assert (halved["response"]["total"], halved["response"]["outcome"]) == (50, "halved")
    assert halved["apply"] == [{"effect": "match_mod", "side": "us", "delta": -2, "slices": 2}]
    for face in (1, 5):
        worse = run(20, REFEREE, face, resume=60)
        assert worse["response"]["outcome"] == "worse" and worse["apply"][0]["delta"] == -4
    assert run(20, REFEREE, 6, resume=60)["response"]["outcome"] == "halved"
    brawl = run(20, LOCKER, 3)
    assert brawl["worse"]["effect"] == "injury"
    assert brawl["apply"] == [{"effect": "morale", "side": "us", "delta": -10},
                              {"effect": "injury", "side": "us", "target": "random", "weeks": 1}]
    assert run(20, FANS)["response"] is None
    assert (halve(3), halve(1), worsen(3), worsen(1)) == (2, 1, 4, 2)


def test_neutral_rows_lean_and_turn_with_depth() -> None:
    calm = run(20, RAIN)
    assert calm["response"] is None and [e["delta"] for e in calm["apply"]] == [-2, -2]
    assert run(20, RAIN, depth=MatchDepth(value=1))["lean"] == "positive"
    leaning = run(20, RAIN, 80, depth=MatchDepth(value=-1))
    assert leaning["lean"] == "negative" and leaning["response"]["outcome"] == "halved"
    assert leaning["apply"] == [{"effect": "match_mod", "side": "us", "delta": -1, "slices": 3},
                                {"effect": "match_mod", "side": "them", "delta": -2, "slices": 3}]
    turned = run(20, RAIN, depth=MatchDepth(value=2))
    assert turned["polarity"] == "positive" and turned["apply"][0]["side"] == "them"
    for face in (1, 100):  # the response roll never moves depth (§6.3.3)
        depth = MatchDepth(value=-1)
        run(20, RAIN, face, depth=depth)
        assert depth.value == -1


def test_scale_by_depth() -> None:
    got = [run(20, FANS, depth=MatchDepth(value=v))["amount"] for v in (-2, -1, 0, 1, 2)]
    assert got == [1, 1, 2, 3, 4]
    harm = [run(20, REFEREE, 30, depth=MatchDepth(value=v))["apply"][0]["delta"] for v in (-2, -1, 0, 1, 2)]
    assert harm == [-6, -4, -3, -2, -1]


def test_hidden_rolls_for_core_injury_only_and_decided_before_the_throw() -> None:
    """000 §5.8.4 (designed): the response to 核心重伤 is sealed; the event die, critical or not, is public."""
    d = Dice(1)
    core = run(40, CORE, 70, point=PRE, hidden=True, dice=d)
    assert core["key"] == "core_injury" and core["hidden"] and not core["critical"]
    assert "hidden" not in core["event_roll"] and core["response"]["roll"]["hidden"]
    assert [r.hidden for r in d.log] == [False, False, True]
    rid = core["response"]["roll"]["id"]
    assert core["response"]["result"] == {"sealed_by": rid, "face": 70, "total": 70, "outcome": "halved"}
    assert core["apply"] == [{"effect": "injury", "side": "us", "target": "random_core", "weeks": None,
                              "pending": {"sealed_by": rid, "weeks": 3}}]
    in_play = run(20, CORE, 70, hidden=True)
    assert (in_play["fits"], in_play["hidden"], in_play["effect"]) == (False, False, "stamina")
    for face in (1, 2, 99, 100):
        rec = run(20, face, 70, hidden=True)
        assert rec["critical"] and not rec["hidden"] and not (rec["response"] or {}).get("sealed")
    assert not run(40, CORE, 70, point=PRE, hidden=False)["hidden"]  # AI matches: no hidden dice
    assert not run(20, 98, hidden=True)["hidden"]


def test_only_an_injury_row_can_be_sealed(tmp_path: Path) -> None:
    text = (RES.table_path("match_events.yaml")).read_text(encoding="utf-8")
    bad = text.replace("    key: fans_chant\n", "    key: fans_chant\n    hidden: true\n", 1)
    assert bad != text
    path = tmp_path / "match_events.yaml"
    path.write_text(bad, encoding="utf-8")
    from anko_writer.rulesets.purasbar.events.depth import POLARITIES
    from anko_writer.rulesets.purasbar.events.match_events import EFFECTS, check_rows
    from anko_writer.tables import load_table
    with pytest.raises(TableError, match="只有没有 worse 的伤病行才能封存"):
        check_rows(load_table(path, EFFECTS), POLARITIES)


def test_rows_fire_at_their_width() -> None:
    d = Dice(2024)
    n = 20000
    hits: Counter[str] = Counter()
    triggered = 0
    for i in range(n):
        rec = check(d, f"stat/{i % 50}", PRE, MatchDepth(), 0, False, T)
        assert rec is not None
        if rec["triggered"]:
            triggered += 1
            hits[rec["key"]] += 1
    assert abs(triggered - n * 0.4) < 4 * math.sqrt(n * 0.4 * 0.6)
    for row in T.base.rows:
        p = (row.hi - row.lo + 1) / 100
        assert abs(hits[row.params["key"]] - triggered * p) < 4 * math.sqrt(triggered * p * (1 - p)), row
