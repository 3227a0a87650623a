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
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from ..errors import InputError, Location
from ..resources import builtin_dir, shipped_or_file
from ..schema import Check, Field, List, Map, Str, validate
from ..textfile import read_text
from ..yamlio import load_yaml

ORDER = ("nga", "discuz", "plain")
"""The shipped layouts tried first when none is given, in this order (any other shipped one after them)."""

TIME = re.compile(r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?[\sT]+(\d{1,2}):(\d{2})(?::(\d{2}))?")
"""A reply's time as forums print it: ``2026-11-30 20:15``, ``2026/11/30 20:15:33``, ``2026年11月30日 20:15``."""


class LayoutError(InputError):
    """A forum layout file is malformed, or no layout reads a replies file."""


def _regex(text: Any) -> str | None:
    """Why ``text`` is not a regular expression (None: it compiles)."""
    try:
        re.compile(str(text), re.M)
    except re.error as err:
        return f"not a regular expression: {err}"
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
                        doc="A line that introduces a quote: it and the lines after it up to a blank line are quoted."),
    }), default={"blocks": [], "lines": [], "intros": []}),
    "skip": Field(List(REGEX), default=[], doc="Lines of the page's chrome (buttons, signatures) to drop."),
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

    def where(self) -> str:
        """How the tally names the reply: ``#12 小明``, ``沙发 小明``, or ``第3条 小明`` when the page has no floors."""
        if self.floor is None:
            return f"第{self.index}条 {self.author}"
        return f"{'#' + self.floor if self.floor.isdigit() else self.floor} {self.author}"


def shipped() -> list[str]:
    """The names of the shipped layouts, in the order auto-detection tries them."""
    names = sorted(p.stem for p in builtin_dir("layouts").glob("*.yaml"))
    return [n for n in ORDER if n in names] + [n for n in names if n not in ORDER]


def _compile(text: str) -> re.Pattern[str]:
    """A layout regex in multi-line mode."""
    return re.compile(text, re.M)


def load_layout(spec: str) -> Layout:
    """The shipped layout named ``spec``, or the layout file at path ``spec`` (``*.yaml``)."""
    path = shipped_or_file("layouts", spec, "forum layout", LayoutError, shipped())
    data = validate(load_yaml(path, LayoutError), SCHEMA, path, LayoutError)
    for i, h in enumerate(data["headers"]):
        if "(?P<author>" not in h:
            raise LayoutError(Location(path), f"headers[{i}]", "a header needs a named group 'author'")
    if not data["headers"] and "line" not in data:
        raise LayoutError(Location(path), "", "a layout needs 'headers' or a 'line'")
    q = data["quotes"]
    return Layout(data["name"], data["description"], tuple(_compile(h) for h in data["headers"]),
                  _compile(data["line"]) if "line" in data else None,
                  tuple((_compile(a), _compile(b)) for a, b in q["blocks"]),
                  tuple(_compile(x) for x in q["lines"]), tuple(_compile(x) for x in q["intros"]),
                  tuple(_compile(x) for x in data["skip"]), path)


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


def cut_quotes(body: str, layout: Layout) -> str:
    """``body`` without what it quotes (blocks, quoted lines, a quote's intro and the lines up to a blank one)
    and without the page's chrome lines."""
    for start, end in layout.blocks:
        while (m := start.search(body)) is not None:
            e = end.search(body, m.end())
            body = body[:m.start()] + "\n" + (body[e.end():] if e else "")
    out: list[str] = []
    quoting = False
    for line in body.split("\n"):
        if quoting:
            quoting = bool(line.strip())
            continue
        if any(p.search(line) for p in layout.intros):
            quoting = True
            continue
        if any(p.search(line) for p in layout.quote_lines) or any(p.search(line) for p in layout.skip):
            continue
        out.append(line)
    return "\n".join(out).strip()


def _group(m: re.Match[str], name: str) -> str | None:
    """A named group's text, stripped (None when the pattern has no such group or it did not match)."""
    value = m.groupdict().get(name)
    return value.strip() if value and value.strip() else None


def split_replies(text: str, layout: Layout) -> list[Reply]:
    """The replies in ``text`` as ``layout`` reads it: by its headers if any matches, else by its ``line``."""
    heads = sorted((m for h in layout.headers for m in h.finditer(text)), key=lambda m: m.start())
    starts: list[re.Match[str]] = []
    for m in heads:  # two header patterns matching the same reply: the first one
        if not starts or m.start() >= starts[-1].end():
            starts.append(m)
    replies: list[Reply] = []
    if starts:
        for i, m in enumerate(starts):
            end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
            floor = (_group(m, "floor") or "").strip("#＃ \t") or None
            replies.append(Reply(_group(m, "author") or "?", parse_time(_group(m, "time")), floor,
                                 cut_quotes(text[m.end():end], layout), i + 1, text.count("\n", 0, m.start()) + 1))
        return replies
    if layout.line is None:
        return []
    current: list[Any] = []  # author, body lines, file line
    for n, line in enumerate(text.split("\n"), 1):
        one = layout.line.match(line)
        if one:
            if current:
                replies.append(Reply(current[0], None, None, cut_quotes("\n".join(current[1]), layout),
                                     len(replies) + 1, current[2]))
            current = [_group(one, "author") or "?", [one.groupdict().get("body") or ""], n]
        elif current:  # a reply's further lines
            current[1].append(line)
    if current:
        replies.append(Reply(current[0], None, None, cut_quotes("\n".join(current[1]), layout),
                             len(replies) + 1, current[2]))
    return replies


def _reads(text: str, layout: Layout) -> list[Reply]:
    """The replies ``layout`` reads in ``text``; none unless it reads the file: a header layout must find a
    header, a line layout must read at least half of the file's non-blank lines as replies' first lines."""
    replies = split_replies(text, layout)
    if replies and not any(h.search(text) for h in layout.headers):
        lines = [x for x in text.split("\n") if x.strip()]
        if len(replies) * 2 < len(lines):
            return []
    return replies


FIRST_LINES = 3
"""How many of an unreadable file's first lines the error quotes."""


def read_replies(path: Path, layout: str | None = None) -> tuple[Layout, list[Reply]]:
    """The replies in the file at ``path`` (UTF-8 text or a saved HTML page), read by the layout named
    or, without one, by the first shipped layout that reads it; a file none reads is a LayoutError
    naming the file and its first lines."""
    text = read_text(path, LayoutError).replace("\r\n", "\n").replace("\r", "\n")
    if looks_like_html(text) or path.suffix.lower() in (".html", ".htm"):
        text = html_text(text)
    tried = [load_layout(layout)] if layout is not None else [load_layout(n) for n in shipped()]
    for lay in tried:
        replies = _reads(text, lay)
        if replies:
            return lay, replies
    first = [line.strip() for line in text.split("\n") if line.strip()][:FIRST_LINES]
    names = ", ".join(x.name for x in tried)
    shown = " / ".join(repr(x[:60]) for x in first) or "(the file is empty)"
    raise LayoutError(Location(path), "", f"no forum layout ({names}) reads these replies; the first lines "
                      f"it could not read: {shown} (give --layout with a layout file that matches the page)")


__all__ = ["BLOCKS", "FIRST_LINES", "Layout", "LayoutError", "ORDER", "Reply", "SCHEMA", "TIME", "cut_quotes",
           "html_text", "load_layout", "looks_like_html", "parse_time", "read_replies", "shipped", "split_replies"]
