"""The scene's shortcuts (issue 29) publish what the plain rules publish: the shipped scene played with every
memo on and with every memo off gives the same posts, JSON and pictures.

The memos: a side's sight remembered per field (:meth:`~anko_writer.rulesets.sanguo.vision.Field.sight`), a
unit's steps kept while the vote is recorded (:func:`~anko_writer.rulesets.sanguo.act.world_fixed`), and a board
read before with its marks and SVG frame (:func:`~anko_writer.rulesets.sanguo.picture.read`), and the AI's
distances to a goal kept on the board (:func:`~anko_writer.rulesets.sanguo.ai._distances`); while the
world is fixed, each side's sight too (:meth:`~anko_writer.rulesets.sanguo.world.World.sight`).
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from anko_writer.campaign import load_campaign
from anko_writer.rulesets.sanguo import act, ai, picture, vision
from anko_writer.rulesets.sanguo.scenario import build_world
from tests.contract.sealing import published
from tests.scenario import play

SHIPPED = Path(__file__).resolve().parents[2] / "campaigns" / "sanguo" / "changshe.yaml"


def test_the_scene_with_its_memos_publishes_what_it_publishes_without(monkeypatch: pytest.MonkeyPatch) -> None:
    camp, fast = play(SHIPPED)
    with monkeypatch.context() as m:
        m.setattr(vision.Field, "sight", vision.Field.plain_sight)
        m.setattr(act, "world_fixed", contextlib.nullcontext)
        m.setattr(picture, "_board_key", lambda *a: None)
        m.setattr(ai, "_distances", ai._search)
        _, plain = play(SHIPPED)
    assert [ch.files for ch in fast.chapters] == [ch.files for ch in plain.chapters]
    assert published(camp, fast) == published(camp, plain)


def test_steps_kept_while_the_world_is_fixed_are_the_steps_worked_out() -> None:
    camp = load_campaign(SHIPPED)
    w = build_world(camp.data, 0)
    with act.world_fixed():
        for t in w.troops.values():
            assert act.steps(w, t) == act.plain_steps(w, t) == act.steps(w, t)
        with act.world_fixed():  # nested: the same kept steps
            assert all(act.steps(w, t) == act.plain_steps(w, t) for t in w.troops.values())
    assert act._KEPT is None
    for t in w.troops.values():  # closed: nothing kept, every unit worked out afresh
        assert act.steps(w, t) == act.plain_steps(w, t)


def test_distances_kept_on_the_board_are_the_distances_searched() -> None:
    camp = load_campaign(SHIPPED)
    w = build_world(camp.data, 0)
    squares = sorted(w.board.terrain)
    goals = [squares[i::97][:3] for i in range(0, len(squares), 7)] + [[sh.squares[0] for sh in w.board.strongholds]]
    for king in (False, True):
        for goal in goals:
            kept = ai._distances(w, goal, king)
            assert kept == ai._search(w, goal, king)
            assert ai._distances(w, list(reversed(goal)), king) is kept  # the same goal in another order
            assert ai._distances(w, iter(goal), not king) == ai._search(w, goal, not king)
    assert len(w.board.paths) == 2 * len({frozenset(g) for g in goals})


def test_sights_kept_while_the_world_is_fixed_are_the_sights_worked_out() -> None:
    from anko_writer.rulesets.sanguo import world as world_module

    camp = load_campaign(SHIPPED)
    w = build_world(camp.data, 0)
    sides = sorted({t.side for t in w.troops.values()})
    with act.world_fixed():
        kept = {side: w.sight(side) for side in sides}
        assert all(w.sight(side) is kept[side] for side in sides)
        assert all(kept[side] == w.field().sight(side) for side in sides)
        with act.world_fixed():  # nested: the same kept sights
            assert all(w.sight(side) is kept[side] for side in sides)
    assert world_module.FIXED_SIGHTS is None
    t = next(iter(w.troops.values()))
    t.square = next(s for s in w.board.terrain if w.board.passable(s) and w.at(s) is None)
    for side in sides:  # closed: every sight worked out afresh, from the world as it is now
        assert w.sight(side) == w.field().sight(side)
