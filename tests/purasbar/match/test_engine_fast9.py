"""Issue 29 round 9: the match engine's shortcuts against the plain paths they stand for (000 §3.4.1, §5.3.1,
§5.7): ``Dice.thrower`` against ``Dice.roll``, a settled slice end's kept pitch table against the walk over the
line-up, the bench read in one pass against ``Side.bench``: the same records and dice in the same order."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.dice import Dice, DiceExpr, Roll
from anko_writer.rulesets.purasbar.match import engine
from anko_writer.rulesets.purasbar.match.engine import play
from anko_writer.rulesets.purasbar.match.side import Plan, Side
from anko_writer.rulesets.purasbar.match.substitutions import replacement
from tests.purasbar.match.test_engine_fast5 import COACH, _squad
from tests.util import club, no_reveal, player

EXPRS = st.sampled_from(["1D2", "1D6", "1D20", "1D30", "1D50", "1D100", "1D7", "1D18+17", "3D6", "2D10-1"])


def _state(dice: Dice) -> list[tuple[str, int, int, int, list[int]]]:
    """Every stream's position: key, block, values drawn, rolls made and the words left."""
    return [(k, s._block, s.drawn, s.rolls, list(s._words)) for k, s in dice._streams.items()]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(EXPRS, st.booleans()), max_size=60), st.integers(0, 10**6),
       st.lists(st.integers(1, 2), max_size=4))
def test_a_thrower_rolls_as_roll(throws: list[tuple[str, bool]], seed: int, fixed: list[int]) -> None:
    """Dice.thrower(key)(expr, purpose) is Dice.roll(key, expr, purpose) of a parsed expression: the same roll
    (id, faces, total, reading), the same log and the same stream position, with several dice, a modifier,
    dice read through rejection (1D7) and fixed values waiting for the key (which the thrower defers to roll)."""
    fast, plain = Dice(seed), Dice(seed)
    for d in (fast, plain):
        if fixed:
            d.fix(*fixed, prefix="m")
    throw = fast.thrower("m/k")
    plain.stream("m/k")  # the thrower makes its stream at once, as roll does at the first throw
    got: list[Roll] = []
    want: list[Roll] = []
    for text, other in throws:
        e = DiceExpr.parse(text)
        if other:  # a roll on another stream in between
            got.append(fast.roll("o", e, "别的"))
            want.append(plain.roll("o", e, "别的"))
        got.append(throw(e, "目的"))
        want.append(plain.roll("m/k", e, "目的"))
    assert got == want
    assert fast.log == plain.log
    assert _state(fast) == _state(plain)


def _roll_thrower(dice: Dice, key: str) -> Any:
    """The plain path a thrower stands for: every throw through Dice.roll."""
    return lambda e, purpose: dice.roll(key, e, purpose)


def _play(spec: tuple[dict[str, Any], dict[str, Any]], seed: int, competition: str, lean: bool) -> tuple[str, str]:
    """The match of ``spec`` on fresh copies of its players: its record, its dice log and the players after it."""
    sides = []
    for s, venue in zip(spec, (2, -2), strict=True):
        fresh = {p.name: player(p.name, p.position, atk=p.attrs["ATK"], df=p.attrs["DEF"], mid=p.attrs["MID"],
                                gk=p.attrs["GK"], age=p.age, stamina=p.stamina, core=p.core) for p in s["players"]}
        c = club(s["players"][0].name[0], list(fresh.values()), s["formation"], morale=s["morale"], coach=COACH)
        line = {slot: [fresh[p.name] for p in group] for slot, group in s["lineup"].items()}
        sides.append(Side(c, s["formation"], line, venue, Plan(COACH, sub_below=s["sub_below"])))
    dice = Dice(seed)
    rec = play(dice, "m/甲-乙", sides[0], sides[1], competition=competition, round_no=1, neutral=False,
               reveal=no_reveal, lean=lean)
    after = [(p.name, p.stamina, p.injured_weeks) for s in sides for p in s.club.players]
    return (json.dumps([rec, after], ensure_ascii=False, sort_keys=False),
            json.dumps([list(r) for r in dice.log], ensure_ascii=False))


@settings(max_examples=40, deadline=None)
@given(_squad("甲"), _squad("乙"), st.integers(0, 10**6), st.sampled_from(["league", "knockout"]), st.booleans())
def test_the_kept_pitch_table_and_the_thrower_play_as_the_plain_match(home: dict[str, Any], away: dict[str, Any],
                                                                      seed: int, competition: str,
                                                                      lean: bool) -> None:
    """000 §5.3.1, §5.7.3: a settled slice's end from the side's kept pitch table (built again after a substitution,
    a player forced off, a formation change or extra time) and the match's rolls through Dice.thrower give the
    record, the dice log and the players' stamina and absences that the walk over the line-up every slice and
    every roll through Dice.roll give."""
    fast = _play((home, away), seed, competition, lean)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine, "PITCH_TABLES", False)
        mp.setattr(Dice, "thrower", _roll_thrower)
        plain = _play((home, away), seed, competition, lean)
    assert fast == plain


def _bench_plain(side: Side, slot: str, allow_other: bool) -> tuple[list[str], list[str], list[str]]:
    """replacement's pools as Side.bench gave them: role and core players of the slot's position, and the bench."""
    bench = [p for p in side.bench() if p.attrs]
    role = [p.name for p in bench if p.position == slot and not p.core]
    core = [p.name for p in bench if p.position == slot and p.core]
    return role, core, [p.name for p in bench] if allow_other else []


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["GK", "DF", "MF", "FW"]), st.booleans(), st.booleans(),
                          st.integers(0, 2), st.integers(0, 3)), min_size=1, max_size=20),
       st.sampled_from(["GK", "DF", "MF", "FW"]), st.booleans(), st.integers(0, 10**6))
def test_the_bench_in_one_pass_is_side_bench(squad: list[tuple[str, bool, bool, int, int]], slot: str,
                                             allow_other: bool, seed: int) -> None:
    """000 §3.4.1: replacement's pools read in one pass over the squad are Side.bench's rolled players (healthy,
    neither on the pitch nor gone), its role players first, then its core players, then anyone; the pick (and its
    die) is the one the plain pools give."""
    players = []
    lineup: dict[str, list[Any]] = {"GK": [], "DF": [], "MF": [], "FW": []}
    gone = set()
    for i, (pos, core, rolled, injured, where) in enumerate(squad):
        p = player(f"球员{i}", pos, core=core)
        if not rolled:
            p.attrs = {}
        p.injured_weeks = injured
        players.append(p)
        if where == 1:
            lineup[pos].append(p)
        elif where == 2:
            gone.add(p.name)
    side = Side(club("甲", players), "4 4 2", lineup, 0, Plan(COACH))
    side.gone = gone
    got, how = replacement(Dice(seed), "k", side, slot, allow_other)
    role, core, bench = _bench_plain(side, slot, allow_other)
    for tier, pool in (("role", role), ("core", core), ("other", bench)):
        if pool:
            assert how["tier"] == tier and how["candidates"] == pool
            plain_dice = Dice(seed)
            index = plain_dice.roll("k", f"1D{len(pool)}", "替补人选").total - 1 if len(pool) > 1 else 0
            assert got is not None and got.name == pool[index]
            break
    else:
        assert got is None and how["tier"] == "none"
