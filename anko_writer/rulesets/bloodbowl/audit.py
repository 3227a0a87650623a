"""Blood Bowl's ``anko-writer audit`` metrics: a replicate's seasons as plain counts per race, and every
replicate's counts against figures of real play.

- **Every match** of the league (ours, told half by half, and the others, told by their score, touchdowns and
  casualties): touchdowns for and against, casualties inflicted, wins (a draw is half), and 0–0 matches.
- **Our matches** (whose every action is recorded, both sides): pass actions, completions (the ball caught
  by the thrower's team-mate), hand-offs and fouls.

The reference figures (:data:`REFERENCE`) are from real play of the LRB era; those that could not be
checked against a source here are marked approximate.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...audit.plugin import AuditPlugin, Section, Table
from ...audit.stats import odds
from ...chapters import Record, Run
from ...resources import Resources

ALL = ("matches", "td", "td_against", "cas", "wins", "zero")
"""Counts over every match, per race."""
RECORDED = ("recorded", "passes", "completions", "handoffs", "fouls")
"""Counts over our recorded matches, per race (``recorded``: matches)."""

REFERENCE: dict[str, dict[str, tuple[float, bool]]] = {
    "human": {"td": (1.3, False), "cas": (0.9, False), "completions": (1.5, False), "win": (0.46, True)},
    "orc": {"td": (1.1, False), "cas": (1.2, False), "completions": (0.4, False), "win": (0.48, True)},
    "dwarf": {"td": (1.0, False), "cas": (1.1, False), "completions": (0.2, False), "win": (0.52, True)},
    "skaven": {"td": (1.6, False), "cas": (0.8, False), "completions": (1.5, False), "win": (0.51, True)},
}
"""Real play per team and match: (figure, checked). Win shares: the NAF tournament column of
bloodbowlstrategies.com's "Relative strength of teams" (tens of thousands of NAF and online games; checked).
Touchdowns, casualties and completions: approximate, the reviewer's and forum hosts' sense of LRB6 league play
(about 2.4 touchdowns and 2 casualties a match, passing teams one or two completions), not checked against a
published table here."""
ZERO_ZERO = (0.08, False)
"""Share of 0–0 matches in real play (approximate, not checked)."""


def _blank() -> dict[str, int]:
    return {k: 0 for k in ALL + RECORDED}


def _races(chapters: Iterable[Any]) -> dict[str, str]:
    """Team → race, from every team record our chapters hold (every team meets us once a season)."""
    out: dict[str, str] = {}
    for ch in chapters:
        for t in ch.results.get("teams", []):
            out[str(t["name"])] = str(t["race"])
    return out


def _match(acc: dict[str, dict[str, int]], race: Mapping[str, str], home: str, away: str, score: list[int],
           cas: Iterable[Mapping[str, Any]]) -> None:
    """One match's all-match counts (casualties: the victims' team, ``team``)."""
    hurt = [str(c.get("team")) for c in cas]
    for me, them, mine, theirs in ((home, away, score[0], score[1]), (away, home, score[1], score[0])):
        row = acc.setdefault(race.get(me, "?"), _blank())
        row["matches"] += 1
        row["td"] += mine
        row["td_against"] += theirs
        row["cas"] += hurt.count(them)
        row["wins"] += 2 if mine > theirs else 1 if mine == theirs else 0  # half-wins, halved in the report
        row["zero"] += int(mine == theirs == 0)


def _actions(acc: dict[str, dict[str, int]], race: Mapping[str, str], halves: list[Record]) -> None:
    """Our match's recorded actions, both sides."""
    side_of: dict[str, str] = {}
    team_of: dict[str, str] = {}
    for h in halves:
        for t in h.get("teams", []):
            team_of[str(t["side"])] = str(t["name"])
            for p in t.get("players", []):
                side_of[str(p["id"])] = str(t["side"])
    for name in team_of.values():
        acc.setdefault(race.get(name, "?"), _blank())["recorded"] += 1
    for h in halves:
        for turn in h.get("turns", []):
            row = acc.setdefault(race.get(team_of.get(str(turn["side"]), ""), "?"), _blank())
            for a in turn.get("actions", []):
                kind = a.get("kind")
                if kind == "pass":
                    row["passes"] += 1
                    got = (a.get("ball") or {}).get("carrier")
                    row["completions"] += int(got is not None and got != a["player"]
                                              and side_of.get(str(got)) == turn["side"])
                elif kind == "handoff":
                    row["handoffs"] += 1
                elif kind == "foul":
                    row["fouls"] += 1


def measure_run(run: Run) -> dict[str, dict[str, int]]:
    """One season's counts per race."""
    race = _races(run.chapters)
    acc: dict[str, dict[str, int]] = {}
    by_round: dict[int, list[Record]] = {}
    for ch in run.chapters:
        by_round.setdefault(int(ch.results["round"]), []).append(ch.results)
    for halves in by_round.values():
        last = halves[-1]
        if last.get("half") != 2:
            continue  # a match not finished in the run
        _match(acc, race, str(last["home"]), str(last["away"]), list(last["half_score"]),
               [c for h in halves for c in h.get("casualties", [])])
        _actions(acc, race, halves)
        for o in (last.get("post") or {}).get("others", []):
            _match(acc, race, str(o["home"]), str(o["away"]), list(o["score"]), o.get("casualties", []))
    return acc


def _per(row: Mapping[str, int], key: str, by: str) -> float:
    return round(row[key] / row[by], 2) if row[by] else 0.0


def _ref(race: str, key: str) -> str:
    fig = REFERENCE.get(race, {}).get(key)
    if fig is None:
        return "—"
    return f"{fig[0]:g}" + ("" if fig[1] else "（约）")


class BloodbowlAudit(AuditPlugin):
    """Per-race match figures of the AI coaches against real play."""

    def figures(self, run: Run, resources: Resources) -> Record:
        """One season's counts per race (taken as soon as it is played; the run is then let go)."""
        return {"races": measure_run(run)}

    def measure(self, arcs: list[Record], resources: Resources) -> Record:
        """Counts per race over the replicate's seasons."""
        total: dict[str, dict[str, int]] = {}
        for arc in arcs:
            for race, row in arc["races"].items():
                acc = total.setdefault(race, _blank())
                for k, v in row.items():
                    acc[k] += v
        return {"races": total}

    def aggregate(self, samples: list[Record], resources: Resources) -> list[Section]:
        """One section: per race, per match, beside the reference figures."""
        races: dict[str, dict[str, int]] = {}
        for s in samples:
            for race, row in s["races"].items():
                acc = races.setdefault(race, _blank())
                for k, v in row.items():
                    acc[k] += v
        rows = []
        by_race: Record = {}
        data: Record = {"races": by_race, "reference": {r: {k: {"value": v, "checked": c} for k, (v, c) in f.items()}
                                                   for r, f in REFERENCE.items()},
                        "reference_zero_zero": {"value": ZERO_ZERO[0], "checked": ZERO_ZERO[1]}}
        team_matches = sum(r["matches"] for r in races.values())
        zero = sum(r["zero"] for r in races.values())
        for race in sorted(races):
            r = races[race]
            per = {"matches": r["matches"], "td": _per(r, "td", "matches"), "td_against": _per(r, "td_against", "matches"),
                   "cas": _per(r, "cas", "matches"), "win": round(r["wins"] / 2 / r["matches"], 3) if r["matches"] else 0.0,
                   "zero": odds(r["zero"], r["matches"]), "recorded": r["recorded"],
                   "passes": _per(r, "passes", "recorded"), "completions": _per(r, "completions", "recorded"),
                   "handoffs": _per(r, "handoffs", "recorded"), "fouls": _per(r, "fouls", "recorded")}
            by_race[race] = {**per, "counts": r}
            rows.append([race, r["matches"], per["td"], _ref(race, "td"), per["td_against"], per["cas"],
                         _ref(race, "cas"), per["win"], _ref(race, "win"), r["recorded"], per["passes"],
                         per["completions"], _ref(race, "completions"), per["handoffs"], per["fouls"],
                         odds(r["zero"], r["matches"])["p"]])
        matches = team_matches // 2
        data["matches"] = matches
        data["zero_zero"] = odds(zero // 2, matches) if matches else odds(0, 0)
        tds = sum(r["td"] for r in races.values())
        data["td_per_match"] = round(tds / matches, 2) if matches else 0.0
        lines = [f"比赛 {matches} 场：每场 {data['td_per_match']} 次达阵，0 : 0 占 {data['zero_zero']['p']:.0%}"
                 f"（真实比赛约 {ZERO_ZERO[0]:.0%}，约数）"]
        lines += [f"{row[0]}：达阵 {row[2]}（参考 {row[3]}），造成伤亡 {row[5]}（参考 {row[6]}），成功传球 {row[11]}"
                  f"（参考 {row[12]}），完整记录的比赛 {row[9]} 场" for row in rows]
        table = Table("各种族每队每场的数字（传球和成功传球只算我方完整记录的比赛）",
                      ["种族", "场次", "达阵", "达阵参考", "失达阵", "造成伤亡", "伤亡参考", "胜率",
                       "胜率参考", "完整记录", "传球", "成功传球", "成功传球参考", "手递手", "犯规",
                       "0 : 0"], rows,
                      "AI 教练按各自种族的打法对打时，每个种族平均每场的达阵、伤亡和传球；参考栏是真实比赛的数字，"
                      "标「约」的是无法核实的约数。")
        return [Section("matches", "各种族的比赛（004，AI 教练的打法）", data, lines, [table])]


__all__ = ["ALL", "BloodbowlAudit", "RECORDED", "REFERENCE", "ZERO_ZERO", "measure_run"]
