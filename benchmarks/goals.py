"""Issue 29's goals, each as a measured ratio beside its target: whole processes paired with the reference.

Usage: ``python benchmarks/goals.py [CAMPAIGN] [--pairs N] [--only NAME …] [--no-delegates]`` (default
``campaigns/recht.yaml``, 5 counted pairs after one warm-up pair). The 三国 and 接战 lines play their own shipped
campaigns (:data:`SANGUO`, :data:`ENGAGE`): one scene, one battle (``arc --arc 1``).

The reference is :mod:`benchmarks.reference`'s loop, one million ``random.randint(1, 100)`` calls, run as its
own process (:data:`REFERENCE`, the issue's command), because every goal is a whole process: a host waits for
the interpreter, the imports and the cache as well. Each pair runs the reference, then the case, in that order
(interleaved, so a change in the machine's load hits both); each pair has an untimed set-up (an empty output
folder, months 1–11 written, an empty cache folder). The time is CPU (user + system of the child, from
``os.wait4``), steadier than wall time on a shared machine; the printed figure is the median of the pairs'
ratios, with their minimum. Processes run from this checkout with a private cache folder warmed once, so
"warm" is a host's second run and "cold" an empty cache (the first run after an install or upgrade): the
checkout's ``anko_writer/_prebuilt`` is built first by ``tools/prebuild.py``, as the wheel's hook builds it.

The goals of other parts (the audit's seasons per second, Blood Bowl against botbowl, BALL against
python-chess) are measured by their own scripts: a line runs the script when it exists and prints its last
line, else says "not measured".
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
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SANGUO = ROOT / "campaigns" / "sanguo" / "changshe.yaml"
"""The shipped 三国 campaign (黄巾之乱): scene 1, 长社之战, is 16 chapters (turns) and its end."""
ENGAGE = ROOT / "campaigns" / "engage" / "river.yaml"
"""The shipped 接战 campaign (渡口之战): battle 1 is 4 rounds and its end."""

REFERENCE = (sys.executable, "-c", "import random; r=random.randint; [r(1,100) for _ in range(1000000)]")
"""The reference process of issue 29 (:func:`benchmarks.reference.reference`'s loop, as a process)."""

Setup = Callable[[Path], None]
"""Untimed work before a timed run, given the pair's empty temporary folder."""


@dataclass(frozen=True)
class Goal:
    """One goal: the timed command (``{tmp}`` and ``{campaign}`` filled in), its set-up and its target."""

    name: str
    args: tuple[str, ...]
    target: float
    setup: Setup | None = None
    cold: bool = False
    """Run with an empty cache folder of its own (inside the pair's temporary folder)."""


@dataclass(frozen=True)
class Delegate:
    """A goal measured by another script: the first of ``scripts`` that exists is run with ``args``."""

    name: str
    target: str
    scripts: tuple[str, ...]
    args: tuple[str, ...] = ()


def _env(cache: Path) -> dict[str, str]:
    """The children's environment: this checkout first on the path, bytecode on, the given cache folder."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env["ANKO_WRITER_CACHE"] = str(cache)
    return env


def cpu(argv: Sequence[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one child process, which must succeed."""
    proc = subprocess.Popen(list(argv), cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {err[-2000:]}")
    return usage.ru_utime + usage.ru_stime


def padded(name: str, width: int = 22) -> str:
    """``name`` padded to ``width`` terminal columns (a CJK character takes two)."""
    used = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in name)
    return name + " " * max(0, width - used)


def anko(*args: str) -> tuple[str, ...]:
    """The command line ``python -m anko_writer ARGS``."""
    return (sys.executable, "-m", "anko_writer", *args)


def goals(campaign: Path) -> list[Goal]:
    """Issue 29's whole-process goals."""
    c = str(campaign)

    def months_1_to_11(tmp: Path) -> None:
        subprocess.run(anko("month", c, "--season", "1", "--month", "11", "--out", str(tmp / "out")),
                       check=True, capture_output=True, cwd=ROOT, env=_env(tmp.parent / "cache"))

    season = ("season", c, "--season", "1", "--out", "{tmp}/out")
    return [
        Goal("season 1, warm", season, 1.5),
        Goal("season 1, cold", season, 2.5, cold=True),
        Goal("month 12 after 11", ("month", c, "--season", "1", "--month", "12", "--out", "{tmp}/out"), 1.0,
             setup=months_1_to_11),
        Goal("--version", ("--version",), 0.3),
        Goal("check", ("check", c), 0.3),
        # DESIGNED: a scene (三国) and a battle (接战) are their host's unit of work, as a month is the 群英杯's:
        # the same target as `month 12 after 11` (issue 29: "三国 and 接战 join benchmarks/ … a figure per scene
        # or battle"); the first pair, a warm-up, fills the cache
        Goal("三国 scene 1", ("arc", str(SANGUO), "--arc", "1", "--out", "{tmp}/out"), 1.0),
        Goal("接战 battle 1", ("arc", str(ENGAGE), "--arc", "1", "--out", "{tmp}/out"), 1.0),
    ]


DELEGATES = (
    Delegate("audit seasons/s", "≥ 12 seasons/s", ("benchmarks/audit.py",)),
    Delegate("Blood Bowl per game", "≤ botbowl", ("benchmarks/bloodbowl_engine.py",)),
    Delegate("BALL nodes/s", "≥ python-chess perft", ("benchmarks/ball_perft.py",)),
)
"""The goals other parts measure, by the scripts they write."""


def measure(goal: Goal, work: Path, pairs: int) -> list[tuple[float, float]]:
    """The CPU seconds (case, reference) of ``pairs`` counted pairs (after one warm-up pair)."""
    ratios = []
    for i in range(pairs + 1):
        tmp = Path(tempfile.mkdtemp(dir=work))
        cache = tmp / "cache" if goal.cold else work / "cache"
        if goal.setup is not None:
            goal.setup(tmp)
        argv = anko(*(a.format(tmp=tmp) for a in goal.args))
        ref = cpu(REFERENCE, _env(cache))
        took = cpu(argv, _env(cache))
        shutil.rmtree(tmp, ignore_errors=True)
        if i:
            ratios.append((took, ref))
    return ratios


def delegate(d: Delegate) -> str:
    """The last line the delegate's script prints, or "not measured"."""
    for script in d.scripts:
        if (ROOT / script).is_file():
            done = subprocess.run([sys.executable, script, *d.args], capture_output=True, text=True, cwd=ROOT,
                                  env={**os.environ, "PYTHONPATH": str(ROOT)})
            lines = (done.stdout or done.stderr).strip().splitlines()
            return f"{script}: {lines[-1] if lines else 'no output'}"
    return "not measured (no " + " or ".join(d.scripts) + ")"


def main(argv: list[str] | None = None) -> int:
    """Measure every goal (or ``--only`` some) and print each ratio beside its target."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("campaign", nargs="?", type=Path, default=ROOT / "campaigns" / "recht.yaml")
    parser.add_argument("--pairs", type=int, default=5, help="counted pairs per goal (default 5)")
    parser.add_argument("--only", nargs="*", default=None, help="goal names (or a prefix) to measure")
    parser.add_argument("--no-delegates", action="store_true", help="skip the other parts' scripts")
    args = parser.parse_args(argv)
    campaign = args.campaign.resolve()
    # what a wheel ships built (the compiled templates, the read phrase banks), built into this checkout as the
    # wheel's hook builds it, so "cold" is the first run after an install, not after a bare clone
    subprocess.run([sys.executable, "tools/prebuild.py"], check=True, capture_output=True, cwd=ROOT, env=_env(ROOT))
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        cpu(anko("check", str(campaign)), _env(work / "cache"))  # the warm cache: any earlier run fills it
        cpu(anko("season", str(campaign), "--season", "1", "--out", str(work / "warm")), _env(work / "cache"))
        print(f"{'goal':<22} {'median':>7} {'min':>6}   target   (CPU ratio to the reference process, "
              f"{args.pairs} pairs)")
        for goal in goals(campaign):
            if args.only is not None and not any(goal.name.startswith(o) for o in args.only):
                continue
            began = time.perf_counter()
            pairs = measure(goal, work, max(1, args.pairs))
            ratios = [took / ref for took, ref in pairs]
            mark = "met" if statistics.median(ratios) <= goal.target else "not met"
            print(f"{padded(goal.name)} {statistics.median(ratios):6.2f}× {min(ratios):5.2f}×   ≤ {goal.target}×   "
                  f"{mark:<7}  case {statistics.median(p[0] for p in pairs):.3f} s, reference "
                  f"{statistics.median(p[1] for p in pairs):.3f} s ({time.perf_counter() - began:.0f} s)", flush=True)
    if not args.no_delegates and args.only is None:
        for d in DELEGATES:
            print(f"{padded(d.name)} {d.target}: {delegate(d)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
