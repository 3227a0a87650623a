"""The Blood Bowl match engine, AI against AI: games per CPU second beside the reference loop, and what the
coaches' plans make of the games per race (never asserted in a test).

Usage: ``python benchmarks/bloodbowl_engine.py [--games N]``: every ordered pair of the four races plays N
matches (two halves, fresh rosters with an apothecary, each side the plan its race has in ``league.yaml``).
Printed: CPU seconds per game and games per CPU second, their ratio to one million ``random.randint(1, 100)``
timed in the same run, then per race touchdowns for and against, casualties inflicted, passes, completions,
hand-offs and fouls per match, and the share of 0–0 matches.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from anko_writer.dice import Dice  # noqa: E402
from anko_writer.rulesets.bloodbowl.match.api import HalfInput, HalfResult, Plan, play_half  # noqa: E402
from benchmarks.reference import reference  # noqa: E402
from tests.bloodbowl.match.scen import team  # noqa: E402  (the tests' roster builder)

RACES = ("human", "orc", "dwarf", "skaven")
STYLE = {"human": "pass", "orc": "bash", "dwarf": "cage", "skaven": "pass"}
"""``tables/bloodbowl/league.yaml``'s ``ai_style``."""


def plan(race: str, half: int, lead: int) -> Plan:
    """The league's AI plan (``league/teams.py: ai_plan``) for a fresh roster."""
    setup = "balanced" if half == 1 or lead == 0 else ("defensive" if lead > 0 else "offensive")
    return {"rerolls": "ball_only", "setup": setup, "style": STYLE[race]}  # type: ignore[typeddict-item]


def match(home: str, away: str, seed: int) -> tuple[HalfResult, HalfResult]:
    """Both halves of one match."""
    h = dataclasses.replace(team(home, "H"), apothecary=True)
    a = dataclasses.replace(team(away, "A"), apothecary=True)
    d = Dice(seed)
    first = play_half(HalfInput(f"m{seed}/h1", h, a, 1, (0, 0), "away",
                                {"home": plan(home, 1, 0), "away": plan(away, 1, 0)}), d)
    lead = first.score[0] - first.score[1]
    second = play_half(HalfInput(f"m{seed}/h2", first.home, first.away, 2, first.score, "away",
                                 {"home": plan(home, 2, lead), "away": plan(away, 2, -lead)}, first.carry), d)
    return first, second


def tally(per: dict[str, dict[str, int]], home: str, away: str, halves: tuple[HalfResult, HalfResult]) -> None:
    """Add one match to ``per``."""
    score = halves[1].score
    names = {"home": halves[0].home.name, "away": halves[0].away.name}
    for side, race, mine, theirs in (("home", home, score[0], score[1]), ("away", away, score[1], score[0])):
        row = per[race]
        row["matches"] += 1
        row["td"] += mine
        row["td_against"] += theirs
        row["zero"] += int(mine == theirs == 0)
        other = names["away" if side == "home" else "home"]
        for h in halves:
            rec: dict[str, Any] = h.record
            row["cas"] += sum(1 for c in rec["casualties"] if c["team"] == other)
            for t in rec["turns"]:
                if t["side"] != side:
                    continue
                for a in t["actions"]:
                    got = a["ball"]["carrier"]
                    row["passes"] += a["kind"] == "pass"
                    row["completions"] += int(a["kind"] == "pass" and got is not None and got != a["player"]
                                              and got[0] == a["player"][0])
                    row["handoffs"] += a["kind"] == "handoff"
                    row["fouls"] += a["kind"] == "foul"


BOTBOWL_S = 0.054
"""botbowl's random-vs-random CPU seconds a game on this machine (the performance review, perf.md §4)."""


def main() -> None:
    """Play, time and print."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5, help="matches for each ordered pair of races")
    n = ap.parse_args().games
    t = time.process_time()
    reference()
    ref = time.process_time() - t  # CPU seconds, the games' clock
    keys = ("matches", "td", "td_against", "cas", "passes", "completions", "handoffs", "fouls", "zero")
    per = {r: dict.fromkeys(keys, 0) for r in RACES}
    seed, cpu = 0, 0.0
    for home, away in itertools.permutations(RACES, 2):
        for _ in range(n):
            seed += 1
            t = time.process_time()
            halves = match(home, away, seed)
            cpu += time.process_time() - t
            tally(per, home, away, halves)
    games = seed
    print(f"reference loop {ref:.3f} CPU s; {games} games, {cpu / games * 1000:.1f} ms CPU a game "
          f"({games / cpu:.2f} games per CPU s), {cpu / games / ref:.3f} reference loops a game")
    tds = sum(r["td"] for r in per.values())
    zero = sum(r["zero"] for r in per.values()) // 2
    print(f"{tds / games:.2f} touchdowns a match, 0–0 {100 * zero / games:.0f} %")
    for race, r in per.items():
        m = r["matches"]
        print(f"{race:7s} " + "  ".join(f"{k} {r[k] / m:.2f}" for k in keys[1:-1]))
    # last, for benchmarks/goals.py: the goal line beside botbowl (not installable here: the review's figure)
    print(f"{cpu / games * 1000:.1f} ms CPU a game against botbowl's {BOTBOWL_S * 1000:.0f} ms "
          f"(random vs random, ../shared/reviews/perf.md): {cpu / games / BOTBOWL_S:.2f}× (goal ≤ 1×)")


if __name__ == "__main__":
    main()
