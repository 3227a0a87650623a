"""The ``html`` profile: one self-contained page per arc (no network, no scripts), with a contents
list, tables as tables and folds as ``<details>``; for previewing a season and for blogs.

>>> page = arc_page("第一赛季", [("m01", "# 第一月\\n\\n::: fold 明细\\n\\n| a |\\n|---|\\n| 1 |\\n:::\\n")])
>>> "<details><summary>明细</summary>" in page and "<table>" in page and 'href="#m01"' in page
True
>>> page = arc_page("第一局", [("t01", "![棋盘](t01.svg)\\n")], [lambda src: "data:image/svg+xml;base64,PHN2Zy8+"])
>>> '<img src="data:image/svg+xml;base64,PHN2Zy8+" alt="棋盘"' in page
True
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from functools import lru_cache
from html import escape
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from mdit_py_plugins.container import container_plugin

from ..textfile import read_bytes
from .doc import CONTAINERS

STYLE = """
body { font-family: "Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei",
       sans-serif; max-width: 52em; margin: 2em auto; padding: 0 1em; line-height: 1.7; color: #222; }
nav { border: 1px solid #ddd; padding: .5em 1.5em; margin-bottom: 2em; background: #fafafa; }
article { border-top: 2px solid #888; margin-top: 3em; }
div.wide { max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #bbb; padding: .2em .6em; word-break: keep-all; }
th:first-child, td:first-child { white-space: nowrap; }
pre { overflow-x: auto; max-width: 100%; }
img, svg { max-width: 100%; height: auto; }
article, section, details { overflow-wrap: anywhere; }
button.copy { float: right; margin-top: 1em; font-size: .9em; }
th { background: #f0f0f0; }
blockquote { border-left: 4px solid #ccc; margin-left: 0; padding-left: 1em; color: #444; }
details { border: 1px solid #ddd; padding: .3em 1em; margin: 1em 0; }
summary { cursor: pointer; font-weight: bold; }
"""
"""The page's only style sheet (inline, so the page needs nothing else): a table wider than a phone scrolls inside
itself, names do not wrap a character a line, pictures shrink to the column."""

COPY_SCRIPT = """
for (const b of document.querySelectorAll('button.copy')) {
  b.addEventListener('click', () => {
    const art = b.closest('article');
    const text = art.innerText.replace(b.innerText, '').trim();
    const done = () => { b.textContent = '已复制'; setTimeout(() => { b.textContent = '复制这一章'; }, 1500); };
    const byHand = () => {
      const area = document.createElement('textarea');
      area.value = text; document.body.appendChild(area); area.select();
      document.execCommand('copy'); area.remove(); done();
    };
    if (navigator.clipboard && window.isSecureContext) { navigator.clipboard.writeText(text).then(done, byHand); }
    else { byHand(); }
  });
}
"""
"""Each chapter's copy button: its text to the clipboard (the posting helper, issue 28)."""


def _render_container(name: str) -> Callable[..., str]:
    """markdown-it's render rule for a ``fold`` (``<details>``) or ``vote`` (a plain section)."""
    def render(self: object, tokens: Sequence[Token], idx: int, _options: OptionsDict, env: EnvType) -> str:
        tok = tokens[idx]
        if name == "vote":
            return '<section class="vote">\n' if tok.nesting == 1 else "</section>\n"
        if tok.nesting == 1:
            title = tok.info.strip().removeprefix("fold").strip() or "详情"
            return f"<details><summary>{escape(title)}</summary>\n"
        return "</details>\n"
    return render


@lru_cache(maxsize=1)
def _md() -> MarkdownIt:
    """CommonMark with tables and the two containers rendered as HTML (raw HTML in chapters escaped)."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    for name in CONTAINERS:
        container_plugin(md, name, render=_render_container(name))
    md.add_render_rule("table_open", lambda *a, **k: '<div class="wide"><table>\n')
    md.add_render_rule("table_close", lambda *a, **k: "</table></div>\n")
    return md


def _title(tokens: Sequence[Token]) -> str:
    """The text of the first heading in ``tokens`` (or an empty string)."""
    for i, tok in enumerate(tokens[:-1]):
        if tok.type == "heading_open":
            return "".join(c.content for c in tokens[i + 1].children or [] if c.type in ("text", "code_inline"))
    return ""


def title_of(markdown: str) -> str:
    """A chapter's first heading as plain text (or an empty string)."""
    return _title(_md().parse(markdown))


Images = Callable[[str], "str | None"]
"""A chapter's image source (``t03.svg``) → the ``data:`` URI of the file beside it, or None to keep it."""


def _inline_images(tokens: Sequence[Token], images: Images | None) -> None:
    """Point each image at its data URI, so the page carries its pictures (no file beside it needed)."""
    if images is None:
        return
    for tok in tokens:
        for child in tok.children or []:
            if child.type == "image" and (uri := images(str(child.attrs.get("src", "")))) is not None:
                child.attrs["src"] = uri


def data_uri(path: Path) -> str | None:
    """The ``data:`` URI of an image file (SVG or PNG), or None if there is no such file or kind."""
    kind = {".svg": "image/svg+xml", ".png": "image/png"}.get(path.suffix.lower())
    if kind is None or not path.is_file():
        return None
    return f"data:{kind};base64,{base64.b64encode(read_bytes(path)).decode('ascii')}"


def arc_page(title: str, chapters: Sequence[tuple[str, str]], images: Sequence[Images | None] = (),
             link: tuple[str, str] | None = None) -> str:
    """One page holding ``chapters`` (``(anchor, markdown)`` in order) under a contents list; ``images``
    (one per chapter) inline the pictures each chapter links to; ``link`` (``(href, text)``) is shown under
    the title (the hidden-dice check page beside it)."""
    md = _md()
    parsed = [(anchor, md.parse(text)) for anchor, text in chapters]
    for (_, toks), resolve in zip(parsed, images, strict=False):
        _inline_images(toks, resolve)
    items = "\n".join(f'<li><a href="#{escape(a)}">{escape(_title(toks) or a)}</a></li>' for a, toks in parsed)
    body = "\n".join(f'<article id="{escape(a)}">\n<button class="copy" type="button">复制这一章</button>\n'
                     f'{md.renderer.render(toks, md.options, {})}</article>' for a, toks in parsed)
    head = f'<p class="links"><a href="{escape(link[0])}">{escape(link[1])}</a></p>\n' if link else ""
    return (f'<!DOCTYPE html>\n<html lang="zh-CN">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f"<h1>{escape(title)}</h1>\n{head}<nav>\n<h2>目录</h2>\n<ol>\n{items}\n</ol>\n</nav>\n{body}\n"
            f"<script>{COPY_SCRIPT}</script>\n</body>\n</html>\n")


__all__ = ["COPY_SCRIPT", "Images", "STYLE", "arc_page", "data_uri", "title_of"]
