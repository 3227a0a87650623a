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
import multiprocessing
import re
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..chapters import Record
from ..dice import DiceExpr
from ..errors import AnkoError
from ..output import atomic_write
from .plugin import Figure, Later, Section, Table
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


CJK_FONTS = ("Noto Sans CJK SC", "Source Han Sans SC", "Noto Sans SC", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei",
             "Microsoft YaHei", "SimHei", "PingFang SC", "Hiragino Sans GB", "Heiti SC", "Noto Serif CJK SC",
             "AR PL UMing CN")
"""Fonts that draw Chinese, tried in this order for the plots' labels (the first one installed is used)."""

_FONT: list[str | None] = []
_CJK_FILE = re.compile(r"cjk|wqy|sourcehan|simhei|msyh|pingfang|hiragino|uming|ukai|droidsansfallback", re.I)
"""The file names of fonts that may draw Chinese (added when matplotlib's font list does not hold them)."""


def cjk_font() -> str | None:
    """The first installed font of :data:`CJK_FONTS` as matplotlib finds it (None: none is, and the plots are
    labelled in English rather than in boxes)."""
    if not _FONT:
        from matplotlib import font_manager

        def first() -> str | None:
            have = {f.name for f in font_manager.fontManager.ttflist}
            return next((name for name in CJK_FONTS if name in have), None)

        found = first()
        if found is None:  # matplotlib's font list predates the font: add the system's Chinese font files
            for path in font_manager.findSystemFonts():
                if _CJK_FILE.search(Path(path).name):
                    try:
                        font_manager.fontManager.addfont(path)
                    except (OSError, RuntimeError, ValueError):
                        continue
            found = first()
        _FONT.append(found)
    return _FONT[0]


def label(zh: str, en: str) -> str:
    """A plot's label: ``zh`` when a Chinese font is installed (:func:`cjk_font`), else ``en``."""
    return zh if cjk_font() is not None else en


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
    lines = [f"骰表：查了 {len(tests)} 张，共 {sum(t['lookups'] for t in tests.values())} 次；"
             f"各行出现次数与骰面宽度不符（p < {FLAG_P}）或有一行从没掷到的：{len(flagged)} 张"]
    lines += [f"  {k}：卡方 {tests[k]['statistic']}，自由度 {tests[k]['df']}，p {tests[k]['p']:.2g}"
              + (f"，从没掷到：{'、'.join(tests[k]['never_fired'])}" if tests[k]["never_fired"] else "")
              for k in flagged[:8]]
    table = Table("骰表：每行掷到的次数对比它占的骰面", ["骰表", "骰子", "查表次数", "卡方", "自由度", "p",
                                                "从没掷到的行"],
                  [[k, t["dice"], t["lookups"], t["statistic"], t["df"], f"{t['p']:.3g}",
                    "、".join(t["never_fired"])] for k, t in tests.items()],
                  f"每张骰表各行被掷到的次数应与它占的骰面成比例：p 很小（小于 {FLAG_P}）或有一行从没掷到，"
                  "说明这张表的写法或查法可能有错，值得主持人核对。")
    return Section("dice_tables", "骰表", {"flag_p": FLAG_P, "tables": tests}, lines, [table],
                   [Later(partial(_p_values_figure, tests))] if tests else [])


def _p_values_figure(tests: dict[str, Record]) -> Figure:
    """Each table's chi-square p-value on a log scale, the flag line drawn."""
    fig = new_figure(6.4, 0.22 * len(tests) + 1.2)
    ax = fig.add_subplot()
    keys = list(tests)
    ax.barh(range(len(keys)), [max(tests[k]["p"], 1e-12) for k in keys], color="#4a7ab5")
    ax.set_xscale("log")
    ax.axvline(FLAG_P, color="#c0392b", linestyle="--")
    ax.set_yticks(range(len(keys)), [k.rsplit("/", 1)[-1].split(":")[0] for k in keys], fontsize=6)
    ax.set_xlabel(label("卡方检验的 p 值（各行对比骰面宽度）", "chi-square p-value (rows against their widths)"))
    return Figure("每张骰表的卡方 p 值（虚线：低于它就要核对）", png(fig))


def warm_plots() -> None:
    """Import what :func:`new_figure` and :func:`png` draw with and find the Chinese font (:func:`cjk_font`),
    ahead of the first figure: ``audit`` does it while its workers play (about 0.5 s of the report's time)."""
    import matplotlib.figure  # noqa: F401
    from matplotlib.backends import backend_agg  # noqa: F401

    cjk_font()


_AHEAD: list[Later] = []
"""The figures :func:`draw_ahead` shares among its forked processes (each reads its own by index)."""


def _draw_ahead(i: int) -> Figure:
    """Figure ``i`` of :data:`_AHEAD`, drawn in this (forked) process."""
    f = _AHEAD[i].drawn()
    return Figure(f.caption, f.png)


def draw_ahead(sections: Sequence[Section], processes: int) -> None:
    """Draw the :class:`Later` figures of ``sections`` not drawn yet in up to ``processes`` processes forked
    from this one (which has matplotlib loaded, :func:`warm_plots`), each handed its drawing back: the report's
    plots are nearly all its time, and the audit's cores are free by then. One process, one figure or no
    ``fork`` here: nothing is drawn ahead (each figure is drawn when first read). The same bytes either way
    (tests/purasbar/test_audit.py writes the report both ways)."""
    pending = [f for s in sections for f in s.figures if isinstance(f, Later) and f.pending]
    n = min(processes, len(pending))
    if n <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return
    _AHEAD[:] = pending
    try:
        with multiprocessing.get_context("fork").Pool(n) as pool:
            drawn = pool.map(_draw_ahead, range(len(pending)), chunksize=1)
    except OSError:  # no process to be had (limits): each figure is drawn here when read, as with one job
        return
    finally:
        _AHEAD.clear()
    for later, figure in zip(pending, drawn, strict=True):
        later.done(figure)


def new_figure(width: float = 6.4, height: float = 3.6) -> MplFigure:
    """A matplotlib figure drawn off-screen (no display, no pyplot state)."""
    import matplotlib
    from matplotlib.figure import Figure as MplFigure

    font = cjk_font()
    if font is not None:  # the labels are Chinese (label()): draw them with a font that has the glyphs
        matplotlib.rcParams["font.sans-serif"] = [font, "DejaVu Sans"]
        matplotlib.rcParams["font.family"] = "sans-serif"
        matplotlib.rcParams["axes.unicode_minus"] = False
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


def _title(meta: Record) -> str:
    """The report's heading: ``规则审计：recht.yaml`` (the run's own title when it names no campaign)."""
    return f"规则审计：{meta['campaign']}" if meta.get("campaign") else str(meta.get("title", "规则审计"))


META = {"ruleset": "规则集", "campaign": "战役", "replicates": "独立重复次数", "seasons_per_run": "每次连打的赛季数",
        "from_season": "从第几个赛季打起", "seasons": "打完的赛季数", "version": "版本", "seed": "种子"}
"""How the report names the run's description keys (an unknown key is shown as it is)."""


def report_html(meta: Record, sections: Sequence[Section]) -> str:
    """``report.html``: one self-contained page in Chinese, every plot a PNG data URI, nothing loaded from
    elsewhere; each table carries the sentence saying what it means (:attr:`Table.note`)."""
    title = html.escape(_title(meta))
    out = ["<!DOCTYPE html>", '<html lang="zh-CN"><head><meta charset="utf-8">', f"<title>{title}</title>",
           "<style>body{font-family:sans-serif;max-width:60em;margin:auto}table{border-collapse:collapse;"
           "margin:1em 0}td,th{border:1px solid #bbb;padding:2px 6px;font-size:90%}img{max-width:100%}"
           "p.note{color:#444;margin:.2em 0 0}</style>",
           "</head><body>", f"<h1>{title}</h1>", "<ul>"]
    out += [f"<li>{html.escape(META.get(str(k), str(k)))}：{_cell(v)}</li>" for k, v in meta.items() if k != "title"]
    out.append("</ul>")
    for s in sections:
        out.append(f'<h2 id="{html.escape(s.key)}">{html.escape(s.title)}</h2>')
        out += [f"<p>{html.escape(line)}</p>" for line in s.lines]
        for fig in s.figures:
            data = base64.b64encode(fig.png).decode("ascii")
            out.append(f'<figure><img alt="{html.escape(fig.caption)}" src="data:image/png;base64,{data}">'
                       f"<figcaption>{html.escape(fig.caption)}</figcaption></figure>")
        for t in s.tables:
            if t.note:
                out.append(f'<p class="note">{html.escape(t.note)}</p>')
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
    lines = [f"{_title(meta)}：独立重复 {meta['replicates']} 次，每次从第 {meta['from_season']} 个赛季起"
             f"连打 {meta['seasons_per_run']} 个赛季"]
    for s in sections:
        lines += s.lines
    return lines


__all__ = ["CJK_FONTS", "FLAG_P", "META", "cjk_font", "dice_section", "draw_ahead", "label", "merge_rows", "new_figure", "png",
           "report_html", "report_json", "table_test", "terminal_lines", "warm_plots", "write_report"]
