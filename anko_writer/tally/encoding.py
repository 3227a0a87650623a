"""The encoding of a replies file (issue 22): a Chinese forum page is often GBK (NGA serves GBK), a file a
Windows host saved from Notepad is GBK ("ANSI") or UTF-16, a Hong Kong or Taiwan page Big5.

In this order, the first that applies:

1. a byte order mark: UTF-8, UTF-16 (Notepad's "Unicode");
2. for a saved page, the charset it declares (``<meta charset=GBK>``, ``<meta http-equiv="Content-Type"
   content="text/html; charset=gbk">``), as a browser reads it: GBK and GB2312 as GB18030 (their superset),
   Big5 as Big5-HKSCS;
3. UTF-8, when the whole file decodes as UTF-8 (a text in another encoding almost never does);
4. GB18030 or Big5, whichever decodes the whole file and reads as more common Chinese: the share of its
   two-byte characters that are the encoding's frequent set (GB2312's level 1 hanzi and its punctuation rows;
   Big5's frequent hanzi and its punctuation rows). Text written in one reads in the other as rare characters
   or not at all, so the right one scores far higher; a tie goes to GB18030 (the mainland forums).

A file none of these decodes is one located error naming the byte, as before.

>>> decode_replies("【安价 s1m3】阵型：C".encode("gbk"), "r.txt")
('【安价 s1m3】阵型：C', 'GB18030')
>>> decode_replies("【安價 s1m3】陣型：C；老闆：放權".encode("big5"), "r.txt")
('【安價 s1m3】陣型：C；老闆：放權', 'Big5')
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from ..errors import InputError, Location
from ..textfile import decode

_META = re.compile(rb"""<meta\b[^>]*?charset\s*=\s*["']?\s*([a-z0-9_.:-]+)""", re.I)
"""A page's declared charset, in a ``<meta charset>`` or an ``http-equiv`` content type."""

_BROWSER = {"gbk": "gb18030", "gb2312": "gb18030", "x-gbk": "gb18030", "gb18030": "gb18030", "cp936": "gb18030",
            "euc-cn": "gb18030", "big5": "big5hkscs", "big5-hkscs": "big5hkscs", "x-x-big5": "big5hkscs",
            "cp950": "big5hkscs", "utf8": "utf-8", "utf-8": "utf-8"}
"""Declared names as a browser decodes them (WHATWG: GBK and GB2312 are GB18030's subsets, Big5 is read as
Big5-HKSCS)."""

SHOWN = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8", "utf-16": "UTF-16", "gb18030": "GB18030", "big5hkscs": "Big5"}
"""How the report names an encoding."""


def _frequent_gb(data: bytes) -> tuple[int, int]:
    """Two-byte characters read as GB18030: how many, and how many are GB2312 punctuation or level-1 hanzi."""
    total = good = 0
    i, n = 0, len(data)
    while i < n:
        b = data[i]
        if b < 0x80:
            i += 1
            continue
        if i + 1 < n and 0x30 <= data[i + 1] <= 0x39:  # a four-byte GB18030 sequence: rare
            total += 1
            i += 4
            continue
        t = data[i + 1] if i + 1 < n else 0
        total += 1
        if t >= 0xA1 and (0xA1 <= b <= 0xA9 or 0xB0 <= b <= 0xD7):
            good += 1
        i += 2
    return total, good


def _frequent_big5(data: bytes) -> tuple[int, int]:
    """Two-byte characters read as Big5: how many, and how many are punctuation or frequent hanzi
    (lead bytes 0xA1–0xC6)."""
    total = good = 0
    i, n = 0, len(data)
    while i < n:
        b = data[i]
        if b < 0x80:
            i += 1
            continue
        total += 1
        if 0xA1 <= b <= 0xC6:
            good += 1
        i += 2
    return total, good


def _declared(data: bytes) -> str | None:
    """The codec a saved page declares in its first 4 KiB (None: none, or one Python does not know)."""
    m = _META.search(data[:4096])
    if not m:
        return None
    name = m.group(1).decode("ascii", "replace").lower()
    codec = _BROWSER.get(name)
    if codec is None:
        try:
            codec = codecs.lookup(name).name
        except LookupError:
            return None
    return codec


def _strict(data: bytes, codec: str) -> str | None:
    """``data`` decoded by ``codec`` (None: it does not decode)."""
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        return None


def decode_replies(data: bytes, path: Path | str, error: type[InputError] = InputError) -> tuple[str, str]:
    """The text of a replies file and the encoding it was read in (as the report names it), by the rules of
    this module; ``error`` (located at ``path``) when no encoding reads it."""
    if data.startswith(codecs.BOM_UTF8):
        return decode(data, path, error), "UTF-8"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = _strict(data, "utf-16")
        if text is None:
            raise error(Location(path), "", "开头是 UTF-16 的字节顺序标记，内容却不是 UTF-16 文本")
        return text, "UTF-16"
    declared = _declared(data) if re.search(rb"<\s*(?:html|head|meta|body|!doctype)", data[:4096], re.I) else None
    if declared is not None:
        text = _strict(data, declared)
        if text is not None:
            return text, SHOWN.get(declared, declared)
    text = _strict(data, "utf-8")
    if text is not None:
        return text, "UTF-8"
    gb, big5 = _strict(data, "gb18030"), _strict(data, "big5hkscs")
    if gb is not None and big5 is not None:
        gt, gg = _frequent_gb(data)
        bt, bg = _frequent_big5(data)
        if bg * max(gt, 1) > gg * max(bt, 1):
            return big5, "Big5"
        return gb, "GB18030"
    if gb is not None:
        return gb, "GB18030"
    if big5 is not None:
        return big5, "Big5"
    if declared is not None:
        return decode(data, path, error), "UTF-8"  # neither the declared charset nor UTF-8: the byte is named
    try:
        return decode(data, path, error), "UTF-8"
    except InputError as err:
        raise error(err.location, "", f"{err.message.removesuffix('）')}；也不是 GB18030 或 Big5）") from None


__all__ = ["SHOWN", "decode_replies"]
