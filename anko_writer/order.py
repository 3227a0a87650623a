"""The posting order of the files under an output folder: arcs in order, an arc's parts in order,
then its settlement (``end``), then its index; files outside any arc folder come first.

>>> from pathlib import PurePosixPath as P
>>> files = ["s01/index.md", "s01/m10.md", "s01/end.md", "s01/m02.md", "s02/m01.md", "rules.md"]
>>> sorted(files, key=lambda f: place(P(f)))
['rules.md', 's01/m02.md', 's01/m10.md', 's01/end.md', 's01/index.md', 's02/m01.md']
>>> place(P("export/nga/s01/003-m02-1.bbcode"))[0]
'export/nga'
"""

from __future__ import annotations

import re
from pathlib import PurePath

ARC_DIR = re.compile(r"[a-z]{1,3}\d+")
"""An arc's folder as a ruleset's key style writes it: ``s01`` (a season), ``d01``, ``m03`` …"""
_DIGITS = re.compile(r"(\d+)")
RANK = {"end": 1, "index": 2}
"""Within an arc: parts first, then the settlement, then the index."""

Order = tuple[tuple[tuple[str | int, ...], ...], int, tuple[str | int, ...]]
"""A sort key: the arc folders' natural keys, the rank, the file stem's natural key."""


def natural(text: str) -> tuple[str | int, ...]:
    """``m10`` after ``m9``: digit runs compare as numbers (every key starts with a string)."""
    return tuple(int(p) if p.isdigit() else p for p in _DIGITS.split(text))


def place(rel: PurePath) -> tuple[str, Order]:
    """The series of a file and its order in it: ``s01/m03.md`` is in the chapters' series; an export
    ``export/nga/…`` is its own series."""
    parts = rel.parts[:-1]
    cut = next((i for i, p in enumerate(parts) if ARC_DIR.fullmatch(p)), len(parts))
    return "/".join(parts[:cut]), (tuple(natural(p) for p in parts[cut:]), RANK.get(rel.stem, 0), natural(rel.stem))


def is_arc_dir(name: str) -> bool:
    """True for an arc folder's name (``s01``)."""
    return ARC_DIR.fullmatch(name) is not None


__all__ = ["ARC_DIR", "Order", "RANK", "is_arc_dir", "natural", "place"]
