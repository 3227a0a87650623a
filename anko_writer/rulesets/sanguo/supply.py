"""001 粮道: direct supply from a stronghold (R29) and supply lines with their cost, failure and daily limit
(R30, R31, R32b), judged at the day end (R28).

>>> board = Board.parse(9, 1, ".........", [Stronghold("营", "camp", 1, "汉军", (0, 1), store=20)])
>>> direct(board, "汉军", (3, 1)), direct(board, "汉军", (4, 1))
(True, False)
>>> ln = line(board, [], "汉军", "营", (5, 1))
>>> ln.length, ln.cost, ln.ok, [board.grid.name(s) for s in ln.path]
(5, 1, True, ['B1', 'C1', 'D1', 'E1', 'F1'])
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ...kit.grid import ORTHOGONAL, Square, manhattan
from .board import Board, Piece, Stronghold

DIRECT_REACH = 3
"""R29: direct supply reaches 3 orthogonal steps (a ``supply`` skill adds 1, R5)."""
LineFailure = Literal["impassable", "enemy", "enemy_stronghold", "attack_range", "no_path"]
"""Why a supply line fails (R30); ``no_path``: no passable path joins the stronghold and the unit."""
Refusal = Literal["limit", "store"]
"""Why a line is not laid at all (R32b's daily limit; a store that cannot pay the cost)."""


def line_cost(length: int) -> int:
    """R30: a line of ``length`` squares costs ⌊(L − 3)/2⌋ from the source store, nothing up to 3.

    >>> [line_cost(n) for n in (1, 3, 4, 5, 6, 7)]
    [0, 0, 0, 1, 1, 2]
    """
    return max(0, (length - DIRECT_REACH) // 2)


def line_limit(level: int) -> int:
    """R32b: lines a stronghold may lay per day, ⌊level/2⌋.

    >>> [line_limit(n) for n in (1, 2, 3, 4, 5)]
    [0, 1, 1, 2, 2]
    """
    return level // 2


def attack_range(piece: Piece) -> int:
    """R13: infantry and cavalry reach Manhattan 1, archers Manhattan 2."""
    return 2 if piece.type == "弓兵" else 1


def exits(board: Board, sh: Stronghold) -> tuple[Square, ...]:
    """The first squares outside a stronghold, in reading order: orthogonal neighbours of its footprint; for a
    city only those of its gates (R29 "from outside a gate")."""
    inside = set(sh.squares)
    frm = [g.square for g in sh.gates] if sh.kind == "city" else list(sh.squares)
    out = {(s[0] + dx, s[1] + dy) for s in frm for dx, dy in ORTHOGONAL}
    return tuple(sorted((s for s in out if s not in inside and board.grid.on(s)), key=_order))


def _order(sq: Square) -> tuple[int, int]:
    """Row then column (R30's tie order)."""
    return sq[1], sq[0]


def direct(board: Board, side: str, at: Square, *, reach: int = DIRECT_REACH) -> bool:
    """R29: whether a unit of ``side`` at ``at`` is supplied directly: it stands in one of its side's
    strongholds, or within ``reach`` orthogonal steps of a camp square, or (a city) of a gate — the first
    square outside the gate is 1 step (DESIGNED reading: steps are counted as Manhattan distance, not along a
    path)."""
    for sh in board.strongholds:
        if sh.side != side:
            continue
        if at in sh.squares:
            return True
        frm = [g.square for g in sh.gates] if sh.kind == "city" else sh.squares
        if any(manhattan(s, at) <= reach for s in frm):
            return True
    return False


@dataclass(frozen=True)
class Line:
    """R30: a supply line: its path (first square outside the stronghold … the unit's square), its length L,
    its cost ⌊(L − 3)/2⌋ (paid even when it fails), ``ok``, else the reason with the blocking square and the
    blocker's id (a unit or stronghold; the caller prints the reason only if that blocker is visible)."""

    source: str
    path: tuple[Square, ...]
    length: int
    cost: int
    ok: bool
    reason: LineFailure | None = None
    blocker_at: Square | None = None
    blocker: str | None = None


def shortest_path(board: Board, sh: Stronghold, to: Square) -> tuple[Square, ...] | None:
    """The shortest orthogonal path of terrain-passable squares from an exit of ``sh`` to ``to``, ties taken
    in row then column order square by square (R30). Only terrain and the source's own footprint bar it
    (DESIGNED: the route is drawn without knowing where hidden enemies stand; R30's failures are judged on
    it afterwards).

    >>> b = Board.parse(4, 3, "....\\n.M..\\n....", [Stronghold("营", "camp", 1, "汉军", (0, 1))])
    >>> [b.grid.name(s) for s in shortest_path(b, b.stronghold("营"), (2, 2)) or ()]
    ['B1', 'C1', 'C2']
    """
    inside = set(sh.squares)
    if not board.passable(to) or to in inside:
        return None
    dist = {to: 0}
    queue = deque([to])
    while queue:
        cur = queue.popleft()
        for dx, dy in ORTHOGONAL:
            nxt = (cur[0] + dx, cur[1] + dy)
            if nxt not in dist and nxt not in inside and board.passable(nxt):
                dist[nxt] = dist[cur] + 1
                queue.append(nxt)
    starts = [s for s in exits(board, sh) if s in dist]
    if not starts:
        return None
    best = min(dist[s] for s in starts)
    path = [min((s for s in starts if dist[s] == best), key=_order)]
    while path[-1] != to:
        cur = path[-1]
        steps = [(cur[0] + dx, cur[1] + dy) for dx, dy in ORTHOGONAL]
        path.append(min((s for s in steps if dist.get(s) == dist[cur] - 1), key=_order))
    return tuple(path)


def _check_path(board: Board, sh: Stronghold, path: Sequence[Square], to: Square) -> None:
    """ValueError unless ``path`` starts on an exit of ``sh``, goes by orthogonal steps and ends on ``to``."""
    if not path or path[0] not in exits(board, sh) or path[-1] != to:
        raise ValueError(f"a line of {sh.id} must run from a square outside it to the unit's square")
    if any(manhattan(a, b) != 1 for a, b in zip(path, path[1:], strict=False)):
        raise ValueError("a line's path goes by orthogonal steps")


def line(board: Board, pieces: Iterable[Piece], side: str, source: str, to: Square,
         path: Sequence[Square] | None = None) -> Line:
    """R30: judge a line of ``side`` from stronghold ``source`` to a unit at ``to`` along ``path`` (else the
    shortest one). Any of: impassable terrain, an enemy unit on it, an enemy
    stronghold's square, a square in an enemy unit's attack range (R13) fails the line; the reason given is
    the strongest found on the path in that order, at its first square (DESIGNED)."""
    sh = board.stronghold(source)
    if path is None:
        found = shortest_path(board, sh, to)
        if found is None:
            return Line(source, (), 0, 0, False, "no_path")
        path = found
    else:
        _check_path(board, sh, path, to)
    squares = tuple(path)
    cost = line_cost(len(squares))
    enemies = [p for p in pieces if p.side != side]

    def blocker(sq: Square) -> tuple[LineFailure, str | None] | None:
        """The strongest reason ``sq`` fails the line, with the blocker's id."""
        if not board.passable(sq):
            return "impassable", None
        on = next((p for p in enemies if p.square == sq), None)
        if on is not None:
            return "enemy", on.id
        other = board.stronghold_at(sq)
        if other is not None and other.side is not None and other.side != side:
            return "enemy_stronghold", other.id
        near = next((p for p in enemies if manhattan(p.square, sq) <= attack_range(p)), None)
        return None if near is None else ("attack_range", near.id)

    found_blocks = [(b, sq) for sq in squares if (b := blocker(sq)) is not None]
    if found_blocks:  # the strongest reason on the path, at its first square
        rank = ("impassable", "enemy", "enemy_stronghold", "attack_range")
        (why, who), at = min(found_blocks, key=lambda f: rank.index(f[0][0]))
        return Line(source, squares, len(squares), cost, False, why, at, who)
    return Line(source, squares, len(squares), cost, True)


@dataclass(frozen=True)
class Request:
    """One line asked for at the day end: the unit, its square, its need (兵力), the source and a voted path."""

    unit: str
    at: Square
    need: int
    source: str
    path: tuple[Square, ...] | None = None


@dataclass(frozen=True)
class Laid:
    """A request's outcome: the line (``None`` if refused), the reason of a refusal, and the ``food`` the unit
    eats from it (R31: only eaten, never carried — hand it to ``units.meal(supplied=…)``)."""

    request: Request
    line: Line | None
    refused: Refusal | None
    food: int


def lay(board: Board, pieces: Iterable[Piece], side: str, requests: Sequence[Request]) -> tuple[Board, tuple[Laid, ...]]:
    """R30–R32b in request order: a stronghold lays at most ⌊level/2⌋ lines a day (more are refused); a line
    whose cost the store cannot pay is refused (DESIGNED); a laid line pays its cost even if it fails, and an
    ok line feeds the unit min(need, store) from the store. Returns the board with the stores paid."""
    stores = {sh.id: sh.store for sh in board.strongholds}
    out = lay_from(board, pieces, side, requests, stores)
    for sh in board.strongholds:
        if stores[sh.id] != sh.store:
            board = board.with_stronghold(_stored(sh, stores[sh.id]))
    return board, out


def lay_from(board: Board, pieces: Iterable[Piece], side: str, requests: Sequence[Request],
             stores: dict[str, int]) -> tuple[Laid, ...]:
    """:func:`lay` on the stores given by stronghold id (paid in place), which may pass 20·level until the day
    end cuts them (the day end's pending 资源)."""
    units = tuple(pieces)
    count: dict[str, int] = {}
    out: list[Laid] = []
    for req in requests:
        sh = board.stronghold(req.source)
        if count.get(sh.id, 0) >= line_limit(sh.level):
            out.append(Laid(req, None, "limit", 0))
            continue
        ln = line(board, units, side, sh.id, req.at, req.path)
        if ln.cost > stores[sh.id]:
            out.append(Laid(req, None, "store", 0))
            continue
        count[sh.id] = count.get(sh.id, 0) + 1
        stores[sh.id] -= ln.cost
        food = min(req.need, stores[sh.id]) if ln.ok else 0
        stores[sh.id] -= food
        out.append(Laid(req, ln, None, food))
    return tuple(out)


def _stored(sh: Stronghold, store: int) -> Stronghold:
    """``sh`` with its store set."""
    return Stronghold(sh.id, sh.kind, sh.level, sh.side, sh.corner, store, sh.gates, sh.size)


__all__ = ["DIRECT_REACH", "Laid", "Line", "LineFailure", "Refusal", "Request", "attack_range", "direct",
           "exits", "lay", "lay_from", "line", "line_cost", "line_limit", "shortest_path"]
