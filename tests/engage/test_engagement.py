"""Hypothesis invariants of one engagement's tallies (E2–E9, F1–F9, §5)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.rulesets.engage.engagement import Setup, Side, judge
from anko_writer.rulesets.engage.formation import Formation, settle
from anko_writer.rulesets.engage.units import TRAINING, Armour, Shield, Weapon

FORMATIONS = st.builds(lambda d, s, m: settle(Formation(d, s, m)), st.sampled_from(["紧密", "松散"]),
                       st.sampled_from(["纵深", "稳固", "展开", "行军"]), st.sampled_from(["静止", "半速", "全速"]))
WEAPONS = st.one_of(st.none(), st.builds(lambda t: Weapon("武器", tuple(t), "近战", ("白刃",)),
                                         st.lists(st.sampled_from(["投掷", "长型", "单兵", "破阵", "破甲", "附魔武器"]),
                                                  unique=True, max_size=3)))
SIDES = st.builds(lambda men, tr, f, w, a: Side("u", men, tr, f, w, Armour(a)), st.integers(1, 600),
                  st.sampled_from(TRAINING), FORMATIONS, WEAPONS, st.sampled_from(["none", "轻甲", "重甲", "高级重甲"]))


@settings(max_examples=60)
@given(SIDES, SIDES, st.sampled_from(["突袭", "接战", "久战"]))
def test_tallies_are_never_negative_and_a_shield_never_hurts(h: Side, t: Side, phase: str) -> None:
    """Counts are ≥ 0, the cap holds, and giving the target a shield never lowers its defence count."""
    j = judge(Setup(h, t, phase))
    assert j.attack.total >= 0 and j.defence.total >= 0
    assert j.attack.cap is None or j.attack.total <= j.attack.cap
    shielded = judge(Setup(h, replace(t, shield=Shield("盾")), phase))
    assert shielded.defence.total >= j.defence.total
