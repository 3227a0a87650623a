"""Issue 29 round 5: Dice.roll's one-die path throws what Stream.randint throws, and a roller mid-stream
survives pickling (the month checkpoint keeps the world's dice) with the same dice to come."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.dice import Dice, DiceExpr, Stream


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**9), st.lists(st.integers(1, 1000), min_size=1, max_size=40))
def test_one_die_path_is_the_stream(seed: int, sides: list[int]) -> None:
    """Each one-die roll is the stream's next fair face, parsed or text, and the counters move as the stream's."""
    dice, stream = Dice(seed), Stream(seed, "k")
    for i, n in enumerate(sides):
        expr: str | DiceExpr = DiceExpr.parse(f"1D{n}") if i % 2 else f"1D{n}+1"
        r = dice.roll("k", expr, "p")
        face = stream.randint(n)
        assert r.dice == (face,) and r.total == face + (0 if i % 2 else 1) and r.id == f"k#{i + 1}"
    assert dice.stream("k").drawn == stream.drawn == len(sides)


@given(st.integers(0, 10**9), st.integers(0, 9))
def test_dice_pickle_mid_stream(seed: int, before: int) -> None:
    """A pickled roller goes on with the dice the original throws next."""
    dice = Dice(seed)
    for _ in range(before):
        dice.roll("k", "1D100", "p")
    copy = pickle.loads(pickle.dumps(dice))
    assert [copy.roll("k", "1D30", "p") for _ in range(12)] == [dice.roll("k", "1D30", "p") for _ in range(12)]
