"""Traditional script for exports (``--script hant``): OpenCC over everything except the seal and
reveal lines, which stay byte-identical so that ``verify`` still recomputes their commitments.

>>> line = "〔揭晓｜编号 s1/后卫#1｜1D100＝46｜盐 " + "0" * 32 + "〕"
>>> out = to_traditional("射门球员「1D100＝29」\\n" + line, "tw")
>>> out.splitlines()[0]
'射門球員「1D100＝29」'
>>> out.splitlines()[1] == line
True
"""

from __future__ import annotations

from functools import cache

import opencc

from ..hidden import hidden_spans

REGIONS = {"tw": "s2twp", "hk": "s2hk"}
"""``--region``: Taiwan standard with Taiwan phrases (軟體, 滑鼠), or Hong Kong standard."""


@cache
def _converter(config: str) -> opencc.OpenCC:
    """One OpenCC converter per config, built once."""
    return opencc.OpenCC(config)


def to_traditional(text: str, region: str = "tw") -> str:
    """``text`` in traditional script for ``region``, its seal and reveal lines untouched."""
    convert = _converter(REGIONS[region]).convert
    out: list[str] = []
    at = 0
    for start, end in hidden_spans(text):
        out += [convert(text[at:start]), text[start:end]]
        at = end
    out.append(convert(text[at:]))
    return "".join(out)


__all__ = ["REGIONS", "to_traditional"]
