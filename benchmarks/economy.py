"""The 群英杯's economy over multi-season runs for every one of the 24 cities (issue 15): which §6.2.3 R bands
occur, who goes bankrupt, and whether money follows results.

Usage: ``python benchmarks/economy.py [--replicates 2] [--seasons 3] [--jobs 2]``. For each city and replicate
it generates the city's club with ``new`` (seed derived from the city and the replicate), plays the seasons
chained through their state files (the AI decides everything, as with no votes), and records our club's
R band at every month's start, funds at each season's start and end, the league rank and the §11.3 stage.
It prints the band shares, bankruptcies and the funds change by tier and by league finish.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import statistics
import sys
import tempfile
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from anko_writer.campaign import load_campaign  # noqa: E402
from anko_writer.chapters import ChapterKey  # noqa: E402
from anko_writer.resources import Resources  # noqa: E402
from anko_writer.ruleset import get  # noqa: E402
from anko_writer.runtime import tune_gc  # noqa: E402

BANDS = ("R ≥ 2", "1 ≤ R < 2", "0.5 ≤ R < 1", "R < 0.5")


def _seed(city: str, replicate: int) -> int:
    """An 18-digit seed from the city and the replicate number."""
    return int(hashlib.sha256(f"economy|{city}|{replicate}".encode()).hexdigest()[:15], 16)


def run_city(city: str, replicate: int, seasons: int) -> dict[str, Any]:
    """One club's seasons: bands, funds, ranks, stages, ending."""
    tune_gc()
    rs = get("purasbar")
    made = rs.new_campaign({"city": city}, _seed(city, replicate), Resources("purasbar", None))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / made.filename
        path.write_text(made.yaml_text, encoding="utf-8")
        campaign = load_campaign(path)
    res = campaign.resources()
    out: dict[str, Any] = {"city": city, "bands": [], "funds": [], "ranks": [], "stage": 0, "ending": "none",
                           "kinds": Counter()}
    start = None
    for s in range(1, seasons + 1):
        run = rs.play(campaign, ChapterKey(s, 12), res, start=start, publish=False)
        months = [c for c in run.chapters if c.name is None]
        first = months[0].results["life"]["business"]["finances"]["funds"]
        for ch in months:
            out["bands"].append(ch.results["life"]["business"]["finances"]["band"])
            out["stage"] = max(out["stage"], ch.results["life"]["money"]["bankruptcy"]["stage"])
        end = run.chapters[-1].results["settlement"]
        out["funds"].append((first, end["season_money"]["balance"]))
        out["kinds"].update(end["season_money"]["by_kind"])
        club = run.summary["club"]
        out["ranks"].append(next(i for i, r in enumerate(run.summary["standings"], 1) if r["team"] == club))
        out["ending"] = end["next"]["ending"]
        if out["ending"] != "none" or run.state_text is None:
            break
        start = (s, rs.load_state(run.state_text, f"<end of season {s}>", res))
    return out


def main() -> None:
    """Play every city and print the economy's numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=2)
    parser.add_argument("--seasons", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    cities = [c for c in _cities()]
    jobs = [(c["city"], r) for c in cities for r in range(args.replicates)]
    with ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        runs = list(pool.map(run_city, *zip(*jobs), [args.seasons] * len(jobs)))
    tiers = {c["city"]: c["tier"] for c in cities}
    bands = Counter(b for r in runs for b in r["bands"])
    total = sum(bands.values())
    print(f"{len(runs)} clubs × up to {args.seasons} seasons; month starts: {total}")
    print("R bands: " + ", ".join(f"{b}: {bands.get(k, 0) / total:.1%}" for b, k in
                                  zip(BANDS, ("rich", "balanced", "tight", "broke"))) + f"   (raw {dict(bands)})")
    print(f"§11.3 stage reached ≥ 1: {sum(r['stage'] >= 1 for r in runs)}, ≥ 2: {sum(r['stage'] >= 2 for r in runs)}; "
          f"bankrupt: {sum(r['ending'] == 'bankruptcy' for r in runs)}; owner retired: "
          f"{sum(r['ending'] == 'owner_retired' for r in runs)}")
    by_tier: dict[str, list[float]] = defaultdict(list)
    by_rank: dict[str, list[int]] = defaultdict(list)
    for r in runs:
        start, end = r["funds"][0][0], r["funds"][-1][1]
        by_tier[tiers[r["city"]]].append(end / start if start > 0 else float("nan"))
        for (first, last), rank in zip(r["funds"], r["ranks"]):
            by_rank["top 4" if rank <= 4 else ("5–12" if rank <= 12 else ("13–21" if rank <= 21 else "bottom 3"))].append(
                last - first)
    for tier in sorted(by_tier):
        xs = by_tier[tier]
        print(f"tier {tier}: funds after the run ÷ at the start: median {statistics.median(xs):.2f} "
              f"(min {min(xs):.2f}, max {max(xs):.2f}, n {len(xs)})")
    for tier in sorted(by_tier):
        kinds: Counter[str] = Counter()
        seasons = 0
        for r in runs:
            if tiers[r["city"]] == tier:
                kinds.update(r["kinds"])
                seasons += len(r["funds"])
        print(f"tier {tier} a season on average: " + ", ".join(f"{k} {v / seasons:+,.0f}" for k, v in kinds.most_common()))
    for band in ("top 4", "5–12", "13–21", "bottom 3"):
        xs = by_rank.get(band, [])
        if xs:
            print(f"league {band}: a season's funds change median {statistics.median(xs):+,.0f} P$ (n {len(xs)})")


def _cities() -> list[dict[str, Any]]:
    """The shipped cities.yaml's rows."""
    from anko_writer.rulesets.purasbar.setup.tables import load_purasbar_tables
    return list(load_purasbar_tables(Resources("purasbar", None)).cities)


if __name__ == "__main__":
    main()
