"""Time what a host waits for, as whole processes, beside a reference loop run in the same session.

Usage: ``python benchmarks/process.py [CAMPAIGN] [--runs N]`` (default ``campaigns/recht.yaml``, 3 runs).
Each case runs the real command line (``python -m anko_writer …``) in a fresh temporary folder, so
imports, table loading, simulation, rendering, writing and (for chained seasons) re-reading the previous
season's ``state-end.yaml`` are all counted. The reference is one million ``random.randint(1, 100)``
calls in this process; every time is printed as a ratio to it (issue 14's targets are ratios):

- ``season 1``: ``season --season 1`` on an empty folder;
- ``season 2 after 1``: ``season --season 2`` with season 1 already written (reads its state file);
- ``season 3, empty``: ``season --season 3`` on an empty folder (plays seasons 1–2 in memory first);
- ``month 12``: ``month --season 1 --month 12`` on an empty folder;
- ``export nga``: ``export --forum nga`` of season 1.
"""

from __future__ import annotations

import argparse
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



def _run(*args: str) -> float:
    """Seconds for one ``python -m anko_writer ARGS`` process (it must succeed)."""
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "anko_writer", *args], check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - t


def cases(campaign: Path) -> dict[str, Callable[[Path], float]]:
    """Each case: given an empty temporary folder, the seconds its timed command took."""
    def season1(tmp: Path) -> float:
        return _run("season", str(campaign), "--season", "1", "--out", str(tmp / "out"))

    def season2(tmp: Path) -> float:
        _run("season", str(campaign), "--season", "1", "--out", str(tmp / "out"))
        return _run("season", str(campaign), "--season", "2", "--out", str(tmp / "out"))

    def season3(tmp: Path) -> float:
        return _run("season", str(campaign), "--season", "3", "--out", str(tmp / "out"))

    def month12(tmp: Path) -> float:
        return _run("month", str(campaign), "--season", "1", "--month", "12", "--out", str(tmp / "out"))

    def export(tmp: Path) -> float:
        _run("season", str(campaign), "--season", "1", "--out", str(tmp / "out"))
        return _run("export", str(tmp / "out"), "--forum", "nga")

    return {"season 1": season1, "season 2 after 1": season2, "season 3, empty": season3, "month 12": month12,
            "export nga": export}


def main() -> None:
    """Print each case's median process time and its ratio to the reference loop."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("campaign", nargs="?", default=str(ROOT / "campaigns" / "recht.yaml"))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    campaign = Path(args.campaign).resolve()
    ref = statistics.median(reference() for _ in range(args.runs))
    print(f"reference loop (1e6 randint): {ref:.3f} s")
    for name, case in cases(campaign).items():
        times = []
        for _ in range(args.runs):
            tmp = Path(tempfile.mkdtemp())
            try:
                times.append(case(tmp))
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        took = statistics.median(times)
        print(f"{name:18s} {took:8.2f} s   {took / ref:6.2f}× reference")


if __name__ == "__main__":
    main()
