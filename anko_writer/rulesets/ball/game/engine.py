"""BALL (003)'s fast board for search and perft: one mutable board, made and unmade in place.

The rules are :mod:`.rules`'s, action for action (the tests compare both generators on perft counts and on
random walks); this module only stores them differently: squares are ints (``col + 13 × (row − 1)``), the
moves of each piece type from each square, the diagonal neighbours and the distances are tables built once,
pieces are parallel lists indexed by their place in :attr:`.model.Position.pieces`, and an action is a plain
tuple ``(kind, piece, frm, to, over, target, push_to, ball_to, land)`` (−1 for none). :meth:`Board.make`
returns what :meth:`Board.unmake` needs to put the board back, so a search copies nothing; the board also keeps
ATK's lead in able pieces (:attr:`Board.lead`, for the search's score) as it makes and unmakes.

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
Undo = tuple[Move, int, int, int, int, int, int, int, bool]
"""What :meth:`Board.unmake` needs: the move, then the holder, free ball, took, formed, PA, touchdown and
:attr:`Board.lead` before it, and the target's ``was_down`` (False without a target)."""


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


UNIT = (1, -1)
"""A piece of side 0 (ATK) counts +1 in :attr:`Board.lead`, one of side 1 (DEF) −1."""


class Board:
    """A position as mutable ints: made and unmade in place (see the module docstring)."""

    __slots__ = ("ids", "side", "kind", "two", "reach", "members", "sq", "st", "wd", "at", "under", "holder", "free",
                 "to_move", "turn", "pa", "phase", "formed", "took", "touchdown", "pe", "card_mode", "lead")

    def __init__(self, pieces: Sequence[tuple[str, int, str, int, int, bool]], holder: int, free: int, to_move: int,
                 turn: int, pa: int, phase: int, formed: int, took: int, touchdown: int,
                 pe: dict[str, int], card_mode: bool) -> None:
        """A board from its pieces ``(id, side, type, square, state, was_down)`` and its turn's state."""
        self.ids = [p[0] for p in pieces]
        self.side = [p[1] for p in pieces]
        self.kind = [p[2] for p in pieces]
        self.two = [TWO[p[2]] for p in pieces]
        self.reach = [REACH[p[2]] for p in pieces]
        """Each piece's :data:`REACH` by square."""
        self.members = (tuple(i for i, p in enumerate(pieces) if p[1] == 0),
                        tuple(i for i, p in enumerate(pieces) if p[1] == 1))
        """Each side's pieces, in board order."""
        self.sq = [p[3] for p in pieces]
        self.st = [p[4] for p in pieces]
        self.wd = [p[5] for p in pieces]
        self.at = [-1] * SQUARES
        """The piece on each square (a stack's top), −1 for none."""
        self.under = [-1] * SQUARES
        """A stack's bottom piece on each square, −1 for none."""
        for i in range(len(pieces)):
            (self.under if self.st[i] == BOTTOM else self.at)[self.sq[i]] = i
        self.lead = sum(UNIT[p[1]] for p in pieces if p[4] == ABLE)
        """ATK's able pieces minus DEF's, kept by :meth:`make` and :meth:`unmake`."""
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
        st, took, holder = self.st, self.took, self.holder
        for i in self.members[self.to_move]:
            if st[i] == ABLE and not took >> i & 1:  # as :meth:`_piece`, inline: perft's hottest loop
                self._moves(i, out)
                if i == holder:
                    self._ball(i, out)
        return out

    def moves_of(self, i: int) -> list[Move]:
        """The legal actions of piece ``i`` (−1 or another side's piece: none), in :meth:`generate`'s order:
        :meth:`generate` is every piece's in board order."""
        out: list[Move] = []
        if 0 <= i < len(self.side) and self.side[i] == self.to_move and not self.phase and self.pa >= 1 \
                and not self.over():
            self._piece(i, out)
        return out

    def _piece(self, i: int, out: list[Move]) -> None:
        """The actions of the side to move's piece ``i``: none once it took the ball this turn (003 §9)."""
        if self.st[i] == ABLE and not self.took >> i & 1:
            self._moves(i, out)
            if i == self.holder:
                self._ball(i, out)

    def _moves(self, i: int, out: list[Move]) -> None:
        """003 §4–§7: moves, dodges, tactical dodges, blocks and protects of able piece ``i``."""
        at, under, side, st, free = self.at, self.under, self.side, self.st, self.free
        me, frm = side[i], self.sq[i]
        append = out.append
        for d in D1[frm]:
            q = at[d]
            if q < 0:
                append((MOVE, i, frm, d, -1, -1, -1, -1, -1))
            elif under[d] < 0:
                append((PROTECT if side[q] == me else BLOCK, i, frm, d, -1, q, -1, -1, -1))
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
                append((MOVE, i, frm, d, mid, -1, -1, -1, -1))
            elif side[q] != me and st[q] == ABLE and under[d] < 0:
                out += [(DODGE, i, frm, off, mid, q, -1, -1, d) for off in D1[d] if at[off] < 0 and off != free]

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
        at, st, sq, free = self.at, self.st, self.sq, self.free
        own = self.members[self.side[h]]
        frm = sq[h]
        able = {sq[i]: i for i in own if st[i] == ABLE}
        seen, todo = {frm}, [frm]
        while todo:
            for n in D1[todo.pop()]:
                if n in able and n not in seen:
                    seen.add(n)
                    todo.append(n)
        out += [(HANDOFF, h, frm, s, -1, able[s], -1, -1, -1) for s in seen if s != frm]
        dist = DIST[frm]
        for s, r in able.items():
            if r != h and dist[s] <= 4:
                out += [(SHORT, h, frm, s, -1, r, -1, b, -1) for b in D1[s] if at[b] < 0 and b != free]
        near = 0
        for i in own:
            near |= NEAR[sq[i]]
        out += [(LONG, h, frm, -1, -1, -1, -1, b, -1) for b in USABLE_INTS if not near >> b & 1 and at[b] < 0]

    def _recovery(self) -> list[Move]:
        """003 §10: the side to move's stand-ups and releases with a legal solution now."""
        out: list[Move] = []
        at, free, st, sq = self.at, self.free, self.st, self.sq
        for i in self.members[self.to_move]:
            s, state = sq[i], st[i]
            if state == DOWN:
                out += [(STAND, i, s, d, -1, -1, -1, -1, -1) for d in D1[s] if at[d] < 0 and d != free]
            elif state == TOP and not self.formed >> s & 1:
                bottom = self.under[s]
                free_sq = [d for d in D1[s] if at[d] < 0 and d != free]
                keepers = (i, bottom) if i == self.holder else (-1,)
                out += [(RELEASE, i, s, t, -1, bottom, b, k, -1)
                        for t in free_sq for b in free_sq if t != b for k in keepers]
        return out

    # -- making and unmaking ---------------------------------------------------------------------------------

    def make(self, m: Move) -> Undo:
        """Play move ``m`` (legal: from :meth:`generate`); returns what :meth:`unmake` needs."""
        k, i, frm, to, _, q, _, ball, _ = m
        undo = (m, self.holder, self.free, self.took, self.formed, self.pa, self.touchdown, self.lead,
                q >= 0 and self.wd[q])
        if k == MOVE:
            at = self.at
            at[frm] = -1
            at[to] = i
            self.sq[i] = to
            if to == self.free:
                self.holder, self.free = i, -1
                self.took |= 1 << i
        elif k == LONG or k == SHORT:
            self.holder, self.free = -1, ball
        elif k == HANDOFF:
            self.holder = q
        else:
            self._contact(m)
        if k < STAND:
            self.pa -= 1
            h = self.holder
            if h >= 0 and self.sq[h] in ZONE[self.side[h]]:
                self.touchdown = self.side[h]
        return undo

    def _contact(self, m: Move) -> None:
        """:meth:`make` of the moves that change a piece's state: dodges, tactical dodges, blocks, protects,
        stand-ups and releases."""
        k, i, frm, to, over, q, push, ball, _ = m
        at, sq, st, side = self.at, self.sq, self.st, self.side
        at[frm] = -1
        sq[i] = to
        if k == DODGE:  # i steps off the dodged q's square; q goes down (003 §5)
            at[to] = i
            st[q] = DOWN
            self.lead -= UNIT[side[q]]
            if q == self.holder:
                self.holder = i
                self.took |= 1 << i
        elif k == TACTICAL:
            at[over] = -1
            at[to] = i
            at[push] = q
            sq[q], st[q] = push, DOWN
            self.lead -= UNIT[side[q]]
            if q == self.holder:
                self.holder, self.free = -1, ball
        elif k == BLOCK or k == PROTECT:
            at[to] = i
            self.under[to] = q
            self.lead -= UNIT[side[i]] + (UNIT[side[q]] if st[q] == ABLE else 0)
            self.wd[q], st[q] = st[q] == DOWN, BOTTOM
            st[i] = TOP
            if q == self.holder:
                self.holder = i
            self.formed |= 1 << to
        elif k == STAND:
            at[to] = i
            st[i] = ABLE
            self.lead += UNIT[side[i]]
        else:  # RELEASE: the top to ``to``, the bottom to ``push`` as it was before the stack (003 §10)
            self.under[frm] = -1
            at[to] = i
            at[push] = q
            st[i] = ABLE
            sq[q], st[q] = push, DOWN if self.wd[q] else ABLE
            self.lead += UNIT[side[i]] + (0 if self.wd[q] else UNIT[side[q]])
            self.wd[q] = False
            if i == self.holder:
                self.holder = ball

    def unmake(self, undo: Undo) -> None:
        """Put the board back as it was before the :meth:`make` that returned ``undo``."""
        m, self.holder, self.free, self.took, self.formed, self.pa, self.touchdown, self.lead, was_down = undo
        k = m[0]
        if k == MOVE:
            at, i = self.at, m[1]
            at[m[3]] = -1
            at[m[2]] = i
            self.sq[i] = m[2]
        elif k < HANDOFF or k > LONG:
            self._uncontact(m, was_down)

    def _uncontact(self, m: Move, was_down: bool) -> None:
        """:meth:`unmake` of a :meth:`_contact` move (``was_down``: the target's ``was_down`` before it)."""
        k, i, frm, to, over, q, push, _, _ = m
        at, sq, st = self.at, self.sq, self.st
        if k == DODGE:
            at[to] = -1
            st[q] = ABLE
        elif k == TACTICAL:
            at[push] = -1
            at[to] = -1
            at[over] = q
            sq[q], st[q] = over, ABLE
        elif k == BLOCK or k == PROTECT:
            self.under[to] = -1
            at[to] = q
            st[q] = DOWN if self.wd[q] else ABLE  # a block's target keeps in ``was_down`` whether it was down
            self.wd[q] = was_down
            st[i] = ABLE
        elif k == STAND:
            at[to] = -1
            st[i] = DOWN
        else:  # RELEASE
            at[to] = -1
            at[push] = -1
            st[i] = TOP
            self.under[frm] = q
            sq[q], st[q], self.wd[q] = frm, BOTTOM, was_down
        at[frm] = i
        sq[i] = frm

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
