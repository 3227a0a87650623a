"""BALL (003): properties over random walks of legal actions (Hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.rulesets.ball.game.notation import parse, write
from anko_writer.rulesets.ball.game.rules import USABLE, apply, end_phase, game_over, legal_actions, standard_position, validate


@settings(max_examples=60, deadline=None)
@given(st.data(), st.booleans())
def test_random_walks_keep_the_position_valid(data: st.DataObject, cards: bool) -> None:
    pos = standard_position(card_mode=cards)
    for _ in range(60):
        if game_over(pos):
            break
        acts = legal_actions(pos)
        i = data.draw(st.integers(min_value=-1, max_value=len(acts) - 1))
        if i < 0:
            if pos.phase == "recovery" and acts:
                continue  # compulsory tasks remain: the phase cannot end
            pos = end_phase(pos)
            continue
        text = write(acts[i], pos)
        assert parse(text, pos) == acts[i]  # notation round-trips
        pos = apply(pos, acts[i])
        assert validate(pos) == []  # one piece a square but stacks, the ball in exactly one place
        assert all(p.square in USABLE for p in pos.pieces)
        assert pos.pa >= 0 and all(v >= 0 for v in pos.pe.values())
        assert not (pos.took_ball_this_turn & {a.piece for a in legal_actions(pos) if a.kind != "card"})
