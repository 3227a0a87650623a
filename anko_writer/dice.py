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

An expression also says how its faces are *read* (:class:`Reading`): summed (the default), as tens and
units, as a spread (接战 002 §3.3), the highest face, or a count of faces at least N. Evaluation is apart
from presentation, as in d20 (its expression tree and its stringifiers): :class:`DiceExpr` and
:class:`Reading` compute a :class:`Roll`; :class:`Printer` says how the rulebook prints it.

>>> spread = DiceExpr.parse("3D6").read_as("spread")
>>> (spread.total((2, 3, 5)), spread.total((4, 6, 6)), spread.bounds())
(4, 3, (1, 6))
>>> d.fix(2, 3, 5)
>>> PRINTER.dice(d.roll("demo", spread, "减员骰"))
'「3D6＝2,3,5→4」'

A ruleset may declare a notation of its own (:func:`declare_notation`): Blood Bowl declares its ``D68``
(a D6 for the tens, a D8 for the units); the core grammar itself is only ``NdS±m``.
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Any, NamedTuple

from .errors import DiceError

_LIMIT = 1 << 64
"""A stream's words are 64-bit: values below 2^64."""
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
    anko_writer.errors.DiceError: 骰子表达式 '1D100000000'：一颗骰子至多 1,000 面，实际是 100000000
    """
    if len(digits.lstrip("0")) > len(str(limit)) or int(digits) > limit:
        shown = digits if len(digits) <= 12 else digits[:12] + "…"
        raise DiceError(f"骰子表达式 {text[:40]!r}：{rule.format(f'{limit:,}')}，实际是 {shown}")
    return int(digits)


READINGS = ("sum", "tens_units", "spread", "highest", "count_at_least")
"""The ways the core reads thrown faces (:class:`Reading`)."""
_READING = re.compile(r"(sum|tens_units|spread|highest)|count_at_least:([1-9][0-9]{0,5})")


@dataclass(frozen=True)
class Reading:
    """How an expression's faces become its value (before the modifier is added).

    ``sum`` adds them (the default); ``tens_units`` reads them as the digits of a number, the first die
    the highest digit (Blood Bowl's D68: 6 and 3 are 63); ``spread`` is 接战's casualty reading (002 §3.3,
    engage.md E1): the largest difference plus one for each die inside it, a die equal to the largest or
    the smallest counting as inside, i.e. ``(max − min) + (n − 2)`` for two dice or more, 0 for one;
    ``highest`` is the highest face; ``count_at_least:N`` counts the faces of at least N.

    >>> [Reading.parse("spread").value(f) for f in ((2, 3, 5), (4, 6, 6), (3, 3), (6,))]
    [4, 3, 0, 0]
    >>> Reading.parse("count_at_least:5").value((5, 2, 6, 4)), Reading.parse("highest").value((2, 6, 3))
    (2, 6)
    """

    name: str = "sum"
    """One of :data:`READINGS`."""
    at_least: int = 0
    """The N of ``count_at_least:N`` (0 for every other reading)."""

    @classmethod
    def parse(cls, token: str | Reading) -> Reading:
        """The reading a token names: ``sum``, ``tens_units``, ``spread``, ``highest``, ``count_at_least:N``."""
        if isinstance(token, Reading):
            return token
        m = _READING.fullmatch(token) if isinstance(token, str) else None
        if m is None:
            raise DiceError(f"未知的读法 {str(token)[:40]!r}（应为以下之一：sum、tens_units、spread、"
                            "highest、count_at_least:N）")
        return cls(m[1]) if m[1] else cls("count_at_least", int(m[2]))

    @property
    def token(self) -> str:
        """The reading as records, seal lines and commitments write it (``spread``, ``count_at_least:5``)."""
        return f"{self.name}:{self.at_least}" if self.name == "count_at_least" else self.name

    @property
    def faces_matter(self) -> bool:
        """True when the rules read more of the faces than the value says: such a roll prints its faces
        (「3D6＝2,3,5→4」) and is sealed with them (commitment v2). A sum is its value by definition, and
        tens-and-units faces are the digits of the value, so those two print and seal the value alone (v1)."""
        return self.name not in ("sum", "tens_units")

    def value(self, faces: Sequence[int]) -> int:
        """The faces read (without the expression's modifier)."""
        if self.name == "sum":
            return sum(faces)
        if self.name == "tens_units":
            out = 0
            for f in faces:
                out = out * 10 + f
            return out
        if self.name == "spread":
            return max(faces) - min(faces) + len(faces) - 2 if len(faces) >= 2 else 0
        if self.name == "highest":
            return max(faces)
        return sum(1 for f in faces if f >= self.at_least)

    def bounds(self, sides: Sequence[int]) -> tuple[int, int]:
        """Smallest and largest value dice of ``sides`` faces can read."""
        n = len(sides)
        if self.name in ("sum", "tens_units"):
            return self.value([1] * n), self.value(list(sides))
        if self.name == "spread":
            return (n - 2, max(sides) - 1 + n - 2) if n >= 2 else (0, 0)
        if self.name == "highest":
            return 1, max(sides)
        return (n if self.at_least <= 1 else 0), sum(1 for s in sides if s >= self.at_least)

    def check(self, sides: Sequence[int]) -> None:
        """Raise DiceError if dice of ``sides`` faces cannot be read this way (a tens-and-units die of ten faces
        or more would not be one digit)."""
        if self.name == "tens_units" and any(s > 9 for s in sides):
            raise DiceError(f"十位个位读法要求每颗骰子至多 9 面，实际是 D{max(sides)}")


SUM = Reading()
"""The default reading: the faces added up."""


@dataclass(frozen=True)
class DiceExpr:
    """A parsed dice notation: ``count``D``sides`` + ``modifier``, read by :attr:`reading` (a sum unless
    told otherwise); a declared notation (:func:`declare_notation`) names dice of differing faces."""

    count: int
    """How many dice are thrown (``3D100`` throws three)."""
    sides: int
    """Faces of each die (of the largest die, for a declared notation whose dice differ)."""
    modifier: int = 0
    """Constant added to the read value (``1D18+17`` → 17)."""
    reading: Reading = SUM
    """How the faces are read (:class:`Reading`)."""
    pool: tuple[int, ...] = field(default=(), repr=False)
    """The faces of each die of a declared notation, in throwing order (``D68``: ``(6, 8)``); empty otherwise."""
    name: str = field(default="", repr=False)
    """A declared notation's own text (``D68``); empty for ``NdS±m``."""
    _plain: bool = field(init=False, repr=False, compare=False)
    _token: str = field(init=False, repr=False, compare=False)
    _limit: int = field(init=False, repr=False, compare=False)
    _text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # what every roll of this expression reads, worked out once (Dice.roll's fast path)
        object.__setattr__(self, "_plain", self.count == 1 and not self.pool and self.reading == SUM)
        object.__setattr__(self, "_token", self.reading.token)
        object.__setattr__(self, "_limit", _LIMIT - (_LIMIT % self.sides) if self.sides >= 1 else _LIMIT)
        object.__setattr__(self, "_text", self.text)

    @classmethod
    def parse(cls, text: str) -> DiceExpr:
        """Parse ``D100``, ``1D30``, ``3D100``, ``1D18+17``, ``1D3+2``, ``2D6``, or a declared notation.

        >>> DiceExpr.parse("3D100")
        DiceExpr(count=3, sides=100, modifier=0, reading=Reading(name='sum', at_least=0))
        """
        return _parse(text)

    def die_sides(self) -> list[int]:
        """The faces of each physical die thrown, in order."""
        return list(self.pool) if self.pool else [self.sides] * self.count

    def read_as(self, reading: str | Reading) -> DiceExpr:
        """This expression read another way (``DiceExpr.parse("3D6").read_as("spread")``)."""
        r = Reading.parse(reading)
        r.check(self.die_sides())
        return replace(self, reading=r)

    @classmethod
    def _build(cls, text: str) -> DiceExpr:
        declared = _DECLARED.get(text.strip()) if isinstance(text, str) else None
        if declared is not None:
            return declared
        m = _EXPR.match(text) if len(text) <= 200 else None
        if not m:
            raise DiceError(f"看不懂骰子表达式 {text[:40]!r}")
        count = _limited(text, m.group(1) or "1", MAX_DICE, "一次至多掷 {} 颗骰子")
        sides = _limited(text, m.group(2), MAX_SIDES, "一颗骰子至多 {} 面")
        mod = _limited(text, m.group(4) or "0", MAX_MODIFIER, "加值至多为 {}")
        mod *= -1 if m.group(3) == "-" else 1
        if count < 1 or sides < 1:
            raise DiceError(f"骰子表达式 {text!r} 至少要有一颗至少一面的骰子")
        return cls(count, sides, mod)

    def total(self, dice: Sequence[int]) -> int:
        """Read thrown dice into the expression's value (the modifier added)."""
        return self.reading.value(dice) + self.modifier

    def bounds(self) -> tuple[int, int]:
        """Smallest and largest possible total."""
        lo, hi = self.reading.bounds(self.die_sides())
        return lo + self.modifier, hi + self.modifier

    def __str__(self) -> str:
        return self.text

    @cached_property
    def text(self) -> str:
        """The canonical notation (``1D18+17``, a declared ``D68``); the reading is not part of it."""
        if self.name:
            return self.name
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}D{self.sides}{mod}"


_DECLARED: dict[str, DiceExpr] = {}
"""Notations rulesets declared (:func:`declare_notation`), by their text."""
_NAME = re.compile(r"[A-Za-z0-9]{1,20}")


def declare_notation(name: str, dice: Sequence[int], reading: str | Reading = "sum") -> DiceExpr:
    """Declare a ruleset's own notation: ``name`` throws one die of each of ``dice`` faces, read by ``reading``.

    Blood Bowl declares ``declare_notation("D68", (6, 8), "tens_units")``. A declared name wins over the core
    grammar (undeclared, ``D68`` is one die of 68 faces). Declaring the same notation again with the same
    meaning returns it; another meaning is refused (two rulesets cannot read one notation two ways).

    >>> d66 = declare_notation("D66", (6, 6), "tens_units")
    >>> (d66.bounds(), d66.total((3, 5)), DiceExpr.parse("D66") is d66)
    ((11, 66), 35, True)
    """
    sides = tuple(int(s) for s in dice)
    if not _NAME.fullmatch(name) or not sides or any(not 1 <= s <= MAX_SIDES for s in sides) \
            or len(sides) > MAX_DICE:
        raise DiceError(f"不能把骰子记法 {name[:40]!r} 声明为 {sides!r}")
    r = Reading.parse(reading)
    r.check(sides)
    expr = DiceExpr(len(sides), max(sides), 0, r, sides, name)
    have = _DECLARED.get(name)
    if have is not None:
        if (have.pool, have.reading) != (sides, r):
            raise DiceError(f"骰子记法 {name!r} 已声明为 {have.pool!r}，读法 {have.reading.token}")
        return have
    _DECLARED[name] = expr
    _parse.cache_clear()
    return expr


def own_reading(expr: str) -> str:
    """The reading notation ``expr`` has unless a roll says otherwise (``sum``; a declared notation's own;
    ``sum`` for text that is no notation, such as a fallback seal's ``态势``)."""
    try:
        return _parse(expr).reading.token
    except DiceError:
        return "sum"


@lru_cache(maxsize=512)
def _parse(text: str) -> DiceExpr:
    """Parsed expressions are immutable, so each notation is parsed once."""
    return DiceExpr._build(text)


RollJson = dict[str, Any]
"""A roll as records embed it: :meth:`Roll.to_json` (``{id, purpose, expr, dice, total, hidden}``, ``kind``
and ``reading`` when set) or the short :meth:`Roll.ref` (``{id, expr, total}``)."""


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
    reading: str = "sum"
    """How the faces were read (:attr:`Reading.token`: ``sum``, ``spread`` …)."""

    def ref(self) -> RollJson:
        """A short reference to a public roll inside another record: ``{id, expr, total}``.

        The full record is in the month's ``rolls``; a hidden roll is never shortened.
        """
        if self.hidden:
            return self.to_json()
        out: RollJson = {"id": self.id, "expr": self.expr, "total": self.total}
        reading = self.reading
        if reading != "sum" and reading != own_reading(self.expr):  # not the notation's own: said
            out["reading"] = reading
        return out

    def to_json(self) -> RollJson:
        """The JSON record of DESIGN §5: ``{id, purpose, expr, dice, total, hidden}``, plus ``kind`` when set
        and ``reading`` when it is not the notation's own.

        >>> Roll("s1/x#1", "名", "1D9", (4,), 4, kind="given_name").to_json()["kind"]
        'given_name'
        >>> "kind" in Roll("s1/x#2", "攻势骰", "1D30", (7,), 7).to_json()
        False
        >>> Roll("b1/r1#1", "减员骰", "3D6", (2, 3, 5), 4, reading="spread").to_json()["reading"]
        'spread'
        """
        rid, purpose, expr, dice, total, hidden, kind, reading = self
        out: RollJson = {"id": rid, "purpose": purpose, "expr": expr, "dice": list(dice), "total": total,
                         "hidden": hidden}
        if kind is not None:
            out["kind"] = kind
        if reading != "sum" and reading != own_reading(expr):
            out["reading"] = reading
        return out

    @classmethod
    def from_json(cls, record: RollJson) -> Roll:
        """A roll from its record (:meth:`to_json`); a record without ``reading`` has its notation's own."""
        expr = str(record["expr"])
        return cls(str(record["id"]), str(record.get("purpose", "")), expr, tuple(record.get("dice") or ()),
                   int(record["total"]), bool(record.get("hidden", False)), record.get("kind"),
                   str(record.get("reading") or own_reading(expr)))


_new_roll = tuple.__new__
"""A :class:`Roll` from its eight fields without the named tuple's own ``__new__`` (one call less a roll)."""


class Printer:
    """How a roll is printed as the rulebook reads it, apart from how it is evaluated (as d20 keeps its
    stringifiers apart from its expression tree): one ``_<reading>`` method per reading, so a ruleset may
    subclass it to print one reading its own way.

    >>> PRINTER.value(Roll("x#1", "减员骰", "3D6", (4, 6, 6), 3, reading="spread"))
    '4,6,6→3'
    >>> PRINTER.dice(Roll("x#2", "攻势骰", "1D30", (19,), 19)), PRINTER.dice(Roll("x#3", "p", "D100", (5,), 5, True))
    ('「1D30＝19」', '「D100＝？？？」')
    """

    def value(self, roll: Roll) -> str:
        """What follows ``＝``: the total, or for a reading whose faces matter ``faces→total``."""
        method = getattr(self, f"_{Reading.parse(roll.reading).name}", None)
        return str(method(roll)) if method is not None else str(roll.total)

    def faces(self, roll: Roll) -> str:
        """The faces as the line prints them: ``2,3,5``."""
        return ",".join(str(f) for f in roll.dice)

    def _spread(self, roll: Roll) -> str:
        return f"{self.faces(roll)}→{roll.total}"

    _highest = _count_at_least = _spread

    def dice(self, roll: Roll) -> str:
        """The dice line: ``「1D30＝19」``, ``「3D6＝2,3,5→4」``, or ``「D100＝？？？」`` when hidden."""
        return f"「{roll.expr}＝{'？？？' if roll.hidden else self.value(roll)}」"


PRINTER = Printer()
"""The core's printer (the ``dice`` filter and the seal and reveal lines use it)."""


class Stream:
    """Uniform integers from one (seed, key) pair: counter-mode SHA-256 with rejection sampling.

    Block ``n`` is ``SHA-256("{seed}\\x1f{key}\\x1f{n}")``; each 32-byte block gives four 64-bit words,
    used in order. A word ``w`` gives the face ``w mod sides + 1`` unless it falls in the last,
    incomplete run of ``2^64 mod sides`` values, which is skipped (so every face is equally likely).
    """

    __slots__ = ("seed", "key", "_prefix", "_block", "_words", "drawn", "rolls")

    def __init__(self, seed: int, key: str) -> None:
        self.seed = seed
        self.key = key
        self._prefix = f"{seed}\x1f{key}\x1f".encode()
        self._block = 0
        self._words: list[int] = []
        """The current block's unused words, the next one last."""
        self.drawn = 0
        """How many values were taken."""
        self.rolls = 0
        """How many rolls :class:`Dice` made under this key (the next roll's id ends ``#{rolls + 1}``)."""

    def __reduce__(self) -> tuple[Any, tuple[int, str, int, list[int], int, int]]:
        """Pickled as its six values, rebuilt by :func:`_stream` (the month checkpoint holds ~1,800 streams: a
        third less to read back than each slot by name, issue 29 round 6)."""
        return _stream, (self.seed, self.key, self._block, self._words, self.drawn, self.rolls)

    def _refill(self) -> None:
        """The next block's four words into :attr:`_words` (in place: a caller may hold the list)."""
        self._block = block = self._block + 1
        # the digest's bytes reversed, read little-endian: its big-endian words, last first (used first to last)
        self._words.extend(_REVERSED_WORDS.unpack(_sha256(self._prefix + b"%d" % block).digest()[::-1]))

    def _next64(self) -> int:
        if not self._words:
            self._refill()
        return self._words.pop()

    def randint(self, sides: int) -> int:
        """A face of a fair ``sides``-sided die, 1..sides."""
        limit = _LIMITS.get(sides)
        if limit is None:
            limit = _LIMITS[sides] = _LIMIT - (_LIMIT % sides)
        return self._face(sides, limit)

    def _face(self, sides: int, limit: int) -> int:
        """:meth:`randint` with the first skipped word value ``limit`` known."""
        words = self._words
        while True:
            if not words:
                self._refill()
            v = words.pop()
            if v < limit:
                self.drawn += 1
                return v % sides + 1


def _stream(seed: int, key: str, block: int, words: list[int], drawn: int, rolls: int) -> Stream:
    """The stream a pickle holds: (seed, key) at block ``block`` with ``words`` unused (:meth:`Stream.__reduce__`)."""
    s = Stream(seed, key)
    s._block, s._words, s.drawn, s.rolls = block, words, drawn, rolls
    return s


_LIMITS: dict[int, int] = {}
"""Per number of sides, the first word value of the incomplete run that :meth:`Stream.randint` skips."""
_WORDS = struct.Struct(">4Q")
"""A SHA-256 block as four big-endian 64-bit words."""
_REVERSED_WORDS = struct.Struct("<4Q")
"""A reversed SHA-256 block as four little-endian words: the block's :data:`_WORDS` in reverse order."""
_sha256 = hashlib.sha256


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

    def _face(self, stream: Stream, sides: int) -> int:
        """The next face of a ``sides``-sided die on ``stream``: a fixed value if one waits for its key."""
        key = stream.key
        for fx in self._fixed:
            if fx.values and key.startswith(fx.prefix):
                v = fx.values.popleft()
                if not fx.values:
                    self._fixed.remove(fx)
                if not 1 <= v <= sides:
                    raise DiceError(f"固定值 {v} 不是 D{sides} 的一面（键 {key}）")
                return v
        return stream.randint(sides)

    def roll(self, key: str, expr: str | DiceExpr, purpose: str, hidden: bool = False,
             kind: str | None = None) -> Roll:
        """Throw ``expr`` on the stream ``key``, log it and return its record (``kind``: see :attr:`Roll.kind`)."""
        e = expr if expr.__class__ is DiceExpr or isinstance(expr, DiceExpr) else _parse(expr)
        s = self._streams.get(key)
        if s is None:  # created before any fixed value is read: the same streams with or without fixes
            s = self._streams[key] = Stream(self.seed, key)
        faces: tuple[int, ...]
        if e._plain and not self._fixed:  # one die summed, nothing fixed: Stream._face inlined (most rolls)
            words = s._words
            if not words:
                s._refill()
            v = words.pop()
            limit = e._limit
            while v >= limit:  # the incomplete last run of word values is skipped
                if not words:
                    s._refill()
                v = words.pop()
            s.drawn += 1
            face = v % e.sides + 1
            faces, total = (face,), face + e.modifier
        elif e._plain:
            face = self._face(s, e.sides)
            faces, total = (face,), face + e.modifier
        else:
            faces = tuple([self._face(s, n) for n in e.die_sides()])
            total = e.total(faces)
        s.rolls += 1
        r = _new_roll(Roll, (f"{key}#{s.rolls}", purpose, e._text, faces, total, hidden, kind, e._token))
        self.log.append(r)
        return r

    def thrower(self, key: str) -> Callable[[DiceExpr, str], Roll]:
        """``throw(expr, purpose)``: :meth:`roll` on the stream ``key`` of a parsed expression, public and without a
        kind, the stream and the log looked up once (a match's rolls on its key); the same faces, ids and log.
        The stream is created now if it does not exist (as :meth:`roll` would at the first throw)."""
        s = self._streams.get(key)
        if s is None:
            s = self._streams[key] = Stream(self.seed, key)
        words, refill, log, roll = s._words, s._refill, self.log.append, self.roll  # _refill fills words in place

        def throw(e: DiceExpr, purpose: str) -> Roll:
            if not e._plain or self._fixed:  # several dice, another reading or fixed values: roll's own paths
                return roll(key, e, purpose)
            if not words:  # roll's one-die path
                refill()
            v = words.pop()
            limit = e._limit
            while v >= limit:
                if not words:
                    refill()
                v = words.pop()
            s.drawn += 1
            face = v % e.sides + 1
            s.rolls = n = s.rolls + 1
            r = _new_roll(Roll, (f"{key}#{n}", purpose, e._text, (face,), face + e.modifier, False, None, e._token))
            log(r)
            return r

        return throw

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
        raise DiceError(f"点数 {face} 超出了权重总和 {acc}")

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


__all__ = ["DiceExpr", "Roll", "Stream", "Dice", "Weighted", "shuffle", "MAX_DICE", "MAX_SIDES", "MAX_MODIFIER",
           "PRINTER", "Printer", "READINGS", "Reading", "SUM", "declare_notation", "own_reading"]
