"""One decision's look at the pitch (:class:`anko_writer.rulesets.bloodbowl.match.paths.Board`, issue 29): the
same tackle zones, reaches, block odds and foul assists as the plain rules on random pitches, and the bounds
the coaches prune with never below what a square gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as hs

from anko_writer.dice import Dice
from anko_writer.rulesets.bloodbowl.match import ai as coach
from anko_writer.rulesets.bloodbowl.match import paths, plans, rules
from anko_writer.rulesets.bloodbowl.match.model import LENGTH, WIDTH, Player, Square, State, adjacent, distance, neighbours, other

from .scen import put, state

SPOTS = hs.lists(hs.tuples(hs.integers(1, 26), hs.integers(1, 15), hs.booleans(),
                           hs.sampled_from(["standing", "standing", "prone", "stunned"]), hs.integers(2, 5),
                           hs.booleans()),
                 min_size=2, max_size=22, unique_by=lambda t: (t[0], t[1]))
"""Players: square, home or away, state, ST, Guard."""


def _pitch(spots: list[tuple[int, int, bool, str, int, bool]]) -> State:
    st = state()
    for i, (x, y, home, how, s, guard) in enumerate(spots):
        put(st, f"P{i:02d}", "home" if home else "away", (x, y), s=s, state=how,
            skills=("guard",) if guard else ())
    return st


def _plain_block_odds(st: State, att: Player, dfn: Player, frm: Square | None) -> float:
    """The block odds as written before the board (every helper counted afresh)."""
    assert dfn.sq is not None
    dx, dy = dfn.sq
    a = sum(1 for q in st.on_field(att.side) if q is not att and q.sq is not None and q.sq != dfn.sq
            and abs(q.sq[0] - dx) <= 1 and abs(q.sq[1] - dy) <= 1 and rules._free_helper(st, q, dfn))
    where = frm or att.sq
    assert where is not None
    d = 0
    for q in st.on_field(dfn.side):
        if q is dfn or not q.standing or q.sq is None or q.sq == where or distance(q.sq, where) > 1:
            continue
        if q.has("guard") or st.tackle_zones(q.sq, q.side, ignore=att) - (
                1 if att.sq and adjacent(att.sq, q.sq) else 0) <= 0:
            d += 1
    n, chooser = rules.block_dice(att.st + a, dfn.st + d)
    return 0.5 if n == 1 else (float(n) if chooser == "attacker" else -float(n))


def _plain_foul_net(st: State, p: Player, v: Player, frm: Square) -> int:
    """The foul's assists as written before the board."""
    off = sum(1 for q in st.on_field(p.side) if q is not p and q.sq is not None and q.sq != frm
              and rules._free_helper(st, q, v))
    dfn = sum(1 for q in st.on_field(v.side) if q is not v and q.standing and q.sq is not None
              and distance(q.sq, frm) == 1 and st.tackle_zones(q.sq, q.side, ignore=p) == 0)
    return off - dfn


SQUARES = [(x, y) for x in range(1, LENGTH + 1) for y in range(1, WIDTH + 1)]


@settings(max_examples=60, deadline=None)
@given(SPOTS)
def test_the_board_gives_the_plain_numbers(spots: list[tuple[int, int, bool, str, int, bool]]) -> None:
    """Tackle zones on every square, each player's reaches, and every block and foul from every square near
    the target: the board's numbers are the plain ones; its bounds are never below a square's."""
    st = _pitch(spots)
    board = paths.Board(st)
    for side in ("home", "away"):
        tz = board.tz(side)  # type: ignore[arg-type]
        assert all(tz.get(sq, 0) == st.tackle_zones(sq, side) for sq in SQUARES)  # type: ignore[arg-type]
    players = list(st.players.values())
    for q in players[:4]:
        for side in ("home", "away"):
            assert all(board.zones_but(sq, side, q) == st.tackle_zones(sq, side, ignore=q)  # type: ignore[arg-type]
                       for sq in SQUARES)
    for p in players:
        for rolls, moves, through in ((0, None, False), (1, 6, True), (2, 7, False)):
            assert list(board.reach(p, rolls, moves, through).items()) == \
                list(paths.reach(st, p, rolls, moves, through).items())
    for att in players:
        for dfn in players:
            if dfn.side == att.side or dfn.sq is None:
                continue
            best, most = board.best_odds(att, dfn), board.foul_best(att, dfn)
            for frm in [None, *[(dfn.sq[0] + dx, dfn.sq[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]]:
                got = board.odds(att, dfn, frm)
                assert got == _plain_block_odds(st, att, dfn, frm) == paths.block_odds(st, att, dfn, frm)
                if frm is None:
                    continue
                net = board.foul_net(att, dfn, frm)
                assert net == _plain_foul_net(st, att, dfn, frm) == plans.foul_assists(st, att, dfn, frm)
                if frm not in st.grid or frm == att.sq:  # the squares a coach looks at
                    assert got <= best and net <= most


def test_the_odds_of_a_block() -> None:
    """ST 4 against 3: two dice he chooses; a free guard beside the attacker's square helps the defender
    (3 + 1 = 4: one die); a free team-mate beside the defender helps the attacker (5 against 4: two dice; at
    best 5 against 3, still two: three need more than twice his strength, 7 against 3)."""
    st = state()
    att = put(st, "H1", "home", (10, 8), s=4)
    dfn = put(st, "A1", "away", (11, 8))
    assert paths.Board(st).odds(att, dfn) == 2.0 == paths.Board(st).best_odds(att, dfn)
    put(st, "A2", "away", (10, 9), skills=("guard",))
    assert paths.Board(st).odds(att, dfn) == 0.5 and paths.Board(st).best_odds(att, dfn) == 2.0
    put(st, "H2", "home", (12, 8))
    board = paths.Board(st)
    assert (board.assists(att, dfn), board.odds(att, dfn), board.best_odds(att, dfn)) == (1, 2.0, 2.0)
    assert board.helpers(dfn, "home") == frozenset({"H2"})
    att.st = 6
    assert paths.Board(st).best_odds(att, dfn) == 3.0 and paths.Board(st).odds(att, dfn) == 2.0


def _heap_search(st: State, start: Square, tz: dict[Square, int], normal: int, limit: int, ball: Square | None,
                 max_rolls: int) -> paths.Reach:
    """The cheapest-first search as a heap of (rolls, steps, square), as written before the buckets."""
    import heapq

    best: paths.Reach = {start: (0, 0, None)}
    heap: list[tuple[int, int, Square]] = [(0, 0, start)]
    while heap:
        rolls, steps, sq = heapq.heappop(heap)
        b = best[sq]
        if b[0] != rolls or b[1] != steps or steps >= limit or (sq == ball and sq != start):
            continue
        cost_r = rolls + (sq in tz) + (steps >= normal)
        if cost_r > max_rolls:
            continue
        for n in paths._near(sq):
            old = best.get(n)
            if n not in st.grid and (old is None or cost_r < old[0] or (cost_r == old[0] and steps + 1 < old[1])):
                best[n] = (cost_r, steps + 1, sq)
                heapq.heappush(heap, (cost_r, steps + 1, n))
    return best


@settings(max_examples=80, deadline=None)
@given(SPOTS, hs.integers(0, 9), hs.integers(0, 3), hs.integers(0, 3), hs.booleans())
def test_the_bucket_search_is_the_heap_search(spots: list[tuple[int, int, bool, str, int, bool]], moved: int,
                                              ma_less: int, max_rolls: int, through: bool) -> None:
    """With up to three risky rolls, the buckets give the heap's squares, steps, paths and order."""
    st = _pitch(spots)
    st.ball.sq = (13, 8) if (13, 8) not in st.grid else None
    p = st.players["P00"]
    p.ma = 8 - ma_less
    p.moved = moved
    tz = paths.tz_map(st, p.side)
    normal, limit = max(0, p.ma - p.moved), p.ma + 2 - p.moved
    ball = None if through else st.ball.sq
    assert p.sq is not None
    fast = paths._reach_search(st, p.sq, tz, normal, limit, ball, max_rolls)
    assert list(fast.items()) == list(_heap_search(st, p.sq, tz, normal, limit, ball, max_rolls).items())
    if max_rolls == 0:
        assert list(paths._reach_free(st, p.sq, tz, normal, limit, ball).items()) == list(fast.items())


@settings(max_examples=200, deadline=None)
@given(hs.lists(hs.tuples(hs.integers(0, 5), hs.integers(0, 3), hs.booleans()), min_size=0, max_size=12))
def test_least_is_the_least_of_all(items: list[tuple[int, int, bool]]) -> None:
    """Tried best bound first and stopped early, :func:`paths.least` picks what trying every item picks: each
    item a key (a value, its index to make it unique; or no key at all) and a bound at most its key."""
    keyed = [((value, i), value - slack, has) for i, (value, slack, has) in enumerate(items)]
    tried: list[int] = []

    def exact(item: tuple[tuple[int, int], int, bool]) -> tuple[tuple[int, int], int] | None:
        tried.append(item[0][1])
        return (item[0], item[0][1]) if item[2] else None

    got = paths.least(keyed, bound=lambda item: (item[1], -1), exact=exact)
    every = [k for k, _, has in keyed if has]
    assert got == (min(every)[1] if every else None)
    assert len(tried) <= len(items)


def _plain_blitz(ai: coach.AI, targets: list[Player], max_rolls: int, min_odds: float
                 ) -> tuple[Player, list[Square], Player] | None:
    """The blitz choice as written before the board: every mover's reach, every square beside every target."""
    st = ai.st
    best: tuple[float, int, str, str] | None = None
    choice = None
    for p in ai.mine():
        if p.state != "standing" or p.moved or st.ball.carrier == p.id or p.sq is None:
            continue
        if min((distance(p.sq, t.sq) for t in targets if t.sq is not None), default=99) > p.ma + 2:
            continue
        r = paths.reach(st, p, max_rolls, moves=p.ma + 1)
        for t in targets:
            assert t.sq is not None
            for sq in neighbours(t.sq):
                if sq not in r:
                    continue
                rolls = r[sq][0] + (1 if r[sq][1] + 1 > p.ma else 0)
                odds = _plain_block_odds(st, p, t, sq)
                if rolls > max_rolls or odds < min_odds:
                    continue
                key = (-odds, rolls, p.id, t.id)
                if best is None or key < best:
                    best, choice = key, (p, paths.path_to(r, sq), t)
    return choice


def _plain_foul(ai: coach.AI) -> tuple[Player, list[Square], Player] | None:
    """The foul choice as written before the board."""
    st = ai.st
    downs = [q for q in st.on_field(other(ai.side)) if q.state in ("prone", "stunned") and q.sq is not None]
    best: tuple[float, int, str, str] | None = None
    choice = None
    for p in ai.mine():
        if p.state != "standing" or p.moved or st.ball.carrier == p.id or plans.valuable(p) or p.sq is None:
            continue
        r = paths.reach(st, p, 0, moves=p.ma)
        for v in downs:
            assert v.sq is not None
            for sq in neighbours(v.sq):
                if sq not in r:
                    continue
                net = _plain_foul_net(st, p, v, sq)
                chance = plans.two_d6_above(v.av - net)
                if net < plans.FOUL_ASSISTS or chance < plans.FOUL_BREAK:
                    continue
                key = (-chance, r[sq][1], p.id, v.id)
                if best is None or key < best:
                    best, choice = key, (p, paths.path_to(r, sq), v)
    return choice


DENSE = hs.lists(hs.tuples(hs.integers(8, 15), hs.integers(5, 11), hs.booleans(),
                           hs.sampled_from(["standing", "standing", "prone", "stunned"]), hs.integers(2, 5),
                           hs.booleans()),
                 min_size=6, max_size=22, unique_by=lambda t: (t[0], t[1]))
"""Players crowded into the middle of the pitch, where blitzes and fouls are."""


@settings(max_examples=150, deadline=None)
@given(DENSE, hs.lists(hs.integers(3, 9), min_size=22, max_size=22), hs.sampled_from([0, 1, 2]),
       hs.sampled_from([-1.0, 0.5, 2.0]), hs.booleans(), hs.integers(7, 10))
def test_the_blitz_and_the_foul_are_the_plain_choices(spots: list[tuple[int, int, bool, str, int, bool]],
                                                      mas: list[int], max_rolls: int, min_odds: float,
                                                      carrier: bool, av: int) -> None:
    """On random pitches (any MA, ST, AV, Guard, prone and stunned players, a carrier or not), the blitz and
    the foul found with the board's bounds are the mover, path and target the plain loops over every mover and
    square find."""
    st = _pitch(spots)
    for p, ma in zip(st.players.values(), mas, strict=False):  # as many MAs as players at most
        p.ma, p.av = ma, av
    if carrier:
        first = next(iter(st.players.values()))
        st.ball.carrier = first.id
    d = Dice(seed=1)
    st.plans = {"home": {"style": "bash"}, "away": {"style": "bash"}}  # type: ignore[typeddict-item]
    for side in ("home", "away"):
        ai = coach.AI(st, d, coach.Actions(st, d, []), side)  # type: ignore[arg-type]
        targets = [q for q in st.on_field(other(side)) if q.standing]  # type: ignore[arg-type]
        assert ai.blitz_choice(targets, max_rolls, min_odds) == _plain_blitz(ai, targets, max_rolls, min_odds)
        assert plans.foul_choice(ai) == _plain_foul(ai)
