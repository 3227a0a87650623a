"""The AI coach of BALL (003): a deterministic search with a score a chapter states in one sentence.

Three strengths (the campaign's ``options.ai_strength``, :data:`STRENGTHS`): 1 searches its own turn only (below);
2 and 3 search two and three turns — its own, the opponent's reply, its own again — by alpha-beta on the fast
board (:mod:`.search`) within a budget of nodes (:data:`SEARCH`), never the clock. Every strength scores the
end of its line by the same :func:`score_parts`, and its sentence states the parts of the very position
that score belongs to (with the reply it expects, when it looked that far).

Strength 1 tries every line of its action phase — no action, one action, or two actions (2 PA) — and plays the line
whose end position scores best for it (:data:`EXPLANATION`); ties go to the line met first in the fixed order of
:func:`.rules.legal_actions` (two-action lines before the one-action line that starts them, doing nothing
last). The recovery phase is then resolved greedily, one compulsory task at a time, by the same score. Card
mode: the AI plays no cards and converts its unused PA into PE. No hidden state, no randomness.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .model import Action, Position, Team
from .rules import (
    DIAG1,
    ORDINARY,
    ROWS,
    TURN_LIMIT,
    action_key,
    distance,
    game_over,
    generate,
    legal_actions,
    other,
    perform,
    two_square_moves,
)
from .search import Search
from .writing import write

EXPLANATION = ("AI 试遍本回合 0–2 个行动的所有组合，取评分最高的一条：评分 = 己方减对方的"
               "（持球 20 + 持球者向达阵区推进的行数 ×10 − 持球者在对方一步之内 15 + 可行动棋子 ×3），"
               "自由球记给离它更近的一方、少记 10 分再减该方最近棋子到球的距离 ×5，达阵 ±1000；同分取固定顺序中靠前的一条。")
"""The one sentence a chapter prints to explain the AI's choice."""
EXPLANATION_KEY = "ball.ai.score"
"""A stable key for the explanation (for templates)."""


STRENGTHS = (1, 2, 3)
"""The AI strengths a campaign may choose."""
SEARCH: dict[int, tuple[int, int]] = {2: (2, 40_000), 3: (3, 400_000)}
"""Designed: strength → (turns searched at most, budget of nodes: actions and tasks made)."""
EXPLANATIONS: dict[int, str] = {
    1: EXPLANATION,
    2: EXPLANATION.replace("AI 试遍本回合 0–2 个行动的所有组合，取评分最高的一条：",
                           "AI 向前看两个回合：本回合的每条路线之后，再设想对方最不利于它的应对，取应对之后评分最高的一条"
                           "（α-β 剪枝，每回合最多 40000 步，步数用完就取已算完的最好路线）。"),
    3: EXPLANATION.replace("AI 试遍本回合 0–2 个行动的所有组合，取评分最高的一条：",
                           "AI 向前看三个回合：本回合、对方最不利于它的应对、它自己的下一回合，取评分最高的一条"
                           "（α-β 剪枝，每回合最多 400000 步，步数用完就取已算完的最好路线）。"),
}
"""The rules post's sentence for each strength."""


def progress(team: str, sq: str) -> int:
    """Rows a square lies ahead of ``team``'s own end: 0 on its own back row, 16 on the row it scores on."""
    row = int(sq[1:])
    return row - 1 if team == "ATK" else ROWS - row


def _threatened(pos: Position, holder_sq: str, by: str) -> bool:
    """Is an able piece of ``by`` one move (diagonal 1, or a 2-square move of its type) from ``holder_sq``?"""
    for p in pos.pieces:
        if p.side != by or p.state != "able":
            continue
        if holder_sq in DIAG1[p.square] or any(d == holder_sq for _, d, _ in two_square_moves(p.type, p.square)):
            return True
    return False


def score_parts(pos: Position, side: Team) -> dict[str, int]:
    """The score of ``pos`` for ``side`` by its parts (see :data:`EXPLANATION`); ``total`` is their sum."""
    if pos.touchdown is not None:
        return {"touchdown": 1000 if pos.touchdown == side else -1000, "total": 1000 if pos.touchdown == side
                else -1000}
    if pos.turn > TURN_LIMIT:  # the turn limit passed: the defence held, DEF wins (only a search looks so far)
        return {"limit": 1000 if side == "DEF" else -1000, "total": 1000 if side == "DEF" else -1000}
    parts = {"ball": 0, "progress": 0, "threat": 0, "able": 0}
    sign = {side: 1, other(side): -1}
    holder, sq = None, pos.free_ball
    near = {"ATK": 99, "DEF": 99}
    for p in pos.pieces:
        if p.ball:
            holder = p
        if p.state == "able":
            parts["able"] += 3 * sign[p.side]
            if sq is not None:
                near[p.side] = min(near[p.side], distance(sq, p.square))
    team: Team | None = None
    if holder is not None:
        team, sq = holder.side, holder.square
        if _threatened(pos, sq, other(team)):
            parts["threat"] -= 15 * sign[team]
    elif sq is not None:
        first: Team = other(pos.to_move)
        team = pos.to_move if near[pos.to_move] < near[first] else first
        parts["ball"] -= (10 + 5 * near[team]) * sign[team]
    if team is not None and sq is not None:
        parts["ball"] += 20 * sign[team]
        parts["progress"] += 10 * progress(team, sq) * sign[team]
    parts["total"] = sum(parts.values())
    return parts


def _score(pos: Position, side: Team) -> int:
    return score_parts(pos, side)["total"]


@dataclass
class Choice:
    """The AI's chosen turn: its actions (recovery tasks included), and the score of the chosen line."""

    actions: list[Action]
    score: int
    parts: dict[str, int] = field(default_factory=dict)
    """:func:`score_parts` of :attr:`leaf`: their ``total`` is :attr:`score`."""
    replies: list[tuple[Team, str]] = field(default_factory=list)
    """The turns the line expects after the AI's own (the opponent's reply first): the side and its moves in
    notation (each side names its own pieces)."""
    leaf: Position | None = None
    """The position the score belongs to (None: strength 1, where it is the end of the chosen actions)."""
    nodes: int = 0
    """Positions the search made (strength 2 and 3; at most its budget)."""


def _ordinary(pos: Position) -> list[Action]:
    return [a for a in legal_actions(pos) if a.kind in ORDINARY]


def choose(pos: Position, strength: int = 1) -> Choice:
    """The AI's turn for the side to move, by the search of the module docstring at ``strength``."""
    if game_over(pos):
        return Choice([], 0)
    if strength > 1:
        return _searched(pos, strength)
    side = pos.to_move
    line: list[Action] = []
    if pos.phase == "action":
        best: tuple[int, list[Action], Position] | None = None
        for a1 in _ordinary(pos):
            p1 = perform(pos, a1)
            mine: tuple[int, list[Action], Position] | None = None
            if not game_over(p1) and p1.pa >= 1:
                for a2 in generate(p1):
                    if a2.kind not in ORDINARY:
                        continue
                    p2 = perform(p1, a2)
                    s = _score(p2, side)
                    if mine is None or s > mine[0] or (s == mine[0] and action_key(a2) < action_key(mine[1][1])):
                        mine = (s, [a1, a2], p2)
            s1 = _score(p1, side)
            if mine is None or s1 > mine[0]:
                mine = (s1, [a1], p1)
            if best is None or mine[0] > best[0]:
                best = mine
        if best is None or _score(pos, side) > best[0]:
            best = (_score(pos, side), [], pos)
        line, pos = list(best[1]), best[2]
        if game_over(pos):
            return Choice(line, best[0], score_parts(pos, side))
        if pos.card_mode and pos.pa > 0:
            conv = Action("", "convert_pe", pa=pos.pa)
            line.append(conv)
            pos = perform(pos, conv)
        pos = replace(pos, phase="recovery", pa=0)
    while True:
        tasks = legal_actions(pos)
        if not tasks:
            break
        t = max(tasks, key=lambda a: (_score(perform(pos, a), side), -tasks.index(a)))
        line.append(t)
        pos = perform(pos, t)
    parts = score_parts(pos, side)
    return Choice(line, parts["total"], parts)


def _searched(pos: Position, strength: int) -> Choice:
    """Strength 2 or 3: the search's line (:mod:`.search`), the AI's own turn played, the rest expected."""
    side = pos.to_move
    search = Search(pos, *SEARCH[strength])
    if pos.phase == "recovery":
        tasks = [search.b.action(t) for t, _ in search.recover(counted=False)]
        parts = score_parts(search.b.position(), side)
        return Choice(tasks, parts["total"], parts)
    found = search.run()
    line = [a for a in found.actions if a.kind not in RECOVERY]
    pa = pos.pa - sum(a.pa for a in line)
    if pos.card_mode and pa > 0 and not (found.leaf.touchdown and not found.replies):
        line.append(Action("", "convert_pe", pa=pa))
    line += [a for a in found.actions if a.kind in RECOVERY]
    own = len(found.actions)
    replies: list[tuple[Team, str]] = []
    for k, turn in enumerate(found.replies):
        done, own = found.steps[own:own + len(turn)], own + len(turn)
        replies.append((other(side) if k % 2 == 0 else side, "，".join(write(a, at) for at, a in done)))
    return Choice(line, found.value, score_parts(found.leaf, side), replies, found.leaf, found.nodes)


RECOVERY = frozenset({"stand_up", "release"})
"""The recovery phase's task kinds."""


def ai_turn(pos: Position, strength: int = 1) -> list[Action]:
    """The AI's actions for the turn to move (action phase, then recovery tasks)."""
    return choose(pos, strength).actions


def ai_explain(pos: Position, strength: int = 1) -> str:
    """The sentence that explains the AI's choice, with the chosen line's score and its parts."""
    return explain(choose(pos, strength), strength=strength)


def ai_plan(pos: Position, strength: int = 1) -> tuple[list[Action], str]:
    """The AI's actions for the turn to move and the sentence a chapter prints for them (one search for
    both): the chosen line's score by its parts; the scoring rule itself (:data:`EXPLANATIONS`) is stated
    once, in the rules post, not in every chapter."""
    c = choose(pos, strength)
    return c.actions, explain(c, rule=False, strength=strength)


def _signed(v: int) -> str:
    """``+3``, ``−5`` (a true minus sign, as the chapters print numbers), ``+0``."""
    return f"−{-v}" if v < 0 else f"+{v}"


PART_NAMES = {"ball": "控球", "progress": "推进", "threat": "威胁", "able": "可行动", "touchdown": "达阵",
              "limit": "守满回合"}
"""Each score part's name in the chapters."""


def explain(c: Choice, rule: bool = True, strength: int = 1) -> str:
    """The sentence of :func:`ai_explain` for a chosen line ``c`` (with the scoring rule when ``rule``): the
    parts of the position its score belongs to, and the replies it expects (strength 2 and 3)."""
    detail = "，".join(f"{PART_NAMES[k]} {_signed(v)}" for k, v in c.parts.items() if k != "total")
    value = _signed(c.score) if c.score < 0 else str(c.score)
    if c.replies:
        expect = "，然后".join(f" {team}「{moves}」" for team, moves in c.replies)
        score = f"本回合所选路线评分 {value}：预计接下来{expect}，之后的局面（{detail}）。"
    else:
        score = f"本回合所选路线评分 {value}（{detail}）。"
    return f"{EXPLANATIONS[strength]}{score}" if rule else score
