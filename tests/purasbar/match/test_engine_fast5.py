"""Issue 29 round 5: the match engine's shortcuts play exactly the plain rules' match (000 §5.1, §5.3, §5.5,
§5.6, §5.7): the same record, the same dice in the same order."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.dice import Dice
from anko_writer.rulesets.purasbar.match import engine
from anko_writer.rulesets.purasbar.match.engine import RECOVERY_BASE, YOUNG_AGE, play, recoveries, recovery
from anko_writer.rulesets.purasbar.match.formations import FORMATIONS
from anko_writer.rulesets.purasbar.match.injuries import injury_risk, post_match_check
from anko_writer.rulesets.purasbar.match.side import Plan, Side
from anko_writer.rulesets.purasbar.match.tactics import Coach
from tests.choices import Choices, built
from tests.util import club, no_reveal, player

COACH = Coach("教练", "pragmatic", 50)
FORMATION_NAMES = sorted(FORMATIONS)
FORMS = st.sampled_from(FORMATION_NAMES)


BENCH = ("GK", "DF", "MF", "FW")


def squad(ch: Choices, prefix: str) -> dict[str, Any]:
    """A rolled squad of eleven starters and up to five on the bench, with random values, ages and stamina."""
    formation = ch.pick(FORMATION_NAMES)
    f = FORMATIONS[formation]
    slots = ["GK"] + ["DF"] * f.df + ["MF"] * f.mf + ["FW"] * f.fw
    bench = [ch.pick(BENCH) for _ in range(ch.integer(0, 5))]
    players = []
    for i, pos in enumerate(slots + bench):
        players.append(player(f"{prefix}{i}", pos, atk=ch.integer(1, 99), df=ch.integer(1, 99), mid=ch.integer(1, 99),
                              gk=ch.integer(1, 99), age=ch.integer(17, 36), stamina=ch.integer(15, 100),
                              core=ch.flip()))
    lineup: dict[str, list] = {"GK": [], "DF": [], "MF": [], "FW": []}
    for p, slot in zip(players, slots, strict=False):
        lineup[slot].append(p)
    return {"players": players, "lineup": lineup, "formation": formation,
            "sub_below": ch.pick((0, 30, 60)), "morale": ch.integer(-20, 90)}


SQUAD_BYTES = 2 + 5 + 16 * 7 + 2
"""Every choice of the largest squad (formation, bench size, bench positions, sixteen players' seven values, the
plan and morale): one byte each."""


def _squad(prefix: str) -> st.SearchStrategy[dict[str, Any]]:
    """:func:`squad` of one draw of bytes (tests.choices: drawn value by value, Hypothesis's own bookkeeping was
    most of these tests' time, issue 29)."""
    return built(lambda ch: squad(ch, prefix), size=SQUAD_BYTES)


def _play(spec: tuple[dict[str, Any], dict[str, Any]], seed: int, competition: str, lean: bool) -> tuple[str, str]:
    """The match of ``spec`` on fresh copies of its players: its record and its dice log, as JSON."""
    sides = []
    for s, venue in zip(spec, (2, -2), strict=True):
        fresh = {p.name: player(p.name, p.position, atk=p.attrs["ATK"], df=p.attrs["DEF"], mid=p.attrs["MID"],
                                gk=p.attrs["GK"], age=p.age, stamina=p.stamina, core=p.core) for p in s["players"]}
        c = club(s["players"][0].name[0], list(fresh.values()), s["formation"], morale=s["morale"])
        line = {slot: [fresh[p.name] for p in group] for slot, group in s["lineup"].items()}
        sides.append(Side(c, s["formation"], line, venue, Plan(COACH, sub_below=s["sub_below"])))
    dice = Dice(seed)
    rec = play(dice, "m/甲-乙", sides[0], sides[1], competition=competition, round_no=1, neutral=False,
               reveal=no_reveal, lean=lean)
    return json.dumps(rec, ensure_ascii=False, sort_keys=False), json.dumps([list(r) for r in dice.log])


@settings(max_examples=60, deadline=None)
@given(_squad("甲"), _squad("乙"), st.integers(0, 10**6), st.sampled_from(["league", "knockout"]), st.booleans())
def test_a_settled_match_plays_as_the_plain_rules(home: dict[str, Any], away: dict[str, Any], seed: int,
                                                  competition: str, lean: bool) -> None:
    """000 §5.1.1: the settled slice's group means (Side.line_means, once a slice) and the settled state kept
    across breaks, and the breaks skipped as quiet (§5.5, §7.3, §7.4), give the record and the dice that every
    attack reading its groups itself and every break going through break_before give."""
    fast = _play((home, away), seed, competition, lean)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine, "_all_rolled", lambda side: False)  # never settled: attack() reads every group
        mp.setattr(engine, "_quiet_break", lambda side, n, extra_time, lead: False)  # every break: break_before
        plain = _play((home, away), seed, competition, lean)
    assert fast == plain


@given(st.integers(0, 60), st.integers(0, 100), st.integers(0, 30), st.integers(1, 100))
def test_post_match_risk_is_injury_risk(age: int, stamina: int, bonus: int, face: int) -> None:
    """000 §5.7.1: the check's inlined risk is injury_risk plus the environment's bonus."""
    dice = Dice(1)
    dice.fix(face, 1)
    p = player("甲", "FW", age=age)
    p.age = age or None
    rec = post_match_check(dice, "k", p, 90, stamina, 0, 1, bonus)
    assert rec is not None and rec["risk"] == injury_risk(age, stamina) + bonus
    assert rec["injured"] == (face <= rec["risk"])


@given(st.integers(-100, 100), st.integers(0, 5), st.integers(0, 5), st.integers(1, 6), st.integers(17, 40))
def test_recovery_is_the_rule(morale: int, medical: int, doctor: int, match_no: int, age: int) -> None:
    """000 §5.6: 10 + medical + 2 × doctor, +2 at ≤ 23, morale over 50 by tens from 60, halved from the 3rd."""
    c = club("甲", [], morale=morale, doctor=doctor)
    c.facilities["medical"] = medical
    amount = RECOVERY_BASE + medical + 2 * doctor + (2 if age <= YOUNG_AGE else 0) + \
        ((morale - 50) // 10 if morale >= 60 else 0)
    assert recovery(c, player("乙", "FW", age=age), match_no) == (amount // 2 if match_no >= 3 else amount)
    assert recoveries(c, match_no) == (recovery(c, player("丙", "FW", age=20), match_no),
                                       recovery(c, player("丁", "FW", age=30), match_no))
