"""Write the 群英杯 output of three campaigns × three seasons into one folder, to compare before and after
a change that must not move a byte (a refactor): ``python benchmarks/snapshot.py OUT`` then
``diff -r OUT_BEFORE OUT_AFTER``.

The campaigns: the built-in ``campaigns/recht.yaml`` and two generated ones (雷希特 with the seeds of
:data:`SEEDS`), each played through the CLI season after season, each season from the previous one's
``state-end.yaml``, exactly as a host would.
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

SEEDS = (8, 188)
"""Generated campaigns: 8 wins the cup, 188 loses a knockout shoot-out in sudden death (tests/util.py)."""
SEASONS = 3


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


def main(target: Path) -> int:
    """Play every campaign's seasons into ``target/<campaign>/out``; 1 if a command failed."""
    if target.exists():
        print(f"error: {target} exists; give a new folder", file=sys.stderr)
        return 1
    for camp in campaigns(target):
        for season in range(1, SEASONS + 1):
            res = CliRunner().invoke(app, ["season", str(camp), "--season", str(season),
                                           "--out", str(camp.parent / "out")])
            if res.exit_code != 0:
                print(f"error: {camp} season {season}: {res.output}", file=sys.stderr)
                return 1
        print(f"wrote {camp.parent / 'out'}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(Path(sys.argv[1])))
