"""Hypothesis invariants of the unit rules (E1–E4, E11b) and of the wounded and dead (E10)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.rulesets.engage import units, wounds

MEN = st.integers(1, 600)


@settings(max_examples=50)
@given(MEN)
def test_bands_never_shrink_as_men_grow(men: int) -> None:
    """E1: more men never give a smaller band."""
    assert units.band_index(min(men + 1, 600)) >= units.band_index(men)


@settings(max_examples=50)
@given(MEN, MEN, st.booleans(), st.booleans())
def test_at_most_one_side_has_the_size_edge(a: int, b: int, ma: bool, mb: bool) -> None:
    """E2: the size edge goes to one side at most, and only the larger band ignores defences."""
    ea = units.size_edge(a, b, mounted=ma, other_mounted=mb)
    eb = units.size_edge(b, a, mounted=mb, other_mounted=ma)
    assert not (ea.defence and eb.defence)
    assert ea.ignore == sum(x.n for x in ea.defence if x.source == "规模")


@settings(max_examples=50)
@given(MEN, st.integers(0, 600))
def test_the_band_after_losses_is_between_the_start_and_the_head_count(start: int, left: int) -> None:
    """E11b: the band never grows through losses and is never below the head count's own band."""
    left = min(left, start)
    got = units.band_after_losses(start, left)
    if left == 0:
        assert got == "—"
        return
    names = [b[0] for b in units.BANDS]
    assert units.band_index(left) <= names.index(got) <= units.band_index(start)


@settings(max_examples=50)
@given(st.integers(0, 600), st.sampled_from(["none", "轻甲", "重甲", "高级重甲"]), st.booleans(), st.booleans(),
       st.booleans(), st.booleans(), st.booleans())
def test_fates_add_up(cas: int, armour: str, piercing: bool, poor: bool, cruel: bool, troll: bool, magic: bool) -> None:
    """E10: percentages add to 100 and stay within 0..100; unhurt + wounded + dead = casualties, none negative."""
    f = wounds.fate(cas, armour, armour_piercing=piercing, poor_weapon=poor, cruel=cruel,
                    troll_vigour=troll, magic_hit=magic)
    p = f.percents
    assert p.unhurt + p.wounded + p.dead == 100 and min(p.unhurt, p.wounded, p.dead) >= 0
    assert f.unhurt + f.wounded + f.dead == cas and min(f.unhurt, f.wounded, f.dead) >= 0
