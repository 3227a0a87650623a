"""The board as readers see it: a monospace diagram for the chapter's code blocks (13 columns A–M × 17 rows,
readable on a phone) and an SVG picture beside the chapter, both drawn from DESIGN §12's ``POSITION``.

The end zones (the game's :func:`.game.api.scoring_rows`) are set off by a dashed line. A cell is three
characters: ``.`` a usable empty square, blank an unusable one, a piece as its type and number
(upper case ATK, lower case DEF: ``X5``, ``o1``, ``S1`` for the seed's □) followed by a mark — ``*`` holds the
ball, ``_`` down, ``+`` a stack's top (the piece under it is listed below the diagram) — and ``*`` alone a free
ball. No cell holds two letters, so a diagram never spells a word.

>>> pos = {"pieces": [{"id": "ATK-X5", "side": "ATK", "type": "X", "square": "C3", "state": "able", "ball": True},
...                   {"id": "DEF-O1", "side": "DEF", "type": "O", "square": "E3", "state": "down", "ball": False}],
...        "free_ball": None}
>>> print(diagram(pos).splitlines()[-4])
 3 .     X5*   o1_   .     .     .     .
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ...kit.grid import Square
from .game import api
from .game.api import Team
from .game.rules import GRID as BOARD

COLS = BOARD.letters
"""The board's columns."""
ROWS = BOARD.rows
"""The board's rows."""
SIDES: tuple[Team, Team] = ("ATK", "DEF")


def coords(square: str) -> Square:
    """Column index (0–12) and row (1–17) of ``E5``."""
    return BOARD.coords(square)


def label(piece_id: str) -> str:
    """A piece's name in chapters: ``ATK-X1`` → ``X1``, ``DEF-S2`` → ``s2`` (the side by case)."""
    side, _, name = piece_id.partition("-")
    return name.upper() if side == "ATK" else name.lower()


def usable(square: str) -> bool:
    """Is ``square`` striped (usable)? The game's rule (:func:`.game.api.usable`), not a guess from the pieces."""
    return api.usable(square)


def _tops(position: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The piece shown on each square: a stack's top piece."""
    shown: dict[str, Mapping[str, Any]] = {}
    for p in position.get("pieces", []):
        if p["square"] not in shown or p["state"] == "stack_top":
            shown[str(p["square"])] = p
    return shown


def _cell(piece: Mapping[str, Any] | None, usable: bool, free: bool) -> str:
    """Three characters for one square."""
    if piece is None:
        return " * " if free else (".  " if usable else "   ")
    mark = "*" if piece["ball"] else "_" if piece["state"] == "down" else "+" if piece["state"] == "stack_top" else " "
    return f"{label(str(piece['id']))}{mark}"


def diagram(position: Mapping[str, Any]) -> str:
    """The monospace board: a column header, then rows 17 down to 1, each with its number."""
    shown, free = _tops(position), position.get("free_ball")
    zones = [range(lo, hi + 1) for lo, hi in (api.scoring_rows(side) for side in SIDES)]

    def cell(sq: Square) -> str:
        name = BOARD.name(sq)
        return _cell(shown.get(name), usable(name), free == name)

    return BOARD.diagram(cell, rule=lambda r, below: any((r in z) != (below in z) for z in zones))


def stacks(position: Mapping[str, Any]) -> list[dict[str, str]]:
    """Each stack as ``{square, top, bottom}`` (labels), in board order."""
    by_square: dict[str, dict[str, str]] = {}
    for p in position.get("pieces", []):
        if p["state"] in ("stack_top", "stack_bottom"):
            key = "top" if p["state"] == "stack_top" else "bottom"
            by_square.setdefault(str(p["square"]), {"square": str(p["square"])})[key] = label(str(p["id"]))
    return [by_square[s] for s in sorted(by_square, key=lambda s: (-coords(s)[1], coords(s)[0]))]


SVG_CELL = 24
"""Pixels per square in the picture."""
SVG_COLOURS = {"ATK": ("#c0392b", "#ffffff"), "DEF": ("#1f4e8c", "#ffffff")}
"""Fill and text colour of each side's pieces."""


_STRIPE = ('<defs><pattern id="stripe" width="6" height="6" patternUnits="userSpaceOnUse" '
           'patternTransform="rotate(45)"><rect width="6" height="6" fill="#eef3e6"/>'
           '<line x1="0" y1="0" x2="0" y2="6" stroke="#b8c9a3" stroke-width="2"/></pattern></defs>')
"""The stripes of a usable square."""


def svg(position: Mapping[str, Any], title: str) -> str:
    """The board as a small self-contained SVG picture (usable squares striped, pieces as discs, the ball gold)."""
    free = position.get("free_ball")
    out = BOARD.svg_frame(title, lambda sq: "url(#stripe)" if usable(BOARD.name(sq)) else "#d9d9d9",
                          cell=SVG_CELL, defs=_STRIPE)
    for square, p in sorted(_tops(position).items()):
        out += _svg_piece(p, square, any(s["square"] == square for s in stacks(position)))
    if free:
        cx, cy = BOARD.centre(coords(str(free)), SVG_CELL)
        out.append(f'<circle cx="{cx}" cy="{cy}" r="5" fill="#f1c40f" stroke="#7d6608"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_piece(p: Mapping[str, Any], square: str, stacked: bool) -> Sequence[str]:
    """One piece: a disc (square for □) in its side's colour, its label, a gold ring if it holds the ball."""
    cx, cy = BOARD.centre(coords(square), SVG_CELL)
    fill, ink = SVG_COLOURS.get(str(p["side"]), ("#555555", "#ffffff"))
    down = ' opacity="0.45"' if p["state"] == "down" else ""
    ring = ' stroke="#f1c40f" stroke-width="3"' if p["ball"] else ' stroke="#222" stroke-width="1"'
    if p["type"] == "S":
        shape = f'<rect x="{cx - 9}" y="{cy - 9}" width="18" height="18" fill="{fill}"{ring}{down}/>'
    else:
        shape = f'<circle cx="{cx}" cy="{cy}" r="10" fill="{fill}"{ring}{down}/>'
    extra = [f'<circle cx="{cx + 8}" cy="{cy - 8}" r="3" fill="#222"/>'] if stacked else []
    text = f'<text x="{cx}" y="{cy + 4}" text-anchor="middle" fill="{ink}">{escape(label(str(p["id"])))}</text>'
    return [shape, text, *extra]


__all__ = ["BOARD", "COLS", "ROWS", "SIDES", "coords", "diagram", "label", "stacks", "svg", "usable"]
