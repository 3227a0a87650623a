"""Repetition measured by sentence template (issue 27): the sentences of an arc's main text (outside folds, code
and the vote, :func:`tests.main_text.main_lines`), with the names the arc's JSON holds and every number replaced
by placeholders; the share of distinct templates and the most repeated ones.

>>> m = measure(["甲部攻乙部，折损3兵。丙部攻丁部，折损5兵。风平浪静。"], {"甲", "乙", "丙", "丁"})
>>> (m.sentences, m.distinct, m.top[0])
(3, 2, ('某部攻某部，折损#兵', 2))
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from anko_writer.chapters import strings_in
from tests.main_text import main_lines

_NUMBER = re.compile(r"[0-9０-９]+(?:\.[0-9]+)?|[零〇一二三四五六七八九十百千两]+")
_SEAL = re.compile(r"〔[^〕]*〕|「[^」]*＝[^」]*」")
_NAME = re.compile(r"[\u4e00-\u9fff·A-Za-z0-9]{2,12}")
_SKIP = ("#", "|", "!")


@dataclass(frozen=True)
class Variety:
    """How varied an arc's main text is: sentences, distinct templates, and the five most repeated."""

    sentences: int
    distinct: int
    top: list[tuple[str, int]]

    @property
    def share(self) -> float:
        """Distinct templates per sentence (1.0: no template repeats)."""
        return self.distinct / max(1, self.sentences)


def names_in(record: Any, out: set[str] | None = None) -> set[str]:
    """Every short name-like string of a JSON record (units, people, places)."""
    found = set() if out is None else out
    found.update(s for s in strings_in(record) if _NAME.fullmatch(s))
    return found


def sentences(md: str) -> list[str]:
    """The main text's sentences of four characters or more (headings and tables left out)."""
    text = "\n".join(ln for ln in main_lines(md) if ln.strip() and not ln.lstrip().startswith(_SKIP))
    text = _SEAL.sub("", text)
    return [s.strip(" -*\t") for s in re.split(r"[。！？；\n]", text) if len(s.strip(" -*\t")) >= 4]


def measure(posts: Iterable[str], names: Iterable[str]) -> Variety:
    """The variety of ``posts`` (Markdown), with ``names`` replaced by 某 and numbers by #."""
    known = sorted(set(names), key=len, reverse=True)
    pattern = re.compile("|".join(map(re.escape, known))) if known else None
    templates = []
    for md in posts:
        for s in sentences(md):
            t = pattern.sub("某", s) if pattern else s
            templates.append(_NUMBER.sub("#", t))
    counts = Counter(templates)
    return Variety(len(templates), len(counts), counts.most_common(5))


def measure_folder(folder: Path) -> Variety:
    """The variety of an arc's folder as written: every chapter but the index, names from its JSON."""
    mds = sorted(p for p in folder.glob("*.md") if p.name != "index.md")
    names: set[str] = set()
    for p in mds:
        if p.with_suffix(".json").is_file():
            names_in(json.loads(p.with_suffix(".json").read_text(encoding="utf-8")), names)
    return measure((p.read_text(encoding="utf-8") for p in mds), names)


__all__ = ["Variety", "measure", "measure_folder", "names_in", "sentences"]
