"""000 §4.2 schedule and standings, and a whole simulated season's JSON contract (DESIGN §5)."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from anko_writer.campaign import load_campaign
from anko_writer.dice import Dice
from anko_writer.rulesets.purasbar import RULESET
from anko_writer.rulesets.purasbar.competition.schedule import ROUNDS_BY_MONTH, make_schedule, round_robin
from anko_writer.rulesets.purasbar.competition.standings import table
from tests.util import RES, campaign_file, season_run

TEAMS = [f"队{i:02d}" for i in range(24)]


def test_rounds_by_month() -> None:
    """000 §4.2.1: 2 rounds in months 1–10, 3 in month 11, 23 in all, each once."""
    assert [len(ROUNDS_BY_MONTH[m]) for m in range(1, 12)] == [2] * 10 + [3]
    assert sorted(itertools.chain(*ROUNDS_BY_MONTH.values())) == list(range(1, 24))


def test_schedule_single_round_robin_and_home_dice() -> None:
    """276 pairings once each, 12 a round, every club once a round; 1D2 = 1 puts the match at A's ground."""
    d = Dice(77)
    fixtures, order = make_schedule(d, "s", TEAMS)
    assert sorted(order) == sorted(TEAMS)
    pairs = Counter(frozenset((f.a, f.b)) for f in fixtures)
    assert len(fixtures) == 276 == len(pairs) and set(pairs.values()) == {1}
    for r in range(1, 24):
        in_round = [f for f in fixtures if f.round == r]
        assert len(in_round) == 12
        assert sorted(itertools.chain(*((f.a, f.b) for f in in_round))) == sorted(TEAMS)
    for f in fixtures:
        assert (f.home, f.away) == ((f.a, f.b) if f.home_roll == 1 else (f.b, f.a))
    home_rolls = [r for r in d.log if r.id.startswith("s/home#")]
    assert len(home_rolls) == 276 and [r.total for r in home_rolls] == [f.home_roll for f in fixtures]


def test_round_robin_small() -> None:
    rounds = round_robin(["a", "b", "c", "d"])
    assert len({frozenset(p) for r in rounds for p in r}) == 6
    with pytest.raises(ValueError):
        round_robin(["a", "b", "c"])


def test_standings_order_and_head_to_head() -> None:
    """Points > goal difference > goals for > head-to-head (000 §4.4 step 1)."""
    results = [
        ("甲", "乙", 1, 0),  # 甲 beats 乙
        ("乙", "丙", 2, 0),
        ("丙", "甲", 1, 0),
        ("丁", "甲", 0, 3),
        ("乙", "丁", 3, 0),
    ]
    rows = table(["丁", "丙", "乙", "甲"], results)
    # 甲 6 pts GD +3 GF 4; 乙 6 pts GD +4 GF 5; 丙 3; 丁 0
    assert [r.team for r in rows] == ["乙", "甲", "丙", "丁"]
    assert [r.points for r in rows] == [6, 6, 3, 0]
    level = [("甲", "丙", 1, 0), ("丙", "乙", 1, 0), ("乙", "甲", 0, 0), ("甲", "丁", 0, 1), ("丁", "乙", 0, 1)]
    # 甲: 4 pts GD 0 GF 1; 乙: 4 pts, GD 0, GF 1 → head-to-head 0:0 → given order decides
    rows = table(["乙", "甲", "丙", "丁"], level)
    assert [r.team for r in rows][:2] == ["乙", "甲"]


def test_standings_head_to_head_decides() -> None:
    res = [("甲", "乙", 2, 1), ("乙", "丙", 2, 1), ("丙", "甲", 2, 1)]
    # all three: 3 pts, GD 0, GF 4 → mini-league identical → given order
    assert [r.team for r in table(["丙", "乙", "甲"], res)] == ["丙", "乙", "甲"]
    res2 = [("甲", "乙", 1, 0), ("丙", "丁", 1, 0), ("乙", "丙", 3, 2), ("丁", "甲", 2, 1)]
    # 甲 3 pts GD 0 GF 2? 甲: beat 乙 1:0, lost to 丁 1:2 → 3 pts, GD 0, GF 2;
    # 丁: lost to 丙 0:1, beat 甲 2:1 → 3 pts, GD 0, GF 2 → head-to-head: 丁 beat 甲
    order = [r.team for r in table(["甲", "乙", "丙", "丁"], res2)]
    assert order.index("丁") < order.index("甲")


@pytest.fixture(scope="module")
def season():  # noqa: ANN201
    """The league months (1 to 11) of the seed-245 campaign's season 1: ``season_run``'s, played once per session
    and shared (read only); they are those of a season played to month 11 (test_season_is_deterministic)."""
    months = season_run(245).months[:11]
    assert [ch.month for ch in months] == list(range(1, 12))
    return SimpleNamespace(months=months)


def test_season_json_contract(season) -> None:  # noqa: ANN001
    """Every attack satisfies the §5.1 formula, scores equal goals, 276 matches, standings add up."""
    matches = [m for ch in season.months for m in ch.results["matches"]]
    assert len(matches) == 276
    assert len({frozenset((m["home"], m["away"])) for m in matches}) == 276
    for m in matches:
        assert len(m["attacks"]) == 12
        for a in m["attacks"]:
            assert a["value"] == a["attack_avg"] - a["defense_avg"] + a["die"] + sum(a["modifiers"].values())
            assert a["shot"] == (a["value"] > 15)
            assert a["goal"] == (a["shot"] and a["finish_value"] > 20)
            if a["shot"]:
                assert a["finish_value"] == a["finish_die"] + (a["shooter_atk"] - a["keeper_gk"]) // 2
            assert a["modifiers"]["venue"] == (2 if a["team"] == m["home"] else -2)
        assert m["score"] == [sum(a["goal"] for a in m["attacks"] if a["team"] == t) for t in (m["home"], m["away"])]
    last = season.months[-1].results["standings"]
    assert len(last) == 24 and all(r["played"] == 23 for r in last)
    assert sum(r["gf"] for r in last) == sum(sum(m["score"]) for m in matches)
    assert [r["points"] for r in last] == sorted((r["points"] for r in last), reverse=True)


def test_month_records(season) -> None:  # noqa: ANN001
    """Each month: the right rounds, our matches, every roll once, unrolled cores left out, stamina in range."""
    seen: set[str] = set()
    for ch in season.months:
        r = ch.results
        assert {k for k in ("ruleset", "season", "month", "rolls", "matches", "standings", "clubs")} <= set(r)
        assert "seed" not in r  # DESIGN §10
        assert [x["round"] for x in r["rounds"]] == list(ROUNDS_BY_MONTH[ch.month])
        assert len(r["our_matches"]) == len(ROUNDS_BY_MONTH[ch.month])
        ids = [x["id"] for x in r["rolls"]]
        assert len(ids) == len(set(ids)) and not (seen & set(ids))
        seen |= set(ids)
        rolled_attack_dice = {a["die_roll"]["id"] for m in r["matches"] for a in m["attacks"]}
        assert rolled_attack_dice <= set(ids)
        for c in r["clubs"]:
            for p in c["players"]:
                assert 0 <= p["stamina"] <= 100
                assert all(1 <= p[a] <= 99 for a in ("ATK", "DEF", "MID", "GK", "STA", "MNT"))
        assert len(r["clubs"]) == 24 and sum(c["ours"] for c in r["clubs"]) == 1


def test_month_one_publishes_the_schedule(season) -> None:  # noqa: ANN001
    prep = season.months[0].results["prep"]
    assert len(prep["our_fixtures"]) == 23 and len(prep["all_fixtures"]) == 276
    assert "prep" not in season.months[1].results


def test_vote_lists_four_formations_against_next_opponents(season) -> None:  # noqa: ANN001
    vote = season.months[4].results["vote"]
    assert vote["key"] == "s1m6" and len(vote["opponents"]) == 2
    assert [o["formation"] for o in vote["options"]] == ["4 4 2", "4 3 3", "5 4 1", "3 5 2"]
    for o in vote["options"]:
        assert len(o["against"]) == 2 and set(o["against"]) <= {-2, 0, 2}
    assert season.months[-1].results["vote"]["opponents"] == []


def test_formation_vote_changes_our_formation(tmp_path: Path) -> None:
    path = campaign_file(tmp_path, extra="decisions:\n  s1m2: {formation: 3 5 2}\n")
    run = RULESET.play_season(load_campaign(path), 1, 2, RES)
    m1, m2 = (c.results for c in run.months)
    assert m1["formation_source"] == "coach" and m2["formation_source"] == "vote"
    assert m2["formation"] == "3 5 2"
    ours = m2["matches"][m2["our_matches"][0]]
    side = "home" if ours["home"] == m2["club"] else "away"
    assert ours["formations"][side] == "3 5 2"
    assert {x["slot"] for x in ours["lineups"][side]} == {"GK", "DF", "MF", "FW"}
    assert sum(x["slot"] == "MF" for x in ours["lineups"][side]) == 5


def test_vote_in_month_five_leaves_earlier_months_identical(tmp_path: Path, season) -> None:  # noqa: ANN001
    import json
    a = season.months  # the same campaign without the vote (test_season_is_deterministic: a fresh play's months)
    b_path = campaign_file(tmp_path, extra="decisions:\n  s1m5: {formation: 3 5 2}\n")
    b = RULESET.play_season(load_campaign(b_path), 1, 6, RES)
    dump = lambda ch: json.dumps(ch.results, ensure_ascii=False, sort_keys=True)  # noqa: E731
    for m in range(4):
        assert dump(a[m]) == dump(b.chapters[m])
    assert dump(a[4]) != dump(b.chapters[4])


def test_season_is_deterministic(tmp_path: Path, season) -> None:  # noqa: ANN001
    import json
    again = RULESET.play_season(load_campaign(campaign_file(tmp_path)), 1, 11, RES)
    for x, y in zip(season.months, again.months, strict=False):
        assert json.dumps(x.results, ensure_ascii=False) == json.dumps(y.results, ensure_ascii=False)
