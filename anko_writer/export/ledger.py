"""The roll ledger (issue 28): one searchable page of the HTML export listing every roll of the thread — its id,
what it was for, its notation, its value (or 封存 while sealed), the chapter that threw it, and where it was
revealed — beside the check page (``verify.html``). Read from the chapters' JSON and their seal and reveal lines;
never re-simulated.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterator, Sequence
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


_STYLE = ("body{font-family:sans-serif;margin:1em;max-width:60em}table{border-collapse:collapse;width:100%;"
          "font-size:.9em}td,th{border:1px solid #ccc;padding:.2em .4em;text-align:left;word-break:break-all}"
          "input{width:100%;font-size:1em;padding:.3em;box-sizing:border-box;margin:.5em 0}")
_SCRIPT = ("const q=document.getElementById('q');q.addEventListener('input',()=>{const t=q.value.trim();"
           "for(const tr of document.querySelectorAll('tbody tr')){tr.hidden=t&&!tr.textContent.includes(t);}});")


def ledger_page(out: Path, chapters: Sequence[str]) -> str:
    """The whole ledger page."""
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(x)}</td>" for x in e) + "</tr>\n"
                   for e in entries(out, chapters))
    csp = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'"
    head = "".join(f"<th>{h}</th>" for h in ("编号", "用途", "骰子", "点数", "章节", "状态"))
    return (f'<!DOCTYPE html>\n<html lang="zh-CN">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>骰子总账</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n<h1>骰子总账</h1>\n"
            f"<p>这个帖子掷过的每一颗骰子：公开的写着点数，封存的写着？？？，揭晓后写出点数和揭晓的那一章。"
            f"封存与揭晓行可以在暗骰核对页里逐条核对。</p>\n"
            f'<input id="q" type="search" placeholder="搜索编号、用途或章节">\n'
            f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}</tbody>\n</table>\n"
            f"<script>{_SCRIPT}</script>\n</body>\n</html>\n")


__all__ = ["LEDGER_LINK", "LEDGER_PAGE", "Entry", "entries", "ledger_page"]
