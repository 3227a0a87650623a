"""接战's zone diagram (design engage.md §1.8): the zones as boxes in monospace text, one line per unit, and the
distances between zones in words; and the same as a small SVG beside each chapter.

>>> rec = {"zones": [{"id": "北林", "name": "北岸林地", "complex": True, "cover": {"抛射": 1}, "obstacle": 0}],
...        "units": [{"id": "游侠", "men": 25, "start_men": 25, "band": "超小", "training": "受训",
...                   "formation": {"density": "松散", "shape": "展开", "move": "静止"}, "zone": "北林",
...                   "engaged_with": [], "lost": None}], "zone_distances": []}
>>> print(diagram(rec))
┌ 北岸林地（复杂·抛射遮蔽1）
│ 游侠 25 超小 受训 松散·展开·静止
└
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any


def _zone_title(z: Mapping[str, Any]) -> str:
    tags = (["复杂"] if z["complex"] else []) + [f"{m}遮蔽{n}" for m, n in z["cover"].items() if n]
    tags += [f"障碍{z['obstacle']}"] if z["obstacle"] else []
    return f"{z['name']}（{'·'.join(tags)}）" if tags else str(z["name"])


def _unit_line(u: Mapping[str, Any]) -> str:
    f = u["formation"]
    men = f"{u['start_men']}→{u['men']}" if u["men"] != u["start_men"] else str(u["men"])
    fight = f" ⚔ {'、'.join(u['engaged_with'])}" if u["engaged_with"] else ""
    gone = {"retreated": " 已撤退", "routed": " 已溃散", "destroyed": " 全灭"}.get(u["lost"] or "", "")
    return f"{u['id']} {men} {u['band']} {u['training']} {f['density']}·{f['shape']}·{f['move']}{fight}{gone}"


def diagram(rec: Mapping[str, Any]) -> str:
    """The zones with their units, then the distances between zones (monospace, for a code block)."""
    lines: list[str] = []
    for z in rec["zones"]:
        lines.append("┌ " + _zone_title(z))
        for u in rec["units"]:
            if u["zone"] == z["id"]:
                lines.append("│ " + _unit_line(u))
        lines.append("└")
    for d in rec.get("zone_distances", []):
        lines.append(f"{d['a']} ◀── {d['name']}{'，障碍' + str(d['obstacles']) if d['obstacles'] else ''} ──▶ {d['b']}")
    return "\n".join(lines)


def svg(rec: Mapping[str, Any], caption: str) -> str:
    """The diagram as an SVG: one box per zone in a row, its units listed inside, the distances under it."""
    zones = rec["zones"]
    w, gap, line = 260, 30, 18
    rows = [[u for u in rec["units"] if u["zone"] == z["id"]] for z in zones]
    h = 60 + line * max([1, *(len(r) for r in rows)]) + 20
    width = len(zones) * (w + gap) + gap
    height = h + 40 + line * len(rec.get("zone_distances", []))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="13">', f'<title>{escape(caption)}</title>',
           f'<rect width="{width}" height="{height}" fill="#fbfaf5"/>']
    for i, (z, units) in enumerate(zip(zones, rows, strict=True)):
        x = gap + i * (w + gap)
        fill = "#e3efd9" if z["complex"] else "#f1ead7"
        out.append(f'<rect x="{x}" y="30" width="{w}" height="{h - 20}" rx="8" fill="{fill}" stroke="#6b6b6b"/>')
        out.append(f'<text x="{x + 10}" y="50" font-weight="bold">{escape(_zone_title(z))}</text>')
        for j, u in enumerate(units):
            colour = "#1f4e8c" if u.get("ours") else "#8c1f1f"
            out.append(f'<text x="{x + 10}" y="{72 + j * line}" fill="{colour}">{escape(_unit_line(u))}</text>')
    for k, d in enumerate(rec.get("zone_distances", [])):
        out.append(f'<text x="{gap}" y="{h + 30 + k * line}">{escape(d["a"])} ↔ {escape(d["b"])}：'
                   f'{escape(d["name"])}</text>')
    out.append(f'<text x="{gap}" y="20">{escape(caption)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


__all__ = ["diagram", "svg"]
