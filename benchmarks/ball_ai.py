"""BALL's AI: CPU seconds a turn at each strength, as ratios to the reference loop (never asserted in a test).

Usage: ``python benchmarks/ball_ai.py [--strengths 1 2 3] [--turns 12]``. Each strength plays the AI-vs-AI
game from the standard formation (both sides at that strength) for ``--turns`` turns; printed: the mean and the
slowest turn in CPU seconds (``time.process_time``) and as a ratio to ``benchmarks/reference.py``'s loop, and
the nodes the search made (strength 2 and 3: at most the budget, so a turn's time is bounded, never timed).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from anko_writer.rulesets.ball.game.ai import choose  # noqa: E402
from anko_writer.rulesets.ball.game.rules import game_over, play_turn, standard_position  # noqa: E402
from benchmarks.reference import reference  # noqa: E402


def turns(strength: int, count: int) -> tuple[list[float], list[int]]:
    """CPU seconds of each AI turn, and the nodes of each search (0 at strength 1)."""
    pos, took, nodes = standard_position(), [], []
    for _ in range(count):
        if game_over(pos):
            break
        t = time.process_time()
        c = choose(pos, strength)
        took.append(time.process_time() - t)
        nodes.append(c.nodes)
        pos = play_turn(pos, c.actions)
    return took, nodes


def main() -> None:
    """Print each strength's turn times and their ratio to the reference loop."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strengths", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--turns", type=int, default=12)
    args = parser.parse_args()
    t = time.process_time()
    reference()
    ref = time.process_time() - t
    print(f"reference loop (1e6 randint): {ref:.3f} s CPU")
    for s in args.strengths:
        took, nodes = turns(s, args.turns)
        mean, worst = statistics.mean(took), max(took)
        print(f"strength {s}: {len(took)} turns, mean {mean:.3f} s ({mean / ref:.2f}× reference), slowest {worst:.3f} s "
              f"({worst / ref:.2f}×), nodes mean {statistics.mean(nodes):,.0f} max {max(nodes):,}")


if __name__ == "__main__":
    main()
