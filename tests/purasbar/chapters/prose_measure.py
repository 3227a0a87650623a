"""How varied a season's prose reads (issue 15): the narrative sentences a reader sees in the month chapters.

A month chapter's narrative is what is left after dropping fold contents (``::: fold`` … ``:::``, nested
``::::`` blocks such as the vote), headings, table rows, code blocks, dice and formula lines (a 「…＝…」 in
the line), pure labels (a line that is only a bold label ending in ：) and the lines the tool writes for
the forum (``【…】``, ``---``); the rest is split after 。！？ and sentences of six characters or more count.

>>> md = "# 标题\\n\\n我们赢了这场比赛。我们赢了这场比赛！\\n\\n::: fold 骰子\\n\\n折叠里的句子不算。\\n\\n:::\\n\\n**进球**：\\n"
>>> narrative(md)
['我们赢了这场比赛。', '我们赢了这场比赛！']
>>> round(distinct_ratio(["甲乙丙丁戊己。", "甲乙丙丁戊己。", "庚辛壬癸子丑。"]), 3)
0.667
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository's root holds the ``tests`` package
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.main_text import main_lines  # noqa: E402

MIN_CHARS = 6
"""Shorter sentences (「好球！」) do not count."""

_LABEL = re.compile(r"^[-*\s]*\*\*[^*]+\*\*[：:]$")
_SPLIT = re.compile(r"(?<=[。！？])")
_FORMULA = re.compile(r"「[^」]*＝[^」]*」")


def narrative(md: str, *, with_digits: bool = True) -> list[str]:
    """The narrative sentences of one chapter, in order (``with_digits=False``: leave out sentences with a
    digit, as the first rough count did)."""
    out: list[str] = []
    for line in main_lines(md):
        s = line.strip()
        if not s or s.startswith(("#", "|", "【", "---")) or _FORMULA.search(s) or _LABEL.match(s):
            continue
        for sent in _SPLIT.split(s):
            sent = sent.strip().lstrip("-*> ").strip()
            if len(sent) >= MIN_CHARS and (with_digits or not re.search(r"\d", sent)):
                out.append(sent)
    return out


def season_sentences(folder: Path, *, with_digits: bool = True) -> list[str]:
    """The narrative sentences of a season's month chapters (``sNN/mMM.md``), month by month."""
    return [s for f in sorted(folder.glob("m[0-9][0-9].md"))
            for s in narrative(f.read_text(encoding="utf-8"), with_digits=with_digits)]


def distinct_ratio(sentences: Iterable[str]) -> float:
    """Distinct sentences over all sentences (1.0 for none)."""
    items = list(sentences)
    return len(set(items)) / len(items) if items else 1.0


def repeats(sentences: Iterable[str], top: int = 10) -> list[tuple[str, int]]:
    """The sentences said most often, with how often (more than once only)."""
    return [(s, n) for s, n in Counter(sentences).most_common(top) if n > 1]


def main(argv: list[str]) -> None:
    """Print each season folder's ratios (digits kept, digits dropped) and its top repeats."""
    for folder in sorted(Path(argv[0]).glob("s[0-9][0-9]")):
        full, bare = season_sentences(folder), season_sentences(folder, with_digits=False)
        print(f"{folder.name}: {distinct_ratio(full):.1%} of {len(full)}; without digits "
              f"{distinct_ratio(bare):.1%} of {len(bare)}")
        for s, n in repeats(full, int(argv[1]) if len(argv) > 1 else 8):
            print(f"  {n}× {s[:70]}")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
