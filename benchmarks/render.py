"""Time the rendering of one season (the rules post, every chapter and the index), in fresh processes, with
the compiled-template cache cold, warm and off, beside the reference loop run in the same session.

Usage: ``python benchmarks/render.py [CAMPAIGN] [--season S] [--runs N]`` (default ``campaigns/recht.yaml``,
season 1, 3 runs). Each run is a new process (templates compile once per process), so only the cache on
disk carries over: "cold" renders into an empty cache folder, "warm" into the folder a cold run filled,
"off" with ``ANKO_WRITER_CACHE=off``. Loading and simulating the season are not timed. Every time is
printed as a ratio to one million ``random.randint(1, 100)`` calls, run after each round (issue 14's targets
are ratios): the median of the rounds' ratios; beside it the median CPU seconds, steadier on a shared
machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.reference import reference  # noqa: E402


def render_season(campaign_path: Path, season: int) -> tuple[float, float]:
    """Wall and CPU seconds this process takes to render ``season``'s rules post, chapters and index (after
    playing it; the chapters' JSON is not timed)."""
    from anko_writer import ruleset
    from anko_writer.campaign import load_campaign
    from anko_writer.chapters import ChapterKey
    from anko_writer.cli import chapter_context, index_file, rules_file
    from anko_writer.render import render_chapter

    campaign = load_campaign(campaign_path)
    rs = ruleset.get(campaign.ruleset)
    resources = campaign.resources()
    run = rs.play(campaign, ChapterKey(season, rs.parts(season)), resources)
    begin, cpu = time.perf_counter(), time.process_time()
    rules_file(resources, campaign)
    for chapter in run.chapters:
        render_chapter(resources, chapter.template, chapter_context(chapter, campaign), seed=campaign.seed)
    index_file(resources, run, campaign, season)
    return time.perf_counter() - begin, time.process_time() - cpu


def _child(campaign: Path, season: int, cache: str) -> tuple[float, float]:
    """Wall and CPU seconds a fresh process took to render, with ``ANKO_WRITER_CACHE=cache``."""
    env = {**os.environ, "ANKO_WRITER_CACHE": cache,
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, __file__, "--child", str(campaign), "--season", str(season)],
                          check=True, capture_output=True, text=True, env=env, cwd=ROOT)
    wall, cpu = done.stdout.split()[-2:]
    return float(wall), float(cpu)


def main(argv: list[str] | None = None) -> int:
    """Print the median render time of each cache state and its ratio to the reference loop."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("campaign", nargs="?", type=Path, default=ROOT / "campaigns" / "recht.yaml")
    parser.add_argument("--season", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        wall_s, cpu_s = render_season(args.campaign.resolve(), args.season)
        print(f"{wall_s:.6f} {cpu_s:.6f}")
        return 0
    cases = ("cold", "warm", "off")
    wall: dict[str, list[float]] = {name: [] for name in cases}
    cpu: dict[str, list[float]] = {name: [] for name in cases}
    refs = []
    for _ in range(max(1, args.runs)):
        folder = tempfile.mkdtemp(prefix="anko-render-cache-")
        try:
            took = {"cold": _child(args.campaign.resolve(), args.season, folder),
                    "warm": _child(args.campaign.resolve(), args.season, folder),
                    "off": _child(args.campaign.resolve(), args.season, "off")}
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        refs.append(reference())  # in each round, so a change of load moves both sides of a ratio
        for name, (seconds, cpu_seconds) in took.items():
            wall[name].append(seconds / refs[-1])
            cpu[name].append(cpu_seconds)
    ref = statistics.median(refs)
    print(f"reference loop (1e6 randint): {ref:.3f} s")
    for name in cases:
        print(f"render season {args.season}, cache {name:4s}   wall {statistics.median(wall[name]):6.3f}× reference"
              f"   CPU {statistics.median(cpu[name]):6.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
