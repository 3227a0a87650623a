"""Time the Blood Bowl match engine alone: AI-vs-AI games per CPU-second, beside botbowl's random-vs-random.

Usage: ``python benchmarks/bloodbowl_engine.py [--games N]`` (default 10). Plays N games, each two halves
of :func:`anko_writer.rulesets.bloodbowl.match.api.play_half` between fresh human and orc rosters (the
second half from the first's ``carry``, the other side kicking), with the engine's scripted AI on both
sides (cage against bash, as the review timed it). Prints CPU seconds per game (``time.process_time``),
games per CPU-second and the time per game as a ratio to :func:`benchmarks.reference.reference` (one
million ``randint`` calls), the cheaper of the loops run before and after.

botbowl cannot be installed here (``pip install .`` fails with ``invalid command 'bdist_wheel'``, and it
needs numpy and gym), so its figure is the performance review's (``../shared/reviews/perf.md`` §4):
random vs random, ``fast_mode``, pathfinding off, 0.054 s CPU a game (18.6 games per CPU-second) on this
machine, where the in-process reference loop used here took about 0.25 s (perf.md §1). Issue 29's goal: our engine at
least as fast per game as botbowl's, on the same machine. Not like for like: a botbowl step is one random
decision, one of ours a whole planned move or block.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from anko_writer.dice import Dice  # noqa: E402
from anko_writer.rulesets.bloodbowl.match.api import HalfInput, PlayerSheet, TeamSheet, play_half  # noqa: E402
from anko_writer.rulesets.bloodbowl.match.data import load_tables  # noqa: E402
from benchmarks.reference import reference  # noqa: E402


def cpu_reference() -> float:
    """CPU seconds of :func:`reference` (its own figure is wall time, which a loaded machine stretches)."""
    began = time.process_time()
    reference()
    return time.process_time() - began

BOTBOWL_GAME_CPU = 0.054
"""The review's botbowl random-vs-random game, CPU seconds (perf.md §4)."""
BOTBOWL_REFERENCE = 0.25
"""The in-process reference loop (:func:`benchmarks.reference.reference`) on the review's machine, seconds (perf.md §1)."""
POSITIONALS = {"human": {"catcher": 2, "thrower": 1, "blitzer": 2}, "orc": {"thrower": 1, "black_orc": 2, "blitzer": 2}}
"""The starting rosters: these positionals, then linemen to twelve (as ``tests/bloodbowl/match/scen.py``)."""


def team(race: str, name: str, ours: bool) -> TeamSheet:
    """A fresh roster of twelve: the race's :data:`POSITIONALS`, then linemen."""
    positions = load_tables().rosters[race]["positions"]
    players: list[PlayerSheet] = []
    for pos in positions:
        for _ in range(POSITIONALS[race].get(pos["key"], 0)):
            players.append(PlayerSheet(f"{name}-{len(players) + 1:02d}", f"{pos['name']}{len(players) + 1}",
                                       pos["name"], pos["MA"], pos["ST"], pos["AG"], pos["AV"], list(pos["skills"])))
    line = positions[0]
    while len(players) < 12:
        players.append(PlayerSheet(f"{name}-{len(players) + 1:02d}", f"{line['name']}{len(players) + 1}",
                                   line["name"], line["MA"], line["ST"], line["AG"], line["AV"], []))
    return TeamSheet(name, race, ours, 3, players)


def game(seed: int) -> tuple[int, int]:
    """One AI-vs-AI game of two halves on seed ``seed``: the final score."""
    dice = Dice(seed)
    home, away = team("human", "H", True), team("orc", "A", False)
    plans = {"home": {"style": "cage"}, "away": {"style": "bash"}}
    first = play_half(HalfInput(f"g{seed}/h1", home, away, 1, (0, 0), "away", plans), dice)  # type: ignore[arg-type]
    second = play_half(HalfInput(f"g{seed}/h2", home, away, 2, first.score, "home", plans,  # type: ignore[arg-type]
                                 carry=first.carry), dice)
    return second.score


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the benchmark and print plain text."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games played (default 10)")
    args = parser.parse_args(argv)
    game(10**6)  # warm: tables loaded, code paths run once
    ref = cpu_reference()
    began = time.process_time()
    for seed in range(args.games):
        game(seed)
    per = (time.process_time() - began) / args.games
    ref = min(ref, cpu_reference())
    ours, theirs = per / ref, BOTBOWL_GAME_CPU / BOTBOWL_REFERENCE
    print(f"ours (AI vs AI, {args.games} games): {per:.3f} s CPU a game, {1 / per:.1f} games per CPU-s, "
          f"{ours:.3f} × reference a game (reference {ref:.3f} s)")
    print(f"botbowl random vs random (review, not measurable here): {BOTBOWL_GAME_CPU:.3f} s CPU a game, "
          f"{1 / BOTBOWL_GAME_CPU:.1f} games per CPU-s, {theirs:.3f} × its reference")
    print(f"ours ÷ botbowl per game: {ours / theirs:.2f} (goal ≤ 1.00)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
