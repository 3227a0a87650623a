"""Hidden dice (000 §5.8.4): a verifiable commit/reveal that readers can check from the posts alone.

A hidden roll is posted as a *seal* line carrying a SHA-256 commitment; a later chapter posts the
*reveal* line with the value and the salt. Both lines appear verbatim inside the Markdown chapters::

    〔封存｜编号 {roll_id}｜{expr}＝？？？｜承诺 {commitment}〕
    〔揭晓｜编号 {roll_id}｜{expr}＝{value}｜盐 {salt}〕

- ``commitment`` is the full lowercase hex SHA-256 (64 chars) of the UTF-8 text
  ``{roll_id}|{expr}|{value}|{salt}`` (ASCII ``|`` between the fields).
- ``salt`` is 32 lowercase hex chars: the first half of SHA-256 of
  ``anko-salt\\x1f{seed}\\x1f{roll_id}`` (``\\x1f`` is the unit separator), so it is reproducible by the
  host but unknown to readers as long as the campaign seed stays private.
- ``roll_id`` may hold any characters except ``｜``, ``〕`` and whitespace
  (``s1/league/r05/雷希特-玛吉克#3``); ``expr`` additionally excludes ``＝``.
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
"""

from __future__ import annotations

from typing import Any

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from .dice import Roll
from .errors import VerifyError
from .order import Order, place

_ID = r"[^｜〕\s]+"
_EXPR = r"[^｜〕＝\s]+"
# The keywords in simplified or traditional script (an export converted with OpenCC keeps the ids,
# expressions and hex untouched, DESIGN §11, but may convert the words around them).
_SEAL_WORD, _REVEAL_WORD = "封存", "(?:揭晓|揭曉)"
_NO, _COMMIT, _SALT = "(?:编号|編號)", "(?:承诺|承諾)", "(?:盐|鹽)"
_SEAL = re.compile(rf"〔{_SEAL_WORD}｜{_NO} (?P<id>{_ID})｜(?P<expr>{_EXPR})＝？？？｜{_COMMIT} (?P<commit>[0-9a-f]{{64}})〕")
_VALUE = r"-?(?:0|[1-9][0-9]{0,99})"
"""A revealed total: at most a hundred digits (no die comes near; a longer one is malformed, not a number
Python refuses to read)."""
_REVEAL = re.compile(
    rf"〔{_REVEAL_WORD}｜{_NO} (?P<id>{_ID})｜(?P<expr>{_EXPR})＝(?P<value>{_VALUE})｜{_SALT} (?P<salt>[0-9a-f]{{32}})〕"
)
# Anything that *starts* like a seal or reveal; a span the strict patterns reject is reported as
# malformed, so a tampered reveal cannot slip past verification by no longer parsing.
_LOOSE = re.compile(rf"〔(?:{_SEAL_WORD}|{_REVEAL_WORD})[^〕\n]*〕?")
GRAMMAR: dict[str, re.Pattern[str]] = {"loose": _LOOSE, "seal": _SEAL, "reveal": _REVEAL}
"""The patterns ``verify`` reads posts with: every span that starts like a hidden-dice line, and the two
strict lines it must be. Ports of the check (the export's ``verify.html``) are generated from these."""
HASHED = "{roll_id}|{expr}|{value}|{salt}"
"""What a commitment hashes (UTF-8), as a :meth:`str.format` template."""
_PROSE_DIE = re.compile(r"「(?P<expr>[^｜〕＝「」\s]+)＝(?P<value>-?[0-9]{1,100})」")
"""A die as prose prints it (「1D100＝45」): a reveal must agree with the value printed before it. Its
expression holds no corner bracket, so a quoted name before the die (「核心重伤」…「1D100＝97」) is not
read as part of it."""
_HEADING = re.compile(r"^\s*(?:#|\[size|\[b\]第|<h[1-6])")


def salt_for(seed: int, roll_id: str) -> str:
    """The 32-hex-char salt of a hidden roll, derived from the campaign seed and the roll id.

    >>> len(salt_for(1, "s1/x#1")), salt_for(1, "s1/x#1") == salt_for(1, "s1/x#1")
    (32, True)
    """
    return hashlib.sha256(f"anko-salt\x1f{seed}\x1f{roll_id}".encode("utf-8")).hexdigest()[:32]


def commitment(roll_id: str, expr: str, value: int, salt: str) -> str:
    """The 64-hex-char SHA-256 of ``{roll_id}|{expr}|{value}|{salt}`` (UTF-8).

    >>> commitment("a#1", "D100", 5, "0" * 32) == commitment("a#1", "D100", 6, "0" * 32)
    False
    """
    return hashlib.sha256(hashed_text(roll_id, expr, value, salt).encode("utf-8")).hexdigest()


def hashed_text(roll_id: str, expr: str, value: int, salt: str) -> str:
    """The text a commitment is the SHA-256 of: :data:`HASHED` filled in.

    >>> hashed_text("s1/x#1", "D100", 42, "ab" * 16)
    's1/x#1|D100|42|abababababababababababababababab'
    """
    return HASHED.format(roll_id=roll_id, expr=expr, value=value, salt=salt)


def _check_field(name: str, text: str, forbidden: str) -> None:
    """Raise ValueError if ``text`` is empty or holds whitespace or a forbidden delimiter."""
    if not text:
        raise ValueError(f"hidden roll {name} is empty")
    bad = [c for c in text if c in forbidden or c.isspace()]
    if bad:
        raise ValueError(f"hidden roll {name} {text!r} may not contain {bad[0]!r}")


def _checked(roll: Roll) -> Roll:
    """The roll itself, once its id and expression are known to fit the line format."""
    _check_field("id", roll.id, "｜〕")
    _check_field("expression", roll.expr, "｜〕＝")
    return roll


def seal_line(roll: Roll, seed: int) -> str:
    """The seal posted in place of a hidden roll: ``〔封存｜编号 …｜D100＝？？？｜承诺 …〕``."""
    r = _checked(roll)
    c = commitment(r.id, r.expr, r.total, salt_for(seed, r.id))
    return f"〔封存｜编号 {r.id}｜{r.expr}＝？？？｜承诺 {c}〕"


def reveal_line(roll: Roll, seed: int) -> str:
    """The reveal posted later: ``〔揭晓｜编号 …｜D100＝42｜盐 …〕``."""
    r = _checked(roll)
    return f"〔揭晓｜编号 {r.id}｜{r.expr}＝{r.total}｜盐 {salt_for(seed, r.id)}〕"


@dataclass(frozen=True)
class Seal:
    """A parsed seal line."""

    roll_id: str
    """The sealed roll's id."""
    expr: str
    """Dice notation as posted."""
    commitment: str
    """64 hex chars."""
    line: int
    """1-based line number in the scanned text."""


@dataclass(frozen=True)
class Reveal:
    """A parsed reveal line."""

    roll_id: str
    """The revealed roll's id."""
    expr: str
    """Dice notation as posted."""
    value: int
    """The revealed total."""
    salt: str
    """32 hex chars."""
    line: int
    """1-based line number in the scanned text."""

    def matches(self, seal: Seal) -> bool:
        """True if this reveal opens ``seal``: same id and expression, commitment recomputes equal."""
        return (
            self.roll_id == seal.roll_id
            and self.expr == seal.expr
            and commitment(self.roll_id, self.expr, self.value, self.salt) == seal.commitment
        )


def _line_of(text: str, pos: int) -> int:
    """1-based line number of character offset ``pos``."""
    return text.count("\n", 0, pos) + 1


def _parse(text: str) -> tuple[list[Seal], list[Reveal], list[tuple[int, str]]]:
    """Seals, reveals and malformed (line, snippet) spans found in ``text``."""
    seals: list[Seal] = []
    reveals: list[Reveal] = []
    bad: list[tuple[int, str]] = []
    for m in _LOOSE.finditer(text):
        line = _line_of(text, m.start())
        if s := _SEAL.fullmatch(m.group()):
            seals.append(Seal(s["id"], s["expr"], s["commit"], line))
        elif r := _REVEAL.fullmatch(m.group()):
            reveals.append(Reveal(r["id"], r["expr"], int(r["value"]), r["salt"], line))
        else:
            bad.append((line, m.group()))
    return seals, reveals, bad


def prose_mismatches(text: str) -> list[tuple[int, str]]:
    """``(line, message)`` for each reveal that disagrees with the die its post prints for it.

    A reveal belongs to the text block it is attached to: the lines directly above it with no blank
    line between (a paragraph or list item, and the reveal lines under it). Each reveal takes the
    first die of its expression printed there (「1D100＝45」), in order, and must show the same value.

    >>> post = ["应对骰「1D100＝45」 + 3 = 48。", "〔揭晓｜编号 a#1｜1D100＝46｜盐 " + "0" * 32 + "〕"]
    >>> prose_mismatches(chr(10).join(post))
    [(2, 'reveal of a#1 says 1D100＝46 but the post prints 「1D100＝45」 at line 1')]
    >>> prose_mismatches(chr(10).join([post[0], "", post[1]]))
    []
    """
    out: list[tuple[int, str]] = []
    queue: list[tuple[str, int, int]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or _SEAL.search(line) or _HEADING.match(line):
            queue = []
            continue
        reveals = list(_REVEAL.finditer(line))
        queue += [(m["expr"], int(m["value"]), number) for m in _PROSE_DIE.finditer(_REVEAL.sub("", line))]
        for m in reveals:
            i = next((k for k, d in enumerate(queue) if d[0] == m["expr"]), None)
            if i is None:
                continue
            expr, value, at = queue.pop(i)
            if value != int(m["value"]):
                out.append((number, f"reveal of {m['id']} says {m['expr']}＝{m['value']} but the post prints "
                                    f"「{expr}＝{value}」 at line {at}"))
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
        raise VerifyError(f"{out}: not a directory")
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
        report.problems += [f"{post.file}:{line}: malformed hidden-dice line {_snippet(snip)!r}" for line, snip in post.bad]
        report.problems += [f"{post.file}:{line}: {msg}" for line, msg in post.mismatches]
        for s in post.seals:
            where = f"{post.file}:{s.line}"
            if s.roll_id not in first:
                first[s.roll_id] = (s, where)
            elif first[s.roll_id][0].commitment != s.commitment or first[s.roll_id][0].expr != s.expr:
                report.problems.append(
                    f"{where}: seal of {s.roll_id} conflicts with its earlier commitment at {first[s.roll_id][1]}"
                )
    revealed: set[str] = set()
    for post in posts:
        for r in post.reveals:
            report.checked += 1
            revealed.add(r.roll_id)
            if problem := _check_reveal(r, first.get(r.roll_id)):
                report.problems.append(f"{post.file}:{r.line}: {problem}")
    report.problems += _early_reveals(posts)
    report.sealed = [(rid, where) for rid, (_, where) in first.items() if rid not in revealed]
    return report


def _snippet(text: str, limit: int = 120) -> str:
    """``text`` cut to ``limit`` characters for a report line (a malformed line may be any length)."""
    return text if len(text) <= limit else text[:limit] + f"…(+{len(text) - limit} chars)"


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
                    problems.append(f"{post.file}:{r.line}: reveal of {r.roll_id} comes before its seal "
                                    f"({series[at[0]].file}:{at[1]})")
    return problems


def _check_reveal(r: Reveal, sealed: tuple[Seal, str] | None) -> str | None:
    """The problem with reveal ``r`` against its seal, or None if it opens it."""
    if sealed is None:
        return f"reveal of {r.roll_id} has no commitment"
    seal, where = sealed
    if r.expr != seal.expr:
        return f"reveal of {r.roll_id} does not match its commitment (expression {r.expr}, sealed {seal.expr} at {where})"
    if not r.matches(seal):
        return f"reveal of {r.roll_id} does not match its commitment at {where}"
    return None


def format_report(report: VerifyReport) -> str:
    """A short English summary: ``verified N reveals; M still sealed: …`` then one line per problem.

    >>> print(format_report(VerifyReport(2, [("s1/x#1", "out/s01/m01.md:9")], [])))
    verified 2 reveals; 1 still sealed: s1/x#1 (out/s01/m01.md:9)
    """
    noun = "reveal" if report.checked == 1 else "reveals"
    head = f"verified {report.checked} {noun}; {len(report.sealed)} still sealed"
    if report.sealed:
        head += ": " + ", ".join(f"{rid} ({where})" for rid, where in report.sealed)
    if not report.problems:
        return head
    n = len(report.problems)
    lines = [head, f"{n} problem{'s' if n != 1 else ''}:"]
    return "\n".join(lines + [f"  {p}" for p in report.problems])


__all__ = [
    "hidden_spans",
    "salt_for",
    "commitment",
    "GRAMMAR",
    "HASHED",
    "hashed_text",
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
PUBLIC_ROLL_KEYS = ("id", "purpose", "expr", "kind", "player", "hidden", "modifiers", "target")
"""What a still-sealed roll's record keeps: that it was rolled, what for and by whom, and the inputs it was
thrown with, never an output (its faces, total, result, success, or anything they decided)."""
VALUE_KEYS = ("dice", "total")
"""The keys a masked roll record shows as null (``result`` too when the record has one)."""


def mask_sealed(obj: Any, sealed: frozenset[str]) -> Any:
    """``obj`` with nothing left that a roll in ``sealed`` decided (a copy where needed; DESIGN §10).

    Two shapes are masked: a roll record, any mapping whose ``id`` is a sealed roll's (the core's
    :meth:`anko_writer.dice.Roll.to_json` or a ruleset's own), which keeps :data:`PUBLIC_ROLL_KEYS` and
    shows ``dice`` and ``total`` (and ``result``) as ``None``; and a record that names the roll under
    ``sealed_by`` (what the roll's face decided: an outcome, a length of absence …), which keeps only that
    key. Rulesets put every consequence of a sealed roll in such a record, so the public JSON says *that*
    something was rolled and nothing of what came of it. With nothing sealed, ``obj`` itself is returned.

    >>> rec = {"r": [{"id": "a#1", "expr": "1D20", "dice": [7], "total": 7, "hidden": True, "purpose": "x"}],
    ...        "result": {"sealed_by": "a#1", "outcome": "halved", "weeks": 3}, "player": "穆勒"}
    >>> mask_sealed(rec, frozenset({"a#1"}))
    {'r': [{'id': 'a#1', 'expr': '1D20', 'dice': None, 'total': None, 'hidden': True, 'purpose': 'x'}], 'result': {'sealed_by': 'a#1'}, 'player': '穆勒'}
    >>> mask_sealed({"id": "a#1", "kind": "casualty", "dice": [6, 3], "result": "dead", "text": "死亡"}, frozenset({"a#1"}))
    {'id': 'a#1', 'kind': 'casualty', 'dice': None, 'result': None, 'total': None}
    """
    if not sealed:
        return obj
    if isinstance(obj, dict):
        mark, rid = obj.get(SEALED_BY), obj.get("id")
        if isinstance(mark, str) and mark in sealed:
            return {SEALED_BY: mark}
        if isinstance(rid, str) and rid in sealed:
            out = {k: (None if k in VALUE_KEYS or k == "result" else v) for k, v in obj.items()
                   if k in PUBLIC_ROLL_KEYS or k in VALUE_KEYS or k == "result"}
            return out | {k: None for k in VALUE_KEYS if k not in out}
        return {k: mask_sealed(v, sealed) for k, v in obj.items()}
    if isinstance(obj, list):
        return [mask_sealed(v, sealed) for v in obj]
    return obj
