"""Story beats: the notable things of a chapter as data, ranked by weight, with an arc memo so no beat
``(kind, subject)`` heads two chapters of an arc. Data only, never prose: a template phrases a beat through
the phrase bank ``<prefix>_<kind>`` (:func:`phrase_key`); the weights stay with the ruleset.

>>> memo = Memo()
>>> month = [Beat("win", 14, "乙"), Beat("hat_trick", 70, "张三"), Beat("win", 12, "乙")]
>>> first = rank(month, memo)
>>> [b.kind for b in first.beats], first.head.subject, first.memo.heads
(['hat_trick', 'win'], '张三', (('hat_trick', '张三'),))
>>> again = rank(month, first.memo)
>>> again.head.kind, again.before["hat_trick|张三"]
('win', 1)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Beat:
    """One notable thing: its kind (the phrase bank), how much it weighs, what it is about, and its facts."""

    kind: str
    weight: int
    subject: str = ""
    """With ``kind``, what no two chapters of an arc head with ("" for a kind told at most once)."""
    facts: Mapping[str, Any] = field(default_factory=dict)
    """What a sentence needs (names, numbers): the ruleset's own record of the beat."""

    @property
    def tag(self) -> str:
        """``kind|subject``: the beat's key in :attr:`Memo.seen`."""
        return f"{self.kind}|{self.subject}"


@dataclass(frozen=True)
class Memo:
    """What ranking carries from one chapter of an arc to the next."""

    heads: tuple[tuple[str, str], ...] = ()
    """``(kind, subject)`` of each earlier chapter's head beat."""
    seen: Mapping[str, int] = field(default_factory=dict)
    """``kind|subject`` → earlier chapters with such a beat."""


@dataclass(frozen=True)
class Ranked:
    """A chapter's beats ranked: the head first (when one is fresh), then heaviest first; and the next memo."""

    beats: list[Beat]
    head: Beat | None
    """The beat that heads the chapter: the heaviest whose ``(kind, subject)`` headed no earlier chapter."""
    before: dict[str, int]
    """``kind|subject`` → earlier chapters of the arc with such a beat."""
    memo: Memo


def heaviest(beats: Sequence[Beat], tie: Callable[[Beat], Any] | None = None) -> list[Beat]:
    """``beats`` heaviest first; equal weights by ``tie`` (if given), then in their given order."""
    return sorted(beats, key=lambda b: (-b.weight, tie(b)) if tie is not None else -b.weight)


def once(beats: Sequence[Beat]) -> list[Beat]:
    """One beat per ``(kind, subject)``: the heaviest (the first given, on a tie); heaviest first, then by
    kind and subject."""
    kept: dict[str, Beat] = {}
    for b in heaviest(beats):
        kept.setdefault(b.tag, b)
    return sorted(kept.values(), key=lambda b: (-b.weight, b.kind, b.subject))


def rank(beats: Sequence[Beat], memo: Memo) -> Ranked:
    """Rank a chapter's beats (:func:`once`), put the heaviest fresh one first as the head, and remember both
    the head and every beat told."""
    ranked = once(beats)
    used = set(memo.heads)
    at = next((i for i, b in enumerate(ranked) if (b.kind, b.subject) not in used), None)
    heads = memo.heads
    head = None
    if at is not None:
        head = ranked.pop(at)
        ranked.insert(0, head)
        heads = (*heads, (head.kind, head.subject))
    before = {b.tag: memo.seen.get(b.tag, 0) for b in ranked}
    seen = {**memo.seen, **{tag: n + 1 for tag, n in before.items()}}
    return Ranked(ranked, head, before, Memo(heads, seen))


def phrase_key(prefix: str, kind: str) -> str:
    """The phrase bank of a beat kind: ``title`` and ``win`` → ``title_win``."""
    return f"{prefix}_{kind}"


def count(counts: MutableMapping[str, int], key: str) -> int:
    """How many earlier chapters of the arc used ``key`` (a title bank, say), counting this one."""
    n = counts.get(key, 0)
    counts[key] = n + 1
    return n


__all__ = ["Beat", "Memo", "Ranked", "count", "heaviest", "once", "phrase_key", "rank"]
