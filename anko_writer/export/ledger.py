"""The roll ledger (issue 28): one searchable page of the HTML export listing every roll of the thread — its id,
what it was for, its notation, its value (or 封存 while sealed), the chapter that threw it, and where it was
revealed — beside the check page (``verify.html``). Read from the chapters' JSON and their seal and reveal lines;
never re-simulated.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any, NamedTuple

from ..compact import KINDS, ROLL_KEYS, RUNS, expand
from ..hidden import scan
from ..textfile import read_text

LEDGER_PAGE = "骰子总账.html"
"""The ledger's file name in the ``html`` export."""
LEDGER_LINK = "骰子总账"


class Entry(NamedTuple):
    """One roll of the thread as the ledger lists it."""

    id: str
    purpose: str
    expr: str
    value: str
    chapter: str
    status: str


def _rolls(record: Any) -> list[dict[str, Any]]:
    """A chapter record's rolls (the compact form expanded)."""
    if not isinstance(record, dict):
        return []
    rolls = record.get(ROLL_KEYS)
    if isinstance(rolls, dict) and KINDS in rolls and RUNS in rolls:
        record = expand(record)
        rolls = record.get(ROLL_KEYS)
    return [r for r in rolls or [] if isinstance(r, dict) and "id" in r]


def entries(out: Path, chapters: Sequence[str]) -> Iterator[Entry]:
    """Every roll of the chapters (their paths under ``out``, in posting order), then every sealed fact."""
    revealed: dict[str, tuple[str, str]] = {}
    sealed_facts: list[tuple[str, str]] = []
    texts = {rel: read_text(out / rel, within=out) for rel in chapters}
    for rel, text in texts.items():
        seal_lines, reveal_lines = scan(text)
        for line in reveal_lines:
            revealed.setdefault(line.roll_id, (rel, str(line.value) if line.kind != "fact" else "事实"))
        sealed_facts += [(line.roll_id, rel) for line in seal_lines if line.kind == "fact"]
    seen: set[str] = set()
    for rel in chapters:
        path = out / PurePosixPath(rel).with_suffix(".json")
        if not path.is_file():
            continue
        for r in _rolls(json.loads(read_text(path, within=out))):
            rid = str(r["id"])
            if rid in seen:
                continue
            seen.add(rid)
            hidden = bool(r.get("hidden"))
            if hidden and rid in revealed:
                where, value = revealed[rid]
                yield Entry(rid, str(r.get("purpose", "")), str(r.get("expr", "")), value, rel, f"揭晓于 {where}")
            elif hidden:
                yield Entry(rid, str(r.get("purpose", "")), str(r.get("expr", "")), "？？？", rel, "封存中")
            else:
                yield Entry(rid, str(r.get("purpose", "")), str(r.get("expr", "")), str(r.get("total")), rel, "公开")
    for rid, rel in sealed_facts:
        if rid not in seen:
            seen.add(rid)
            told = revealed.get(rid)
            yield Entry(rid, "封存的事实", "事实", "事实" if told else "？？？", rel,
                        f"揭晓于 {told[0]}" if told else "封存中")


_STYLE = ("body{font-family:sans-serif;margin:1em;max-width:60em}nav{margin:.5em 0;line-height:1.8}"
          "nav a{margin-right:.8em;white-space:nowrap}"
          "section{content-visibility:auto;contain-intrinsic-size:auto 40em}"
          "table{border-collapse:collapse;width:100%;table-layout:fixed;font-size:.9em}"
          "col.id{width:34%}col.purpose{width:30%}col.expr{width:10%}col.value{width:8%}"
          "td,th{border:1px solid #ccc;padding:.2em .4em;text-align:left;word-break:break-all}"
          "input{width:100%;font-size:1em;padding:.3em;box-sizing:border-box;margin:.5em 0}")
"""The page's style. Each chapter's rolls are a section of their own, laid out only when scrolled near
(``content-visibility: auto``; the browser's find still reaches them) and a table of fixed column widths: three
seasons' 77,700 rolls in one table of measured columns took Chromium 35 s to show, now about 2 s (issue 29)."""

_SCRIPT = ("const q=document.getElementById('q'),n=document.getElementById('n');let rows=null;"
           "q.addEventListener('input',()=>{const t=q.value.trim();"
           "if(!rows){rows=[...document.querySelectorAll('section')].map(s=>[s,s.querySelector('h2').textContent,"
           "[...s.querySelectorAll('tbody tr')].map(tr=>[tr,tr.textContent])]);}"
           "let found=0;for(const[s,title,trs]of rows){const all=!t||title.includes(t);let shown=0;"
           "for(const[tr,text]of trs){const hide=!all&&!text.includes(t);if(tr.hidden!==hide)tr.hidden=hide;"
           "if(!hide)shown++;}s.hidden=shown===0;found+=shown;}n.textContent=found;n.parentNode.hidden=!t;});")
"""The search: each row's text read once, at the first search; a row or chapter changes only when its state does."""

_HEAD = "".join(f"<th>{h}</th>" for h in ("编号", "用途", "骰子", "点数", "状态"))
_COLS = '<colgroup><col class="id"><col class="purpose"><col class="expr"><col class="value"><col></colgroup>'


def _by_chapter(out: Path, chapters: Sequence[str]) -> dict[str, list[Entry]]:
    """:func:`entries` grouped by the chapter that threw them, the chapters in posting order."""
    groups: dict[str, list[Entry]] = {rel: [] for rel in chapters}
    for e in entries(out, chapters):
        groups.setdefault(e.chapter, []).append(e)
    return {rel: es for rel, es in groups.items() if es}


def _section(rel: str, rows: list[Entry], cell: Callable[[str], str], titles: str) -> str:
    """One chapter's rolls: its heading (the link target of the contents) and its table under the column
    ``titles``, each cell's text as ``cell`` writes it."""
    body = "".join("<tr>" + "".join(f"<td>{cell(x)}</td>" for x in (e.id, e.purpose, e.expr, e.value, e.status))
                   + "</tr>\n" for e in rows)
    return (f'<section><h2 id="{html.escape(rel)}">{html.escape(rel)}</h2>\n<table>{_COLS}\n'
            f"<thead><tr>{titles}</tr></thead>\n<tbody>\n{body}</tbody>\n</table>\n</section>\n")


def ledger_page(out: Path, chapters: Sequence[str], script: Callable[[str], str] = str) -> str:
    """The whole ledger page: a contents line of the chapters, then each chapter's rolls; in the script
    ``script`` writes (:func:`~anko_writer.export.script.traditional` for 繁體).

    ``script`` runs on the page's fixed text and once on each distinct cell: the same page as the whole converted
    at once (markup is ASCII, so no phrase or name spans a cell's edge), without converting ten megabytes for a
    few thousand distinct texts."""
    groups = _by_chapter(out, chapters)
    cell = cache(lambda text: script(html.escape(text)))  # each distinct cell converted once
    contents = "".join(f'<a href="#{html.escape(rel)}">{html.escape(rel)}</a>' for rel in groups)
    csp = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'"
    head = (f'<!DOCTYPE html>\n<html lang="zh-CN">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>骰子总账</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n<h1>骰子总账</h1>\n"
            f"<p>这个帖子掷过的每一颗骰子，按掷出它的那一章分节：公开的写着点数，封存的写着？？？，"
            f"揭晓后写出点数和揭晓的那一章。封存与揭晓行可以在暗骰核对页里逐条核对。</p>\n"
            f"<nav>{contents}</nav>\n"
            f'<input id="q" type="search" placeholder="搜索编号、用途或章节">\n'
            f'<p hidden>找到 <span id="n"></span> 颗骰子</p>\n')
    titles = script(_HEAD)
    sections = "".join(_section(rel, rows, cell, titles) for rel, rows in groups.items())
    return script(head) + sections + script(f"<script>{_SCRIPT}</script>\n</body>\n</html>\n")


__all__ = ["LEDGER_LINK", "LEDGER_PAGE", "Entry", "entries", "ledger_page"]
