"""BALL: one AI strength against another from the audit's openings, each side in turn (never asserted in a test).

Usage: ``python benchmarks/ball_strengths.py [--games 20] [--strong 2] [--weak 1]``. Game ``k`` opens as the
audit's replicate with seed ``k`` does (``audit.opening``: two turns of random plain moves), then the stronger AI
plays ATK against the weaker as DEF, and then the other way round, to a touchdown or the game's turn limit.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from anko_writer.dice import Dice  # noqa: E402
from anko_writer.rulesets.ball.audit import opening  # noqa: E402
from anko_writer.rulesets.ball.game import api  # noqa: E402


def play(seed: int, atk: int, defence: int) -> str:
    """The winner of game ``seed`` with ATK at strength ``atk`` and DEF at ``defence``."""
    pos = opening(api.standard_position(), Dice(seed), "ball/opening")
    while pos.touchdown is None and pos.turn <= api.turn_limit():
        pos = api.play_turn(pos, api.ai_turn(pos, atk if pos.to_move == "ATK" else defence))
    return pos.touchdown or "DEF"


def main() -> None:
    """Print each pairing's wins by side."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--strong", type=int, default=2)
    parser.add_argument("--weak", type=int, default=1)
    args = parser.parse_args()
    for atk, defence in ((args.strong, args.weak), (args.weak, args.strong)):
        wins = {"ATK": 0, "DEF": 0}
        for seed in range(args.games):
            wins[play(seed, atk, defence)] += 1
        print(f"ATK strength {atk} vs DEF strength {defence}: ATK {wins['ATK']}, DEF {wins['DEF']}", flush=True)


if __name__ == "__main__":
    main()
