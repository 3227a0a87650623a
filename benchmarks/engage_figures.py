"""A battle's figures for the note: the shipped 接战 battle 1 (河滩伏击) played over many seeds, no votes (every
unit played by the AI), nothing rendered.

Usage: ``python benchmarks/engage_figures.py [--seeds 40]``. Printed:

- rounds per battle (min, median, max, and the count of each);
- the casualty result of every engagement thrown against its exact distribution: for each result (0 % … 100 %,
  E6) the count observed and the count expected (the sum over the engagements of the exact probability of that
  result given the pool before, the dice thrown and the defence advantages, R-E6/R-E7), and the mean result per
  (dice, defence) setting of the fresh pools;
- how units left the field (retreated, routed, destroyed) and who held it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from anko_writer.campaign import load_campaign  # noqa: E402
from anko_writer.dice import Dice  # noqa: E402
from anko_writer.rulesets.engage.casualty import distribution, percent  # noqa: E402
from anko_writer.rulesets.engage.ruleset import Game  # noqa: E402

SHIPPED = ROOT / "campaigns" / "engage" / "river.yaml"


def battle(data: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """Battle 1 played to its end with ``seed``: its rounds, every engagement record, the end record."""
    game = Game({**data, "seed": seed, "orders": {}}, 1, None, Dice(seed))
    part, engagements = 0, []
    while not game.battle.over and part < 12:
        part += 1
        rec = game.round(part)
        engagements += rec["engagements"]
        if not game.battle.over and game.ai_units():
            game.throw_intent(part)
    return {"rounds": part, "engagements": engagements, "end": game.end_record()}


def figures(seeds: int = 40, path: Path = SHIPPED) -> dict[str, Any]:
    """The figures over seeds ``0 … seeds − 1``: rounds, observed and exact result counts, exits, winners."""
    data = load_campaign(path).data
    rounds: list[int] = []
    observed: Counter[int] = Counter()
    exact: dict[int, Fraction] = {}
    fresh: dict[tuple[int, int], list[tuple[int, Fraction]]] = {}
    exits: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    for seed in range(seeds):
        b = battle(data, seed)
        rounds.append(b["rounds"])
        for e in b["engagements"]:
            if e["defence_count"] >= 9:
                continue
            n = len(e["roll"]["dice"])
            dist = distribution(tuple(e["pool_before"]), n, e["defence_count"])
            observed[percent(e["result_after"])] += 1
            for points, p in dist.items():
                exact[percent(points)] = exact.get(percent(points), Fraction(0)) + p
            if not e["pool_before"]:
                mean = sum((percent(k) * p for k, p in dist.items()), Fraction(0))
                fresh.setdefault((n, e["defence_count"]), []).append((percent(e["result_after"]), mean))
        exits.update(u["lost"] for u in b["end"]["after"] if u["lost"])
        winners[b["end"]["result"]["winner"] or "（无）"] += 1
    return {"seeds": seeds, "rounds": rounds, "observed": dict(observed), "exact": exact, "fresh": fresh,
            "exits": dict(exits), "winners": dict(winners)}


def report(f: Mapping[str, Any]) -> str:
    """The figures as the plain-text table the note quotes."""
    r = f["rounds"]
    lines = [f"河滩伏击 over {f['seeds']} seeds (no votes: the AI plays both sides)",
             f"rounds: min {min(r)}, median {statistics.median(r)}, max {max(r)}; "
             + ", ".join(f"{k}: {v}" for k, v in sorted(Counter(r).items())),
             "", "casualty result   observed   exact"]
    total = sum(f["observed"].values())
    for pct in sorted(set(f["observed"]) | set(f["exact"])):
        lines.append(f"  {pct:>4} %        {f['observed'].get(pct, 0):>6}   {float(f['exact'].get(pct, 0)):>8.1f}")
    lines += [f"  engagements     {total:>6}   {float(sum(f['exact'].values())):>8.1f}", "",
              "fresh pools: dice, defence → engagements, mean result observed / exact"]
    for (n, d), xs in sorted(f["fresh"].items()):
        obs = statistics.mean(x for x, _ in xs)
        ex = float(sum((m for _, m in xs), Fraction(0)) / len(xs))
        lines.append(f"  {n} dice, defence {d}: {len(xs):>4}   {obs:6.1f} % / {ex:6.1f} %")
    lines += ["", "left the field: " + ", ".join(f"{k} {v}" for k, v in sorted(f["exits"].items())),
              "held the field: " + ", ".join(f"{k} {v}" for k, v in sorted(f["winners"].items()))]
    return "\n".join(lines)


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=40)
    print(report(figures(ap.parse_args().seeds)))


if __name__ == "__main__":
    main()
