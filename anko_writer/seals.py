"""Hidden-dice bookkeeping for every ruleset (000 §5.8.4): seal, fall due, carry, mask.

A ruleset hands the book each chapter's rolls; every hidden roll not revealed in its own chapter is
sealed with what its reveal will retell (a public *moment*) and what it decided (a private *outcome*).
A seal falls due ``delay`` parts later (at least one); the ruleset then applies the outcome through a
callback and tells the reveal. What is still sealed at an arc's end is carried as a plain list (for a
state file) into the next arc. The public JSON beside a chapter masks every roll still sealed.

>>> from anko_writer.dice import Roll
>>> book = SealBook()
>>> roll = Roll("d1/b1/toss#1", "决胜币", "1D2", (2,), 2, True)
>>> book.seal([roll], ChapterKey(1, 1), delay=1, moments={roll.id: {"moment": {"round": 3},
...                                                                  "outcome": {"winner": "阿尔托"}}})
>>> [s.roll["id"] for s in book.pending()]
['d1/b1/toss#1']
>>> book.public({"rolls": [roll.to_json()]})["rolls"][0]["total"] is None
True
>>> [r["outcome"] for r in book.due(ChapterKey(1, 2), lambda outcome: None)]
[{'winner': '阿尔托'}]
>>> book.pending()
[]

A *secret fact* (a position, a hidden unit card, a committed order) is sealed the same way: its canonical
JSON is committed (:func:`~anko_writer.hidden.canonical_json`, the same salt rule over the fact's id),
carried across arcs and revealed through ``due`` like a roll; its record holds the payload under ``fact``.

>>> card = book.seal_fact("b1/卡/巨魔#卡", {"unit": "巨魔", "traits": ["再生"]}, ChapterKey(1, 1), delay=2,
...                       purpose="敌军部队卡")
>>> book.public({"sealed": [card]})["sealed"][0]["fact"] is None
True
>>> [r["fact"]["unit"] for r in book.due(ChapterKey(1, 3), lambda outcome: None)]
['巨魔']
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .chapters import ChapterKey, Record
from .dice import Roll
from .hidden import FACT_KEY, Fact, canonical_json, mask_sealed, salt_for
from .schema import Bool, Data, Field, Int, List, Map, Str

_KEY = List(Int(min=0), min_len=2, max_len=2)
SEAL_RECORD = Map({
    "fact": Field(Map({
        "id": Field(Str(pattern=r"[^\s｜〕|]+", pattern_doc="a fact id (no whitespace, ｜, 〕 or |)")),
        "purpose": Field(Str(), default=""),
        "fact": Field(Data(), doc="The payload (any JSON value)."),
        "hidden": Field(Bool(), default=True)}), required=False,
        doc="A sealed fact's record, instead of ``roll`` (private until its reveal)."),
    "roll": Field(Map({
        "id": Field(Str(pattern=r"[^\s｜〕]+", pattern_doc="a roll id (no whitespace, ｜ or 〕)")),
        "purpose": Field(Str()),
        "expr": Field(Str(pattern=r"[^\s｜〕＝]+", pattern_doc="dice notation (no whitespace, ｜, 〕 or ＝)")),
        "dice": Field(List(Int())), "total": Field(Int()), "hidden": Field(Bool()),
        "kind": Field(Str(), required=False), "reading": Field(Str(), required=False)}), required=False,
        doc="The sealed roll's record (private until its reveal); a sealed fact has ``fact`` instead."),
    "at": Field(_KEY, doc="The chapter that posted the seal: [arc, part]."),
    "due": Field(_KEY, doc="The chapter that reveals it: [arc, part]."),
    "moment": Field(Data(), default=None, doc="What the reveal retells."),
    "outcome": Field(Data(), default=None, doc="What the roll decided."),
}, doc="A seal carried into the next arc (:meth:`Seal.to_json`).")
"""The schema of a carried seal in a state file, so a hand-edited one is a located error (a seal without
``at`` names its file, line and key) rather than a traceback."""

Apply = Callable[[Record | None], object]
"""The ruleset's callback for a revealed outcome: applies it from now on, returns what the reveal
record keeps under ``back`` (None when there is nothing to say)."""


@dataclass
class Seal:
    """One sealed roll or fact: where it was sealed, when it falls due, what its reveal retells."""

    roll: Record
    """The roll's full record (:meth:`Roll.to_json`), or a fact's (:meth:`Fact.to_json`, the payload under
    ``fact``): private until the reveal."""
    at: ChapterKey
    """The chapter that posted the seal."""
    due: ChapterKey
    """The first chapter that reveals it (its part may pass the arc's end until carried)."""
    moment: Record | None = None
    """What the reveal retells (public)."""
    outcome: Record | None = None
    """What the roll decided (private until the reveal)."""
    done: bool = False

    @property
    def id(self) -> str:
        """The roll's id."""
        return str(self.roll["id"])

    def carried(self, arc_length: int) -> Seal:
        """This seal moved into the next arc: due ``arc_length`` parts earlier there, at part 1 at least."""
        due = ChapterKey(self.due.arc + 1, max(1, self.due.part - arc_length))
        return Seal(dict(self.roll), self.at, due, self.moment, self.outcome)

    @property
    def is_fact(self) -> bool:
        """True for a sealed fact."""
        return FACT_KEY in self.roll

    def to_json(self) -> Record:
        """The seal as a plain record for a state file (private): the record under ``roll``, or ``fact``."""
        return {"fact" if self.is_fact else "roll": dict(self.roll), "at": [self.at.arc, self.at.part],
                "due": [self.due.arc, self.due.part], "moment": self.moment, "outcome": self.outcome}

    @classmethod
    def from_json(cls, record: Mapping[str, object]) -> Seal:
        """A seal read back from :meth:`to_json`'s record."""
        at, due = record["at"], record["due"]
        if not (isinstance(at, list) and isinstance(due, list)):
            raise ValueError(f"a carried seal needs 'at' and 'due' as [arc, part], got {at!r}, {due!r}")
        roll, moment, outcome = record.get("roll", record.get("fact")), record.get("moment"), record.get("outcome")
        if not isinstance(roll, dict):
            raise ValueError("a carried seal needs the sealed 'roll' or 'fact' record")
        return cls(dict(roll) if isinstance(roll, dict) else {}, ChapterKey(int(at[0]), int(at[1])),
                   ChapterKey(int(due[0]), int(due[1])), moment if isinstance(moment, dict) else None,
                   outcome if isinstance(outcome, dict) else None)


class SealBook:
    """Every seal of a run, in the order they were made; the one place reveals are scheduled."""

    def __init__(self, seals: Iterable[Seal] = (), arc_word: str = "arc") -> None:
        self.seals: list[Seal] = list(seals)
        self.arc_word = arc_word
        """The ruleset's word for an arc in reveal records: ``sealed_<arc_word>`` (``sealed_season``)."""

    def __repr__(self) -> str:
        return f"SealBook({self.seals!r}, arc_word={self.arc_word!r})"

    def add(self, seal: Seal) -> None:
        """Keep a seal made elsewhere (one carried in from a state file)."""
        self.seals.append(seal)

    def seal(self, rolls: Iterable[Roll], at: ChapterKey, delay: int,
             moments: Mapping[str, Mapping[str, Record]] | None = None,
             revealed_here: Collection[str] = ()) -> None:
        """Seal every hidden roll of chapter ``at`` not in ``revealed_here``, due ``delay`` parts later
        (at least one); ``moments`` maps a roll id to its ``{"moment": …, "outcome": …}``."""
        due = ChapterKey(at.arc, at.part + max(1, delay))
        for r in rolls:
            if r.hidden and r.id not in revealed_here:
                note = (moments or {}).get(r.id, {})
                self.seals.append(Seal(r.to_json(), at, due, note.get("moment"), note.get("outcome")))

    def seal_fact(self, fact_id: str, payload: object, at: ChapterKey, delay: int, purpose: str = "",
                  moment: Record | None = None, outcome: Record | None = None) -> Record:
        """Seal a secret fact in chapter ``at``, due ``delay`` parts later (at least one), and return its record
        (:meth:`~anko_writer.hidden.Fact.to_json`: the chapter's template prints its seal line with the
        ``seal`` filter and, at the reveal, its reveal line with ``reveal``). The payload must be JSON
        (:func:`~anko_writer.hidden.canonical_json`; ValueError otherwise) and is kept as its canonical JSON
        reads back, so what is carried, revealed and hashed is one value."""
        fact = Fact(fact_id, canonical_value(payload), purpose)
        if any(s.id == fact_id for s in self.seals):
            raise ValueError(f"{fact_id!r} is sealed already")
        record = fact.to_json()
        self.seals.append(Seal(record, at, ChapterKey(at.arc, at.part + max(1, delay)), moment, outcome))
        return dict(record)

    def due(self, at: ChapterKey, apply: Apply, everything: bool = False) -> list[Record]:
        """Reveal every seal due by chapter ``at`` (or every seal, for a story's last chapter), apply
        each outcome through ``apply`` in sealing order, and return the reveal records."""
        return self.reveal([s.id for s in self.seals if not s.done and (everything or s.due <= at)], apply)

    def reveal(self, ids: Collection[str], apply: Apply) -> list[Record]:
        """Reveal the pending seals ``ids`` now, before they fall due (a hidden unit seen, an ambush sprung), in
        sealing order, and return their reveal records (as :meth:`due` makes them)."""
        out: list[Record] = []
        for s in self.seals:
            if not s.done and s.id in ids:
                s.done = True
                back = apply(s.outcome)
                out.append({**s.roll, "sealed_in": s.at.part, f"sealed_{self.arc_word}": s.at.arc,
                            "moment": s.moment, "outcome": s.outcome, "back": back})
        return out

    def pending(self) -> list[Seal]:
        """The seals not revealed yet."""
        return [s for s in self.seals if not s.done]

    def sealed_at(self, at: ChapterKey) -> list[Record]:
        """The roll records chapter ``at`` sealed."""
        return [s.roll for s in self.seals if s.at == at]

    def sealed_ids(self) -> frozenset[str]:
        """Ids of every roll and fact still sealed."""
        return frozenset(s.id for s in self.pending())

    def public(self, results: Record) -> Record:
        """``results`` as the JSON beside the chapter may show it: rolls still sealed masked (DESIGN §10)."""
        masked: Record = mask_sealed(results, self.sealed_ids())
        return masked

    def carry(self, arc_length: int) -> list[Record]:
        """The seals still pending, moved into the next arc, as plain records for a state file."""
        return [s.carried(arc_length).to_json() for s in self.pending()]

    @classmethod
    def carried_in(cls, records: Iterable[Mapping[str, object]], arc_word: str = "arc") -> SealBook:
        """A book holding the seals a state file carried in (records of :meth:`carry`)."""
        return cls((Seal.from_json(r) for r in records), arc_word)


_SURROGATE = re.compile("[\ud800-\udfff]")
"""A surrogate code point: two of them read back from their escapes as one character, so not the fast path."""


class _Plain(Exception):
    """A value :func:`_normal` leaves to the canonical JSON's round trip."""


def _normal(value: object) -> object:
    """The value ``json.loads(canonical_json(value))`` gives, for the plain kinds (keys sorted, tuples as lists);
    _Plain for anything else (another type, a subclass, a non-finite float, a surrogate)."""
    kind = type(value)
    if isinstance(value, str) and kind is str:
        if _SURROGATE.search(value):
            raise _Plain
        return value
    if isinstance(value, dict) and kind is dict:
        if not all(type(k) is str and not _SURROGATE.search(k) for k in value):
            raise _Plain
        return {k: _normal(value[k]) for k in sorted(value)}
    if isinstance(value, (list, tuple)) and (kind is list or kind is tuple):
        return [_normal(v) for v in value]
    if value is None or kind is bool or kind is int:
        return value
    if isinstance(value, float) and kind is float and math.isfinite(value):
        return value
    raise _Plain


def canonical_value(payload: object) -> Any:
    """A fact's payload as its canonical JSON reads back (:func:`~anko_writer.hidden.canonical_json`, then
    ``json.loads``): the same value, built without the text for the plain kinds (issue 29), through the text
    (and its ValueError) for anything else. ``tests/sanguo/test_seal_json_fast.py`` compares both ways.

    >>> canonical_value({"b": (1, 2.5), "a": [None, True, "封"]})
    {'a': [None, True, '封'], 'b': [1, 2.5]}
    """
    try:
        return _normal(payload)
    except (_Plain, RecursionError):
        return json.loads(canonical_json(payload))


def with_salts(reveals: Iterable[Record], seed: int, expr: str) -> None:
    """Give each revealed fact's record the fields a ruleset's JSON contract names for a reveal —
    ``{expr, value, salt, state}`` (``state``: the fact's payload; the salt is posted in the reveal line anyway)."""
    for r in reveals:
        if FACT_KEY in r:
            r.update(expr=expr, value=None, salt=salt_for(seed, str(r["id"])), state=r[FACT_KEY])


__all__ = ["Apply", "SEAL_RECORD", "Seal", "SealBook", "with_salts"]
