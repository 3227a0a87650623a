"""Time a whole season: load the campaign, simulate, render every chapter, build and dump the JSON.

Usage: ``python benchmarks/season.py [CAMPAIGN] [--runs N] [--seasons S] [--profile]`` (default
``campaigns/recht.yaml``, 3 runs, seasons 1–3). Each season k > 1 starts from season k − 1's
``state-end.yaml`` text, as the CLI does when the file is on disk, so the time reported for a season
is the cost of that season alone: it should not grow with the number of seasons played. Prints
min/median wall time per season with a load/simulate/render/JSON breakdown, and with ``--profile``
the top 15 functions by cumulative time (cProfile). Nothing is written to disk.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from anko_writer import output, ruleset, secrecy  # noqa: E402
from anko_writer.campaign import load_campaign  # noqa: E402
from anko_writer.cli import chapter_context, index_file  # noqa: E402
from anko_writer.render import render_chapter  # noqa: E402


@dataclass
class Timing:
    """Seconds spent in each phase of one run."""

    phases: dict[str, float] = field(default_factory=dict)

    def add(self, phase: str, seconds: float) -> None:
        """Accumulate ``seconds`` under ``phase``."""
        self.phases[phase] = self.phases.get(phase, 0.0) + seconds

    @property
    def total(self) -> float:
        """Wall time of the whole run."""
        return sum(self.phases.values())


def states(path: Path, seasons: int) -> dict[int, tuple[int, object] | None]:
    """The start of each season 1..``seasons``: None for season 1, else the loaded end of the one before."""
    campaign = load_campaign(path)
    rs = ruleset.get(campaign.ruleset)
    resources = campaign.resources()
    out: dict[int, tuple[int, object] | None] = {1: None}
    for s in range(1, seasons):
        run = rs.play_season(campaign, s, rs.parts(s), resources, start=out[s])
        if run.state_text is None:
            break
        out[s + 1] = (s, rs.load_state(run.state_text, f"<end of season {s}>", resources))
    return out


def run_once(path: Path, season: int, start: tuple[int, object] | None = None) -> Timing:
    """One full season: load + simulate, render every chapter and the index, dump every JSON."""
    t = Timing()
    begin = time.perf_counter()
    campaign = load_campaign(path)
    rs = ruleset.get(campaign.ruleset)
    resources = campaign.resources()
    t.add("load", time.perf_counter() - begin)
    begin = time.perf_counter()
    run = rs.play_season(campaign, season, rs.parts(season), resources, start=start)
    t.add("simulate", time.perf_counter() - begin)
    for chapter in run.chapters:
        t0 = time.perf_counter()
        md = render_chapter(resources, chapter.template, chapter_context(chapter, campaign), seed=campaign.seed)
        t.add("render", time.perf_counter() - t0)
        t0 = time.perf_counter()
        output.dump_json(secrecy.masked(chapter.json_record(), secrecy.still_sealed(md)))  # what is written
        t.add("json", time.perf_counter() - t0)
    t0 = time.perf_counter()
    index_file(resources, run, campaign, season)
    t.add("render", time.perf_counter() - t0)
    return t


def report(timings: list[Timing]) -> str:
    """Min/median wall time and the median of each phase."""
    totals = [t.total for t in timings]
    lines = [f"runs: {len(timings)}   min {min(totals):.3f} s   median {statistics.median(totals):.3f} s"]
    for phase in timings[0].phases:
        values = [t.phases.get(phase, 0.0) for t in timings]
        lines.append(f"  {phase:<9} median {statistics.median(values):.3f} s")
    return "\n".join(lines)


def profile(path: Path, season: int, start: tuple[int, object] | None, top: int = 15) -> str:
    """The ``top`` functions by cumulative time over one more run."""
    prof = cProfile.Profile()
    prof.runcall(run_once, path, season, start)
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(top)
    return buf.getvalue().strip()


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the benchmark and print plain text."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("campaign", nargs="?", type=Path, default=ROOT / "campaigns" / "recht.yaml")
    parser.add_argument("--runs", type=int, default=3, help="timed runs (default 3)")
    parser.add_argument("--seasons", type=int, default=3, help="seasons to play, 1..S (default 3)")
    parser.add_argument("--profile", action="store_true", help="also profile the last season")
    args = parser.parse_args(argv)
    starts = states(args.campaign, args.seasons)
    print(f"campaign: {args.campaign}   seasons 1–{max(starts)}")
    for season, start in starts.items():
        timings = [run_once(args.campaign, season, start) for _ in range(max(1, args.runs))]
        print(f"season {season}: " + report(timings))
    if args.profile:
        print()
        print(profile(args.campaign, max(starts), starts[max(starts)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
