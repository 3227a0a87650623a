"""A chapter's Markdown as a small tree of blocks, built from markdown-it-py's token stream.

Exports render and split this tree, never the Markdown text: a table is rows of cells, a paragraph is
lines (a dice line is one line), a fold is a titled run of blocks. Chapters mark detail blocks with
one container markup (DESIGN §11) that every template uses::

    ::: fold 第5轮逐切片骰子
    …any Markdown…
    :::

and the vote that ends a chapter with ``:::: vote`` … ``::::`` (four colons, so that a fold may sit inside
it; an export keeps it in the last post). A container closes at the first line of at least as many
colons as opened it; a stray marker line left over is refused (:class:`MarkupError`), never posted.

>>> blocks = parse("# 第一月\\n\\n::: fold 明细\\n\\n骰子「1D6＝3」\\n第二行\\n:::\\n")
>>> [type(b).__name__ for b in blocks]
['Heading', 'Fold']
>>> blocks[1].title, [len(p.lines) for p in blocks[1].blocks if isinstance(p, Para)]
('明细', [2])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.container import container_plugin

_STRAY = re.compile(r":{3,}(?:\s+(?:fold|vote)\b.*)?")
CONTAINERS = ("fold", "vote")
"""The container names chapters may use (``::: fold 标题`` and ``:::: vote``)."""


@dataclass(frozen=True)
class Inline:
    """One line of inline Markdown: its source text and markdown-it's inline tokens for it."""

    source: str
    tokens: tuple[Token, ...]


@dataclass
class Heading:
    """``#``–``######``: a heading of ``level`` with one inline line."""

    level: int
    text: Inline


@dataclass
class Para:
    """A paragraph as its lines (a soft or hard break ends a line; a dice line is one line)."""

    lines: list[Inline]


@dataclass
class Table:
    """A pipe table: one header row and body rows of inline cells."""

    header: list[Inline]
    rows: list[list[Inline]]
    align: list[str]
    """Per column: ``""``, ``"left"``, ``"center"`` or ``"right"``."""


@dataclass
class Quote:
    """A block quote of further blocks."""

    blocks: list[Block]


@dataclass
class ListBlock:
    """A bullet or ordered list; each item is a run of blocks."""

    ordered: bool
    items: list[list[Block]]
    start: int = 1


@dataclass
class Fold:
    """A detail block (``::: fold 标题``): folded by forums that can, moved to an appendix by others."""

    title: str
    blocks: list[Block]


@dataclass
class Vote:
    """The chapter's vote block (``:::: vote``): an export keeps it at the very end."""

    blocks: list[Block]


@dataclass
class Rule:
    """A thematic break (``---``)."""


@dataclass
class Code:
    """A fenced or indented code block, shown verbatim."""

    text: str


@dataclass
class Html:
    """A raw HTML block, kept only by profiles that render HTML."""

    text: str


Block = Heading | Para | Table | Quote | ListBlock | Fold | Vote | Rule | Code | Html
"""Every kind of block a chapter is made of."""


class MarkupError(ValueError):
    """A chapter's Markdown breaks the fold markup (a fold inside a fold, an unknown container)."""


@dataclass
class _Cursor:
    """A position in a token list while building the tree."""

    tokens: list[Token]
    i: int = 0
    lines: list[str] = field(default_factory=list)


@lru_cache(maxsize=1)
def parser() -> MarkdownIt:
    """CommonMark with pipe tables and the ``fold``/``vote`` containers."""
    md = MarkdownIt("commonmark").enable("table")
    for name in CONTAINERS:
        container_plugin(md, name)
    return md


def _split_lines(token: Token) -> list[Inline]:
    """An inline token cut at its soft and hard breaks, one :class:`Inline` per line."""
    lines: list[Inline] = []
    current: list[Token] = []
    for child in token.children or []:
        if child.type in ("softbreak", "hardbreak"):
            lines.append(Inline("", tuple(current)))
            current = []
        else:
            current.append(child)
    lines.append(Inline("", tuple(current)))
    sources = token.content.split("\n")
    if len(sources) != len(lines):  # a break inside a code span: keep the paragraph as one line
        return [Inline(token.content, tuple(token.children or []))]
    return [Inline(s, line.tokens) for s, line in zip(sources, lines, strict=True)]


def _inline(token: Token) -> Inline:
    """One inline token as one :class:`Inline`."""
    return Inline(token.content, tuple(token.children or []))


def _until_close(cur: _Cursor, close: str) -> list[Block]:
    """Blocks up to the matching ``close`` token (consumed)."""
    out: list[Block] = []
    while cur.tokens[cur.i].type != close:
        out.append(_block(cur))
    cur.i += 1
    return out


def _table(cur: _Cursor) -> Table:
    """A table from ``table_open`` to ``table_close``."""
    rows: list[list[Inline]] = []
    align: list[str] = []
    row: list[Inline] = []
    while (tok := cur.tokens[cur.i]).type != "table_close":
        if tok.type in ("th_open", "td_open"):
            style = str(tok.attrs.get("style", ""))
            if tok.type == "th_open":
                align.append(style.removeprefix("text-align:"))
        elif tok.type == "inline":
            row.append(_inline(tok))
        elif tok.type == "tr_close":
            rows.append(row)
            row = []
        cur.i += 1
    cur.i += 1
    return Table(rows[0], rows[1:], align)


def _container(cur: _Cursor, tok: Token) -> Block:
    """A ``fold`` or ``vote`` container; folds do not nest."""
    name = tok.type.removeprefix("container_").removesuffix("_open")
    line = (tok.map or [0])[0] + 1
    cur.i += 1
    inner = _until_close(cur, f"container_{name}_close")
    if name == "vote":
        return Vote(inner)
    if any(isinstance(b, Fold) for b in inner):
        raise MarkupError(f"第 {line} 行：折叠块里又有折叠块（折叠块不能嵌套）")
    title = tok.info.strip().removeprefix("fold").strip()
    return Fold(title or "详情", inner)


def _block(cur: _Cursor) -> Block:
    """The block starting at the cursor (consumed)."""
    tok = cur.tokens[cur.i]
    kind = tok.type
    if kind == "heading_open":
        cur.i += 3
        return Heading(int(tok.tag[1:]), _inline(cur.tokens[cur.i - 2]))
    if kind == "paragraph_open":
        cur.i += 3
        para = Para(_split_lines(cur.tokens[cur.i - 2]))
        if any(_STRAY.fullmatch(line.source.strip()) for line in para.lines):
            raise MarkupError(f"第 {(tok.map or [0])[0] + 1} 行：折叠或投票标记没有对应的开头或结尾"
                              "（包着折叠块的投票必须以 '::::' 开头）")
        return para
    if kind == "table_open":
        return _table(cur)
    if kind == "blockquote_open":
        cur.i += 1
        return Quote(_until_close(cur, "blockquote_close"))
    if kind in ("bullet_list_open", "ordered_list_open"):
        return _list(cur, tok)
    if kind.startswith("container_") and kind.endswith("_open"):
        return _container(cur, tok)
    cur.i += 1
    if kind == "hr":
        return Rule()
    if kind in ("fence", "code_block"):
        return Code(tok.content.rstrip("\n"))
    if kind == "html_block":
        return Html(tok.content.rstrip("\n"))
    raise MarkupError(f"第 {(tok.map or [0])[0] + 1} 行：意外的 Markdown 记号 {kind}")


def _list(cur: _Cursor, tok: Token) -> ListBlock:
    """A list from its open token to its close token."""
    close = tok.type.replace("_open", "_close")
    start = int(tok.attrs.get("start", 1) or 1)
    cur.i += 1
    items: list[list[Block]] = []
    while cur.tokens[cur.i].type != close:
        cur.i += 1  # list_item_open
        items.append(_until_close(cur, "list_item_close"))
    cur.i += 1
    return ListBlock(tok.type == "ordered_list_open", items, start)


def parse(markdown: str) -> list[Block]:
    """The top-level blocks of a chapter's Markdown."""
    cur = _Cursor(parser().parse(markdown))
    out: list[Block] = []
    while cur.i < len(cur.tokens):
        out.append(_block(cur))
    return out


def plain(line: Inline) -> str:
    """A line's text without markup (for titles and headers)."""
    return "".join(t.content for t in line.tokens if t.type in ("text", "code_inline"))


def text_line(text: str) -> Inline:
    """A line of plain text made by the exporter (an appendix heading): shown literally, like chapter text."""
    return Inline(text, (Token("text", "", 0, content=text),))


def markup_line(text: str) -> Inline:
    """A line the exporter already rendered in the profile's markup (a reference to the appendix): kept as is."""
    return Inline(text, (Token(MARKUP, "", 0, content=text),))


MARKUP = "anko_markup"
"""The token type of :func:`markup_line`: output markup, never escaped again."""


__all__ = ["Block", "CONTAINERS", "Code", "Fold", "Heading", "Html", "Inline", "ListBlock", "MarkupError", "Para",
           "Quote", "Rule", "Table", "Vote", "MARKUP", "markup_line", "parse", "parser", "plain", "text_line"]
