"""The audit report: the core's dice-table section, the whole report as ``report.json`` and a
self-contained ``report.html`` (plots embedded as PNG data URIs, nothing fetched), and the terminal lines.

``report.json`` holds nothing that depends on how the replicates were run (no timings, no job count), so
it is byte-identical for any ``--jobs`` or cluster.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..chapters import Record
from ..dice import DiceExpr
from ..errors import AnkoError
from ..output import atomic_write
from .plugin import Figure, Section, Table
from .stats import chi_square, row_weights

if TYPE_CHECKING:
    from matplotlib.figure import Figure as MplFigure

AUDIT_EXTRA = 'pip install "anko-writer[audit]"'
"""How a host installs what ``audit`` draws its plots with (matplotlib, not needed for writing chapters)."""


def require_plots() -> None:
    """Stop with one line naming :data:`AUDIT_EXTRA` if matplotlib is not installed, before anything is played
    (matplotlib itself is imported only where a figure is drawn, :func:`new_figure`)."""
    import importlib.util

    try:
        found = importlib.util.find_spec("matplotlib") is not None
    except (ImportError, ValueError):  # a module set to None (hidden) or one without a spec
        found = False
    if not found:
        raise AnkoError(f"audit 要用绘图库 matplotlib，这里没有装：请运行 {AUDIT_EXTRA}")


FLAG_P = 0.001
"""A table whose chi-square p-value is below this is flagged: its rows fire off their widths."""


def merge_rows(samples: Sequence[Record]) -> dict[str, Record]:
    """Every table's row hits summed over the replicates (tables sorted by key)."""
    merged: dict[str, Record] = {}
    for s in samples:
        for key, t in s["rows"].items():
            if key not in merged:
                merged[key] = {**t, "hits": list(t["hits"])}
            else:
                merged[key]["hits"] = [a + b for a, b in zip(merged[key]["hits"], t["hits"], strict=False)]
    return dict(sorted(merged.items()))


def table_test(table: Record) -> Record:
    """One table's rows against their share of the dice: hits, expected hits, chi-square."""
    weights = row_weights(DiceExpr.parse(table["dice"]), [(r[0], r[1]) for r in table["rows"]])
    n, total = sum(table["hits"]), sum(weights)
    expected = [n * w / total for w in weights]
    rows = [{"range": f"{r[0]}-{r[1]}" if r[0] != r[1] else str(r[0]), "effect": r[2], "key": r[3],
             "share": round(w / total, 6), "hits": h, "expected": round(e, 2)}
            for r, w, h, e in zip(table["rows"], weights, table["hits"], expected, strict=False)]
    test = chi_square(table["hits"], expected)
    never = [r["range"] for r in rows if r["hits"] == 0 and r["expected"] >= 5]
    return {"name": table["name"], "source": table["source"], "dice": table["dice"], "lookups": n,
            **test, "flagged": test["p"] < FLAG_P, "never_fired": never, "rows": rows}


def dice_section(samples: Sequence[Record]) -> Section:
    """The core's section: every dice table looked up, each row's hits against its width (chi-square)."""
    tests = {key: table_test(t) for key, t in merge_rows(samples).items()}
    flagged = [k for k, t in tests.items() if t["flagged"] or t["never_fired"]]
    lines = [f"dice tables: {len(tests)} looked up, {sum(t['lookups'] for t in tests.values())} lookups; "
             f"off their widths (p < {FLAG_P}) or a row never fired: {len(flagged)}"]
    lines += [f"  {k}: chi2 {tests[k]['statistic']} df {tests[k]['df']} p {tests[k]['p']:.2g}"
              + (f", never: {', '.join(tests[k]['never_fired'])}" if tests[k]["never_fired"] else "")
              for k in flagged[:8]]
    table = Table("Dice tables: rows fired against their widths", ["table", "dice", "lookups", "chi2", "df", "p",
                                                                   "rows never fired"],
                  [[k, t["dice"], t["lookups"], t["statistic"], t["df"], f"{t['p']:.3g}",
                    ", ".join(t["never_fired"])] for k, t in tests.items()])
    return Section("dice_tables", "Dice tables", {"flag_p": FLAG_P, "tables": tests}, lines, [table],
                   [_p_values_figure(tests)] if tests else [])


def _p_values_figure(tests: dict[str, Record]) -> Figure:
    """Each table's chi-square p-value on a log scale, the flag line drawn."""
    fig = new_figure(6.4, 0.22 * len(tests) + 1.2)
    ax = fig.add_subplot()
    keys = list(tests)
    ax.barh(range(len(keys)), [max(tests[k]["p"], 1e-12) for k in keys], color="#4a7ab5")
    ax.set_xscale("log")
    ax.axvline(FLAG_P, color="#c0392b", linestyle="--")
    ax.set_yticks(range(len(keys)), [k.rsplit("/", 1)[-1].split(":")[0] for k in keys], fontsize=6)  # no CJK glyphs
    ax.set_xlabel("chi-square p-value (rows against their widths)")
    return Figure("Chi-square p-value per dice table (dashed: the flag line)", png(fig))


def new_figure(width: float = 6.4, height: float = 3.6) -> MplFigure:
    """A matplotlib figure drawn off-screen (no display, no pyplot state)."""
    from matplotlib.figure import Figure as MplFigure

    return MplFigure(figsize=(width, height), dpi=100, layout="constrained")


def png(fig: MplFigure) -> bytes:
    """The figure as PNG bytes, without metadata (no software name or address in the file)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


def report_json(meta: Record, sections: Sequence[Section]) -> str:
    """``report.json``'s text: the run's description and each section's data, in order."""
    doc = {"meta": meta, **{s.key: s.data for s in sections}}
    return json.dumps(doc, ensure_ascii=False, indent=1, allow_nan=False) + "\n"


def _cell(value: Any) -> str:
    """One table cell, escaped."""
    return html.escape(f"{value:.4g}" if isinstance(value, float) else str(value))


def report_html(meta: Record, sections: Sequence[Section]) -> str:
    """``report.html``: one self-contained page, every plot a PNG data URI, nothing loaded from elsewhere."""
    out = ["<!DOCTYPE html>", '<html><head><meta charset="utf-8">',
           f"<title>{html.escape(str(meta.get('title', 'audit')))}</title>",
           "<style>body{font-family:sans-serif;max-width:60em;margin:auto}table{border-collapse:collapse;"
           "margin:1em 0}td,th{border:1px solid #bbb;padding:2px 6px;font-size:90%}img{max-width:100%}</style>",
           "</head><body>", f"<h1>{html.escape(str(meta.get('title', 'audit')))}</h1>", "<ul>"]
    out += [f"<li>{html.escape(str(k))}: {_cell(v)}</li>" for k, v in meta.items() if k != "title"]
    out.append("</ul>")
    for s in sections:
        out.append(f'<h2 id="{html.escape(s.key)}">{html.escape(s.title)}</h2>')
        out += [f"<p>{html.escape(line)}</p>" for line in s.lines]
        for fig in s.figures:
            data = base64.b64encode(fig.png).decode("ascii")
            out.append(f'<figure><img alt="{html.escape(fig.caption)}" src="data:image/png;base64,{data}">'
                       f"<figcaption>{html.escape(fig.caption)}</figcaption></figure>")
        for t in s.tables:
            out.append(f"<table><caption>{html.escape(t.caption)}</caption><tr>"
                       + "".join(f"<th>{_cell(h)}</th>" for h in t.header) + "</tr>")
            out += ["<tr>" + "".join(f"<td>{_cell(c)}</td>" for c in row) + "</tr>" for row in t.rows]
            out.append("</table>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write_report(folder: Path, meta: Record, sections: Sequence[Section]) -> list[Path]:
    """Write ``report.json`` and ``report.html`` into ``folder`` (made if missing), each atomically."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / "report.json", folder / "report.html"]
    atomic_write(paths[0], report_json(meta, sections))
    atomic_write(paths[1], report_html(meta, sections))
    return paths


def terminal_lines(meta: Record, sections: Sequence[Section]) -> list[str]:
    """The short summary the terminal prints: the run, then each section's few lines."""
    lines = [f"{meta.get('title', 'audit')}: {meta['replicates']} replicate(s) × {meta['seasons_per_run']} "
             f"season(s) from season {meta['from_season']}"]
    for s in sections:
        lines += s.lines
    return lines


__all__ = ["FLAG_P", "dice_section", "merge_rows", "new_figure", "png", "report_html", "report_json",
           "table_test", "terminal_lines", "write_report"]
