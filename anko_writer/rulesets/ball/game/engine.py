"""BALL (003)'s fast board for search and perft: one mutable board, made and unmade in place.

The rules are :mod:`.rules`'s, action for action (the tests compare both generators on perft counts and on
random walks); this module only stores them differently: squares are ints (``col + 13 × (row − 1)``), the
moves of each piece type from each square, the diagonal neighbours and the distances are tables built once,
pieces are parallel lists indexed by their place in :attr:`.model.Position.pieces`, and an action is a plain
tuple ``(kind, piece, frm, to, over, target, push_to, ball_to, land)`` (−1 for none). :meth:`Board.make`
returns what :meth:`Board.unmake` needs to put the board back, so a search copies nothing.

Card mode's cards and PA→PE conversion are not played here (the AI plays neither while it searches): the
board generates the ordinary actions of the action phase and the recovery tasks, which is all of
:func:`.rules.generate` outside card mode.

>>> from .rules import standard_position
>>> b = Board.of(standard_position())
>>> len(b.generate()), b.perft(2)
(54, 2869)
"""

from __future__ import annotations

from collections.abc import Sequence

from .model import Action, Piece, Position, Team
from .rules import COLUMNS, DIAG1, ROWS, SCORING_ROWS, TURN_LIMIT, USABLE, coords, two_square_moves

WIDTH = len(COLUMNS)
"""Squares a row (A–M): a square's int is ``col + WIDTH × (row − 1)``."""
SQUARES = WIDTH * ROWS
"""Ints 0 … 220 name the board's squares (usable or not)."""

MOVE, DODGE, TACTICAL, BLOCK, PROTECT, HANDOFF, SHORT, LONG, STAND, RELEASE = range(10)
"""Action kinds on the board (the order of :data:`.rules.KIND_ORDER`)."""
KINDS = ("move", "dodge", "tactical_dodge", "block", "protect", "handoff", "short_pass", "long_pass",
         "stand_up", "release")
"""Each kind's name in :class:`.model.Action`."""
ABLE, DOWN, TOP, BOTTOM = range(4)
"""Piece states on the board."""
STATES = ("able", "down", "stack_top", "stack_bottom")
"""Each state's name in :class:`.model.Piece`."""
SIDES: tuple[Team, Team] = ("ATK", "DEF")
"""Side 0 is ATK, side 1 DEF."""

Move = tuple[int, int, int, int, int, int, int, int, int]
"""``(kind, piece, frm, to, over, target, push_to, ball_to, land)``; −1 where a field is empty."""
Saved = tuple[int, int, int, bool]
"""A piece before a move: its index, square, state and ``was_down``."""
Undo = tuple[int, int, int, int, int, int, Saved, "Saved | None"]
"""What :meth:`Board.unmake` needs: holder, free ball, took, formed, PA, touchdown and the moved pieces."""


def index(name: str) -> int:
    """A square's int: ``A1`` → 0, ``M17`` → 220."""
    col, row = coords(name)
    return col + WIDTH * (row - 1)


NAME: list[str] = [f"{COLUMNS[i % WIDTH]}{i // WIDTH + 1}" for i in range(SQUARES)]
"""Each int's square name."""
ROW: list[int] = [i // WIDTH + 1 for i in range(SQUARES)]
"""Each int's row, 1–17."""
USABLE_INTS: tuple[int, ...] = tuple(sorted(index(s) for s in USABLE))
"""The striped squares, in int order."""
D1: list[tuple[int, ...]] = [tuple(index(t) for t in DIAG1[NAME[i]]) if NAME[i] in USABLE else ()
                             for i in range(SQUARES)]
"""The diagonal neighbours of each usable square."""
TWO: dict[str, list[tuple[tuple[int, int, bool], ...]]] = {
    k: [tuple((index(m), index(d), g) for m, d, g in two_square_moves(k, NAME[i])) if NAME[i] in USABLE else ()
        for i in range(SQUARES)] for k in "XOS"}
"""Each type's 2-square moves (middle, destination, diagonal) from each usable square (003 §4)."""
REACH: dict[str, list[frozenset[int]]] = {
    k: [frozenset(D1[i]) | {d for _, d, _ in TWO[k][i]} for i in range(SQUARES)] for k in "XOS"}
"""The squares a piece of each type reaches in one move (diagonal 1, or its 2-square moves)."""
DIST: list[list[int]] = [[max(abs(a % WIDTH - b % WIDTH), abs(a // WIDTH - b // WIDTH)) for b in range(SQUARES)]
                         for a in range(SQUARES)]
"""Shortest path between two usable squares over usable squares: max(|Δcol|, |Δrow|)."""
NEAR: list[int] = [(1 << i) | sum(1 << t for t in D1[i]) for i in range(SQUARES)]
"""Bit mask of a square and its diagonal neighbours (the squares a long pass may not land on, 003 §8)."""
ZONE: tuple[frozenset[int], frozenset[int]] = tuple(  # type: ignore[assignment]
    frozenset(i for i in range(SQUARES) if SCORING_ROWS[s][0] <= ROW[i] <= SCORING_ROWS[s][1]) for s in SIDES)
"""The squares each side scores on."""


class Board:
    """A position as mutable ints: made and unmade in place (see the module docstring)."""

    __slots__ = ("ids", "side", "kind", "two", "sq", "st", "wd", "at", "under", "holder", "free", "to_move",
                 "turn", "pa", "phase", "formed", "took", "touchdown", "pe", "card_mode")

    def __init__(self, pieces: Sequence[tuple[str, int, str, int, int, bool]], holder: int, free: int, to_move: int,
                 turn: int, pa: int, phase: int, formed: int, took: int, touchdown: int,
                 pe: dict[str, int], card_mode: bool) -> None:
        """A board from its pieces ``(id, side, type, square, state, was_down)`` and its turn's state."""
        self.ids = [p[0] for p in pieces]
        self.side = [p[1] for p in pieces]
        self.kind = [p[2] for p in pieces]
        self.two = [TWO[p[2]] for p in pieces]
        self.sq = [p[3] for p in pieces]
        self.st = [p[4] for p in pieces]
        self.wd = [p[5] for p in pieces]
        self.at = [-1] * SQUARES
        self.under = [-1] * SQUARES
        for i in range(len(pieces)):
            self._place(i)
        self.holder, self.free, self.to_move, self.turn, self.pa = holder, free, to_move, turn, pa
        self.phase, self.formed, self.took, self.touchdown = phase, formed, took, touchdown
        self.pe, self.card_mode = dict(pe), card_mode

    @classmethod
    def of(cls, pos: Position) -> Board:
        """The board of ``pos``."""
        order = {p.id: i for i, p in enumerate(pos.pieces)}
        pieces = [(p.id, SIDES.index(p.side), p.type, index(p.square), STATES.index(p.state), p.was_down)
                  for p in pos.pieces]
        holder = next((i for i, p in enumerate(pos.pieces) if p.ball), -1)
        return cls(pieces, holder, -1 if pos.free_ball is None else index(pos.free_ball),
                   SIDES.index(pos.to_move), pos.turn, pos.pa, 0 if pos.phase == "action" else 1,
                   sum(1 << index(s) for s in pos.formed_this_turn), sum(1 << order[p] for p in pos.took_ball_this_turn),
                   -1 if pos.touchdown is None else SIDES.index(pos.touchdown), pos.pe, pos.card_mode)

    def position(self) -> Position:
        """The board as a :class:`.model.Position`."""
        pieces = tuple(Piece(self.ids[i], SIDES[self.side[i]], self.kind[i], NAME[self.sq[i]],  # type: ignore[arg-type]
                             STATES[self.st[i]], i == self.holder, self.wd[i])  # type: ignore[arg-type]
                       for i in range(len(self.ids)))
        return Position(pieces, None if self.free < 0 else NAME[self.free], SIDES[self.to_move], self.turn, self.pa,
                        dict(self.pe), "action" if self.phase == 0 else "recovery",
                        frozenset(NAME[i] for i in range(SQUARES) if self.formed >> i & 1),
                        frozenset(self.ids[i] for i in range(len(self.ids)) if self.took >> i & 1),
                        None if self.touchdown < 0 else SIDES[self.touchdown], self.card_mode)

    def action(self, m: Move) -> Action:
        """The :class:`.model.Action` of a board move."""
        k, p, frm, to, over, tgt, push, ball, land = m

        def sq(i: int) -> str | None:
            return None if i < 0 else NAME[i]

        ball_to = (None if ball < 0 else self.ids[ball]) if k == RELEASE else sq(ball)
        return Action(self.ids[p], KINDS[k], sq(frm), sq(to), sq(over), None if tgt < 0 else self.ids[tgt],
                      sq(push), ball_to, 0 if k >= STAND else 1, sq(land))

    def _place(self, i: int) -> None:
        if self.st[i] == BOTTOM:
            self.under[self.sq[i]] = i
        else:
            self.at[self.sq[i]] = i

    def _lift(self, i: int) -> None:
        if self.st[i] == BOTTOM:
            self.under[self.sq[i]] = -1
        else:
            self.at[self.sq[i]] = -1

    def over(self) -> bool:
        """A touchdown was scored, or the turn limit passed."""
        return self.touchdown >= 0 or self.turn > TURN_LIMIT

    # -- generating ------------------------------------------------------------------------------------------

    def generate(self) -> list[Move]:
        """Every legal action (action phase) or recovery task (recovery phase), as :func:`.rules.generate`
        outside card mode."""
        if self.touchdown >= 0 or self.turn > TURN_LIMIT:
            return []
        if self.phase:
            return self._recovery()
        out: list[Move] = []
        if self.pa < 1:
            return out
        me, side, st, took = self.to_move, self.side, self.st, self.took
        for i in range(len(side)):
            if side[i] == me and st[i] == ABLE and not took >> i & 1:
                self._moves(i, out)
                if i == self.holder:
                    self._ball(i, out)
        return out

    def _moves(self, i: int, out: list[Move]) -> None:
        """003 §4–§7: moves, dodges, tactical dodges, blocks and protects of able piece ``i``."""
        at, under, side, st, free = self.at, self.under, self.side, self.st, self.free
        me, frm = side[i], self.sq[i]
        for d in D1[frm]:
            q = at[d]
            if q < 0:
                out.append((MOVE, i, frm, d, -1, -1, -1, -1, -1))
            elif under[d] < 0:
                out.append((PROTECT if side[q] == me else BLOCK, i, frm, d, -1, q, -1, -1, -1))
        for mid, d, diagonal in self.two[i][frm]:
            q = at[mid]
            if q >= 0:
                if under[mid] >= 0:
                    continue  # a stack blocks (003 §2)
                if side[q] != me:
                    if st[q] == ABLE and diagonal and at[d] < 0 and d != free:
                        self._tactical(i, q, frm, mid, d, out)
                    continue
                if st[q] != ABLE:
                    continue
            q = at[d]
            if q < 0:
                out.append((MOVE, i, frm, d, mid, -1, -1, -1, -1))
            elif side[q] != me and st[q] == ABLE and under[d] < 0:
                for off in D1[d]:
                    if at[off] < 0 and off != free:
                        out.append((DODGE, i, frm, off, mid, q, -1, -1, d))

    def _tactical(self, i: int, q: int, frm: int, mid: int, land: int, out: list[Move]) -> None:
        """003 §6: every push of ``q`` off ``mid``, and where its ball goes."""
        at, free, has_ball = self.at, self.free, q == self.holder
        for push in D1[mid]:
            if push == land or not (push == frm or (at[push] < 0 and push != free)):
                continue
            ball = -1
            if has_ball:
                b = 2 * mid - push
                ok = 0 <= b < SQUARES and abs(b % WIDTH - mid % WIDTH) == 1
                ball = b if ok and b != land and at[b] < 0 and self.under[b] < 0 else mid
            out.append((TACTICAL, i, frm, land, mid, q, push, ball, -1))

    def _ball(self, h: int, out: list[Move]) -> None:
        """003 §8: hand-offs over the network, short passes, long passes of the holder ``h``."""
        at, side, st, sq, free = self.at, self.side, self.st, self.sq, self.free
        me, frm = side[h], sq[h]
        own = [i for i in range(len(side)) if side[i] == me]
        able = {sq[i]: i for i in own if st[i] == ABLE}
        seen, todo = {frm}, [frm]
        while todo:
            for n in D1[todo.pop()]:
                if n in able and n not in seen:
                    seen.add(n)
                    todo.append(n)
        for s in seen:
            if s != frm:
                out.append((HANDOFF, h, frm, s, -1, able[s], -1, -1, -1))
        dist = DIST[frm]
        for s, r in able.items():
            if r != h and dist[s] <= 4:
                for b in D1[s]:
                    if at[b] < 0 and b != free:
                        out.append((SHORT, h, frm, s, -1, r, -1, b, -1))
        near = 0
        for i in own:
            near |= NEAR[sq[i]]
        for b in USABLE_INTS:
            if not near >> b & 1 and at[b] < 0:
                out.append((LONG, h, frm, -1, -1, -1, -1, b, -1))

    def _recovery(self) -> list[Move]:
        """003 §10: the side to move's stand-ups and releases with a legal solution now."""
        out: list[Move] = []
        at, free, me = self.at, self.free, self.to_move
        for i in range(len(self.side)):
            if self.side[i] != me:
                continue
            s, state = self.sq[i], self.st[i]
            if state == DOWN:
                out.extend((STAND, i, s, d, -1, -1, -1, -1, -1) for d in D1[s] if at[d] < 0 and d != free)
            elif state == TOP and not self.formed >> s & 1:
                bottom = self.under[s]
                free_sq = [d for d in D1[s] if at[d] < 0 and d != free]
                keepers = (i, bottom) if i == self.holder else (-1,)
                out.extend((RELEASE, i, s, t, -1, bottom, b, k, -1)
                           for t in free_sq for b in free_sq if t != b for k in keepers)
        return out

    # -- making and unmaking ---------------------------------------------------------------------------------

    def make(self, m: Move) -> Undo:
        """Play move ``m`` (legal: from :meth:`generate`); returns what :meth:`unmake` needs."""
        k, i, frm, to, over, q, push, ball, land = m
        sq, st, wd = self.sq, self.st, self.wd
        undo: Undo = (self.holder, self.free, self.took, self.formed, self.pa, self.touchdown,
                                    (i, sq[i], st[i], wd[i]), None if q < 0 else (q, sq[q], st[q], wd[q]))
        if k == HANDOFF:
            self.holder = q
        elif k == SHORT or k == LONG:
            self.holder, self.free = -1, ball
        else:
            self._lift(i)
            if q >= 0:
                self._lift(q)
            self._make_piece(k, i, to, q, push, ball)
            self._place(i)
            if q >= 0:
                self._place(q)
        if k < STAND:
            self.pa -= 1
            h = self.holder
            if h >= 0 and sq[h] in ZONE[self.side[h]]:
                self.touchdown = self.side[h]
        return undo

    def _make_piece(self, k: int, i: int, to: int, q: int, push: int, ball: int) -> None:
        """The piece changes of a move that moves pieces (with :meth:`_lift` before and :meth:`_place` after)."""
        sq, st, wd = self.sq, self.st, self.wd
        if k == MOVE:
            sq[i] = to
            if to == self.free:
                self.holder, self.free = i, -1
                self.took |= 1 << i
        elif k == DODGE:
            st[q] = DOWN
            sq[i] = to
            if q == self.holder:
                self.holder = i
                self.took |= 1 << i
        elif k == TACTICAL:
            sq[i] = to
            sq[q], st[q] = push, DOWN
            if q == self.holder:
                self.holder, self.free = -1, ball
        elif k == BLOCK or k == PROTECT:
            wd[q], st[q] = st[q] == DOWN, BOTTOM
            sq[i], st[i] = to, TOP
            if q == self.holder:
                self.holder = i
            self.formed |= 1 << to
        elif k == STAND:
            sq[i], st[i] = to, ABLE
        else:  # RELEASE: the top to ``to``, the bottom to ``push`` as it was before the stack (003 §10)
            sq[i], st[i] = to, ABLE
            sq[q], st[q], wd[q] = push, DOWN if wd[q] else ABLE, False
            if i == self.holder:
                self.holder = ball

    def unmake(self, undo: Undo) -> None:
        """Put the board back as it was before the :meth:`make` that returned ``undo``."""
        holder, free, took, formed, pa, touchdown, a, b = undo
        saved = [a] if b is None else [a, b]
        for p in saved:
            self._lift(p[0])
        for i, s, state, was_down in saved:
            self.sq[i], self.st[i], self.wd[i] = s, state, was_down
        for p in saved:
            self._place(p[0])
        self.holder, self.free, self.took, self.formed = holder, free, took, formed
        self.pa, self.touchdown = pa, touchdown

    def can_end(self) -> bool:
        """May the phase be closed now: always in the action phase; in recovery once no task is left."""
        return not self.phase or not self._recovery()

    def end(self) -> tuple[int, int, int, int, int, int]:
        """Close the phase, as :func:`.rules.end_phase` (legal: :meth:`can_end`); returns what :meth:`unend`
        needs."""
        undo = (self.to_move, self.turn, self.pa, self.phase, self.formed, self.took)
        if self.phase == 0:
            self.phase, self.pa = 1, 0
        else:
            self.to_move, self.turn, self.pa, self.phase, self.formed, self.took = 1 - self.to_move, self.turn + 1, 2, 0, 0, 0
        return undo

    def unend(self, undo: tuple[int, int, int, int, int, int]) -> None:
        """Undo an :meth:`end`."""
        self.to_move, self.turn, self.pa, self.phase, self.formed, self.took = undo

    def perft(self, depth: int) -> int:
        """Leaves ``depth`` steps down: a node's children are its :meth:`generate` moves and closing the phase
        where that is legal (a finished game has none)."""
        if depth == 0:
            return 1
        if self.touchdown >= 0 or self.turn > TURN_LIMIT:
            return 0
        moves = self.generate()
        n = 0
        for m in moves:
            u = self.make(m)
            n += self.perft(depth - 1)
            self.unmake(u)
        if not self.phase or not moves:
            e = self.end()
            n += self.perft(depth - 1)
            self.unend(e)
        return n


__all__ = ["Board", "Move", "index"]
