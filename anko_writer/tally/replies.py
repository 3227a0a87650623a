"""A thread's replies from the text a host pasted (issue 16): forum layouts as data, HTML to text, quotes cut.

A layout (``layouts/<name>.yaml``, shipped beside the export profiles; ``--layout my.yaml`` for a host's
own) says how one forum's page reads as text: ``headers``, regexes whose match starts a reply (named
groups ``author``, and optionally ``time`` and ``floor``; a header may span lines), or ``line``, a regex
for a reply on one line (groups ``author`` and ``body``), used when no header matches; and ``quotes``:
the quoted text a reply carries (a ``[quote]`` block, a line starting with ``>``), which is cut before
its votes are read, so quoting someone's vote never counts it twice.

>>> layout = load_layout("plain")
>>> [(r.author, r.body) for r in split_replies("小明：【安价 s1m4】阵型：A\\n小红：> 小明：阵型：A\\n", layout)]
[('小明', '【安价 s1m4】阵型：A'), ('小红', '')]
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from ..ballot import has_head, simplified
from ..errors import InputError, Location
from ..resources import builtin_dir, shipped_or_file
from ..schema import Check, Field, List, Map, Str, validate
from ..textfile import read_bytes
from ..yamlio import load_yaml
from . import ngadice
from .encoding import decode_replies

ORDER = ("nga", "discuz", "tieba", "plain")
"""The shipped layouts tried first when none is given, in this order (any other shipped one after them)."""

TIME = re.compile(r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?[\sT]+(\d{1,2}):(\d{2})(?::(\d{2}))?")
"""A reply's time as forums print it: ``2026-11-30 20:15``, ``2026/11/30 20:15:33``, ``2026年11月30日 20:15``."""


class LayoutError(InputError):
    """A forum layout file is malformed, or no layout reads a replies file."""


try:  # the stdlib's own regex parser (private; without it only the time limit guards a host's layout)
    from re import _constants as _sre_c  # type: ignore[attr-defined]
    from re import _parser as _sre_p  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - another Python
    _sre_c = _sre_p = None

_ONE_CHAR = ("LITERAL", "NOT_LITERAL", "IN", "ANY", "CATEGORY")
_REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")
_PROBE = "".join(map(chr, range(0x0, 0x250))) + "　，。：；、【】「」（）＃一中阵型安价丁丂\u3000\uff01\uff1a"
"""Characters tried when telling whether two one-character elements can match the same character."""


def _op(item: Any) -> str:
    """A parsed regex element's op name."""
    return str(item[0])


def _chars(item: Any) -> re.Pattern[str] | None:
    """A one-character element as a pattern of its own (None: not one character)."""
    if _op(item) not in _ONE_CHAR:
        return None
    sub = _sre_p.SubPattern(_sre_p.State(), [item])
    try:
        return re.compile(_sre_compile(sub))
    except (re.error, TypeError):
        return None


def _sre_compile(sub: Any) -> Any:
    """A parsed element compiled (the stdlib compiles a parsed pattern directly)."""
    from re import _compiler  # type: ignore[attr-defined]

    return _compiler.compile(sub, 0)


def _overlap(a: Any, b: Any) -> bool:
    """True when one-character elements ``a`` and ``b`` may match the same character (unknown: True)."""
    pa, pb = _chars(a), _chars(b)
    if pa is None or pb is None:
        return True
    return any(pa.fullmatch(c) and pb.fullmatch(c) for c in _PROBE)


def _ends(seq: list[Any], first: bool) -> list[Any] | None:
    """The one-character elements a sequence can start (``first``) or end with; None when that is not one
    character (a quantifier, a group that may be empty)."""
    items = [x for x in seq if _op(x) != "AT"]
    if not items:
        return None
    x = items[0] if first else items[-1]
    if _op(x) in _ONE_CHAR:
        return [x]
    if _op(x) in _REPEATS and x[1][0] >= 1 and len(x[1][2]) == 1 and _op(x[1][2][0]) in _ONE_CHAR:
        return [x[1][2][0]]  # [0-9]+ starts and ends with a digit
    if _op(x) == "SUBPATTERN":
        return _ends(list(x[1][-1]), first)
    if _op(x) == "BRANCH":
        out: list[Any] = []
        for arm in x[1][1]:
            got = _ends(list(arm), first)
            if got is None:
                return None
            out += got
        return out
    return None


def _round_problem(body: list[Any], ends: list[Any]) -> str | None:
    """Why the body of a repeated group can be matched more than one way (None: each round is decided by
    its characters): a quantifier over more than one character, or over a character the round ends with,
    or alternatives that start alike."""
    for x in body:
        op = _op(x)
        if op in _REPEATS:
            lo, hi, sub = x[1]
            sub = list(sub)
            if lo == hi and not any(_op(y) in _REPEATS or _op(y) == "BRANCH" for y in sub):
                continue
            if len(sub) != 1 or _op(sub[0]) not in _ONE_CHAR:
                return "重复组里有量词，作用在不止一个字符上"
            if any(_overlap(sub[0], e) for e in ends):
                return "重复组里的量词能匹配每一轮结尾的字符"
        elif op == "SUBPATTERN":
            why = _round_problem(list(x[1][-1]), ends)
            if why:
                return why
        elif op == "BRANCH":
            firsts = [_ends(list(arm), True) for arm in x[1][1]]
            if any(f is None for f in firsts):
                return "重复组里的几个分支可能以同一个字符开头"
            for i, fi in enumerate(firsts):
                for fj in firsts[i + 1:]:
                    if any(_overlap(a, b) for a in fi or () for b in fj or ()):
                        return "重复组里的几个分支可能以同一个字符开头"
            for arm in x[1][1]:
                why = _round_problem(list(arm), ends)
                if why:
                    return why
    return None


def _backtracking(seq: Any) -> str | None:
    """Why a parsed pattern may backtrack exponentially (None: it cannot by these rules): a repeated group
    (``*``, ``+``, ``{m,n}`` with n > 1) may hold further quantifiers only over single characters that cannot
    match the character ending each round, and alternatives that start with different characters
    (``(?:[^\\n]*\\n)*`` is fine; ``(a+)+``, ``(a|a)*``, ``(\\s*x?)*`` are not)."""
    for x in seq:
        op = _op(x)
        if op in _REPEATS:
            lo, hi, sub = x[1]
            body = list(sub)
            if hi > 1 and not (len(body) == 1 and _op(body[0]) in _ONE_CHAR):
                nested = any(_op(y) in _REPEATS or _op(y) in ("BRANCH", "SUBPATTERN") for y in body)
                if nested:
                    ends = _ends(body, False)
                    if ends is None:
                        return "重复组不是以一个固定字符结尾，里面却有量词"
                    why = _round_problem(body, ends)
                    if why:
                        return why
            why = _backtracking(body)
            if why:
                return why
        elif op == "SUBPATTERN":
            why = _backtracking(x[1][-1])
            if why:
                return why
        elif op == "BRANCH":
            for arm in x[1][1]:
                why = _backtracking(arm)
                if why:
                    return why
        elif op in ("ASSERT", "ASSERT_NOT"):
            why = _backtracking(x[1][1])
            if why:
                return why
    return None


def _regex(text: Any) -> str | None:
    """Why ``text`` is not a regular expression a layout may use (None: it compiles, and cannot backtrack
    exponentially by :func:`_backtracking`'s rules)."""
    try:
        re.compile(str(text), re.M)
    except re.error as err:
        return f"不是正则表达式：{err}"
    except RecursionError:
        return "不是正则表达式：嵌套太深"
    if _sre_p is None:
        return None
    try:
        why = _backtracking(_sre_p.parse(str(text), re.M))
    except RecursionError:
        return "不是正则表达式：嵌套太深"
    if why:
        return (f"{why}：这样的模式在一条长回复上可能跑几个小时（灾难性回溯）；"
                "请让重复组的每一轮结束在组内任何部分都不匹配的字符上，例如 (?:[^\\n]*\\n)*")
    return None


REGEX = Check(Str(min_len=1), _regex)
SCHEMA = Map({
    "name": Field(Str(min_len=1), doc="The layout's name (``--layout NAME``)."),
    "description": Field(Str(), default=""),
    "headers": Field(List(REGEX), default=[],
                     doc="Regexes (multi-line mode) whose match starts a reply: groups author, time, floor."),
    "line": Field(REGEX, required=False, doc="A reply on one line (groups author, body), when no header matches."),
    "quotes": Field(Map({
        "blocks": Field(List(List(REGEX, min_len=2, max_len=2)), default=[],
                        doc="[start, end] regex pairs: the text between them (inclusive) is a quote."),
        "lines": Field(List(REGEX), default=[], doc="A line matching one of these is quoted text."),
        "intros": Field(List(REGEX), default=[],
                        doc="A line that introduces a quote (optional group author: whom it quotes): the lines "
                            "after it that are the quoted reader's own lines, else up to a blank line, are quoted."),
        "replies": Field(List(REGEX), default=[],
                         doc="A line that only says whom a reply answers (optional group author): dropped, and "
                             "only lines after it that are that reader's own lines are quoted."),
    }), default={"blocks": [], "lines": [], "intros": [], "replies": []}),
    "skip": Field(List(REGEX), default=[], doc="Lines of the page's chrome (buttons, signatures) to drop."),
    "footers": Field(List(REGEX), default=[],
                     doc="A reply's last lines giving its floor and time (groups floor, time), as Tieba prints "
                         "them below the post: read and dropped."),
    "opening": Field(REGEX, required=False,
                     doc="The floor of the thread's first post (0, 楼主, 1): its author is the host, never a voter."),
    "hosts": Field(List(Str(min_len=1)), default=[], doc="The host's names on this forum: never voters."),
})
"""The schema of a layout file."""


@dataclass(frozen=True)
class Layout:
    """How one forum's replies read as text."""

    name: str
    description: str
    headers: tuple[re.Pattern[str], ...]
    line: re.Pattern[str] | None
    blocks: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]
    quote_lines: tuple[re.Pattern[str], ...]
    intros: tuple[re.Pattern[str], ...]
    skip: tuple[re.Pattern[str], ...]
    source: Path
    replies: tuple[re.Pattern[str], ...] = ()
    footers: tuple[re.Pattern[str], ...] = ()
    opening: re.Pattern[str] | None = None
    hosts: tuple[str, ...] = ()
    shipped: bool = True
    """A shipped layout (its regexes are the project's, run in this process); a host's own file runs in a
    worker process with a time limit (:data:`REGEX_SECONDS`)."""


@dataclass(frozen=True)
class Reply:
    """One reply: who wrote it, when (None: the page did not say), its floor as the forum prints it, its
    text without quotes, its place in the file (1-based) and the file line its header is on."""

    author: str
    time: datetime.datetime | None
    floor: str | None
    body: str
    index: int
    line: int
    set_aside: tuple[tuple[str, str], ...] = ()
    """Lines cut from the reply that hold a vote's head, with why: ``quote`` (quoted text) or ``chrome``
    (the page's own text), so the tally can list them (nothing that looks like a vote disappears)."""
    opening: bool = False
    """The thread's first post (the layout's ``opening`` floor): its author is the host."""

    def where(self) -> str:
        """How the tally names the reply: ``#12 小明``, ``沙发 小明``, or ``第3条 小明`` when the page has no floors."""
        if self.floor is None:
            return f"第{self.index}条 {self.author}"
        return f"{'#' + self.floor if self.floor.isdigit() else self.floor} {self.author}"


class Thread(list[Reply]):
    """The replies read from one file, in thread order, with what the reading found: the file's encoding,
    and the lines outside any reply that hold a vote's head (the page's own text)."""

    def __init__(self, replies: Sequence[Reply] = (), encoding: str = "", outside: tuple[str, ...] = (),
                 hosts: tuple[str, ...] = ()) -> None:
        super().__init__(replies)
        self.encoding = encoding
        self.outside = outside
        self.hosts = hosts
        """The host's names the layout gives (``hosts``)."""
        self.dice: tuple[ngadice.Check, ...] = ()
        """Readers' NGA ``[dice]`` rolls recomputed from a saved NGA page (:mod:`.ngadice`)."""

    def host(self) -> str | None:
        """The thread starter: the author of the thread's first post, when the page holds it."""
        return self[0].author if self and self[0].opening else None


def shipped() -> list[str]:
    """The names of the shipped layouts, in the order auto-detection tries them."""
    names = sorted(p.stem for p in builtin_dir("layouts").glob("*.yaml"))
    return [n for n in ORDER if n in names] + [n for n in names if n not in ORDER]


def _compile(text: str) -> re.Pattern[str]:
    """A layout regex in multi-line mode."""
    return re.compile(text, re.M)


def load_layout(spec: str) -> Layout:
    """The shipped layout named ``spec``, or the layout file at path ``spec`` (``*.yaml``)."""
    path = shipped_or_file("layouts", spec, "论坛版式", LayoutError, shipped())
    data = validate(load_yaml(path, LayoutError), SCHEMA, path, LayoutError)
    for i, h in enumerate(data["headers"]):
        if "(?P<author>" not in h:
            raise LayoutError(Location(path), f"headers[{i}]", "header 需要一个名为 'author' 的命名组")
    if not data["headers"] and "line" not in data:
        raise LayoutError(Location(path), "", "版式需要 'headers' 或 'line'")
    q = data["quotes"]
    own = path.resolve().parent != builtin_dir("layouts").resolve()
    return Layout(data["name"], data["description"], tuple(_compile(h) for h in data["headers"]),
                  _compile(data["line"]) if "line" in data else None,
                  tuple((_compile(a), _compile(b)) for a, b in q["blocks"]),
                  tuple(_compile(x) for x in q["lines"]), tuple(_compile(x) for x in q["intros"]),
                  tuple(_compile(x) for x in data["skip"]), path,
                  replies=tuple(_compile(x) for x in q.get("replies", ())),
                  footers=tuple(_compile(x) for x in data["footers"]),
                  opening=re.compile(data["opening"]) if "opening" in data else None,
                  hosts=tuple(data["hosts"]), shipped=not own)


# ---------------------------------------------------------------------------------------------
# HTML to text

BLOCKS = frozenset({"address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "fieldset",
                    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
                    "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "tbody", "td", "th",
                    "thead", "tr", "ul"})
"""Elements that start a new line in the text."""
HIDDEN = frozenset({"script", "style", "head", "title", "noscript", "template", "textarea"})
"""Elements whose content is not page text."""
VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "area", "base", "col", "embed", "source", "wbr"})
"""Elements without an end tag."""


class _Text(HTMLParser):
    """A saved page as the text a browser shows: block elements as new lines, a quote (``blockquote``,
    or an element whose class names ``quote``) between ``[quote]`` and ``[/quote]`` lines."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[tuple[str, bool]] = []  # (tag, closes a quote)
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Open an element: a new line for a block, a quote marker for a quote."""
        if tag in HIDDEN:
            self.hidden += 1
        if tag in BLOCKS:
            self.parts.append("\n")
        classes = next((v or "" for k, v in attrs if k == "class"), "")
        quote = tag == "blockquote" or "quote" in classes.lower().split()
        if quote:
            self.parts.append("\n[quote]\n")
        if tag not in VOID:
            self.stack.append((tag, quote))

    def handle_endtag(self, tag: str) -> None:
        """Close an element (and any left open inside it)."""
        if tag in HIDDEN and self.hidden:
            self.hidden -= 1
        if not any(t == tag for t, _ in self.stack):
            return
        while self.stack:
            t, quote = self.stack.pop()
            if quote:
                self.parts.append("\n[/quote]\n")
            if t == tag:
                break
        if tag in BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        """Page text (runs of white space as one space, as a browser shows them)."""
        if not self.hidden:
            self.parts.append(re.sub(r"[ \t\r\n\f]+", " ", data))

    def text(self) -> str:
        """The page's text, one block a line, without blank lines (a page's layout is its elements, and a
        header may not be split by the gap between two of them)."""
        lines = [line.strip() for line in "".join(self.parts).split("\n")]
        return "\n".join(line for line in lines if line) + "\n"


def looks_like_html(text: str) -> bool:
    """True for a saved page (``<!DOCTYPE html>``, ``<html>`` or ``<body>`` near the start)."""
    return re.match(r"\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body)\b", text[:2000], re.I | re.S) is not None


def html_text(html: str) -> str:
    """A saved page's text, block elements as new lines (the stdlib parser; nothing is fetched or run).

    >>> print(html_text("<html><body><div>小明</div><p>阵型：A<br>好</p><blockquote>小红：B</blockquote></body></html>"), end="")
    小明
    阵型：A
    好
    [quote]
    小红：B
    [/quote]
    """
    parser = _Text()
    parser.feed(html)
    parser.close()
    return parser.text()


# ---------------------------------------------------------------------------------------------
# Splitting a page into replies


def parse_time(text: str | None) -> datetime.datetime | None:
    """A reply's or the deadline's time (None when ``text`` holds none).

    >>> parse_time("发表于 2026/11/30 20:15:33")
    datetime.datetime(2026, 11, 30, 20, 15, 33)
    """
    m = TIME.search(text or "")
    if not m:
        return None
    y, mo, d, h, mi, s = (int(g) if g else 0 for g in m.groups())
    try:
        return datetime.datetime(y, mo, d, h, mi, s)
    except ValueError:
        return None


def _plain(line: str) -> str:
    """A line compared with another: runs of white space as one space, no space at either end."""
    return " ".join(line.split())


def _quoted(line: str, theirs: set[str]) -> bool:
    """True when ``line`` is one of the quoted reader's own lines (or the start of one the forum cut
    short with ``…``)."""
    p = _plain(line)
    if p in theirs:
        return True
    stem = p.rstrip(".…。 ")
    return len(stem) >= 6 and stem != p and any(x.startswith(stem) for x in theirs)


def _author(m: re.Match[str], text: str) -> str | None:
    """The reader a quote's intro names (its optional ``author`` group, as ``text`` spells it)."""
    return _group(m, "author", text)


def cut_quotes(body: str, layout: Layout, own: Mapping[str, set[str]] | None = None,
               chrome: frozenset[str] = frozenset()) -> tuple[str, tuple[tuple[str, str], ...]]:
    """``body`` without what it quotes and without the page's chrome, and the cut lines that hold a vote's
    head (``(line, "quote" | "chrome")``, for the tally's lists).

    Quoted: a block (``[quote]…[/quote]``), a quoted line (``> …``), and after a quote's intro line
    (「Reply Post by 老周 (…):」) the lines that are the quoted reader's own (``own``: each reader's lines on
    the page) — or, when that reader's post is not on the page, the lines up to a blank one. A reply's
    intro (「Reply to Reply Post by 老周 (…)」: NGA's 回复 button, which quotes nothing) is dropped alone,
    with any following lines that are that reader's own. Chrome: ``skip`` lines, and lines of the page's
    own text above the first reply (``chrome``) repeated between floors (a second page's title and nav).
    """
    own = own or {}
    aside: list[tuple[str, str]] = []

    def note(text: str, why: str) -> None:
        aside.extend((x.strip(), why) for x in text.split("\n") if has_head(x))

    for start, end in layout.blocks:
        while (m := start.search(simplified(body))) is not None:
            e = end.search(simplified(body), m.end())
            note(body[m.start():e.end() if e else len(body)], "quote")
            body = body[:m.start()] + "\n" + (body[e.end():] if e else "")
    out: list[str] = []
    theirs: set[str] | None = None  # quoting the lines of one reader
    to_blank = False  # quoting up to the next blank line
    for line in body.split("\n"):
        orig, line = line, simplified(line)  # a layout's words match either script
        if to_blank:
            if line.strip():
                note(orig, "quote")
                continue
            to_blank = False
            continue
        if theirs is not None:
            if not line.strip() or _quoted(orig, theirs):
                note(orig, "quote")
                continue
            theirs = None
        reply = next((m for p in layout.replies if (m := p.search(line))), None)
        if reply is not None:
            note(orig, "quote")
            name = _author(reply, orig)
            theirs = own.get(name) if name else None
            continue
        intro = next((m for p in layout.intros if (m := p.search(line))), None)
        if intro is not None:
            note(orig, "quote")
            name = _author(intro, orig)
            theirs = own.get(name) if name else None
            to_blank = theirs is None
            continue
        if any(p.search(line) for p in layout.quote_lines):
            note(orig, "quote")
            continue
        if any(p.search(line) for p in layout.skip) or (_plain(orig) in chrome):
            note(orig, "chrome")
            continue
        out.append(orig)
    return "\n".join(out).strip(), tuple(aside)


def _group(m: re.Match[str], name: str, text: str | None = None) -> str | None:
    """A named group's text, stripped (None when the pattern has no such group or it did not match); with
    ``text``, taken from ``text`` at the group's place (the pattern matched its simplified-script copy)."""
    if name not in m.re.groupindex or m.start(name) < 0:
        return None
    value = text[m.start(name):m.end(name)] if text is not None else m.group(name)
    return value.strip() if value and value.strip() else None


def _footer(body: str, layout: Layout) -> tuple[str, str | None, str | None]:
    """``body`` without its footer (the last match of one of the layout's ``footers``), and the footer's
    floor and time (None: no footer, or it does not say)."""
    for p in layout.footers:
        found = list(p.finditer(simplified(body)))
        if found:
            m = found[-1]
            return body[:m.start()] + body[m.end():], _group(m, "floor", body), _group(m, "time", body)
    return body, None, None


def _floor(text: str | None) -> str | None:
    """A floor as the tally names it: ``12`` for ``#12``, ``12#`` or ``12楼``; ``沙发`` as it is."""
    if text is None:
        return None
    value = text.strip("#＃ \t")
    value = re.sub(r"^(\d+)\s*楼$", r"\1", value)
    return value or None


def split_replies(text: str, layout: Layout) -> Thread:
    """The replies in ``text`` as ``layout`` reads it: by its headers if any matches, else by its ``line``."""
    folded = simplified(text)  # one character for one: a layout's words (发表于, 楼主) match 發表於, 樓主 too
    heads = sorted((m for h in layout.headers for m in h.finditer(folded)), key=lambda m: m.start())
    starts: list[re.Match[str]] = []
    for m in heads:  # two header patterns matching the same reply: the first one
        if not starts or m.start() >= starts[-1].end():
            starts.append(m)
    # (author, time, floor, raw body, file line)
    raw: list[tuple[str, str | None, str | None, str, int]] = []
    prelude = ""
    if starts:
        prelude = text[:starts[0].start()]
        for i, m in enumerate(starts):
            end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
            body, floor, time = _footer(text[m.end():end], layout)
            raw.append((_group(m, "author", text) or "?", _group(m, "time", text) or time,
                        _floor(_group(m, "floor", text) or floor),
                        body, text.count("\n", 0, m.start()) + 1))
    elif layout.line is not None:
        current: list[Any] = []  # author, body lines, file line
        before: list[str] = []
        for n, line in enumerate(text.split("\n"), 1):
            one = layout.line.match(simplified(line))
            if one:
                if current:
                    raw.append((current[0], None, None, "\n".join(current[1]), current[2]))
                current = [_group(one, "author", line) or "?", [_group(one, "body", line) or ""], n]
            elif current:  # a reply's further lines
                current[1].append(line)
            else:
                before.append(line)
        if current:
            raw.append((current[0], None, None, "\n".join(current[1]), current[2]))
        prelude = "\n".join(before)
    own: dict[str, set[str]] = {}
    for author, _, _, body, _ in raw:
        own.setdefault(author, set()).update(_plain(x) for x in body.split("\n") if x.strip())
    chrome = frozenset(p for x in prelude.split("\n") if len(p := _plain(x)) >= 2 and not has_head(p))
    replies = []
    for i, (author, time, floor, body, at) in enumerate(raw, 1):
        kept, aside = cut_quotes(body, layout, own, chrome)
        opening = layout.opening is not None and floor is not None and layout.opening.fullmatch(simplified(floor)) is not None
        replies.append(Reply(author, parse_time(time), floor, kept, i, at, aside, opening))
    outside = tuple(x.strip() for x in prelude.split("\n") if has_head(x)) if raw else ()
    return Thread(replies, outside=outside, hosts=layout.hosts)


def _reads(text: str, layout: Layout) -> Thread:
    """The replies ``layout`` reads in ``text``; none unless it reads the file: a header layout must find a
    header, a line layout must read at least half of the file's non-blank lines as replies' first lines."""
    replies = split_replies(text, layout)
    if replies and not any(h.search(simplified(text)) for h in layout.headers):
        lines = [x for x in text.split("\n") if x.strip()]
        if len(replies) * 2 < len(lines):
            return Thread()
    return replies


REGEX_SECONDS = 30.0
"""How long a host's own layout may take to read a replies file (in a worker process) before the tally
gives up on it: its regexes pass :func:`_backtracking`'s rules, but a regex can still be slow in ways no
rule sees, and Python cannot interrupt a running match in the same process."""


def _reads_child(text: str, layout: Layout, conn: Any) -> None:
    """The worker process's task: :func:`_reads`, its result sent back on ``conn``."""
    conn.send(_reads(text, layout))
    conn.close()


def _reads_limited(text: str, layout: Layout, path: Path) -> Thread:
    """:func:`_reads` in a worker process given :data:`REGEX_SECONDS`; a LayoutError if it takes longer."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")  # the same on every system, nothing inherited
    parent, child = ctx.Pipe(duplex=False)
    worker = ctx.Process(target=_reads_child, args=(text, layout, child), daemon=True)
    worker.start()
    child.close()
    try:
        if parent.poll(REGEX_SECONDS):
            try:
                result: Thread = parent.recv()
                return result
            except EOFError:
                pass
            raise LayoutError(Location(layout.source), "", "版式的工作进程没读完回复就停止了")
        raise LayoutError(Location(layout.source), "", f"版式的正则表达式在这些回复上运行超过 {REGEX_SECONDS:g} 秒"
                          "（有会回溯的模式，请简化）；什么都没有计票")
    finally:
        if worker.is_alive():
            worker.kill()
        worker.join()
        parent.close()


FIRST_LINES = 3
"""How many of an unreadable file's first lines the error quotes."""


def read_replies(path: Path, layout: str | None = None) -> tuple[Layout, Thread]:
    """The replies in the file at ``path`` (text or a saved HTML page, in the encoding
    :mod:`.encoding` finds), read by the layout named or, without one, by the first shipped layout that
    reads it; a file none reads is a LayoutError naming the file and its first lines."""
    text, encoding = decode_replies(read_bytes(path, LayoutError), path, LayoutError)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    page = None
    if looks_like_html(text) or path.suffix.lower() in (".html", ".htm"):
        page, text = text, html_text(text)
    tried = [load_layout(layout)] if layout is not None else [load_layout(n) for n in shipped()]
    for lay in tried:
        replies = _reads(text, lay) if lay.shipped else _reads_limited(text, lay, path)
        if replies:
            replies.encoding = encoding
            if page is not None and lay.name == "nga" and ngadice.has_dice(page):
                replies.dice = ngadice.check_page(page)
            return lay, replies
    first = [line.strip() for line in text.split("\n") if line.strip()][:FIRST_LINES]
    names = "、".join(x.name for x in tried)
    shown = " / ".join(repr(x[:60]) for x in first) or "（文件是空的）"
    raise LayoutError(Location(path), "", f"没有论坛版式（{names}）能读这些回复；读不了的开头几行："
                      f"{shown}（请用 --layout 给出与页面相符的版式文件）")


__all__ = ["BLOCKS", "FIRST_LINES", "Layout", "LayoutError", "ORDER", "REGEX_SECONDS", "Reply", "SCHEMA", "TIME",
           "Thread", "cut_quotes", "html_text", "load_layout", "looks_like_html", "parse_time", "read_replies",
           "shipped", "split_replies"]
