"""The month's people and the table as races in the chapters (issue 15): over three seasons written by the CLI,
each month's people paragraph states our top scorer's season goals as the month JSONs count them, names the
season's record signing in every month he scores after his window, and the 积分榜 section names the leader
and our neighbours with the gaps the table gives."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from anko_writer.render import cn_num, find_problems
from tests.purasbar.published import record


def _has(text: str, n: int) -> bool:
    """Whether ``n`` is written in ``text`` as a number of its own (not part of a longer one)."""
    return re.search(rf"(?<![\d,]){n}(?![\d,])", text) is not None


def _people(lines: list[str], rec: dict[str, Any]) -> str:
    """The paragraph after the opening (before the first section heading); in a month whose shoot-out of ours is
    sealed (000 §5.8.4), the one after the cup's champion line, below the reveal."""
    if any("sealed_rest" in (rec["matches"][i].get("shootout") or {}) for i in rec["our_matches"]):
        after = "\n".join(lines).split("\n### 冠军\n", 1)[1].split("\n## ", 1)[0]
        paras = [line for line in after.splitlines() if line.strip()]
        return paras[1] if len(paras) > 1 else ""
    head = next(i for i, line in enumerate(lines) if line.startswith("## "))
    paras = [line for line in lines[3:head] if line.strip()]
    return paras[0] if paras else ""


def _section(md: str, title: str) -> str:
    """A section's text up to its full table (issue 27: the neighbours and the bottom are in a fold above it)."""
    body = md.split(f"## {title}\n", 1)[1]
    return body.split("::: fold 完整积分榜", 1)[0]


def _seasons(out: Path) -> list[list[tuple[dict[str, Any], str]]]:
    """Each season's months: (expanded JSON record, chapter text)."""
    return [[(record(p), p.with_suffix(".md").read_text(encoding="utf-8"))
             for p in sorted(s.glob("m*.json"))] for s in sorted(out.glob("s*"))]


def test_top_scorer_counts_and_record_signing_follow_the_json(three: tuple[Path, int]) -> None:
    named = 0
    for months in _seasons(three[0]):
        goals: dict[tuple[str, str], int] = {}
        biggest: tuple[int, str, str, int] | None = None  # fee, player, club, month
        for rec, md in months:
            club, month = rec["club"], rec["month"]
            for d in ((rec.get("life") or {}).get("window") or {}).get("deals") or []:
                if d["kind"] == "buy" and d["done"] and d["fee"] and (biggest is None or d["fee"] > biggest[0]):
                    biggest = (d["fee"], d["player"], d["to"], month)
            now: dict[tuple[str, str], int] = {}
            for m in rec["matches"]:
                for a in m["attacks"]:
                    if a["goal"]:
                        k = (a["team"], a["shooter"])
                        now[k] = now.get(k, 0) + 1
            for k, n in now.items():
                goals[k] = goals.get(k, 0) + n
            cast, lines = rec["cast"], md.splitlines()
            people = _people(lines, rec)
            assert find_problems(people) == [], (month, people)
            ours = {s: n for (t, s), n in goals.items() if t == club}
            sc = cast["scorer"]
            if ours:
                assert sc is not None and sc["goals"] == ours[sc["name"]] == max(ours.values()), (month, sc)
                assert sc["month"] == now.get((club, sc["name"]), 0)
                assert sc["name"] in people and _has(people, sc["goals"]), (month, people)
            star = cast["star"] or cast["signing"]
            if biggest is not None and biggest[0] >= 100_000:
                fee, player, team, signed = biggest
                star = cast["star"] if team != club else cast["signing"]
                assert star is not None and (star["name"], star["club"], star["fee"]) == (player, team, fee)
                since = sum(n for (t, s), n in goals.items() if (t, s) == (team, player))
                assert star["goals"] <= since and star["month"] == now.get((team, player), 0)
                if star["month"] > 0 and month > signed:
                    assert player in people and _has(people, star["goals"]), (month, people)
                    named += 1
    # the built-in campaign's record signings scored after their windows in some months: the branch is
    # exercised (re-pinned 2 → 1 by issue 26's 财政调节: the AI clubs' funds, so their record signings, changed)
    assert named >= 1


def test_the_standings_section_names_the_race(three: tuple[Path, int]) -> None:
    for months in _seasons(three[0]):
        for rec, md in months:
            rows, club = rec["standings"], rec["club"]
            text = _section(md, "联赛最终排名" if rec["month"] == 12 else "积分榜")
            assert find_problems(text) == [], (rec["month"], text)
            assert (rows[0]["team"] == club or rows[0]["team"] in text) and _has(text, rows[0]["points"])
            rank = next(i for i, r in enumerate(rows) if r["team"] == club)
            if rank > 0:
                above = rows[rank - 1]
                assert above["team"] in text
                gap = above["points"] - rows[rank]["points"]
                assert gap == 0 or _has(text, gap)
            if rank < len(rows) - 1:
                assert rows[rank + 1]["team"] in text
            assert rows[-1]["team"] in text or rank == len(rows) - 1  # the bottom
            left = 23 - rows[0]["played"]
            if left:
                assert _has(text, left)  # matches left in the title race
            else:
                assert re.search("冠|王", text)  # the champion named as such
            for last in (4, 8):  # the top-four and top-eight lines name both sides (we are named 我们 or by name)
                assert all(rows[i]["team"] in text or rows[i]["team"] == club for i in (last - 1, last))
                assert cn_num(last) in text
