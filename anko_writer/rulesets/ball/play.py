"""A BALL game as chapters: the readers' voted moves and the AI's replies, turn by turn, into DESIGN §12 records.

A chapter (part ``n`` of game ``g``) holds the readers' turn and the AI's reply; readers who play ATK first see
DEF's opening turn, so their first chapter holds turns 1–3. A readers' turn plays the vote ``moves.g<g>t<n>``
(parsed by the game's notation; an illegal or ambiguous move is a :class:`VoteError` that the campaign schema
places at its line and key); a missing vote is played by the AI for the readers' side, and the chapter says so.
Each chapter ends with the next vote as a ballot in the core vote format (:mod:`.votes`), its reply line filled
with the plan the AI would play for the readers (one search serves the line and that fallback).
The game ends at a touchdown or after the turn limit: the game's own (:func:`.game.api.turn_limit`, 40), or a
shorter one the campaign sets; either way no touchdown by then means the defence held and DEF wins, as the
game's :func:`.game.api.winner` says. Card mode comes from the campaign (``options.cards``) through
``standard_position(card_mode)``; without it no card or PE action is offered, voted or played. No dice anywhere.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, Protocol

from ...ballot import DEADLINE, VoteError, deadline_of
from ...chapters import Record
from ...errors import AnkoError
from ...kit.grid import chebyshev
from .board import BOARD, SIDES, label
from .game import api
from .game.api import Action, IllegalMove, Position, Team
from .votes import CARD_KINDS, PIECE, RECOVERY_KINDS, ball_ballot

STRENGTHS = api.STRENGTHS
"""The AI strengths a campaign may choose (``options.ai_strength``)."""
DEFAULT_STRENGTH = 2
"""Designed: the AI looks at the readers' best reply unless the campaign says otherwise."""
TURN_LIMIT = api.turn_limit()
"""The game's turn limit (both sides' turns counted): no touchdown by then and DEF wins."""
LIMIT_WINNER: Team = "DEF"
"""Who wins when the turn limit passes without a touchdown (the game's rule: the defence held)."""
MAX_TASKS = 32
"""Recovery tasks one phase may take before the game is judged stuck (a bug in the game, not in a vote)."""
SHOWN = 30
"""Legal moves listed in an error message before 「… and N more」."""
PLANS_KEPT = 4096
"""AI plans a process keeps (:func:`searched`): a campaign's check replays each voted game up to its last vote,
then the chapters replay it again, and the same positions are searched in both (issue 29)."""


class Game(Protocol):
    """What the anko calls of the game (``game/api.py``; tests pass a fake with the same names)."""

    def standard_position(self, card_mode: bool = False) -> Position:
        """The standard formation, DEF to move (card mode on or off)."""

    def legal_actions(self, pos: Position) -> list[Action]:
        """Every legal action or recovery task, in a fixed order."""

    def apply(self, pos: Position, action: Action) -> Position:
        """The position after ``action`` (IllegalMove if it is not legal)."""

    def end_phase(self, pos: Position) -> Position:
        """Close the action or the recovery phase."""

    def parse(self, text: str, pos: Position) -> Action:
        """The action a reader's notation names (IllegalMove if none)."""

    def write(self, action: Action, pos: Position) -> str:
        """The notation of ``action``."""

    def ai_turn(self, pos: Position, strength: int = 1) -> list[Action]:
        """The AI's actions for the turn to move, recovery tasks included (at ``strength`` 1–3)."""

    def to_json(self, pos: Position) -> dict[str, object]:
        """DESIGN §12's POSITION."""

    def ai_plan(self, pos: Position, strength: int = 1) -> tuple[list[Action], str]:
        """The AI's actions and ``ai_explain``'s sentence (its chosen line's score parts), from one search."""

    def winner(self, pos: Position) -> Team | None:
        """The side that won (a touchdown, or DEF after the game's turn limit); None while the game runs."""


@dataclass(frozen=True)
class Setup:
    """What the campaign fixes for its games."""

    readers: Team
    """The side the readers play."""
    cards: bool = False
    turn_limit: int = TURN_LIMIT
    games: int = 1
    moves: Mapping[str, Any] = field(default_factory=dict)
    """Votes keyed ``g<game>t<part>``: a list of moves, or ``{actions: [...], recovery: [...]}``."""
    deadline: str = DEADLINE
    """When a chapter's vote closes, as its vote block states it."""
    strength: int = DEFAULT_STRENGTH
    """``options.ai_strength``: how far the AI looks ahead (:data:`.game.ai.STRENGTHS`)."""

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Setup:
        """The setup of a validated campaign."""
        opts = data.get("options", {})
        return cls(data["side"], bool(opts.get("cards", False)), int(opts.get("turn_limit", TURN_LIMIT)),
                   int(opts.get("games", 1)), data.get("moves", {}), deadline_of(data),
                   int(opts.get("ai_strength", DEFAULT_STRENGTH)))

    @property
    def ai(self) -> Team:
        """The AI's side."""
        return other(self.readers)


@dataclass
class GameStory:
    """One game told as chapter records, and how it ended (None: not played to its end)."""

    arc: int
    chapters: list[Record]
    end: Record | None


def other(side: Team) -> Team:
    """The opposing side."""
    return "DEF" if side == "ATK" else "ATK"


def vote_key(arc: int, part: int) -> str:
    """The vote's key: ``g1t3``."""
    return f"g{arc}t{part}"


class Table:
    """One game at the table: the game's functions, the campaign's setup, the position."""

    def __init__(self, game: Game, setup: Setup, arc: int) -> None:
        self.game, self.setup, self.arc = game, setup, arc
        self.pos = game.standard_position(setup.cards)
        self._planned: tuple[Position, tuple[list[Action], str]] | None = None
        """The AI's last plan and the position it was made for (the vote's example is the plan the AI
        then plays if nobody votes: one search for both)."""

    # --- a whole game -----------------------------------------------------------------------------------------

    def play(self, last_part: int | None = None, offer: bool = True) -> GameStory:
        """Chapters 1..``last_part`` (None: to the game's end); ``offer``: each with the next vote (checking
        a campaign's votes needs none)."""
        chapters: list[Record] = []
        end: Record | None = None
        part = 0
        while end is None and (last_part is None or part < last_part):
            part += 1
            turns, end = self.chapter(part)
            chapters.append({"arc": self.arc, "part": part, "turns": turns, "end": end,
                             "vote": None if end or not offer else self.vote(part + 1)})
        return GameStory(self.arc, chapters, end)

    def chapter(self, part: int) -> tuple[list[Record], Record | None]:
        """The turns of chapter ``part``: up to the readers' turn, then the AI's reply; the game's end if it came."""
        turns: list[Record] = []
        readers_done = False
        while True:
            ours = self.pos.to_move == self.setup.readers
            if ours:
                turns.append(self.readers_turn(vote_key(self.arc, part)))
            else:
                turns.append(self.ai_turn())
            if self.pos.touchdown:
                return turns, {"winner": self.pos.touchdown, "how": "touchdown", "turn": turns[-1]["n"]}
            won = self.game.winner(self.pos)
            if won is not None or self.pos.turn > self.setup.turn_limit:
                return turns, {"winner": won or LIMIT_WINNER, "how": "limit", "turn": self.pos.turn - 1}
            if readers_done or (ours and self.pos.to_move == self.setup.readers):
                return turns, None
            readers_done = readers_done or ours

    # --- turns ------------------------------------------------------------------------------------------------

    def readers_turn(self, key: str) -> Record:
        """The readers' turn from their vote ``key`` (the AI for them when there is none)."""
        vote = self.setup.moves.get(key)
        if vote is None:
            return self.ai_turn(coach="ai", fallback=key)
        before = self.pos
        if isinstance(vote, Mapping):
            actions, recovery = list(vote.get("actions", [])), vote.get("recovery")
            act_at: tuple[str | int, ...] = ("moves", key, "actions")
            rec_at: tuple[str | int, ...] = ("moves", key, "recovery")
        else:
            actions, recovery, act_at, rec_at = list(vote), None, ("moves", key), ("moves", key)
        done: list[Record] = []
        for i, text in enumerate(actions):
            where = (*act_at, i)
            if self.pos.touchdown:
                raise VoteError(where, f"对局已经结束：{self.pos.touchdown} 在上一步达阵")
            if self.pos.phase != "action":
                raise VoteError(where, "行动阶段已经结束（行动点用完了）")
            done.append(self.voted(str(text), where))
        recovered: list[Record] = []
        lost = 0
        if not self.pos.touchdown:
            lost = self.close_actions()
            for i, text in enumerate(recovery or []):
                recovered.append(self.voted(str(text), (*rec_at, i), recovery=True))
            recovered += self.finish_recovery(auto=True)
            self.pos = self.game.end_phase(self.pos)
        return self.turn_record(before, "readers", key, done, recovered, lost)

    def ai_turn(self, coach: str = "ai", fallback: str | None = None) -> Record:
        """The AI's turn (``fallback``: the readers' vote key it stands in for)."""
        before = self.pos
        plan, reason = self.ai_plan(before)
        done: list[Record] = []
        recovered: list[Record] = []
        lost = 0
        for a in plan:
            if self.pos.touchdown:
                break
            if a.kind in RECOVERY_KINDS and self.pos.phase == "action":
                lost = self.close_actions()
            if a.kind not in RECOVERY_KINDS and self.pos.phase != "action":
                break
            (recovered if a.kind in RECOVERY_KINDS else done).append(self.step(a, "the AI's plan"))
        if not self.pos.touchdown:
            if self.pos.phase == "action":
                lost = self.close_actions()
            recovered += self.finish_recovery(auto=False)
            self.pos = self.game.end_phase(self.pos)
        turn = self.turn_record(before, coach, fallback, done, recovered, lost)
        turn["reason"] = reason
        return turn

    def ai_plan(self, pos: Position) -> tuple[list[Action], str]:
        """The AI's plan for ``pos`` (card actions only in card mode) and its sentence; searched once."""
        if self._planned is None or self._planned[0] is not pos:
            plan, reason = searched(self.game, pos, self.setup.strength)
            self._planned = (pos, ([a for a in plan if self.setup.cards or a.kind not in CARD_KINDS], reason))
        return self._planned[1]

    def suggestion(self) -> tuple[list[str], list[str] | None]:
        """The AI's plan for the side to move, as notation: its actions, and its recovery tasks when the
        recovery phase after those actions offers a choice (more than one legal task; else None). The
        recovery example is the first legal task if the plan has none."""
        pos = self.pos
        actions: list[str] = []
        recovery: list[str] = []
        closed: Position | None = None
        for a in self.ai_plan(pos)[0]:
            if pos.touchdown or (a.kind not in RECOVERY_KINDS and pos.phase != "action"):
                break
            if a.kind in RECOVERY_KINDS and pos.phase == "action":
                pos = closed = self.game.end_phase(pos)
            (recovery if a.kind in RECOVERY_KINDS else actions).append(self.game.write(a, pos))
            pos = self.game.apply(pos, a)
        if pos.touchdown:
            return actions, None
        if closed is None:
            closed = self.game.end_phase(pos) if pos.phase == "action" else pos
        tasks = self.game.legal_actions(closed)
        if len(tasks) < 2:
            return actions, None
        return actions, recovery or [self.game.write(tasks[0], closed)]

    def close_actions(self) -> int:
        """End the action phase; the action points left unused (lost)."""
        lost = self.pos.pa
        self.pos = self.game.end_phase(self.pos)
        return lost

    def finish_recovery(self, auto: bool) -> list[Record]:
        """Resolve every compulsory task still open, as the AI would (else the first in the game's order)."""
        out: list[Record] = []
        for _ in range(MAX_TASKS):
            legal = self.game.legal_actions(self.pos)
            if not legal:
                return out
            plan = self.game.ai_turn(self.pos, self.setup.strength)
            choice = plan[0] if plan and plan[0] in legal else legal[0]
            rec = self.step(choice, "a recovery task")
            rec["auto"] = auto
            out.append(rec)
        raise AnkoError(f"turn {self.pos.turn}: the recovery phase still offers tasks after {MAX_TASKS} (a bug in "
                        f"the game)")

    def voted(self, text: str, where: tuple[str | int, ...], recovery: bool = False) -> Record:
        """Play one voted move, or a VoteError at ``where`` listing the named piece's legal moves."""
        pos = self.pos
        try:
            action = self.game.parse(text, pos)
        except IllegalMove as exc:
            raise VoteError(where, self.refusal(text, str(exc))) from None
        if action.kind in CARD_KINDS and not self.setup.cards:
            raise VoteError(where, f"{text!r} 需要卡牌模式（options.cards 是 false）")
        if (action.kind in RECOVERY_KINDS) != recovery:
            phase = "恢复" if recovery else "行动"
            raise VoteError(where, f"{text!r} 不是{phase}阶段的行动")
        try:
            rec = self.step(action, "")
        except IllegalMove as exc:
            raise VoteError(where, self.refusal(text, str(exc))) from None
        return rec

    def refusal(self, text: str, why: str) -> str:
        """Why ``text`` is refused, with the legal moves of the piece it names (or of every piece)."""
        legal = self.options()
        if text not in why:
            why = f"{text!r}: {why}"
        m = PIECE.match(text)
        named = f"{m.group(1).upper().replace('□', 'S').replace('■', 'S')}{m.group(2)}" if m else None
        pid = f"{self.pos.to_move}-{named}" if named else None
        mine = [w for a, w in legal if a.piece == pid] if pid else []
        if pid and not any(p.id == pid for p in self.pos.pieces):
            return f"{why}（{self.pos.to_move} 方没有棋子 {named}）"
        shown = mine if pid else [w for _, w in legal]
        if shown and all(w in why for w in shown):
            return why
        who = f"{named} 的" if pid else "眼下的"
        listed = "、".join(shown[:SHOWN]) + (f" … 还有 {len(shown) - SHOWN} 个" if len(shown) > SHOWN else "")
        return f"{why}；{who}合法行动：{listed or '无'}"

    def options(self) -> list[tuple[Action, str]]:
        """The legal actions now with their notation (card actions only in card mode)."""
        return [(a, self.game.write(a, self.pos)) for a in self.game.legal_actions(self.pos)
                if self.setup.cards or a.kind not in CARD_KINDS]

    def step(self, action: Action, whose: str) -> Record:
        """Apply one action; its record (an IllegalMove from a voted move propagates; from the AI it is a bug)."""
        before = self.pos
        notation = self.game.write(action, before)
        try:
            self.pos = self.game.apply(before, action)
        except IllegalMove as exc:
            if not whose:
                raise
            raise AnkoError(f"turn {before.turn}: {whose} holds an illegal action {notation!r}: {exc} (a bug in the "
                            f"game)") from None
        return action_record(action, notation, before, self.pos)

    def turn_record(self, before: Position, coach: str, key: str | None, actions: list[Record],
                    recovery: list[Record], lost: int) -> Record:
        """DESIGN §12's turn, and what the chapter adds (whose vote, the AI's motive, unused PA)."""
        side = before.to_move
        return {"n": before.turn, "side": side, "coach": "readers" if coach == "readers" else "ai",
                "readers_side": side == self.setup.readers, "vote": key,
                "fallback": side == self.setup.readers and coach != "readers",
                "kickoff": before.turn == 1, "before": self.game.to_json(before), "actions": actions,
                "recovery": recovery, "after": self.game.to_json(self.pos), "pe": dict(self.pos.pe),
                "touchdown": self.pos.touchdown, "pa_lost": lost, "motive": motive(side, actions, recovery)}

    # --- the next vote ----------------------------------------------------------------------------------------

    def vote(self, part: int) -> Record:
        """What readers may vote for chapter ``part``: counts by piece, examples, every legal first action, and
        the ballot (:mod:`.votes`) whose reply line is filled with the AI's plan for the readers' side."""
        by_piece: dict[str, list[str]] = {}
        for a, written in self.options():
            by_piece.setdefault(a.piece, []).append(written)
        pieces = [{"piece": pid, "label": label(pid), "count": len(ws), "moves": ws} for pid, ws in by_piece.items()]
        examples = [p["moves"][0] for p in pieces][:4]  # type: ignore[index]
        key = vote_key(self.arc, part)
        actions, recovery = self.suggestion()
        ballot = ball_ballot(key, self.setup.deadline, actions or [str(e) for e in examples[:1]], recovery)
        return {"key": key, "turn": self.pos.turn, "side": self.pos.to_move,
                "pa": self.pos.pa, "pe": self.pos.pe.get(self.pos.to_move, 0), "cards": self.setup.cards,
                "total": sum(len(ws) for ws in by_piece.values()), "pieces": pieces, "examples": examples,
                "deadline": self.setup.deadline, "ballot": ballot.to_record()}


def action_record(a: Action, notation: str, before: Position, after: Position) -> Record:
    """DESIGN §12's action (``piece, kind, from, to, over, target, pa``) with its notation, what it did, and the
    facts from the Action's fields that make it legal (the chapter's 「为什么合法」)."""
    mover = next((p for p in before.pieces if p.id == a.piece), None)
    rec: Record = {**api.action_to_json(a), "notation": notation,
                   "label": label(a.piece) if a.piece else None, "type": mover.type if mover else None,
                   "target_label": _maybe_label(a.target), "ball_to_label": _maybe_label(a.ball_to),
                   "shape": shape(a.frm, a.to), "pa_left": after.pa, "effects": effects(before, after, a.piece),
                   **facts(a, before, after)}
    if a.kind in RECOVERY_KINDS:
        rec["also"], rec["auto"] = a.push_to, False
    return rec


def facts(a: Action, before: Position, after: Position) -> Record:
    """What the narration needs beyond the Action's fields: who held the ball, who took it, distances, PE."""
    side = before.to_move
    old = {p.id: p for p in before.pieces}
    new = {p.id: p for p in after.pieces}
    target = old.get(a.target or "")
    mover = old.get(a.piece)
    out: Record = {
        "path": shape(a.frm, a.land if a.kind == "dodge" else a.to),
        "over_state": _over(before, a),
        "target_had_ball": bool(target and target.ball),
        "target_down": bool(target and target.state == "down"),
        "took_ball": a.piece in after.took_ball_this_turn and a.piece not in before.took_ball_this_turn,
        "pickup": before.free_ball is not None and after.free_ball is None and a.piece in new
                  and new[a.piece].ball,
        "had_ball": bool(mover and mover.ball),
        "pe_before": before.pe.get(side, 0), "pe_after": after.pe.get(side, 0),
        "pe_gain": after.pe.get(side, 0) - before.pe.get(side, 0),
        "card_mode": before.card_mode,
    }
    if a.kind == "short_pass" and a.frm and a.to:
        out["distance"] = chebyshev(BOARD.coords(a.frm), BOARD.coords(a.to))
    if a.kind == "long_pass" and a.ball_to:
        own = [p.square for p in before.pieces if p.side == side]
        out["nearest"] = min((chebyshev(BOARD.coords(a.ball_to), BOARD.coords(s)) for s in own), default=0)
    if a.kind == "release":
        bottom = old.get(a.target or "")
        out["bottom_was_down"] = bool(bottom and bottom.was_down)
        out["keeper_label"] = _maybe_label(a.ball_to)
    if a.kind == "card" and a.card:
        name, cost = api.cards()[a.card]
        out["card_name"], out["card_cost"] = name, cost
    return out


def _over(pos: Position, a: Action) -> str | None:
    """What the middle square of a 2-square path held: ``empty``, ``ball`` (the free ball) or ``own``."""
    if not a.over:
        return None
    if a.over == pos.free_ball:
        return "ball"
    held = [p for p in pos.pieces if p.square == a.over]
    if not held:
        return "empty"
    return "own" if held[0].side == pos.to_move else "opponent"


def _maybe_label(value: str | None) -> str | None:
    """A piece id's label (``DEF-O1`` → ``o1``); None for a square or nothing."""
    return label(value) if value and "-" in value else None


def shape(frm: str | None, to: str | None) -> str | None:
    """The path's shape: ``diag1``, ``diag2``, ``line2`` … (None when it is not a plain path)."""
    if not frm or not to:
        return None
    (c1, r1), (c2, r2) = BOARD.coords(frm), BOARD.coords(to)
    dc, dr = abs(c2 - c1), abs(r2 - r1)
    if dc == dr and dc:
        return f"diag{dc}"
    if (dc == 0) != (dr == 0):
        return f"line{dc + dr}"
    return None


def effects(before: Position, after: Position, actor: str) -> list[Record]:
    """What changed besides the actor's own move: states, pushed pieces, the ball, a touchdown."""
    out: list[Record] = []
    old = {p.id: p for p in before.pieces}
    for p in after.pieces:
        q = old.get(p.id)
        if q is None:
            continue
        if q.state != p.state:
            out.append({"kind": "state", "piece": p.id, "label": label(p.id), "state": p.state, "was": q.state})
        if q.square != p.square and p.id != actor:
            out.append({"kind": "moved", "piece": p.id, "label": label(p.id), "to": p.square})
    holder = next((p.id for p in after.pieces if p.ball), None)
    if holder is not None and holder != next((p.id for p in before.pieces if p.ball), None):
        out.append({"kind": "ball", "piece": holder, "label": label(holder)})
    if after.free_ball and after.free_ball != before.free_ball:
        out.append({"kind": "free_ball", "square": after.free_ball})
    if after.touchdown and not before.touchdown:
        out.append({"kind": "touchdown", "side": after.touchdown})
    return out


def motive(side: Team, actions: Sequence[Record], recovery: Sequence[Record]) -> str:
    """The turn in one word for the AI's sentence: touchdown, steal, knockdown, block, pass, carry or shape."""
    fx = [e for a in actions for e in a["effects"]]
    if any(e["kind"] == "touchdown" for e in fx):
        return "touchdown"
    if any(e["kind"] == "ball" and str(e["piece"]).startswith(side) for e in fx) and \
            any(a["kind"] in ("dodge", "tactical_dodge", "block", "move") for a in actions):
        return "steal" if any(a["kind"] != "move" for a in actions) else "pickup"
    if any(e["kind"] == "state" and e["state"] == "down" and not str(e["piece"]).startswith(side) for e in fx):
        return "knockdown"
    if any(a["kind"] in ("block", "protect") for a in actions):
        return "block"
    if any(a["kind"] in ("handoff", "short_pass", "long_pass") for a in actions):
        return "pass"
    if not actions:
        return "wait"
    return "shape"


def game_facts() -> dict[str, object]:
    """The game's designed facts the chapters and the rules post print (from :mod:`.game.api`, never guessed)."""
    return {"end_zones": {side: list(api.scoring_rows(side)) for side in SIDES},
            "limit_winner": LIMIT_WINNER, "game_turn_limit": TURN_LIMIT, "pe_table": api.pe_table(),
            "card_list": [{"key": k, "name": n, "cost": c} for k, (n, c) in api.cards().items()]}


_PLANS: OrderedDict[tuple[object, int, tuple[object, ...]], tuple[tuple[Action, ...], str]] = OrderedDict()
"""The process's last :data:`PLANS_KEPT` searches by search function, strength and position (:func:`searched`)."""


def searched(game: Game, pos: Position, strength: int) -> tuple[list[Action], str]:
    """``game.ai_plan(pos, strength)``, searched once a process for a position seen before: the search is a
    function of the position and the strength alone (its budget counts nodes, never time), so a kept plan is the
    plan a new search finds. A position that cannot be a key (not a dataclass) is searched every time."""
    key = _position_key(pos)
    if key is None:
        return game.ai_plan(pos, strength)
    at = (game.ai_plan, strength, key)  # the function itself: a game whose search is swapped keeps none of the old
    kept = _PLANS.get(at)
    if kept is None:
        plan, reason = game.ai_plan(pos, strength)
        kept = _PLANS[at] = (tuple(plan), reason)
        if len(_PLANS) > PLANS_KEPT:
            _PLANS.popitem(last=False)
    else:
        _PLANS.move_to_end(at)
    return list(kept[0]), kept[1]


def _position_key(pos: object) -> tuple[object, ...] | None:
    """Every field of the position ``pos`` in order, a mapping as its sorted items; None if one is unhashable
    (or ``pos`` is no dataclass)."""
    if not is_dataclass(pos):
        return None
    key = tuple(tuple(sorted(v.items())) if isinstance(v, Mapping) else v
                for v in (getattr(pos, f.name) for f in fields(pos)))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def play_game(game: Game, setup: Setup, arc: int, last_part: int | None = None, offer: bool = True) -> GameStory:
    """Game ``arc`` of the campaign, chapters 1..``last_part`` (None: to its end), with their votes (``offer``)."""
    return Table(game, setup, arc).play(last_part, offer)


def opening(game: Game, setup: Setup) -> Record:
    """Chapter 0's board: the standard formation, DEF's opening turn when the readers play ATK, the first vote."""
    table = Table(game, setup, 1)
    start = game.to_json(table.pos)
    turns = [] if table.pos.to_move == setup.readers else [table.ai_turn()]
    return {"start": start, "turns": turns, "vote": table.vote(1)}


def vote_position(game: Game, setup: Setup, key: str) -> Position | None:
    """The position the readers' vote ``key`` (``g1t4``) is cast in, as the chapter before it left the game
    (after the AI's opening turn for game 1 when the readers play ATK); None: the game ended before it."""
    m = re.fullmatch(r"g(\d+)t(\d+)", key)
    if not m:
        return None
    table = Table(game, setup, int(m.group(1)))
    if table.play(int(m.group(2)) - 1, offer=False).end is not None:
        return None
    if table.pos.to_move != setup.readers:
        table.ai_turn()
    return table.pos


def check_votes(game: Game, setup: Setup) -> None:
    """Play every game as far as its last vote; a VoteError for the first vote the game cannot play."""
    voted: dict[int, int] = {}
    for key in setup.moves:
        m = re.fullmatch(r"g(\d+)t(\d+)", key)
        if m:
            arc, part = int(m.group(1)), int(m.group(2))
            if arc > setup.games:
                raise VoteError(("moves", key), f"这个战役只下 {setup.games} 局（options.games）")
            voted[arc] = max(voted.get(arc, 0), part)
    for arc, last in sorted(voted.items()):
        story = play_game(game, setup, arc, last, offer=False)
        if story.end is not None and len(story.chapters) < last:
            ended = len(story.chapters)
            late = min((k for k in setup.moves if re.fullmatch(rf"g{arc}t(\d+)", k)
                        and int(k.split("t")[1]) > ended), key=lambda k: int(k.split("t")[1]))
            how = "达阵" if story.end["how"] == "touchdown" else "到了回合上限"
            raise VoteError(("moves", late), f"第 {arc} 局在第 {ended} 章结束（{how}），后面没有 {late} 这一章")


__all__ = ["CARD_KINDS", "DEFAULT_STRENGTH", "STRENGTHS",
           "Game", "GameStory", "RECOVERY_KINDS", "Setup", "TURN_LIMIT", "Table", "VoteError",
           "action_record", "check_votes", "effects", "facts", "game_facts", "motive", "opening", "other", "play_game", "shape", "vote_key",
           "vote_position"]
