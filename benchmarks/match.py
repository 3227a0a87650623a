"""Time the 群英杯 match engine alone: CPU inside ``play_fixture`` over the matches of one season.

Usage: ``python benchmarks/match.py [CAMPAIGN] [--runs N] [--season S] [--calls]`` (default
``campaigns/recht.yaml``, 5 runs, season 1). Each run plays the same season (the same fixtures, the same
dice) with the collector off, once published (``publish=True``: the records a chapter prints) and once lean
(``publish=False``: an audit's season), and adds up the CPU seconds (``time.process_time``) spent inside
``season.matchday.play_fixture``. Prints the min and median of each, and their ratio to the reference loop
(:func:`benchmarks.reference.reference` timed in CPU seconds beside every run). ``--calls`` also counts the
Python and built-in calls made inside ``play_fixture`` in one run of each (``sys.setprofile``: a figure the
machine's load does not move).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.reference import cpu_reference  # noqa: E402


class Meter:
    """Wraps ``play_fixture`` where the season modules call it and adds up its CPU seconds and matches."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.matches = 0
        self.calls = 0
        self.counting = False

    def wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` timed (and its calls counted while :attr:`counting`)."""
        def timed(*args: Any, **kwargs: Any) -> Any:
            if self.counting:
                return self._counted(fn, *args, **kwargs)
            began = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds += time.process_time() - began
                self.matches += 1
        return timed

    def _counted(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        def hook(frame: Any, event: str, arg: Any) -> None:
            if event == "call" or event == "c_call":
                self.calls += 1
        sys.setprofile(hook)
        try:
            return fn(*args, **kwargs)
        finally:
            sys.setprofile(None)
            self.matches += 1


def install(meter: Meter) -> None:
    """Route the season's calls of ``play_fixture`` through ``meter``."""
    from anko_writer.rulesets.purasbar.season import cupmonth, league_month, matchday

    plain = matchday.play_fixture
    league_month.play_fixture = meter.wrap(plain)  # type: ignore[assignment]
    cupmonth.play_fixture = meter.wrap(plain)  # type: ignore[assignment]


def season(campaign: Any, loaded: Any, number: int, publish: bool) -> None:
    """Play season ``number`` from the campaign's start (a season after the first starts from the one before's
    end, played here unmeasured)."""
    from anko_writer.arcs import handed_state
    from anko_writer.chapters import ChapterKey

    start = None
    for s in range(1, number + 1):
        run = loaded.ruleset.play(campaign, ChapterKey(s, 12), loaded.resources, start=start, publish=publish,
                                  keep_state=False, hand_state=s < number)
        if s < number:
            start = (s, handed_state(run))


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the benchmark and print plain text."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("campaign", nargs="?", type=Path, default=ROOT / "campaigns" / "recht.yaml")
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each mode (default 5)")
    parser.add_argument("--season", type=int, default=1, help="the season played (default 1)")
    parser.add_argument("--calls", action="store_true", help="also count the calls inside play_fixture")
    args = parser.parse_args(argv)
    from anko_writer.audit.runner import _loaded
    from anko_writer.campaign import load_campaign

    campaign = load_campaign(args.campaign)
    loaded = _loaded(campaign)
    meter = Meter()
    install(meter)
    gc.disable()
    season(campaign, loaded, args.season, True)  # warm: tables, caches, compiled code
    results: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    matches = 0
    for _ in range(max(1, args.runs)):
        for publish in (True, False):
            gc.collect()
            ref = cpu_reference()
            meter.seconds = 0.0
            meter.matches = 0
            season(campaign, loaded, args.season, publish)
            results[publish].append((meter.seconds, meter.seconds / ref))
            matches = meter.matches
    print(f"campaign: {args.campaign.name}   season {args.season}   {matches} matches a season   "
          f"{max(1, args.runs)} runs")
    for publish, label in ((True, "published"), (False, "lean")):
        secs = [s for s, _ in results[publish]]
        ratios = [r for _, r in results[publish]]
        print(f"  {label:<9} CPU in play_fixture: min {min(secs):.4f} s  median {statistics.median(secs):.4f} s"
              f"   × reference: min {min(ratios):.3f}  median {statistics.median(ratios):.3f}")
    if args.calls:
        meter.counting = True
        for publish, label in ((True, "published"), (False, "lean")):
            meter.calls = 0
            season(campaign, loaded, args.season, publish)
            print(f"  {label:<9} calls inside play_fixture: {meter.calls:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
