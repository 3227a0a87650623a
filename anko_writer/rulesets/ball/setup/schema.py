"""The BALL campaign file's schema: title, seed, the readers' side, options and the votes.

Every key is listed in ``docs/ball-campaign-schema.md`` (generated from :func:`campaign_schema`). Votes are keyed
by chapter, ``g<game>t<part>``; validating the file replays each game as far as its last vote, so an illegal or
ambiguous move is an error at its own line and key (``campaign.yaml:14:9: moves.g1t3[0]: …``) that lists the
legal moves of the piece it names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ....ballot import DEADLINE
from ....schema import At, Bool, Check, Child, DictOf, Enum, Field, Int, Line, List, Map, Node, Problem, Secret, Str, show
from ..play import DEFAULT_STRENGTH, STRENGTHS, TURN_LIMIT, Game, Setup, VoteError, check_votes

KEY_PATTERN = r"g([1-9])t([1-9][0-9]?)"
"""A vote's key: ``g1t3`` (game 1, chapter 3)."""
MAX_GAMES = 9
"""The most games a campaign may play."""
MOVES = List(Str(), max_len=32, doc="Moves in order, in the notation of the rules post (X3 E5-G7).")
VOTE_MAP = Map({
    "actions": Field(MOVES, default=[], doc="The action phase's moves, in order."),
    "recovery": Field(List(Str(), max_len=32), default=[],
                      doc="Recovery tasks in the order the readers chose; tasks left open are resolved as the AI "
                          "would, and the chapter says so."),
}, doc="A vote with recovery choices.")


@dataclass
class Vote(Node):
    """One chapter's vote: a list of moves (the action phase), or a mapping with ``actions`` and ``recovery``."""

    doc: str = ""

    def check(self, value: Any, at: At) -> Any:
        """The list or the mapping, checked."""
        if isinstance(value, list):
            return MOVES.check(value, at)
        if isinstance(value, Mapping):
            return VOTE_MAP.check(value, at)
        return at.fail(f"应为行动的列表，或含 actions 和 recovery 的映射，实际是 {show(value)}")

    def type_name(self) -> str:
        """``list of string, or mapping``."""
        return "list of string, or mapping"

    def children(self, path: str) -> Iterator[Child]:
        """The mapping form's keys."""
        return VOTE_MAP.children(path)


def votes_problem(game: Callable[[], Game]) -> Callable[[dict[str, Any]], Problem]:
    """The Check that replays the votes through ``game()`` (looked up when the file is checked)."""
    def problem(data: dict[str, Any]) -> Problem:
        """The first vote the game cannot play, placed at its key."""
        try:
            check_votes(game(), Setup.of(data))
        except VoteError as exc:
            return exc.where, exc.message
        return None
    return problem


def campaign_schema(game: Callable[[], Game]) -> Node:
    """The campaign file's schema; ``game`` gives the game its votes are replayed in."""
    top = Map({
        "title": Field(Line(), doc="Thread title."),
        "ruleset": Field(Enum(["ball"]), doc="The rulebook this campaign plays."),
        "seed": Field(Secret(min=0), doc="Required by the core of every campaign; BALL throws no dice, so it changes "
                                      "nothing (keep it private all the same)."),
        "output": Field(Str(), required=False, doc="Output folder, relative to this file."),
        "side": Field(Enum(["ATK", "DEF"]), doc="The side the readers play (ATK holds the ball at the start; DEF "
                                                "plays the first turn); the AI plays the other."),
        "options": Field(Map({
            "cards": Field(Bool(), default=False, doc="Card mode (PE; 003 §11)."),
            "turn_limit": Field(Int(min=2, max=TURN_LIMIT), default=TURN_LIMIT,
                                doc="Turns of both sides a game lasts at most: the game's limit (40) or fewer; no "
                                    "touchdown by then and DEF wins (the game's rule: the defence held)."),
            "ai_strength": Field(Int(min=1, max=max(STRENGTHS)), default=DEFAULT_STRENGTH,
                                 doc="How far the AI looks ahead: 1 its own turn only; 2 also the readers' best "
                                     "reply (the default); 3 a turn further (slower). Deterministic: a budget "
                                     "of positions, never the clock."),
            "games": Field(Int(min=1, max=MAX_GAMES), default=1,
                           doc="Games in the campaign (arcs), each from the standard formation."),
            "vote_deadline": Field(Str(), default=DEADLINE,
                                   doc="When a chapter's vote closes, as its vote block states it (the tally "
                                       "counts votes up to it)."),
        }), default={"cards": False, "turn_limit": TURN_LIMIT, "ai_strength": DEFAULT_STRENGTH, "games": 1,
                     "vote_deadline": DEADLINE},
            doc="Game options."),
        "moves": Field(
            DictOf(Str(pattern=KEY_PATTERN, pattern_doc="g<game>t<part>"),
                   Vote(doc="One chapter's vote: its moves in order (X3 E5-G7), or a mapping of actions and recovery.")),
            default={}, doc="The readers' votes keyed by chapter (g1t3: game 1, chapter 3); a missing one is played by "
                            "the AI for the readers' side."),
    })
    return Check(top, votes_problem(game), doc="Every vote is legal where the game stands (the game is replayed "
                                               "up to the last vote).")


__all__ = ["KEY_PATTERN", "MAX_GAMES", "Vote", "campaign_schema", "votes_problem"]
