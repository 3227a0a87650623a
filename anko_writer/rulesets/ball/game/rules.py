"""The rules of BALL (003): the board, the pieces' moves, contact, the ball, the recovery phase and card mode.

Choices where the seed is silent (each marked *designed* in ``docs/rules-coverage.md``):

* **Usable squares.** Every move of the seed (X: diagonal 1–2; O: orthogonal 2 or diagonal 1; □: both) keeps a
  piece on one colour of a checkerboard, so the striped squares are one colour: a square is usable when its
  column number (A=1 … M=13) and its row have the same parity — A1, C1 … M1, B2 … L2 … (111 squares). All four
  corners are usable and the pattern is symmetric under the 180° turn that swaps the two halves, so neither
  side's half is favoured. Two usable squares touch only diagonally; the middle square of an orthogonal
  2-square move is never usable, so it never holds a piece and never blocks.
* **End zones.** Rows 1–2 and rows 16–17. ATK sets up at the low rows and attacks towards rows 16–17; DEF
  attacks towards rows 1–2 (each side scores if it wins the ball).
* **Pieces.** 7 a side: five X, one O, one □ (``S``). The seed's "ATK X5" names a fifth X under the per-type
  ids of the contract (``ATK-X1``, ``ATK-S1``), so a side has at least five X; the other two are one O and one □.
  Formation: :func:`standard_position` (ATK's X5 holds the ball at G5; DEF is ATK mirrored across row 9).
* **PA.** Every action of the action phase costs 1 PA (conversion: 1 PA per PE; cards: 0 PA).
* **Paths.** A 2-square move's middle square may hold nothing, the free ball (passed over: it stays, §9) or one
  able own piece; an able opponent there can be passed only by a tactical dodge (§6); a down piece or a stack
  there blocks (§2).
* **Empty squares.** Where the seed says 空格 (dodge step-off, tactical landing and push, stand-up, release,
  ball placement) the square holds no piece and no free ball. An ordinary move may end on the free ball's
  square: that is how possession is gained (§9).
* **Ordinary actions** (§9's no-further-action rule): every action-phase action but a card's special action.
* **Recovery.** A coach's tasks are his own down pieces (stand up) and the stacks whose top piece is his and
  that were not formed this turn (release); every task with a legal solution is compulsory (§2), in the order
  the coach chooses; a task left without a solution by an earlier one is no longer a task.
* **PE mode is card mode**: PA→PE conversion and the PE table (:data:`PE_TABLE`) are on only with
  ``card_mode``; the cards (:data:`CARDS`) are held by both coaches, all six, playable any number of times
  while the PE lasts (no deck is drawn: the game has no randomness).
* **Turn limit** :data:`TURN_LIMIT`: no touchdown after turn 40 — the defence held, DEF wins.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ....kit.grid import Grid, chebyshev
from .model import CARDS, Action, IllegalMove, Piece, Position, Team
from .writing import options, write

COLUMNS = "ABCDEFGHIJKLM"
"""The board's columns A–M (003 §1)."""
ROWS = 17
"""The board's rows 1–17 (003 §1)."""
GRID = Grid(len(COLUMNS), ROWS, x0=0, y0=1)
"""The board on the grid kit: column A at x 0, row 1 at y 1, row 17 drawn at the top."""
TURN_LIMIT = 40
"""Designed: after turn 40 without a touchdown the game ends and DEF wins (the defence held)."""
SCORING_ROWS: dict[str, tuple[int, int]] = {"ATK": (16, 17), "DEF": (1, 2)}
"""Designed: the opposing end zone each side scores in (ATK attacks towards row 17)."""
USABLE_RULE = ("a square is usable (striped) when its column number (A=1 … M=13) and its row have the same "
               "parity: A1, C1 … M1, B2 … L2, A3 …; end zones rows 1–2 (ATK's) and 16–17 (DEF's); "
               "ATK attacks towards row 17")
"""DESIGN §12's ``usable``: the rule in words."""
PE_TABLE: dict[str, int] = {"move": 0, "dodge": 1, "tactical_dodge": 1, "block": 1, "protect": 0, "handoff": 1,
                            "short_pass": 1, "long_pass": 0}
"""Designed (003 §11's missing official table): PE earned by each action in card mode."""
KIND_ORDER = ["move", "dodge", "tactical_dodge", "block", "protect", "handoff", "short_pass", "long_pass",
              "convert_pe", "card", "stand_up", "release"]
"""The fixed order of action kinds within one piece (legal actions sort by piece, kind, squares)."""
ORDINARY = frozenset(KIND_ORDER[:8])
"""The ordinary actions of the action phase (each 1 PA)."""

_COORDS: dict[str, tuple[int, int]] = {GRID.name(sq): sq for sq in GRID.squares()}
USABLE: frozenset[str] = frozenset(s for s, (c, r) in _COORDS.items() if (c + 1 + r) % 2 == 0)
"""The striped squares (designed, see the module docstring)."""
_DIAG = ((-1, -1), (-1, 1), (1, -1), (1, 1))
_ORTH = ((-1, 0), (1, 0), (0, -1), (0, 1))


def square(col: int, row: int) -> str | None:
    """The square at 0-based ``col`` and ``row`` 1–17, or None off the board."""
    return f"{COLUMNS[col]}{row}" if 0 <= col < len(COLUMNS) and 1 <= row <= ROWS else None


def coords(sq: str) -> tuple[int, int]:
    """0-based column and row of a square; raises :class:`IllegalMove` for a square not on the board."""
    try:
        return _COORDS[sq]
    except KeyError:
        raise IllegalMove(f"{sq}: 没有这一格（列 A–M，行 1–17）") from None


def _distance(a: str, b: str) -> int:
    return chebyshev(_COORDS[a], _COORDS[b])


_DIST = {a: {b: _distance(a, b) for b in USABLE} for a in USABLE}


def distance(a: str, b: str) -> int:
    """Shortest path between two usable squares over usable squares (diagonal steps): max(|Δcol|, |Δrow|)."""
    return _DIST[a][b]


def _step(sq: str, dc: int, dr: int) -> str | None:
    c, r = _COORDS[sq]
    return square(c + dc, r + dr)


DIAG1: dict[str, tuple[str, ...]] = {
    s: tuple(t for d in _DIAG if (t := _step(s, *d)) is not None) for s in USABLE}
"""The diagonally adjacent (usable) squares of each usable square."""
_TWO: dict[str, dict[str, tuple[tuple[str, str, bool], ...]]] = {}
for _kind, _dirs in (("X", (_DIAG,)), ("O", (_ORTH,)), ("S", (_DIAG, _ORTH))):
    _TWO[_kind] = {}
    for _s in USABLE:
        _TWO[_kind][_s] = tuple(
            (mid, dest, dirs is _DIAG) for dirs in _dirs for d in dirs
            if (mid := _step(_s, *d)) is not None and (dest := _step(_s, 2 * d[0], 2 * d[1])) is not None)


def two_square_moves(kind: str, sq: str) -> tuple[tuple[str, str, bool], ...]:
    """(middle, destination, diagonal) of each 2-square move of a piece type from ``sq`` (003 §4)."""
    return _TWO[kind][sq]


def in_scoring_zone(side: str, sq: str) -> bool:
    """Is ``sq`` in the end zone ``side`` scores in (its opponent's)?"""
    lo, hi = SCORING_ROWS[side]
    return lo <= _COORDS[sq][1] <= hi


def other(side: Team) -> Team:
    """The opposing side."""
    return "DEF" if side == "ATK" else "ATK"


_SQ_KEY: dict[str | None, tuple[int, int]] = {s: c for s, c in _COORDS.items()}
_KIND_INDEX = {k: i for i, k in enumerate(KIND_ORDER)}


def action_key(a: Action) -> tuple[object, ...]:
    """The fixed order of actions: piece id, kind, card, squares (column, then row), target, ball."""
    k = _SQ_KEY
    return (a.piece, _KIND_INDEX[a.kind], a.card or "", k.get(a.frm, (-1, -1)), k.get(a.to, (-1, -1)),
            k.get(a.over, (-1, -1)), k.get(a.land, (-1, -1)), a.target or "", k.get(a.push_to, (-1, -1)),
            k.get(a.ball_to, (-1, -1)), a.ball_to or "", a.pa)


# -- positions -----------------------------------------------------------------------------------------------

_FORMATION: tuple[tuple[str, str], ...] = (
    ("X1", "C7"), ("X2", "E7"), ("X3", "I7"), ("X4", "K7"), ("O1", "F6"), ("S1", "H6"), ("X5", "G5"))


def _mirror(sq: str) -> str:
    c, r = _COORDS[sq]
    return f"{COLUMNS[c]}{ROWS + 1 - r}"


def standard_position(card_mode: bool = False) -> Position:
    """The standard formation (designed, 003 §3 is missing): ATK X1–X4 on C7 E7 I7 K7, O1 F6, □1 H6, X5 G5 with
    the ball; DEF the same mirrored across row 9 (C11 E11 I11 K11, F12, H12, G13); DEF to move, turn 1."""
    pieces = [Piece(f"ATK-{n}", "ATK", n[0], s, ball=n == "X5") for n, s in _FORMATION]  # type: ignore[arg-type]
    pieces += [Piece(f"DEF-{n}", "DEF", n[0], _mirror(s)) for n, s in _FORMATION]  # type: ignore[arg-type]
    return Position(tuple(pieces), None, "DEF", 1, card_mode=card_mode)


class View:
    """An index of a position: pieces by square and by id, the ball holder."""

    def __init__(self, pos: Position) -> None:
        """Index ``pos``."""
        self.pos = pos
        self.at: dict[str, list[Piece]] = {}
        for p in pos.pieces:
            self.at.setdefault(p.square, []).append(p)
        self.by_id = {p.id: p for p in pos.pieces}
        self.holder = next((p for p in pos.pieces if p.ball), None)

    def empty(self, sq: str) -> bool:
        """No piece and no free ball on ``sq`` (the seed's 空格)."""
        return sq not in self.at and sq != self.pos.free_ball

    def single(self, sq: str) -> Piece | None:
        """The one piece on ``sq`` (None if empty or a stack)."""
        occ = self.at.get(sq)
        return occ[0] if occ is not None and len(occ) == 1 else None

    def passable(self, mid: str, side: str) -> bool:
        """May an ordinary 2-square move pass ``mid``: empty, the free ball, or one able own piece."""
        occ = self.at.get(mid)
        return occ is None or (len(occ) == 1 and occ[0].side == side and occ[0].state == "able")


def game_over(pos: Position) -> bool:
    """A touchdown was scored, or the turn limit passed."""
    return pos.touchdown is not None or pos.turn > TURN_LIMIT


def winner(pos: Position) -> Team | None:
    """The side that won: the touchdown's, or DEF after the turn limit (designed); None while the game runs."""
    if pos.touchdown is not None:
        return pos.touchdown
    return "DEF" if pos.turn > TURN_LIMIT else None


def _moves(v: View, p: Piece, contact: bool) -> Iterable[Action]:
    """A piece's moves (003 §4), with dodge, tactical dodge, block and protect when ``contact``."""
    side = p.side
    for d in DIAG1[p.square]:
        occ = v.at.get(d)
        if occ is None:
            yield Action(p.id, "move", p.square, d)
        elif contact and len(occ) == 1:
            yield Action(p.id, "protect" if occ[0].side == side else "block", p.square, d, target=occ[0].id)
    for mid, d, diagonal in _TWO[p.type][p.square]:
        q = v.single(mid)
        if q is not None and q.side != side and q.state == "able":
            if contact and diagonal and v.empty(d):
                yield from _tactical(v, p, q, mid, d)
            continue
        if not v.passable(mid, side):
            continue
        occ = v.at.get(d)
        if occ is None:
            yield Action(p.id, "move", p.square, d, over=mid)
        elif contact and len(occ) == 1 and occ[0].side != side and occ[0].state == "able":
            for off in DIAG1[d]:
                if v.empty(off):
                    yield Action(p.id, "dodge", p.square, off, over=mid, target=occ[0].id, land=d)


def _tactical(v: View, p: Piece, q: Piece, mid: str, land: str) -> Iterable[Action]:
    """Tactical dodges (003 §6) of ``p`` over ``q`` on ``mid`` to ``land``: every push, and the ball's square."""
    for push in DIAG1[mid]:
        if push == land or not (v.empty(push) or push == p.square):
            continue
        ball_to = None
        if q.ball:
            (cm, rm), (cp, rp) = _COORDS[mid], _COORDS[push]
            b = square(2 * cm - cp, 2 * rm - rp)
            ball_to = b if b is not None and b != land and b not in v.at else mid
        yield Action(p.id, "tactical_dodge", p.square, land, over=mid, target=q.id, push_to=push, ball_to=ball_to)


def _ball_actions(v: View, h: Piece) -> Iterable[Action]:
    """Hand-off, short and long pass of the ball holder ``h`` (003 §8)."""
    own = [p for p in v.pos.pieces if p.side == h.side]
    able = {p.square: p for p in own if p.state == "able" and v.single(p.square) is p}
    seen, todo = {h.square}, [h.square]
    while todo:
        for n in DIAG1[todo.pop()]:
            if n in able and n not in seen:
                seen.add(n)
                todo.append(n)
    for s in seen - {h.square}:
        yield Action(h.id, "handoff", h.square, s, target=able[s].id)
    for r in able.values():
        if r is not h and distance(h.square, r.square) <= 4:
            for b in DIAG1[r.square]:
                if v.empty(b):
                    yield Action(h.id, "short_pass", h.square, r.square, target=r.id, ball_to=b)
    near = {p.square for p in own}.union(*(DIAG1[p.square] for p in own))  # distance < 2: the square, or diagonal
    for b in USABLE - near:
        if b not in v.at:
            yield Action(h.id, "long_pass", h.square, ball_to=b)


def _stand_ups(v: View, p: Piece, kind: str, card: str | None = None) -> Iterable[Action]:
    for d in DIAG1[p.square]:
        if v.empty(d):
            yield Action(p.id, kind, p.square, d, pa=0, card=card)


def _cards(v: View) -> Iterable[Action]:
    """The special actions of the cards the side to move can pay for (designed, 003 §11)."""
    pos, side = v.pos, v.pos.to_move
    pe = pos.pe.get(side, 0)
    own = [p for p in pos.pieces if p.side == side]
    if pe >= CARDS["extra"][1]:
        yield Action("", "card", pa=0, card="extra")
    for p in own:
        if p.state == "down" and pe >= CARDS["rise"][1]:
            yield from _stand_ups(v, p, "card", "rise")
        if p.state != "able":
            continue
        if pe >= CARDS["sprint"][1]:
            for a in _moves(v, p, contact=False):
                yield replace(a, kind="card", card="sprint", pa=0)
        if p.id in pos.took_ball_this_turn and pe >= CARDS["carry"][1]:
            yield Action(p.id, "card", p.square, pa=0, card="carry")
        if pe >= CARDS["swap"][1]:
            for n in DIAG1[p.square]:
                q = v.single(n)
                if q is not None and q.side == side and q.state == "able" and q.id > p.id:
                    yield Action(p.id, "card", p.square, n, target=q.id, pa=0, card="swap")
        if pos.free_ball in DIAG1[p.square] and pe >= CARDS["catch"][1]:
            yield Action(p.id, "card", p.square, pos.free_ball, pa=0, card="catch")


def _recovery(v: View) -> Iterable[Action]:
    """The recovery tasks with a legal solution now (003 §10): stand up, release."""
    pos, side = v.pos, v.pos.to_move
    for p in pos.pieces:
        if p.side != side:
            continue
        if p.state == "down":
            yield from _stand_ups(v, p, "stand_up")
        elif p.state == "stack_top" and p.square not in pos.formed_this_turn:
            bottom = next(b for b in v.at[p.square] if b is not p)
            for t in DIAG1[p.square]:
                for b in DIAG1[p.square]:
                    if t != b and v.empty(t) and v.empty(b):
                        for keeper in ((p.id, bottom.id) if p.ball else (None,)):
                            yield Action(p.id, "release", p.square, t, target=bottom.id, push_to=b,
                                         ball_to=keeper, pa=0)


def legal_actions(pos: Position) -> list[Action]:
    """Every legal action (action phase) or recovery task (recovery phase), sorted by :func:`action_key`."""
    out = generate(pos)
    out.sort(key=action_key)
    return out


def generate(pos: Position) -> list[Action]:
    """:func:`legal_actions` in no particular order (the AI's fast path)."""
    if game_over(pos):
        return []
    v = View(pos)
    out: list[Action] = []
    if pos.phase == "recovery":
        out.extend(_recovery(v))
    else:
        if pos.pa >= 1:
            for p in pos.pieces:
                if p.side == pos.to_move and p.state == "able" and p.id not in pos.took_ball_this_turn:
                    out.extend(_moves(v, p, contact=True))
                    if p.ball:
                        out.extend(_ball_actions(v, p))
        if pos.card_mode:
            out.extend(Action("", "convert_pe", pa=k) for k in range(1, pos.pa + 1))
            out.extend(_cards(v))
    return out


# -- applying ------------------------------------------------------------------------------------------------

def _illegal(pos: Position, action: Action, why: str) -> IllegalMove:
    return IllegalMove(f"{why}; {options(legal_actions(pos), pos, action.piece)}")


def apply(pos: Position, action: Action) -> Position:
    """The position after ``action``; raises :class:`IllegalMove` unless it is one of :func:`legal_actions`."""
    if game_over(pos):
        raise IllegalMove("对局已经结束")
    if action not in generate(pos):  # membership needs no order: no sort (the checked path stays fast)
        phase = {"action": "行动", "recovery": "恢复"}.get(pos.phase, pos.phase)
        raise _illegal(pos, action, f"这不是{phase}阶段合法的 {action.kind}")
    return perform(pos, action)


def _set(pieces: list[Piece], pid: str, square: str | None = None, state: str | None = None,
         ball: bool | None = None, was_down: bool | None = None) -> None:
    i = next(i for i, p in enumerate(pieces) if p.id == pid)
    p = pieces[i]
    pieces[i] = Piece(p.id, p.side, p.type, p.square if square is None else square,
                      p.state if state is None else state,  # type: ignore[arg-type]
                      p.ball if ball is None else ball, p.was_down if was_down is None else was_down)


def perform(pos: Position, a: Action) -> Position:
    """The position after a legal action ``a``, without checking it (the AI's fast path; use :func:`apply`)."""
    pieces = list(pos.pieces)
    by_id = {p.id: p for p in pieces}
    free, took, formed = pos.free_ball, set(pos.took_ball_this_turn), set(pos.formed_this_turn)
    pa, pe = pos.pa - a.pa, dict(pos.pe)
    k, me = a.kind, by_id.get(a.piece)
    if k in ("move", "card") and a.card in (None, "sprint", "catch") and me is not None:
        _set(pieces, me.id, square=a.to)
        if a.to == free:
            _set(pieces, me.id, ball=True)
            free = None
            took.add(me.id)
    elif k == "dodge" and me is not None and a.target:
        q = by_id[a.target]
        _set(pieces, q.id, state="down", ball=False)
        _set(pieces, me.id, square=a.to, ball=me.ball or q.ball)
        if q.ball:
            took.add(me.id)
    elif k == "tactical_dodge" and me is not None and a.target:
        q = by_id[a.target]
        _set(pieces, me.id, square=a.to)
        _set(pieces, q.id, square=a.push_to, state="down", ball=False)
        if q.ball:
            free = a.ball_to
    elif k in ("block", "protect") and me is not None and a.target:
        q = by_id[a.target]
        _set(pieces, q.id, state="stack_bottom", was_down=q.state == "down", ball=False)
        _set(pieces, me.id, square=a.to, state="stack_top", ball=me.ball or q.ball)
        formed.add(str(a.to))
    elif k == "handoff" and me is not None and a.target:
        _set(pieces, me.id, ball=False)
        _set(pieces, a.target, ball=True)
    elif k in ("short_pass", "long_pass") and me is not None:
        _set(pieces, me.id, ball=False)
        free = a.ball_to
    elif k == "convert_pe":
        pe[pos.to_move] = pe.get(pos.to_move, 0) + a.pa
    elif k in ("stand_up",) or a.card == "rise":
        _set(pieces, a.piece, square=a.to, state="able")
    elif k == "release" and me is not None and a.target:
        bottom = by_id[a.target]
        _set(pieces, me.id, square=a.to, state="able", ball=me.ball and a.ball_to == me.id)
        _set(pieces, bottom.id, square=a.push_to, state="down" if bottom.was_down else "able", was_down=False,
             ball=me.ball and a.ball_to == bottom.id)
    elif a.card == "extra":
        pa += 1
    elif a.card == "carry":
        took.discard(a.piece)
    elif a.card == "swap" and me is not None and a.target:
        other_sq = by_id[a.target].square
        _set(pieces, a.target, square=me.square)
        _set(pieces, me.id, square=other_sq)
    if k == "card" and a.card:
        pe[pos.to_move] -= CARDS[a.card][1]
    elif pos.card_mode and k in PE_TABLE:
        pe[pos.to_move] = pe.get(pos.to_move, 0) + PE_TABLE[k]
    touchdown = pos.touchdown
    if k in ORDINARY or k == "card":
        holder = next((p for p in pieces if p.ball), None)
        if holder is not None and in_scoring_zone(holder.side, holder.square):
            touchdown = holder.side
    return Position(tuple(pieces), free, pos.to_move, pos.turn, pa, pe, pos.phase, frozenset(formed),
                    frozenset(took), touchdown, pos.card_mode)


def end_phase(pos: Position) -> Position:
    """Close the action phase (unused PA are lost) or the recovery phase (the next turn; every compulsory task
    with a legal solution must be resolved first). A finished game is returned unchanged."""
    if game_over(pos):
        return pos
    if pos.phase == "action":
        return replace(pos, phase="recovery", pa=0)
    left = legal_actions(pos)
    if left:
        raise IllegalMove("还有必须做的恢复任务：" + "、".join(write(a, pos) for a in left[:8]))
    return replace(pos, phase="action", to_move=other(pos.to_move), turn=pos.turn + 1, pa=2,
                   formed_this_turn=frozenset(), took_ball_this_turn=frozenset())


def play_turn(pos: Position, actions: list[Action]) -> Position:
    """Play a turn's list (action-phase actions, then recovery tasks), closing both phases; each is validated."""
    for a in actions:
        if a.kind in ("stand_up", "release") and pos.phase == "action":
            pos = end_phase(pos)
        pos = apply(pos, a)
        if game_over(pos):
            return pos
    if pos.phase == "action":
        pos = end_phase(pos)
    return end_phase(pos)


def validate(pos: Position) -> list[str]:
    """What is wrong with ``pos`` (empty when valid): squares usable, one piece a square but stacks, one ball."""
    errors = []
    v = View(pos)
    for p in pos.pieces:
        if p.square not in USABLE:
            errors.append(f"{p.id} on unusable {p.square}")
    for sq, occ in v.at.items():
        states = sorted(p.state for p in occ)
        if len(occ) == 2 and states == ["stack_bottom", "stack_top"]:
            continue
        if len(occ) != 1 or occ[0].state in ("stack_bottom", "stack_top"):
            errors.append(f"{sq}: {[p.id for p in occ]} {states}")
    holders = [p for p in pos.pieces if p.ball]
    if len(holders) + (pos.free_ball is not None) != 1:
        errors.append(f"ball: holders {[p.id for p in holders]}, free {pos.free_ball}")
    if pos.free_ball is not None and (pos.free_ball not in USABLE or pos.free_ball in v.at):
        errors.append(f"free ball on {pos.free_ball}")
    for p in holders:
        if p.state == "stack_bottom":
            errors.append(f"{p.id} holds the ball under a stack")
    return errors


def to_json(pos: Position) -> dict[str, object]:
    """DESIGN §12's ``POSITION`` (pieces, free_ball, usable) and the turn's state (to_move, turn, pa, pe …)."""
    return {
        "pieces": [{"id": p.id, "side": p.side, "type": p.type, "square": p.square, "state": p.state,
                    "ball": p.ball} for p in pos.pieces],
        "free_ball": pos.free_ball,
        "usable": USABLE_RULE,
        "to_move": pos.to_move, "turn": pos.turn, "phase": pos.phase, "pa": pos.pa, "pe": dict(pos.pe),
        "card_mode": pos.card_mode, "touchdown": pos.touchdown, "winner": winner(pos),
    }


def action_to_json(a: Action) -> dict[str, object]:
    """DESIGN §12's action record (piece, kind, from, to, over, target, pa) plus the fields that fix it."""
    return {"piece": a.piece, "kind": a.kind, "from": a.frm, "to": a.to, "over": a.over, "target": a.target,
            "pa": a.pa, "land": a.land, "push_to": a.push_to, "ball_to": a.ball_to, "card": a.card}


# -- board and game facts the anko prints ------------------------------------------------------------------

def usable(square: str) -> bool:
    """Is ``square`` (``E5``) a striped, usable square of the board (designed, see the module docstring)?"""
    return square in USABLE


def scoring_rows(side: Team) -> tuple[int, int]:
    """The rows of the end zone ``side`` scores in: ATK attacks towards rows 16–17, DEF towards rows 1–2."""
    return SCORING_ROWS[side]


def usable_rule() -> str:
    """DESIGN §12's ``usable``: the usable squares, end zones and attack direction in words."""
    return USABLE_RULE


def turn_limit() -> int:
    """The designed turn limit: after this turn without a touchdown the game ends and DEF wins."""
    return TURN_LIMIT


def cards() -> dict[str, tuple[str, int]]:
    """Card mode's cards: key → (Chinese name, PE cost); each a special action costing 0 PA."""
    return dict(CARDS)


def pe_table() -> dict[str, int]:
    """Card mode's PE table (designed): PE earned by each action kind."""
    return dict(PE_TABLE)


def perft(pos: Position, depth: int) -> int:
    """Leaves ``depth`` plies below ``pos`` on frozen positions: every generated action, and closing the phase
    where that is legal (the performance review's count; ``engine.Board.perft`` must agree with it)."""
    if depth == 0:
        return 1
    if game_over(pos):
        return 0
    actions = generate(pos)
    n = sum(perft(perform(pos, a), depth - 1) for a in actions)
    if pos.phase == "action" or not actions:
        n += perft(end_phase(pos), depth - 1)
    return n
