"""Write every shipped ruleset's output into one folder, to compare before and after a change that must
not move a byte (a refactor): ``python benchmarks/snapshot.py OUT`` then ``diff -r OUT_BEFORE OUT_AFTER``.

- 群英杯: the built-in ``campaigns/recht.yaml`` and two generated ones (雷希特 with the seeds of
  :data:`SEEDS`), each played through the CLI season after season, each season from the previous one's
  ``state-end.yaml``, exactly as a host would;
- Blood Bowl and BALL: a campaign made by ``new`` (chapter 0 included) for each of :data:`OTHERS`, played
  for :data:`ARCS` arcs, with ``reveal_delay: 2`` as well for Blood Bowl;
- every campaign's chapters exported under every shipped profile, in both scripts for NGA, and
  ``verify`` run over the whole folder (its report is kept).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from typer.testing import CliRunner  # noqa: E402

from anko_writer.cli import app  # noqa: E402
from anko_writer.resources import Resources  # noqa: E402
from anko_writer.rulesets.purasbar import RULESET  # noqa: E402

SEEDS = (1, 8)
"""Generated campaigns: 1 wins the cup, 8 loses a knockout shoot-out in sudden death in season 1 (tests/util.py PINNED)."""
SEASONS = 3
ARCS = 2
OTHERS = {
    "bb-dwarf": ("bloodbowl", 730418526190374455, ["team=铁砧", "race=dwarf"]),
    "bb-orc": ("bloodbowl", 506843264357733541, ["team=红牙", "race=orc"]),
    "ball-atk": ("ball", 213889199080781085, ["side=ATK"]),
    "ball-def": ("ball", 213889199080781086, ["side=DEF", "cards=on"]),
    "sanguo": ("sanguo", 213889199080781087, []),
}
"""The Blood Bowl, BALL and 三国 campaigns: folder → (ruleset, seed, ``new --option`` values)."""


def campaigns(folder: Path) -> list[Path]:
    """The built-in campaign and one generated campaign per seed, each in its own folder."""
    out = []
    built_in = folder / "recht" / "recht.yaml"
    built_in.parent.mkdir(parents=True)
    shutil.copy(ROOT / "campaigns" / "recht.yaml", built_in)
    out.append(built_in)
    for seed in SEEDS:
        made = RULESET.new_campaign({"city": "雷希特"}, seed, Resources("purasbar", None))
        path = folder / f"seed{seed}" / made.filename
        path.parent.mkdir(parents=True)
        path.write_text(made.yaml_text, encoding="utf-8")
        out.append(path)
    return out


def _run(*args: str | Path) -> str | None:
    """Run one CLI command; its output, or None (after printing why) if it failed."""
    res = CliRunner().invoke(app, [str(a) for a in args])
    if res.exit_code != 0:
        print(f"error: {' '.join(map(str, args))}: {res.output}", file=sys.stderr)
        return None
    return res.output


def others(folder: Path) -> list[Path] | None:
    """The Blood Bowl, BALL and 三国 campaigns made by ``new`` (plus a ``reveal_delay: 2`` copy of each Blood Bowl
    one); None if ``new`` failed."""
    out = []
    for name, (ruleset, seed, options) in OTHERS.items():
        flags = [f for o in options for f in ("--option", o)]
        if _run("new", folder / name, "--ruleset", ruleset, "--seed", seed, *flags) is None:
            return None
        camp = next((folder / name).glob("*.yaml"))
        if ruleset == "ball":  # two games, so the second arc exists
            camp.write_text(camp.read_text(encoding="utf-8").replace("games: 1 ", "games: 2 "), encoding="utf-8")
        out.append(camp)
        if ruleset == "bloodbowl":
            slow = folder / f"{name}-delay2" / camp.name
            slow.parent.mkdir()
            slow.write_text(camp.read_text(encoding="utf-8").replace("reveal_delay: 1", "reveal_delay: 2"),
                            encoding="utf-8")
            out.append(slow)
    return out


def export_all(out: Path) -> bool:
    """Export ``out`` under every shipped profile (NGA in both scripts) and keep ``verify``'s report."""
    from anko_writer.export.profile import shipped

    for profile in shipped():
        if _run("export", out, "--forum", profile) is None:
            return False
    if _run("export", out, "--forum", "nga", "--script", "hant") is None:
        return False
    report = _run("verify", out)
    if report is None:
        return False
    (out.parent / "verify.txt").write_text(report.replace(str(out.parent), "OUT"), encoding="utf-8")
    return True


def main(target: Path) -> int:
    """Play every campaign into ``target/<campaign>/out`` and export it; 1 if a command failed."""
    if target.exists():
        print(f"error: {target} exists; give a new folder", file=sys.stderr)
        return 1
    for camp in campaigns(target):
        for season in range(1, SEASONS + 1):
            if _run("season", camp, "--season", season, "--out", camp.parent / "out") is None:
                return 1
        if not export_all(camp.parent / "out"):
            return 1
        print(f"wrote {camp.parent / 'out'}")
    more = others(target)
    if more is None:
        return 1
    for camp in more:
        for arc in range(1, ARCS + 1):
            if _run("arc", camp, "--arc", arc, "--out", camp.parent / "out") is None:
                return 1
        if not export_all(camp.parent / "out"):
            return 1
        print(f"wrote {camp.parent / 'out'}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(Path(sys.argv[1])))
