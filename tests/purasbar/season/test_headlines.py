"""The month's headlines (``season.headlines``) ranked from hand-built records: each kind of event, the
salience order, what runs across months (streaks, signings, the league decided) and the rule that no two
months of a season are headed by the same kind and subject."""

from __future__ import annotations

import copy
from typing import Any

from anko_writer.rulesets.purasbar.season.headlines import GIANT_GAP, Headline, Memo, fold, fresh, rank

US = "我方"


def _match(opp: str, ours: int, theirs: int, *, goals: list[tuple[str, str, str]] | None = None,
           home: bool = True, competition: str = "league", stage: str | None = None,
           players: tuple[str, ...] = ("甲",), winner: str | None = "") -> dict[str, Any]:
    """One of our matches: ``goals`` are (team, shooter, slot) in order; without them, our goals first."""
    goals = goals if goals is not None else [(US, "甲", "FW")] * ours + [(opp, "乙", "FW")] * theirs
    if winner == "":
        winner = US if ours > theirs else opp if theirs > ours else None
    lineup = [{"name": p, "slices": [1, 2, 3, 4, 5, 6]} for p in players]
    return {"home": US if home else opp, "away": opp if home else US, "competition": competition, "stage": stage,
            "score": [ours, theirs] if home else [theirs, ours], "winner": winner,
            "attacks": [{"team": t, "shooter": s, "shooter_pos": slot, "goal": True} for t, s, slot in goals],
            "lineups": {"home" if home else "away": lineup, "away" if home else "home": []}}


def _record(month: int, *matches: dict[str, Any], totals: dict[str, int] | None = None, **extra: Any) -> dict[str, Any]:
    """A month's results with just what the headlines read."""
    clubs = [{"name": n, "total": t} for n, t in (totals or {}).items()]
    return {"month": month, "club": US, "matches": list(matches), "our_matches": list(range(len(matches))),
            "clubs": clubs, "standings": [], "reveals": [], **extra}


def _kinds(events: list[Headline]) -> list[str]:
    return [e["kind"] for e in events]


def test_a_keepers_goal_heads_a_month_of_plain_wins() -> None:
    rec = _record(1, _match("乙队", 2, 0), _match("丙队", 1, 0, goals=[(US, "门神", "GK")]))
    events, _ = rank(rec, fresh())
    assert _kinds(events) == ["keeper_goal", "win", "win"]
    assert events[0]["player"] == "门神" and events[0]["other"] == "丙队" and events[0]["score"] == [1, 0]
    assert [e["lead"] for e in events] == [True, False, False]


def test_a_quiet_month_tells_all_its_results() -> None:
    events, _ = rank(_record(1, _match("乙队", 1, 0), _match("丙队", 1, 1)), fresh())
    assert _kinds(events) == ["win", "draw"] and all(e["lead"] for e in events)


def test_defenders_goal_hat_trick_and_big_win() -> None:
    goals = [(US, "射手", "FW")] * 3 + [(US, "后卫", "DF"), ("乙队", "乙", "FW")]
    events, _ = rank(_record(1, _match("乙队", 4, 1, goals=goals)), fresh())
    assert _kinds(events) == ["hat_trick", "defender_goal", "win"]  # a margin of 3 is not a big win
    assert events[0]["number"] == 3 and events[0]["player"] == "射手"
    events, _ = rank(_record(1, _match("乙队", 5, 1)), fresh())
    assert "big_win" in _kinds(events) and "hat_trick" in _kinds(events)
    assert _kinds(rank(_record(1, _match("乙队", 0, 4)), fresh())[0])[0] == "heavy_defeat"


def test_giant_killing_and_upset_need_the_gap() -> None:
    strong = {US: 100, "强队": 100 + GIANT_GAP, "稍强": 100 + GIANT_GAP - 1, "弱队": 100 - GIANT_GAP}
    events, _ = rank(_record(1, _match("强队", 1, 0), _match("稍强", 1, 0), totals=strong), fresh())
    giants = [e for e in events if e["kind"] == "giant_killing"]
    assert [(e["other"], e["number"]) for e in giants] == [("强队", GIANT_GAP)]
    events, _ = rank(_record(1, _match("弱队", 0, 1), totals=strong), fresh())
    assert _kinds(events)[0] == "upset_loss" and events[0]["number"] == GIANT_GAP
    events, _ = rank(_record(1, _match("强队", 0, 1), totals=strong), fresh())
    assert "upset_loss" not in _kinds(events)


def test_a_comeback_counts_the_goals_behind() -> None:
    goals = [("乙队", "乙", "FW")] * 2 + [(US, "甲", "FW")] * 3
    events, _ = rank(_record(1, _match("乙队", 3, 2, goals=goals)), fresh())
    comeback = next(e for e in events if e["kind"] == "comeback")
    assert comeback["number"] == 2 and comeback["score"] == [3, 2]
    assert "comeback" not in _kinds(rank(_record(1, _match("乙队", 2, 2, goals=goals[:4])), fresh())[0])


def test_streaks_run_across_months_and_only_a_perfect_month_tells_one() -> None:
    months = [_record(1, _match("乙队", 1, 0), _match("丙队", 2, 0)),
              _record(2, _match("丁队", 1, 0), _match("戊队", 2, 1)),
              _record(3, _match("己队", 1, 0), _match("庚队", 0, 0)),
              _record(4, _match("辛队", 0, 1), _match("壬队", 0, 2)),
              _record(5, _match("癸队", 0, 1))]
    ranked, memo = fold(months)
    streaks = [[(e["kind"], e["number"]) for e in m if e["kind"].endswith("_streak")] for m in ranked]
    assert streaks == [[], [("win_streak", 4)], [], [], [("loss_streak", 3)]]
    assert ranked[1][0]["kind"] == "win_streak" and ranked[1][0]["subject"] == "4"
    assert memo["win_run"] == 0 and memo["loss_run"] == 3


def test_the_league_decided_once_and_won_in_its_last_month() -> None:
    rows = [{"team": "领头", "points": 60, "played": 20}, {"team": US, "points": 40, "played": 20},
            {"team": "丙队", "points": 30, "played": 20}]
    first, memo = rank(_record(10, _match("乙队", 1, 0), standings=rows), fresh())
    assert first[0]["kind"] == "league_decided" and (first[0]["other"], first[0]["number"]) == ("领头", 3)
    again, memo = rank(_record(10, _match("丙队", 1, 0), standings=rows), memo)
    assert "league_decided" not in _kinds(again)
    close = [dict(rows[0], points=45), *rows[1:]]
    assert "league_decided" not in _kinds(rank(_record(10, _match("乙队", 1, 0), standings=close), fresh())[0])
    ours = [dict(rows[1], played=23, points=61), dict(rows[0], played=23)]
    won, _ = rank(_record(11, _match("丙队", 1, 0), standings=ours), memo)
    assert won[0]["kind"] == "league_won" and won[0]["number"] == 61
    second, _ = rank(_record(11, _match("丙队", 1, 0), standings=[dict(r, played=23) for r in rows]), memo)
    assert second[0]["kind"] == "league_final" and (second[0]["number"], second[0]["other"]) == (2, "领头")
    clinch = [dict(rows[1], points=60), dict(rows[0], points=40)]
    assert rank(_record(9, _match("乙队", 1, 0), standings=clinch), fresh())[0][0]["kind"] == "league_clinched"


def test_the_cup_month() -> None:
    final = _match("决赛对手", 2, 1, competition="knockout", stage="final")
    won, _ = rank(_record(12, _match("乙队", 0, 3, competition="swiss"), final, champion=US), fresh())
    assert won[0]["kind"] == "cup_won" and won[0]["other"] == "决赛对手"
    semi = _match("强敌", 1, 1, competition="knockout", stage="semi_final", winner="强敌")
    out, _ = rank(_record(12, _match("乙队", 1, 0, competition="swiss"), semi, champion="强敌"), fresh())
    assert out[0]["kind"] == "cup_out" and (out[0]["other"], out[0]["what"], out[0]["number"]) == ("强敌", "semi_final", 3)
    swiss, _ = rank(_record(12, _match("乙队", 1, 0, competition="swiss"), champion="别人"), fresh())
    assert swiss[0]["kind"] == "cup_swiss_out" and swiss[0]["other"] == "别人"


def _window(*buys: tuple[str, int]) -> dict[str, Any]:
    return {"window": {"ours": [{"kind": "buy", "done": True, "to": US, "player": p, "fee": f} for p, f in buys]}}


def test_signings_debut_when_they_first_play_and_the_biggest_fee_is_a_headline() -> None:
    m1 = _record(1, _match("乙队", 1, 0), life=_window(("新援", 300_000), ("替补", 20_000)))
    m2 = _record(2, _match("丙队", 2, 0, goals=[(US, "新援", "FW"), (US, "甲", "FW")], players=("甲", "新援")))
    m3 = _record(3, _match("丁队", 1, 0, players=("甲", "新援")), life=_window(("便宜货", 150_000)))
    (one, two, three), memo = fold([m1, m2, m3])
    assert [(e["kind"], e["player"], e["number"]) for e in one if e["kind"] in ("debut", "record_signing")] == [
        ("record_signing", "新援", 300_000)]
    debut = next(e for e in two if e["kind"] == "debut")
    assert (debut["player"], debut["number"]) == ("新援", 1)
    assert not [e for e in three if e["kind"] in ("debut", "record_signing")]  # a smaller fee is no record
    assert memo["signed"] == {"替补": 20_000, "便宜货": 150_000} and memo["record_fee"] == 300_000


def test_a_bankruptcy_warning_and_a_revealed_die() -> None:
    money = {"money": {"bankruptcy": {"event": "warning", "months_left": 3}}}
    reveal = {"id": "r1", "total": 57, "moment": {"opponent": "布拉斯皇家", "player": "核心", "event": "核心重伤"}}
    events, _ = rank(_record(4, _match("乙队", 1, 1), life=money, reveals=[reveal, {"id": "r2", "total": 3}]), fresh())
    assert _kinds(events) == ["bankruptcy_warning", "reveal", "draw"]
    assert events[0]["number"] == 3 and (events[1]["other"], events[1]["what"]) == ("布拉斯皇家", "核心重伤")


def test_no_kind_and_subject_heads_two_months() -> None:
    keeper = [(US, "门神", "GK")]
    months = [_record(1, _match("乙队", 1, 0, goals=keeper)), _record(2, _match("丙队", 1, 0, goals=keeper))]
    (one, two), memo = fold(months)
    assert one[0]["kind"] == "keeper_goal" and two[0]["kind"] == "win"
    assert two[1]["kind"] == "keeper_goal" and two[1]["before"] == 1 and two[1]["lead"]
    assert memo["heads"] == [["keeper_goal", "门神"], ["win", "丙队"]]


def test_rank_is_pure_and_deterministic() -> None:
    rec = _record(2, _match("乙队", 3, 2, goals=[("乙队", "乙", "FW")] * 2 + [(US, "门神", "GK")] * 3))
    memo: Memo = {**fresh(), "win_run": 2, "heads": [["win", "丁队"]]}
    before_rec, before_memo = copy.deepcopy(rec), copy.deepcopy(memo)
    assert rank(rec, memo) == rank(rec, memo)
    assert rec == before_rec and memo == before_memo
    assert rank(_record(1), fresh()) == ([], {**fresh(), "heads": []})
