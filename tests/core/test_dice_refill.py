"""Issue 29, round 12 (stop 40): a stream's block read as reversed little-endian words is the big-endian block read last word
first (DESIGN §5's counter-mode SHA-256, unchanged)."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from anko_writer.dice import _WORDS, Stream


@given(st.integers(0, 2**63), st.text(max_size=40), st.integers(1, 40))
def test_a_refill_gives_the_blocks_words_in_order(seed: int, key: str, blocks: int) -> None:
    """Every block's four words, used first to last, are SHA-256("{seed}\\x1f{key}\\x1f{n}") read big-endian."""
    s = Stream(seed, key)
    got, want = [], []
    for n in range(1, blocks + 1):
        s._refill()
        got += s._words[::-1]
        s._words.clear()
        want += _WORDS.unpack(hashlib.sha256(f"{seed}\x1f{key}\x1f{n}".encode()).digest())
    assert got == want
