"""Time ``anko-writer audit``: simulate-only replicate seasons, nothing rendered.

Usage: ``python benchmarks/audit.py [CAMPAIGN] [--seasons N] [--jobs J]`` (default ``campaigns/recht.yaml``,
40 seasons, 2 jobs). Runs the audit command in this interpreter (the campaign and its tables loaded once,
as the command does), writes its report to a temporary folder, and prints seasons per second and the
time per season as a ratio to :func:`benchmarks.reference.reference` (one million ``randint`` calls)
measured in the same session, so numbers compare across machines and loads.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from anko_writer import audit  # noqa: E402
from anko_writer.campaign import load_campaign  # noqa: E402
from benchmarks.reference import reference  # noqa: E402


def run(campaign: Path, seasons: int, jobs: int) -> float:
    """Seconds for one audit of ``seasons`` replicate seasons with ``jobs`` processes, report written."""
    c = load_campaign(campaign)
    began = time.perf_counter()
    meta, sections = audit.audit(c, seasons, jobs=jobs)
    with tempfile.TemporaryDirectory() as tmp:
        audit.write_report(Path(tmp), meta, sections)
    return time.perf_counter() - began


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the benchmark and print plain text."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("campaign", nargs="?", type=Path, default=ROOT / "campaigns" / "recht.yaml")
    parser.add_argument("--seasons", type=int, default=40, help="replicate seasons (default 40)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args(argv)
    ref = reference()
    took = run(args.campaign, args.seasons, args.jobs)
    rate = args.seasons / took
    print(f"campaign: {args.campaign}   seasons {args.seasons}   jobs {args.jobs}")
    print(f"audit: {took:.2f} s   {rate:.2f} seasons/s   "
          f"{took / args.seasons / ref:.2f} × reference per season (reference {ref:.3f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
