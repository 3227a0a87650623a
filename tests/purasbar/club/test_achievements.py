"""Achievements (designed Appendix E): facts from month records, data conditions, once per campaign."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from anko_writer.dice import Dice
from anko_writer.errors import TableError
from anko_writer.rulesets.purasbar.club.achievements import (
    EXTRA_FACTS,
    MONTH_FACTS,
    SEASON_FACTS,
    check_month,
    check_season,
    holds,
    load_achievements,
    load_achievements_table,
    month_facts,
    rewards,
    season_facts,
    trailed,
)
from tests.purasbar.club.test_ageing import render_macro
from tests.util import RES

TABLE = load_achievements(RES)
US = "雷希特竞技"


def match(home: str, away: str, scorers: list[tuple[str, str]], competition: str = "league",
          stage: str | None = None, penalties: list[int] | None = None, winner: str | None = "auto") -> dict[str, Any]:
    """A match record: ``scorers`` are (team, shooter) in the order the goals fell; a miss between each."""
    attacks = []
    for i, (team, shooter) in enumerate(scorers):
        attacks.append({"team": home if team != home else away, "shooter": None, "goal": False, "slice": i + 1})
        attacks.append({"team": team, "shooter": shooter, "goal": True, "slice": i + 1})
    h = sum(t == home for t, _ in scorers)
    a = len(scorers) - h
    if winner == "auto":
        winner = None if h == a else home if h > a else away
    return {"competition": competition, "round": 1, "stage": stage if stage else competition, "home": home,
            "away": away, "score": [h, a], "penalties": penalties, "winner": winner, "attacks": attacks}


def month(n: int, matches: list[dict[str, Any]], standings: list[str] | None = None, **kw: Any) -> dict[str, Any]:
    """A month record with our matches marked and a table in the given order."""
    table = [{"team": t, "played": 2, "won": 0, "drawn": 0, "lost": 0, "gf": 0, "ga": 0, "points": 0}
             for t in (standings or [])]
    ours = [i for i, m in enumerate(matches) if US in (m["home"], m["away"])]
    return {"month": n, "matches": matches, "our_matches": ours, "standings": table, **kw}


def base(kind: str) -> dict[str, Any]:
    """Facts where nothing happened."""
    facts = {f: 0 for f in (MONTH_FACTS if kind == "in_season" else SEASON_FACTS)}
    if kind == "season_end":
        facts.update({f: False for f in ("best_attack", "best_defence", "cup_champion", "league_champion",
                                         "double", "top_scorer")})
    return facts


# key → (facts that trigger it, facts that just miss)
CASES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "first_win": ({"won": 1}, {"won": 0, "drawn": 2}),
    "three_in_a_row": ({"win_streak": 3}, {"win_streak": 2}),
    "five_in_a_row": ({"win_streak": 5}, {"win_streak": 4}),
    "unbeaten_ten": ({"unbeaten_streak": 10}, {"unbeaten_streak": 9}),
    "goal_feast": ({"most_goals": 5}, {"most_goals": 4}),
    "rout": ({"biggest_win": 4}, {"biggest_win": 3}),
    "hat_trick": ({"best_player_goals": 3}, {"best_player_goals": 2}),
    "comeback": ({"comebacks": 1}, {"comebacks": 0}),
    "unbeaten_month": ({"played": 2, "lost": 0}, {"played": 1, "lost": 0}),
    "perfect_month": ({"played": 2, "not_won": 0}, {"played": 3, "not_won": 1}),
    "iron_wall": ({"clean_sheet_streak": 3}, {"clean_sheet_streak": 2}),
    "road_warriors": ({"away_wins": 2}, {"away_wins": 1}),
    "top_of_the_table": ({"league_rank": 1}, {"league_rank": 2}),
    "cup_last_eight": ({"cup_knockout": 1}, {"cup_knockout": 0}),
    "cup_final_night": ({"cup_final": 1}, {"cup_semi": 1}),
    "spot_kick_nerves": ({"shootout_wins": 1}, {"shootout_wins": 0}),
    "league_champion": ({"league_champion": True}, {"league_rank": 2}),
    "top_four": ({"league_rank": 4}, {"league_rank": 5}),
    "upper_half": ({"league_rank": 12}, {"league_rank": 13}),
    "cup_winner": ({"cup_champion": True}, {"cup_stage": 4}),
    "the_double": ({"double": True}, {"league_champion": True}),
    "golden_boot": ({"top_scorer": True}, {"top_scorer_goals": 20}),
    "unbeaten_league": ({"league_played": 23, "league_lost": 0}, {"league_played": 23, "league_lost": 1}),
    "best_defence": ({"best_defence": True}, {"best_attack": True}),
    "best_attack": ({"best_attack": True}, {"best_defence": True}),
    "academy_graduate": ({"promoted": 1}, {"promoted": 0}),
    "in_the_black": ({"net": 1}, {"net": 0}),
    "fan_boom": ({"fan_growth_pct": 10}, {"fan_growth_pct": 9}),
    "dark_horse": ({"league_rank": 8}, {"league_rank": 9}),
    "city_pride": ({"cup_stage": 3}, {"cup_stage": 2}),
    "press_darling": ({"fan_growth_pct": 5}, {"fan_growth_pct": 4}),
    "locker_room_soul": ({"leaders": 1}, {"leaders": 0}),
    "academy_showcase": ({"youth_players": 3}, {"youth_players": 2}),
}


def test_table_is_designed_and_large_enough() -> None:
    assert len(TABLE) >= 20 and {a["kind"] for a in TABLE} == {"in_season", "season_end"}
    assert sorted(CASES) == sorted(a["key"] for a in TABLE)  # every achievement has its two tests
    assert {a["key"]: a["chance"] for a in TABLE if "chance" in a} == \
        {"dark_horse": 40, "city_pride": 50, "press_darling": 50, "locker_room_soul": 30, "academy_showcase": 40}
    text = RES.table_path("achievements.yaml").read_text(encoding="utf-8")
    assert "source: designed" in text


def unlock(a: dict[str, Any], facts: dict[str, Any], face: int = 1) -> list[str]:
    """Keys unlocked by checking ``facts`` with an empty ``unlocked`` set (rolls show ``face``)."""
    if a["kind"] == "in_season":
        return [e["key"] for e in check_month(facts, set(), TABLE)["unlocked"]]
    d = Dice(1)
    d.fix(*[face] * 10)
    rec = check_season(d, "s1/ach", facts, set(), TABLE)
    return [e["key"] for e in rec["unlocked"]] + [e["key"] for e in rec["rolled"] if e["success"]]


@pytest.mark.parametrize("key", sorted(CASES))
def test_each_condition_triggers_and_misses(key: str) -> None:
    a = next(a for a in TABLE if a["key"] == key)
    yes, no = CASES[key]
    assert key in unlock(a, {**base(a["kind"]), **yes})
    assert key not in unlock(a, {**base(a["kind"]), **no})


@pytest.mark.parametrize("key", ["dark_horse", "city_pride", "press_darling", "locker_room_soul", "academy_showcase"])
def test_rolled_achievements_need_the_die(key: str) -> None:
    a = next(a for a in TABLE if a["key"] == key)
    facts = {**base("season_end"), **CASES[key][0]}
    assert key in unlock(a, facts, face=a["chance"]) and key not in unlock(a, facts, face=a["chance"] + 1)
    d = Dice(1)
    d.fix(a["chance"] + 1, prefix=f"s1/ach/{key}")
    rec = check_season(d, "s1/ach", facts, set(), TABLE)
    e = next(e for e in rec["rolled"] if e["key"] == key)
    assert e["chance"] == a["chance"] and e["roll"]["purpose"] == f"成就「{a['name']}」判定" and not e["success"]


def test_never_twice_across_seasons() -> None:
    unlocked: set[str] = set()
    facts = {**base("in_season"), "won": 2, "played": 2, "not_won": 0}
    first = check_month(facts, unlocked, TABLE)
    assert [e["key"] for e in first["unlocked"]] == ["first_win", "unbeaten_month", "perfect_month"]
    assert check_month(facts, unlocked, TABLE)["unlocked"] == []
    season = {**base("season_end"), "league_rank": 3, "league_champion": False}
    d = Dice(1)
    d.fix(1, 1, 1)
    rec = check_season(d, "s1/ach", season, unlocked, TABLE, provisional=["first_win", "perfect_month"])
    assert [e["key"] for e in rec["confirmed"]] == ["first_win", "perfect_month"]
    assert [e["key"] for e in rec["unlocked"]] == ["top_four", "upper_half"]
    assert [(e["key"], e["success"]) for e in rec["rolled"]] == [("dark_horse", True)]
    again = check_season(Dice(1), "s2/ach", season, unlocked, TABLE)
    assert again["unlocked"] == [] and again["rolled"] == []
    assert rec["unlocked"][0]["facts"] == {"league_rank": 3} and rec["unlocked"][0]["reward"] == {"reputation": 2}
    # first_win morale 2, perfect_month morale 3, top_four reputation 2, dark_horse reputation 2
    assert rewards(rec) == {"morale": 5, "reputation": 4}


def test_a_failed_roll_may_try_again_next_season() -> None:
    unlocked: set[str] = set()
    facts = {**base("season_end"), "leaders": 1}
    d = Dice(1)
    d.fix(31, prefix="s1/ach/locker_room_soul")
    assert check_season(d, "s1/ach", facts, unlocked, TABLE)["rolled"][0]["success"] is False
    d.fix(30, prefix="s2/ach/locker_room_soul")
    assert check_season(d, "s2/ach", facts, unlocked, TABLE)["rolled"][0]["success"] is True
    assert "locker_room_soul" in unlocked


# ---------------------------------------------------------------- facts from records


def test_month_facts_from_records() -> None:
    them, other = "玛吉克联", "北港"
    comeback = match(US, them, [(them, "敌"), (US, "卡尔"), (US, "卡尔"), (US, "卡尔")])     # 3:1, hat-trick
    away = match(other, US, [(US, "汉斯")])                                                 # 0:1 away, clean
    draw = match(US, other, [(other, "敌"), (US, "奥托")])
    unrelated = match(them, other, [(them, "x")] * 6)
    rec = month(3, [comeback, unrelated, away, draw], standings=[other, US, them])
    f = month_facts(rec, US)
    assert {k: f[k] for k in MONTH_FACTS} == {
        "month": 3, "played": 3, "won": 2, "drawn": 1, "lost": 0, "not_won": 1, "goals_for": 5,
        "goals_against": 2, "clean_sheets": 1, "most_goals": 3, "biggest_win": 2, "best_player_goals": 3,
        "comebacks": 1, "away_wins": 1, "win_streak": 2, "unbeaten_streak": 3, "clean_sheet_streak": 1,
        "league_rank": 2, "cup_knockout": 0, "cup_semi": 0, "cup_final": 0, "shootout_wins": 0}
    assert f["running"] == {"win": 0, "unbeaten": 3, "clean_sheet": 0}
    nxt = month_facts(month(4, [match(US, them, [(US, "卡尔")]), match(them, US, [])]), US, f)
    assert (nxt["win_streak"], nxt["unbeaten_streak"], nxt["clean_sheet_streak"], nxt["league_rank"]) == (1, 5, 2, 0)


def test_comeback_needs_to_trail_and_win() -> None:
    level_then_lead = match(US, "甲", [(US, "a"), ("甲", "b"), (US, "a")])
    assert not trailed(level_then_lead, US)
    lost_lead = match(US, "甲", [("甲", "b"), (US, "a")])
    assert trailed(lost_lead, US) and month_facts(month(1, [lost_lead]), US)["comebacks"] == 0


def test_cup_month_facts() -> None:
    qf = match(US, "甲", [(US, "a")], competition="knockout", stage="quarter_final")
    sf = match("乙", US, [("乙", "b"), (US, "a")], competition="knockout", stage="semi_final", penalties=[3, 4],
               winner=US)
    final = match(US, "丙", [], competition="knockout", stage="final", penalties=[5, 4], winner=US)
    swiss = match(US, "丁", [("丁", "c")], competition="swiss")
    f = month_facts(month(12, [swiss, qf, sf, final], champion=US), US)
    assert (f["cup_knockout"], f["cup_semi"], f["cup_final"], f["shootout_wins"]) == (3, 1, 1, 2)
    assert (f["won"], f["lost"], f["drawn"], f["clean_sheets"]) == (3, 1, 0, 2)


def standings_row(team: str, played: int, won: int, lost: int, gf: int, ga: int) -> dict[str, Any]:
    """A final-table row."""
    return {"team": team, "played": played, "won": won, "drawn": played - won - lost, "lost": lost, "gf": gf,
            "ga": ga, "points": 3 * won + played - won - lost}


def test_season_facts() -> None:
    m1 = month(1, [match(US, "甲", [(US, "卡尔"), (US, "卡尔")]), match("乙", "甲", [("乙", "敌")] * 2)])
    table = [standings_row(US, 23, 20, 0, 60, 10), standings_row("甲", 23, 10, 5, 60, 30),
             standings_row("乙", 23, 5, 10, 20, 10)]
    m11 = {**month(11, [match("甲", US, [])]), "standings": table}
    m12 = month(12, [match(US, "丙", [(US, "x")], competition="knockout", stage="final")], champion=US)
    m12["standings"] = table
    f = season_facts([m1, m11, m12], US, {"promoted": 1, "fans_before": 1000, "fans_after": 1150, "net": -5})
    assert set(f) == set(SEASON_FACTS)
    league = ("league_rank", "league_played", "league_won", "league_lost", "league_gf", "league_ga")
    assert [f[k] for k in league] == [1, 23, 20, 0, 60, 10]
    assert f["best_attack"] and f["best_defence"]                   # ties are shared
    assert (f["cup_stage"], f["cup_champion"], f["league_champion"], f["double"]) == (5, True, True, True)
    assert f["top_scorer"] and f["top_scorer_goals"] == 2           # 卡尔 2 ties 敌 2
    assert (f["season_played"], f["season_won"], f["season_goals"], f["win_streak"], f["unbeaten_streak"]) == \
        (3, 2, 3, 1, 3)
    assert (f["promoted"], f["net"], f["fan_growth"], f["fan_growth_pct"], f["leaders"]) == (1, -5, 150, 15, 0)
    with pytest.raises(ValueError, match="unknown extra"):
        season_facts([m1], US, {"promotions": 1})
    assert set(EXTRA_FACTS) <= set(SEASON_FACTS)


def test_season_facts_without_a_cup_or_a_table() -> None:
    f = season_facts([month(1, [match("甲", "乙", [])])], US, {})
    assert (f["league_rank"], f["cup_stage"], f["top_scorer"], f["fan_growth_pct"]) == (0, 0, False, 0)
    swiss_only = month(12, [match(US, "甲", [], competition="swiss")], champion="甲")
    assert season_facts([swiss_only], US, {})["cup_stage"] == 1


# ---------------------------------------------------------------- the table is data


@pytest.mark.parametrize("old, new, message", [
    ("{fact: won, op: \">=\", value: 1}", "{fact: wins, op: \">=\", value: 1}", "未知的事实 'wins'"),
    ("{fact: won, op: \">=\", value: 1}", "{fact: won, op: \"=>\", value: 1}", "未知的比较符"),
    ("{fact: won, op: \">=\", value: 1}", "\"facts['won'] >= 1\"", "应为映射"),
    ("{fact: won, op: \">=\", value: 1}", "{fact: league_champion, op: \"==\", value: true}", "未知的事实"),
    ("    condition: {fact: won, op: \">=\", value: 1}\n",
     "    condition: {fact: won, op: \">=\", value: 1}\n    chance: 50\n", "只有 season_end"),
    ("key: rout", "key: first_win", "键 'first_win' 重复"),
])
def test_bad_tables_are_refused(tmp_path: Path, old: str, new: str, message: str) -> None:
    text = RES.table_path("achievements.yaml").read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "achievements.yaml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(TableError, match=message):
        load_achievements_table(bad)


def test_holds_any_and_missing_facts() -> None:
    cond = {"any": [{"fact": "a", "op": ">", "value": 2}, {"fact": "b", "op": "!=", "value": 0}]}
    assert holds(cond, {"a": 3, "b": 0}) and holds(cond, {"a": 0, "b": 1}) and not holds(cond, {"a": 2, "b": 0})
    with pytest.raises(KeyError):
        holds({"fact": "nope", "op": "==", "value": 1}, {})


# ---------------------------------------------------------------- chapters


def test_achievements_render(tmp_path: Path) -> None:
    unlocked: set[str] = set()
    rec = check_month({**base("in_season"), "won": 1, "win_streak": 5, "month": 4}, unlocked, TABLE)
    md = render_macro(tmp_path, "month_achievements(rec)", rec=rec)
    assert "**成就临时解锁**" in md and "**「五连胜」**——各项赛事连续五场获胜（可跨月）。（奖励：士气 + 5，声望 + 1，赛季结算时入账）" in md
    nothing = {"month": 5, "unlocked": [], "checked": 3}
    assert render_macro(tmp_path, "month_achievements(rec)", rec=nothing).strip() == ""
    d = Dice(1)
    d.fix(41, prefix="s1/ach/dark_horse")
    d.fix(1, prefix="s1/ach/locker_room_soul")
    season = {**base("season_end"), "league_rank": 6, "leaders": 1}
    rec = check_season(d, "s1/ach", season, unlocked, TABLE, provisional=["first_win", "five_in_a_row"])
    md = render_macro(tmp_path, "season_achievements(rec)", rec=rec)
    assert "赛季中临时解锁的 2 项正式记录——破冰首胜、五连胜。" in md and "**「上半区」**" in md
    assert "「年度黑马」条件达成，赛季末掷骰判定「1D100＝41」 > 40，这次与它擦肩而过" in md
    assert "「更衣室之魂」条件达成，赛季末掷骰判定「1D100＝1」 ≤ 30，解锁 **「更衣室之魂」**" in md
    quiet = check_season(Dice(1), "s2/ach", base("season_end"), unlocked, TABLE)
    assert "本季没有新的赛季末成就" in render_macro(tmp_path, "season_achievements(rec)", rec=quiet)
