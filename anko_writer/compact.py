"""The compact publishable JSON: three lossless rules that keep a chapter's JSON small, and their inverse.

A ruleset's structured results repeat themselves: a roll's full record sits in the chapter's ``rolls``
and again wherever the roll decided something, a list of records repeats the same keys in every
element, and the roll ids of a match all start with the match's id. The publishable JSON beside a
chapter states each thing once, by three rules that :func:`expand` undoes:

1. **Tables.** A list of two or more records below the top level is written
   ``{"fields": [k1, k2, …], "rows": [[v1, v2, …], …]}``; element *i* is ``dict(zip(fields, rows[i]))``.
   ``fields`` are the keys of the records in order of first use; a record that lacked one has null
   there (read a null field as absent), and a row ends at its last non-null value (the fields past its
   end are null). A list holding a sealed record (``sealed_by``) stays a list. When the chapter's
   top-level ``columns`` names the list's key, the table is ``{"rows": […]}`` (any length) and its
   fields are ``columns[key]``. When the top-level ``records`` names a key, the record under it is
   written as its row alone (``[v1, v2, …]``, fields ``records[key]``; the fields past its end are
   absent).
2. **The chapter's rolls.** ``rolls`` is ``{"kinds": [[purpose, expr], …], "runs": [[first_id, row, …], …]}``:
   a run is rolls whose ids count on by one from ``first_id`` (``s1/m03/owner#1``, ``s1/m03/owner#2`` …);
   a ``first_id`` that starts with ``#`` or ``/`` continues the last one written in full, cut at its
   first ``#`` (``/gate#1`` after ``s1/league/r05/甲-乙#1`` is ``s1/league/r05/甲-乙/gate#1``);
   each row is ``[kind, dice]`` (``kinds[kind]`` gives purpose and expression, a purpose alone for
   ``1D100``; ``dice`` is a number for a single die; the total is the sum of
   the dice), ``[kind, dice, total]`` when the total is not that sum, or ``[kind, dice, total, true]``
   for a hidden roll (``dice`` and ``total`` null while it is sealed). A kind of a roll record with
   further keys has them as a third element: ``[purpose, expr, {key: value, …}]``. A purpose of two
   parts split at its last space (``卡尔·穆勒 伤病抽检``) is written ``[i, j]``, the indices of its parts
   in the chapter's ``rolls.words`` (``words[i] + " " + words[j]``).
3. **Roll references.** A roll record inside another record (``{id, expr, total}`` or the full record)
   whose roll is in the chapter's ``rolls`` is written as its id alone, a string; inside a record that
   has an ``id`` of its own (a match), an id that starts with that id is written relative to it
   (``#6`` for ``s1/league/r05/甲-乙#6``, ``/gate#1`` for ``s1/league/r05/甲-乙/gate#1``).

>>> rolls = [{"id": "m/a#1", "purpose": "攻势骰", "expr": "1D30", "dice": [7], "total": 7, "hidden": False},
...          {"id": "m/a#2", "purpose": "终结骰", "expr": "1D50", "dice": [9], "total": 9, "hidden": False}]
>>> rec = {"rolls": rolls, "matches": [{"id": "m/a", "attacks": [{"die": 7, "die_roll": {"id": "m/a#1",
...        "expr": "1D30", "total": 7}}, {"die": 9, "die_roll": {"id": "m/a#2", "expr": "1D50", "total": 9}}]}]}
>>> small = compact(rec)
>>> small["rolls"]
{'kinds': [['攻势骰', '1D30'], ['终结骰', '1D50']], 'runs': [['m/a#1', [0, 7], [1, 9]]]}
>>> small["matches"][0]["attacks"]
{'fields': ['die', 'die_roll'], 'rows': [[7, '#1'], [9, '#2']]}
>>> expand(small)["matches"][0]["attacks"][1]
{'die': 9, 'die_roll': 'm/a#2'}
>>> expand(small)["rolls"] == rolls
True
>>> small = compact(rec, {"attacks": ("die", "die_roll")}, {"die_roll": ("id", "expr", "total")})
>>> small["matches"][0]["attacks"], small["columns"], "records" in small
({'rows': [[7, '#1'], [9, '#2']]}, {'attacks': ['die', 'die_roll']}, False)
>>> expand(small)["matches"][0]["attacks"][0]
{'die': 7, 'die_roll': 'm/a#1'}
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from .chapters import Record
from .dice import Roll, own_reading
from .hidden import SEALED_BY
from .runtime import collector_paused

FIELDS, ROWS = "fields", "rows"
"""The two keys of a table (rule 1)."""

COLUMNS = "columns"
"""The top-level key naming the fields of every table under a given key (rule 1)."""

RECORDS = "records"
"""The top-level key naming the fields of every single record written as a row under a given key (rule 1)."""

ROLL_FIELDS = ("id", "purpose", "expr", "dice", "total", "hidden")
"""A roll record's keys (:meth:`anko_writer.dice.Roll.to_json`, DESIGN §5)."""

KINDS, RUNS, WORDS = "kinds", "runs", "words"
"""The two keys of the chapter's ``rolls`` (rule 2)."""

DEFAULT_EXPR = "1D100"
"""The forum's usual die: a kind of rule 2 that is a purpose alone has this expression."""

ROLL_KEYS = "rolls"
"""The top-level key that holds every roll of the chapter."""

Columns = Mapping[str, Sequence[str]]
"""List key → the fields of its tables (the chapter's ``columns``)."""


class Rows:
    """A list of records under a declared key, handed to :func:`compact` as their rows already: each row the
    record's values in the order of the key's ``columns``, null where the record has null.

    :func:`compact` writes for it exactly what it writes for ``[dict(zip(columns, row)) for row in rows]``
    (records holding every declared field), without those records being built and read back (issue 29: a
    ruleset that builds its published records for a table anyway builds the rows instead).

    >>> r = {"id": "m", "attacks": Rows([[1, "甲", None], [2, "乙", {"id": "m#1", "expr": "1D6", "total": 3}]])}
    >>> compact({"rolls": [], "matches": [r]}, {"attacks": ("slice", "team", "roll")})["matches"]
    [{'id': 'm', 'attacks': {'rows': [[1, '甲'], [2, '乙', {'id': 'm#1', 'expr': '1D6', 'total': 3}]]}}]
    """

    __slots__ = ("rows",)

    def __init__(self, rows: list[list[Any]]) -> None:
        self.rows = rows
        """The records' rows, each as long as the key's columns."""

    def __repr__(self) -> str:
        return f"Rows({self.rows!r})"

    def records(self, fields: Sequence[str]) -> list[Record]:
        """The records the rows stand for (every field present)."""
        return [dict(zip(fields, row, strict=True)) for row in self.rows]


def is_table(obj: object) -> bool:
    """Whether ``obj`` is a table of rule 1 (``fields`` and ``rows``, or ``rows`` alone)."""
    return isinstance(obj, dict) and ROWS in obj and set(obj) <= {FIELDS, ROWS}


def _trim(row: list[Any]) -> list[Any]:
    """``row`` without its trailing nulls (rule 1: a short row's missing fields are null)."""
    end = len(row)
    while end and row[end - 1] is None:
        end -= 1
    return row[:end]


def table(records: Sequence[Mapping[str, Any]], fields: Sequence[str]) -> Record:
    """``records`` as a table of ``fields`` (a field a record lacks is null in its row)."""
    return {FIELDS: list(fields), ROWS: [_trim([r.get(k) for k in fields]) for r in records]}


def rows_of(obj: Mapping[str, Any], fields: Sequence[str] | None = None) -> list[Record]:
    """A table's records (rule 1 undone, one level; ``fields`` for a table of ``rows`` alone)."""
    keys = obj.get(FIELDS, fields)
    if keys is None:
        raise ValueError("a table of rows alone needs its fields from the chapter's columns")
    pad = [None] * len(keys)
    return [dict(zip(keys, [*row, *pad[len(row):]], strict=False)) for row in obj[ROWS]]


def _stem(roll_id: str) -> str:
    """A roll id up to its first ``#`` (``s1/league/r05/甲-乙#3`` → ``s1/league/r05/甲-乙``)."""
    return roll_id.partition("#")[0]


def pack_rolls(rolls: Sequence[Mapping[str, Any] | Roll]) -> Record:
    """The chapter's roll records as the ``rolls`` record of rule 2; a :class:`~anko_writer.dice.Roll` among them
    stands for its record (:meth:`~anko_writer.dice.Roll.to_json`), read without that record being made.

    >>> rolls = [{"id": "m#1", "purpose": "卡尔 伤病抽检", "expr": "1D100", "dice": [5], "total": 5, "hidden": False},
    ...          {"id": "m#2", "purpose": "卡尔 缺阵周数", "expr": "1D6", "dice": [2], "total": 2, "hidden": False},
    ...          {"id": "m#3", "purpose": "乙 伤病抽检", "expr": "1D100", "dice": [50], "total": 50, "hidden": False}]
    >>> pack_rolls(rolls)  # doctest: +NORMALIZE_WHITESPACE
    {'words': ['卡尔', '伤病抽检', '缺阵周数', '乙'], 'kinds': [[0, 1], [[0, 2], '1D6'], [3, 1]],
     'runs': [['m#1', [0, 5], [1, 2], [2, 50]]]}
    >>> unpack_rolls(pack_rolls(rolls)) == rolls
    True
    """
    kinds: dict[tuple[Any, ...], int] = {}
    listed: list[Any] = []  # each kind as written: its purpose (worded), its expression unless 1D100, its extras
    words: dict[str, int] = {}
    runs: list[list[Any]] = []
    base = ""
    run: list[Any] = []
    after = ""  # the id that would continue the run (``…#n+1``), "" when none would
    head, n = "", -1
    plain = len(ROLL_FIELDS)
    extras: dict[tuple[Any, ...], str] = {}
    further: dict[tuple[Any, ...], tuple[Record, str]] = {}  # a roll's (kind, reading, expr) → further keys, their text
    told: str | None
    r: Any  # a roll or a roll record
    dice: Any
    for r in rolls:
        if type(r) is Roll:  # the roll itself, standing for its record (issue 29: no dict made and read back)
            rid, purpose, expr, dice, total, hidden, kind, reading = r
            if kind is None and (reading == "sum" or reading == own_reading(expr)):
                extra = None
            else:  # its record's further keys follow from these three (Roll.to_json): made once each (issue 29)
                made = further.get((kind, reading, expr))
                if made is None:
                    extra = _roll_extra(r)
                    made = further[kind, reading, expr] = (extra, _extra_key(extra, extras))
                extra, told = made
            single = len(dice) == 1
            if not single:
                dice = list(dice)
        else:
            rid, purpose, expr = str(r["id"]), r["purpose"], r["expr"]
            extra = {k: v for k, v in r.items() if k not in ROLL_FIELDS} if len(r) > plain else None
            told = None if extra is None else _extra_key(extra, extras)
            dice, hidden, total = r["dice"], r["hidden"], r["total"]
            single = type(dice) is list and len(dice) == 1
        if rid == after:
            n += 1
        else:
            head, _, num = rid.rpartition("#")
            if not num.isdigit() or after == "" or n < 0 or head != after.rpartition("#")[0] or int(num) != n + 1:
                run = [rid[len(base):] if base and rid.startswith(base) and _is_ref(rid[len(base):]) else rid]
                runs.append(run)
                if run[0] == rid:
                    base = _stem(rid)
            n = int(num) if num.isdigit() else -1
        after = f"{head}#{n + 1}" if n >= 0 else ""
        name: tuple[Any, ...] = (purpose, expr)
        if extra is not None:  # a roll record with further keys: part of its kind
            name = (*name, told)
            known = kinds.get(name)
            if known is None:
                known = kinds[name] = len(listed)
                listed.append([_worded(purpose, words), expr, dict(extra)])
        else:
            known = kinds.get(name)
            if known is None:
                known = kinds[name] = len(listed)
                listed.append(_worded(purpose, words) if expr == DEFAULT_EXPR else [_worded(purpose, words), expr])
        if single:
            one = dice[0]
            if hidden:
                run.append([known, one, total, True])
            elif total != one:
                run.append([known, one, total])
            else:
                run.append([known, one])
        elif hidden:
            run.append([known, dice, total, True])
        elif dice is None or total != (dice[0] if len(dice) == 1 else sum(dice)):
            run.append([known, dice, total])
        else:
            run.append([known, dice])
    return {**({WORDS: list(words)} if words else {}), KINDS: listed, RUNS: runs}


def _roll_extra(roll: Roll) -> Record:
    """The further keys of a roll's record (:meth:`~anko_writer.dice.Roll.to_json`: ``kind``, ``reading``)."""
    full = roll.to_json()
    return {k: v for k, v in full.items() if k not in ROLL_FIELDS}


def _extra_key(extra: Record, seen: dict[tuple[Any, ...], str]) -> str:
    """A roll record's further keys as the text that tells kinds apart (their sorted JSON), made once for
    each set of plain values (issue 29: the season's 1,239 ``kind`` keys)."""
    if not all(type(k) is str and type(v) in _ATOMS for k, v in extra.items()):
        return json.dumps(extra, ensure_ascii=False, sort_keys=True)
    key = tuple((k, type(v), v) for k, v in sorted(extra.items()))  # equal only where the JSON is
    text = seen.get(key)
    if text is None:
        text = seen[key] = json.dumps(extra, ensure_ascii=False, sort_keys=True)
    return text


_ATOMS = frozenset({str, int, bool, type(None)})
"""Types whose equal values have the same JSON (not floats: ``0.0`` and ``-0.0``)."""


def _worded(purpose: Any, words: dict[str, int]) -> Any:
    """A purpose of two parts (``卡尔·穆勒 伤病抽检``: a name, then what the roll decides) as the indices of
    its parts in ``words`` (filled as it goes, as the kinds are met), each name and each ending said once;
    any other purpose as it is."""
    head, space, tail = str(purpose).rpartition(" ")
    if not space or not head or not tail:
        return purpose
    return [words.setdefault(head, len(words)), words.setdefault(tail, len(words))]


def unpack_rolls(packed: Mapping[str, Any]) -> list[Record]:
    """The ``rolls`` record of rule 2 back as roll records (:meth:`anko_writer.dice.Roll.to_json`)."""
    words = packed.get(WORDS, [])
    kinds = [[k, DEFAULT_EXPR] if isinstance(k, str) or isinstance(k[0], int) else k for k in packed[KINDS]]
    kinds = [[f"{words[k[0][0]]} {words[k[0][1]]}" if isinstance(k[0], list) else k[0], *k[1:]] for k in kinds]
    out = []
    base = ""
    for first, *rows in packed[RUNS]:
        if _is_ref(first):
            first = base + first
        else:
            base = _stem(first)
        head, _, num = str(first).rpartition("#")
        for j, (kind, dice, *rest) in enumerate(rows):
            purpose, expr, *extra = kinds[kind]
            dice = [dice] if isinstance(dice, int) else dice
            out.append({"id": first if j == 0 else f"{head}#{int(num) + j}", "purpose": purpose, "expr": expr,
                        "dice": dice, "total": rest[0] if rest else sum(dice), "hidden": rest[1:] == [True],
                        **(extra[0] if extra else {})})
    return out


_REF_STARTS = ("#", "/")
"""How a roll reference relative to its record's id starts (rule 3)."""


def _is_ref(text: str) -> bool:
    """Whether a string inside a record with an id reads as a roll reference relative to it (rule 3)."""
    return text[:1] in _REF_STARTS


class _Compactor:
    """Rules 1 and 3 over one chapter: the roll ids it may refer to and the declared columns.

    One walk, each value built once: a list of records under a declared key goes straight to its rows
    (issue 29: the generic walk was a quarter of a season's process)."""

    def __init__(self, ids: Collection[str], columns: Columns, records: Columns, drop: Collection[str]) -> None:
        self.ids = ids
        self.columns = columns
        self.column_sets = {k: frozenset(v) for k, v in columns.items()}
        self.records = records
        self.record_sets = {k: frozenset(v) for k, v in records.items()}
        self.drop = frozenset(drop)
        """Keys left out wherever they are (a ruleset's prose for its chapters)."""
        self.used: dict[str, list[str]] = {}
        """The declared columns a table used (the chapter's ``columns``)."""
        self.used_records: dict[str, list[str]] = {}
        """The declared fields a record written as a row used (the chapter's ``records``)."""
        self.plans: dict[str, dict[tuple[type, ...], Plan]] = {}
        """Per declared key, the plan of each row shape met (:func:`_plan`)."""

    def value(self, obj: Any, base: str | None, key: str | None) -> Any:
        """``obj`` (found under ``key``) compacted, below a record whose own id is ``base`` (a copy)."""
        kind = type(obj)
        if kind is dict:
            return self.record(obj, base, key)
        if kind is list:
            return self.items(obj, base, key)
        if kind is str and base is not None and obj[:1] in _REF_STARTS:
            raise ValueError(f"{obj!r} inside {base!r} would read as a roll reference")
        if kind is Rows:
            return self.given_rows(obj, base, key)
        return obj

    def _own(self, obj: dict[str, Any], base: str | None) -> tuple[bool, str | None, str | None]:
        """(whether ``obj`` is a roll reference, what it is written as, the base below it) for a record."""
        own = obj.get("id")
        if type(own) is str:
            if own in self.ids and "expr" in obj and "total" in obj:
                return True, own[len(base):] if base and own.startswith(base) and _is_ref(own[len(base):]) else own, base
            base = own
        if ROWS in obj and len(obj) <= 2 and set(obj) <= _TABLE_KEYS:
            raise ValueError(f"a record with only the keys {FIELDS!r} and {ROWS!r} reads as a table")
        return False, None, base

    def record(self, obj: dict[str, Any], base: str | None, key: str | None) -> Any:
        """A record: a roll reference (rule 3), a declared row (rule 1) or a record of compacted values."""
        own = obj.get("id")  # :meth:`_own`, inline (issue 29: a season's 18,664 records)
        if type(own) is str:
            if own in self.ids and "expr" in obj and "total" in obj:
                return own[len(base):] if base and own.startswith(base) and _is_ref(own[len(base):]) else own
            base = own
        if ROWS in obj and len(obj) <= 2 and set(obj) <= _TABLE_KEYS:
            raise ValueError(f"a record with only the keys {FIELDS!r} and {ROWS!r} reads as a table")
        if key is not None and key in self.records and obj and self.record_sets[key].issuperset(obj):
            declared = self.records[key]
            if key not in self.used_records:
                self.used_records[key] = list(declared)
            row = list(map(obj.get, declared))
            for v in row:
                if type(v) not in _SCALARS:
                    row = [self.value(v, base, k) for k, v in zip(declared, row, strict=True)]
                    break
            return row if row[-1] is not None else _trim(row)
        return self._fields(obj, base)

    def _fields(self, obj: dict[str, Any], base: str | None) -> dict[str, Any]:
        """The record's values compacted, its dropped keys left out."""
        out = {}
        drop = self.drop
        for k, v in obj.items():
            if k in drop:
                continue
            kind = type(v)
            if kind is dict:
                v = self.record(v, base, k)
            elif kind is list:
                v = self.items(v, base, k)
            elif kind is str and base is not None and v[:1] in _REF_STARTS:
                raise ValueError(f"{v!r} inside {base!r} would read as a roll reference")
            elif kind is Rows:
                v = self.given_rows(v, base, k)
            out[k] = v
        return out

    def items(self, obj: list[Any], base: str | None, key: str | None) -> Any:
        """A list: a table when rule 1 applies."""
        nested = False
        for v in obj:
            kind = type(v)
            if kind is dict or kind is list:
                nested = True
                break
        if not nested:  # scalars: checked (:meth:`value`, inline), copied
            if base is not None:
                for v in obj:
                    kind = type(v)
                    if kind is str:
                        if v[:1] in _REF_STARTS:
                            raise ValueError(f"{v!r} inside {base!r} would read as a roll reference")
                    elif kind is Rows:
                        self.value(v, base, None)
            return list(obj)
        if key is not None and key in self.columns:
            rows = self._declared(obj, base, key)
            if rows is not None:
                if key not in self.used:
                    self.used[key] = list(self.columns[key])
                return {ROWS: rows}
        items = [self.value(v, base, None) for v in obj]
        if not all(type(v) is dict and v and SEALED_BY not in v for v in items):
            return items
        declared = self.columns.get(key) if key is not None else None
        if declared is not None and all(k in declared for v in items for k in v):
            self.used[str(key)] = list(declared)
            return {ROWS: table(items, declared)[ROWS]}
        if len(items) < 2:
            return items
        return table(items, tuple(dict.fromkeys(k for v in items for k in v)))

    def _declared(self, obj: list[Any], base: str | None, key: str) -> list[Any] | None:
        """The rows of a list under a declared key, each record straight to its row; None when one item is
        not a plain record of declared fields (a roll reference, a sealed record, another field …).

        A row's cells are walked by a plan made once per key and the cells' types (issue 29): which cells
        are strings to check, which are records or lists to compact, where the row ends."""
        known, drop, ids = self.column_sets[key], self.drop, self.ids
        if ROWS in known:
            return self._declared_rows(obj, base, key)  # a record that may read as a table
        fields, plans, has_id = self.columns[key], self.plans.setdefault(key, {}), "id" in known
        rows = []
        for v in obj:
            if type(v) is not dict or SEALED_BY in v:
                return None
            if drop and not drop.isdisjoint(v):
                return self._declared_rows(obj, base, key)  # keys to drop
            if not v or not known.issuperset(v):
                return None
            inner = base
            if has_id:
                own = v.get("id")
                if type(own) is str:
                    if own in ids and "expr" in v and "total" in v:
                        return None  # a roll reference (rule 3)
                    inner = own
            rows.append(self._cells(list(map(v.get, fields)), inner, fields, plans, True))
        return rows

    def _cells(self, row: list[Any], inner: str | None, fields: Sequence[str], plans: dict[tuple[type, ...], Plan],
               fresh: bool) -> list[Any]:
        """A declared row's cells compacted below ``inner`` by the plan of their types (in ``row`` itself when
        it is ``fresh``, else in a copy), without its trailing nulls."""
        types = tuple(map(type, row))
        plan = plans.get(types)
        if plan is None:
            plan = plans[types] = _plan(types)
        texts, nested, end = plan
        if inner is not None:
            for i in texts:
                if row[i][:1] in _REF_STARTS:
                    raise ValueError(f"{row[i]!r} inside {inner!r} would read as a roll reference")
        if nested:
            if not fresh:
                row = row.copy()
            ids = self.ids
            for i in nested:
                x = row[i]
                kind = type(x)
                if kind is dict:
                    own = x.get("id")
                    if type(own) is str and own in ids and "expr" in x and "total" in x:  # rule 3
                        tail = own[len(inner):] if inner and own.startswith(inner) else ""
                        row[i] = tail if tail[:1] in _REF_STARTS else own
                    else:
                        row[i] = self.record(x, inner, fields[i])
                elif kind is list:
                    row[i] = self.items(x, inner, fields[i])
                else:
                    row[i] = self.value(x, inner, fields[i])
        return row if end == len(row) else row[:end]

    def given_rows(self, obj: Rows, base: str | None, key: str | None) -> Any:
        """:class:`Rows` under ``key``: what :meth:`items` makes of the records they stand for, from the rows.

        The records' own checks are not needed where the columns rule them out (no ``sealed_by``, no key to
        drop, no ``rows``, no roll reference: ``id`` without ``expr`` and ``total``); elsewhere the records
        are built and walked as any list."""
        fields = self.columns.get(key) if key is not None else None
        if fields is None:
            raise ValueError(f"rows given under {key!r}, which the chapter's columns do not declare")
        if not obj.rows:
            return []
        known = self.column_sets[str(key)]
        if not fields or len(known) != len(fields) or not known.isdisjoint(_RECORD_CHECKS) or (
                not self.drop.isdisjoint(known)) or ("id" in known and "expr" in known and "total" in known):
            return self.items(obj.records(fields), base, key)
        at = list(fields).index("id") if "id" in known else -1
        plans, width, cells = self.plans.setdefault(str(key), {}), len(fields), self._cells
        rows = []
        for row in obj.rows:
            if len(row) != width:
                raise ValueError(f"a row of {len(row)} cells under {key!r}, whose columns are {len(fields)}")
            own = row[at] if at >= 0 else None
            rows.append(cells(row, own if type(own) is str else base, fields, plans, False))
        if key not in self.used:
            self.used[str(key)] = list(fields)
        return {ROWS: rows}

    def _declared_rows(self, obj: list[Any], base: str | None, key: str) -> list[Any] | None:
        """:meth:`_declared` with each record's own checks: for columns that name a table's ``rows``, or a
        list whose records hold keys to drop."""
        fields, known, drop = self.columns[key], self.column_sets[key], self.drop
        rows = []
        for v in obj:
            if type(v) is not dict or SEALED_BY in v:
                return None
            ref, _, inner = self._own(v, base)
            if ref:
                return None
            if drop and not drop.isdisjoint(v):
                v = {k: x for k, x in v.items() if k not in drop}
            if not v or not known.issuperset(v):
                return None
            row: list[Any] = list(map(v.get, fields))
            for i, x in enumerate(row):
                kind = type(x)
                if kind is dict:
                    row[i] = self.record(x, inner, fields[i])
                elif kind is list:
                    row[i] = self.items(x, inner, fields[i])
                elif kind is str and inner is not None and x[:1] in _REF_STARTS:
                    raise ValueError(f"{x!r} inside {inner!r} would read as a roll reference")
            rows.append(_trim(row))
        return rows


Plan = tuple[tuple[int, ...], tuple[int, ...], int]
"""How a declared row of given cell types is compacted: its strings' cells (checked), its records' and
lists' cells (compacted), and its length without its trailing nulls."""


def _plan(types: tuple[type, ...]) -> Plan:
    """The plan of a declared row whose cells have ``types``."""
    ends = [i + 1 for i, kind in enumerate(types) if kind is not _NONE]
    return (tuple(i for i, kind in enumerate(types) if kind is str),
            tuple(i for i, kind in enumerate(types) if kind is dict or kind is list or kind is Rows), ends[-1] if ends else 0)


_NONE = type(None)

_SCALARS = frozenset({int, float, bool, _NONE})
"""Types a declared record's row copies as they are."""


_TABLE_KEYS = frozenset({FIELDS, ROWS})

_RECORD_CHECKS = frozenset({ROWS, SEALED_BY})
"""Declared fields that make a record of the columns need its own checks (:meth:`_Compactor._declared_rows`,
or a sealed record that keeps a list a list)."""


def compact(record: Record, columns: Columns | None = None, records: Columns | None = None,
            drop: Collection[str] = ()) -> Record:
    """A chapter's public record with the three rules applied (a copy; ``record`` is not changed);
    ``columns`` declares the fields of the tables under some keys, ``records`` those of single records
    written as rows (rule 1); keys in ``drop`` are left out below the top level (not from ``rolls``)."""
    with collector_paused():
        return _compact(record, columns or {}, records or {}, drop)


def _compact(record: Record, columns: Columns, records: Columns, drop: Collection[str]) -> Record:
    """:func:`compact` itself."""
    rolls = record.get(ROLL_KEYS) or []
    ids = frozenset([r[0] if type(r) is Roll else str(r["id"]) for r in rolls])
    work = _Compactor(ids, columns, records, frozenset(drop))
    out: Record = {}
    for key, value in record.items():
        if key == ROLL_KEYS and isinstance(value, list):
            out[key] = pack_rolls(value)
        elif isinstance(value, list):
            out[key] = [work.value(v, None, None) for v in value]
        else:
            out[key] = work.value(value, None, key)
    head: Record = {}
    if work.used:
        head[COLUMNS] = dict(sorted(work.used.items()))
    if work.used_records:
        head[RECORDS] = dict(sorted(work.used_records.items()))
    return {**head, **out}


def _expand(obj: Any, base: str | None, key: str | None, columns: Columns, records: Columns) -> Any:
    """Rules 1 and 3 undone for ``obj`` (found under ``key``) below a record whose own id is ``base``.

    A scalar value of a record or list is copied where it stands, not passed down (issue 29: the publish
    guard expands a chapter with a sealed roll; most of its values are numbers)."""
    if isinstance(obj, dict):
        if ROWS in obj and obj.keys() <= _TABLE_KEYS:  # :func:`is_table`
            fields = columns.get(key) if key is not None else None
            return [_expand(r, base, None, columns, records) for r in rows_of(obj, fields)]
        return _expand_record(obj, base, columns, records)
    if isinstance(obj, list):
        fields = records.get(key) if key is not None else None
        if fields is not None:
            return {k: _expand(v, base, k, columns, records) if isinstance(v, _NESTED) or (
                base is not None and isinstance(v, str) and v[:1] in _REF_STARTS) else v
                    for k, v in zip(fields, obj, strict=False)}
        return [_expand(v, base, None, columns, records) if isinstance(v, _NESTED) or (
            base is not None and isinstance(v, str) and v[:1] in _REF_STARTS) else v for v in obj]
    if isinstance(obj, str) and base is not None and _is_ref(obj):
        return base + obj
    return obj


def _expand_record(obj: dict[str, Any], base: str | None, columns: Columns, records: Columns) -> Record:
    """A record that is not a table with its values expanded below its own id (or ``base``)."""
    own = obj.get("id")
    # an empty id names no record: the references below it stay relative to ``base``, as 979b28a read them
    inner = own if isinstance(own, str) and own and own[:1] not in _REF_STARTS else base
    return {k: _expand(v, inner, k, columns, records) if isinstance(v, _NESTED) or (
        inner is not None and isinstance(v, str) and v[:1] in _REF_STARTS) else v for k, v in obj.items()}


_NESTED = (dict, list)
"""The values :func:`_expand` looks into."""


def expand(record: Record) -> Record:
    """The publishable JSON read back as plain records: tables as lists of records, the rolls with their
    full ids, roll references as full ids (look them up in ``rolls``); ``columns`` is consumed."""
    columns, records = record.get(COLUMNS) or {}, record.get(RECORDS) or {}
    out: Record = {}
    for key, value in record.items():
        if key in (COLUMNS, RECORDS):
            continue
        if key == ROLL_KEYS and isinstance(value, dict):
            out[key] = unpack_rolls(value)
        elif isinstance(value, list):
            out[key] = [_expand(v, None, None, columns, records) for v in value]
        else:
            out[key] = _expand(value, None, key, columns, records)
    return out


__all__ = ["COLUMNS", "Columns", "DEFAULT_EXPR", "RECORDS", "ROLL_FIELDS", "FIELDS", "KINDS", "ROWS", "RUNS", "Rows", "compact",
           "expand", "is_table", "pack_rolls", "rows_of", "table", "unpack_rolls"]
