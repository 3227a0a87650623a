"""Traditional script for exports (``--script hant``): OpenCC over everything except the seal and
reveal lines, which stay byte-identical so that ``verify`` still recomputes their commitments; the names of
the world (issue 28) converted as names — character by character, a transliterated 里 kept — and so spelled one
way throughout the export, whatever phrase OpenCC would have read them into.

>>> to_traditional("弗里茨在这里进球，洛伦茨助攻。", "tw", names=["弗里茨", "洛伦茨"])
'弗里茨在這裡進球，洛倫茨助攻。'

>>> line = "〔揭晓｜编号 s1/后卫#1｜1D100＝46｜盐 " + "0" * 32 + "〕"
>>> out = to_traditional("射门球员「1D100＝29」\\n" + line, "tw")
>>> out.splitlines()[0]
'射門球員「1D100＝29」'
>>> out.splitlines()[1] == line
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache

import opencc

from ..hidden import hidden_spans

REGIONS = {"tw": "s2twp", "hk": "s2hk"}
"""``--region``: Taiwan standard with Taiwan phrases (軟體, 滑鼠), or Hong Kong standard."""


@cache
def _converter(config: str) -> opencc.OpenCC:
    """One OpenCC converter per config, built once."""
    return opencc.OpenCC(config)


KEEP_IN_NAMES = frozenset("里于余范沈")
"""Characters a name keeps as written: 里 of a transliteration (弗里茨), and surnames OpenCC would read as words."""
_PRIVATE = 0xE000
"""Names stand in the text as private-use characters while OpenCC runs (it leaves them alone)."""
_NAME = re.compile(r"[\u4e00-\u9fff·]{2,12}")


def as_name(name: str, region: str = "tw") -> str:
    """A name in traditional script: each character alone (no phrase rules), :data:`KEEP_IN_NAMES` kept.

    >>> as_name("弗里茨"), as_name("洛伦茨"), as_name("赫尔穆特")
    ('弗里茨', '洛倫茨', '赫爾穆特')
    """
    convert = _converter(REGIONS[region]).convert
    return "".join(ch if ch in KEEP_IN_NAMES else convert(ch) for ch in name)


def traditional(region: str = "tw", names: Iterable[str] = ()) -> Callable[[str], str]:
    """:func:`to_traditional` for ``region`` and ``names`` with its converter and names' pattern prepared once: an
    export converts every page and post, and the roll ledger each distinct cell, with the same names."""
    convert = _converter(REGIONS[region]).convert
    known = sorted({n for n in names if _NAME.fullmatch(n)}, key=len, reverse=True)[:6000]
    if known:
        slot = {n: chr(_PRIVATE + i) for i, n in enumerate(known)}
        back = {v: as_name(k, region) for k, v in slot.items()}
        pattern = re.compile("|".join(map(re.escape, known)))

        def convert_text(part: str) -> str:
            hidden = pattern.sub(lambda m: slot[m[0]], part)
            return "".join(back.get(ch, ch) for ch in convert(hidden))
    else:
        def convert_text(part: str) -> str:
            return str(convert(part))

    def to_script(text: str) -> str:
        out: list[str] = []
        at = 0
        for start, end in hidden_spans(text):
            out += [convert_text(text[at:start]), text[start:end]]
            at = end
        out.append(convert_text(text[at:]))
        return "".join(out)
    return to_script


def to_traditional(text: str, region: str = "tw", names: Iterable[str] = ()) -> str:
    """``text`` in traditional script for ``region``, its seal and reveal lines untouched and ``names`` converted
    as names (:func:`as_name`)."""
    return traditional(region, names)(text)


__all__ = ["KEEP_IN_NAMES", "REGIONS", "as_name", "to_traditional", "traditional"]
