"""The publish guard (DESIGN §10): the core, not a ruleset, keeps a sealed roll or a sealed fact out of every
publishable file.

A chapter's Markdown says what is still sealed: the rolls of its seal lines that none of its reveal lines
opens (:func:`still_sealed`). Before a chapter's files are written the core masks those rolls in the JSON
beside it (:func:`masked`, :func:`~anko_writer.hidden.mask_sealed`: a roll record keeps that it was
rolled, not its faces, total or result; a record marked ``sealed_by`` a sealed roll keeps only the marker)
and then refuses (:class:`SecretLeak`) to write any file of the chapter in which a sealed roll's value, its
salt, or a record marked as decided by it still appears (:func:`leaks`). A ruleset that forgets to mask
therefore publishes nothing secret; one that hides a consequence where the core cannot see it is caught by
the mechanical test (``tests/core/test_seal_secrecy.py``: the sealing chapter played with the sealed value
changed is byte-identical apart from the commitment). A secret fact (:class:`~anko_writer.hidden.Fact`) is
guarded exactly so: its seal line makes it sealed, its record shows ``fact: null``, its salt and a record
still holding its payload are refused (``tests/core/test_seal_facts.py``).

>>> from anko_writer.dice import Roll
>>> from anko_writer.hidden import seal_line
>>> r = Roll("d1/b1/toss#1", "决胜币", "1D2", (2,), 2, hidden=True)
>>> md = "决胜币「1D2＝？？？」\\n" + seal_line(r, seed=7) + "\\n"
>>> still_sealed(md)
frozenset({'d1/b1/toss#1'})
>>> public = masked({"toss": r.to_json(), "result": {"sealed_by": r.id, "winner": "阿尔托"}}, still_sealed(md))
>>> public["toss"]["total"], public["result"]
(None, {'sealed_by': 'd1/b1/toss#1'})
>>> leaks({"d01/b01.json": '{"toss": {"id": "d1/b1/toss#1", "total": 2}}'}, still_sealed(md), 7)
['d01/b01.json: 里面有封存骰 d1/b1/toss#1 的点数']
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .chapters import Record
from .compact import KINDS, ROLL_KEYS, RUNS, expand
from .errors import AnkoError
from .hidden import FACT_KEY, PUBLIC_ROLL_KEYS, SEALED_BY, mask_sealed, salt_for, scan


class SecretLeak(AnkoError):
    """A publishable file would give a sealed roll away; nothing is written."""


def still_sealed(markdown: str) -> frozenset[str]:
    """Ids of the rolls and facts ``markdown`` seals and does not reveal (its seal lines minus its reveal lines)."""
    seals, reveals = scan(markdown)
    return frozenset(s.roll_id for s in seals) - {r.roll_id for r in reveals}


def masked(public: Record, sealed: frozenset[str]) -> Record:
    """``public`` with every roll in ``sealed`` masked, and every record marked ``sealed_by`` one of them
    cut to its marker (:func:`~anko_writer.hidden.mask_sealed`); ``public`` itself when nothing is sealed."""
    out: Record = mask_sealed(public, sealed)
    return out


def _plain(record: Any) -> Any:
    """A publishable JSON record as plain records: the compact form (:mod:`anko_writer.compact`) expanded."""
    rolls = record.get(ROLL_KEYS) if isinstance(record, dict) else None
    if isinstance(rolls, dict) and KINDS in rolls and RUNS in rolls:
        return expand(record)
    return record


def _json_leaks(obj: Any, sealed: frozenset[str]) -> list[str]:
    """What the JSON value ``obj`` still says of a roll in ``sealed``."""
    found: list[str] = []
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, dict):
            rid = o.get("id")
            if isinstance(rid, str) and rid in sealed and any(v is not None for k, v in o.items()
                                                              if k not in PUBLIC_ROLL_KEYS):
                found.append(f"里面有封存事实 {rid} 的内容" if FACT_KEY in o
                             else f"里面有封存骰 {rid} 的点数")
            mark = o.get(SEALED_BY)
            if isinstance(mark, str) and mark in sealed and set(o) != {SEALED_BY}:
                found.append(f"里面有封存骰 {mark} 决定的结果（{'、'.join(sorted(set(o) - {SEALED_BY}))}）")
            stack.extend(o.values())
        elif isinstance(o, list):
            stack.extend(o)
    return sorted(set(found))


def leaks(files: Mapping[str, str], sealed: frozenset[str], seed: int) -> list[str]:
    """``rel: problem`` for every way ``files`` (a chapter's publishable files: relative path → text) give
    a roll in ``sealed`` away: its salt anywhere, and in a JSON file its value or what it decided."""
    if not sealed:
        return []
    salts = {salt_for(seed, rid): rid for rid in sealed}
    problems: list[str] = []
    for rel, text in files.items():
        problems += [f"{rel}: 里面有封存骰 {rid} 的盐值" for salt, rid in salts.items() if salt in text]
        if rel.endswith(".json"):
            try:
                record = _plain(json.loads(text))
            except (ValueError, LookupError, TypeError):
                problems.append(f"{rel}: 不是检查能读的 JSON，无法证明里面没有封存骰")
                continue
            problems += [f"{rel}: {p}" for p in _json_leaks(record, sealed)]
    return problems


def refuse_leaks(files: Mapping[str, str], sealed: frozenset[str], seed: int) -> None:
    """Raise :class:`SecretLeak` (one line, the first problem) if ``files`` give a sealed roll away."""
    problems = leaks(files, sealed, seed)
    if problems:
        more = f"（还有 {len(problems) - 1} 处）" if len(problems) > 1 else ""
        raise SecretLeak(f"{problems[0]}{more}：封存骰揭晓之前不发布（DESIGN §10）")


__all__ = ["SecretLeak", "leaks", "masked", "refuse_leaks", "still_sealed"]
