"""Hypothesis invariants of formations (F1–F9, E19)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.rulesets.engage import formation
from anko_writer.rulesets.engage.formation import Formation

FORMATIONS = st.builds(Formation, st.sampled_from(["紧密", "松散"]), st.sampled_from(["纵深", "稳固", "展开", "行军"]),
                       st.sampled_from(["静止", "半速", "全速"]))
PHASE = st.sampled_from(["突袭", "接战", "久战"])


@settings(max_examples=50)
@given(FORMATIONS)
def test_loosening_gives_a_legal_loose_formation(f: Formation) -> None:
    """E19: a loosened formation is 松散, settled (no 稳固) and breaks no formation rule."""
    g = formation.loosen(f)
    assert g.density == "松散" and formation.settle(g) == g and formation.problems(g) == ()


@settings(max_examples=50)
@given(FORMATIONS, FORMATIONS, PHASE, st.booleans(), st.sampled_from(["白刃", "平射", "抛射"]))
def test_advantages_are_positive_and_named_once(h: Formation, t: Formation, phase: str, melee: bool, mode: str) -> None:
    """F2–F9: every advantage gives at least one, each source appears once, and a cap is 0 or 1."""
    s = formation.advantages(formation.settle(h), formation.settle(t), phase=phase, melee=melee, mode=mode)
    for side in (s.attack, s.defence):
        assert all(a.n >= 1 for a in side)
        assert len({a.source for a in side}) == len(side)
    assert s.attack_cap in (None, 0, 1)
