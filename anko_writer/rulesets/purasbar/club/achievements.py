"""Achievements (designed Appendix E): facts read from the month records, conditions kept as data.

In-season achievements are checked after every month from :func:`month_facts` and unlocked
provisionally; §4.4 step 7 confirms them and checks the season-end ones from :func:`season_facts`,
rolling 1D100 ≤ ``chance`` for those the table marks with a chance ("赛季末独有的成就，此时掷骰判定").
A condition is plain data — ``{fact, op, value}``, ``{all: [...]}`` or ``{any: [...]}`` — evaluated
by :func:`holds`; nothing in the table is code. An achievement is unlocked once across all seasons:
the caller keeps the ``unlocked`` set and both checks add to it.

>>> holds({"all": [{"fact": "played", "op": ">=", "value": 2}, {"fact": "lost", "op": "==", "value": 0}]},
...       {"played": 2, "lost": 0})
True
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from ....dice import Dice
from ....resources import Resources
from ....schema import Check, Data, Field, Int, List, Map, Problem, Str, did_you_mean
from ....tables import load_data
from .records import Confirmed, LeagueFacts, MonthAchievements, MonthFacts, SeasonAchievements, SeasonFacts, Unlocked

KINDS = ("in_season", "season_end")
"""When an achievement is checked: after each month, or at §4.4 step 7."""
OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, ">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt,
}
"""Comparison operators a condition may use."""

MONTH_FACTS: tuple[str, ...] = (
    "month", "played", "won", "drawn", "lost", "not_won", "goals_for", "goals_against", "clean_sheets",
    "most_goals", "biggest_win", "best_player_goals", "comebacks", "away_wins", "win_streak",
    "unbeaten_streak", "clean_sheet_streak", "league_rank", "cup_knockout", "cup_semi", "cup_final",
    "shootout_wins",
)
"""Facts :func:`month_facts` gives (streaks run on from earlier months; rank 0 before any table)."""
EXTRA_FACTS: tuple[str, ...] = ("promoted", "net", "fans_before", "fans_after", "leaders", "youth_players")
"""Facts the season end passes in ``extra`` (missing ones count 0)."""
SEASON_FACTS: tuple[str, ...] = (
    "league_rank", "league_played", "league_won", "league_drawn", "league_lost", "league_gf", "league_ga",
    "best_attack", "best_defence", "cup_stage", "cup_champion", "league_champion", "double", "top_scorer",
    "top_scorer_goals", "season_played", "season_won", "season_goals", "win_streak", "unbeaten_streak",
    *EXTRA_FACTS, "fan_growth", "fan_growth_pct",
)
"""Facts :func:`season_facts` gives."""
FACTS = {"in_season": MONTH_FACTS, "season_end": SEASON_FACTS}
"""The facts each kind of achievement may read."""
CUP_STAGES = {"swiss": 1, "quarter_final": 2, "semi_final": 3, "final": 4}
"""``cup_stage``: 0 no cup match, 1 瑞士轮, 2 八强, 3 四强, 4 决赛, 5 冠军."""
CUP_CHAMPION = 5


# ---------------------------------------------------------------- conditions


def facts_of(cond: dict[str, Any]) -> list[str]:
    """Every fact a condition reads, in order of appearance (repeats dropped)."""
    if "fact" in cond:
        return [cond["fact"]]
    out: list[str] = []
    for part in cond.get("all", cond.get("any", [])):
        out += [f for f in facts_of(part) if f not in out]
    return out


def holds(cond: dict[str, Any], facts: Mapping[str, Any]) -> bool:
    """Evaluate a data condition against ``facts`` (a missing fact is an error, never False)."""
    if "all" in cond:
        return all(holds(c, facts) for c in cond["all"])
    if "any" in cond:
        return any(holds(c, facts) for c in cond["any"])
    return OPS[cond["op"]](facts[cond["fact"]], cond["value"])


def _cond_problem(cond: Any, known: Sequence[str], where: str = "condition") -> str | None:
    """Why a condition is malformed: shape, operator, fact name or value type."""
    if not isinstance(cond, dict):
        return f"{where}: 应为映射"
    if set(cond) in ({"all"}, {"any"}):
        parts = next(iter(cond.values()))
        if not isinstance(parts, list) or not parts:
            return f"{where}: all/any 需要一个非空的列表"
        return next((p for i, c in enumerate(parts) if (p := _cond_problem(c, known, f"{where}[{i}]"))), None)
    if set(cond) != {"fact", "op", "value"}:
        return f"{where}: 应有 fact、op 和 value（或 all / any），实际是 {'、'.join(map(str, cond))}"
    if cond["fact"] not in known:
        return f"{where}: 未知的事实 {cond['fact']!r}（可用的有：{'、'.join(known)}）{did_you_mean(cond['fact'], known)}"
    if cond["op"] not in OPS:
        return f"{where}: 未知的比较符 {cond['op']!r}（可用：{' '.join(OPS)}）"
    if not isinstance(cond["value"], (int, bool)):
        return f"{where}: value 应为整数或 true/false"
    return None


def _entry_problem(e: dict[str, Any]) -> Problem:
    """A condition reads only its kind's facts; only season-end achievements are rolled."""
    problem = _cond_problem(e["condition"], FACTS[e["kind"]])
    if problem:
        return ("condition", problem)
    if "chance" in e and e["kind"] != "season_end":
        return ("chance", "只有 season_end 的成就才掷骰（000 §4.4 第 7 步）")
    return None


def _unique_keys(entries: list[dict[str, Any]]) -> Problem:
    """Keys are unique."""
    seen: set[str] = set()
    for i, e in enumerate(entries):
        if e["key"] in seen:
            return (i, f"键 {e['key']!r} 重复")
        seen.add(e["key"])
    return None


ENTRY = Check(Map({
    "key": Field(Str(pattern=r"[a-z][a-z0-9_]*", pattern_doc="a snake_case key")),
    "name": Field(Str()), "description": Field(Str()),
    "kind": Field(Str(choices=list(KINDS))),
    "condition": Field(Data(), doc="{fact, op, value} or {all: [...]} / {any: [...]}."),
    "chance": Field(Int(min=1, max=100), required=False, doc="Season end: 1D100 ≤ chance once the condition holds."),
    "reward": Field(Map({"morale": Field(Int(), required=False), "reputation": Field(Int(), required=False)}),
                    required=False, doc="Applied by the season end (designed)."),
}), _entry_problem)
SCHEMA = Map({
    "source": Field(Str()),
    "achievements": Field(Check(List(ENTRY, min_len=1), _unique_keys)),
})
"""The shape of ``achievements.yaml``."""


def load_achievements_table(path: Path) -> list[dict[str, Any]]:
    """The achievements of ``achievements.yaml``, checked (TableError on a problem)."""
    achievements: list[dict[str, Any]] = load_data(path, SCHEMA)["achievements"]
    return achievements


def load_achievements(resources: Resources) -> list[dict[str, Any]]:
    """The ruleset's ``achievements.yaml`` (campaign folder first)."""
    return load_achievements_table(resources.table_path("achievements.yaml"))


# ---------------------------------------------------------------- facts


def _ours(m: dict[str, Any], club: str) -> tuple[int, int, bool]:
    """Our goals, theirs, and whether we were at home."""
    home = m["home"] == club
    gf, ga = (m["score"][0], m["score"][1]) if home else (m["score"][1], m["score"][0])
    return gf, ga, home


def result(m: dict[str, Any], club: str) -> str:
    """``win`` / ``draw`` / ``loss`` for ``club``; a shoot-out decides through ``winner``."""
    if m["winner"] is None:
        return "draw"
    return "win" if m["winner"] == club else "loss"


def trailed(m: dict[str, Any], club: str) -> bool:
    """Was ``club`` ever behind? The attacks are replayed in order with a running score."""
    us = them = 0
    for a in m["attacks"]:
        if a["goal"]:
            us, them = (us + 1, them) if a["team"] == club else (us, them + 1)
            if us < them:
                return True
    return False


def _player_goals(m: dict[str, Any], club: str) -> int:
    """Most goals one of ``club``'s players scored in the match."""
    goals: dict[str, int] = {}
    for a in m["attacks"]:
        if a["goal"] and a["team"] == club:
            goals[a["shooter"]] = goals.get(a["shooter"], 0) + 1
    return max(goals.values(), default=0)


def _streaks(results: list[tuple[str, int]], running: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """Best and running win / unbeaten / clean-sheet streaks after (result, goals against) pairs."""
    run = dict(running)
    best = dict(run)
    for res, ga in results:
        for name, ok in (("win", res == "win"), ("unbeaten", res != "loss"), ("clean_sheet", ga == 0)):
            run[name] = run[name] + 1 if ok else 0
            best[name] = max(best[name], run[name])
    return best, run


def _rank(standings: list[dict[str, Any]], club: str) -> int:
    """Our place in a table (1-based), 0 when absent."""
    return next((i + 1 for i, r in enumerate(standings) if r["team"] == club), 0)


def month_facts(month_record: dict[str, Any], club: str, previous: MonthFacts | None = None) -> MonthFacts:
    """The facts of one month for ``club``: results, goals, streaks (run on from ``previous``, the last
    month's facts), the league place and how far the 群英杯 went. Keys are :data:`MONTH_FACTS` plus
    ``running`` (the streaks still alive, for the next month)."""
    ms = [month_record["matches"][i] for i in month_record["our_matches"]]
    rows = [(result(m, club), *_ours(m, club)) for m in ms]
    running = previous["running"] if previous else {"win": 0, "unbeaten": 0, "clean_sheet": 0}
    best, run = _streaks([(r, ga) for r, _, ga, _ in rows], running)
    won = sum(r == "win" for r, *_ in rows)
    stages = [m.get("stage") for m in ms if m["competition"] == "knockout"]
    return {
        "month": month_record["month"], "played": len(rows), "won": won,
        "drawn": sum(r == "draw" for r, *_ in rows), "lost": sum(r == "loss" for r, *_ in rows),
        "not_won": len(rows) - won, "goals_for": sum(gf for _, gf, _, _ in rows),
        "goals_against": sum(ga for _, _, ga, _ in rows), "clean_sheets": sum(ga == 0 for _, _, ga, _ in rows),
        "most_goals": max((gf for _, gf, _, _ in rows), default=0),
        "biggest_win": max((gf - ga for r, gf, ga, _ in rows if r == "win"), default=0),
        "best_player_goals": max((_player_goals(m, club) for m in ms), default=0),
        "comebacks": sum(r == "win" and trailed(m, club) for m, (r, *_) in zip(ms, rows, strict=False)),
        "away_wins": sum(r == "win" and not home for r, _, _, home in rows),
        "win_streak": best["win"], "unbeaten_streak": best["unbeaten"], "clean_sheet_streak": best["clean_sheet"],
        "league_rank": _rank(month_record.get("standings") or [], club),
        "cup_knockout": len(stages), "cup_semi": stages.count("semi_final"), "cup_final": stages.count("final"),
        "shootout_wins": sum(bool(m["penalties"]) and m["winner"] == club for m in ms),
        "running": run,
    }


def _cup_stage(records: Sequence[dict[str, Any]], club: str) -> int:
    """How far ``club`` went in the 群英杯 (:data:`CUP_STAGES`, 5 for the champion)."""
    stage = 0
    for rec in records:
        for i in rec["our_matches"]:
            m = rec["matches"][i]
            if m["competition"] in ("swiss", "knockout"):
                stage = max(stage, CUP_STAGES.get(m.get("stage") or m["competition"], 1))
        if rec.get("champion") == club:
            stage = CUP_CHAMPION
    return stage


def _league_scorers(records: Sequence[dict[str, Any]]) -> dict[tuple[str, str], int]:
    """League goals by (shooter, team) over the season."""
    goals: dict[tuple[str, str], int] = {}
    for rec in records:
        for m in rec["matches"]:
            if m["competition"] != "league":
                continue
            for a in m["attacks"]:
                if a["goal"]:
                    goals[(a["shooter"], a["team"])] = goals.get((a["shooter"], a["team"]), 0) + 1
    return goals


def _league(records: Sequence[dict[str, Any]], club: str) -> LeagueFacts:
    """The final league facts from the last table that has ``club``."""
    table: list[dict[str, Any]] = next((r["standings"] for r in reversed(records) if _rank(r.get("standings") or [], club)), [])
    row = next((r for r in table if r["team"] == club), None)
    if row is None:
        return {"league_rank": 0, "league_played": 0, "league_won": 0, "league_drawn": 0, "league_lost": 0,
                "league_gf": 0, "league_ga": 0, "best_attack": False, "best_defence": False}
    return {"league_rank": _rank(table, club), "league_played": row["played"], "league_won": row["won"],
            "league_drawn": row["drawn"], "league_lost": row["lost"], "league_gf": row["gf"], "league_ga": row["ga"],
            "best_attack": row["played"] > 0 and row["gf"] == max(r["gf"] for r in table),
            "best_defence": row["played"] > 0 and row["ga"] == min(r["ga"] for r in table)}


def season_facts(month_records: list[dict[str, Any]], club: str, extra: dict[str, Any]) -> SeasonFacts:
    """The season's facts for ``club`` (:data:`SEASON_FACTS`): the final table, the cup run, the golden
    boot (league goals, ties shared), season totals and streaks, and ``extra`` (:data:`EXTRA_FACTS`:
    promotions, the season's net money, fans before and after, leaders, academy players)."""
    unknown = sorted(set(extra) - set(EXTRA_FACTS))
    if unknown:
        raise ValueError(f"unknown extra facts {unknown} (known: {', '.join(EXTRA_FACTS)})")
    months: list[MonthFacts] = []
    for rec in month_records:
        months.append(month_facts(rec, club, months[-1] if months else None))
    scorers = _league_scorers(month_records)
    ours = max((g for (_, team), g in scorers.items() if team == club), default=0)
    out: dict[str, Any] = {**_league(month_records, club), "cup_stage": _cup_stage(month_records, club)}
    ex = {k: int(extra.get(k, 0)) for k in EXTRA_FACTS}
    growth = ex["fans_after"] - ex["fans_before"]
    out.update({
        "cup_champion": out["cup_stage"] == CUP_CHAMPION, "league_champion": out["league_rank"] == 1,
        "top_scorer": ours > 0 and ours == max(scorers.values()), "top_scorer_goals": ours,
        "season_played": sum(f["played"] for f in months), "season_won": sum(f["won"] for f in months),
        "season_goals": sum(f["goals_for"] for f in months),
        "win_streak": max((f["win_streak"] for f in months), default=0),
        "unbeaten_streak": max((f["unbeaten_streak"] for f in months), default=0),
        **ex, "fan_growth": growth, "fan_growth_pct": growth * 100 // ex["fans_before"] if ex["fans_before"] > 0 else 0,
    })
    out["double"] = out["league_champion"] and out["cup_champion"]
    return cast(SeasonFacts, {k: out[k] for k in SEASON_FACTS})


# ---------------------------------------------------------------- checks


def _entry(a: dict[str, Any], facts: Mapping[str, Any]) -> Unlocked:
    """An achievement's record: key, name, description, kind, the facts its condition read, reward."""
    return {"key": a["key"], "name": a["name"], "description": a["description"], "kind": a["kind"],
            "facts": {f: facts[f] for f in facts_of(a["condition"])}, "reward": a.get("reward") or {}}


def check_month(facts: MonthFacts, unlocked: set[str], table: list[dict[str, Any]]) -> MonthAchievements:
    """After a month: in-season achievements whose condition holds and which were never unlocked.

    Adds them to ``unlocked`` (provisional until §4.4 step 7). The record: ``month``, ``unlocked``
    (entries with the facts they read) and ``checked`` (how many in-season achievements were open).
    """
    todo = [a for a in table if a["kind"] == "in_season" and a["key"] not in unlocked]
    got = [_entry(a, facts) for a in todo if holds(a["condition"], facts)]
    unlocked.update(e["key"] for e in got)
    return {"month": facts["month"], "unlocked": got, "checked": len(todo)}


def check_season(dice: Dice, key: str, facts: SeasonFacts, unlocked: set[str], table: list[dict[str, Any]],
                 provisional: Iterable[str] = ()) -> SeasonAchievements:
    """000 §4.4 step 7: confirm the season's ``provisional`` in-season keys, then check the season-end
    achievements in table order; one with a ``chance`` rolls 1D100 ≤ chance on ``{key}/{achievement}``.

    Adds the unlocked keys to ``unlocked``. The record: ``confirmed`` (key, name, description and
    reward of the provisional keys), ``unlocked`` (entries), ``rolled`` (entries with ``chance``, ``roll``,
    ``success``; failures may try again next season) and ``checked``.
    """
    names = {a["key"]: a for a in table}
    confirmed: list[Confirmed] = [{"key": k, "name": names[k]["name"], "description": names[k]["description"],
                  "reward": names[k].get("reward") or {}} for k in provisional if k in names]
    todo = [a for a in table if a["kind"] == "season_end" and a["key"] not in unlocked]
    rec: SeasonAchievements = {"confirmed": confirmed, "unlocked": [], "rolled": [], "checked": len(todo)}
    for a in todo:
        if not holds(a["condition"], facts):
            continue
        entry = _entry(a, facts)
        if "chance" in a:
            r = dice.roll(f"{key}/{a['key']}", "1D100", f"成就「{a['name']}」判定")
            entry.update({"chance": a["chance"], "roll": r.to_json(), "success": r.total <= a["chance"]})
            rec["rolled"].append(entry)
            if not entry["success"]:
                continue
        else:
            rec["unlocked"].append(entry)
        unlocked.add(a["key"])
    return rec


def rewards(season_record: SeasonAchievements) -> dict[str, int]:
    """The season's designed rewards to apply: morale and reputation summed over the confirmed, unlocked
    and successfully rolled achievements of a :func:`check_season` record.

    >>> rewards({"confirmed": [{"reward": {"morale": 3}}], "unlocked": [{"reward": {"morale": 2, "reputation": 1}}],
    ...          "rolled": [{"reward": {"reputation": 2}, "success": False}]})
    {'morale': 5, 'reputation': 1}
    """
    won = [e for e in season_record["rolled"] if e["success"]]
    got = season_record["confirmed"] + season_record["unlocked"] + won
    return {k: sum(e["reward"].get(k, 0) for e in got) for k in ("morale", "reputation")}


__all__ = [
    "KINDS", "OPS", "MONTH_FACTS", "SEASON_FACTS", "EXTRA_FACTS", "SCHEMA", "load_achievements",
    "load_achievements_table", "holds", "facts_of", "result", "trailed", "month_facts", "season_facts",
    "check_month", "check_season", "rewards",
]
