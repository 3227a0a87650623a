"""The seals' canonical JSON written by one regular expression is the per-character rule's, on every code point."""

from __future__ import annotations

import json
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.hidden import _ESCAPED, _json_string, canonical_json
from tests.choices import Choices, built
from tests.json_choices import floating, integer


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


class _Int(int):
    """An int subclass: the fast path leaves it to the text."""


_SPACES = "".join(c for c in map(chr, range(0x3001)) if c.isspace())
"""Every whitespace character (``str.isspace``; none lies above U+3000)."""
_MARKS = "".join(sorted(_ESCAPED)) + "|〔｜〕封甲乙巨魔"
"""The characters the canonical text escapes by name, and a few that sit beside them in a chapter."""


def _wide(ch: Choices, count: int) -> int:
    """A number in ``range(count)`` from two bytes (:meth:`Choices.number` reads one)."""
    return (ch.number(256) * 256 + ch.number(256)) % count


def _char(ch: Choices) -> str:
    """One character as ``st.text()`` draws them: mostly printable ASCII, else a control, one the text escapes, a
    whitespace, any of the BMP (no lone surrogate: two escaped halves read back as one) or beyond."""
    kind = ch.number(10)
    if kind == 1:
        return chr(ch.number(32)) if ch.flip() else chr(0x7F + ch.number(33))
    if kind == 2:
        return ch.pick(_MARKS)
    if kind == 3:
        return ch.pick(_SPACES)
    if kind == 4:
        o = _wide(ch, 0x10000)
        return chr(o - 0x800 if 0xD800 <= o <= 0xDFFF else o)
    if kind == 5:
        return chr(0x10000 + ch.number(16) * 0x10000 + _wide(ch, 0x10000))
    return chr(0x20 + ch.number(95))


def _text(ch: Choices, longest: int = 8) -> str:
    """A text of up to ``longest`` characters (:func:`_char`, no lone surrogate), mostly short as Hypothesis's
    are: a text with none of the rare characters keeps a payload on the encoder's fast path."""
    return "".join(_char(ch) for _ in range(ch.integer(0, longest)))


def _surrogate_text(ch: Choices) -> str:
    """What ``_SURROGATES`` drew: up to 4 characters of U+D7F0..U+E010, lone surrogates among them."""
    return "".join(chr(0xD7F0 + _wide(ch, 0xE011 - 0xD7F0)) for _ in range(ch.integer(0, 4)))


def _leaf(ch: Choices, grammar: str) -> Any:
    """A leaf of ``_JSON`` (none, bool, int, float, text); ``values`` adds ``_SURROGATES``, ``_Int`` and the
    sampled floats."""
    kind = ch.number(5)
    if grammar == "values" and ch.number(8) == 7:
        kind = 5 + ch.number(3)
    if kind == 1:
        return ch.flip()
    if kind == 2:
        return integer(ch)
    if kind == 3:
        return floating(ch)
    if kind == 4:
        return _text(ch)
    if kind == 5:
        return _surrogate_text(ch)
    if kind == 6:
        return _Int(integer(ch))
    if kind == 7:
        return ch.pick((-0.0, 1e308, 5e-324))
    return None


def _value(ch: Choices, grammar: str, leaves: list[int], depth: int = 0) -> Any:
    """A value of ``grammar``: ``json`` (lists, dicts of text keys), ``plain`` (and pairs, lists as tuples),
    ``odd`` (and dicts as MappingProxyType), ``values`` (``odd``'s, with :func:`_leaf`'s odd leaves and surrogate
    keys too); at most ``leaves[0]`` leaves (``st.recursive``'s ``max_leaves``) and four levels, containers the
    likelier the nearer the top."""
    if depth >= 4 or leaves[0] <= 0 or ch.number(2 + depth) != 1:
        leaves[0] -= 1
        return _leaf(ch, grammar)
    kinds = {"json": (0, 1), "plain": (0, 1, 1, 2, 3)}.get(grammar, (0, 1, 1, 2, 3, 4))  # a dict twice as often
    kind = ch.pick(kinds)
    if kind == 2:
        return (_value(ch, grammar, leaves, depth + 1), _value(ch, grammar, leaves, depth + 1))
    items = [_value(ch, grammar, leaves, depth + 1) for _ in range(ch.integer(0, 5))]
    if kind == 0:
        return items
    if kind == 3:
        return tuple(items)
    keys = [_surrogate_text(ch) if grammar == "values" and ch.number(8) == 7 else _text(ch) for _ in items]
    mapping = dict(zip(keys, items, strict=True))
    return MappingProxyType(mapping) if kind == 4 else mapping


def _built(grammar: str, leaves: int) -> st.SearchStrategy[Any]:
    """:func:`_value` of ``grammar`` from one draw of bytes (:mod:`tests.choices`)."""
    return built(lambda ch: _value(ch, grammar, [leaves]), size=600)


# Structures built from one draw of bytes (tests.choices): Hypothesis drawing them value by value spent 90 % of
# these tests in its own bookkeeping (issue 29); the grammar is the st.recursive one's.
@settings(max_examples=100)
@given(built(lambda ch: _text(ch, 40), size=150))
def test_any_text(text: str) -> None:
    assert _json_string(text) == _plain(text)
    assert json.loads(_json_string(text)) == text


@settings(max_examples=40)
@given(_built("json", 30))
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


@settings(max_examples=40)
@given(_built("odd", 20))
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


# Half the values plain through and through (canonical_value's own walk decides them whole), half with the odd
# kinds anywhere (the walk gives way to the text).
@settings(max_examples=80)
@given(built(lambda ch: _value(ch, "values" if ch.flip() else "plain", [20]), size=600))
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
