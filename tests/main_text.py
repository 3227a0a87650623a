"""The lines of a chapter a reader sees in the post's body: outside code blocks and outside every container
(``::: fold`` … ``:::``, ``:::: vote`` … ``::::``). Prose tests of every ruleset read chapters through it.

>>> list(main_lines("甲\\n::: fold 骰子\\n乙\\n:::\\n```\\n丙\\n```\\n:::: vote\\n丁\\n::::\\n戊"))
['甲', '戊']
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_OPEN = re.compile(r"^:{3,}\s*[^:\s]")
"""A container's opening line: ``::: fold 标题``, ``:::: vote``."""


def main_lines(md: str) -> Iterator[str]:
    """The lines of ``md`` outside code blocks and containers, as written (not stripped)."""
    depth, code = 0, False
    for line in md.splitlines():
        s = line.strip()
        if s.startswith("```"):
            code = not code
            continue
        if code:
            continue
        if s.startswith(":::"):
            depth = depth + 1 if _OPEN.match(s) else max(0, depth - 1)
            continue
        if not depth:
            yield line


__all__ = ["main_lines"]
