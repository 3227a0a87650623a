"""A tiny BALL world on the real contract's dataclasses (``game/api.py``), for the anko's tests while the real
game is written apart: a checkerboard of usable squares, pieces that step one diagonal square (``move``) or jump
an able opponent diagonally (``tactical_dodge``: it falls down, and drops the ball to the jumper), a recovery
phase that stands one's own fallen pieces up, the notation ``X1 E5-F6`` / ``X1 起身 F6``, a greedy AI, and a
touchdown when the ball carrier reaches the far row (ATK row 17, DEF row 1).
"""

from __future__ import annotations

import re
from dataclasses import replace

from anko_writer.rulesets.ball.game.api import Action, IllegalMove, Piece, Position, Team

COLS = "ABCDEFGHIJKLM"
ROWS = 17
TYPES = ("X", "X", "X", "X", "X", "O", "S")


def sq(c: int, r: int) -> str:
    """The square at column index ``c`` (0–12) and row ``r`` (1–17)."""
    return f"{COLS[c]}{r}"


def cr(square: str) -> tuple[int, int]:
    """Column index and row of ``square``."""
    return COLS.index(square[0]), int(square[1:])


def usable(square: str) -> bool:
    """Striped squares: column index + row even."""
    c, r = cr(square)
    return (c + r) % 2 == 0


def _on(c: int, r: int) -> bool:
    """Inside the board and usable."""
    return 0 <= c < len(COLS) and 1 <= r <= ROWS and (c + r) % 2 == 0


def standard_position() -> Position:
    """ATK on rows 2–3, DEF on rows 15–16; ATK X5 holds the ball; DEF to move, turn 1."""
    pieces: list[Piece] = []
    for side, rows in (("ATK", (2, 3)), ("DEF", (16, 15))):
        counts: dict[str, int] = {}
        squares = [sq(c, r) for r in rows for c in range(len(COLS)) if (c + r) % 2 == 0][:7]
        for kind, square in zip(TYPES, squares):
            counts[kind] = counts.get(kind, 0) + 1
            pid = f"{side}-{kind}{counts[kind]}"
            pieces.append(Piece(pid, side, kind, square, ball=pid == "ATK-X5"))  # type: ignore[arg-type]
    return Position(tuple(pieces), None, "DEF", 1)


def _at(pos: Position, square: str) -> Piece | None:
    """The piece on ``square``."""
    return next((p for p in pos.pieces if p.square == square), None)


def legal_actions(pos: Position) -> list[Action]:
    """Steps and jumps (action phase, PA left); stand-ups of one's own fallen pieces (recovery)."""
    out: list[Action] = []
    mine = [p for p in pos.pieces if p.side == pos.to_move]
    if pos.phase == "recovery":
        for p in mine:
            if p.state == "down":
                c, r = cr(p.square)
                for dc, dr in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
                    if _on(c + dc, r + dr) and _at(pos, sq(c + dc, r + dr)) is None:
                        out.append(Action(p.id, "stand_up", p.square, sq(c + dc, r + dr), pa=0))
        return out
    if pos.pa < 1 or pos.touchdown:
        return out
    for p in mine:
        if p.state != "able" or p.id in pos.took_ball_this_turn:
            continue
        c, r = cr(p.square)
        for dc, dr in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
            if not _on(c + dc, r + dr):
                continue
            there = _at(pos, sq(c + dc, r + dr))
            if there is None:
                out.append(Action(p.id, "move", p.square, sq(c + dc, r + dr)))
            elif there.side != p.side and there.state == "able" and _on(c + 2 * dc, r + 2 * dr) \
                    and _at(pos, sq(c + 2 * dc, r + 2 * dr)) is None:
                out.append(Action(p.id, "tactical_dodge", p.square, sq(c + 2 * dc, r + 2 * dr),
                                  over=there.square, target=there.id))
    return out


def apply(pos: Position, action: Action) -> Position:
    """The position after ``action``."""
    if action not in legal_actions(pos):
        raise IllegalMove(f"not legal: {action}")
    pieces = {p.id: p for p in pos.pieces}
    mover = pieces[action.piece]
    took = set(pos.took_ball_this_turn)
    if action.kind == "stand_up":
        pieces[mover.id] = replace(mover, square=action.to or mover.square, state="able")
        return replace(pos, pieces=tuple(pieces.values()))
    ball = mover.ball
    if action.kind == "tactical_dodge" and action.target:
        target = pieces[action.target]
        if target.ball:
            ball = True
            took.add(mover.id)
        pieces[target.id] = replace(target, state="down", ball=False)
    moved = replace(mover, square=action.to or mover.square, ball=ball)
    pieces[mover.id] = moved
    touchdown: Team | None = None
    if moved.ball and cr(moved.square)[1] == (ROWS if moved.side == "ATK" else 1):
        touchdown = moved.side
    return replace(pos, pieces=tuple(pieces.values()), pa=pos.pa - action.pa, took_ball_this_turn=frozenset(took),
                   touchdown=touchdown)


def end_phase(pos: Position) -> Position:
    """Action → recovery; recovery → the other side's turn."""
    if pos.phase == "action":
        return replace(pos, phase="recovery", pa=0)
    other: Team = "ATK" if pos.to_move == "DEF" else "DEF"
    return replace(pos, phase="action", pa=2, to_move=other, turn=pos.turn + 1, took_ball_this_turn=frozenset())


def _label(pid: str) -> str:
    """``ATK-X1`` → ``X1``."""
    return pid.split("-", 1)[1]


def write(action: Action, pos: Position) -> str:
    """``X1 E5-F6`` or ``X1 起身 F6``."""
    if action.kind == "stand_up":
        return f"{_label(action.piece)} 起身 {action.to}"
    return f"{_label(action.piece)} {action.frm}-{action.to}"


NOTATION = re.compile(r"\s*([XOS□])(\d)\s+(?:([A-M]\d{1,2})-([A-M]\d{1,2})|起身\s+([A-M]\d{1,2}))\s*")


def parse(text: str, pos: Position) -> Action:
    """The legal action ``text`` names; IllegalMove lists the named piece's legal actions."""
    m = NOTATION.fullmatch(text)
    if not m:
        raise IllegalMove(f"cannot read {text!r} (write it as X1 E5-F6)")
    pid = f"{pos.to_move}-{m.group(1).replace('□', 'S')}{m.group(2)}"
    if not any(p.id == pid for p in pos.pieces):
        raise IllegalMove(f"no piece {m.group(1)}{m.group(2)}")
    legal = [a for a in legal_actions(pos) if a.piece == pid]
    for a in legal:
        if m.group(5) and a.kind == "stand_up" and a.to == m.group(5):
            return a
        if not m.group(5) and a.frm == m.group(3) and a.to == m.group(4):
            return a
    listed = ", ".join(write(a, pos) for a in legal) or "none"
    raise IllegalMove(f"{text!r} is not legal here (legal for {m.group(1)}{m.group(2)}: {listed})")


def ai_turn(pos: Position) -> list[Action]:
    """Greedy: the ball carrier runs for the far row, everyone else follows it; recovery stands up the first way."""
    out: list[Action] = []
    while pos.phase == "action":
        legal = legal_actions(pos)
        if not legal or pos.touchdown:
            break
        ahead = 1 if pos.to_move == "ATK" else -1

        def score(a: Action) -> tuple[int, int]:
            """Jumps and the carrier's progress first."""
            p = next(x for x in pos.pieces if x.id == a.piece)
            gain = (cr(a.to or p.square)[1] - cr(p.square)[1]) * ahead
            return (10 * gain if p.ball else gain) + (5 if a.kind == "tactical_dodge" else 0), -legal.index(a)

        best = max(legal, key=score)
        out.append(best)
        pos = apply(pos, best)
        if pos.pa == 0:
            pos = end_phase(pos)
    if pos.touchdown:
        return out
    if pos.phase == "action":
        pos = end_phase(pos)
    while legal := legal_actions(pos):
        out.append(legal[0])
        pos = apply(pos, legal[0])
    return out


def to_json(pos: Position) -> dict[str, object]:
    """DESIGN §12's POSITION."""
    return {"pieces": [{"id": p.id, "side": p.side, "type": p.type, "square": p.square, "state": p.state,
                        "ball": p.ball} for p in pos.pieces],
            "free_ball": pos.free_ball, "usable": "column index + row even (fake)"}
