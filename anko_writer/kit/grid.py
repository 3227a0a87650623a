"""A board of squares: names like ``E5``, distances, diamonds and rings, lines between squares, a text board
for a chapter's code block and the frame of an SVG picture.

A square is a pair ``(x, y)`` of integers: ``x`` the column, ``y`` the row. A :class:`Grid` says how many
there are, where they start (BALL counts columns from 0 and rows from 1; Blood Bowl counts both from 1) and
which way up the board is drawn, and it names squares as a column letter and a row number::

>>> ball = Grid(13, 17, x0=0, y0=1)
>>> ball.coords("E5"), ball.name((4, 5)), ball.on((13, 5))
((4, 5), 'E5', False)
>>> pitch = Grid(26, 15, x0=1, y0=1, top_row_first=True)
>>> pitch.name((26, 15)), pitch.coords("a1")
('Z15', (1, 1))

Distances are free functions of two squares: :func:`manhattan` (orthogonal steps: a rook moving one square
at a time), :func:`chebyshev` (orthogonal or diagonal steps: a king; also the diagonal-only distance between
two squares of the same colour). A diamond of radius ``r`` is the squares within Manhattan ``r``
(``2r(r + 1) + 1`` of them); 三国's 梅花形 vision, "一共12格", is the diamond of radius 2 without its centre:

>>> len(diamond((5, 5), 2, centre=False)), len(diamond((5, 5), 3))
(12, 25)
>>> sorted(ring((0, 0), 1)) == sorted(set(square_area((0, 0), 1)) - {(0, 0)})
True

Lines: :func:`line` is Bresenham's, one square per step along the longer axis, drawn from the lower
endpoint so that ``line(a, b)`` is ``line(b, a)`` reversed; :func:`supercover` is every square the segment
between the two centres touches (both side squares where it passes exactly through a corner), the cautious
choice for lines of sight and blocking:

>>> line((0, 0), (4, 2))
[(0, 0), (1, 1), (2, 1), (3, 2), (4, 2)]
>>> supercover((0, 0), (2, 2))
[(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 2)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from html import escape

Square = tuple[int, int]
"""``(x, y)``: column, row."""
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""Column letters: a grid has at most 26 columns."""
ORTHOGONAL: tuple[Square, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))
"""The four orthogonal steps."""
DIAGONAL: tuple[Square, ...] = ((-1, -1), (-1, 1), (1, -1), (1, 1))
"""The four diagonal steps."""
KING: tuple[Square, ...] = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
"""The eight neighbours, row by row."""


def manhattan(a: Square, b: Square) -> int:
    """Orthogonal steps from ``a`` to ``b``: ``|Δx| + |Δy|``.

    >>> manhattan((1, 1), (4, 3))
    5
    """
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def chebyshev(a: Square, b: Square) -> int:
    """Steps from ``a`` to ``b`` when a diagonal step counts one: ``max(|Δx|, |Δy|)``.

    >>> chebyshev((1, 1), (4, 3))
    3
    """
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


orthogonal = manhattan
"""Orthogonal distance: another name for :func:`manhattan`."""
diagonal = chebyshev
"""Diagonal (king's) distance: another name for :func:`chebyshev`."""


def _reading(squares: Iterable[Square]) -> list[Square]:
    """Squares in reading order: by row, then column."""
    return sorted(squares, key=lambda s: (s[1], s[0]))


def diamond(c: Square, r: int, *, centre: bool = True) -> list[Square]:
    """The squares within Manhattan ``r`` of ``c`` (with or without ``c``), in reading order; unbounded (clip
    with :meth:`Grid.clip`).

    >>> diamond((0, 0), 1)
    [(0, -1), (-1, 0), (0, 0), (1, 0), (0, 1)]
    """
    return [(c[0] + dx, c[1] + dy) for dy in range(-r, r + 1) for dx in range(-(r - abs(dy)), r - abs(dy) + 1)
            if centre or dx or dy]


def square_area(c: Square, r: int) -> list[Square]:
    """The squares within Chebyshev ``r`` of ``c`` (a ``(2r + 1)²`` block), in reading order."""
    return [(c[0] + dx, c[1] + dy) for dy in range(-r, r + 1) for dx in range(-r, r + 1)]


def ring(c: Square, r: int, *, metric: Callable[[Square, Square], int] = chebyshev) -> list[Square]:
    """The squares at exactly ``r`` from ``c`` (a square ring by default; ``metric=manhattan``: a diamond's
    edge), in reading order."""
    return [s for s in square_area(c, r) if metric(c, s) == r]


def around(footprint: Iterable[Square], r: int, *,
           metric: Callable[[Square, Square], int] = chebyshev) -> list[Square]:
    """The squares within ``r`` of any square of ``footprint`` (a stronghold's two square rings: ``r=2``),
    the footprint included, in reading order."""
    near: set[Square] = set()
    for c in footprint:
        near.update(s for s in square_area(c, r) if metric(c, s) <= r)
    return _reading(near)


def line(a: Square, b: Square) -> list[Square]:
    """Bresenham's line from ``a`` to ``b``, both ends included: ``chebyshev(a, b) + 1`` squares, each a king's
    step from the last; a half-way tie goes up in x and y from the lower endpoint, so the line is symmetric."""
    if b < a:
        return line(b, a)[::-1]
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = max(abs(dx), abs(dy))
    if n == 0:
        return [a]
    # round(i·d/n) with halves rounded up, in integers: floor((2·i·d + n) / 2n)
    return [(a[0] + (2 * i * dx + n) // (2 * n), a[1] + (2 * i * dy + n) // (2 * n)) for i in range(n + 1)]


def supercover(a: Square, b: Square) -> list[Square]:
    """Every square the segment between the centres of ``a`` and ``b`` passes through, in order from ``a``;
    where it crosses a corner exactly, the two squares beside the corner come before the diagonal one."""
    dx, dy = abs(b[0] - a[0]), abs(b[1] - a[1])
    sx, sy = (1 if b[0] > a[0] else -1), (1 if b[1] > a[1] else -1)
    x, y = a
    out = [a]
    ix = iy = 0
    while ix < dx or iy < dy:
        # which cell edge the segment meets next: compare (ix + ½)/dx with (iy + ½)/dy, cross-multiplied
        turn = (1 + 2 * ix) * dy - (1 + 2 * iy) * dx
        if turn == 0:
            out += [(x + sx, y), (x, y + sy)]
            x, y, ix, iy = x + sx, y + sy, ix + 1, iy + 1
        elif turn < 0:
            x, ix = x + sx, ix + 1
        else:
            y, iy = y + sy, iy + 1
        out.append((x, y))
    return out


def fence(text: str, info: str = "") -> str:
    """``text`` in a Markdown code fence (the prose checks skip fenced blocks)."""
    return f"```{info}\n{text}\n```"


@dataclass(frozen=True)
class Grid:
    """A board of ``cols`` × ``rows`` squares: column ``x0`` is ``A``, row ``y0`` is ``1``; drawn with row 1
    at the top (``top_row_first``) or at the bottom."""

    cols: int
    rows: int
    x0: int = 0
    """The x of column A."""
    y0: int = 1
    """The y of row 1."""
    top_row_first: bool = False
    """Whether text boards and pictures draw row 1 at the top (else at the bottom, rows counting upwards)."""

    def __post_init__(self) -> None:
        if not 1 <= self.cols <= len(LETTERS) or self.rows < 1:
            raise ValueError(f"a grid has 1–{len(LETTERS)} columns and at least one row, got {self.cols} × {self.rows}")

    @property
    def letters(self) -> str:
        """The column letters, A onwards."""
        return LETTERS[:self.cols]

    def on(self, sq: Square) -> bool:
        """Whether ``sq`` lies on the board."""
        return self.x0 <= sq[0] < self.x0 + self.cols and self.y0 <= sq[1] < self.y0 + self.rows

    def name(self, sq: Square) -> str:
        """``E5`` for a square on the board (ValueError off it)."""
        if not self.on(sq):
            raise ValueError(f"{sq}: not on the {self.cols} × {self.rows} board")
        return f"{LETTERS[sq[0] - self.x0]}{sq[1] - self.y0 + 1}"

    def coords(self, name: str) -> Square:
        """The square named ``E5`` (a letter in either case, then a row number; ValueError for anything else).

        >>> Grid(13, 17).coords("N1")
        Traceback (most recent call last):
        ValueError: N1: no such square (columns A–M, rows 1–17)
        """
        col, row = name[:1].upper(), name[1:]
        if col and col in self.letters and row.isascii() and row.isdigit() and row[0] != "0" \
                and int(row) <= self.rows:
            return (self.x0 + LETTERS.index(col), self.y0 + int(row) - 1)
        raise ValueError(f"{name}: no such square (columns A–{self.letters[-1]}, rows 1–{self.rows})")

    def row_numbers(self) -> list[int]:
        """Row numbers 1 … rows in drawing order (top line first)."""
        numbers = list(range(1, self.rows + 1))
        return numbers if self.top_row_first else numbers[::-1]

    def squares(self) -> Iterator[Square]:
        """Every square, row by row in drawing order, columns A onwards."""
        for n in self.row_numbers():
            for i in range(self.cols):
                yield (self.x0 + i, self.y0 + n - 1)

    def clip(self, squares: Iterable[Square]) -> list[Square]:
        """The squares of ``squares`` that are on the board, in their order."""
        return [s for s in squares if self.on(s)]

    def neighbours(self, sq: Square, steps: Iterable[Square] = KING) -> list[Square]:
        """The on-board squares one of ``steps`` away from ``sq``, in the steps' order."""
        return [t for dx, dy in steps if self.on(t := (sq[0] + dx, sq[1] + dy))]

    def cells(self, cell: Callable[[Square], str]) -> list[str]:
        """The board as lines of ``cell(square)`` strings, one line a row in drawing order, no labels."""
        return ["".join(cell((self.x0 + i, self.y0 + n - 1)) for i in range(self.cols)) for n in self.row_numbers()]

    def diagram(self, cell: Callable[[Square], str], *, width: int = 3, label: int = 2,
                rule: Callable[[int, int], bool] | None = None) -> str:
        """A monospace board: a header of column letters, then each row as its number (right-aligned in
        ``label`` characters), a space and its cells (each ``width`` characters); trailing blanks dropped.
        ``rule(row, next_row)`` draws a dashed line between two rows.

        >>> print(Grid(3, 2).diagram(lambda s: ".  "))
           A  B  C
         2 .  .  .
         1 .  .  .
        """
        pad = " " * (label + 1)
        out = [(pad + "".join(c.ljust(width) for c in self.letters)).rstrip()]
        numbers = self.row_numbers()
        for k, n in enumerate(numbers):
            cells = "".join(cell((self.x0 + i, self.y0 + n - 1)) for i in range(self.cols))
            out.append(f"{n:>{label}} {cells}".rstrip())
            if rule is not None and k + 1 < len(numbers) and rule(n, numbers[k + 1]):
                out.append(pad + "-" * (width * (self.cols - 1) + 1))
        return "\n".join(out)

    def pixel(self, sq: Square, cell: int) -> tuple[int, int]:
        """The top-left corner of ``sq`` in a picture with ``cell`` pixels a square and one free column (row
        labels) on the left."""
        n = sq[1] - self.y0 + 1
        line_no = n - 1 if self.top_row_first else self.rows - n
        return (sq[0] - self.x0 + 1) * cell, line_no * cell

    def centre(self, sq: Square, cell: int) -> tuple[int, int]:
        """The centre of ``sq`` in such a picture."""
        x, y = self.pixel(sq, cell)
        return x + cell // 2, y + cell // 2

    def svg_frame(self, title: str, fill: Callable[[Square], str], *, cell: int = 24, defs: str = "",
                  font: str = 'font-family="sans-serif" font-size="11"') -> list[str]:
        """The opening lines of an SVG picture: the root element, its title, ``defs``, a white ground, the
        column letters under the board, and each row's number and squares (``fill(square)``, thin grey
        edges). The caller adds its pieces and ``</svg>``."""
        width, height = (self.cols + 1) * cell, (self.rows + 1) * cell
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
               f'viewBox="0 0 {width} {height}" {font}>',
               f"<title>{escape(title)}</title>"]
        if defs:
            out.append(defs)
        out.append(f'<rect width="{width}" height="{height}" fill="#ffffff"/>')
        for i, c in enumerate(self.letters):
            out.append(f'<text x="{(i + 1) * cell + cell // 2}" y="{height - 6}" text-anchor="middle">{c}</text>')
        for n in range(1, self.rows + 1):
            _, y = self.pixel((self.x0, self.y0 + n - 1), cell)
            out.append(f'<text x="{cell - 4}" y="{y + cell // 2 + 4}" text-anchor="end">{n}</text>')
            for i in range(self.cols):
                out.append(f'<rect x="{(i + 1) * cell}" y="{y}" width="{cell}" height="{cell}" '
                           f'fill="{fill((self.x0 + i, self.y0 + n - 1))}" stroke="#999" stroke-width="0.5"/>')
        return out


__all__ = ["DIAGONAL", "Grid", "KING", "LETTERS", "ORTHOGONAL", "Square", "around", "chebyshev", "diagonal",
           "diamond", "fence", "line", "manhattan", "orthogonal", "ring", "square_area", "supercover"]
