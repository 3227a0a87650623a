"""Issue 29 round 6: a stream pickled as its six values (``Stream.__reduce__``) comes back as the stream it was,
slot for slot, and goes on throwing the same faces; a roller comes back throwing the same rolls."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.dice import Dice, Stream

SLOTS = Stream.__slots__


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**64), st.text(max_size=12), st.lists(st.integers(2, 1000), max_size=12),
       st.lists(st.integers(2, 1000), min_size=1, max_size=12))
def test_a_stream_comes_back_as_it_was(seed: int, key: str, before: list[int], after: list[int]) -> None:
    """After any throws, the unpickled stream has every slot of the original and throws what it throws."""
    stream = Stream(seed, key)
    for sides in before:
        stream.randint(sides)
    back = pickle.loads(pickle.dumps(stream, protocol=pickle.HIGHEST_PROTOCOL))
    assert [getattr(back, n) for n in SLOTS] == [getattr(stream, n) for n in SLOTS]
    assert back._words is not stream._words
    assert [back.randint(n) for n in after] == [stream.randint(n) for n in after]
    assert [getattr(back, n) for n in SLOTS] == [getattr(stream, n) for n in SLOTS]


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.sampled_from(["a", "b/c", "s1/x"]), max_size=8))
def test_a_roller_comes_back_rolling_the_same(seed: int, keys: list[str]) -> None:
    """A roller pickled after some rolls gives the same next rolls (ids, faces, totals) as the original."""
    dice = Dice(seed)
    for key in keys:
        dice.roll(key, "3D6", "前")
    back = pickle.loads(pickle.dumps(dice))
    assert [back.roll(k, "1D100", "后").to_json() for k in ("a", "s1/x", "new")] == \
        [dice.roll(k, "1D100", "后").to_json() for k in ("a", "s1/x", "new")]
