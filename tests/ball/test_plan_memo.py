"""The AI's plans a process keeps (:func:`anko_writer.rulesets.ball.play.searched`): a kept plan is the plan a new
search finds, a campaign's vote check and its chapters search each position once between them, the chapters are
the same with nothing kept, and the store keeps at most :data:`~anko_writer.rulesets.ball.play.PLANS_KEPT`."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from anko_writer.campaign import load_campaign
from anko_writer.chapters import ChapterKey
from anko_writer.rulesets.ball import play
from anko_writer.rulesets.ball.game import api
from anko_writer.rulesets.ball.ruleset import Ball
from tests.ball.test_cli import copy, with_moves


class Counting:
    """The real game, counting its searches by position (every other name is the game's own)."""

    def __init__(self) -> None:
        self.searches: Counter[object] = Counter()

    def __getattr__(self, name: str) -> Any:
        return getattr(api, name)

    def ai_plan(self, pos: api.Position, strength: int = 1) -> tuple[list[api.Action], str]:
        """The real search, counted."""
        self.searches[play._position_key(pos)] += 1
        return api.ai_plan(pos, strength)


@cache
def _walk(turns: int) -> list[api.Position]:
    """The positions at the start of the first ``turns`` turns of an AI-against-AI game (strength 1)."""
    pos, seen = api.standard_position(), []
    for _ in range(turns):
        seen.append(pos)
        pos = api.play_turn(pos, api.ai_turn(pos, 1))
    return seen


@pytest.fixture(autouse=True)
def _empty_store() -> None:
    """Each test starts with nothing kept (the process's store may hold other tests' plans)."""
    play._PLANS.clear()


def test_a_kept_plan_is_a_new_searchs_plan() -> None:
    walked = _walk(3)[1:]
    positions = walked + [replace(p, pa=1) for p in walked]  # the same board with one action point left
    for pos in positions:
        kept = {s: play.searched(api, pos, s) for s in (1, 2)}  # one position, two strengths: two plans
        for s in (1, 2):
            assert play.searched(api, pos, s) == kept[s] == api.ai_plan(pos, s)
    assert len(play._PLANS) == 8


def test_the_check_and_the_chapters_search_each_position_once(campaign: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    camp = with_moves(copy(campaign, tmp_path), 'moves:\n  g1t1: ["X5 G5-F4"]\n  g1t2: ["X5 F4-E3"]\n', 8)
    game = Counting()
    monkeypatch.setattr(Ball, "game", game)
    c = load_campaign(camp)  # the schema replays game 1 up to its last vote: the AI's turns are searched
    checked = sum(game.searches.values())
    assert checked > 0
    kept = Ball().play(c, ChapterKey(1, 4), c.resources())
    assert set(game.searches.values()) == {1}  # no position searched twice
    assert sum(game.searches.values()) > checked  # the chapters searched more (the votes' suggestions)
    play._PLANS.clear()
    monkeypatch.setattr(play, "PLANS_KEPT", 0)  # nothing kept: every plan is searched where it is needed
    fresh = Ball().play(load_campaign(camp), ChapterKey(1, 4), c.resources())
    assert [ch.json_record() for ch in fresh.chapters] == [ch.json_record() for ch in kept.chapters]
    assert max(game.searches.values()) >= 2 and not play._PLANS


def test_the_store_keeps_the_latest_plans(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play, "PLANS_KEPT", 2)
    game = Counting()
    a, b, c = _walk(3)
    for pos in (a, b, a, c, a, b):  # a is used again before c arrives, so c evicts b; then b evicts c
        play.searched(game, pos, 1)
    assert [game.searches[play._position_key(p)] for p in (a, b, c)] == [1, 2, 1]
    assert len(play._PLANS) == 2


def test_a_position_that_cannot_be_a_key_is_searched_each_time() -> None:
    assert play._position_key(SimpleNamespace(turn=1)) is None
    assert play._position_key(api.standard_position()) is not None
    listed = SimpleNamespace(ai_plan=lambda pos, strength: ([], "无"))
    assert play.searched(listed, SimpleNamespace(turn=1), 1) == ([], "无")  # type: ignore[arg-type]
    assert not play._PLANS
