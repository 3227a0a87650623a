"""Build what the package ships built (:mod:`anko_writer.prebuilt`) into a checkout's ``anko_writer/_prebuilt/``.

``python tools/prebuild.py`` does for a checkout what the wheel's build hook (``hatch_build.py``) does for an
install: the shipped templates' compiled code and phrase banks as read, keyed by their source and the code that
makes them, so a run with an empty cache folder compiles and parses none of them. The folder is ignored by git; an entry whose template or
renderer has changed since is never read (it has another key), so running this again only makes it useful again.
``--check`` prints how many shipped templates the folder covers now and exits 1 when it misses one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from anko_writer import prebuilder, prebuilt  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Build (or with ``--check`` only measure) the checkout's folder; print one line a ruleset."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report what the folder covers, write nothing")
    parser.add_argument("--out", type=Path, default=prebuilt.FOLDER, help="the folder (default: the package's)")
    args = parser.parse_args(argv)
    if args.check:
        missing = prebuilder.missing(args.out)
        for name, template in missing:
            print(f"not built: {name} {template}")
        print(f"{len(missing)} shipped template(s) not covered by {args.out}")
        return 1 if missing else 0
    built = prebuilder.build(args.out)
    for name, template, why in built.skipped:
        print(f"left to compile at run time: {name} {template} ({why})")
    print(f"{prebuilder.summary(built)} in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
