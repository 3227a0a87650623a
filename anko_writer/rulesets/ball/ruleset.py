"""BALL (003): the ruleset class — a game (or a series) between the readers' side and the AI, told a turn pair
per chapter from the readers' votes.

The game itself (positions, legal actions, notation, the AI) is :mod:`.game`; the anko calls it only through
:attr:`Ball.game` (the contract module :mod:`.game.api`; tests swap in a fake). :mod:`.play` turns a game into
chapter records, :mod:`.board` draws the board, ``setup/`` holds the campaign schema and ``new``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ...arcs import Arc
from ...ballot import Ballot, OrderParser, register_notation
from ...campaign import Campaign
from ...chapters import ChapterKey, KeyStyle, Record, Run
from ...errors import AnkoError
from ...glossary import with_glossary
from ...info import NewOption, RulesetInfo, Units
from ...resources import Resources
from ...ruleset import NewCampaign, Ruleset, Start
from ...schema import Node
from . import board
from .game import api
from .play import CARD_KINDS, TURN_LIMIT, Game, Setup, game_facts, opening, play_game, vote_position
from .setup.new import FILENAME, new_campaign
from .setup.schema import campaign_schema
from .story import chapter_story
from .votes import ACTIONS, actions_parser

if TYPE_CHECKING:
    from ...audit.plugin import AuditPlugin

PARTS = TURN_LIMIT // 2
"""Chapters a game has at most: one readers' turn each under the designed turn limit."""


def _board(position: Mapping[str, Any]) -> str:
    """The ``board`` filter: a POSITION as the monospace diagram."""
    return board.diagram(position)


def _label(piece_id: Any) -> str:
    """The ``label`` filter: ``ATK-X1`` → ``X1``, ``DEF-O1`` → ``o1``."""
    return board.label(str(piece_id))


def _stacks(position: Mapping[str, Any]) -> str:
    """The ``stacks`` filter: the stacks under the diagram as one sentence (empty without any)."""
    found = board.stacks(position)
    return "；".join(f"{s['square']} 叠放：{s.get('top', '？')}在上，{s.get('bottom', '？')}在下" for s in found)


INFO = RulesetInfo(
    "ball", title="BALL", units=Units("局", "轮", "game", "turn"), keys=KeyStyle(arc_prefix="g", part_prefix="t"),
    allowed_words=frozenset({"ATK", "DEF", "BALL"}),
    new_options=(NewOption("side", "读者执的一方：ATK 或 DEF", required=False, default="ATK"),
                 NewOption("cards", "卡牌模式：on 或 off", required=False, default="off"),
                 NewOption("ai_strength", "AI 往前算几步：1、2 或 3", required=False, default="2"),
                 NewOption("title", "帖子的标题（默认：BALL 安科：读者执 SIDE）", required=False)),
    filters={"board": _board, "label": _label, "stacks": _stacks})


class Ball(Ruleset[None]):
    """The BALL ruleset plug-in."""

    name = "ball"
    game: ClassVar[Game] = api
    """The game the anko plays (the contract module; tests swap in a fake)."""

    @property
    def info(self) -> RulesetInfo:
        """Games of turn pairs (``g01/t03.md``), the ``new`` options, the board filters."""
        return INFO

    def resources(self, campaign_dir: Path | None) -> Resources:
        """The core's search path with the ``cn`` filter over this campaign's glossary."""
        return with_glossary(self.name, campaign_dir, INFO)

    def campaign_schema(self, resources: Resources) -> Node:
        """The campaign schema; its votes are replayed in :attr:`game`."""
        return campaign_schema(lambda: type(self).game)

    def new_campaign(self, options: Mapping[str, str], seed: int, resources: Resources) -> NewCampaign:
        """A commented campaign for ``side`` (and ``cards``, ``title``) and its chapter 0."""
        text, chapter0 = new_campaign(options, seed, type(self).game)
        return NewCampaign(FILENAME, text, chapter0)

    def opening_vote(self, campaign: Campaign, resources: Resources) -> Mapping[str, object] | None:
        """Game 1's first vote, as chapter 0 ends with it (after the AI's opening turn when the readers play ATK),
        under the campaign's setup as it stands."""
        vote: Record = opening(type(self).game, Setup.of(campaign.data))["vote"]
        return vote

    def parts(self, arc: int) -> int:
        """Twenty chapters a game at most (the game's forty turns); a game that ends sooner has fewer."""
        return PARTS

    def rules_context(self, campaign: Campaign, resources: Resources) -> Mapping[str, object]:
        """The designed numbers the rules post prints."""
        return {"turn_limit_max": TURN_LIMIT, "parts": PARTS, "card_kinds": list(CARD_KINDS),
                "ai_rule": api.EXPLANATIONS[Setup.of(campaign.data).strength], "ai_strength": Setup.of(campaign.data).strength,
                **game_facts()}

    def audit(self) -> AuditPlugin:
        """BALL's audit metrics (:mod:`.audit`): AI-vs-AI games, card mode off and on."""
        from .audit import BallAudit

        return BallAudit()

    def play(self, campaign: Campaign, until: ChapterKey, resources: Resources, start: Start[None] | None = None) -> Run:
        """Game ``until.arc`` from the standard formation up to chapter ``until.part`` (or its end)."""
        data = campaign.data
        setup = Setup.of(data)
        if until.arc > setup.games:
            raise AnkoError(f"{campaign.path.name}: 这个战役下 {setup.games} 局（options.games），"
                            f"没有第 {until.arc} 局")
        story = play_game(type(self).game, setup, until.arc, until.part)
        common = {"ruleset": self.name, "title": data["title"], "readers": setup.readers, "ai": setup.ai,
                  "cards": setup.cards, "turn_limit": setup.turn_limit, **game_facts()}
        arc = Arc(until.arc)  # no dice and nothing sealed: the arc only keeps the chapters
        told: dict[str, int] = {}
        for rec in story.chapters:
            with arc.part(rec["part"]) as part:
                picture = f"{INFO.keys.stem(part.key)}.svg"
                whole = {**common, **rec, "picture": picture}
                part.results = {**whole, "story": chapter_story(whole, told)}
                part.files[picture] = board.svg(rec["turns"][-1]["after"], f"BALL 第{until.arc}局第{part.key.part}轮之后")
        summary = {**common, "arc": until.arc, "end": story.end,
                   "chapters": [{"part": r["part"], "turns": [t["n"] for t in r["turns"]],
                                 "fallback": any(t["fallback"] for t in r["turns"])} for r in story.chapters]}
        return arc.run(summary)


def _actions(campaign: Campaign, ballot: Ballot) -> OrderParser:
    """行动's parser for ``ballot``: the moves read where the campaign's game stands when the vote is cast."""
    setup = Setup.of(campaign.data)
    return actions_parser(Ball.game, vote_position(Ball.game, setup, ballot.key), setup.cards)


register_notation(ACTIONS, _actions)

__all__ = ["Ball", "INFO", "PARTS"]
