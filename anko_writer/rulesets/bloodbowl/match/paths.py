"""The coaches' geometry (designed): where a player can walk with how many risky rolls, the path there, the
enemy tackle zones on every square, and how good a block looks. Shared by :mod:`.ai` and :mod:`.plans`."""

from __future__ import annotations

import heapq

from . import rules
from .model import Player, Square, State, adjacent, neighbours
from .sheets import Side

Reach = dict[Square, tuple[int, int, Square | None]]
"""Square → (risky rolls, steps, previous square) of the best way there."""


def tz_map(st: State, side: Side) -> dict[Square, int]:
    """Enemy tackle zones on every square, for ``side``'s players."""
    out: dict[Square, int] = {}
    for q in st.players.values():
        if q.side != side and q.state == "standing" and q.sq is not None:
            for n in _near(q.sq):
                out[n] = out.get(n, 0) + 1
    return out


def _near(sq: Square) -> tuple[Square, ...]:
    """``sq``'s on-pitch neighbours, shared (not to be changed)."""
    found = _NEAR.get(sq)
    if found is None:
        found = _NEAR[sq] = tuple(neighbours(sq))
    return found


_NEAR: dict[Square, tuple[Square, ...]] = {}


def reach(st: State, p: Player, max_rolls: int, moves: int | None = None, through_ball: bool = False) -> Reach:
    """Every square ``p`` can walk to this action with at most ``max_rolls`` dodges and GFIs (cheapest first)."""
    assert p.sq is not None
    tz = tz_map(st, p.side)
    used = p.moved
    if p.state == "prone" and not p.has("jump_up"):
        used = 3 if p.ma >= 3 else p.ma
    normal = max(0, p.ma - used)
    limit = p.ma + 2 - used if moves is None else min(moves, p.ma + 2 - used)
    ball = st.ball.sq if st.ball.carrier is None else None
    start = p.sq
    if max_rolls == 0:
        return _reach_free(st, start, tz, normal, limit, None if through_ball else ball)
    return _reach_search(st, start, tz, normal, limit, None if through_ball else ball, max_rolls)


def _reach_search(st: State, start: Square, tz: dict[Square, int], normal: int, limit: int, ball: Square | None,
                  max_rolls: int) -> Reach:
    """:func:`reach`'s cheapest-first search (rolls, then steps, then the square)."""
    best: Reach = {start: (0, 0, None)}
    heap: list[tuple[int, int, Square]] = [(0, 0, start)]
    grid, get, pop, push, cached = st.grid, best.get, heapq.heappop, heapq.heappush, _NEAR.get
    while heap:
        rolls, steps, sq = pop(heap)
        b = best[sq]
        if b[0] != rolls or b[1] != steps or steps >= limit:
            continue
        if sq == ball and sq != start:
            continue
        cost_r = rolls + (sq in tz) + (steps >= normal)
        if cost_r > max_rolls:
            continue
        nxt = steps + 1
        for n in cached(sq) or _near(sq):  # the on-pitch neighbours, in DIRS order
            if n in grid:
                continue
            old = get(n)
            if old is None or cost_r < old[0] or (cost_r == old[0] and nxt < old[1]):
                best[n] = (cost_r, nxt, sq)
                push(heap, (cost_r, nxt, n))
    return best


def _reach_free(st: State, start: Square, tz: dict[Square, int], normal: int, limit: int,
                ball: Square | None) -> Reach:
    """:func:`reach` with no risky roll allowed: every step costs nothing, so the cheapest-first search is a
    breadth-first one, each ring in square order (the order the heap pops them: the same squares, steps and
    paths)."""
    best: Reach = {start: (0, 0, None)}
    grid, cached = st.grid, _NEAR.get
    ring = [start]
    steps = 0
    while ring:
        nxt: list[Square] = []
        if steps < limit:
            for sq in sorted(ring):
                if (sq == ball and sq != start) or sq in tz or steps >= normal:
                    continue
                for n in cached(sq) or _near(sq):
                    if n not in grid and n not in best:
                        best[n] = (0, steps + 1, sq)
                        nxt.append(n)
        ring = nxt
        steps += 1
    return best


def path_to(r: Reach, sq: Square) -> list[Square]:
    """The squares walked to ``sq`` (without the start)."""
    out: list[Square] = []
    cur: Square | None = sq
    while cur is not None and r[cur][2] is not None:
        out.append(cur)
        cur = r[cur][2]
    return out[::-1]


def block_odds(st: State, att: Player, dfn: Player, frm: Square | None = None) -> float:
    """How good a block is for the attacker from ``frm``: +dice if he chooses, 0.5 for one die, −dice if not."""
    assert dfn.sq is not None
    dx, dy = dfn.sq
    a = sum(1 for q in st.on_field(att.side) if q is not att and q.sq is not None and q.sq != dfn.sq
            and abs(q.sq[0] - dx) <= 1 and abs(q.sq[1] - dy) <= 1 and rules._free_helper(st, q, dfn))
    where = frm or att.sq
    assert where is not None
    wx, wy = where
    d = 0
    for q in st.on_field(dfn.side):
        if q is dfn or not q.standing or q.sq is None or q.sq == where or abs(q.sq[0] - wx) > 1 \
                or abs(q.sq[1] - wy) > 1:
            continue
        if q.has("guard") or st.tackle_zones(q.sq, q.side, ignore=att) - (1 if att.sq and adjacent(att.sq, q.sq)
                                                                          else 0) <= 0:
            d += 1
    n, chooser = rules.block_dice(att.st + a, dfn.st + d)
    if n == 1:
        return 0.5
    return float(n) if chooser == "attacker" else -float(n)


__all__ = ["Reach", "block_odds", "path_to", "reach", "tz_map"]
