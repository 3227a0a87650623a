"""Dice: the rulebooks' notations, seeded streams keyed by purpose, and a record for every roll.

Randomness is injected, never global. Every roll draws from a *stream* derived from the campaign seed
and a stable key (``"s1/league/r05/雷希特-玛吉克"``), so rolls under one key never move the values of
another key. Tests pin exact outcomes with :meth:`Dice.fix`, like botbowl's ``D6.fix``.

>>> d = Dice(seed=7)
>>> d.fix(19)
>>> r = d.roll("demo", "1D30", "攻势骰")
>>> (r.expr, r.dice, r.total)
('1D30', (19,), 19)
>>> DiceExpr.parse("1D18+17").bounds()
(18, 35)
>>> DiceExpr.parse("D68").bounds()
(11, 68)
"""

from __future__ import annotations

import hashlib
import struct
import re
from collections import deque
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, NamedTuple, Sequence

from .errors import DiceError

_EXPR = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")

MAX_DICE = 100
"""The most dice one expression may throw (the rulebooks throw at most 3, as in ``3D100``)."""
MAX_SIDES = 1000
"""The most faces a die may have (the rulebooks' largest is the D100; a D1000 is allowed)."""
MAX_MODIFIER = 100_000
"""The largest constant an expression may add or subtract (the rulebooks' largest is ``+17``)."""


def _limited(text: str, digits: str, limit: int, rule: str) -> int:
    """``int(digits)`` if it is at most ``limit``, else a DiceError with ``rule`` (a huge number is never parsed).

    >>> DiceExpr.parse("1D100000000")
    Traceback (most recent call last):
    ...
    anko_writer.errors.DiceError: dice expression '1D100000000': a die may have at most 1,000 faces, got 100000000
    """
    if len(digits.lstrip("0")) > len(str(limit)) or int(digits) > limit:
        shown = digits if len(digits) <= 12 else digits[:12] + "…"
        raise DiceError(f"dice expression {text[:40]!r}: {rule.format(f'{limit:,}')}, got {shown}")
    return int(digits)


@dataclass(frozen=True)
class DiceExpr:
    """A parsed dice notation: ``count``D``sides`` + ``modifier``; ``D68`` is a D6 tens and a D8 units."""

    count: int
    """How many dice are thrown (``3D100`` throws three)."""
    sides: int
    """Faces of each die (68 marks the D68 special)."""
    modifier: int = 0
    """Constant added to the sum (``1D18+17`` → 17)."""

    @classmethod
    def parse(cls, text: str) -> "DiceExpr":
        """Parse ``D100``, ``1D30``, ``3D100``, ``1D18+17``, ``1D3+2``, ``2D6`` or ``D68``.

        >>> DiceExpr.parse("3D100")
        DiceExpr(count=3, sides=100, modifier=0)
        """
        return _parse(text)

    def die_sides(self) -> list[int]:
        """The faces of each physical die thrown, in order."""
        return [6, 8] if self.is_d68 else [self.sides] * self.count

    @classmethod
    def _build(cls, text: str) -> "DiceExpr":
        m = _EXPR.match(text) if len(text) <= 200 else None
        if not m:
            raise DiceError(f"cannot read dice expression {text[:40]!r}")
        count = _limited(text, m.group(1) or "1", MAX_DICE, "one throw may have at most {} dice")
        sides = _limited(text, m.group(2), MAX_SIDES, "a die may have at most {} faces")
        mod = _limited(text, m.group(4) or "0", MAX_MODIFIER, "the modifier may be at most {}")
        mod *= -1 if m.group(3) == "-" else 1
        if count < 1 or sides < 1:
            raise DiceError(f"dice expression {text!r} needs at least one die of at least one face")
        if sides == 68 and count != 1:
            raise DiceError("D68 is a single special die")
        return cls(count, sides, mod)

    @property
    def is_d68(self) -> bool:
        """True for the D68 special (D6 tens digit, D8 units digit)."""
        return self.sides == 68

    def total(self, dice: Sequence[int]) -> int:
        """Combine thrown dice into the expression's total."""
        if self.is_d68:
            return dice[0] * 10 + dice[1] + self.modifier
        return sum(dice) + self.modifier

    def bounds(self) -> tuple[int, int]:
        """Smallest and largest possible total."""
        if self.is_d68:
            return 11 + self.modifier, 68 + self.modifier
        return self.count + self.modifier, self.count * self.sides + self.modifier

    def __str__(self) -> str:
        return self.text

    @cached_property
    def text(self) -> str:
        """The canonical notation (``1D18+17``, ``D68``)."""
        if self.is_d68:
            return "D68"
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}D{self.sides}{mod}"


@lru_cache(maxsize=512)
def _parse(text: str) -> DiceExpr:
    """Parsed expressions are immutable, so each notation is parsed once."""
    return DiceExpr._build(text)


RollJson = dict[str, Any]
"""A roll as records embed it: :meth:`Roll.to_json` (``{id, purpose, expr, dice, total, hidden}``, ``kind``
when set) or the short :meth:`Roll.ref` (``{id, expr, total}``)."""


class Roll(NamedTuple):
    """One roll as it happened: what it decided, the notation, each die and the total (immutable)."""

    id: str
    """Stable id: the stream key and the roll's index in it (``s1/league/r05/A-B#3``)."""
    purpose: str
    """What the roll decides, in the chapter's language (``攻势骰``)."""
    expr: str
    """Notation as the rulebook writes it (``1D30``)."""
    dice: tuple[int, ...]
    """Each die's face, in throwing order."""
    total: int
    """The expression's value."""
    hidden: bool = False
    """Sealed in the chapter (``D100＝？？？``) and revealed later (000 §5.8.4)."""
    kind: str | None = None
    """What the roll decides, for machines (``schedule_draw``, ``given_name``): templates select rolls
    by it, never by the human :attr:`purpose`. None for rolls nothing selects."""

    def ref(self) -> RollJson:
        """A short reference to a public roll inside another record: ``{id, expr, total}``.

        The full record is in the month's ``rolls``; a hidden roll is never shortened.
        """
        if self.hidden:
            return self.to_json()
        return {"id": self.id, "expr": self.expr, "total": self.total}

    def to_json(self) -> RollJson:
        """The JSON record of DESIGN §5: ``{id, purpose, expr, dice, total, hidden}``, plus ``kind`` when set.

        >>> Roll("s1/x#1", "名", "1D9", (4,), 4, kind="given_name").to_json()["kind"]
        'given_name'
        >>> "kind" in Roll("s1/x#2", "攻势骰", "1D30", (7,), 7).to_json()
        False
        """
        out = {"id": self.id, "purpose": self.purpose, "expr": self.expr, "dice": list(self.dice),
               "total": self.total, "hidden": self.hidden}
        if self.kind is not None:
            out["kind"] = self.kind
        return out


class Stream:
    """Uniform integers from one (seed, key) pair: counter-mode SHA-256 with rejection sampling.

    Block ``n`` is ``SHA-256("{seed}\\x1f{key}\\x1f{n}")``; each 32-byte block gives four 64-bit words,
    used in order. A word ``w`` gives the face ``w mod sides + 1`` unless it falls in the last,
    incomplete run of ``2^64 mod sides`` values, which is skipped (so every face is equally likely).
    """

    __slots__ = ("seed", "key", "_prefix", "_block", "_words", "drawn")

    def __init__(self, seed: int, key: str) -> None:
        self.seed = seed
        self.key = key
        self._prefix = f"{seed}\x1f{key}\x1f".encode("utf-8")
        self._block = 0
        self._words: list[int] = []
        self.drawn = 0
        """How many values were taken (the next roll's index is ``drawn + 1``)."""

    def _next64(self) -> int:
        if not self._words:
            self._block += 1
            d = hashlib.sha256(self._prefix + str(self._block).encode()).digest()
            self._words = list(_WORDS.unpack(d)[::-1])  # big-endian words, used first to last
        return self._words.pop()

    def randint(self, sides: int) -> int:
        """A face of a fair ``sides``-sided die, 1..sides."""
        limit = _LIMITS.get(sides)
        if limit is None:
            limit = _LIMITS[sides] = _LIMIT - (_LIMIT % sides)
        while True:
            v = self._words.pop() if self._words else self._next64()
            if v < limit:
                self.drawn += 1
                return v % sides + 1


_LIMIT = 1 << 64
_LIMITS: dict[int, int] = {}
"""Per number of sides, the first word value of the incomplete run that :meth:`Stream.randint` skips."""
_WORDS = struct.Struct(">4Q")
"""A SHA-256 block as four big-endian 64-bit words."""


@dataclass
class _Fix:
    prefix: str
    values: deque[int]


class Dice:
    """The roller: one stream per key, a log of every roll, and values tests can fix."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._streams: dict[str, Stream] = {}
        self._fixed: list[_Fix] = []
        self._counts: dict[str, int] = {}
        self.log: list[Roll] = []
        """Every roll in the order it was made."""

    def stream(self, key: str) -> Stream:
        """The stream for ``key``, created on first use."""
        s = self._streams.get(key)
        if s is None:
            s = self._streams[key] = Stream(self.seed, key)
        return s

    def fix(self, *values: int, prefix: str = "") -> None:
        """Make the next dice thrown under keys starting with ``prefix`` show ``values`` in order."""
        self._fixed.append(_Fix(prefix, deque(values)))
        self._fixed = [fx for fx in self._fixed if fx.values]

    def _face(self, key: str, sides: int) -> int:
        if not self._fixed:
            return self.stream(key).randint(sides)
        for fx in self._fixed:
            if fx.values and key.startswith(fx.prefix):
                v = fx.values.popleft()
                if not fx.values:
                    self._fixed.remove(fx)
                if not 1 <= v <= sides:
                    raise DiceError(f"fixed value {v} is not a face of a D{sides} (key {key})")
                self.stream(key)  # keep stream creation identical with or without fixes
                return v
        return self.stream(key).randint(sides)

    def roll(self, key: str, expr: str | DiceExpr, purpose: str, hidden: bool = False,
             kind: str | None = None) -> Roll:
        """Throw ``expr`` on the stream ``key``, log it and return its record (``kind``: see :attr:`Roll.kind`)."""
        e = expr if isinstance(expr, DiceExpr) else _parse(expr)
        if e.count == 1 and e.sides != 68:
            face = self._face(key, e.sides)
            faces: tuple[int, ...] = (face,)
            total = face + e.modifier
        else:
            faces = tuple(self._face(key, s) for s in e.die_sides())
            total = e.total(faces)
        n = self._counts[key] = self._counts.get(key, 0) + 1
        r = Roll(f"{key}#{n}", purpose, e.text, faces, total, hidden, kind)
        self.log.append(r)
        return r

    def value(self, key: str, expr: str, purpose: str, hidden: bool = False, kind: str | None = None) -> int:
        """Throw and return only the total (the record still goes to the log)."""
        return self.roll(key, expr, purpose, hidden, kind).total

    def mark(self) -> int:
        """Position in the log, to slice out the rolls of a phase later."""
        return len(self.log)

    def since(self, mark: int) -> list[Roll]:
        """The rolls made after ``mark``."""
        return self.log[mark:]


@dataclass(frozen=True)
class Weighted:
    """A weighted draw resolved by one die: ``1D{total}`` over cumulative ranges (shown in prose)."""

    options: tuple[tuple[str, int], ...]
    """(label, integer weight) pairs; zero weights are skipped."""

    def pick(self, face: int) -> str:
        """The label whose cumulative range holds ``face`` (1-based)."""
        acc = 0
        for label, w in self.options:
            acc += w
            if face <= acc:
                return label
        raise DiceError(f"face {face} beyond total weight {acc}")

    @property
    def total(self) -> int:
        """Sum of weights: the die's size."""
        return sum(w for _, w in self.options)


def shuffle(dice: Dice, key: str, items: Sequence[str], purpose: str,
            kind: str | None = None) -> tuple[list[str], list[Roll]]:
    """Random order by visible dice: pick with 1D(n), then 1D(n-1) … (a host can replay it by hand)."""
    pool = list(items)
    out: list[str] = []
    rolls: list[Roll] = []
    while len(pool) > 1:
        r = dice.roll(key, f"1D{len(pool)}", purpose, kind=kind)
        rolls.append(r)
        out.append(pool.pop(r.total - 1))
    out.extend(pool)
    return out, rolls


__all__ = ["DiceExpr", "Roll", "Stream", "Dice", "Weighted", "shuffle", "MAX_DICE", "MAX_SIDES", "MAX_MODIFIER"]
