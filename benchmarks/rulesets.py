"""Time the Blood Bowl and BALL rulesets beside a reference loop, as ratios (never asserted in a test).

Usage: ``python benchmarks/rulesets.py [--runs N]``. The reference is one million ``random.randint(1, 100)``
calls, timed in the same run, so the ratios compare across machines and loads. Measured:

- ``bloodbowl half``: one half of a match through the engine (``match.engine.play_half``);
- ``bloodbowl arc``: ``anko-writer arc`` of a whole season (ten half-chapters and the AI-vs-AI matches) as a
  process, from a fresh ``new`` league;
- ``ball ai turn``: the slowest AI turn of the AI-vs-AI game from the standard formation;
- ``ball arc``: ``anko-writer arc`` of a whole game as a process;
- ``sanguo scene``: one 三国 scene (节) of the shipped campaign played in memory (16 chapters, both sides);
- ``sanguo arc``: ``anko-writer arc`` of that scene as a process (chapters, maps, seals written).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from anko_writer.dice import Dice  # noqa: E402
from anko_writer.rulesets.ball.game import api as ball  # noqa: E402
from anko_writer.rulesets.ball.game.rules import end_phase, game_over  # noqa: E402
from benchmarks.reference import reference  # noqa: E402


def _bb_half() -> float:
    """Seconds for one Blood Bowl half between two fresh rosters."""
    from anko_writer.rulesets.bloodbowl.match.engine import play_half
    from tests.bloodbowl.match.scen import half  # the tests' scenario builder
    t = time.perf_counter()
    play_half(half(), Dice(9))
    return time.perf_counter() - t


def _ball_slowest_turn() -> float:
    """Seconds of the slowest AI turn in the AI-vs-AI game from the standard formation."""
    pos, slowest = ball.standard_position(), 0.0
    while not game_over(pos):
        t = time.perf_counter()
        actions = ball.ai_turn(pos)
        slowest = max(slowest, time.perf_counter() - t)
        for a in actions:
            if a.kind in ("stand_up", "release") and pos.phase == "action":
                pos = end_phase(pos)
            pos = ball.apply(pos, a)
            if game_over(pos):
                break
        else:
            pos = end_phase(end_phase(pos) if pos.phase == "action" else pos)
    return slowest


def _cli(*args: str, cwd: Path) -> None:
    """Run ``anko-writer ARGS`` as a process in ``cwd``."""
    subprocess.run([sys.executable, "-m", "anko_writer", *args], cwd=cwd, check=True, capture_output=True)


def _arc(ruleset: str, options: list[str], campaign: str) -> float:
    """Seconds for ``anko-writer arc CAMPAIGN --arc 1`` on a fresh ``new`` campaign, as a whole process."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "c"
        _cli("new", str(folder), "--ruleset", ruleset, *options, "--seed", "123456789012345678", cwd=Path(tmp))
        t = time.perf_counter()
        _cli("arc", campaign, "--arc", "1", cwd=folder)
        return time.perf_counter() - t


def _sanguo_scene() -> float:
    """Seconds for scene 1 of the shipped 三国 campaign played in memory (no file written)."""
    from anko_writer.campaign import load_campaign
    from anko_writer.chapters import ChapterKey
    from anko_writer.ruleset import get
    camp = load_campaign(ROOT / "campaigns" / "sanguo" / "changshe.yaml")
    t = time.perf_counter()
    get("sanguo").play(camp, ChapterKey(1, 99), camp.resources())
    return time.perf_counter() - t


CASES: dict[str, Callable[[], float]] = {
    "bloodbowl half": _bb_half,
    "bloodbowl arc": lambda: _arc("bloodbowl", ["--option", "team=雷希特狂牛", "--option", "race=orc"], "league.yaml"),
    "ball ai turn": _ball_slowest_turn,
    "ball arc": lambda: _arc("ball", ["--option", "side=ATK"], "ball.yaml"),
    "sanguo scene": _sanguo_scene,
    "sanguo arc": lambda: _arc("sanguo", [], "changshe.yaml"),
}


def main() -> None:
    """Print each case's median time and its ratio to the reference loop."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    ref = statistics.median(reference() for _ in range(runs))
    print(f"reference loop (1e6 randint): {ref:.3f} s")
    for name, case in CASES.items():
        took = statistics.median(case() for _ in range(runs))
        print(f"{name:16s} {took:8.3f} s   {took / ref:6.2f}× reference")


if __name__ == "__main__":
    main()
