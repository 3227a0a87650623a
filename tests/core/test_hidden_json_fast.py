"""The canonical JSON's C-encoder path gives the node-by-node path's text, or leaves the payload to it."""

from __future__ import annotations

import math
import re
from collections import OrderedDict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.hidden import _ESCAPED, _PLAIN_ESCAPES, _RARE, _encoded, _plain_json, canonical_json
from tests import json_choices
from tests.choices import Choices, built

_CHARS = "".join(sorted(_ESCAPED)) + ' \t\n\x00\x1f\x85\xa0\u3000\u2028〕｜"\\\ud800\udfff' + "a巨魔1"


_TAKEN = " <>&*_`~a巨魔1é"
"""Characters the fast path writes (among them the ones it escapes after the encoder)."""


def _text(ch: Choices) -> str:
    """Up to six characters, of :data:`_CHARS`, of :data:`_TAKEN` or of any (not a lone surrogate, as
    ``st.text()``)."""
    return json_choices.text(ch, 6, ch.pick([_CHARS, None, _TAKEN]))


def _json(ch: Choices) -> Any:
    """A payload of at most 25 leaves: None, booleans, integers, floats (NaN and infinities too), :func:`_text`,
    lists, pairs and objects (one draw of bytes: :mod:`tests.json_choices`)."""
    return json_choices.nested(ch, 25, lambda c: json_choices.leaf(c, finite=False, texts=_text), _text, pairs=True)


def _either(payload: Any, way: Any = _plain_json) -> tuple[str, str]:
    """(kind of ``way``'s answer, its text or error type) for ``payload``."""
    try:
        return "text", way(payload)
    except (ValueError, RecursionError) as e:
        return "error", type(e).__name__


@settings(max_examples=300)
@given(built(_json, size=700))
def test_fast_path_is_the_plain_path(payload: Any) -> None:
    fast = _encoded(payload)
    if fast is not None:
        assert ("text", fast) == _either(payload)
    assert _either(payload, canonical_json) == _either(payload)


@settings(max_examples=100)
@given(st.dictionaries(st.text(st.characters(codec="utf-8", exclude_characters='"\\'), max_size=8),
                       st.integers() | st.text(st.characters(codec="utf-8", exclude_characters='"\\')),
                       min_size=1, max_size=6))
def test_plain_payloads_take_the_fast_path_when_their_strings_are_plain(payload: dict[str, Any]) -> None:
    fast = _encoded(payload)
    assert fast is None or fast == _plain_json(payload)


@pytest.mark.parametrize("payload", [
    {1: "a"}, {"a": {None: 1}}, [{True: 1}], {1.5: 2},  # keys that are not strings: refused, not converted
    [math.nan], {"x": math.inf}, [object()], OrderedDict(a=1), [OrderedDict(a=1)],
])
def test_what_the_fast_path_leaves_to_the_plain_one(payload: Any) -> None:
    assert _encoded(payload) is None
    if OrderedDict in {type(payload), type(payload[0]) if type(payload) is list else None}:
        assert canonical_json(payload) in ('{"a":1}', '[{"a":1}]')
    else:
        with pytest.raises(ValueError):
            canonical_json(payload)


class _Str(str):
    """A string subclass: the plain path decides it."""


@pytest.mark.parametrize("payload", [
    {"s": "a[b]"}, ["]"], {"a b": "c d"}, {"k": 'say "hi"'}, ["a\\b"], ["\n"], ["〕｜"], ["\u3000"],
    ["\ud800"], [_Str("x")], {"a": "[", "b": []}, [["]"]], {"[": [1]}, {"a_b": [1, 2.5, None, True, False, "<&*`~>"]}, [(1, 2), []], {},
])
def test_each_special_case(payload: Any) -> None:
    fast = _encoded(payload)
    assert fast is None or fast == _plain_json(payload)
    assert canonical_json(payload) == _plain_json(payload)


def test_the_common_shape_is_fast() -> None:
    order = {"ai_reason": "向长社进军", "ap_after": 3, "attack": None, "moved": True, "from": "F6", "主将": "波才"}
    payload = {"at": [1, 1], "orders": [order, order], "note": "a b"}
    assert _encoded(payload) == _plain_json(payload)
    assert _encoded(payload) is not None


def test_deep_nesting_is_the_plain_path() -> None:
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    assert _encoded(deep) is None


def test_rare_is_every_whitespace_but_the_space_and_the_line_marks() -> None:
    every = "".join(map(chr, range(0x110000)))  # every code point, lone surrogates too, each looked at once
    found = set(re.findall(_RARE, every))
    want = set(filter(str.isspace, every)) - {" "} | set("〕｜") | set(map(chr, range(0xD800, 0xE000)))
    assert found == want, sorted(map(hex, map(ord, found ^ want)))


def test_the_plain_escapes_are_the_escaped_characters_json_writes_raw() -> None:
    # the fast path's escapes plus what it leaves to the plain path are every character the plain path escapes
    assert set(_PLAIN_ESCAPES) | set('"\\[]〕｜') == _ESCAPED | {" "}
