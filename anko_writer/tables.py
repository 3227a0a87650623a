"""YAML dice tables, checked on load like BCDice user tables: every possible total has exactly one row.

A table file (``tables/<ruleset>/<name>.yaml``)::

    # free comments
    name: 球衣颜色            # optional display name (defaults to the file name)
    source: designed          # "designed" or a rulebook citation like "000 §2.4"; required
    dice: 1D20                # any dice notation (1D20, 3D100, 1D18+17, D68 …); required
    rows:
      - range: 1-3            # "a-b" (also a~b, a..b), a single integer, or [a, b]
        effect: colour        # an effect kind the code implements (checked against the allowed set)
        value: 红白            # any further keys are the effect's parameters (plain data)
        text: 红白相间的条纹衫   # optional prose

:func:`load_table` refuses a table unless the rows cover every *possible* total of ``dice`` exactly once:
for ``NdS+m`` that is every integer from ``N+m`` to ``N*S+m``; for a notation read as tens and units
(Blood Bowl's declared D68: a D6 tens digit and a D8 units digit) only ``10a+b`` with ``a`` in 1–6 and
``b`` in 1–8, so ``19`` and ``20`` need no row. Errors name
the row and where it is::

    tables/purasbar/colours.yaml:14:7: rows[3].range: 7-9 overlaps rows[2] (5-7)

Effects are names the code implements, never code: nothing in a table is evaluated, and YAML tags that
build Python objects are refused by the loader.

>>> from .dice import declare_notation
>>> possible_totals(declare_notation("D68", (6, 8), "tens_units"))[:10]
[11, 12, 13, 14, 15, 16, 17, 18, 21, 22]
>>> len(possible_totals(DiceExpr.parse("3D100")))
298
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import threading
from bisect import bisect_left, bisect_right
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .dice import Dice, DiceExpr, Roll
from .errors import DiceError, InputError, TableError
from .schema import GOT, At, Data, Field, Invalid, List, Map, Node, Scalar, Str, did_you_mean, show, validate, validate_text
from .textfile import read_text
from .yamlio import FastPathError, load_plain_fast_lines, load_yaml_text, position

_ENUMERATE_LIMIT = 10_000
"""Dice with at most this many face combinations have their totals enumerated exactly."""


@functools.cache
def _span_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A range as a table file writes it (``1-5``, ``1~5``, ``1..5``) and a single total; compiled on first use
    (a command whose tables come from the bundle reads none)."""
    return (re.compile(r"\s*(-?\d{1,15})\s*(?:-|~|～|–|—|\.\.)\s*(-?\d{1,15})\s*"),
            re.compile(r"\s*(-?\d{1,15})\s*"))


def span_text(lo: int, hi: int) -> str:
    """``1-3`` for a range, ``7`` for a single total."""
    return str(lo) if lo == hi else f"{lo}-{hi}"


def possible_totals(expr: DiceExpr) -> list[int]:
    """Every total ``expr`` can show, ascending (a D68 skips the totals whose units digit is 0 or 9).

    >>> possible_totals(DiceExpr.parse("1D3+2"))
    [3, 4, 5]
    """
    sides = expr.die_sides()
    if math.prod(sides) <= _ENUMERATE_LIMIT:
        faces = itertools.product(*(range(1, s + 1) for s in sides))
        return sorted({expr.total(f) for f in faces})
    lo, hi = expr.bounds()  # sums of ordinary dice reach every value between the extremes
    return list(range(lo, hi + 1))


@dataclass
class TotalRange(Scalar):
    """The totals a row covers: ``"1-3"``, ``7`` or ``[1, 3]``; returned as ``(lo, hi)``."""

    doc: str = "Totals this row covers: `1-3`, `7` or `[1, 3]`."

    def convert(self, value: Any) -> tuple[int, int]:
        """``(lo, hi)`` with ``lo <= hi``."""
        lo, hi = self._parse(value)
        if lo > hi:
            raise Invalid(f"{span_text(lo, hi)} 首尾颠倒了（小的在前）")
        return lo, hi

    @staticmethod
    def _parse(value: Any) -> tuple[int, int]:
        """The two ends as written."""
        if isinstance(value, int) and not isinstance(value, bool):
            return int(value), int(value)
        if isinstance(value, str):
            span, single = _span_patterns()
            m = span.fullmatch(value) or single.fullmatch(value)
            if m:
                return int(m.group(1)), int(m.group(m.lastindex or 1))
        if isinstance(value, list) and len(value) == 2:
            if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                return int(value[0]), int(value[1])
        raise Invalid(f"应为 1-3 这样的范围、一个数或 [1, 3]，{GOT} {show(value)}")

    def type_name(self) -> str:
        """``range``."""
        return "range"


@dataclass
class DiceNotation(Scalar):
    """A dice expression as the rulebooks write it (``1D20``, ``3D100``, ``1D18+17``, ``D68``)."""

    doc: str = "Dice thrown to pick a row."

    def convert(self, value: Any) -> str:
        """The notation, if :meth:`DiceExpr.parse` reads it."""
        text = Str().convert(value)
        try:
            DiceExpr.parse(text)
        except DiceError as err:
            raise Invalid(str(err)) from None
        return text

    def type_name(self) -> str:
        """``dice``."""
        return "dice notation"


ROW_SCHEMA = Map(
    {
        "range": Field(TotalRange()),
        "effect": Field(Str(), doc="Effect kind the code implements."),
        "text": Field(Str(), required=False, doc="Prose for the chapter."),
    },
    extra=Data(doc="Parameters of the effect (plain data)."),
    doc="One outcome.",
)
"""One row of a dice table."""

TABLE_SCHEMA = Map(
    {
        "name": Field(Str(), required=False, doc="Display name (defaults to the file name)."),
        "source": Field(
            Str(pattern=r"designed|\d{3} ?§.+", pattern_doc='"designed" or a citation like "000 §2.4"'),
            doc="Where the table comes from: `designed`, or the rulebook section.",
        ),
        "dice": Field(DiceNotation()),
        "rows": Field(List(ROW_SCHEMA, min_len=1), doc="Outcomes; together they cover every total once."),
    }
)
"""The shape of a dice table file (the coverage rules are checked after it)."""


@dataclass(frozen=True)
class Row:
    """One outcome of a dice table: the totals it covers, its effect kind, parameters and prose."""

    lo: int
    """Lowest total covered."""
    hi: int
    """Highest total covered."""
    effect: str
    """Effect kind the code implements."""
    params: dict[str, Any] = field(hash=False)
    """The row's other keys: the effect's parameters, plain data."""
    text: str | None
    """Optional prose."""
    line: int
    """1-based line of the row in its file."""

    def covers(self, total: int) -> bool:
        """True when ``lo <= total <= hi``."""
        return self.lo <= total <= self.hi

    def __str__(self) -> str:
        return f"{span_text(self.lo, self.hi)}: {self.effect}"


@dataclass(frozen=True)
class DiceTable:
    """A validated dice table: each possible total of ``dice`` falls in exactly one row."""

    name: str
    """Display name."""
    source: str
    """``designed`` or the rulebook citation."""
    dice: DiceExpr
    """What is thrown to pick a row."""
    rows: tuple[Row, ...]
    """Rows in file order."""
    path: Path
    """The file the table came from."""

    def lookup(self, total: int) -> Row:
        """The row for the thrown ``total``; ``ValueError`` if the dice cannot show it.

        While :func:`counting_rows` is on, the row is counted (the audit's chi-square per table)."""
        index = self._index(total)
        if _COUNTING and (hits := _HITS.get()) is not None:
            hits.add(self, index)
        return self.rows[index]

    def band(self, value: int) -> Row:
        """The row covering a computed score (not a throw: never counted by :func:`counting_rows`)."""
        return self.rows[self._index(value)]

    def _index(self, total: int) -> int:
        """Index of the row covering ``total``."""
        lo, hi = self.dice.bounds()
        if not lo <= total <= hi:
            raise ValueError(f"{total} is outside {self.dice}'s {lo}-{hi} ({self.path})")
        for i, row in enumerate(self.rows):
            if row.covers(total):
                return i
        raise ValueError(f"{total} is not a possible total of {self.dice} ({self.path})")

    def roll(
        self, dice: Dice, key: str, purpose: str | None = None, hidden: bool = False
    ) -> tuple[Roll, Row]:
        """Throw the table's dice on stream ``key`` and look the total up."""
        r = dice.roll(key, self.dice, purpose or self.name, hidden)
        return r, self.lookup(r.total)

    def __len__(self) -> int:
        return len(self.rows)


def table_key(table: DiceTable) -> str:
    """A table's name in an audit report: its folder and file, and its name when it differs from the stem.

    >>> table_key(DiceTable("tags", "designed", DiceExpr.parse("1D6"), (), Path("tables/x/transfers.yaml")))
    'x/transfers.yaml:tags'
    """
    base = f"{table.path.parent.name}/{table.path.name}"
    return base if table.name == table.path.stem else f"{base}:{table.name}"


class RowHits:
    """How often each row of each table was looked up while :func:`counting_rows` was on."""

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[DiceTable, list[int]]] = {}

    def add(self, table: DiceTable, index: int) -> None:
        """Count one lookup of ``table`` that hit row ``index``."""
        found = self._by_id.get(id(table))
        if found is None:
            found = self._by_id[id(table)] = (table, [0] * len(table.rows))  # the table is kept: ids stay unique
        found[1][index] += 1

    def counts(self) -> list[tuple[DiceTable, list[int]]]:
        """Each table looked up, with its hits per row (file order), in the order first looked up."""
        return [(t, list(c)) for t, c in self._by_id.values()]


_HITS: ContextVar[RowHits | None] = ContextVar("anko_row_hits", default=None)
"""The counter of the running context (a thread or task of its own gets its own)."""

_COUNTING = 0
"""How many :func:`counting_rows` blocks are open anywhere: 0 keeps :meth:`DiceTable.lookup` at one test."""

_COUNTING_LOCK = threading.Lock()


@contextmanager
def counting_rows() -> Iterator[RowHits]:
    """Count every :meth:`DiceTable.lookup` in this context by table and row; off by default.

    >>> t = DiceTable("t", "designed", DiceExpr.parse("1D2"), (Row(1, 1, "a", {}, None, 1), Row(2, 2, "b", {}, None, 2)), Path("t.yaml"))
    >>> with counting_rows() as hits:
    ...     _ = t.lookup(2), t.lookup(2), t.band(1)
    >>> [c for _, c in hits.counts()]
    [[0, 2]]
    """
    global _COUNTING
    hits = RowHits()
    token = _HITS.set(hits)
    with _COUNTING_LOCK:  # threads of one Dask worker open and close their own blocks
        _COUNTING += 1
    try:
        yield hits
    finally:
        with _COUNTING_LOCK:
            _COUNTING -= 1
        _HITS.reset(token)


def _check_span(lo: int, hi: int, expr: DiceExpr, possible: list[int]) -> tuple[int, int] | str:
    """The row's slice of ``possible`` as ``(start, stop)`` indexes, or why the range is wrong."""
    low, high = expr.bounds()
    if lo < low or hi > high:
        return f"{span_text(lo, hi)} 超出了骰子的 {low}-{high}"
    start, stop = bisect_left(possible, lo), bisect_right(possible, hi)
    if start == stop:
        return f"{span_text(lo, hi)} 不含 {expr} 能掷出的任何点数"
    return start, stop


def _effect_problem(effect: str, effects: Collection[str] | None) -> str | None:
    """Why ``effect`` is not allowed, or None."""
    if effects is None or effect in effects:
        return None
    known = sorted(effects)
    hint = did_you_mean(effect, known)
    return f"未知的效果类型 {effect!r}" + (hint or f"（可用的类型：{'、'.join(known)}）")


def _gaps(possible: list[int], owner: list[int]) -> list[str]:
    """Runs of possible totals no row owns (``owner[i] < 0``), as ``12..13`` or ``7``."""
    runs: list[str] = []
    for is_covered, group in itertools.groupby(enumerate(owner), key=lambda p: p[1] >= 0):
        if not is_covered:
            idx = [i for i, _ in group]
            a, b = possible[idx[0]], possible[idx[-1]]
            runs.append(str(a) if a == b else f"{a}..{b}")
    return runs


@dataclass
class _Coverage:
    """Rows accepted so far, and which row owns each of the dice's possible totals (-1: none yet).

    Checking a row costs its width, so a table of many rows stays linear (no pairwise comparison).
    """

    expr: DiceExpr
    possible: list[int]
    rows: list[Row] = field(default_factory=list)
    owner: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.owner = [-1] * len(self.possible)

    def add(self, row: Row, at: At) -> None:
        """Accept ``row`` or fail at ``at`` (its ``range``) if it is out of bounds or overlaps."""
        found = _check_span(row.lo, row.hi, self.expr, self.possible)
        if isinstance(found, str):
            at.fail(found)
        start, stop = found
        taken = [j for j in self.owner[start:stop] if j >= 0]
        if taken:
            other = self.rows[min(taken)]
            at.fail(f"{span_text(row.lo, row.hi)} 与 rows[{min(taken)}]（{span_text(other.lo, other.hi)}）重叠")
        self.owner[start:stop] = [len(self.rows)] * (stop - start)
        self.rows.append(row)

    def gaps(self) -> list[str]:
        """Runs of possible totals no row covers."""
        return _gaps(self.possible, self.owner)


def _row(data: dict[str, Any], line: int) -> Row:
    """A :class:`Row` from a validated row mapping."""
    params = {k: v for k, v in data.items() if k not in ("range", "effect", "text")}
    lo, hi = data["range"]
    return Row(lo, hi, data["effect"], params, data.get("text"), line)


def _build_rows(
    raw: Any, data: dict[str, Any], expr: DiceExpr, effects: Collection[str] | None, at: At,
    lines: list[int] | None = None,
) -> tuple[Row, ...]:
    """Rows checked for bounds, overlaps, effect kinds and full coverage of the possible totals (``lines``:
    the rows' lines, when ``raw`` is plain data that carries none)."""
    coverage = _Coverage(expr, possible_totals(expr))
    raw_rows = raw["rows"]
    for i, row_data in enumerate(data["rows"]):
        row_at = at.value(raw, "rows").item(raw_rows, i)
        row = _row(row_data, lines[i] if lines is not None else (position(raw_rows, i) or (0, 0))[0])
        coverage.add(row, row_at.value(raw_rows[i], "range"))
        problem = _effect_problem(row.effect, effects)
        if problem:
            row_at.value(raw_rows[i], "effect").fail(problem)
    gaps = coverage.gaps()
    if gaps:
        at.value(raw, "rows").key(raw, "rows").fail(f"没有一行包含 {'、'.join(gaps)}")
    return tuple(coverage.rows)


def load_table(path: Path, effects: Collection[str] | None = None) -> DiceTable:
    """Load and check a dice table; ``effects`` (if given) is the set of effect kinds allowed.

    Raises :class:`TableError` at the first problem, with ``file:line:col`` and the key path. libyaml reads
    the file first (issue 29: a cold run parsed 44 files with the locating parser); on any problem the
    locating parser reads it again to name where.
    """
    text = read_text(Path(path), TableError)
    try:
        raw, lines = load_plain_fast_lines(text, "rows")
        data = TABLE_SCHEMA.check(raw, At(path, "", None, TableError))
        if len(lines) != len(data["rows"]):
            raise FastPathError("the rows' lines")
        expr = DiceExpr.parse(data["dice"])
        rows = _build_rows(raw, data, expr, effects, At(path, "", None, TableError), lines)
    except (FastPathError, InputError, DiceError):
        raw = load_yaml_text(text, Path(path), TableError)
        data = validate(raw, TABLE_SCHEMA, path, TableError)
        expr = DiceExpr.parse(data["dice"])
        rows = _build_rows(raw, data, expr, effects, At(path, "", position(raw), TableError))
    return DiceTable(data.get("name") or Path(path).stem, data["source"], expr, rows, Path(path))


def load_data(path: Path, schema: Node) -> Any:
    """Load a non-dice data table (a city list, a name pool) checked against ``schema``; raise TableError
    (libyaml first, the locating parser on any problem, as :func:`~anko_writer.schema.validate_text`)."""
    return validate_text(read_text(Path(path), TableError), schema, path, TableError)


__all__ = [
    "Row", "DiceTable", "RowHits", "TotalRange", "DiceNotation", "ROW_SCHEMA", "TABLE_SCHEMA",
    "counting_rows", "load_table", "load_data", "possible_totals", "span_text", "table_key",
]
