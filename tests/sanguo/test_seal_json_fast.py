"""The seals' canonical JSON written by one regular expression is the per-character rule's, on every code point."""

from __future__ import annotations

import json
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.hidden import _ESCAPED, _json_string, canonical_json


def _plain(text: str) -> str:
    """The rule as it was written before (one character at a time)."""
    out = ['"']
    for c in text:
        o = ord(c)
        out.append(f"\\u{o:04x}" if c in _ESCAPED or c.isspace() or o < 0x20 or 0xD800 <= o <= 0xDFFF else c)
    out.append('"')
    return "".join(out)


def test_every_code_point_alone() -> None:
    for o in range(0x110000):
        c = chr(o)
        assert _json_string(c) == _plain(c), hex(o)


def test_every_code_point_in_one_text() -> None:
    text = "".join(map(chr, range(0x110000)))
    assert _json_string(text) == _plain(text)


def test_escapes_are_lowercase_four_digits() -> None:
    assert _json_string("a b\n〕") == '"a\\u0020b\\u000a\\u3015"'
    assert _json_string("\U0001F600") == '"\U0001F600"'


@given(st.text())
def test_any_text(text: str) -> None:
    assert _json_string(text) == _plain(text)
    assert json.loads(_json_string(text)) == text


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                     | st.text(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=30)


@settings(max_examples=40)
@given(_JSON)
def test_payload_round_trips(payload: Any) -> None:
    assert json.loads(canonical_json(payload)) == payload


def _plain_canonical(payload: Any) -> str:
    """canonical_json as it was written before (isinstance checks in turn, generators)."""
    if payload is None or isinstance(payload, bool):
        return json.dumps(payload)
    if isinstance(payload, int):
        return str(int(payload))
    if isinstance(payload, float):
        return json.dumps(payload)
    if isinstance(payload, str):
        return _plain(payload)
    if isinstance(payload, (list, tuple)):
        return "[" + ",".join(_plain_canonical(v) for v in payload) + "]"
    return "{" + ",".join(f"{_plain(k)}:{_plain_canonical(payload[k])}" for k in sorted(payload)) + "}"


_ODD = st.recursive(_JSON, lambda inner: st.tuples(inner, inner) | st.lists(inner).map(tuple)
                    | st.dictionaries(st.text(), inner).map(MappingProxyType), max_leaves=20)


@settings(max_examples=40)
@given(_ODD)
def test_same_text_as_before(payload: Any) -> None:
    assert canonical_json(payload) == _plain_canonical(payload)


def test_refusals_unchanged() -> None:
    for bad in ({1: 2}, MappingProxyType({1: 2}), [float("nan")], {"a": {1, 2}}):
        with pytest.raises(ValueError):
            canonical_json(bad)


def _shape(value: Any) -> Any:
    """A value with its types and key order made comparable (``1 == 1.0 == True`` would hide a change)."""
    if isinstance(value, dict):
        return ("dict", [(k, _shape(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_shape(v) for v in value])
    return (type(value).__name__, repr(value))


class _Int(int):
    """An int subclass: the fast path leaves it to the text."""


_SURROGATES = st.text(alphabet=st.characters(min_codepoint=0xD7F0, max_codepoint=0xE010), max_size=4)
_VALUES = st.recursive(_JSON | _SURROGATES | st.integers().map(_Int) | st.sampled_from([-0.0, 1e308, 5e-324]),
                       lambda inner: st.tuples(inner, inner) | st.lists(inner) | st.dictionaries(
                           st.text() | _SURROGATES, inner) | st.dictionaries(st.text(), inner).map(MappingProxyType),
                       max_leaves=20)


@settings(max_examples=80)
@given(_VALUES)
def test_a_facts_value_is_what_its_canonical_text_reads_back(payload: Any) -> None:
    """seals.canonical_value (the fact a SealBook keeps) is json.loads(canonical_json(payload)) exactly."""
    from anko_writer.seals import canonical_value

    assert _shape(canonical_value(payload)) == _shape(json.loads(canonical_json(payload)))


@pytest.mark.parametrize("payload", [float("nan"), {"x": float("inf")}, {1: 2}, {"s": {1, 2}}, object()])
def test_a_facts_refusals_are_the_texts(payload: Any) -> None:
    from anko_writer.seals import canonical_value

    with pytest.raises(ValueError) as fast:
        canonical_value(payload)
    with pytest.raises(ValueError) as plain:
        canonical_json(payload)
    assert str(fast.value) == str(plain.value)
