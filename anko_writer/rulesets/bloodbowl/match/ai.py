"""The coaches: the six actions as recorded steps (:class:`Actions`) and an AI that plays them (:class:`AI`).

The AI decides by rules a chapter can state, in this order each team turn:

1. the carrier scores if he can reach the end zone with no die and the clock says now (the race plans of
   :mod:`.plans`: behind, the last turn, or an opponent could reach him);
2. if the enemy holds the ball, the best blitzer blitzes the carrier (up to two risky rolls);
3. the plan's ``blitz_first`` target, else the best blitz with two or more dice for us and no risky roll;
4. every block with two or three dice we choose (three before two);
5. a loose ball is picked up by the player with the fewest risky rolls and the best pick-up target;
6. our carrier, by the plan: a pass or hand-off to a team-mate who then scores, a pass past the line
   (``pass`` plans), a run in with one risky roll (three on the last turn), a wait a square short of the
   line when the clock says later, else the most forward safe square (``cage``: one four free team-mates
   can cage; others: off the sidelines);
7. team-mates form a cage on the carrier's four diagonals, receivers of ``pass`` plans get open, the rest
   advance (or close on the enemy carrier or the loose ball);
8. the foul that pays (every plan); bash and kill-the-thrower plans then take one-die blocks;
9. prone players stand up.

Ties are broken by player id, so the same position always gives the same choice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ....dice import Dice
from . import plans, rules
from .model import ATTACKS, Player, Square, State, adjacent, distance, forward, neighbours, on_pitch, other
from .paths import Board, Key, Reach, best_approach, block_odds, least, odds_of, path_to, reach, tz_map
from .sheets import Side

CAGE_MATES = 4
"""Free team-mates within three squares a cage needs around a square the carrier goes to."""


class Actions:
    """The six actions of 004 §1 as recorded steps: each appends ``{player, kind, path, rolls, turnover}``."""

    def __init__(self, st: State, dice: Dice, out: list[dict[str, object]]) -> None:
        self.st, self.dice, self.out = st, dice, out

    def _run(self, p: Player, kind: str, body: Callable[[list[list[int]]], None], target: str | None = None,
             to: Square | None = None) -> bool:
        """Stand up if prone, run the action's body, record it (with the target player of a block, blitz,
        hand-off or foul and the target square of a pass); False if the turn ended."""
        st = self.st
        assert p.sq is not None and not p.acted
        st.rolls = []
        p.acted = True
        path: list[list[int]] = [list(p.sq)]
        if kind == "blitz":
            st.flags.blitz = True
        elif kind == "pass":
            st.flags.pass_ = True
        elif kind == "handoff":
            st.flags.handoff = True
        elif kind == "foul":
            st.flags.foul = True
        had = st.ball.carrier
        stood = True
        if p.state == "prone":
            stood = rules.stand_up(st, self.dice, p)
        if stood and p.state == "standing" and rules.action_check(st, self.dice, p, kind):
            body(path)
        rec: dict[str, object] = {"player": p.id, "kind": kind, "path": path, "rolls": st.rolls,
                                  "turnover": st.turnover}
        held = st.ball_sq()
        rec["ball"] = {"before": had, "carrier": st.ball.carrier, "square": list(held) if held else None}
        if target is not None:
            rec["target"] = target
        if to is not None:
            rec["to"] = list(to)
        self.out.append(rec)
        return st.turnover is None

    def _walk(self, p: Player, squares: list[Square], path: list[list[int]]) -> bool:
        """Step along ``squares``, noting each square reached."""
        for sq in squares:
            if p.moved >= p.ma + 2:
                return False
            ok = rules.step(self.st, self.dice, p, sq)
            if p.sq is not None:
                path.append(list(p.sq))
            if not ok or self.st.turnover is not None or p.state != "standing":
                return False
        return True

    def move(self, p: Player, squares: list[Square]) -> bool:
        """Move (004 §1 action 1), standing up first if prone."""
        return self._run(p, "move", lambda path: None if self._walk(p, squares, path) else None)

    def block(self, p: Player, target: Player) -> bool:
        """Block (004 §1 action 2): not by a player who stood up this turn (004 §4)."""
        if p.state != "standing":
            raise ValueError(f"{p.id} is not standing and may not block")
        return self._run(p, "block", lambda path: self._block(p, target, path), target.id)

    def _block(self, p: Player, target: Player, path: list[list[int]]) -> None:
        rules.block(self.st, self.dice, p, target)
        if p.sq is not None:
            path.append(list(p.sq))

    def blitz(self, p: Player, squares: list[Square], target: Player) -> bool:
        """Blitz (004 §1 action 3, once per team turn): move, then block for one square of movement."""
        if self.st.flags.blitz:
            raise ValueError("the team has already blitzed this turn")

        def body(path: list[list[int]]) -> None:
            if not self._walk(p, squares, path):
                return
            p.moved += 1
            if p.moved > p.ma:
                assert p.sq is not None
                if not rules.gfi(self.st, self.dice, p, p.sq):
                    return
            if target.standing and target.sq is not None and p.sq is not None and adjacent(p.sq, target.sq):
                self._block(p, target, path)
        return self._run(p, "blitz", body, target.id)

    def pass_(self, p: Player, squares: list[Square], to: Square) -> bool:
        """Pass (004 §1 action 4, once per team turn): move, then throw; no moving after."""
        if self.st.flags.pass_:
            raise ValueError("the team has already passed this turn")

        def body(path: list[list[int]]) -> None:
            if self._walk(p, squares, path) and self.st.ball.carrier == p.id:
                rules.throw(self.st, self.dice, p, to)
        return self._run(p, "pass", body, to=to)

    def handoff(self, p: Player, squares: list[Square], to: Player) -> bool:
        """Hand-off (004 §1 action 5, once per team turn): move, then hand to an adjacent team-mate."""
        if self.st.flags.handoff:
            raise ValueError("the team has already handed off this turn")

        def body(path: list[list[int]]) -> None:
            if self._walk(p, squares, path) and self.st.ball.carrier == p.id and to.standing:
                assert p.sq is not None and to.sq is not None
                if adjacent(p.sq, to.sq):
                    rules.hand_off(self.st, self.dice, p, to)
        return self._run(p, "handoff", body, to.id)

    def foul(self, p: Player, squares: list[Square], victim: Player) -> bool:
        """Foul (004 §1 action 6, once per team turn): move, then foul a prone or stunned opponent."""
        if self.st.flags.foul:
            raise ValueError("the team has already fouled this turn")

        def body(path: list[list[int]]) -> None:
            if self._walk(p, squares, path) and victim.sq is not None and p.sq is not None \
                    and adjacent(p.sq, victim.sq):
                rules.foul(self.st, self.dice, p, victim)
        return self._run(p, "foul", body, victim.id)


class AI:
    """One side's coach for one team turn (see the module docstring for the order of decisions)."""

    def __init__(self, st: State, dice: Dice, acts: Actions, side: Side) -> None:
        self.st, self.dice, self.acts, self.side = st, dice, acts, side
        self.plan = st.plans.get(side, {})
        self.style = self.plan.get("style", "cage")

    # ------------------------------------------------------------ helpers
    def mine(self) -> list[Player]:
        """Our players on the pitch who may still act, by id."""
        return sorted((p for p in self.st.on_field(self.side) if not p.acted and p.state in ("standing", "prone")),
                      key=lambda p: p.id)

    def live(self) -> bool:
        """The turn goes on."""
        return self.st.turnover is None and self.st.touchdown is None

    def last_turn(self) -> bool:
        """Our eighth turn of the half."""
        return self.st.turn[self.side] >= 8

    def progress(self, sq: Square) -> int:
        """Squares still to go to our end zone from ``sq``."""
        return abs(ATTACKS[self.side] - sq[0])

    # ------------------------------------------------------------ the turn
    def turn(self, free_moves: bool = False) -> None:
        """Play the team turn (``free_moves``: the kick-off Blitz event, moves only)."""
        if free_moves:
            self.support()
            return
        steps: list[Callable[[], None]] = [self.score, self.blitz_carrier, self.blitz_any, self.safe_blocks,
                                           self.pick_up, self.carrier_moves, self.support, self.risky,
                                           self.stand_up]
        for fn in steps:
            if not self.live():
                return
            fn()

    def score(self) -> None:
        """1. Score with no die if the carrier can and the clock says now (:func:`.plans.score_now`)."""
        c = self.st.carrier()
        if c is None or c.side != self.side or c.acted or c.state != "standing" or not plans.score_now(self):
            return
        self.try_score(c, 0)

    def try_score(self, c: Player, max_rolls: int) -> bool:
        """Walk the carrier into the end zone with at most ``max_rolls`` risky rolls."""
        r = reach(self.st, c, max_rolls)
        ends = [sq for sq in r if sq[0] == ATTACKS[self.side]]
        if not ends:
            return False
        best = min(ends, key=lambda s: (r[s][0], r[s][1], s))
        self.acts.move(c, path_to(r, best))
        return True

    def blitz_carrier(self) -> None:
        """2. Blitz the enemy carrier (up to two risky rolls)."""
        c = self.st.carrier()
        if c is not None and c.side != self.side and c.standing and not self.st.flags.blitz:
            self.blitz_at([c], 2, -1.0)

    def blitz_any(self) -> None:
        """3. The plan's blitz_first target, else the best blitz with 2+ dice for us and no risky roll."""
        if self.st.flags.blitz:
            return
        first = self.plan.get("blitz_first")
        enemies = [q for q in self.st.on_field(other(self.side)) if q.standing]
        if first:
            tgt = [q for q in enemies if q.id == first]
            if tgt and self.blitz_at(tgt, 0, 0.5):
                return
        if self.style == "kill_thrower":
            throwers = [q for q in enemies if q.has("pass")]
            if throwers and self.blitz_at(throwers, 0, 0.5):
                return
        self.blitz_at(enemies, 0, 2.0)

    def blitz_at(self, targets: list[Player], max_rolls: int, min_odds: float) -> bool:
        """Blitz the best of ``targets`` (:meth:`blitz_choice`)."""
        choice = self.blitz_choice(targets, max_rolls, min_odds)
        if choice is None:
            return False
        self.acts.blitz(*choice)
        return True

    def blitz_choice(self, targets: list[Player], max_rolls: int, min_odds: float
                     ) -> tuple[Player, list[Square], Player] | None:
        """The best blitz at ``targets`` with at most ``max_rolls`` risky rolls and odds at least ``min_odds``:
        most dice for us, then fewest rolls, then ids; the blitzer, his path and the target."""
        st = self.st
        board = Board(st)

        tz = board.tz(self.side)
        # (mover, target) → the best odds and the fewest rolls he could blitz with, his strength with his
        # assists, the target's helpers from each square beside him the mover could block from (empty, or his)
        odds: dict[tuple[str, str], tuple[float, int, int, dict[Square, int]]] = {}

        def pairs() -> Iterator[tuple[Player, Player]]:
            for p in self.mine():
                if p.state != "standing" or p.moved or st.ball.carrier == p.id or p.sq is None:
                    continue
                px, py, far = p.sq[0], p.sq[1], p.ma + 2
                for t in targets:
                    # only targets he can get beside (MA + 1 squares) with odds that could be good enough
                    if t.sq is None or abs(t.sq[0] - px) > far or abs(t.sq[1] - py) > far \
                            or board.best_odds(p, t) < min_odds:
                        continue
                    each = {sq: board.against(p, t, sq) for sq in neighbours(t.sq)
                            if sq not in st.grid or sq == p.sq}
                    if not each:
                        continue
                    d = distance(p.sq, t.sq)
                    # as many steps as squares away less one: each past MA a GFI, the blitz's block one more
                    # past MA, and a dodge out of a tackle zone if he must move
                    rolls = max(0, d - 1 - p.ma) + (d > p.ma) + (d >= 2 and p.sq in tz)
                    strength = p.st + board.assists(p, t)
                    hi = odds_of(*rules.block_dice(strength, t.st + min(each.values())))
                    if hi >= min_odds and rolls <= max_rolls:
                        odds[p.id, t.id] = (hi, rolls, strength, each)
                        yield p, t

        def bound(p: Player, t: Player) -> Key:
            hi, rolls, _, _ = odds[p.id, t.id]
            return (-hi, rolls, p.id, t.id)

        def key(p: Player, t: Player, sq: Square, got: tuple[int, int, Square | None]) -> Key | None:
            rolls = got[0] + (1 if got[1] + 1 > p.ma else 0)
            if rolls > max_rolls:
                return None
            _, _, strength, each = odds[p.id, t.id]
            o = odds_of(*rules.block_dice(strength, t.st + each[sq]))  # board.odds(p, t, sq)
            return None if o < min_odds else (-o, rolls, p.id, t.id)

        return best_approach(board, pairs(), max_rolls, 1, bound, key)

    def safe_blocks(self) -> None:
        """4. Every block with 2 or 3 dice we choose, three-dice blocks first."""
        while self.live():
            cands = []
            board = Board(self.st)
            for p in self.mine():
                if p.state != "standing" or self.st.ball.carrier == p.id:
                    continue
                for q in self.st.marked_by(p):
                    o = board.odds(p, q)
                    if o >= 2:
                        cands.append((-o, p.id, q.id, p, q))
            if not cands:
                return
            cands.sort(key=lambda c: c[:3])
            self.acts.block(cands[0][3], cands[0][4])

    def pick_up(self) -> None:
        """5. Pick up a loose ball: fewest risky rolls, best pick-up, fewest steps."""
        st = self.st
        if st.ball.carrier is not None or st.ball.sq is None:
            return
        ball = st.ball.sq
        if ball in st.grid:
            return
        board = Board(st)
        tz = st.tackle_zones(ball, self.side)
        rolls = 2 if self.last_turn() else 1

        def bound(p: Player) -> tuple[int, int, int, str]:
            assert p.sq is not None  # no rolls, the pick-up, as many steps as squares away
            return (0, -(p.ag - tz) - (1 if p.has("sure_hands") else 0), distance(p.sq, ball), p.id)

        def exact(p: Player) -> tuple[tuple[int, int, int, str], tuple[Player, Reach]] | None:
            r = board.reach(p, rolls, through_ball=True)
            if ball not in r:
                return None
            return (r[ball][0], -(p.ag - tz) - (1 if p.has("sure_hands") else 0), r[ball][1], p.id), (p, r)

        choice = least(self.mine(), bound, exact)
        if choice is None:
            return
        p, r = choice
        self.acts.move(p, path_to(r, ball))

    def carrier_moves(self) -> None:
        """6. The carrier, by the race plan (:mod:`.plans`): a pass or hand-off to a scorer when the clock
        says score, a pass past the line, a run into the end zone on the last turn, a wait a square short of
        it when ahead with turns left, else the safest forward square (behind the cage's front)."""
        c = self.st.carrier()
        if c is None or c.side != self.side or c.state != "standing" or not self.live() or c.acted:
            return
        now = plans.score_now(self)
        passing = self.style in plans.PASS_STYLES
        if now and (passing or self.last_turn()) and plans.scoring_pass(self, c):
            return
        if now and plans.handoff_scorer(self, c, 3 if self.last_turn() else 0):
            return
        if passing and plans.advance_pass(self, c):
            return
        if c.acted or not self.live():
            return
        if now and self.try_score(c, 3 if self.last_turn() else plans.SCORE_ROLLS):
            return
        wait = None if now else plans.stall_square(self, c)
        if wait is not None:
            if wait != c.sq:
                self.acts.move(c, path_to(reach(self.st, c, 0, moves=c.ma), wait))
            return
        if not now and self.try_score(c, 0):
            return
        assert c.sq is not None
        marked = self.st.tackle_zones(c.sq, self.side) > 0
        board = Board(self.st)
        r = board.reach(c, 1 if marked else 0)
        limit = self.front() if self.style in plans.CAGE_STYLES else None
        best_sq = min(r, key=self._carrier_cost(board, r, limit))
        path = path_to(r, best_sq)
        if path:
            self.acts.move(c, path)

    def front(self) -> int:
        """How far forward the carrier may go in a cage: one square behind our most advanced team-mate."""
        xs = [self.progress(q.sq) for q in self.st.on_field(self.side) if q.standing and q.sq is not None
              and self.st.ball.carrier != q.id]
        return (min(xs) + 1) if xs else 0

    def covered(self, s: Square) -> bool:
        """In a cage: enough free team-mates (unmarked, standing, yet to act) within three squares of ``s`` to
        fill its diagonals (:data:`CAGE_MATES`; all of them when fewer are free)."""
        free = self._free_mates(Board(self.st))
        near = sum(1 for x, y in free if max(abs(x - s[0]), abs(y - s[1])) <= 3)
        return near >= min(CAGE_MATES, len(free))

    def _free_mates(self, board: Board) -> list[Square]:
        """The squares of :meth:`covered`'s free team-mates."""
        tz = board.tz(self.side)
        return [q.sq for q in self.mine() if q.state == "standing" and q.sq is not None and not q.moved
                and self.st.ball.carrier != q.id and not tz.get(q.sq, 0)]

    def carrier_square_cost(self, s: Square, r: Reach, limit: int | None) -> tuple[int, ...]:
        """Risky rolls and tackle zones first; in a cage, a square the free team-mates can cage, then progress,
        the sidelines kept away, enemies within two squares; else the sidelines, progress, the enemies near."""
        return self._carrier_cost(Board(self.st), r, limit)(s)

    def _carrier_cost(self, board: Board, r: Reach, limit: int | None) -> Callable[[Square], tuple[int, ...]]:
        """:meth:`carrier_square_cost` on ``board``, its parts that do not depend on the square found once."""
        tz = board.tz(self.side)
        enemies = board.standing(other(self.side))
        end = ATTACKS[self.side]
        free = self._free_mates(board) if limit is not None else []
        need = min(CAGE_MATES, len(free))

        def cost(s: Square) -> tuple[int, ...]:
            x, y = s
            near = sum(1 for ex, ey in enemies if abs(ex - x) <= 2 and abs(ey - y) <= 2)
            prog = abs(end - x)
            edge = int(y <= 2 or y >= 14)
            if limit is not None:
                covered = sum(1 for fx, fy in free if abs(fx - x) <= 3 and abs(fy - y) <= 3) >= need
                return (r[s][0], tz.get(s, 0), int(not covered), prog, edge, near, r[s][1], x, y)
            return (r[s][0], tz.get(s, 0), edge, prog, near, r[s][1], x, y)
        return cost

    def support(self) -> None:
        """7. Cage the carrier; the others advance with him, close on the enemy carrier or the loose ball."""
        st = self.st
        c = st.carrier()
        if c is not None and c.side == self.side and c.sq is not None:
            self.cage(c)
            if self.style in plans.PASS_STYLES:
                plans.get_open(self, c)
        board = Board(st)
        for p in self.mine():
            if not self.live():
                return
            tz = board.tz(self.side)
            if p.state != "standing" or p.moved or st.ball.carrier == p.id or p.sq is None or tz.get(p.sq, 0):
                continue
            goal = self.goal(p)
            if goal is None:
                continue
            r = board.reach(p, 0, moves=p.ma)
            best = self._toward(r, goal, tz)
            if best != p.sq:
                self.acts.move(p, path_to(r, best))
                board = Board(st)

    @staticmethod
    def _toward(r: Reach, goal: Square, tz: dict[Square, int]) -> Square:
        """The square of ``r`` nearest ``goal``, then in at most one tackle zone, the fewest steps, the square."""
        gx, gy = goal
        near = 1 << 30
        best: tuple[bool, int, Square] | None = None
        for s, (_, steps, _) in r.items():
            dx, dy = s[0] - gx, s[1] - gy
            d = max(dx, -dx, dy, -dy)
            if d < near:
                near, best = d, (tz.get(s, 0) > 1, steps, s)
            elif d == near and best is not None:
                k = (tz.get(s, 0) > 1, steps, s)
                if k < best:
                    best = k
        assert best is not None
        return best[2]

    def cage(self, c: Player) -> None:
        """Fill the carrier's four diagonal squares with the nearest free team-mates (no risky roll)."""
        assert c.sq is not None
        f = forward(self.side)
        corners = [(c.sq[0] + f, c.sq[1] - 1), (c.sq[0] + f, c.sq[1] + 1),
                   (c.sq[0] - f, c.sq[1] - 1), (c.sq[0] - f, c.sq[1] + 1)]
        board = Board(self.st)
        for sq in corners:
            if not on_pitch(sq) or sq in self.st.grid or not self.live():
                continue
            tz = board.tz(self.side)
            free = [p for p in self.mine() if p.state == "standing" and not p.moved and p is not c
                    and p.sq is not None and not tz.get(p.sq, 0) and distance(p.sq, sq) <= p.ma]

            def exact(p: Player, sq: Square = sq, board: Board = board
                      ) -> tuple[tuple[int, str], tuple[Player, Reach]] | None:
                r = board.reach(p, 0, moves=p.ma)
                return ((r[sq][1], p.id), (p, r)) if sq in r else None

            def bound(p: Player, sq: Square = sq) -> tuple[int, str]:
                return (distance(p.sq or sq, sq), p.id)  # no fewer steps than squares away

            best = least(free, bound, exact)
            if best is not None:
                self.acts.move(best[0], path_to(best[1], sq))
                board = Board(self.st)

    def goal(self, p: Player) -> Square | None:
        """Where a free player heads: ahead of our carrier, onto the enemy carrier, or to the loose ball."""
        st = self.st
        c = st.carrier()
        b = st.ball_sq()
        if c is not None and c.sq is not None:
            if c.side == self.side:
                f = forward(self.side)
                assert p.sq is not None
                return (max(1, min(26, c.sq[0] + 3 * f)), p.sq[1])
            return c.sq
        return b

    def risky(self) -> None:
        """8. The foul that pays (every plan, :func:`.plans.foul_pays`); bash and kill-the-thrower plans then
        take one-die blocks."""
        plans.foul_pays(self)
        if self.style not in ("bash", "kill_thrower"):
            return
        board = Board(self.st)
        for p in self.mine():
            if not self.live():
                return
            if p.state != "standing" or p.moved or self.st.ball.carrier == p.id:
                continue
            for q in sorted(self.st.marked_by(p), key=lambda q: q.id):
                if board.odds(p, q) >= 0.5:
                    self.acts.block(p, q)
                    board = Board(self.st)
                    break

    def stand_up(self) -> None:
        """9. Prone players stand up (a move action with no squares)."""
        for p in self.mine():
            if not self.live():
                return
            if p.state == "prone":
                self.acts.move(p, [])


__all__ = ["Actions", "AI", "Reach", "reach", "path_to", "tz_map", "block_odds"]
