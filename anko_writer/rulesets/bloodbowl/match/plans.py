"""The AI coaches' race plans (designed; 004 leaves the coaching to the coach): small procedures in the manner
of botbowl's scripted bot, each one decision a chapter can state, each asked by :class:`.ai.AI` in its turn.

- **The clock** (:func:`score_now`): the carrier scores at once when we trail, on our last turn, or when he
  could be caught; ahead or level with turns left and nobody able to reach him, he waits a square short of
  the line and scores late, so the other side has no time to answer.
- **The pass that scores** (:func:`scoring_pass`, human and skaven, and anyone on the last turn): a forward
  pass only to a receiver who then scores (he runs into the end zone and is thrown to there, or catches
  where he stands and runs in), when the whole chance (no interception × an accurate pass × the catch) is
  good enough (:data:`PASS_ODDS`).
- **The pass past the line** (:func:`advance_pass`, human and skaven): to an unmarked receiver in the
  opponents' half, at least :data:`ADVANCE_GAIN` squares nearer the end zone and able to score next turn.
- **The hand-off to a scorer** (:func:`handoff_scorer`): to an adjacent team-mate who then walks in.
- **The cage** (:data:`CAGE_STYLES`, dwarf and orc): the carrier stays behind the front with team-mates on
  his four diagonals (:meth:`.ai.AI.cage`), and the cage walks forward with him.
- **The foul that pays** (:func:`foul_pays`, every race): a prone opponent, at least one more assist for us
  than for him (:data:`FOUL_ASSISTS`), a fair chance to break his armour (:data:`FOUL_BREAK`), and a fouler
  the team can spare (no ball handler, big guy or star: :func:`valuable`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from . import rules
from .data import ag_target
from .model import ATTACKS, Player, Square, State, distance, neighbours, other
from .paths import Board, Key, best_approach, path_to, reach
from .sheets import Side


class Acts(Protocol):
    """The recorded actions a plan takes (:class:`.ai.Actions`)."""

    def move(self, p: Player, squares: list[Square]) -> bool: ...
    def pass_(self, p: Player, squares: list[Square], to: Square) -> bool: ...
    def handoff(self, p: Player, squares: list[Square], to: Player) -> bool: ...
    def foul(self, p: Player, squares: list[Square], victim: Player) -> bool: ...


class AI(Protocol):
    """The coach a plan serves (:class:`.ai.AI`): the match, his side, his actions and his turn's helpers."""

    @property
    def st(self) -> State: ...
    @property
    def side(self) -> Side: ...
    @property
    def acts(self) -> Acts: ...
    def mine(self) -> list[Player]: ...
    def live(self) -> bool: ...
    def last_turn(self) -> bool: ...
    def progress(self, sq: Square) -> int: ...
    def try_score(self, c: Player, max_rolls: int) -> bool: ...
    def carrier_moves(self) -> None: ...

PASS_STYLES = ("pass",)
"""Plans that look for a forward pass on every turn (human and skaven by ``league.yaml``'s ``ai_style``)."""
CAGE_STYLES = ("cage",)
"""Plans whose carrier stays in a cage behind the front (dwarf ``cage``, orc ``bash``)."""
PASS_ODDS = 0.5
"""The least whole chance of a pass that scores (no interception × accurate × caught)."""
LAST_TURN_ODDS = 0.15
"""The same on the team's last turn of the half (nothing is left to lose)."""
ADVANCE_ODDS = 0.6
"""The least whole chance of a pass past the line (the receiver does not score this turn)."""
ADVANCE_GAIN = 4
"""How many squares nearer the end zone a pass past the line must bring the ball."""
SCORE_ROLLS = 1
"""Risky rolls (a dodge or a GFI, each re-rollable by the plan) the carrier takes to score before his last turn."""
STALL_REACH = 3
"""Squares beyond his MA an opponent is counted able to reach the carrier with (two GFIs and the block)."""
DEEP = 2
"""How many receivers run deep for a pass."""
FOUL_ASSISTS = 1
"""A foul needs at least this many more assists for us than against (004's foul is designed, §10)."""
FOUL_BREAK = 0.4
"""A foul needs at least this chance of breaking the victim's armour."""


def d6_chance(target: int, mods: int) -> float:
    """The chance an AG-table roll succeeds: a natural 1 fails, a natural 6 succeeds (004 §2).

    >>> d6_chance(4, 0), d6_chance(4, 1), d6_chance(4, -4), d6_chance(2, 3)
    (0.5, 0.6666666666666666, 0.16666666666666666, 0.8333333333333334)
    """
    return sum(1 for die in range(1, 7) if rules.ag_success(die, mods, target)) / 6


def two_d6_above(need: int) -> float:
    """The chance 2D6 rolls more than ``need``.

    >>> two_d6_above(7), two_d6_above(12), two_d6_above(1)
    (0.4166666666666667, 0.0, 1.0)
    """
    got = _ABOVE.get(need)
    if got is None:
        got = _ABOVE[need] = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b > need) / 36
    return got


_ABOVE: dict[int, float] = {}
"""``need`` → :func:`two_d6_above` (filled on first use)."""


def _again(p: float, reroll: bool) -> float:
    """A chance with one re-roll of a failure."""
    return 1 - (1 - p) ** 2 if reroll else p


@dataclass(frozen=True)
class PassChance:
    """A forward pass's chances: no interception, an accurate pass, the catch, and all three."""

    safe: float
    accurate: float
    caught: float

    @property
    def whole(self) -> float:
        """All three."""
        return self.safe * self.accurate * self.caught


def pass_chance(st: State, thrower: Player, to: Square, catcher: Player) -> PassChance | None:
    """The chances of ``thrower`` passing to ``to`` for ``catcher`` standing there (the designed LRB6 pass,
    :func:`.rules.throw`); None out of range. A re-roll counts where the skill or the plan's team re-roll
    would be used."""
    assert thrower.sq is not None
    rng = rules.pass_range(thrower.sq, to)
    if rng is None:
        return None
    q = rules.interceptor(st, thrower, to)
    safe = 1.0
    if q is not None and q.sq is not None:
        safe = 1 - d6_chance(ag_target(q.ag), -2 - st.tackle_zones(q.sq, q.side))
    team = rules.can_team_reroll(st, thrower.side) and st.coach.may_reroll(st, thrower.side, "pass", thrower)
    acc = _again(d6_chance(ag_target(thrower.ag), rng[1] - st.tackle_zones(thrower.sq, thrower.side)),
                 thrower.has("pass") or team)
    caught = _again(d6_chance(ag_target(catcher.ag), 1 - st.tackle_zones(to, catcher.side, ignore=None)),
                    catcher.has("catch"))
    return PassChance(safe, acc, caught)


def valuable(p: Player) -> bool:
    """A player a coach will not risk on a foul: a ball handler (Pass, Catch, Sure Hands), a big guy (ST 5+),
    a fast or agile one (MA 8+, AG 4+), or one with a Mighty Blow.

    >>> from .model import Player
    >>> valuable(Player("a", "a", "lineman", "home", 6, 3, 3, 8)), valuable(Player("b", "b", "x", "home", 6, 3, 3, 8,
    ...     frozenset({"sure_hands"})))
    (False, True)
    """
    return (p.st >= 5 or p.ma >= 8 or p.ag >= 4
            or bool(p.skills & {"pass", "catch", "sure_hands", "mighty_blow", "loner"}))


# ------------------------------------------------------------------ the clock


def can_be_reached(st: State, side: Side, sq: Square) -> bool:
    """Whether a standing opponent (or a prone one, who stands up with 3 of his MA) could get beside ``sq``
    next turn, counting two GFIs and ignoring the players in his way."""
    for q in st.on_field(other(side)):
        if q.sq is None or q.state not in ("standing", "prone"):
            continue
        ma = q.ma if q.state == "standing" else max(0, q.ma - 3)
        if distance(q.sq, sq) <= ma + STALL_REACH:
            return True
    return False


def score_now(ai: AI) -> bool:
    """Whether our carrier should score as soon as he can (the clock, designed): when we are behind, on our
    last turn, or when an opponent could reach him next turn; else he waits to score late."""
    st = ai.st
    me = 0 if ai.side == "home" else 1
    if ai.last_turn() or st.score[me] < st.score[1 - me]:
        return True
    c = st.carrier()
    if c is None or c.sq is None:
        return True
    return can_be_reached(st, ai.side, c.sq)


def stall_square(ai: AI, c: Player) -> Square | None:
    """Where the carrier waits: a square he walks to with no die, from which he still walks in with no die
    next turn (at most MA squares short of the line), out of every opponent's reach; the nearest the line, off
    the sidelines, the fewest steps, the least sideways."""
    st = ai.st
    r = reach(st, c, 0, moves=c.ma)
    good = [s for s in r if 0 < ai.progress(s) <= c.ma and not can_be_reached(st, ai.side, s)]
    if not good:
        return None
    assert c.sq is not None
    y = c.sq[1]
    return min(good, key=lambda s: (ai.progress(s), int(s[1] <= 2 or s[1] >= 14), r[s][1], abs(s[1] - y), s))


# ------------------------------------------------------------------ passes and hand-offs


def _receivers(ai: AI, c: Player) -> list[Player]:
    """Team-mates who may still take their action, standing (by id)."""
    return [q for q in ai.mine() if q is not c and q.state == "standing" and q.sq is not None]


def scoring_pass(ai: AI, c: Player) -> bool:
    """A pass to a receiver who scores: either he first runs, unmarked, into the end zone and is thrown to
    there, or he catches where he stands and then runs in with no die. The best whole chance, if it is at
    least :data:`PASS_ODDS` (:data:`LAST_TURN_ODDS` on the last turn). True if the pass was thrown."""
    st = ai.st
    if st.flags.pass_ or c.sq is None or c.acted:
        return False
    need = LAST_TURN_ODDS if ai.last_turn() else PASS_ODDS
    best: tuple[float, int, str, Square] | None = None
    plan: tuple[Player, list[Square], Square, bool] | None = None
    end = ATTACKS[ai.side]
    board = Board(st)
    for q in _receivers(ai, c):
        assert q.sq is not None
        if ai.progress(q.sq) > q.ma:  # no end zone within his MA (a no-roll walk stops there)
            continue
        options: list[tuple[Square, list[Square], bool]] = []
        r = board.reach(q, 0)
        ends = [s for s in r if s[0] == end]
        if not q.moved:
            options += [(s, path_to(r, s), True) for s in ends]
        if ends and st.tackle_zones(q.sq, ai.side) == 0:
            options.append((q.sq, [], False))
        for to, path, run_first in options:
            ch = pass_chance(st, c, to, q)
            if ch is None or ch.whole < need:
                continue
            key = (-ch.whole, len(path), q.id, to)
            if best is None or key < best:
                best, plan = key, (q, path, to, run_first)
    if plan is None:
        return False
    q, path, to, run_first = plan
    if run_first and path and not ai.acts.move(q, path):
        return True
    ai.acts.pass_(c, [], to)
    if ai.live() and st.ball.carrier == q.id and not q.acted:
        ai.try_score(q, 0)
    return True


def advance_pass(ai: AI, c: Player) -> bool:
    """A pass past the line: to an unmarked receiver in the opponents' half who has not acted, at least
    :data:`ADVANCE_GAIN` squares nearer the end zone than the carrier and near enough to score next turn,
    if the whole chance is at least :data:`ADVANCE_ODDS`; then he carries on as the carrier."""
    st = ai.st
    if st.flags.pass_ or c.sq is None or c.acted:
        return False
    best: tuple[float, int, str] | None = None
    pick: Player | None = None
    for q in _receivers(ai, c):
        assert q.sq is not None
        gain = ai.progress(c.sq) - ai.progress(q.sq)
        past = (q.sq[0] <= 13 if ai.side == "away" else q.sq[0] >= 14) is not False
        if q.moved or gain < ADVANCE_GAIN or not past or ai.progress(q.sq) > q.ma + 2:
            continue
        if st.tackle_zones(q.sq, ai.side):
            continue
        ch = pass_chance(st, c, q.sq, q)
        if ch is None or ch.whole < ADVANCE_ODDS:
            continue
        key = (-ch.whole, -gain, q.id)
        if best is None or key < best:
            best, pick = key, q
    if pick is None or pick.sq is None:
        return False
    ai.acts.pass_(c, [], pick.sq)
    if ai.live() and st.ball.carrier == pick.id:
        ai.carrier_moves()
    return True


def handoff_scorer(ai: AI, c: Player, max_rolls: int) -> bool:
    """Hand the ball to an adjacent team-mate who has not acted and can then walk into the end zone with at
    most ``max_rolls`` risky rolls; he does."""
    st = ai.st
    if st.flags.handoff or c.sq is None or c.acted:
        return False
    end = ATTACKS[ai.side]
    board = Board(st)
    for q in _receivers(ai, c):
        assert q.sq is not None
        if q.moved or q.sq not in neighbours(c.sq) or ai.progress(q.sq) > q.ma + 2:  # out of his walk's reach
            continue
        r = board.reach(q, max_rolls)
        if not any(s[0] == end for s in r):
            continue
        ai.acts.handoff(c, [], q)
        if ai.live() and st.ball.carrier == q.id:
            ai.try_score(q, max_rolls)
        return True
    return False


def receivers_deep(ai: AI, c: Player) -> list[Player]:
    """Who runs deep for a pass (human and skaven plans): the free team-mates (unmarked, standing, yet to move)
    with Catch first, then the fastest, up to :data:`DEEP` of them."""
    st = ai.st
    free = [q for q in _receivers(ai, c) if not q.moved and q.sq is not None
            and not st.tackle_zones(q.sq, ai.side) and not valuable_thrower(q)]
    free.sort(key=lambda q: (not q.has("catch"), -q.ma, -q.ag, q.id))
    return free[:DEEP]


def valuable_thrower(q: Player) -> bool:
    """A thrower stays with the ball (he may take it next)."""
    return q.has("pass")


def get_open(ai: AI, c: Player) -> None:
    """Receivers run deep with no die, to the unmarked square nearest the end zone within a long pass of the
    carrier, away from opponents (those within two squares), so a pass can find them next."""
    st = ai.st
    assert c.sq is not None
    board = Board(st)
    for q in receivers_deep(ai, c):
        if not ai.live():
            return
        r = board.reach(q, 0, moves=q.ma)
        cost = _open_cost(ai, board, c.sq, r)
        best = min(r, key=cost)
        if best != q.sq:
            ai.acts.move(q, path_to(r, best))
            board = Board(st)


def _open_cost(ai: AI, board: Board, thrower: Square | None, r: dict[Square, tuple[int, int, Square | None]]
               ) -> Callable[[Square], tuple[int, int, int, int, int, Square]]:
    """How good a square is for a receiver: unmarked, within a long pass, few opponents within two squares,
    near the end zone, few steps."""
    tz = board.tz(ai.side)
    enemies = board.standing(other(ai.side))
    end = ATTACKS[ai.side]

    def cost(s: Square) -> tuple[int, int, int, int, int, Square]:
        rng = rules.pass_range(thrower or s, s)
        x, y = s
        near = sum(1 for ex, ey in enemies if abs(ex - x) <= 2 and abs(ey - y) <= 2)
        return (tz.get(s, 0), int(rng is None or rng[1] < -1), near, abs(end - x), r[s][1], s)
    return cost


# ------------------------------------------------------------------ fouls


def foul_pays(ai: AI) -> bool:
    """The foul that pays: the spare fouler (:func:`valuable` is False, not the carrier) who reaches a prone
    or stunned opponent with no die, with at least :data:`FOUL_ASSISTS` more assists for us than for him and
    at least a :data:`FOUL_BREAK` chance of breaking his armour; the best chance, then the fewest steps.
    True if a foul was made."""
    choice = foul_choice(ai)
    if choice is None:
        return False
    ai.acts.foul(*choice)
    return True


def foul_choice(ai: AI) -> tuple[Player, list[Square], Player] | None:
    """:func:`foul_pays`'s foul: the fouler, his path and the victim (None: no foul pays, or the team fouled)."""
    st = ai.st
    if st.flags.foul:
        return None
    board = Board(st)
    downs = [q for q in board.field(other(ai.side)) if q.state in ("prone", "stunned") and q.sq is not None]

    def pairs() -> Iterator[tuple[Player, Player]]:
        for p in ai.mine():
            if p.state != "standing" or p.moved or st.ball.carrier == p.id or valuable(p) or p.sq is None:
                continue
            # only victims he can get beside (MA squares) with the most assists that could pay
            px, py, far = p.sq[0], p.sq[1], p.ma + 1
            for v in downs:
                if v.sq is not None and abs(v.sq[0] - px) <= far and abs(v.sq[1] - py) <= far \
                        and _pays(v, board.foul_best(p, v)):
                    yield p, v

    def bound(p: Player, v: Player) -> Key:
        assert p.sq is not None and v.sq is not None
        return (-two_d6_above(v.av - board.foul_best(p, v)), max(0, distance(p.sq, v.sq) - 1), p.id, v.id)

    def key(p: Player, v: Player, sq: Square, got: tuple[int, int, Square | None]) -> Key | None:
        net = board.foul_net(p, v, sq)
        return (-two_d6_above(v.av - net), got[1], p.id, v.id) if _pays(v, net) else None

    return best_approach(board, pairs(), 0, 0, bound, key)


def _pays(v: Player, net: int) -> bool:
    """Enough assists and a good enough chance of breaking ``v``'s armour with ``net`` of them."""
    return net >= FOUL_ASSISTS and two_d6_above(v.av - net) >= FOUL_BREAK


def foul_assists(st: State, p: Player, v: Player, frm: Square) -> int:
    """Assists for ``p`` fouling ``v`` from ``frm`` less those against him there (:func:`.rules.foul`)."""
    assert v.sq is not None
    return Board(st).foul_net(p, v, frm)


__all__ = ["AI", "Acts", "ADVANCE_GAIN", "ADVANCE_ODDS", "CAGE_STYLES", "DEEP", "FOUL_ASSISTS", "FOUL_BREAK",
           "LAST_TURN_ODDS", "PASS_ODDS", "PASS_STYLES", "PassChance", "SCORE_ROLLS", "STALL_REACH", "advance_pass",
           "can_be_reached", "d6_chance", "foul_assists", "foul_choice", "foul_pays", "get_open", "handoff_scorer",
           "pass_chance", "receivers_deep", "score_now", "scoring_pass", "stall_square", "two_d6_above", "valuable",
           "valuable_thrower"]
