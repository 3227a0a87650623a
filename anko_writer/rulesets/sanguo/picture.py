"""The readers' view of the 三国 map (design §1.8): a monospace board for the chapter's code block and an SVG
picture beside the chapter, both drawn from one plain ``VIEW`` dict (what the chapter record holds: the map,
the strongholds, the squares the readers' side sees and the units it may be shown).

The text board is ASCII inside the grid so that NGA and Tieba keep its columns. A cell is three characters
with its symbol **right-aligned**, so every grid line ends on a symbol and keeps its width after the chapter
renderer strips trailing blanks (DESIGNED: BALL's cells are left-aligned and its lines may differ by a
column). The symbols, first that applies:

========  =====================================================================
``A1``    one of our units (upper case); ``b1`` an enemy unit (lower case)
``+``     a standing city gate; ``x`` a destroyed gate
``#``     a city wall (an edge square of a city that is not a gate, R33)
``@``     a camp square
``.``     plain; ``f`` forest, ``^`` high ground, ``M`` mountain, ``~`` water, ``=`` road
``:``     outside the readers' sight: a plain square prints ``:``, any other symbol is preceded by
          ``:`` (``:f`` a forest out of sight, the symbol still under its column letter; DESIGNED: terrain
          is public, but where the fog lies matters most on forest, where ambushes hide)
========  =====================================================================

A legend line in Chinese follows the grid and names only the symbols this board shows::

>>> view = {"map": {"cols": 4, "rows": 2, "terrain": ["..f.", "...~"]},
...         "strongholds": [{"id": "营", "kind": "camp", "level": 1, "side": "汉军", "squares": ["A1"]}],
...         "seen": ["A1", "B1", "A2", "B2", "C2"],
...         "units": [{"id": "汉1", "label": "A1", "ours": True, "square": "B2"}]}
>>> print(diagram(view))
    A  B  C  D
 1  @  . :f  :
 2  . A1  . :~
图例：@ 营寨，. 平地，f 树林，~ 河，: 视野外（:f 即视野外的树林）
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from ...kit.grid import Grid, Square
from .board import LEGEND, TERRAIN, Board, Gate, Stronghold, TerrainName

WIDTH = 3
"""Characters per cell of the text board (design §1.8)."""
WALL, GATE, BROKEN, CAMP, FOG = "#", "+", "x", "@", ":"
"""The stronghold and fog symbols of the text board."""
TERRAIN_CHAR: Mapping[TerrainName, str] = {name: ch for ch, name in LEGEND.items()}
"""The text board's character for each terrain kind (the default legend's, whatever a scene's legend says)."""
NAMES: Mapping[str, str] = {WALL: "城墙", GATE: "城门", BROKEN: "城门已毁", CAMP: "营寨", ".": "平地", "f": "树林",
                            "^": "高地", "M": "山", "~": "河", "=": "大路", FOG: "视野外"}
"""Each symbol's name in the legend, in the legend's order."""
LABEL = {True: re.compile(r"[A-Z][0-9]{1,2}"), False: re.compile(r"[a-z][0-9]{1,2}")}
"""A unit's label: ours upper case, the others lower case, a letter and one or two digits."""

CELL = 32
"""Pixels per square in the picture."""
PALETTE: Mapping[TerrainName, str] = {"plain": "#eef0d8", "forest": "#7fae6a", "high": "#d8bd82",
                                      "mountain": "#8c7b6b", "water": "#86b6d8", "road": "#e3cfa4"}
"""The picture's fill for each terrain kind."""
INK = {"wall": "#5d4037", "gate": "#d7a86e", "broken": "#bcaaa4", "camp": "#a1887f", "fog": "#3c3c3c",
       "ours": "#1f4e8c", "enemy": "#c0392b", "edge": "#3e2723", "cross": "#b71c1c"}
"""The picture's other colours."""
FOG_OPACITY = "0.5"
"""How dark the fog over an unseen square is."""
FONT = 'font-family="sans-serif" font-size="12"'
"""The picture's font."""
KEY_ROW = 20
"""Height of one line of the picture's legend strip."""


@dataclass(frozen=True)
class Unit:
    """A unit as the picture shows it: its label, side (ours or not), square and the words of its tooltip."""

    label: str
    ours: bool
    square: Square
    hidden: bool
    words: str


@dataclass(frozen=True)
class Layout:
    """A view read and checked: the map (terrain and strongholds), the squares in sight and the units."""

    board: Board
    seen: frozenset[Square]
    units: Mapping[Square, Unit]
    drawn: Drawn | None = field(default=None, repr=False, compare=False)
    """What the board alone decides, worked out once for a board read before (:func:`_drawn`)."""

    @property
    def grid(self) -> Grid:
        """The map's grid (row 1 at the top)."""
        return self.board.grid

    def mark(self, sq: Square) -> str | None:
        """The stronghold symbol on ``sq``: a gate, a wall, a camp square, or None."""
        if self.drawn is not None and sq in self.drawn.marks:
            return self.drawn.marks[sq]
        return self.board_mark(sq)

    def board_mark(self, sq: Square) -> str | None:
        """:meth:`mark` worked out from the board."""
        sh = self.board.stronghold_at(sq)
        if sh is None:
            return None
        if sh.kind == "camp":
            return CAMP
        gate = sh.gate_at(sq)
        if gate is not None:
            return BROKEN if gate.destroyed else GATE
        return WALL if sh.is_wall(sq) else None

    def symbol(self, sq: Square) -> str:
        """What a square shows apart from fog: the stronghold symbol, else its terrain character."""
        if self.drawn is not None and sq in self.drawn.symbols:
            return self.drawn.symbols[sq]
        return self.mark(sq) or TERRAIN_CHAR[self.board.terrain_at(sq)]


@dataclass(frozen=True)
class Drawn:
    """What a board alone decides of its pictures: each square's stronghold mark and symbol, and the SVG frame
    (:meth:`Grid.svg_frame`'s lines, its title line empty)."""

    marks: Mapping[Square, str | None]
    symbols: Mapping[Square, str]
    frame: tuple[str, ...]


_BOARDS: dict[tuple[Any, ...], tuple[Board, Drawn]] = {}
"""Boards read before, by everything :func:`_read_board` reads of the view (issue 29: a scene draws its one map
33 times, its gates the only part that changes); a few dozen at most."""
_BOARDS_KEPT = 32


def _board_key(m: Mapping[str, Any], legend: Mapping[str, Any], text: str,
               strongholds: Sequence[Mapping[str, Any]]) -> tuple[Any, ...] | None:
    """The memo key of a view's board: every value :func:`_read_board` reads, converted as it converts it
    (None if one cannot be: that view is read without the memo, and fails as it fails)."""
    try:
        key = (int(m["cols"]), int(m["rows"]), text, tuple(legend.items()),
               tuple((str(s["id"]), s["kind"], int(s["level"]), s.get("side"), tuple(str(n) for n in s["squares"]),
                      tuple((str(g["id"]), str(g["square"]), int(g["defence"]), bool(g["destroyed"]))
                            for g in s.get("gates") or ())) for s in strongholds))
        hash(key)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return key


def _read_board(m: Mapping[str, Any], legend: dict[str, Any], text: str,
                strongholds: Sequence[Mapping[str, Any]]) -> Board:
    """The view's board: its terrain and its strongholds, checked."""
    bare = Board.parse(int(m["cols"]), int(m["rows"]), text, legend=legend)
    return Board(bare.grid, bare.terrain, tuple(_stronghold(bare.grid, s) for s in strongholds))


def _drawn(board: Board) -> Drawn:
    """Every square's mark and symbol, and the SVG frame, as :class:`Layout` and :func:`svg` work them out."""
    plain = Layout(board, frozenset(), {})
    squares = list(board.grid.squares())
    marks = {sq: plain.board_mark(sq) for sq in squares}
    symbols = {sq: marks[sq] or TERRAIN_CHAR[board.terrain_at(sq)] for sq in squares}
    frame = tuple(board.grid.svg_frame("", lambda sq: PALETTE[board.terrain_at(sq)], cell=CELL, font=FONT))
    return Drawn(marks, symbols, frame)


def read(view: Mapping[str, Any]) -> Layout:
    """The view checked and read (ValueError for a square off the map, a footprint that is not a square
    block, two units on a square, or a label that breaks the convention)."""
    m = view["map"]
    legend = dict(m.get("legend") or LEGEND)
    for ch, kind in legend.items():
        if kind not in TERRAIN:
            raise ValueError(f"legend {ch!r}: {kind!r} is not a terrain kind")
    rows = m["terrain"]
    text = rows if isinstance(rows, str) else "\n".join(rows)
    strongholds = view.get("strongholds") or ()
    key = _board_key(m, legend, text, strongholds)
    known = _BOARDS.get(key) if key is not None else None
    if known is None:
        board = _read_board(m, legend, text, strongholds)
        drawn = None
        if key is not None:
            if len(_BOARDS) >= _BOARDS_KEPT:
                _BOARDS.clear()
            drawn = _drawn(board)
            _BOARDS[key] = (board, drawn)
    else:
        board, drawn = known
    seen = frozenset(board.sq(name) for name in view.get("seen") or ())
    units: dict[Square, Unit] = {}
    labels: set[str] = set()
    for u in view.get("units") or ():
        unit = _unit(board.grid, u)
        if unit.square in units:
            raise ValueError(f"{unit.label} and {units[unit.square].label} stand on one square")
        if unit.label in labels:
            raise ValueError(f"two units are labelled {unit.label}")
        units[unit.square] = unit
        labels.add(unit.label)
    return Layout(board, seen, units, drawn)


def _stronghold(grid: Grid, s: Mapping[str, Any]) -> Stronghold:
    """A stronghold of the view: its squares must make the square block the rules give it (R32)."""
    squares = {grid.coords(str(name)) for name in s["squares"]}
    if not squares:
        raise ValueError(f"{s['id']}: a stronghold has squares")
    corner = (min(x for x, _ in squares), min(y for _, y in squares))
    size = max(max(x for x, _ in squares) - corner[0], max(y for _, y in squares) - corner[1]) + 1
    gates = tuple(Gate(str(g["id"]), grid.coords(str(g["square"])), int(g["defence"]), bool(g["destroyed"]))
                  for g in s.get("gates") or ())
    sh = Stronghold(str(s["id"]), s["kind"], int(s["level"]), s.get("side"), corner, gates=gates, size=size)
    if set(sh.squares) != squares:
        raise ValueError(f"{sh.id}: its squares are not a square block")
    return sh


def _unit(grid: Grid, u: Mapping[str, Any]) -> Unit:
    """A unit of the view, its label checked against the case convention."""
    label, ours = str(u["label"]), bool(u["ours"])
    if not LABEL[ours].fullmatch(label):
        whose, case = ("our", "upper") if ours else ("an enemy", "lower")
        raise ValueError(f"{label!r}: {whose} unit's label is an {case}-case letter and one or two digits")
    words = [label, *(str(u[k]) for k in ("主将", "type") if u.get(k))]
    words += [f"{k[:1]}{u[k]}" for k in ("兵力", "行动力", "资源") if u.get(k) is not None]
    if u.get("legion"):
        words.append(f"［军团 {u['legion']}］")
    if u.get("hidden"):
        words.append("（埋伏）")
    return Unit(label, ours, grid.coords(str(u["square"])), bool(u.get("hidden")), " ".join(words))


# ---------------------------------------------------------------------------------------------- text board


def diagram(view: Mapping[str, Any]) -> str:
    """The monospace board of design §1.8 without its code fence: a header of column letters, one line a row
    (row 1 at the top, its number right-aligned), then the legend line."""
    lay = read(view)
    label = max(2, len(str(lay.grid.rows)))
    header = " " * label + "".join(c.rjust(WIDTH) for c in lay.grid.letters)
    cells = {sq: _cell(lay, sq) for sq in lay.grid.squares()}  # once for the rows and the legend (issue 29)
    lines = lay.grid.cells(lambda sq: cells[sq].rjust(WIDTH))
    body = [f"{n:>{label}}{line}" for n, line in zip(lay.grid.row_numbers(), lines, strict=True)]
    return "\n".join([header, *body, legend(lay, cells)])


def _cell(lay: Layout, sq: Square) -> str:
    """The symbol of one cell: a unit's label, else the square's symbol with the fog mark if out of sight."""
    unit = lay.units.get(sq)
    if unit is not None:
        return unit.label
    base = lay.symbol(sq)
    if sq in lay.seen:
        return base
    return FOG if base == "." else FOG + base


def legend(lay: Layout, cells: Mapping[Square, str] | None = None) -> str:
    """The legend line: each symbol the text board shows, in :data:`NAMES` order (a standing gate with the
    squares and 防御 of the gates shown; the fog with an example of a marked symbol if there is one); ``cells``
    is every square's symbol if the caller has it (in :meth:`Grid.squares` order)."""
    if cells is None:
        cells = {sq: _cell(lay, sq) for sq in lay.grid.squares()}
    shown = {c.lstrip(FOG) or FOG for c in cells.values()} | ({FOG} if any(FOG in c for c in cells.values()) else set())
    items = []
    for sym, name in NAMES.items():
        if sym not in shown:
            continue
        if sym == GATE:
            gates = [f"{lay.grid.name(sq)} 防{_gate(lay, sq).defence}"
                     for sq, c in cells.items() if c.lstrip(FOG) == GATE]
            name += f"（{'、'.join(gates)}）"
        if sym == FOG:
            marked = next((c for c in cells.values() if len(c) == 2 and c.startswith(FOG)), None)
            if marked is not None:
                name += f"（{marked} 即视野外的{NAMES[marked[1]]}）"
        items.append(f"{sym} {name}")
    return "图例：" + "，".join(items)


def _gate(lay: Layout, sq: Square) -> Gate:
    """The gate standing on ``sq``."""
    sh = lay.board.stronghold_at(sq)
    gate = sh.gate_at(sq) if sh is not None else None
    if gate is None:
        raise KeyError(sq)
    return gate


# ---------------------------------------------------------------------------------------------- picture


def svg(view: Mapping[str, Any], title: str) -> str:
    """A standalone SVG of the view: terrain in :data:`PALETTE`, walls, gates and camps marked, strongholds
    outlined and named, the fog a grey veil on each unseen square, units as discs with their labels (a
    tooltip with 主将 and numbers), a legend strip in Chinese under the board. Whole pixels only, no ids."""
    lay = read(view)
    grid = lay.grid
    board_w, board_h = (grid.cols + 1) * CELL, (grid.rows + 1) * CELL
    keys = _keys(lay)
    width = max(board_w, 12 * CELL)
    key_lines = _key_layout(keys, width)
    height = board_h + 8 + KEY_ROW * (max((line for line, _, _ in key_lines), default=0) + 1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" {FONT}>',
           f"<title>{escape(title)}</title>",
           f'<rect width="{width}" height="{height}" fill="#ffffff"/>']
    # the kit's frame (letters, numbers, terrain squares) as a nested picture, the strip under it
    if lay.drawn is not None:  # the board's frame drawn once, its title put in
        out += [lay.drawn.frame[0], f"<title>{escape(title)}</title>", *lay.drawn.frame[2:]]
    else:
        out += grid.svg_frame(title, lambda sq: PALETTE[lay.board.terrain_at(sq)], cell=CELL, font=FONT)
    for sh in lay.board.strongholds:
        out += _svg_stronghold(lay, sh)
    for sq in grid.squares():
        if sq not in lay.seen:
            x, y = grid.pixel(sq, CELL)
            out.append(f'<rect class="fog" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{INK["fog"]}" '
                       f'fill-opacity="{FOG_OPACITY}"/>')
    for sh in lay.board.strongholds:
        out += _svg_outline(lay, sh)
    for sq in grid.squares():
        if sq in lay.units:
            out += _svg_unit(lay, lay.units[sq])
    out.append("</svg>")
    y0 = board_h + 8
    for line, x, (draw, text) in key_lines:
        y = y0 + line * KEY_ROW
        out += draw(x, y)
        out.append(f'<text x="{x + 16}" y="{y + 11}">{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_stronghold(lay: Layout, sh: Stronghold) -> list[str]:
    """Each square of a stronghold marked: a wall dark, a gate as a door in the wall, a destroyed gate
    crossed, a camp square veiled in the camp's colour."""
    out = []
    for sq in sh.squares:
        x, y = lay.grid.pixel(sq, CELL)
        mark = lay.mark(sq)
        if mark == CAMP:
            out.append(f'<rect class="camp" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{INK["camp"]}" '
                       f'fill-opacity="0.55"/>')
        elif mark in (WALL, GATE):
            out.append(f'<rect class="wall" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{INK["wall"]}"/>')
        if mark == GATE:
            out.append(f'<rect class="gate" x="{x + 8}" y="{y + 6}" width="{CELL - 16}" height="{CELL - 6}" '
                       f'fill="{INK["gate"]}" stroke="{INK["edge"]}" stroke-width="1"/>')
        elif mark == BROKEN:
            out.append(f'<rect class="broken" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{INK["broken"]}"/>')
            out += _cross(x + 6, y + 6, CELL - 12)
    return out


def _cross(x: int, y: int, size: int) -> list[str]:
    """A red cross in the box of ``size`` at ``(x, y)``."""
    ink = f'stroke="{INK["cross"]}" stroke-width="3"'
    return [f'<line x1="{x}" y1="{y}" x2="{x + size}" y2="{y + size}" {ink}/>',
            f'<line x1="{x + size}" y1="{y}" x2="{x}" y2="{y + size}" {ink}/>']


def _svg_outline(lay: Layout, sh: Stronghold) -> list[str]:
    """A stronghold's footprint outlined (a city solid, a camp dashed) with its name in the top-left square."""
    x, y = lay.grid.pixel(sh.corner, CELL)
    side = sh.size * CELL
    dash = ' stroke-dasharray="5 3"' if sh.kind == "camp" else ""
    ink = "#ffffff" if sh.kind == "city" else INK["edge"]
    return [f'<rect class="stronghold" x="{x}" y="{y}" width="{side}" height="{side}" fill="none" '
            f'stroke="{INK["edge"]}" stroke-width="2"{dash}/>',
            f'<text x="{x + 3}" y="{y + 11}" font-size="9" fill="{ink}">{escape(sh.id)}</text>']


def _svg_unit(lay: Layout, unit: Unit) -> list[str]:
    """A unit: a disc in its side's colour (dashed rim if hidden in ambush), its label, a tooltip."""
    cx, cy = lay.grid.centre(unit.square, CELL)
    side = "ours" if unit.ours else "enemy"
    dash = ' stroke-dasharray="3 2"' if unit.hidden else ""
    return [f'<g class="unit {side}"><title>{escape(unit.words)}</title>',
            f'<circle cx="{cx}" cy="{cy}" r="12" fill="{INK[side]}" stroke="#ffffff" stroke-width="2"{dash}/>',
            f'<text x="{cx}" y="{cy + 4}" text-anchor="middle" font-size="11" font-weight="bold" '
            f'fill="#ffffff">{escape(unit.label)}</text></g>']


Key = tuple[Callable[[int, int], list[str]], str]
"""One legend entry of the picture: how to draw its 12-pixel swatch at ``(x, y)``, and its words."""


def _box(fill: str, extra: str = "") -> Callable[[int, int], list[str]]:
    """A swatch: a 12-pixel square of ``fill``."""
    return lambda x, y: [f'<rect class="key" x="{x}" y="{y}" width="12" height="12" fill="{fill}" '
                         f'stroke="#999999" stroke-width="1"{extra}/>']


def _keys(lay: Layout) -> list[Key]:
    """The legend entries of the things this picture shows, in a fixed order."""
    grid = lay.grid
    kinds = {lay.board.terrain_at(sq) for sq in grid.squares()}
    marks = {lay.mark(sq) for sq in grid.squares()}
    sides = {u.ours for u in lay.units.values()}
    keys: list[Key] = [(_box(PALETTE[k]), NAMES[TERRAIN_CHAR[k]]) for k in PALETTE if k in kinds]
    if WALL in marks:
        keys.append((_box(INK["wall"]), NAMES[WALL]))
    if GATE in marks:
        keys.append((lambda x, y: [*_box(INK["wall"])(x, y), f'<rect class="key" x="{x + 3}" y="{y + 3}" width="6" '
                                   f'height="9" fill="{INK["gate"]}"/>'], NAMES[GATE]))
    if BROKEN in marks:
        keys.append((lambda x, y: [*_box(INK["broken"])(x, y), *_cross(x + 2, y + 2, 8)], NAMES[BROKEN]))
    if CAMP in marks:
        keys.append((_box(INK["camp"]), NAMES[CAMP]))
    if len(lay.seen) < grid.cols * grid.rows:
        keys.append((_box(INK["fog"], f' fill-opacity="{FOG_OPACITY}"'), NAMES[FOG]))
    for ours, words in ((True, "我军"), (False, "敌军")):
        if ours in sides:
            keys.append((_box(INK["ours" if ours else "enemy"], ' rx="6"'), words))
    return keys


def _key_layout(keys: Sequence[Key], width: int) -> list[tuple[int, int, Key]]:
    """Where each legend entry goes: ``(line, x, key)``, entries left to right, wrapping at ``width`` (a
    character counted 12 pixels wide)."""
    placed: list[tuple[int, int, Key]] = []
    line, x = 0, 8
    for key in keys:
        w = 16 + 12 * len(key[1]) + 12
        if x > 8 and x + w > width - 8:
            line, x = line + 1, 8
        placed.append((line, x, key))
        x += w
    return placed


__all__ = ["CELL", "FOG", "Layout", "NAMES", "PALETTE", "TERRAIN_CHAR", "Unit", "diagram", "legend", "read", "svg"]
