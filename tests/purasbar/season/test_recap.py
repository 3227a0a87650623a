"""The settlement's season paragraph (issue 15, :mod:`season.recap`): the facts it is built from, on hand-built
tables and cups, and over three seasons of the built-in campaign, the paragraph against the chapters' JSON."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from anko_writer.render import cn_num, money
from anko_writer.rulesets.purasbar.season.recap import band, cup_reached, recap
from tests.purasbar.published import record


def _row(team: str, points: int, won: int = 0, drawn: int = 0, lost: int = 0) -> dict[str, object]:
    return {"team": team, "points": points, "won": won, "drawn": drawn, "lost": lost}


CUP = {"qualifiers": ["A", "B", "C", "D"], "champion": "D", "bracket": [
    {"stage": "quarter_final", "home": "A", "away": "B", "winner": "A"},
    {"stage": "quarter_final", "home": "C", "away": "D", "winner": "D"},
    {"stage": "semi_final", "home": "A", "away": "D", "winner": "D"},
]}


@pytest.mark.parametrize("club, want", [("X", "swiss"), ("B", "quarter_final"), ("A", "semi_final"), ("D", "champion")])
def test_how_far_a_club_went_in_the_cup(club: str, want: str) -> None:
    assert cup_reached(CUP, club) == want


def test_a_lost_final_is_the_final() -> None:
    cup = {**CUP, "bracket": [*CUP["bracket"], {"stage": "final", "home": "D", "away": "E", "winner": "E"}],
           "champion": "E"}
    assert cup_reached(cup, "D") == "final"
    assert cup_reached(None, "D") is None


@pytest.mark.parametrize("rank, want", [(1, "champion"), (2, "high"), (4, "high"), (5, "mid"), (16, "mid"),
                                        (17, "low"), (24, "low")])
def test_rank_bands(rank: int, want: str) -> None:
    assert band(rank) == want


def test_the_gap_is_the_lead_when_we_won_and_the_deficit_otherwise() -> None:
    table = [_row("Us", 60, 19, 3, 1), _row("Them", 55), _row("Else", 10)]
    assert recap(table, "Us", None, None, 5, 10)["gap"] == 5
    assert recap(table, "Else", None, None, -5, 10)["gap"] == 50
    r = recap(table, "Them", CUP, {"name": "P", "goals": 9}, -5, 10)
    assert (r["league"]["rank"], r["band"], r["cup"]["reached"], r["scorer"]) == (2, "high", "swiss",
                                                                                 {"name": "P", "goals": 9})


def test_the_settlement_opens_with_the_season_as_the_json_has_it(three: tuple[Path, int]) -> None:
    """Each season's ``end.md`` opens (after its title) with a paragraph whose rank, points, record, cup stage, top
    scorer and money are the ones of ``end.json`` and ``m12.json``."""
    out, _ = three
    stage_words = {"swiss": "瑞士轮", "quarter_final": "四分之一决赛|八强", "semi_final": "半决赛|四强",
                   "final": "决赛", "champion": "冠军"}
    for folder in sorted(out.glob("s*")):
        end = record(folder / "end.json")
        m12 = record(folder / "m12.json")
        club, table = end["club"], end["standings"]
        rank = next(i for i, r in enumerate(table, 1) if r["team"] == club)
        ours = table[rank - 1]
        para = (folder / "end.md").read_text(encoding="utf-8").split("\n\n")[1]
        assert f"{ours['points']} 分" in para and f"{ours['won']} " in para and f"{ours['lost']} " in para, para
        if rank > 1:
            assert f"第{cn_num(rank)}" in para, para
            assert table[0]["team"] in para and f"{table[0]['points'] - ours['points']} 分" in para, para
        else:  # champions: the lead over the runner-up
            assert re.search("冠军|奖杯", para) and f"{ours['points'] - table[1]['points']} 分" in para, para
        reached = cup_reached(m12, club)
        assert reached and re.search(stage_words[reached], para), (reached, para)
        scorer = m12["cast"]["scorer"]
        assert f"{scorer['name']}" in para and f"{scorer['goals']} 球" in para, para
        sm = end["settlement"]["season_money"]
        assert money(abs(sm["net"])) in para and money(sm["balance"]) in para, para


def test_the_opening_states_the_stakes_the_table_gives(three: tuple[Path, int]) -> None:
    """A league month's opening ends with the stakes (matches left, the lead or the gap) when the rival sentence has
    not already placed that club against us; every number in it is the final table's of that month."""
    out, _ = three
    told = 0
    for path in sorted(out.glob("s*/m*.json")):
        rec = record(path)
        if rec["month"] >= 11:  # month 11 ends the league; month 12 is the cup
            continue
        table, club = rec["standings"], rec["club"]
        left = 23 - table[0]["played"]
        pts = {r["team"]: r["points"] for r in table}
        rank = next(i for i, r in enumerate(table) if r["team"] == club)
        gaps = {abs(pts[club] - r["points"]) for r in table[:max(rank, 2)]}
        gaps.add(pts[club] - table[1]["points"] if rank == 0 else pts[table[rank - 1]["team"]] - pts[club])
        opening = path.with_suffix(".md").read_text(encoding="utf-8").split("\n## ")[0]
        for m in re.finditer(r"[^。！？\n]*\b(\d+) 轮[^。！？\n]*[。！？]", opening):
            told += 1
            assert int(m.group(1)) == left, (path, m.group(0))
            stated = {int(x) for x in re.findall(r"(\d+) 分", m.group(0))}
            assert stated <= gaps, (path, m.group(0), gaps)
    assert told >= 10  # the stakes were told in most league months
