"""BALL (003)'s stronger AI: an alpha-beta search over whole turns, the opponent's reply included, on the
make/unmake board (:mod:`.engine`), within a budget of nodes (never the clock), so play stays deterministic.

A *turn* of the search is one side's action phase (each ordinary action one step, closing the phase a step
too), then its recovery phase resolved greedily (each compulsory task the one that scores best for its side,
the first in the board's order on a tie), then the other side's turn. The leaves are scored by
:func:`.ai.score_parts` (one sum, zero-sum: what is good for one side is as bad for the other) where the last
searched turn's action phase ends; a touchdown ends the line at once. The AI's side takes the best line,
the opponent the worst for it, and a line that cannot beat what is already known is cut (alpha-beta).

Iterative deepening: one turn, then two (the opponent's reply), then three …, up to the strength's depth.
Each step counts one node per action or task made; when the budget runs out mid-iteration the AI keeps the
best line among the first moves this iteration searched to the end (the previous iteration's best is
searched first), else the previous iteration's line. Moves are tried in a fixed order: the best of the
previous iteration first, then the one that cut last time at the same level (a *killer*), then every other
in the board's order; ties keep the move met first, so closing the phase (doing nothing more) comes last.

Speed, the same search: moves are generated piece by piece as the search reaches them (a cut leaves the rest
ungenerated); on the last PA of the last turn, where every move ends in a leaf, a move whose score follows from
the position as it stands (an ordinary move, a pass, a contact that leaves the ball's holder alone) is scored
without being made (:func:`moved_scores`, :func:`passed_scores`, :func:`contact_scores`: the same values,
pinned against the made score on random walks); a recovery phase already resolved from the same position
plays the same tasks again without scoring them.

Card mode: the search plays no cards and converts no PA (the AI converts its unused PA after its line, as
the one-turn AI does); the opponent's cards are not foreseen.

>>> from .rules import standard_position
>>> found = Search(standard_position(), turns=1, budget=100_000).run()
>>> found.depth, len(found.actions) > 0
(1, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import chain

from .engine import ABLE, DIST, DODGE, LONG, MOVE, PROTECT, ROW, SHORT, SQUARES, STAND, TACTICAL, UNIT, ZONE, Board, Move, Undo
from .model import Action, Position
from .rules import ROWS, TURN_LIMIT

END: Move = (-1, -1, -1, -1, -1, -1, -1, -1, -1)
"""A line's step that closes the phase."""
WIN = 1000
"""A touchdown's score (the one-turn AI's ``达阵 ±1000``)."""


class OutOfNodes(Exception):
    """The budget of nodes ran out."""


@dataclass(frozen=True)
class Found:
    """A search's result: its value, the line (the AI's turn, then the expected replies), the depth searched."""

    value: int
    """The line's score for the side that searched: :func:`.ai.score_parts` of :attr:`leaf`."""
    line: tuple[Move, ...]
    depth: int
    """Turns searched to the end (1: the AI's own turn only)."""
    nodes: int
    """Nodes the whole search made."""
    actions: tuple[Action, ...]
    """The AI's own turn: its action phase and, if its line closes it, its recovery tasks."""
    replies: tuple[tuple[Action, ...], ...]
    """The turns that follow in the line (the opponent's expected reply, then …), each its actions."""
    leaf: Position
    """Where the line ends: the position the value scores."""
    steps: tuple[tuple[Position, Action], ...]
    """Every action and task of the line with the position it is played in (for its notation)."""


BALL: tuple[list[int], list[int]] = tuple(  # type: ignore[assignment]
    [20 + 10 * (ROW[at] - 1 if team == 0 else ROWS - ROW[at]) for at in range(SQUARES)] for team in (0, 1))
"""Each side's score for the ball on each square: 20, and 10 a row of :func:`.ai.progress`."""


def evaluate(b: Board, side: int) -> int:
    """:func:`.ai.score_parts`'s total for side ``side`` (0 ATK, 1 DEF) on the board, computed in place."""
    if b.touchdown >= 0:
        return WIN if b.touchdown == side else -WIN
    if b.turn > TURN_LIMIT:  # the defence held: DEF wins
        return WIN if side == 1 else -WIN
    sq, st, h = b.sq, b.st, b.holder
    if h >= 0:
        team = b.side[h]
        at = sq[h]
        score = BALL[team][at]
        reach = b.reach
        for j in b.members[1 - team]:
            if st[j] == ABLE and at in reach[j][sq[j]]:
                score -= 15  # the holder is threatened
                break
    else:  # a free ball: as :func:`_loose_value` (inline: the search's hottest loop)
        at = b.free
        dist, (m0, m1) = DIST[at], b.members
        n0 = n1 = 99  # each side's nearest able piece (inline: the search's hottest loop)
        for j in m0:
            if st[j] == ABLE:
                d = dist[sq[j]]
                if d < n0:
                    n0 = d
        for j in m1:
            if st[j] == ABLE:
                d = dist[sq[j]]
                if d < n1:
                    n1 = d
        if b.to_move == 0:
            team = 0 if n0 < n1 else 1
        else:
            team = 1 if n1 < n0 else 0
        score = BALL[team][at] - 10 - 5 * (n1 if team else n0)
    able = 3 * b.lead if side == 0 else -3 * b.lead
    return able + (score if team == side else -score)


def _loose_value(at: int, mine: int, theirs: int, mover: int, side: int, able: int) -> int:
    """:func:`evaluate` for side ``side`` of a free ball on ``at``, the side to move's nearest able piece ``mine``
    squares from it and the other side's ``theirs``, ``able`` the score of the able pieces: the side nearer to the
    ball (the side not to move on a tie, as :func:`.ai.score_parts`) has it, less 10 and 5 a square."""
    team, near = (mover, mine) if mine < theirs else (1 - mover, theirs)
    score = BALL[team][at] - 10 - 5 * near
    return able + (score if team == side else -score)


def moved_scores(b: Board, side: int, stands: bool = False) -> Callable[[int, int], int] | None:
    """:func:`evaluate` after an ordinary move of the side to move's piece ``i`` to square ``to`` (``stands``:
    a stand-up of its down piece ``i`` there), without making it — for any piece but the ball's holder and any
    square but the free ball's — as a function of ``(i, to)``; None where a move scores a touchdown (the
    holder already stands in its zone)."""
    sq, st, h, mover = b.sq, b.st, b.holder, b.to_move
    lead = b.lead + UNIT[mover] if stands else b.lead  # a move changes no piece's state
    able = 3 * lead if side == 0 else -3 * lead
    if h >= 0:
        team, at = b.side[h], sq[h]
        if at in ZONE[team]:
            return None
        score = BALL[team][at]
        clear, threat = (able + score, able + score - 15) if team == side else (able - score, able - score + 15)
        reach = b.reach
        threats = [j for j in b.members[1 - team] if st[j] == ABLE and at in reach[j][sq[j]]]
        if team == mover or len(threats) > 1:  # no threat comes or goes: the holder's side moves, or two threaten
            value = threat if threats else clear
            return lambda i, to: value
        other = -1 if not threats else threats[0]  # the one piece that threatens the holder, if any

        def opponent_moved(i: int, to: int) -> int:
            return threat if (other >= 0 and other != i) or at in reach[i][to] else clear
        return opponent_moved
    at, dist = b.free, DIST[b.free]
    near, first, second, nearest = 99, 99, 99, -1  # the opponent's nearest; the mover's two nearest
    for j in b.members[1 - mover]:
        if st[j] == ABLE and dist[sq[j]] < near:
            near = dist[sq[j]]
    for j in b.members[mover]:
        if st[j] == ABLE:
            d = dist[sq[j]]
            if d < first:
                first, second, nearest = d, first, j
            elif d < second:
                second = d

    def free_ball(i: int, to: int) -> int:
        n = second if i == nearest else first
        if dist[to] < n:
            n = dist[to]
        return _loose_value(at, n, near, mover, side, able)
    return free_ball


def contact_scores(b: Board, side: int) -> Callable[[int, int, int, int], int]:
    """:func:`evaluate` after a dodge, tactical dodge, block or protect that leaves the ball's holder alone
    (it neither acts nor is acted on), without making it, as a function of ``(i, to, a, c)``: piece ``i``
    (−1: none) ends able on ``to``, pieces ``a`` and ``c`` (−1: none) stand no longer able. Only where no
    such move scores a touchdown (:func:`moved_scores` is not None)."""
    sq, st, sides, h, mover = b.sq, b.st, b.side, b.holder, b.to_move

    def able(a: int, c: int) -> int:
        lead = b.lead - (UNIT[sides[a]] if a >= 0 and st[a] == ABLE else 0) \
            - (UNIT[sides[c]] if c >= 0 and st[c] == ABLE else 0)
        return 3 * lead if side == 0 else -3 * lead
    if h >= 0:
        team, at, reach = sides[h], sq[h], b.reach
        threats = [j for j in b.members[1 - team] if st[j] == ABLE and at in reach[j][sq[j]]]

        def held(i: int, to: int, a: int, c: int) -> int:
            threat = i >= 0 and sides[i] != team and at in reach[i][to]
            score = BALL[team][at] - (15 if threat or any(j != i and j != a and j != c for j in threats) else 0)
            return able(a, c) + (score if team == side else -score)
        return held
    at, dist = b.free, DIST[b.free]
    ranked = [sorted((dist[sq[j]], j) for j in members if st[j] == ABLE) for members in b.members]

    def loose(i: int, to: int, a: int, c: int) -> int:
        near = [next((d for d, j in ranked[s] if j != i and j != a and j != c), 99) for s in (0, 1)]
        if i >= 0 and dist[to] < near[sides[i]]:
            near[sides[i]] = dist[to]
        return _loose_value(at, near[mover], near[1 - mover], mover, side, able(a, c))
    return loose


def passed_scores(b: Board, side: int) -> Callable[[int], int]:
    """:func:`evaluate` after the side to move passes the ball (a short or long pass) to square ``to``,
    without making it, as a function of ``to``: a free ball there, every piece where it stands."""
    sq, st, mover = b.sq, b.st, b.to_move
    able = 3 * b.lead if side == 0 else -3 * b.lead
    squares = [[sq[j] for j in members if st[j] == ABLE] for members in b.members]

    def passed(to: int) -> int:
        dist = DIST[to]
        near = [min(map(dist.__getitem__, squares[0]), default=99), min(map(dist.__getitem__, squares[1]), default=99)]
        return _loose_value(to, near[mover], near[1 - mover], mover, side, able)
    return passed


class Search:
    """One search from a position in its action phase (see the module docstring)."""

    def __init__(self, pos: Position, turns: int, budget: int) -> None:
        """Search ``turns`` turns deep at most, within ``budget`` nodes."""
        self.pos, self.turns, self.budget = pos, turns, budget
        self.b = Board.of(pos)
        self.side = self.b.to_move
        self.nodes = 0
        self.killers: dict[tuple[int, int], Move] = {}
        """The move that last cut at each level (turns left, PA left)."""
        self.table: dict[tuple[int, ...], tuple[int, int, tuple[Move, ...]]] = {}
        """Turn starts searched: value, bound (0 exact, 1 at least, −1 at most) and line."""
        self.root_values: dict[Move, int] = {}
        """The previous iteration's value of each first move (the root's order in the next)."""
        self.best: tuple[Move, ...] = ()
        """The previous iteration's line: its moves are tried first."""
        self.recoveries: dict[tuple[int, ...], list[Move]] = {}
        """Recovery phases resolved: the tasks :meth:`recover` chose from each position (it is greedy: the same
        position, the same tasks)."""

    def run(self) -> Found:
        """Deepen turn by turn until the depth or the budget is reached; the deepest line found."""
        found: tuple[int, tuple[Move, ...], int] | None = None
        for depth in range(1, self.turns + 1):
            try:
                value, line, complete = self._root(depth)
            except OutOfNodes:
                break
            found = (value, line, depth)
            self.best = line
            if not complete or abs(value) >= WIN:
                break
        if found is None:  # not even one first move searched in the budget: no action, the position as it stands
            found = (evaluate(self.b, self.side), (), 0)
        return self._found(*found)

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfNodes

    def _ordered(self, ply: int, level: tuple[int, int]) -> Iterator[list[Move]]:
        """:meth:`.Board.generate`'s moves in batches: the previous line's move at this ply first, then the
        killer of this level, then each piece's in the board's order; a piece's are generated when its batch is
        reached (a cut leaves the rest ungenerated, and the board is back as it was each time)."""
        b = self.b
        killer = self.killers.get(level)
        first = self.best[ply] if ply < len(self.best) else None
        lead: list[Move] = []
        pieces: dict[int, list[Move]] = {}  # the moves of the pieces generated to find the lead's
        for m in (first, killer):
            if m is not None and m not in lead:
                moves = pieces[m[1]] = pieces.get(m[1]) or b.moves_of(m[1])
                if m in moves:
                    lead.append(m)
        yield lead
        for i in b.members[b.to_move]:
            moves = pieces.get(i) or b.moves_of(i)
            yield [m for m in moves if m not in lead] if lead else moves

    def _root(self, depth: int) -> tuple[int, tuple[Move, ...], bool]:
        """The root's best line at ``depth``; ``complete`` False when the budget cut it after some first moves."""
        best: tuple[int, tuple[Move, ...]] | None = None
        alpha = -10 * WIN
        moves = [*self.b.generate(), END]
        if self.root_values:  # the previous iteration's best first, then by its values (a stable sort)
            moves.sort(key=lambda m: -self.root_values.get(m, -10 * WIN))
        values: dict[Move, int] = {}
        try:
            for m in moves:
                value, line = self._child(m, depth, alpha, 10 * WIN, 0)
                values[m] = value
                if best is None or value > best[0]:
                    best = (value, (m, *line))
                    alpha = value
        except OutOfNodes:
            if best is None:
                raise
            return best[0], best[1], False
        assert best is not None
        self.root_values = values
        return best[0], best[1], True

    def _child(self, m: Move, turns: int, alpha: int, beta: int, ply: int) -> tuple[int, tuple[Move, ...]]:
        """The value and line below move ``m`` (``END``: closing the action phase)."""
        b = self.b
        if m is END:
            return self._close(turns, alpha, beta, ply)
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfNodes
        undo = b.make(m)
        try:
            if b.touchdown >= 0:
                return evaluate(b, self.side), ()
            if b.pa == 0:  # nothing left to do but close the phase
                value, line = self._close(turns, alpha, beta, ply + 1)
                return value, (END, *line)
            return self._node(turns, alpha, beta, ply + 1)
        finally:
            b.unmake(undo)

    def _node(self, turns: int, alpha: int, beta: int, ply: int) -> tuple[int, tuple[Move, ...]]:
        """A node in an action phase: the best (own side) or worst (the opponent) of its moves and closing."""
        if turns == 1 and self.b.pa == 1:
            return self._last(alpha, beta, ply)
        mine = self.b.to_move == self.side
        best: tuple[int, tuple[Move, ...]] | None = None
        level = (turns, self.b.pa)
        for batch in chain(self._ordered(ply, level), ([END],)):
            for m in batch:
                value, line = self._child(m, turns, alpha, beta, ply)
                if best is None or (value > best[0] if mine else value < best[0]):
                    best = (value, (m, *line))
                    if mine:
                        alpha = max(alpha, value)
                    else:
                        beta = min(beta, value)
                    if alpha >= beta:
                        if m is not END:
                            self.killers[level] = m
                        return best
        assert best is not None
        return best

    def _last(self, alpha: int, beta: int, ply: int) -> tuple[int, tuple[Move, ...]]:
        """:meth:`_node` on the last turn with 1 PA left, where every move ends in a leaf: the phase closes
        after it (its line ``(m, END)``), or a touchdown ends the game (``(m,)``). The nodes are counted in a
        local, written back on the way out."""
        b, side = self.b, self.side
        mine = b.to_move == side
        moved, h, free = moved_scores(b, side), b.holder, b.free
        passed: Callable[[int], int] | None = None
        contact: Callable[[int, int, int, int], int] | None = None
        best: Move | None = None
        best_value, scored = 0, False
        nodes, budget = self.nodes, self.budget
        try:
            for batch in self._ordered(ply, (1, 1)):
                for m in batch:
                    nodes += 1
                    if nodes > budget:
                        raise OutOfNodes
                    k = m[0]  # the score without making the move where the kind allows (the functions above)
                    if k == MOVE and moved is not None and m[1] != h and m[3] != free:
                        value, touchdown = moved(m[1], m[3]), False
                    elif k == LONG or k == SHORT:
                        passed = passed or passed_scores(b, side)
                        value, touchdown = passed(m[7]), False
                    elif DODGE <= k <= PROTECT and moved is not None and m[1] != h and m[5] != h:  # the holder apart
                        contact = contact or contact_scores(b, side)
                        if k <= TACTICAL:  # the dodger ends able on ``to``, the dodged goes down
                            value = contact(m[1], m[3], m[5], -1)
                        else:  # the stack's top and bottom stand no longer able
                            value = contact(-1, -1, m[1], m[5])
                        touchdown = False
                    else:
                        undo = b.make(m)
                        value, touchdown = evaluate(b, side), b.touchdown >= 0
                        b.unmake(undo)
                    if best is None or (value > best_value if mine else value < best_value):
                        best, best_value, scored = m, value, touchdown
                        if mine:
                            alpha = max(alpha, value)
                        else:
                            beta = min(beta, value)
                        if alpha >= beta:
                            self.killers[(1, 1)] = m
                            return value, (m,) if scored else (m, END)
        finally:
            self.nodes = nodes
        value = evaluate(b, side)  # closing the phase now
        if best is None or (value > best_value if mine else value < best_value):
            return value, (END,)
        return best_value, (best,) if scored else (best, END)

    def _close(self, turns: int, alpha: int, beta: int, ply: int) -> tuple[int, tuple[Move, ...]]:
        """Close the action phase: a leaf on the last turn, else the greedy recovery and the next turn."""
        b = self.b
        if turns == 1:
            return evaluate(b, self.side), ()
        undo_end = b.end()
        tasks: list[tuple[Move, Undo]] = []
        undo_next = None
        line: tuple[Move, ...] = ()
        try:  # the budget may run out anywhere below: the board is put back all the same
            self.recover(done=tasks)
            undo_next = b.end()
            if b.turn > TURN_LIMIT:
                value = evaluate(b, self.side)
            else:
                value, line = self._turn(turns - 1, alpha, beta, ply + 1 + len(tasks))
        finally:
            if undo_next is not None:
                b.unend(undo_next)
            for _, undo in reversed(tasks):
                b.unmake(undo)
            b.unend(undo_end)
        return value, (*(t for t, _ in tasks), END, *line)

    def _turn(self, turns: int, alpha: int, beta: int, ply: int) -> tuple[int, tuple[Move, ...]]:
        """A turn's start, looked up first among the turn starts already searched (lines that reach the same
        position by moves in another order): an exact value, or a bound that already decides."""
        b = self.b
        key = (turns, b.turn, b.holder, b.free, *b.sq, *b.st, *b.wd)
        seen = self.table.get(key)
        if seen is not None:
            value, bound, line = seen
            if bound == 0 or (bound > 0 and value >= beta) or (bound < 0 and value <= alpha):
                return value, line
        value, line = self._node(turns, alpha, beta, ply)
        self.table[key] = (value, -1 if value <= alpha else 1 if value >= beta else 0, line)
        return value, line

    def recover(self, counted: bool = True, done: list[tuple[Move, Undo]] | None = None) -> list[tuple[Move, Undo]]:
        """Resolve the recovery phase greedily for the side to move; the tasks made and their undos, added to
        ``done`` as they are made (each a node of the budget when ``counted``: not once the search is over)."""
        b = self.b
        done = [] if done is None else done
        start = len(done)
        key = (b.turn, b.to_move, b.holder, b.free, b.formed, *b.sq, *b.st, *b.wd)
        chosen = self.recoveries.get(key)
        for t in chosen if chosen is not None else self._greedy():
            if counted:
                self._tick()
            done.append((t, b.make(t)))
        if chosen is None:
            self.recoveries[key] = [t for t, _ in done[start:]]
        return done

    def _greedy(self) -> Iterator[Move]:
        """The recovery tasks of the side to move, each the best-scoring for it (the first on a tie), chosen
        one by one as the caller makes them."""
        b = self.b
        while tasks := b.generate():
            mover, best, best_value = b.to_move, tasks[0], 0
            if len(tasks) > 1:  # a single task needs no score
                stood = moved_scores(b, mover, stands=True)
                for k, t in enumerate(tasks):
                    if stood is not None and t[0] == STAND and t[1] != b.holder:
                        value = stood(t[1], t[3])
                    else:
                        undo = b.make(t)
                        value = evaluate(b, mover)
                        b.unmake(undo)
                    if k == 0 or value > best_value:
                        best, best_value = t, value
            yield best

    def _found(self, value: int, line: tuple[Move, ...], depth: int) -> Found:
        """Replay ``line`` on the board (it is left there): the AI's own turn, the replies, the leaf, each step.

        Two closings make a turn (the action phase's, then the recovery's); a line's last ``END`` only marks
        the leaf. A line that stops inside the AI's turn (one turn searched) gets its greedy recovery."""
        b = self.b
        turns: list[list[Action]] = [[]]
        steps: list[tuple[Position, Action]] = []
        closes = 0
        for k, m in enumerate(line):
            if m is END:
                if k == len(line) - 1:
                    break
                b.end()
                closes += 1
                if closes % 2 == 0:
                    turns.append([])
                continue
            steps.append((b.position(), b.action(m)))
            turns[-1].append(b.action(m))
            b.make(m)
        leaf = b.position()
        if closes == 0 and not b.over():  # one turn searched: the AI's recovery, after its leaf
            b.end()
            for t, _ in self.recover(counted=False):
                turns[0].append(b.action(t))
        return Found(value, tuple(line), depth, self.nodes, tuple(turns[0]),
                     tuple(tuple(t) for t in turns[1:] if t), leaf, tuple(steps))
