"""Time what a host waits for, as whole processes, beside a reference loop run in the same session.

Usage: ``python benchmarks/process.py [CAMPAIGN] [--runs N]`` (default ``campaigns/recht.yaml``, 3 runs).
Each case runs the real command line (``python -m anko_writer …``) in a fresh temporary folder, so
imports, table loading, simulation, rendering, writing and (for chained seasons) re-reading the previous
season's ``state-end.yaml`` are all counted. The reference is one million ``random.randint(1, 100)``
calls in this process; every time is printed as a ratio to it, beside issue 14's target:

- ``season 1``: ``season --season 1`` on an empty folder, the disk cache warm (a host's second run on);
- ``season 1, cold cache``: the same with an empty cache folder (the first run after an install or edit);
- ``season 2 after 1``: ``season --season 2`` with season 1 written (reads its state file);
- ``season 6, empty ÷ 6``: ``season --season 6`` on an empty folder (plays seasons 1–5 in memory first),
  divided by 6: a further season must cost no more than season 1;
- ``month 12 after 11``: the monthly habit, ``month --month 12`` after ``month --month 11``;
- ``month 12, empty``: ``month --month 12`` with no checkpoint to resume from;
- ``export nga``: ``export --forum nga`` of season 1.

Processes run with bytecode caching on (``PYTHONDONTWRITEBYTECODE`` unset), as an installed package runs.
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
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.reference import reference  # noqa: E402

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""The processes' environment: as the host's, with bytecode written and read."""


def _run(*args: str, cache: Path | None = None) -> float:
    """Seconds for one ``python -m anko_writer ARGS`` process (it must succeed)."""
    env = ENV if cache is None else {**ENV, "ANKO_WRITER_CACHE": str(cache)}
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "anko_writer", *args], check=True, capture_output=True, cwd=ROOT, env=env)
    return time.perf_counter() - t


Case = Callable[[Path], float]


def cases(campaign: Path) -> dict[str, tuple[Case, str]]:
    """Each case: given an empty temporary folder, the seconds its timed command took; and its target."""
    def season(tmp: Path, n: int, cache: Path | None = None) -> float:
        return _run("season", str(campaign), "--season", str(n), "--out", str(tmp / "out"), cache=cache)

    def month(tmp: Path, n: int) -> float:
        return _run("month", str(campaign), "--season", "1", "--month", str(n), "--out", str(tmp / "out"))

    def season2(tmp: Path) -> float:
        season(tmp, 1)
        return season(tmp, 2)

    def month12(tmp: Path) -> float:
        month(tmp, 11)
        return month(tmp, 12)

    def month12_empty(tmp: Path) -> float:
        return _run("month", str(campaign), "--season", "1", "--month", "12", "--out", str(tmp / "out"),
                    cache=tmp / "no-cache")

    def export(tmp: Path) -> float:
        season(tmp, 1)
        return _run("export", str(tmp / "out"), "--forum", "nga")

    return {
        "season 1": (lambda tmp: season(tmp, 1), "≤ 1.5×"),
        "season 1, cold cache": (lambda tmp: season(tmp, 1, cache=tmp / "cache"), ""),
        "season 2 after 1": (season2, "≤ season 1"),
        "season 6, empty ÷ 6": (lambda tmp: season(tmp, 6) / 6, "≤ season 1"),
        "month 12 after 11": (month12, "≤ ⅓ season 1"),
        "month 12, empty": (month12_empty, ""),
        "export nga": (export, ""),
    }


def main() -> None:
    """Print each case's median process time and its ratio to the reference loop."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("campaign", nargs="?", default=str(ROOT / "campaigns" / "recht.yaml"))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    campaign = Path(args.campaign).resolve()
    _run("check", str(campaign))  # warm the bytecode and the disk cache, as any earlier run would
    ref = statistics.median(reference() for _ in range(args.runs))
    print(f"reference loop (1e6 randint): {ref:.3f} s")
    for name, (case, target) in cases(campaign).items():
        times = []
        for _ in range(args.runs):
            tmp = Path(tempfile.mkdtemp())
            try:
                times.append(case(tmp))
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        took = statistics.median(times)
        print(f"{name:22s} {took:8.2f} s   {took / ref:6.2f}× reference   {target}")


if __name__ == "__main__":
    main()
