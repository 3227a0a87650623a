"""BALL's move generator against python-chess's, as perft nodes per CPU second (never asserted in a test).

Usage: ``python benchmarks/ball_perft.py [--depth 5] [--chess-depth 4] [--runs 3] [--old]``. A node's children
are every generated action applied, plus closing the phase where that is legal (the performance review's
definition): from the standard formation depth 2 is 2,869 leaves, 4 is 25,489 and 5 is 1,232,091. Measured,
in interleaved rounds, CPU time (``time.process_time``):

- ``ball board``: the make/unmake board (``game/engine.py``) that the AI searches with;
- ``ball rules`` (``--old``): :func:`.rules.generate` and :func:`.rules.perform` on frozen positions (the
  generator before the board, still the checked path's);
- ``chess``: python-chess's ``legal_moves`` / ``push`` / ``pop`` from its start position, when ``chess`` is
  importable (``pip install chess`` in a separate venv and put it on ``PYTHONPATH``: it is not a dependency);
- the reference loop of ``benchmarks/reference.py`` (one million ``random.randint``), for the ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from anko_writer.rulesets.ball.game.engine import Board  # noqa: E402
from anko_writer.rulesets.ball.game.rules import perft as rules_perft  # noqa: E402
from anko_writer.rulesets.ball.game.rules import standard_position  # noqa: E402
from benchmarks.reference import reference  # noqa: E402


def chess_perft(board: Any, depth: int) -> int:
    """python-chess's perft: every legal move pushed and popped."""
    if depth == 0:
        return 1
    n = 0
    for move in board.legal_moves:
        board.push(move)
        n += chess_perft(board, depth - 1)
        board.pop()
    return n


def cpu(run: Callable[[], int]) -> tuple[int, float]:
    """``run()``'s result and the CPU seconds it took."""
    t = time.process_time()
    n = run()
    return n, time.process_time() - t


def main() -> None:
    """Print each generator's nodes per CPU second, their ratio and the reference loop's."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--chess-depth", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--old", action="store_true", help="also time the frozen-position generator")
    args = parser.parse_args()
    try:
        import chess
    except ImportError:
        chess = None
    cases: dict[str, Callable[[], int]] = {"ball board": lambda: Board.of(standard_position()).perft(args.depth)}
    if args.old:
        cases["ball rules"] = lambda: rules_perft(standard_position(), args.depth)
    if chess is not None:
        cases["chess"] = lambda: chess_perft(chess.Board(), args.chess_depth)
    rates: dict[str, list[float]] = {k: [] for k in cases}
    nodes: dict[str, int] = {}
    refs = []
    for _ in range(args.runs):
        refs.append(cpu(lambda: int(reference() * 0))[1])
        for name, run in cases.items():
            n, s = cpu(run)
            nodes[name] = n
            rates[name].append(n / s)
    ref = statistics.median(refs)
    print(f"reference loop (1e6 randint): {ref:.3f} s CPU")
    for name in cases:
        rate = statistics.median(rates[name])
        print(f"{name:11s} {nodes[name]:>10,} nodes  {rate:>10,.0f} nodes/s   "
              f"{rate * ref:>10,.0f} nodes in one reference loop's CPU time")
    if "chess" in rates:
        ours, theirs = statistics.median(rates["ball board"]), statistics.median(rates["chess"])
        print(f"ball board / chess: {ours / theirs:.2f}× (goal ≥ 1.00×)")
    if "ball rules" in rates:
        print(f"ball board / ball rules: {statistics.median(rates['ball board']) / statistics.median(rates['ball rules']):.2f}×")


if __name__ == "__main__":
    main()
