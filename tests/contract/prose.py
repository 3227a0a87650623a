"""No English and no code in a chapter's main text: every ASCII token a reader sees in the post's body must
have one of the shapes forum dice threads use, or be one of the ruleset's own words.

The allowed shapes, read off what the shipped rulesets' chapters legitimately print:

- numbers, signed or with a percent: ``12``, ``1,250,000``, ``−3``, ``45%``;
- dice notation: ``D100``, ``1D6``, ``2D6+1``, ``D68``;
- short codes of capitals and digits: positions and stats (``GK``, ``PA``, ``AI``), pieces and squares
  (``X1``, ``B12``), table column codes; lower-case pieces (``x1``) and chapter or ballot keys (``g1t1``,
  ``s1h1``); a move ``E5-G7``;
- formulas: a variable (``k``, ``k/2``), parentheses around numbers (``(50 + 1D50) / 100``), lone
  operators (``=``, ``+``, ``×``, ``/``); a single letter (a grid's column);
- the index of a roll id (``骰子#1`` in a seal line's example);
- money units (``P$``) and Markdown's own marks (``**``, ``#``, ``-``, ``|``, ``1.``, an image's ``![…]``);
- a symbol a legend explains (``_ 表示倒地``);
- the words of :attr:`RulesetInfo.allowed_words <anko_writer.info.RulesetInfo.allowed_words>` (``ATK``, ``SPP``).

What the body of a post never holds is scrubbed first, as :func:`anko_writer.render.find_problems` does: dice
lines 「…」, seal and reveal lines 〔…〕, inline code, link targets, hashes; code blocks and containers (folds,
the vote) are not main text (:func:`tests.main_text.main_lines`).

>>> code_words("前锋（ATK 52）「3D100＝57」，1,250,000 P$。X1 移动，B12 → B14（`O1 B12-B14`）。", {"ATK"})
[]
>>> code_words("状态：None，True。{{ 人 }} self._x {'a': 1} Roll(id=3) player_name", set())
['None', 'True', '{{', '}}', 'self._x', "{'a':", '1}', 'Roll(id=3)', 'player_name']
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from anko_writer.render import _scrub
from tests.main_text import main_lines

_TOKEN = re.compile(r"[!-~]+")
"""A run of printable ASCII (no space)."""
_ATOM = r"""(?:
    \d*D\d+(?:[+\-]\d+)?                # dice notation
  | [+\-−]?\d[\d,.]*                    # numbers
  | [A-Z]{1,3}\d{0,3}                   # codes, pieces, squares
  | (?:[a-z]\d+){2} | [a-z]\d{1,2}      # chapter and ballot keys; lower-case pieces
  | [A-Za-z]                            # a formula's variable; a grid's column
)"""
_SHAPES = re.compile(rf"""
    [×/*]?\(*{_ATOM}%?\)*(?:[+\-×/*]\(*{_ATOM}%?\)*)*   # an atom, or a formula of atoms: (50, k/2, 1D100/250)
  | [A-Z]\d{{1,2}}-[A-Z]\d{{1,2}}           # a move between squares
  | P\$
  | [A-Za-z0-9/\-]*\#\d+                # a roll id's index (a seal line's example: 骰子#1)
  | [#*\-|>+=×/~.:<()%]+ | \d+\. | !?\[ | \]  # Markdown marks, lone operators, list numbers, an image's brackets
""", re.VERBOSE)
_EMPHASIS = "*"
_LEGEND = re.compile(r"\s*表示")
"""After a symbol a legend explains."""


def code_words(md: str, allowed: Iterable[str]) -> list[str]:
    """The ASCII tokens of ``md``'s main text that are neither a forum-standard shape nor an ``allowed`` word."""
    words = set(allowed)
    found: list[str] = []
    for line in main_lines(md):
        text = _scrub(line)
        for m in _TOKEN.finditer(text):
            token = m.group().strip(_EMPHASIS) or m.group()
            if _SHAPES.fullmatch(token) or token in words:
                continue
            if len(token) <= 2 and not token.isalnum() and "{" not in token and _LEGEND.match(text, m.end()):
                continue
            found.append(token)
    return found


__all__ = ["code_words"]
