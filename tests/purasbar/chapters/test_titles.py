"""A month's title and opening paragraph come from what happened (issue 15): over three seasons written by
the CLI, every month's title is distinct within its season, names a bank of ``phrases.yaml`` and agrees
with the facts of the month's JSON (a winning run only when every match of the month was won and the run
is as long as it says, a keeper's goal only when our keeper scored, the league won only when it was …),
and the title and opening pass the prose checks."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from anko_writer.render import cn_num, find_problems
from anko_writer.rulesets.purasbar.season.headlines import BIG_MARGIN, GIANT_GAP, LEAGUE_ROUNDS, STREAK
from anko_writer.yamlio import load_yaml_text
from tests.purasbar.published import record

PHRASES = Path(__file__).resolve().parents[3] / "templates" / "purasbar" / "phrases.yaml"
BANK = load_yaml_text(PHRASES.read_text(encoding="utf-8"), PHRASES)
STAGE = {"quarter_final": "四分之一决赛", "semi_final": "半决赛", "final": "决赛"}
_VAR = re.compile(r"\{\{\s*(\w+)[^}]*\}\}")


def _pattern(phrasing: str) -> re.Pattern[str]:
    """A title phrasing as a regular expression: each ``{{ var … }}`` a named group (repeats must agree)."""
    out, seen, at = "", set(), 0
    for m in _VAR.finditer(phrasing):
        out += re.escape(phrasing[at:m.start()])
        name = m.group(1)
        out += f"(?P={name})" if name in seen else f"(?P<{name}>.+?)"
        seen.add(name)
        at = m.end()
    return re.compile(out + re.escape(phrasing[at:]))


TITLES = {key[len("title_"):]: [_pattern(p) for p in ps] for key, ps in BANK.items() if key.startswith("title_")}


class Month:
    """One month's facts, read from its JSON alone, for our club."""

    def __init__(self, rec: dict[str, Any], earlier: list[dict[str, Any]]) -> None:
        self.rec, self.club = rec, rec["club"]
        self.matches = [rec["matches"][i] for i in rec["our_matches"]]
        totals = {c["name"]: c["total"] for c in rec["clubs"]}
        self.rows = []  # (opponent, result, ours, theirs, gap, trailed)
        for m in self.matches:
            home = m["home"] == self.club
            us, them = m["score"] if home else m["score"][::-1]
            res = "draw" if m["winner"] is None else "win" if m["winner"] == self.club else "loss"
            opp = m["away"] if home else m["home"]
            run, trailed = [0, 0], False
            for a in m["attacks"]:
                if a["goal"]:
                    run[a["team"] != self.club] += 1
                    trailed = trailed or run[0] < run[1]
            self.rows.append((opp, res, us, them, totals[opp] - totals[self.club], trailed))
        self.goals = [(a["shooter"], a.get("shooter_pos"), m) for m in self.matches for a in m["attacks"]
                      if a["goal"] and a["team"] == self.club]
        results = [r for e in earlier + [rec] for r in _results(e)]
        self.win_run = len(results) - max((i + 1 for i, r in enumerate(results) if r != "win"), default=0)
        self.loss_run = len(results) - max((i + 1 for i, r in enumerate(results) if r != "loss"), default=0)
        self.earlier_players = {p for e in earlier for p in _players(e)}

    def opponent(self, name: str, test: Callable[[str, int, int, int, bool], bool]) -> bool:
        """Whether a match against ``name`` passes ``test(result, ours, theirs, gap, trailed)``."""
        return any(o == name and test(res, us, th, gap, tr) for o, res, us, th, gap, tr in self.rows)

    def all_results(self, result: str) -> bool:
        """Whether every match of the month had ``result``."""
        return bool(self.rows) and all(r[1] == result for r in self.rows)


def _results(rec: dict[str, Any]) -> list[str]:
    ms = [rec["matches"][i] for i in rec["our_matches"]]
    return ["draw" if m["winner"] is None else "win" if m["winner"] == rec["club"] else "loss" for m in ms]


def _players(rec: dict[str, Any]) -> set[str]:
    side = [("home" if rec["matches"][i]["home"] == rec["club"] else "away", rec["matches"][i])
            for i in rec["our_matches"]]
    return {p["name"] for s, m in side for p in m["lineups"][s]}


def _decided(rows: list[dict[str, Any]]) -> str | None:
    chase = max(r["points"] + 3 * (LEAGUE_ROUNDS - r["played"]) for r in rows[1:])
    return rows[0]["team"] if rows[0]["points"] > chase else None


def _true(kind: str, g: dict[str, str], mo: Month, earlier: list[dict[str, Any]]) -> bool:
    """Whether a title of ``kind`` whose variables read ``g`` is a fact of the month."""
    rec, other, player, n = mo.rec, g.get("other"), g.get("player"), g.get("n")
    table = rec["standings"]
    rank = next((i + 1 for i, r in enumerate(table) if r["team"] == mo.club), 0)
    checks: dict[str, Callable[[], bool]] = {
        "win": lambda: mo.opponent(other or "", lambda r, *_: r == "win"),
        "draw": lambda: mo.opponent(other or "", lambda r, *_: r == "draw"),
        "loss": lambda: mo.opponent(other or "", lambda r, *_: r == "loss"),
        "giant_killing": lambda: mo.opponent(other or "", lambda r, u, t, gap, _: r == "win" and gap >= GIANT_GAP),
        "upset_loss": lambda: mo.opponent(other or "", lambda r, u, t, gap, _: r == "loss" and -gap >= GIANT_GAP),
        "big_win": lambda: mo.opponent(other or "", lambda r, u, t, *_: u - t >= BIG_MARGIN),
        "heavy_defeat": lambda: mo.opponent(other or "", lambda r, u, t, *_: t - u >= BIG_MARGIN),
        "comeback": lambda: mo.opponent(other or "", lambda r, u, t, gap, tr: r == "win" and tr),
        "keeper_goal": lambda: any(s == player and pos == "GK" for s, pos, _ in mo.goals),
        "defender_goal": lambda: any(s == player and pos == "DF" for s, pos, _ in mo.goals),
        "hat_trick": lambda: any(sum(s == player and x is m for s, _, x in mo.goals) >= 3 for m in mo.matches),
        "win_streak": lambda: mo.all_results("win") and mo.win_run >= STREAK and cn_num(mo.win_run) == n,
        "loss_streak": lambda: mo.all_results("loss") and mo.loss_run >= STREAK and cn_num(mo.loss_run) == n,
        "debut": lambda: player in _players(rec) and player not in mo.earlier_players,
        "record_signing": lambda: any(e["player"] == player and e["done"] and e["to"] == mo.club
                                      for e in ((rec["life"].get("window") or {}).get("ours") or [])),
        "reveal": lambda: any((r.get("moment") or {}).get("opponent") == other for r in rec["reveals"]),
        "league_won": lambda: rec["month"] == 11 and rank == 1,
        "league_final": lambda: rec["month"] == 11 and rank > 1 and (n is None or cn_num(rank) == n)
                                and other in (None, table[0]["team"]),
        "league_clinched": lambda: _decided(table) == mo.club and not any(
            _decided(e["standings"]) for e in earlier),
        "league_decided": lambda: _decided(table) not in (None, mo.club) and other in (None, table[0]["team"]),
        "cup_won": lambda: rec.get("champion") == mo.club,
        "cup_out": lambda: rec["month"] == 12 and any(
            m["competition"] == "knockout" and m["winner"] not in (None, mo.club)
            and other in (None, m["home"], m["away"]) and g.get("what") in (None, STAGE[m["stage"]])
            for m in mo.matches),
        "cup_swiss_out": lambda: rec["month"] == 12 and not any(m["competition"] == "knockout" for m in mo.matches)
                                 and other in (None, rec["champion"]),
        "bankruptcy_warning": lambda: rec["life"]["money"]["bankruptcy"]["event"] == "warning",
        "bankruptcy_emergency": lambda: rec["life"]["money"]["bankruptcy"]["event"] == "emergency",
        # the fallback titles, chosen by the month's results alone
        "perfect": lambda: mo.all_results("win") and len(mo.rows) >= 2,
        "good": lambda: any(r[1] == "win" for r in mo.rows) and not any(r[1] == "loss" for r in mo.rows),
        "bad": lambda: any(r[1] == "loss" for r in mo.rows) and not any(r[1] == "win" for r in mo.rows),
        "mixed": lambda: True, "cup": lambda: rec["month"] == 12, "champion": lambda: rec.get("champion") == mo.club,
    }
    return checks[kind]()


def _kinds(title: str) -> list[tuple[str, dict[str, str]]]:
    """Every (bank, variables) a title could have come from."""
    return [(kind, m.groupdict()) for kind, pats in TITLES.items() for p in pats if (m := p.fullmatch(title))]


def test_titles_are_distinct_and_true(three: tuple[Path, int]) -> None:
    out = three[0]
    kinds: set[str] = set()
    for season in sorted(out.glob("s*")):
        titles: list[str] = []
        earlier: list[dict[str, Any]] = []
        for path in sorted(season.glob("m*.json")):
            rec = record(path)
            lines = path.with_suffix(".md").read_text(encoding="utf-8").splitlines()
            title = lines[0].split("　", 1)[1]
            month = Month(rec, earlier)
            found = _kinds(title)
            assert found, (path, title)
            assert any(_true(k, g, month, earlier) for k, g in found), (path, title, found, month.rows)
            kinds |= {k for k, _ in found}
            opening = lines[2]
            assert lines[1] == "" and opening and not opening.startswith("#"), (path, lines[:3])
            assert find_problems("\n".join(lines[:3])) == [], path
            titles.append(title)
            earlier.append(rec)
        assert len(titles) == 12 and len(set(titles)) == len(titles), (season, titles)
    assert {"win_streak", "keeper_goal", "league_final"} <= kinds  # the built-in campaign's story ran these checks


def test_title_phrasings_name_their_subject_and_differ() -> None:
    """A kind that can head several months of a season names its subject in every phrasing (so two months
    never share a title), and no phrasing is in two banks."""
    subject = {"win": "other", "draw": "other", "loss": "other", "giant_killing": "other", "upset_loss": "other",
               "big_win": "other", "heavy_defeat": "other", "comeback": "other", "reveal": "other",
               "hat_trick": "player", "keeper_goal": "player", "defender_goal": "player", "debut": "player",
               "record_signing": "player", "win_streak": "n", "loss_streak": "n"}
    for kind, var in subject.items():
        for p in BANK[f"title_{kind}"]:
            assert var in _VAR.findall(p), (kind, p)
        assert f"open_{kind}" in BANK
    every = [p for key, ps in BANK.items() if key.startswith("title_") for p in ps]
    assert len(every) == len(set(every))
