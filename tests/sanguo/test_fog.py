"""The fog as properties: whatever the squares and numbers of the enemy units the readers cannot see, what the
readers' side is shown and may order is the same (§1.6: one vision function; `check` reveals nothing); and the
damage bands' 1D3 falls as R16/S2 say (a statistical test with a fixed seed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.campaign import load_campaign
from anko_writer.dice import Dice
from anko_writer.rulesets.sanguo import combat
from anko_writer.rulesets.sanguo.ruleset import view as readers_view
from anko_writer.rulesets.sanguo.ruleset import vote_record
from anko_writer.rulesets.sanguo.scenario import build_world
from anko_writer.rulesets.sanguo.scene import ScenePlay
from anko_writer.rulesets.sanguo.units import General, Unit
from anko_writer.rulesets.sanguo.world import Troop

SHIPPED = Path(__file__).resolve().parents[2] / "campaigns" / "sanguo" / "changshe.yaml"
DATA: dict[str, Any] = load_campaign(SHIPPED).data


def _scene(extra: list[tuple[tuple[int, int], int, bool]]) -> ScenePlay:
    world = build_world(DATA, 0)
    for i, (sq, troops, hidden) in enumerate(extra):
        g = General(f"伏{i}", 9, 5, 5)
        world.troops[f"黄9{i}"] = Troop(Unit(f"黄9{i}", g, kind="infantry", troops=troops, ap=troops, supplies=0),
                                       "黄巾", sq, hidden=hidden)
    return ScenePlay(world, 1, Dice(1), Dice(2), None, {}, {})


def _unseen_squares() -> list[tuple[int, int]]:
    world = build_world(DATA, 0)
    seen = world.sight(world.readers).squares
    taken = {t.square for t in world.troops.values()}
    return [s for s in world.board.grid.squares() if s not in seen and s not in taken and world.board.passable(s)]


UNSEEN = _unseen_squares()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(UNSEEN), st.integers(1, 9), st.booleans()), max_size=3,
                unique_by=lambda x: x[0]))
def test_what_the_readers_see_and_may_order_does_not_depend_on_unseen_units(extra: Any) -> None:
    base, fogged = _scene([]), _scene(extra)
    assert readers_view(fogged) == readers_view(base)
    assert vote_record(fogged, 1, "x") == vote_record(base, 1, "x")


def test_a_hidden_unit_in_sight_is_still_not_shown() -> None:
    """R37: a 埋伏 unit inside the readers' vision is not shown (only 侦查 finds it)."""
    world = build_world(DATA, 0)
    hidden = next(t for t in world.troops.values() if t.hidden)
    assert hidden.square in world.sight(world.readers).squares
    assert hidden.id not in {u["id"] for u in readers_view(ScenePlay(world, 1, Dice(1), Dice(2), None, {}, {}))["units"]}


def test_the_bands_1d3_falls_one_in_three() -> None:
    """R16 (S2): in the low band 1 damage a third of the time; in the high band 2 damage two thirds of the time."""
    dice, n = Dice(20240501), 3000
    low = sum(combat.judge(6, 10, dice, f"low/{i}").damage == 1 for i in range(n)) / n
    high = sum(combat.judge(15, 10, dice, f"high/{i}").damage == 2 for i in range(n)) / n
    assert abs(low - 1 / 3) < 0.03 and abs(high - 2 / 3) < 0.03
    assert {combat.judge(6, 10, dice, f"l/{i}").damage for i in range(200)} == {0, 1}
    assert {combat.judge(15, 10, dice, f"h/{i}").damage for i in range(200)} == {1, 2}
