"""JSON-like values built from one draw of bytes (:mod:`tests.choices`), for the property tests of the JSON writers.

The grammar of the ``st.recursive`` strategies they replace: ``None``, booleans, integers of any size, floats
(finite or not), texts of any characters, and lists, dictionaries with text keys (and pairs, where asked) nested up
to a number of leaves; Hypothesis drawing such values one by one spent most of each test in its own bookkeeping.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from tests.choices import Choices

SPECIAL = ('"\\/\b\f\n\r\t\x00\x1f\x7f\x85\xa0\u2028\u2029\u3000\ufeff〔〕｜＝：#{}[],: 巨魔a1é\U0001f600'
           "\u200b\u00ad\u0300\uffff")
"""Characters JSON, the reveal lines or the escapes treat apart (and a few plain ones)."""
PRINTABLE = "".join(chr(c) for c in range(0x20, 0x7F))
FLOATS = (0.0, -0.0, 1.5, -2.5, 0.1, 1e16, 1e308, -1e308, 5e-324, 2.2250738585072014e-308, 1e-7,
          float("inf"), float("-inf"), float("nan"))


def character(ch: Choices, surrogates: bool = False) -> str:
    """Any character: a special one, a printable ASCII one, one of the basic plane or any code point (a lone surrogate only if asked)."""
    kind = ch.number(6)
    if kind < 2:
        return ch.pick(SPECIAL)
    if kind < 4:
        return ch.pick(PRINTABLE)
    code = ch.number(256) << 8 | ch.number(256)
    if kind == 5:  # past the basic plane too
        code = (ch.number(256) << 16 | code) % 0x110000
    if 0xD800 <= code <= 0xDFFF and not surrogates:
        code += 0x2000  # the private use area past the surrogates
    return chr(code)


def text(ch: Choices, max_size: int = 8, chars: str | None = None, surrogates: bool = False) -> str:
    """A text of up to ``max_size`` characters, each from ``chars`` or any (:func:`character`)."""
    return "".join(ch.pick(chars) if chars else character(ch, surrogates) for _ in range(ch.integer(0, max_size)))


def integer(ch: Choices) -> int:
    """An integer: a small one, or one of up to 17 random bytes (past 64 bits), either sign."""
    if ch.flip():
        return int.from_bytes(bytes(ch.number(256) for _ in range(ch.integer(1, 17))), "big") * (-1 if ch.flip() else 1)
    return ch.integer(-3, 3)


def floating(ch: Choices, finite: bool = True) -> float:
    """A float: a notable one, a half-precision one or any double (infinities and NaN only if not ``finite``)."""
    kind = ch.number(3)
    if kind == 0:
        value = ch.pick(FLOATS)
    elif kind == 1:
        value = ch.half_float()
    else:
        value = struct.unpack("<d", bytes(ch.number(256) for _ in range(8)))[0]
    return value if not finite or (value == value and abs(value) != float("inf")) else 0.0


def leaf(ch: Choices, finite: bool = True, texts: Callable[[Choices], str] = text) -> Any:
    """``None``, a boolean, an integer, a float or a text."""
    kind = ch.number(5)
    if kind == 0:
        return None
    if kind == 1:
        return ch.flip()
    if kind == 2:
        return integer(ch)
    return floating(ch, finite) if kind == 3 else texts(ch)


def nested(ch: Choices, leaves: int, make_leaf: Callable[[Choices], Any], key: Callable[[Choices], str],
           pairs: bool = False) -> Any:
    """A value of at most ``leaves`` leaves: a leaf, or lists and dictionaries of up to 4 items (and 2-tuples when
    ``pairs``) of such values."""
    budget = [leaves]

    def node() -> Any:
        if budget[0] <= 1 or not ch.flip():
            budget[0] -= 1
            return make_leaf(ch)
        kind = ch.number(3 if pairs else 2)
        if kind == 2:
            return (node(), node())
        size = ch.integer(0, 4)
        if kind == 0:
            return [node() for _ in range(size) if budget[0] > 0]
        return {key(ch): node() for _ in range(size) if budget[0] > 0}

    return node()


__all__ = ["character", "floating", "integer", "leaf", "nested", "text"]
