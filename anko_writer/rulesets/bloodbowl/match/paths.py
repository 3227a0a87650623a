"""The coaches' geometry (designed): where a player can walk with how many risky rolls, the path there, the
enemy tackle zones on every square, and how good a block looks. Shared by :mod:`.ai` and :mod:`.plans`."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from . import rules
from .model import DIRS, LENGTH, WIDTH, Player, Square, State, adjacent, neighbours, on_pitch
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


def reach(st: State, p: Player, max_rolls: int, moves: int | None = None, through_ball: bool = False,
          tz: dict[Square, int] | None = None) -> Reach:
    """Every square ``p`` can walk to this action with at most ``max_rolls`` dodges and GFIs (cheapest first;
    ``tz``: :func:`tz_map` of his side, if known)."""
    assert p.sq is not None
    if tz is None:
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


_STRIDE = WIDTH + 2
"""Squares are numbered ``x * _STRIDE + y`` inside the searches (in square order, a list index)."""
_CELLS = (LENGTH + 2) * _STRIDE
_SQ: list[Square] = [(i // _STRIDE, i % _STRIDE) for i in range(_CELLS)]
"""Number → square (shared tuples)."""
_AROUND: list[tuple[int, ...]] = [
    tuple((x + dx) * _STRIDE + y + dy for dx, dy in DIRS if on_pitch((x + dx, y + dy)))
    if on_pitch((x, y)) else () for x, y in _SQ]
"""Number → its on-pitch neighbours' numbers, in DIRS order."""
_FAR = 1 << 30
"""A label no way there is worse than."""


def _reach_search(st: State, start: Square, tz: dict[Square, int], normal: int, limit: int, ball: Square | None,
                  max_rolls: int) -> Reach:
    """:func:`reach`'s cheapest-first search (rolls, then steps, then the square): a square's way there is
    only bettered by fewer rolls, or as many in fewer steps (one label, ``rolls * 64 + steps``). Every step
    costs at least one step and no fewer rolls, so the squares are taken from one bucket per (rolls, steps)
    in turn, each in square order: the order a heap of (rolls, steps, square) pops them."""
    best: Reach = {start: (0, 0, None)}
    label = [_FAR] * _CELLS
    for x, y in st.grid:
        label[x * _STRIDE + y] = -1  # taken: never bettered
    s0 = start[0] * _STRIDE + start[1]
    label[s0] = 0
    b0 = -1 if ball is None else ball[0] * _STRIDE + ball[1]
    around, sqs = _AROUND, _SQ
    buckets: list[list[list[int]]] = [[[] for _ in range(max(limit, 0) + 1)] for _ in range(max_rolls + 1)]
    buckets[0][0].append(s0)
    for rolls in range(max_rolls + 1):
        row = buckets[rolls]
        for steps in range(limit):  # a square reached in ``limit`` steps goes no further
            bucket = row[steps]
            if not bucket:
                continue
            bucket.sort()
            nxt = steps + 1
            gfi = steps >= normal
            here = rolls * 64 + steps
            for i in bucket:
                if label[i] != here or (i == b0 and i != s0):
                    continue
                sq = sqs[i]
                cost_r = rolls + (sq in tz) + gfi
                if cost_r > max_rolls:
                    continue
                later = buckets[cost_r][nxt]
                code = cost_r * 64 + nxt
                there = (cost_r, nxt, sq)
                for n in around[i]:
                    if code < label[n]:
                        label[n] = code
                        best[sqs[n]] = there
                        later.append(n)
    return best


def _reach_free(st: State, start: Square, tz: dict[Square, int], normal: int, limit: int,
                ball: Square | None) -> Reach:
    """:func:`reach` with no risky roll allowed: every step costs nothing, so the cheapest-first search is a
    breadth-first one, each ring in square order (the order the heap pops them: the same squares, steps and
    paths); past the normal squares a step would be a GFI, so the search stops there."""
    best: Reach = {start: (0, 0, None)}
    seen = [False] * _CELLS
    for x, y in st.grid:
        seen[x * _STRIDE + y] = True
    s0 = start[0] * _STRIDE + start[1]
    seen[s0] = True
    b0 = -1 if ball is None else ball[0] * _STRIDE + ball[1]
    around, sqs = _AROUND, _SQ
    ring = [s0]
    steps = 0
    while ring and steps < limit and steps < normal:
        nxt: list[int] = []
        for i in sorted(ring):
            sq = sqs[i]
            if sq in tz or (i == b0 and i != s0):
                continue
            there = (0, steps + 1, sq)
            for n in around[i]:
                if not seen[n]:
                    seen[n] = True
                    best[sqs[n]] = there
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
    return Board(st).odds(att, dfn, frm)


def odds_of(n: int, chooser: str) -> float:
    """A block's dice as :func:`block_odds` scores them.

    >>> odds_of(*rules.block_dice(4, 3)), odds_of(*rules.block_dice(3, 3)), odds_of(*rules.block_dice(3, 7))
    (2.0, 0.5, -3.0)
    """
    if n == 1:
        return 0.5
    return float(n) if chooser == "attacker" else -float(n)


_TZ: dict[tuple[object, ...], dict[Square, int]] = {}
"""(side, the standing opponents' squares) → :func:`tz_map` (the last few thousand)."""


class Board:
    """One decision's look at the pitch while nothing on it moves: each side's players on the field, tackle
    zones, each player's reach and the parts of the block and foul odds, each worked out once (the same
    numbers as :func:`reach`, :func:`block_odds` and :func:`.plans.foul_assists`; make a new one after an
    action)."""

    def __init__(self, st: State) -> None:
        self.st = st
        self._field: dict[Side, list[Player]] = {}
        self._tz: dict[Side, dict[Square, int]] = {}
        self._reach: dict[tuple[str, int, int | None, bool], Reach] = {}
        self._helpers: dict[tuple[str, Side], frozenset[str]] = {}
        self._base: dict[tuple[str, Side, bool], tuple[frozenset[str], dict[Square, int]]] = {}
        self._cover: dict[tuple[str, Side, bool],
                          tuple[frozenset[str], dict[Square, int], tuple[tuple[str, int, int, int], ...]]] = {}

    def field(self, side: Side) -> list[Player]:
        """``st.on_field(side)``, shared (not to be changed)."""
        got = self._field.get(side)
        if got is None:
            got = self._field[side] = self.st.on_field(side)
        return got

    def standing(self, side: Side) -> list[Square]:
        """The squares of ``side``'s standing players, by id."""
        return [q.sq for q in self.field(side) if q.state == "standing" and q.sq is not None]

    def tz(self, side: Side) -> dict[Square, int]:
        """:func:`tz_map` of ``side``, shared (not to be changed): the same map for the same squares of
        standing opponents, so a map is made once for every board that has them."""
        got = self._tz.get(side)
        if got is None:
            key = (side, *[q.sq for q in self.st.players.values() if q.side != side and q.state == "standing"
                           and q.sq is not None])
            got = _TZ.get(key)
            if got is None:
                if len(_TZ) >= 4096:
                    _TZ.clear()
                got = _TZ[key] = tz_map(self.st, side)
            self._tz[side] = got
        return got

    def reach(self, p: Player, max_rolls: int, moves: int | None = None, through_ball: bool = False) -> Reach:
        """:func:`reach`, shared (not to be changed)."""
        key = (p.id, max_rolls, moves, through_ball)
        got = self._reach.get(key)
        if got is None:
            got = self._reach[key] = reach(self.st, p, max_rolls, moves, through_ball, self.tz(p.side))
        return got

    def helpers(self, target: Player, side: Side) -> frozenset[str]:
        """The ids of ``side``'s free helpers next to ``target`` (:func:`.rules._free_helper`)."""
        key = (target.id, side)
        got = self._helpers.get(key)
        if got is None:
            assert target.sq is not None
            tx, ty = target.sq
            got = self._helpers[key] = frozenset(
                q.id for q in self.field(side) if q.state == "standing" and q.sq is not None and q.sq != target.sq
                and abs(q.sq[0] - tx) <= 1 and abs(q.sq[1] - ty) <= 1
                and (q.has("guard") or self.zones_but(q.sq, q.side, target) == 0))
        return got

    def zones_but(self, sq: Square, side: Side, ignore: Player) -> int:
        """``st.tackle_zones(sq, side, ignore=ignore)`` for a square on the pitch."""
        n = self.tz(side).get(sq, 0)
        at = ignore.sq
        if at is not None and ignore.side != side and ignore.state == "standing" and at != sq \
                and abs(at[0] - sq[0]) <= 1 and abs(at[1] - sq[1]) <= 1:
            n -= 1
        return n

    def assists(self, att: Player, target: Player) -> int:
        """``att``'s team-mates who help him against ``target`` (wherever he stands: they are not him)."""
        ids = self.helpers(target, att.side)
        return len(ids) - (att.id in ids)

    def _free(self, q: Player, att: Player | None, block: bool) -> bool:
        """Whether ``q`` (standing) would help a team-mate ``att`` blocks (``block``: Guard, or no tackle zone
        but ``att``'s, which he still puts from his square) or fouls (no tackle zone but his); ``att`` None:
        an attacker touching nobody."""
        assert q.sq is not None
        if att is None:
            zones = self.tz(q.side).get(q.sq, 0)
            return (q.has("guard") or zones <= 0) if block else zones == 0
        if block:
            return q.has("guard") or self.zones_but(q.sq, q.side, att) - (
                1 if att.sq and adjacent(att.sq, q.sq) else 0) <= 0
        return self.zones_but(q.sq, q.side, att) == 0

    def _cover_base(self, side: Side, block: bool) -> tuple[frozenset[str], dict[Square, int]]:
        """:meth:`cover` against an attacker touching none of ``side``'s players."""
        key = ("", side, block)
        got = self._base.get(key)
        if got is None:
            ids: set[str] = set()
            count: dict[Square, int] = {}
            for q in self.field(side):
                if q.state == "standing" and q.sq is not None and self._free(q, None, block):
                    ids.add(q.id)
                    x, y = q.sq
                    for dx, dy in DIRS:
                        n = (x + dx, y + dy)
                        count[n] = count.get(n, 0) + 1
            got = self._base[key] = (frozenset(ids), count)
        return got

    def cover(self, att: Player, side: Side, block: bool
              ) -> tuple[frozenset[str], dict[Square, int], tuple[tuple[str, int, int, int], ...]]:
        """``side``'s standing players who would help a team-mate ``att`` blocks or fouls (:meth:`_free`): for an
        attacker touching none of them, their ids and how many touch each square (on the pitch or off it);
        then those ``att`` touches whose help he changes (id, x, y, +1 or −1)."""
        key = (att.id, side, block)
        got = self._cover.get(key)
        if got is None:
            ids, count = self._cover_base(side, block)
            flips = []
            if att.sq is not None:
                ax, ay = att.sq
                for q in self.field(side):
                    if q.state != "standing" or q.sq is None or q.sq == att.sq:
                        continue
                    x, y = q.sq
                    if abs(x - ax) <= 1 and abs(y - ay) <= 1:
                        free = self._free(q, att, block)
                        if free != (q.id in ids):
                            flips.append((q.id, x, y, 1 if free else -1))
            got = self._cover[key] = (ids, count, tuple(flips))
        return got

    def against(self, att: Player, dfn: Player, where: Square, block: bool = True) -> int:
        """The team-mates who help ``dfn`` when ``att`` blocks (or fouls) him from ``where``: those touching
        ``where``, not ``dfn`` himself."""
        ids, count, flips = self.cover(att, dfn.side, block)
        wx, wy = where
        n = count.get(where, 0)
        helps = dfn.id in ids
        for qid, x, y, change in flips:
            if qid == dfn.id:
                helps = change > 0
            if (x, y) != where and abs(x - wx) <= 1 and abs(y - wy) <= 1:
                n += change
        if helps and dfn.sq is not None and dfn.sq != where \
                and abs(dfn.sq[0] - wx) <= 1 and abs(dfn.sq[1] - wy) <= 1:
            n -= 1
        return n

    def foul_net(self, p: Player, v: Player, frm: Square) -> int:
        """:func:`.plans.foul_assists`: ``p``'s helpers (not him, nor one standing on ``frm``) less ``v``'s."""
        ids = self.helpers(v, p.side)
        on = self.st.grid.get(frm)
        return len(ids) - (p.id in ids) - (on is not None and on != p.id and on in ids) \
            - self.against(p, v, frm, block=False)

    def foul_best(self, p: Player, v: Player) -> int:
        """The most :meth:`foul_net` ``p`` could have against ``v`` from an empty square or his own."""
        return self.assists(p, v)

    def odds(self, att: Player, dfn: Player, frm: Square | None = None) -> float:
        """:func:`block_odds`."""
        assert dfn.sq is not None
        where = frm or att.sq
        assert where is not None
        return odds_of(*rules.block_dice(att.st + self.assists(att, dfn), dfn.st + self.against(att, dfn, where)))

    def best_odds(self, att: Player, dfn: Player) -> float:
        """The best :meth:`odds` ``att`` could have against ``dfn`` from any square (none helping ``dfn``)."""
        return odds_of(*rules.block_dice(att.st + self.assists(att, dfn), dfn.st))


Key = tuple[float, int, str, str]
"""How good a move to a target is (the least is the best; the mover's and target's ids make it unique)."""
T = TypeVar("T")
U = TypeVar("U")


def least(items: Iterable[T], bound: Callable[[T], Any], exact: Callable[[T], tuple[Any, U] | None]) -> U | None:
    """What goes with the least ``exact`` key of ``items`` (None: not a candidate), tried in the order of
    ``bound`` (no key of the item is below it) and stopped once no bound is below the best found. When no two
    items can have equal keys, the least does not depend on the order, so this is what trying all gives.

    >>> least([3, 1, 2], bound=lambda n: n - 1, exact=lambda n: (n, f"got {n}") if n != 1 else None)
    'got 2'
    """
    best: Any = None
    got: U | None = None
    for b, _, item in sorted((bound(it), i, it) for i, it in enumerate(items)):
        if best is not None and not b < best:
            break
        found = exact(item)
        if found is not None and (best is None or found[0] < best):
            best, got = found
    return got


def best_approach(board: Board, pairs: Iterable[tuple[Player, Player]], max_rolls: int, extra: int,
                  bound: Callable[[Player, Player], Key],
                  key: Callable[[Player, Player, Square, tuple[int, int, Square | None]], Key | None]
                  ) -> tuple[Player, list[Square], Player] | None:
    """The blitz and foul loop: over each mover and target, each square beside the target he reaches this
    action (``board.reach`` with ``max_rolls`` and MA + ``extra`` squares), the least ``key`` (None: not this
    one; of equal keys the first square in :data:`.model.DIRS` order), pairs tried by :func:`least` with
    ``bound`` a key no square of the pair is below; the mover, his path and the target."""
    def exact(pair: tuple[Player, Player]) -> tuple[Key, tuple[Player, Reach, Square, Player]] | None:
        p, t = pair
        assert t.sq is not None
        r = board.reach(p, max_rolls, moves=p.ma + extra)
        best: Key | None = None
        at: Square | None = None
        for sq in _NEAR.get(t.sq) or _near(t.sq):
            got = r.get(sq)
            if got is None:
                continue
            k = key(p, t, sq, got)
            if k is not None and (best is None or k < best):
                best, at = k, sq
        return None if best is None or at is None else (best, (p, r, at, t))

    choice = least(pairs, lambda pair: bound(*pair), exact)
    if choice is None:
        return None
    p, r, sq, t = choice
    return p, path_to(r, sq), t


__all__ = ["Board", "Key", "Reach", "best_approach", "block_odds", "least", "odds_of", "path_to", "reach", "tz_map"]
