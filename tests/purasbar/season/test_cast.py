"""The month's people (issue 15, ``season/cast.py``) on hand-built months: the season top scorer and who led last
month, the season's record signing and his goals for his new club, the injured core player from when to when,
the coach under pressure, the rival met again; the memo carries each across months."""

from __future__ import annotations

from typing import Any

from anko_writer.rulesets.purasbar.season.cast import CoachState, Squad, cast, fresh

US = "我队"


def _match(home: str, away: str, score: list[int], goals: list[tuple[str, str]],
           lineups: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """A match with the goals (team, shooter) as its attacks."""
    return {"home": home, "away": away, "score": score, "competition": "league",
            "attacks": [{"team": t, "shooter": s, "goal": True} for t, s in goals],
            "lineups": {k: [{"name": n} for n in v] for k, v in (lineups or {}).items()}}


def _month(month: int, matches: list[dict[str, Any]], points: dict[str, int], **extra: Any) -> dict[str, Any]:
    """A month record: the matches (ours are those with our club) and the table by points."""
    rows = [{"team": t, "points": p} for t, p in sorted(points.items(), key=lambda kv: -kv[1])]
    return {"month": month, "club": US, "matches": matches, "standings": rows,
            "our_matches": [i for i, m in enumerate(matches) if US in (m["home"], m["away"])], **extra}


def _window(*deals: tuple[str, str, int]) -> dict[str, Any]:
    """A month's ``life`` with a window of completed purchases (player, buyer, fee)."""
    return {"window": {"deals": [{"kind": "buy", "done": True, "player": p, "to": to, "fee": fee}
                                 for p, to, fee in deals]}}


COACH: CoachState = {"name": "教练", "owner_to": 50, "to_owner": 50, "tier": "公事公办"}


def test_the_top_scorer_is_counted_across_months_and_remembers_who_led() -> None:
    m1 = _month(1, [_match(US, "乙", [2, 0], [(US, "甲"), (US, "甲")]), _match("丙", "丁", [1, 0], [("丙", "甲")])],
                {US: 3, "乙": 0, "丙": 3, "丁": 0})
    c1, memo = cast(m1, [], COACH, fresh())
    assert c1["scorer"] == {"name": "甲", "goals": 2, "month": 2, "last": None, "last_goals": 0}  # 丙's 甲 is not ours
    m2 = _month(2, [_match("丙", US, [0, 3], [(US, "乙一"), (US, "乙一"), (US, "乙一")])], {US: 6, "丙": 3})
    c2, memo = cast(m2, [], COACH, memo)
    assert c2["scorer"] == {"name": "乙一", "goals": 3, "month": 3, "last": "甲", "last_goals": 2}
    c3, _ = cast(_month(3, [_match(US, "丁", [0, 0], [])], {US: 7, "丁": 1}), [], COACH, memo)
    assert c3["scorer"] == {"name": "乙一", "goals": 3, "month": 0, "last": "乙一", "last_goals": 3}


def test_the_record_signing_is_followed_after_his_window() -> None:
    m1 = _month(1, [_match("丙", "丁", [0, 0], [])], {US: 0, "丙": 1, "丁": 1},
                life=_window(("星", "丙", 900_000), ("小", US, 50_000), ("便宜", "丁", 60_000)))
    c1, memo = cast(m1, [], COACH, fresh())
    assert c1["star"] is not None and (c1["star"]["name"], c1["star"]["club"], c1["star"]["fee"]) == ("星", "丙", 900_000)
    assert c1["signing"] is not None and c1["signing"]["name"] == "小" and c1["signing"]["ours"]
    m2 = _month(2, [_match("丙", US, [2, 1], [("丙", "星"), ("丙", "星"), (US, "小")], {"home": ["星"], "away": ["小"]})],
                {US: 0, "丙": 4, "丁": 1})
    c2, memo = cast(m2, [], COACH, memo)
    star = c2["star"]
    assert star is not None and (star["goals"], star["month"], star["signed"], star["against"]) == (2, 2, 1, True)
    assert c2["signing"] is not None and (c2["signing"]["goals"], c2["signing"]["month"]) == (1, 1)
    m3 = _month(3, [_match("丙", "丁", [1, 0], [("丙", "星")])], {US: 0, "丙": 7, "丁": 1}, life=_window(("次", "丁", 500_000)))
    c3, _ = cast(m3, [], COACH, memo)
    assert c3["star"] is not None and (c3["star"]["name"], c3["star"]["goals"], c3["star"]["month"]) == ("星", 3, 1)


def test_our_own_record_signing_is_the_signing_not_a_second_star() -> None:
    c, _ = cast(_month(1, [], {US: 0}, life=_window(("大", US, 970_000))), [], COACH, fresh())
    assert c["star"] is None and c["signing"] is not None and c["signing"]["fee"] == 970_000


def test_an_injured_core_player_out_since_and_back() -> None:
    squad: list[Squad] = [{"name": "核", "position": "FW", "core": True, "injured_weeks": 6},
                          {"name": "角", "position": "DF", "core": False, "injured_weeks": 9}]
    c1, memo = cast(_month(4, [], {US: 0}), squad, COACH, fresh(), week=17)
    assert c1["injured"] == {"name": "核", "position": "FW", "since": 4, "weeks": 6, "back": 6, "returned": False}
    squad[0]["injured_weeks"] = 2
    c2, memo = cast(_month(5, [], {US: 0}), squad, COACH, memo, week=21)
    assert c2["injured"] is not None and (c2["injured"]["since"], c2["injured"]["back"]) == (4, 6)
    squad[0]["injured_weeks"] = 0
    c3, memo = cast(_month(6, [], {US: 0}, returns=[{"player": "核"}]), squad, COACH, memo, week=25)
    assert c3["injured"] == {"name": "核", "position": "FW", "since": 4, "weeks": 0, "back": 6, "returned": True}
    sealed: list[Squad] = [{"name": "核", "position": "FW", "core": True, "injured_weeks": None}]
    c4, _ = cast(_month(11, [], {US: 0}), sealed, COACH, memo, week=45)
    assert c4["injured"] is not None and c4["injured"]["weeks"] is None and c4["injured"]["back"] is None


def test_the_coach_under_pressure_losing_run_conflict_and_cold_owner() -> None:
    lose = _month(1, [_match(US, "乙", [0, 1], []), _match("丙", US, [2, 0], [])], {US: 0, "乙": 3, "丙": 3})
    c, memo = cast(lose, [], COACH, fresh())
    assert c["coach"] is not None and c["coach"]["loss_run"] == 2 and c["coach"]["conflict"] is None
    assert c["coach"]["why"] == "losing"
    win = _month(2, [_match(US, "丁", [1, 0], [(US, "甲")])], {US: 3, "丁": 0},
                 life={"coach": {"conflict": {"winner": "owner"}}})
    c, memo = cast(win, [], COACH, memo)
    assert c["coach"] is not None and (c["coach"]["loss_run"], c["coach"]["conflict"], c["coach"]["conflicts"]) == (
        0, "owner", 1)
    assert c["coach"]["why"] == "conflict"
    c, _ = cast(_month(3, [_match(US, "戊", [1, 0], [(US, "甲")])], {US: 6}), [], COACH, memo)
    assert c["coach"] is None
    cold: CoachState = {**COACH, "owner_to": 20, "tier": "疏远"}
    c, _ = cast(_month(3, [_match(US, "戊", [1, 0], [(US, "甲")])], {US: 6}), [], cold, memo)
    assert c["coach"] is not None and c["coach"]["owner_to"] == 20 and c["coach"]["tier"] == "疏远"
    assert c["coach"]["why"] == "cold"


def test_the_rival_met_again_or_the_nearest_neighbour() -> None:
    m1 = _month(1, [_match(US, "乙", [2, 1], [])], {US: 3, "乙": 0, "丙": 4, "丁": 9})
    c1, memo = cast(m1, [], COACH, fresh())
    assert c1["rival"] is not None and (c1["rival"]["team"], c1["rival"]["why"], c1["rival"]["gap"]) == ("丙", "neighbour", 1)
    c2, memo = cast(_month(2, [], {US: 3, "乙": 0, "丙": 4, "丁": 9}), [], COACH, memo)
    assert c2["rival"] is not None and c2["rival"]["months"] == 2
    m3 = _month(3, [_match("乙", US, [1, 1], [])], {US: 4, "乙": 1, "丙": 4, "丁": 9})
    c3, _ = cast(m3, [], COACH, memo)
    rv = c3["rival"]
    assert rv is not None and (rv["team"], rv["why"], rv["met"], rv["now"], rv["months"]) == (
        "乙", "again", [[1, 2, 1]], [[3, 1, 1]], 1)
