"""Hidden dice and secret facts (000 §5.8.4): a verifiable commit/reveal that readers can check from the
posts alone.

A hidden roll is posted as a *seal* line carrying a SHA-256 commitment; a later chapter posts the
*reveal* line with the value and the salt. Both lines appear verbatim inside the Markdown chapters.
There are two versions of the commitment, and one line family:

**v1**, a roll read as a sum or as tens and units (the value is all the rules read)::

    〔封存｜编号 {roll_id}｜{expr}＝？？？｜承诺 {commitment}〕
    〔揭晓｜编号 {roll_id}｜{expr}＝{value}｜盐 {salt}〕

- ``commitment`` is the full lowercase hex SHA-256 (64 chars) of the UTF-8 text
  ``{roll_id}|{expr}|{value}|{salt}`` (ASCII ``|`` between the fields, :data:`HASHED`).

**v2**, a roll whose faces matter (``spread``, ``highest``, ``count_at_least:N``; :class:`~anko_writer.dice.Reading`),
sealed with its reading and its faces, and marked ``v2``::

    〔封存｜v2｜编号 {roll_id}｜{expr}＝？？？｜读法 {reading}｜承诺 {commitment}〕
    〔揭晓｜v2｜编号 {roll_id}｜{expr}＝{faces}→{value}｜读法 {reading}｜盐 {salt}〕

- the commitment hashes ``v2|{roll_id}|{expr}|{reading}|{faces}|{value}|{salt}`` (:data:`HASHED_V2`);
  ``faces`` are the dice in throwing order with ASCII commas (``2,3,5``), as the reveal prints them;
- ``verify`` also checks that the faces, read that way, give the value (for ``NdS±m`` notations).

**A secret fact** (a position, a hidden unit card, a committed order), always v2::

    〔封存｜v2｜编号 {fact_id}｜事实＝？？？｜承诺 {commitment}〕
    〔揭晓｜v2｜编号 {fact_id}｜事实＝{canonical JSON}｜盐 {salt}〕

- the commitment hashes ``v2|{fact_id}|fact|{json}|{salt}`` (:data:`HASHED_FACT`), ``json`` being the
  payload's canonical JSON (:func:`canonical_json`), printed in the reveal as it was hashed.

For every version:

- ``salt`` is 32 lowercase hex chars: the first half of SHA-256 of
  ``anko-salt\\x1f{seed}\\x1f{roll_id}`` (``\\x1f`` is the unit separator), so it is reproducible by the
  host but unknown to readers as long as the campaign seed stays private; a fact's salt is made the same
  way from its id.
- ``roll_id`` may hold any characters except ``｜``, ``〕`` and whitespace
  (``s1/league/r05/雷希特-玛吉克#3``), in v2 not ASCII ``|`` either; ``expr`` additionally excludes ``＝``.
- ``value`` is the roll's total as a plain integer (no leading zeros, at most a hundred digits: a longer
  one is a malformed line).

``anko-writer verify OUTDIR`` (:func:`verify_dir`) recomputes every commitment from the Markdown.

>>> from anko_writer.dice import Roll
>>> r = Roll("s1/demo#1", "核心重伤判定", "D100", (42,), 42, hidden=True)
>>> print(seal_line(r, seed=7))
〔封存｜编号 s1/demo#1｜D100＝？？？｜承诺 5392eee7e6756bd5200f1a1b32219105ee48f6a807a38ac999058a2410883693〕
>>> print(reveal_line(r, seed=7))
〔揭晓｜编号 s1/demo#1｜D100＝42｜盐 c383b0e9a477c5bd16da1b7643e7c145〕
>>> seals, reveals = scan("前文\\n" + seal_line(r, 7) + "\\n" + reveal_line(r, 7))
>>> (seals[0].line, reveals[0].line, reveals[0].value)
(2, 3, 42)
>>> reveals[0].matches(seals[0])
True
>>> cas = Roll("b1/r1/交战1#1", "减员骰", "3D6", (2, 3, 5), 4, hidden=True, reading="spread")
>>> print(reveal_line(cas, seed=7))
〔揭晓｜v2｜编号 b1/r1/交战1#1｜3D6＝2,3,5→4｜读法 spread｜盐 6f76b47a0cb5ec7c6d9d8556638a84a7〕
>>> card = Fact("b1/卡/巨魔#卡", {"traits": ["再生"], "unit": "巨魔"})
>>> print(reveal_line(card, seed=7))
〔揭晓｜v2｜编号 b1/卡/巨魔#卡｜事实＝{"traits":["再生"],"unit":"巨魔"}｜盐 4af6263c3840787d4ab517908d3a97b4〕
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from .dice import PRINTER, Reading, Roll, own_reading
from .errors import VerifyError
from .order import Order, place

_ID = r"[^｜〕\s]+"
_EXPR = r"[^｜〕＝\s]+"
_ID2 = r"[^｜〕\s|]+"
_EXPR2 = r"[^｜〕＝\s|]+"
# The keywords in simplified or traditional script (an export converted with OpenCC keeps the ids,
# expressions and hex untouched, DESIGN §11, but may convert the words around them).
_SEAL_WORD, _REVEAL_WORD = "封存", "(?:揭晓|揭曉)"
_NO, _COMMIT, _SALT = "(?:编号|編號)", "(?:承诺|承諾)", "(?:盐|鹽)"
_READ, _FACT = "(?:读法|讀法)", "(?:事实|事實)"
_SEAL = rf"〔{_SEAL_WORD}｜{_NO} (?P<id>{_ID})｜(?P<expr>{_EXPR})＝？？？｜{_COMMIT} (?P<commit>[0-9a-f]{{64}})〕"
_VALUE = r"-?(?:0|[1-9][0-9]{0,99})"
"""A revealed total: at most a hundred digits (no die comes near; a longer one is malformed, not a number
Python refuses to read)."""
_REVEAL = rf"〔{_REVEAL_WORD}｜{_NO} (?P<id>{_ID})｜(?P<expr>{_EXPR})＝(?P<value>{_VALUE})｜{_SALT} (?P<salt>[0-9a-f]{{32}})〕"
_READING = r"(?:sum|tens_units|spread|highest|count_at_least:[1-9][0-9]{0,5})"
_FACES = r"[1-9][0-9]{0,3}(?:,[1-9][0-9]{0,3}){0,99}"
"""A v2 reveal's faces: at most a hundred dice of at most four digits each (the core's limits)."""
_NOT_FACT = rf"(?!{_FACT}＝)"
_SEAL2 = (rf"〔{_SEAL_WORD}｜v2｜{_NO} (?P<id>{_ID2})｜{_NOT_FACT}(?P<expr>{_EXPR2})＝？？？｜{_READ} "
          rf"(?P<reading>{_READING})｜{_COMMIT} (?P<commit>[0-9a-f]{{64}})〕")
_REVEAL2 = (rf"〔{_REVEAL_WORD}｜v2｜{_NO} (?P<id>{_ID2})｜{_NOT_FACT}(?P<expr>{_EXPR2})＝(?P<faces>{_FACES})→"
            rf"(?P<value>{_VALUE})｜{_READ} (?P<reading>{_READING})｜{_SALT} (?P<salt>[0-9a-f]{{32}})〕")
_FACT_SEAL = rf"〔{_SEAL_WORD}｜v2｜{_NO} (?P<id>{_ID2})｜{_FACT}＝？？？｜{_COMMIT} (?P<commit>[0-9a-f]{{64}})〕"
_FACT_REVEAL = (rf"〔{_REVEAL_WORD}｜v2｜{_NO} (?P<id>{_ID2})｜{_FACT}＝(?P<payload>[^｜〕\s]+)｜{_SALT} "
                rf"(?P<salt>[0-9a-f]{{32}})〕")
_CORE_EXPR = r"(?P<count>[1-9][0-9]{0,2})?[dD](?P<sides>[1-9][0-9]{0,3})(?:(?P<sign>[+-])(?P<mod>[0-9]{1,6}))?"
"""The core's own ``NdS±m`` as a v2 line writes it: the notations whose faces ``verify`` checks against the value."""
# Anything that *starts* like a seal or reveal; a span the strict patterns reject is reported as
# malformed, so a tampered reveal cannot slip past verification by no longer parsing.
_LOOSE_TEXT = rf"〔(?:{_SEAL_WORD}|{_REVEAL_WORD})[^〕\n]*〕?"
_LOOSE = re.compile(_LOOSE_TEXT)
_SOURCES = {"loose": _LOOSE_TEXT, "seal": _SEAL, "reveal": _REVEAL, "seal2": _SEAL2, "reveal2": _REVEAL2,
            "fact_seal": _FACT_SEAL, "fact_reveal": _FACT_REVEAL, "core_expr": _CORE_EXPR}
"""Each pattern of :data:`GRAMMAR` as text: all but ``loose`` are compiled on first use (:func:`_pattern`), as a
month or a scene whose posts hold no seal line, or one that never verifies, needs few of them (issue 29)."""


@functools.cache
def _pattern(name: str) -> re.Pattern[str]:
    """The compiled pattern ``name`` (a key of :data:`GRAMMAR`, or ``any_seal``, ``prose_die``, ``heading``)."""
    if name == "loose":
        return _LOOSE
    if name == "any_seal":  # a seal line of any kind, its groups unnamed
        return re.compile("|".join(re.sub(r"\(\?P<\w+>", "(?:", p) for p in (_SEAL, _SEAL2, _FACT_SEAL)))
    return re.compile(_SOURCES[name])


class _Grammar(MutableMapping[str, "re.Pattern[str]"]):
    """:data:`GRAMMAR`: the patterns by name, each compiled when first read (:func:`_pattern`); one set here
    (a test's stand-in) is kept instead."""

    def __init__(self) -> None:
        self._set: dict[str, re.Pattern[str]] = {}
        self._names = list(_SOURCES)

    def __getitem__(self, name: str) -> re.Pattern[str]:
        if name in self._set:
            return self._set[name]
        if name not in self._names:
            raise KeyError(name)
        return _pattern(name)

    def __setitem__(self, name: str, pattern: re.Pattern[str]) -> None:
        if name not in self._names:
            self._names.append(name)
        self._set[name] = pattern

    def __delitem__(self, name: str) -> None:
        self._names.remove(name)
        self._set.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._names))

    def __len__(self) -> int:
        return len(self._names)


GRAMMAR: MutableMapping[str, re.Pattern[str]] = _Grammar()
"""The patterns ``verify`` reads posts with: every span that starts like a hidden-dice line, the strict
lines it must be (v1, v2, a fact), and the core notation whose v2 faces it checks. Ports of the check (the
export's ``verify.html``) are generated from these."""
HASHED = "{roll_id}|{expr}|{value}|{salt}"
"""What a v1 commitment hashes (UTF-8), as a :meth:`str.format` template."""
HASHED_V2 = "v2|{roll_id}|{expr}|{reading}|{faces}|{value}|{salt}"
"""What a v2 roll's commitment hashes: its reading and its faces too."""
HASHED_FACT = "v2|{roll_id}|fact|{payload}|{salt}"
"""What a fact's commitment hashes: its canonical JSON."""
TEMPLATES = {"v1": HASHED, "v2": HASHED_V2, "fact": HASHED_FACT}
"""Each kind of line and the text its commitment hashes."""
_SOURCES["prose_die"] = r"「(?P<expr>[^｜〕＝「」\s]+)＝(?:(?P<faces>[0-9]{1,4}(?:,[0-9]{1,4}){0,99})→)?(?P<value>-?[0-9]{1,100})」"
"""A die as prose prints it (「1D100＝45」, 「3D6＝2,3,5→4」): a reveal must agree with the value printed
before it. Its expression holds no corner bracket, so a quoted name before the die (「核心重伤」…「1D100＝97」)
is not read as part of it."""
_SOURCES["heading"] = r"^\s*(?:#|\[size|\[b\]第|<h[1-6])"


def salt_for(seed: int, roll_id: str) -> str:
    """The 32-hex-char salt of a hidden roll or fact, derived from the campaign seed and its id.

    >>> len(salt_for(1, "s1/x#1")), salt_for(1, "s1/x#1") == salt_for(1, "s1/x#1")
    (32, True)
    """
    return hashlib.sha256(f"anko-salt\x1f{seed}\x1f{roll_id}".encode()).hexdigest()[:32]


def commitment(roll_id: str, expr: str, value: int, salt: str) -> str:
    """The 64-hex-char SHA-256 of ``{roll_id}|{expr}|{value}|{salt}`` (UTF-8): a v1 commitment.

    >>> commitment("a#1", "D100", 5, "0" * 32) == commitment("a#1", "D100", 6, "0" * 32)
    False
    """
    return _sha(hashed_text(roll_id, expr, value, salt))


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def hashed_text(roll_id: str, expr: str, value: int, salt: str) -> str:
    """The text a v1 commitment is the SHA-256 of: :data:`HASHED` filled in.

    >>> hashed_text("s1/x#1", "D100", 42, "ab" * 16)
    's1/x#1|D100|42|abababababababababababababababab'
    """
    return HASHED.format(roll_id=roll_id, expr=expr, value=value, salt=salt)


def hashed_text_v2(roll_id: str, expr: str, reading: str, faces: tuple[int, ...], value: int, salt: str) -> str:
    """The text a v2 roll's commitment is the SHA-256 of: :data:`HASHED_V2` filled in.

    >>> hashed_text_v2("b1#1", "3D6", "spread", (2, 3, 5), 4, "ab" * 16)
    'v2|b1#1|3D6|spread|2,3,5|4|abababababababababababababababab'
    """
    return HASHED_V2.format(roll_id=roll_id, expr=expr, reading=reading, faces=",".join(map(str, faces)),
                            value=value, salt=salt)


def hashed_text_fact(fact_id: str, payload: str, salt: str) -> str:
    """The text a fact's commitment is the SHA-256 of: :data:`HASHED_FACT` with the canonical JSON ``payload``."""
    return HASHED_FACT.format(roll_id=fact_id, payload=payload, salt=salt)


# ---------------------------------------------------------------------------------------------
# Secret facts

_ESCAPED = frozenset('"\\〕｜<>&[]*_`~')
"""Characters a fact's strings write as ``\\uXXXX``: JSON's own two, the line's delimiters, and what a forum
or Markdown would read as markup (with every whitespace, control and lone surrogate character)."""


@functools.cache
def _to_escape() -> re.Pattern[str]:
    """One character :func:`_json_string` escapes: :data:`_ESCAPED`, whitespace (``\\s`` is ``str.isspace``), a
    control character or a lone surrogate (``tests/sanguo/test_seal_json_fast.py`` checks every code point).
    Compiled on first use: a month writes no fact."""
    return re.compile(r'[\x00-\x1f\s"\\〕｜<>&\[\]*_`~\ud800-\udfff]')


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _json_string(text: str) -> str:
    to_escape = _to_escape()
    if to_escape.search(text) is None:
        return f'"{text}"'
    return f'"{to_escape.sub(_escape, text)}"'


def canonical_json(payload: Any) -> str:
    """A fact's payload as the one text its commitment hashes and its reveal prints.

    It is ``json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))`` except inside
    strings: there ``"``, ``\\``, every whitespace and control character, a lone surrogate, and
    ``〕｜<>&[]*_`~`` are written as ``\\uXXXX`` escapes. So the text holds no whitespace and no character that
    would end the line, break it, or be read as markup by a forum or by Markdown, and ``json.loads`` gives the
    payload back. Keys must be strings; NaN and infinities are refused (ValueError), as is any other type.

    >>> canonical_json({"unit": "巨魔", "at": [3, 4], "note": "a b"})
    '{"at":[3,4],"note":"a\\\\u0020b","unit":"巨魔"}'
    >>> json.loads(canonical_json({"x": "〕|<b>"})) == {"x": "〕|<b>"}
    True
    """
    kind = type(payload)
    if kind is dict or kind is list:
        fast = _encoded(payload)
        if fast is not None:
            return fast
    return _plain_json(payload)


def _plain_json(payload: Any) -> str:
    """:func:`canonical_json` built node by node (every kind, and every refusal)."""
    kind = type(payload)  # the common kinds first; a str is none of the kinds checked before it below
    if kind is str:
        return _json_string(payload)
    if kind is dict:
        return _json_object(payload)
    if kind is list or kind is tuple:
        return "[" + ",".join(map(_plain_json, payload)) + "]"
    if payload is None or isinstance(payload, bool):
        return json.dumps(payload)
    if isinstance(payload, int):
        return str(int(payload))
    if isinstance(payload, float):
        if not math.isfinite(payload):
            raise ValueError(f"a fact may not hold {payload!r}")
        return json.dumps(payload)
    if isinstance(payload, str):
        return _json_string(payload)
    if isinstance(payload, (list, tuple)):
        return "[" + ",".join(map(_plain_json, payload)) + "]"
    if isinstance(payload, Mapping):
        return _json_object(payload)
    raise ValueError(f"a fact may hold JSON values only, not {type(payload).__name__}")


def _json_object(payload: Mapping[Any, Any]) -> str:
    if not all(isinstance(k, str) for k in payload):
        raise ValueError(f"a fact's keys must be strings, got {sorted(map(repr, payload))[:3]}")
    return "{" + ",".join(f"{_json_string(k)}:{_plain_json(payload[k])}" for k in sorted(payload)) + "}"


_ENCODE = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False).encode
"""The standard library's C encoder with the canonical text's layout (its strings escaped as JSON's own)."""

_LEAVES = frozenset({str, int, float, bool, type(None)})
"""The exact leaf kinds :func:`_encoded` leaves to the C encoder (a subclass goes the plain way)."""

_PLAIN_ESCAPES = " <>&*_`~"
"""The characters of :data:`_ESCAPED` (and the space) that the encoder's compact text holds only inside a string."""

_RARE = r"[\t-\r\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000〕｜\ud800-\udfff]"
"""A character the fast path leaves to the plain one: a whitespace but the space (every ``str.isspace`` one,
``tests/core/test_hidden_json_fast.py`` checks), ``〕｜`` or a lone surrogate; the encoder's compact text holds
none of them outside a string."""


def _lists_in(value: Any) -> int:
    """How many lists and tuples ``value`` holds (itself too), or -1 unless it is made of exact dicts with
    string keys, lists, tuples and the :data:`_LEAVES` alone."""
    kind = type(value)
    if kind is dict:
        return _lists_among(value.values()) if all(type(k) is str for k in value) else -1
    if kind is list or kind is tuple:
        n = _lists_among(value)
        return n + 1 if n >= 0 else -1
    return 0 if kind in _LEAVES else -1


def _lists_among(items: Iterable[Any]) -> int:
    n = 0
    for item in items:
        kind = type(item)
        if kind in _LEAVES:
            continue
        m = _lists_in(item) if kind is dict or kind is list or kind is tuple else -1
        if m < 0:
            return -1
        n += m
    return n


def _encoded(payload: Any) -> str | None:
    """:func:`canonical_json` of a plain payload through the C encoder (issue 29), or None where the plain
    path must decide: another kind, a non-finite float, or a string holding a character the encoder writes
    its own way (a quote, a backslash, a control: its text then holds a backslash), a bracket, or one
    :data:`_RARE` names. Otherwise the compact text differs from the canonical one only by :data:`_PLAIN_ESCAPES`, which
    it holds nowhere outside a string. ``tests/core/test_hidden_json_fast.py`` compares both ways."""
    try:
        lists = _lists_in(payload)
        if lists < 0:
            return None
        text = _ENCODE(payload)
    except (ValueError, RecursionError):
        return None
    if "\\" in text or text.count("[") != lists or text.count("]") != lists or re.search(_RARE, text):
        return None  # a bracket more than the lists' is inside a string, and so escaped there
    for char in _PLAIN_ESCAPES:
        if char in text:
            text = text.replace(char, f"\\u{ord(char):04x}")
    return text


class Fact(NamedTuple):
    """A secret fact: an id, and a JSON payload (a position, a hidden unit card, a committed order)."""

    id: str
    """Stable id, like a roll's (``b1/卡/巨魔#卡``); no whitespace, ``｜``, ``〕`` or ASCII ``|``."""
    payload: Any
    """Any JSON value (:func:`canonical_json`)."""
    purpose: str = ""
    """What the fact is, in the chapter's language (``敌军部队卡``)."""

    @property
    def canonical(self) -> str:
        """The payload's canonical JSON."""
        return canonical_json(self.payload)

    def to_json(self) -> dict[str, Any]:
        """The fact's record: ``{id, purpose, fact, hidden}`` (``fact`` is the payload; private until its reveal)."""
        return {"id": self.id, "purpose": self.purpose, "fact": self.payload, "hidden": True}


FACT_KEY = "fact"
"""The key a record holds a fact's payload under: a mapping with it is a fact, not a roll."""


def is_fact(record: Any) -> bool:
    """True for a fact's record (:meth:`Fact.to_json`) or a :class:`Fact`."""
    return isinstance(record, Fact) or (isinstance(record, Mapping) and FACT_KEY in record and "id" in record)


def as_fact(record: Any) -> Fact:
    """A fact from its record (:meth:`Fact.to_json`, or a reveal record carrying it)."""
    if isinstance(record, Fact):
        return record
    return Fact(str(record["id"]), record[FACT_KEY], str(record.get("purpose", "")))


# ---------------------------------------------------------------------------------------------
# Lines


def _check_field(name: str, text: str, forbidden: str) -> None:
    """Raise ValueError if ``text`` is empty or holds whitespace or a forbidden delimiter."""
    if not text:
        raise ValueError(f"hidden roll {name} is empty")
    bad = [c for c in text if c in forbidden or c.isspace()]
    if bad:
        raise ValueError(f"hidden roll {name} {text!r} may not contain {bad[0]!r}")


def _checked(roll: Roll) -> Roll:
    """The roll itself, once its id and expression are known to fit the line format."""
    v2 = version_of(roll) == 2
    _check_field("id", roll.id, "｜〕|" if v2 else "｜〕")
    _check_field("expression", roll.expr, "｜〕＝|" if v2 else "｜〕＝")
    if v2 and re.fullmatch(_FACT, roll.expr):
        raise ValueError(f"hidden roll expression {roll.expr!r} is the word a fact's line uses")
    return roll


def version_of(item: Roll | Fact) -> int:
    """The commitment version ``item`` is sealed with: 1 for a roll read as a sum or as tens and units (the
    value is all the rules read, so the lines stay what they always were), 2 for a roll whose faces matter
    and for every fact."""
    if isinstance(item, Fact):
        return 2
    return 2 if Reading.parse(_reading(item)).faces_matter else 1


def _reading(roll: Roll) -> str:
    """The roll's reading (its notation's own when the roll says ``sum``: a declared notation may read otherwise)."""
    return roll.reading if roll.reading != "sum" else own_reading(roll.expr)


def fact_commitment(fact: Fact, seed: int) -> str:
    """The commitment a secret fact's seal line posts (its canonical JSON salted from the campaign seed): what a
    ruleset's JSON may record beside the line."""
    _check_field("id", fact.id, "｜〕|")
    return _sha(hashed_text_fact(fact.id, fact.canonical, salt_for(seed, fact.id)))


def seal_line(item: Roll | Fact, seed: int) -> str:
    """The seal posted in place of a hidden roll or a secret fact: ``〔封存｜编号 …｜D100＝？？？｜承诺 …〕``
    (v1), ``〔封存｜v2｜编号 …｜3D6＝？？？｜读法 spread｜承诺 …〕``, or ``〔封存｜v2｜编号 …｜事实＝？？？｜承诺 …〕``."""
    if isinstance(item, Fact):
        return f"〔封存｜v2｜编号 {item.id}｜事实＝？？？｜承诺 {fact_commitment(item, seed)}〕"
    r = _checked(item)
    salt = salt_for(seed, r.id)
    if version_of(r) == 2:
        reading = _reading(r)
        c = _sha(hashed_text_v2(r.id, r.expr, reading, r.dice, r.total, salt))
        return f"〔封存｜v2｜编号 {r.id}｜{r.expr}＝？？？｜读法 {reading}｜承诺 {c}〕"
    c = commitment(r.id, r.expr, r.total, salt)
    return f"〔封存｜编号 {r.id}｜{r.expr}＝？？？｜承诺 {c}〕"


def reveal_line(item: Roll | Fact, seed: int) -> str:
    """The reveal posted later: ``〔揭晓｜编号 …｜D100＝42｜盐 …〕`` (v1),
    ``〔揭晓｜v2｜编号 …｜3D6＝2,3,5→4｜读法 spread｜盐 …〕``, or ``〔揭晓｜v2｜编号 …｜事实＝{…}｜盐 …〕``."""
    if isinstance(item, Fact):
        _check_field("id", item.id, "｜〕|")
        return f"〔揭晓｜v2｜编号 {item.id}｜事实＝{item.canonical}｜盐 {salt_for(seed, item.id)}〕"
    r = _checked(item)
    if version_of(r) == 2:
        return (f"〔揭晓｜v2｜编号 {r.id}｜{r.expr}＝{PRINTER.faces(r)}→{r.total}｜读法 {_reading(r)}｜"
                f"盐 {salt_for(seed, r.id)}〕")
    return f"〔揭晓｜编号 {r.id}｜{r.expr}＝{r.total}｜盐 {salt_for(seed, r.id)}〕"


@dataclass(frozen=True)
class Seal:
    """A parsed seal line."""

    roll_id: str
    """The sealed roll's (or fact's) id."""
    expr: str
    """Dice notation as posted (``事实`` for a fact)."""
    commitment: str
    """64 hex chars."""
    line: int
    """1-based line number in the scanned text."""
    kind: str = "v1"
    """Which line it is: ``v1``, ``v2`` (a roll with its reading) or ``fact`` (:data:`TEMPLATES`)."""
    reading: str = ""
    """A v2 roll's reading token (empty otherwise)."""


@dataclass(frozen=True)
class Reveal:
    """A parsed reveal line."""

    roll_id: str
    """The revealed roll's (or fact's) id."""
    expr: str
    """Dice notation as posted (``事实`` for a fact)."""
    value: int
    """The revealed total (0 for a fact)."""
    salt: str
    """32 hex chars."""
    line: int
    """1-based line number in the scanned text."""
    kind: str = "v1"
    """``v1``, ``v2`` or ``fact``, as :attr:`Seal.kind`."""
    reading: str = ""
    """A v2 roll's reading token."""
    faces: tuple[int, ...] = ()
    """A v2 roll's faces, in throwing order."""
    payload: str = ""
    """A fact's canonical JSON, as printed."""

    def hashed(self) -> str:
        """The text this reveal's commitment is the SHA-256 of."""
        if self.kind == "fact":
            return hashed_text_fact(self.roll_id, self.payload, self.salt)
        if self.kind == "v2":
            return hashed_text_v2(self.roll_id, self.expr, self.reading, self.faces, self.value, self.salt)
        return hashed_text(self.roll_id, self.expr, self.value, self.salt)

    def matches(self, seal: Seal) -> bool:
        """True if this reveal opens ``seal``: same id, kind, expression and reading, commitment recomputes equal."""
        return (
            self.roll_id == seal.roll_id
            and (self.kind, self.expr, self.reading) == (seal.kind, seal.expr, seal.reading)
            and _sha(self.hashed()) == seal.commitment
        )

    def inconsistency(self) -> str | None:
        """What is wrong inside a v2 reveal on its own: faces that, read its way, do not give its value, or do
        not fit its ``NdS±m``; a fact that is not JSON. None when nothing is (or nothing can be checked)."""
        if self.kind == "fact":
            try:  # JSON as every port reads it: no NaN or Infinity (JavaScript's JSON.parse refuses them)
                json.loads(self.payload, parse_constant=_no_constant)
            except ValueError:
                return f"{self.roll_id} 的揭晓：它的事实不是合法的 JSON"
            return None
        if self.kind != "v2" or not (m := _pattern("core_expr").fullmatch(self.expr)):
            return None
        count, sides = int(m["count"] or 1), int(m["sides"])
        mod = int(m["mod"] or 0) * (-1 if m["sign"] == "-" else 1)
        shown = f"{self.expr}＝{','.join(map(str, self.faces))}→{self.value}"
        if len(self.faces) != count or max(self.faces) > sides:
            return f"{self.roll_id} 的揭晓写着 {shown}，这些点数不是 {self.expr} 掷得出来的"
        read = Reading.parse(self.reading).value(self.faces) + mod
        if read != self.value:
            return f"{self.roll_id} 的揭晓写着 {shown}，但这些点数按 {self.reading} 读法得 {read}"
        return None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _line_of(text: str, pos: int) -> int:
    """1-based line number of character offset ``pos``."""
    return text.count("\n", 0, pos) + 1


def _faces(text: str) -> tuple[int, ...]:
    return tuple(int(f) for f in text.split(","))


def _parse(text: str) -> tuple[list[Seal], list[Reveal], list[tuple[int, str]]]:
    """Seals, reveals and malformed (line, snippet) spans found in ``text``."""
    seals: list[Seal] = []
    reveals: list[Reveal] = []
    bad: list[tuple[int, str]] = []
    for m in _LOOSE.finditer(text):
        line, span = _line_of(text, m.start()), m.group()
        if s := _pattern("seal").fullmatch(span):
            seals.append(Seal(s["id"], s["expr"], s["commit"], line))
        elif r := _pattern("reveal").fullmatch(span):
            reveals.append(Reveal(r["id"], r["expr"], int(r["value"]), r["salt"], line))
        elif s := _pattern("seal2").fullmatch(span):
            seals.append(Seal(s["id"], s["expr"], s["commit"], line, "v2", s["reading"]))
        elif r := _pattern("reveal2").fullmatch(span):
            reveals.append(Reveal(r["id"], r["expr"], int(r["value"]), r["salt"], line, "v2", r["reading"],
                                  _faces(r["faces"])))
        elif s := _pattern("fact_seal").fullmatch(span):
            seals.append(Seal(s["id"], "事实", s["commit"], line, "fact"))
        elif r := _pattern("fact_reveal").fullmatch(span):
            reveals.append(Reveal(r["id"], "事实", 0, r["salt"], line, "fact", payload=r["payload"]))
        else:
            bad.append((line, span))
    return seals, reveals, bad


def prose_mismatches(text: str) -> list[tuple[int, str]]:
    """``(line, message)`` for each reveal that disagrees with the die its post prints for it.

    A reveal belongs to the text block it is attached to: the lines directly above it with no blank
    line between (a paragraph or list item, and the reveal lines under it). Each reveal takes the
    first die of its expression printed there (「1D100＝45」), in order, and must show the same value.

    >>> post = ["应对骰「1D100＝45」 + 3 = 48。", "〔揭晓｜编号 a#1｜1D100＝46｜盐 " + "0" * 32 + "〕"]
    >>> prose_mismatches(chr(10).join(post))
    [(2, 'a#1 的揭晓是 1D100＝46，但帖子第 1 行印的是「1D100＝45」')]
    >>> prose_mismatches(chr(10).join([post[0], "", post[1]]))
    []
    """
    out: list[tuple[int, str]] = []
    queue: list[tuple[str, str, int]] = []
    any_seal, heading, prose_die = _pattern("any_seal"), _pattern("heading"), _pattern("prose_die")
    reveal, reveal2 = _pattern("reveal"), _pattern("reveal2")
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or any_seal.search(line) or heading.match(line):
            queue = []
            continue
        reveals = [m for m in _LOOSE.finditer(line) if reveal.fullmatch(m.group()) or reveal2.fullmatch(m.group())]
        queue += [(m["expr"], m.group()[1:-1].partition("＝")[2], number)
                  for m in prose_die.finditer(_LOOSE.sub("", line))]
        for span in reveals:
            m = reveal.fullmatch(span.group()) or reveal2.fullmatch(span.group())
            assert m is not None
            i = next((k for k, d in enumerate(queue) if d[0] == m["expr"]), None)
            if i is None:
                continue
            expr, printed, at = queue.pop(i)
            said = f"{m['faces']}→{m['value']}" if "faces" in m.re.groupindex else m["value"]
            faces, _, value = printed.rpartition("→")
            if int(value) != int(m["value"]) or (faces and "faces" in m.re.groupindex and faces != m["faces"]):
                out.append((number, f"{m['id']} 的揭晓是 {m['expr']}＝{said}，但帖子第 {at} 行印的是"
                                    f"「{expr}＝{printed}」"))
    return out


def hidden_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every seal or reveal span (well-formed or not) in ``text``, in order."""
    return [m.span() for m in _LOOSE.finditer(text)]


def scan(text: str) -> tuple[list[Seal], list[Reveal]]:
    """All well-formed seal and reveal lines in ``text``, in order, with their line numbers."""
    seals, reveals, _ = _parse(text)
    return seals, reveals


@dataclass
class VerifyReport:
    """The outcome of :func:`verify_dir`."""

    checked: int = 0
    """How many reveal lines were checked (matching or not)."""
    sealed: list[tuple[str, str]] = field(default_factory=list)
    """Still-sealed rolls as ``(roll_id, "file:line")`` of their first seal (not a problem)."""
    problems: list[str] = field(default_factory=list)
    """One ``file:line: message`` per mismatch, orphan reveal, conflicting seal or malformed line."""

    @property
    def ok(self) -> bool:
        """True when no problem was found (still-sealed rolls are fine)."""
        return not self.problems


POST_SUFFIXES = (".md", ".txt", ".html", ".htm", ".bbcode")
"""The files ``verify`` reads: chapters and the exports of every forum profile."""
_TAG = re.compile(r"<[^>\n]*>")
@dataclass(frozen=True)
class Post:
    """One posted file as ``verify`` reads it."""

    file: str
    """The path as reported."""
    series: str
    """Files of one series are one thread in posting order: the chapters, or one export profile."""
    order: Order
    """Sort key of the file within its series (season, then months, the settlement, the index)."""
    seals: list[Seal]
    reveals: list[Reveal]
    bad: list[tuple[int, str]]
    """Malformed seal/reveal spans."""
    mismatches: list[tuple[int, str]]
    """Reveals that disagree with the die printed before them."""


def _post_text(path: Path, out: Path) -> str:
    """A post's text as readers see it: UTF-8, and an HTML page without its tags and entities (a link leaving
    ``out`` is refused, never read)."""
    from html import unescape

    from .textfile import read_text
    text = read_text(path, within=out)
    return unescape(_TAG.sub("", text)) if path.suffix in (".html", ".htm") else text


def _collect(out: Path) -> list[Post]:
    """Read every post under ``out`` (chapters and exports), in posting order within each series."""
    if not out.is_dir():
        raise VerifyError(f"{out}：不是文件夹")
    posts = []
    for path in sorted(out.rglob("*")):
        rel = path.relative_to(out)
        if path.suffix not in POST_SUFFIXES or path.is_dir() or any(p.startswith(".") for p in rel.parts):
            continue
        text = _post_text(path, out)  # a FIFO or device is refused here, never read or skipped silently
        series, order = place(rel)
        posts.append(Post(str(path), series, order, *_parse(text), prose_mismatches(text)))
    return sorted(posts, key=lambda p: (p.series, p.order))


def verify_dir(out: Path) -> VerifyReport:
    """Recompute every commitment in the posts under ``out`` and report mismatches and seals.

    Reported as problems: a reveal that does not open its seal, a reveal with no seal, a reveal posted
    before its seal (earlier in the same series, or above it in the same file), a seal that conflicts
    with an earlier one, a malformed seal or reveal line, and a reveal whose value differs from the die
    the post prints for it."""
    posts = _collect(Path(out))
    report = VerifyReport()
    first: dict[str, tuple[Seal, str]] = {}
    for post in posts:
        report.problems += [f"{post.file}:{line}: 暗骰行格式不对：「{_snippet(snip)}」" for line, snip in post.bad]
        report.problems += [f"{post.file}:{line}: {msg}" for line, msg in post.mismatches]
        for s in post.seals:
            where = f"{post.file}:{s.line}"
            if s.roll_id not in first:
                first[s.roll_id] = (s, where)
            elif _sealed_as(first[s.roll_id][0]) != _sealed_as(s):
                report.problems.append(
                    f"{where}: {s.roll_id} 的封存与前面 {first[s.roll_id][1]} 的承诺矛盾"
                )
    revealed: set[str] = set()
    for post in posts:
        for r in post.reveals:
            report.checked += 1
            revealed.add(r.roll_id)
            if problem := _check_reveal(r, first.get(r.roll_id)):
                report.problems.append(f"{post.file}:{r.line}: {problem}")
            elif problem := r.inconsistency():
                report.problems.append(f"{post.file}:{r.line}: {problem}")
    report.problems += _early_reveals(posts)
    report.sealed = [(rid, where) for rid, (_, where) in first.items() if rid not in revealed]
    return report


def _snippet(text: str, limit: int = 120) -> str:
    """``text`` cut to ``limit`` characters for a report line (a malformed line may be any length), a character
    that is not printable escaped (no terminal control reaches the screen).

    >>> _snippet("〔封存\\x1b[2J", 5)
    '〔封存\\\\x1b[…（后面还有 2 个字符）'
    """
    shown = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text[:limit])
    return shown if len(text) <= limit else shown + f"…（后面还有 {len(text) - limit} 个字符）"


def _early_reveals(posts: list[Post]) -> list[str]:
    """Reveals posted before their seal within the same series."""
    problems = []
    by_series: dict[str, list[Post]] = {}
    for post in posts:
        by_series.setdefault(post.series, []).append(post)
    for series in by_series.values():
        sealed_at: dict[str, tuple[int, int]] = {}
        for i, post in enumerate(series):
            for s in post.seals:
                sealed_at.setdefault(s.roll_id, (i, s.line))
        for i, post in enumerate(series):
            for r in post.reveals:
                at = sealed_at.get(r.roll_id)
                if at is not None and (i, r.line) < at:
                    problems.append(f"{post.file}:{r.line}: {r.roll_id} 的揭晓贴在它的封存"
                                    f"（{series[at[0]].file}:{at[1]}）之前")
    return problems


def _sealed_as(s: Seal) -> tuple[str, str, str, str]:
    """What two seals of one id must share: kind, expression, reading and commitment."""
    return s.kind, s.expr, s.reading, s.commitment


_KIND_WORDS = {"v1": "第一版格式的骰子", "v2": "第二版格式的骰子", "fact": "事实"}


def _check_reveal(r: Reveal, sealed: tuple[Seal, str] | None) -> str | None:
    """The problem with reveal ``r`` against its seal, or None if it opens it."""
    if sealed is None:
        return f"{r.roll_id} 的揭晓没有对应的封存"
    seal, where = sealed
    if r.kind != seal.kind:
        return (f"{r.roll_id} 的揭晓与承诺不符（揭晓的是{_KIND_WORDS[r.kind]}，{where} 封存的是"
                f"{_KIND_WORDS[seal.kind]}）")
    if r.reading != seal.reading:
        return f"{r.roll_id} 的揭晓与承诺不符（揭晓的读法是 {r.reading}，{where} 封存的是 {seal.reading}）"
    if r.expr != seal.expr:
        return f"{r.roll_id} 的揭晓与承诺不符（揭晓的骰式是 {r.expr}，{where} 封存的是 {seal.expr}）"
    if not r.matches(seal):
        return f"{r.roll_id} 的揭晓与 {where} 的承诺不符"
    return None


def format_report(report: VerifyReport) -> str:
    """A short summary in Chinese, for the host and the readers: ``核对了 N 次揭晓；M 项仍在封存：…``, then one
    line per problem.

    >>> print(format_report(VerifyReport(2, [("s1/x#1", "out/s01/m01.md:9")], [])))
    核对了 2 次揭晓；1 项仍在封存：s1/x#1（out/s01/m01.md:9）
    >>> print(format_report(VerifyReport(1, [], ["out/s01/m02.md:4: x 的揭晓没有对应的封存"])))
    核对了 1 次揭晓；0 项仍在封存
    1 个问题：
      out/s01/m02.md:4: x 的揭晓没有对应的封存
    """
    head = f"核对了 {report.checked} 次揭晓；{len(report.sealed)} 项仍在封存"
    if report.sealed:
        head += "：" + "，".join(f"{rid}（{where}）" for rid, where in report.sealed)
    if not report.problems:
        return head
    lines = [head, f"{len(report.problems)} 个问题："]
    return "\n".join(lines + [f"  {p}" for p in report.problems])


__all__ = [
    "hidden_spans",
    "salt_for",
    "commitment",
    "GRAMMAR",
    "HASHED",
    "hashed_text",
    "hashed_text_v2",
    "hashed_text_fact",
    "HASHED_V2",
    "HASHED_FACT",
    "TEMPLATES",
    "FACT_KEY",
    "Fact",
    "as_fact",
    "canonical_json",
    "is_fact",
    "version_of",
    "seal_line",
    "reveal_line",
    "Seal",
    "Reveal",
    "scan",
    "VerifyReport",
    "Post",
    "POST_SUFFIXES",
    "prose_mismatches",
    "verify_dir",
    "format_report",
    "mask_sealed",
    "PUBLIC_ROLL_KEYS",
    "SEALED_BY",
]


SEALED_BY = "sealed_by"
"""The key a record sets to a sealed roll's id when everything else in it follows from that roll (an
outcome, a length of absence …): the mark by which a ruleset tells the core "this was decided by that roll"."""
PUBLIC_ROLL_KEYS = ("id", "purpose", "expr", "kind", "player", "side", "hidden", "modifiers", "target", "at", "commitment")
"""What a still-sealed roll's record keeps: that it was rolled, what for and by whom (a player, a side), the
inputs it was thrown with, where it was sealed and its commitment (both posted anyway), never an output (its
faces, total, result, success, or anything they decided)."""
VALUE_KEYS = ("dice", "total")
"""The keys a masked roll record shows as null (``result`` too when the record has one)."""


def mask_sealed(obj: Any, sealed: frozenset[str]) -> Any:
    """``obj`` with nothing left that a roll in ``sealed`` decided (a copy where needed; DESIGN §10).

    Two shapes are masked: a roll record, any mapping whose ``id`` is a sealed roll's (the core's
    :meth:`anko_writer.dice.Roll.to_json` or a ruleset's own), which keeps :data:`PUBLIC_ROLL_KEYS` and
    shows ``dice`` and ``total`` (and ``result``) as ``None``; and a record that names the roll under
    ``sealed_by`` (what the roll's face decided: an outcome, a length of absence …), which keeps only that
    key. Rulesets put every consequence of a sealed roll in such a record, so the public JSON says *that*
    something was rolled and nothing of what came of it. A sealed fact's record (:meth:`Fact.to_json`) keeps
    the same public keys and shows its ``fact`` as ``None``. With nothing sealed, ``obj`` itself is returned;
    a record or list that nothing sealed reaches is shared with ``obj``, not copied.

    >>> rec = {"r": [{"id": "a#1", "expr": "1D20", "dice": [7], "total": 7, "hidden": True, "purpose": "x"}],
    ...        "result": {"sealed_by": "a#1", "outcome": "halved", "weeks": 3}, "player": "穆勒"}
    >>> mask_sealed(rec, frozenset({"a#1"}))  # doctest: +NORMALIZE_WHITESPACE
    {'r': [{'id': 'a#1', 'expr': '1D20', 'dice': None, 'total': None, 'hidden': True, 'purpose': 'x'}],
     'result': {'sealed_by': 'a#1'}, 'player': '穆勒'}
    >>> mask_sealed({"id": "a#1", "kind": "casualty", "dice": [6, 3], "result": "dead", "text": "死亡"}, frozenset({"a#1"}))
    {'id': 'a#1', 'kind': 'casualty', 'dice': None, 'result': None, 'total': None}
    >>> mask_sealed([Fact("b1/伏#1", {"zone": "林地"}, "伏兵").to_json()], frozenset({"b1/伏#1"}))
    [{'id': 'b1/伏#1', 'purpose': '伏兵', 'fact': None, 'hidden': True}]
    """
    if not sealed:
        return obj
    return _masked(obj, sealed)


def _masked(obj: Any, sealed: frozenset[str]) -> Any:
    """:func:`mask_sealed` for a non-empty ``sealed``: a record or list nothing sealed reaches is shared, not
    copied (issue 29: the copy of a whole chapter's results was most of the mask's time)."""
    if isinstance(obj, dict):
        mark, rid = obj.get(SEALED_BY), obj.get("id")
        if isinstance(mark, str) and mark in sealed:
            return {SEALED_BY: mark}
        if isinstance(rid, str) and rid in sealed and FACT_KEY in obj:
            return {k: (None if k == FACT_KEY else v) for k, v in obj.items() if k in PUBLIC_ROLL_KEYS or k == FACT_KEY}
        if isinstance(rid, str) and rid in sealed:
            out = {k: (None if k in VALUE_KEYS or k == "result" else v) for k, v in obj.items()
                   if k in PUBLIC_ROLL_KEYS or k in VALUE_KEYS or k == "result"}
            return out | {k: None for k in VALUE_KEYS if k not in out}
        copy: dict[Any, Any] | None = None
        for k, v in obj.items():
            if isinstance(v, (dict, list)):
                m = _masked(v, sealed)
                if m is not v:
                    if copy is None:
                        copy = dict(obj)
                    copy[k] = m
        return copy if copy is not None else obj if type(obj) is dict else dict(obj)
    if isinstance(obj, list):
        items: list[Any] | None = None
        for i, v in enumerate(obj):
            if isinstance(v, (dict, list)):
                m = _masked(v, sealed)
                if m is not v:
                    if items is None:
                        items = list(obj)
                    items[i] = m
        return items if items is not None else obj if type(obj) is list else list(obj)
    return obj
