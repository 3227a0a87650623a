"""Render the block tree as a forum post: BBCode or plain text through a profile's tag templates, or
Markdown from the chapter's own source (folds as ``<details>``).

Chapter text is shown as text, never read as the forum's markup (:func:`literal`): in BBCode a ``[`` or ``]``
in a name, a title or any text becomes full-width ``［ ］`` (a club named ``[collapse=x]…`` cannot open a
tag or end a fold's title), and a link target's brackets are percent-encoded; in Markdown a fold's title is
HTML-escaped inside ``<summary>``. Seal and reveal lines are left byte-identical.

>>> from .doc import parse
>>> from .profile import load_profile
>>> nga, tieba = load_profile("nga"), load_profile("tieba")
>>> blocks = parse("**射门**「1D50＝23」\\n\\n| 队 | 分 |\\n|---|--:|\\n| 雷希特 | 3 |\\n")
>>> print(render(blocks, nga))
[b]射门[/b]「1D50＝23」
<BLANKLINE>
[table][tr][td][b]队[/b][/td][td][b]分[/b][/td][/tr]
[tr][td]雷希特[/td][td]3[/td][/tr][/table]
>>> print(render(blocks, tieba))
射门「1D50＝23」
<BLANKLINE>
队      分
雷希特   3
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from html import escape

from markdown_it.token import Token

from ..hidden import hidden_spans
from .doc import MARKUP, Block, Code, Fold, Heading, Inline, ListBlock, Para, Quote, Rule, Table, Vote
from .profile import Profile

SEP = "\n\n"
"""Between two blocks of a post."""

_BRACKETS = str.maketrans({"[": "［", "]": "］"})
"""BBCode's tag brackets as the full-width brackets readers see the same way."""


def _outside_seals(text: str, change: Callable[[str], str]) -> str:
    """``text`` with ``change`` applied everywhere but its seal and reveal spans (kept byte-identical)."""
    spans = hidden_spans(text) if "〔" in text else []
    if not spans:
        return change(text)
    out: list[str] = []
    at = 0
    for start, end in spans:
        out += [change(text[at:start]), text[start:end]]
        at = end
    out.append(change(text[at:]))
    return "".join(out)


def literal(text: str, p: Profile) -> str:
    """Chapter text (a name, a title, a line) as the profile shows it literally, never as markup.

    >>> from .profile import load_profile
    >>> literal("[collapse=x][url=javascript:alert(1)]雷希特竞技", load_profile("nga"))
    '［collapse=x］［url=javascript:alert(1)］雷希特竞技'
    >>> literal("<b>雷希特</b>", load_profile("markdown")), literal("[b]", load_profile("tieba"))
    ('&lt;b&gt;雷希特&lt;/b&gt;', '[b]')
    """
    if p.format == "bbcode" and ("[" in text or "]" in text):
        return _outside_seals(text, lambda t: t.translate(_BRACKETS))
    if p.format in ("markdown", "html") and ("<" in text or ">" in text or "&" in text):
        return _outside_seals(text, lambda t: escape(t, quote=False))
    return text


def _href(href: str, p: Profile) -> str:
    """A link target inside a BBCode ``[url=…]``: its brackets percent-encoded, so it cannot close the tag."""
    return href.replace("[", "%5B").replace("]", "%5D") if p.format == "bbcode" else href


def inline(line: Inline, p: Profile) -> str:
    """One line of inline tokens through the profile's tags (bold, italic, code, links)."""
    if p.format == "markdown":
        return line.source
    out: list[str] = []
    stack: list[tuple[Token, list[str]]] = []
    for t in line.tokens:
        if t.nesting == 1:
            stack.append((t, out))
            out = []
        elif t.nesting == -1 and stack:
            opened, parent = stack.pop()
            content, out = "".join(out), parent
            kind = {"strong_open": "bold", "em_open": "italic", "link_open": "link"}.get(opened.type, "")
            href = _href(str(opened.attrs.get("href", "")), p)
            out.append(p.tag(kind, content, href=href) if kind else content)
        elif t.type == "text":
            out.append(literal(t.content, p))
        elif t.type == MARKUP:
            out.append(t.content)
        elif t.type == "code_inline":
            out.append(p.tag("code", literal(t.content, p)))
        elif t.type == "image":
            out.append(literal(t.content, p))
    while stack:  # an unclosed span (cannot happen with markdown-it) keeps its text
        _, parent = stack.pop()
        out = parent + out
    return "".join(out)


def width(text: str) -> int:
    """Display width: East Asian wide and full-width characters count two columns."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, cols: int, align: str) -> str:
    """``text`` padded with spaces to ``cols`` display columns."""
    gap = " " * max(0, cols - width(text))
    return gap + text if align == "right" else text + gap


def table_lines(header: Sequence[str], rows: Sequence[Sequence[str]], align: Sequence[str]) -> str:
    """A table as aligned plain lines (for forums without tables)."""
    cols = [max(width(r[i]) if i < len(r) else 0 for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(_pad(c, cols[i], align[i] if i < len(align) else "") for i, c in enumerate(r)).rstrip()
             for r in [header, *rows]]
    return "\n".join(lines)


def _table(b: Table, p: Profile) -> str:
    """A table through the table tags, as aligned lines, or as Markdown."""
    if p.format == "markdown":
        rule = {"left": ":--", "center": ":-:", "right": "--:"}
        lines = ["| " + " | ".join(c.source for c in b.header) + " |",
                 "|" + "|".join(rule.get(a, "---") for a in b.align) + "|"]
        return "\n".join(lines + ["| " + " | ".join(c.source for c in r) + " |" for r in b.rows])
    header = [inline(c, p) for c in b.header]
    rows = [[inline(c, p) for c in r] for r in b.rows]
    if p.tables == "lines":
        return table_lines(header, rows, b.align)
    head = p.tag("row", "".join(p.tag("head_cell", c) for c in header))
    body = [p.tag("row", "".join(p.tag("cell", c) for c in r)) for r in rows]
    return p.tag("table", "\n".join([head, *body]))


def _indent(text: str, first: str, rest: str) -> str:
    """``text`` with ``first`` before its first line and ``rest`` before the others (blank lines kept)."""
    lines = text.split("\n")
    return "\n".join([first + lines[0]] + [rest + line if line else line for line in lines[1:]])


def _list(b: ListBlock, p: Profile) -> str:
    """A list: Markdown markers, or the item tags inside the list tag."""
    items = [render(item, p) for item in b.items]
    if p.format == "markdown":
        marks = [f"{b.start + i}. " if b.ordered else "- " for i in range(len(items))]
        return "\n".join(_indent(t, m, " " * len(m)) for t, m in zip(items, marks, strict=True))
    tag = "ordered_item" if b.ordered else "item"
    return p.tag("list", "\n".join(p.tag(tag, t, n=b.start + i) for i, t in enumerate(items)))


def _quote(b: Quote, p: Profile) -> str:
    """A block quote."""
    inner = render(b.blocks, p)
    if p.format == "markdown":
        return "\n".join("> " + line if line else ">" for line in inner.split("\n"))
    return p.tag("quote", inner)


def fold(title: str, inner: str, p: Profile) -> str:
    """A detail block folded under ``title``."""
    if p.format == "markdown":
        return f"<details><summary>{literal(title, p)}</summary>\n\n{inner}\n\n</details>"
    return p.tag("fold", inner, title=literal(title, p))


def block(b: Block, p: Profile) -> str:
    """One block as the profile renders it."""
    if isinstance(b, Heading):
        text = inline(b.text, p)
        return "#" * b.level + " " + text if p.format == "markdown" else p.tag(f"h{min(b.level, 4)}", text)
    if isinstance(b, Para):
        return "\n".join(inline(line, p) for line in b.lines)
    if isinstance(b, Table):
        return _table(b, p)
    if isinstance(b, ListBlock):
        return _list(b, p)
    if isinstance(b, Quote):
        return _quote(b, p)
    if isinstance(b, Fold):
        return fold(b.title, render(b.blocks, p), p)
    if isinstance(b, Vote):
        return render(b.blocks, p)
    if isinstance(b, Rule):
        return "---" if p.format == "markdown" else p.tag("hr", "")
    if isinstance(b, Code):
        return f"```\n{b.text}\n```" if p.format == "markdown" else literal(b.text, p)
    return b.text if p.format == "markdown" else ""


def render(blocks: Sequence[Block], p: Profile) -> str:
    """Blocks one after another, a blank line between them (a block that renders empty is left out)."""
    return SEP.join(t for t in (block(b, p) for b in blocks) if t)


__all__ = ["SEP", "block", "fold", "inline", "literal", "render", "table_lines", "width"]
