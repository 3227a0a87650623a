"""Designed from LRB6 (the seed's §7 names 医师 and is empty): the apothecary, the big guys' traits, the
rosters that carry every implemented skill."""

from __future__ import annotations

import pytest

from anko_writer.dice import Dice
from anko_writer.rulesets.bloodbowl.match import rules
from anko_writer.rulesets.bloodbowl.match.api import play_half
from anko_writer.rulesets.bloodbowl.match.data import SKILLS, load_tables

from .scen import dice, half, put, state


@pytest.mark.parametrize("first,second,kept,effect", [((6, 3), (4, 2), "second", "serious"),
                                                      ((4, 1), (6, 1), "first", "serious"),
                                                      ((5, 7), (2, 2), "second", "badly_hurt"),
                                                      ((4, 1), (4, 8), "first", "serious")])
def test_the_apothecary_keeps_the_lighter_of_two_rolls(first: tuple[int, int], second: tuple[int, int], kept: str,
                                                       effect: str) -> None:
    """Designed (LRB6): once a match, the D68 again, the lighter result kept (a tie keeps the first)."""
    st = state()
    st.apothecary["away"] = True
    p = put(st, "A1", "away", (5, 5))
    st.place(p, None, "casualty")
    assert rules.casualty(st, dice(*first, *second), p) == effect
    cas, apo = st.rolls[-2], st.rolls[-1]
    assert cas["total"] == 10 * first[0] + first[1] and cas["result"] == effect and cas["apothecary"] == apo["id"]
    assert apo["kind"] == "apothecary" and apo["total"] == 10 * second[0] + second[1] and apo["kept"] == kept
    assert st.apothecary["away"] is False and (p.state == "dead") == (effect == "dead")


def test_the_apothecary_is_used_once_and_not_on_a_badly_hurt_open_roll() -> None:
    st = state()
    st.apothecary["away"] = True
    p, q, r = (put(st, f"A{i}", "away", (5, 2 * i)) for i in (1, 2, 3))
    rules.casualty(st, dice(2, 2), p)  # badly hurt, open: he is kept for worse
    assert st.apothecary["away"] and st.rolls[-1]["kind"] == "casualty"
    assert rules.casualty(st, dice(6, 1, 1, 1), q) == "badly_hurt"  # dead → badly hurt
    assert rules.casualty(st, dice(6, 1, 1, 1), r) == "dead"  # used up
    assert st.rolls[-1]["kind"] == "casualty"


def test_a_sealed_casualty_gets_the_apothecary_whatever_it_shows() -> None:
    """Nothing may hang on a sealed die: ours go to the first casualty, badly hurt or not, both rolls hidden."""
    st = state()
    st.ours = "home"
    st.apothecary["home"] = True
    p = put(st, "H1", "home", (5, 5))
    rules.casualty(st, dice(1, 1, 6, 8), p)
    assert [r["kind"] for r in st.rolls[-2:]] == ["casualty", "apothecary"]
    assert st.rolls[-2]["hidden"] and st.rolls[-1]["hidden"] and st.rolls[-2]["result"] == "badly_hurt"


def test_the_apothecary_is_once_a_match_across_the_halves() -> None:
    """Half 1 hands half 2 which sides used theirs; neither half rolls twice for a side."""
    import dataclasses

    seen = 0
    for seed in range(12):
        given = half(key=f"ap{seed}")
        given = dataclasses.replace(given, home=dataclasses.replace(given.home, apothecary=True),
                                    away=dataclasses.replace(given.away, apothecary=True))
        first = play_half(given, Dice(seed))
        second = play_half(dataclasses.replace(given, half=2, key=f"ap{seed}/h2", carry=first.carry), Dice(seed))
        for side in ("home", "away"):
            ids = {p.id for p in getattr(given, side).players}
            uses = [sum(1 for t in r.record["turns"] for a in t["actions"] for x in a["rolls"]  # type: ignore[attr-defined]
                        if x["kind"] == "apothecary" and x["player"] in ids) for r in (first, second)]
            assert sum(uses) <= 1 and (uses[0] == 1) == (side in first.carry["apothecary_used"])  # type: ignore[operator]
            seen += sum(uses)
    assert seen


def test_loner_needs_four_before_a_team_reroll() -> None:
    """Designed (LRB6) Loner: a team re-roll is spent, then 4+ or the failed roll stands."""
    for loner_die, second in ((3, None), (4, 6)):
        st = state()
        st.rerolls["home"] = 1
        p = put(st, "H1", "home", (5, 5), skills=("loner",), ag=3)
        faces = (2, loner_die) + ((second,) if second else ())
        ok = rules.agility_roll(st, dice(*faces), p, "pickup", "捡球", {}, None)
        assert st.rerolls["home"] == 0 and any(r["kind"] == "loner" for r in st.rolls)
        assert ok is (second is not None)


@pytest.mark.parametrize("trait,die,kind,mate,ok", [
    ("bone_head", 1, "move", False, False), ("bone_head", 2, "move", False, True),
    ("really_stupid", 3, "move", False, False), ("really_stupid", 4, "move", False, True),
    ("really_stupid", 2, "move", True, True), ("wild_animal", 3, "move", False, False),
    ("wild_animal", 2, "block", False, True), ("wild_animal", 1, "blitz", False, False)])
def test_the_big_guys_roll_before_each_action(trait: str, die: int, kind: str, mate: bool, ok: bool) -> None:
    """Designed (LRB6): Bone-head 2+, Really Stupid 4+ (2+ beside a team-mate), Wild Animal 4+ (2+ to block)."""
    st = state()
    p = put(st, "H1", "home", (5, 5), skills=(trait,))
    if mate:
        put(st, "H2", "home", (6, 5))
    assert rules.action_check(st, dice(die), p, kind) is ok
    assert st.rolls[-1]["kind"] == trait and st.rolls[-1]["target"] == rules.ACTION_CHECKS[trait] - (
        2 if (trait == "really_stupid" and mate) or (trait == "wild_animal" and kind in ("block", "blitz")) else 0)


def test_every_implemented_skill_is_on_a_roster_or_learnt() -> None:
    """Mighty Blow is on the big guys (LRB6); Guard, Wrestle, Jump Up, Sure Feet and Stand Firm are on no LRB6
    roster of these four races: a player learns them (the advancement's skill lists)."""
    rosters = load_tables().rosters
    on_rosters = {s for r in rosters.values() for p in r["positions"] for s in p["skills"]}
    assert "mighty_blow" in on_rosters
    big = {race: [p for p in r["positions"] if p["ST"] >= 5] for race, r in rosters.items()}
    assert {race: [p["key"] for p in ps] for race, ps in big.items()} == {
        "human": ["ogre"], "orc": ["troll"], "dwarf": [], "skaven": ["rat_ogre"]}
    assert all(p["max"] == 1 and "loner" in p["skills"] and "mighty_blow" in p["skills"] for ps in big.values()
               for p in ps)
    assert set(SKILLS) - on_rosters == {"guard", "wrestle", "jump_up", "sure_feet", "stand_firm"}
