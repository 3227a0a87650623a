"""Time ``anko-writer audit``: simulate-only replicate seasons, nothing rendered (issue 29's audit goals).

Usage: ``python benchmarks/audit.py [CAMPAIGN] [--seasons N] [--jobs J] [--per-run 1 5 20]`` (default
``campaigns/recht.yaml``, 40 seasons, 2 jobs, seasons per run 1, 5 and 20). For each ``--seasons-per-run`` K
the audit plays N seasons (N / K replicates of K chained seasons) in a fresh child process, as the command
does (the campaign and its tables loaded once, the report built and written to a temporary folder), and
prints:

- seasons per second (wall) beside the goal, **≥ 12 seasons/s** with ``--jobs 2`` on a 2-core machine;
- CPU seconds per season (the child and its workers, ``os.times``) as a ratio to the reference loop
  (:func:`benchmarks.reference.reference`, one million ``randint`` calls) run before and after it, the
  cheaper of the two taken, so the figure compares across machines and loads;
- the peak RSS of the audit process and of its largest worker (``ru_maxrss``), beside the goal: **flat in K**.

The wall rate needs both cores free: the load average is printed beside it. Seasons per CPU-second × 2 is
what two free cores would give at most (the CPU includes the fixed cost: imports, workers, the report's plots).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.reference import cpu_reference  # noqa: E402

GOAL_RATE = 12.0
"""Issue 29: ``audit --jobs 2`` plays at least 12 seasons a second on this 2-core machine."""
PER_RUN = (1, 5, 20)
"""The ``--seasons-per-run`` values measured (memory must not grow with them)."""


def one(campaign: Path, seasons: int, per_run: int, jobs: int) -> dict[str, float]:
    """One audit of ``seasons`` seasons in this process: wall and CPU seconds, and peak RSS (MiB) of this
    process and of its largest reaped worker."""
    from anko_writer import audit
    from anko_writer.campaign import load_campaign

    began, cpu0 = time.perf_counter(), os.times()
    c = load_campaign(campaign)
    meta, sections = audit.audit(c, max(1, seasons // per_run), arcs=per_run, jobs=jobs)
    with tempfile.TemporaryDirectory() as tmp:
        audit.write_report(Path(tmp), meta, sections)
    wall, cpu1 = time.perf_counter() - began, os.times()
    cpu = sum(cpu1[:4]) - sum(cpu0[:4])  # user + system of this process and its reaped workers
    return {"wall": wall, "cpu": cpu, "rss_main": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "rss_worker": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}


def measure(campaign: Path, seasons: int, per_run: int, jobs: int) -> dict[str, float]:
    """:func:`one` in a fresh child process (so peak RSS is this configuration's alone), between two
    reference loops."""
    ref = cpu_reference()
    out = subprocess.run([sys.executable, __file__, str(campaign), "--one", str(per_run), "--seasons",
                          str(seasons), "--jobs", str(jobs)], capture_output=True, text=True, check=True)
    ref = min(ref, cpu_reference())
    return {**json.loads(out.stdout.strip().splitlines()[-1]), "ref": ref, "load": os.getloadavg()[0]}


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the benchmark and print plain text."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("campaign", nargs="?", type=Path, default=ROOT / "campaigns" / "recht.yaml")
    parser.add_argument("--seasons", type=int, default=40, help="seasons played per configuration (default 40)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--per-run", type=int, nargs="+", default=list(PER_RUN),
                        help="--seasons-per-run values (default 1 5 20)")
    parser.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)  # the child's own run
    args = parser.parse_args(argv)
    if args.one is not None:
        print(json.dumps(one(args.campaign, args.seasons, args.one, args.jobs)))
        return 0
    print(f"campaign: {args.campaign}   seasons {args.seasons} per configuration   jobs {args.jobs}")
    print(f"{'per run':>7} {'seasons/s':>9} {'goal':>5} {'load':>5} {'CPU s/season':>12} {'× ref':>6} "
          f"{'seasons/CPU-s':>13} {'RSS main':>8} {'RSS worker':>10}")
    rates: list[float] = []
    for k in args.per_run:
        played = max(1, args.seasons // k) * k
        r = measure(args.campaign, args.seasons, k, args.jobs)
        per = r["cpu"] / played
        rates.append(played / r["wall"])
        print(f"{k:>7} {played / r['wall']:>9.2f} {GOAL_RATE:>5.0f} {r['load']:>5.1f} {per:>12.3f} "
              f"{per / r['ref']:>6.2f} {played / r['cpu']:>13.2f} {r['rss_main']:>7.0f}M {r['rss_worker']:>9.0f}M")
    print(f"{min(rates):.2f}–{max(rates):.2f} seasons/s ({'met' if min(rates) >= GOAL_RATE else 'not met'}); "
          f"goal: ≥ 12 seasons/s with --jobs 2 on 2 free cores; RSS flat in seasons per run "
          "(reference loop: one million randint calls, the cheaper of the runs beside each configuration)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
