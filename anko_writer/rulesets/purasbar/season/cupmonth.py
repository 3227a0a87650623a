"""Month 12, the 群英杯 (000 §4.3): five Swiss rounds, the top eight, quarter-finals to the final."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..competition.calendar import CUP_MONTH, cup_week
from ..competition.cup import (
    STAGES,
    final,
    home_side,
    qualify,
    quarter_finals,
    semi_finals,
    swiss_round_pairs,
    swiss_table,
)
from ..competition.records import Stage
from ..competition.standings import Result
from ..match.records import ComebackRecord, MatchRecord, RestRecord
from .league_month import choose_formation, month_end
from .matchday import advance_week, play_fixture
from .world import World


def _stage_key(world: World, stage: Stage) -> str:
    tag = f"sw{stage['round']}" if stage["competition"] == "swiss" else stage["stage"]
    return f"s{world.season}/cup/{tag}"


def _play(world: World, stage: Stage, index: int, pairs: list[tuple[str, str]],
          decisions: dict[str, Any], counts: dict[str, int], matches: list[MatchRecord]) -> list[int]:
    """Play one match day: each pair's home side by 1D2 (the final is neutral), then the match."""
    base = _stage_key(world, stage)
    week = cup_week(index)
    out = []
    for a, b in pairs:
        if stage["neutral"]:
            home, away, roll = a, b, None
        else:
            home, away, roll = home_side(world.dice, f"{base}/home", a, b)
        rec = play_fixture(world, f"{base}/{home}-{away}", home, away, competition=stage["competition"],
                           round_no=stage["round"], week=week, neutral=stage["neutral"],
                           decisions=decisions, counts=counts)
        rec["home_roll"] = {"id": roll.id, "total": roll.total, "a": a, "b": b} if roll else None
        rec["stage"] = stage["stage"]
        matches.append(rec)
        out.append(len(matches) - 1)
    return out


def _winners(matches: Sequence[Mapping[str, Any]], idx: list[int]) -> list[str]:
    return [matches[i]["winner"] for i in idx]


def play_cup_month(world: World, decisions: dict[str, Any], tactics: str | None = None) -> dict[str, Any]:
    """The whole cup month; the record lists every match day in order, with the draws and tables."""
    world.month = CUP_MONTH
    choice = choose_formation(world, decisions, tactics)
    counts: dict[str, int] = {}
    matches: list[MatchRecord] = []
    results: list[Result] = []
    days: list[dict[str, Any]] = []
    returns: list[ComebackRecord] = []
    rested: list[RestRecord] = []
    clubs = list(world.order)
    for index, stage in enumerate(STAGES):
        moved = advance_week(world, cup_week(index))
        rested += moved["rest"]
        returns += moved["returns"]
        day: dict[str, Any] = {"stage": stage["stage"], "competition": stage["competition"],
                               "round": stage["round"], "week": cup_week(index), "draw": None}
        if stage["competition"] == "swiss":
            pairs, draw = swiss_round_pairs(world.dice, f"{_stage_key(world, stage)}/draw", stage["round"],
                                            clubs, results)
            day["draw"] = draw
        elif stage["stage"] == "quarter_final":
            table = swiss_table(clubs, results)
            top8, tie = qualify(world.dice, f"s{world.season}/cup/qualify", table)
            day.update({"swiss_table": table, "qualifiers": top8, "roll_off": tie})
            pairs = quarter_finals(top8)
        elif stage["stage"] == "semi_final":
            pairs = semi_finals(_winners(matches, days[-1]["matches"]))
        else:
            pairs = [final(_winners(matches, days[-1]["matches"]))]
        day["matches"] = _play(world, stage, index, pairs, decisions, counts, matches)
        if stage["competition"] == "swiss":
            results += [(matches[i]["home"], matches[i]["away"], *matches[i]["score"]) for i in day["matches"]]
        days.append(day)
    end = month_end(world)
    champion = matches[days[-1]["matches"][0]]["winner"]
    ours = world.ours.name
    return {"formation": world.ours.formation, "formation_source": choice["source"], "choice": choice,
            "formation_default": choice["before"], "cup_days": days, "matches": matches,
            "rounds": [], "swiss_table": days[len([s for s in STAGES if s["competition"] == "swiss"])]["swiss_table"],
            "qualifiers": next(d["qualifiers"] for d in days if d["stage"] == "quarter_final"),
            "champion": champion, "bracket": _bracket(matches, days),
            "rest": rested + end["rest"], "returns": [r for r in returns if r["team"] == ours]
            + end["returns"], "injured": end["injured"],
            "our_matches": [i for i, m in enumerate(matches) if m["ours"]]}


def _bracket(matches: list[MatchRecord], days: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The knockout ties in order: stage, the two clubs, score, extra time, penalties, winner."""
    out = []
    for d in days:
        if d["competition"] != "knockout":
            continue
        for i in d["matches"]:
            m = matches[i]
            out.append({"stage": d["stage"], "round": d["round"], "home": m["home"], "away": m["away"],
                        "score": m["score"], "extra_time": m["extra_time"], "penalties": m["penalties"],
                        "winner": m["winner"], "neutral": m["neutral"]})
    return out
