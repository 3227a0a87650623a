"""000 §7.2–7.4: adaptation, time-outs, the AI's half-time change — with fixed dice."""

from __future__ import annotations

import pytest

from anko_writer.dice import Dice
from anko_writer.rulesets.purasbar.match.inplay import break_before, timeout_limit
from anko_writer.rulesets.purasbar.match.side import Plan
from anko_writer.rulesets.purasbar.match.tactics import (
    Coach,
    adaptation,
    ai_change_probability,
    ai_direction_weights,
    ai_halftime,
    morale_boost,
)
from tests.util import club, player, side

ATTACKER = Coach("甲", "attacking", 50)


@pytest.mark.parametrize(
    "coach,formation,face,matches,mods",
    [
        (Coach("a", "attacking", 50), "4 3 3", 2, 1, {"tendency": -1}),      # aligned −1
        (Coach("a", "attacking", 50), "5 4 1", 2, 3, {"tendency": 1}),       # opposed +1
        (Coach("a", "counter", 50), "4 3 3", 3, 4, {"tendency": 1}),         # 防反 → 4 3 3 opposed
        (Coach("a", "pragmatic", 50), "4 3 3", 2, 2, {}),                    # 实用: neutral
        (Coach("a", "pragmatic", 35), "3 5 2", 2, 1, {"stubbornness": -1}),  # ≤ 35 flexible
        (Coach("a", "pragmatic", 65), "3 5 2", 2, 3, {"stubbornness": 1}),   # ≥ 65 stubborn
        (Coach("a", "attacking", 10), "4 3 3", 1, 1, {"tendency": -1, "stubbornness": -1}),  # floor 1
        (None, "4 3 3", 3, 3, {}),                                           # passive: 1D3 alone
    ],
)
def test_adaptation_length(coach, formation, face, matches, mods) -> None:  # noqa: ANN001
    d = Dice(1)
    d.fix(face)
    rec = adaptation(d, "k", coach, formation)
    assert rec["roll"]["expr"] == "1D3" and rec["matches"] == matches and rec["modifiers"] == mods


def test_morale_boost_halves_on_reuse() -> None:
    assert [morale_boost(n) for n in range(5)] == [5, 3, 2, 1, 1]


def test_ai_change_probability_and_weights() -> None:
    """50% − stubbornness/2, halved in the default; 4 3 3 50/25/25 at −2, 65/15/20 at −3."""
    assert ai_change_probability(40, False) == (60, 2)  # 30%
    assert ai_change_probability(40, True) == (60, 4)   # 15%
    w = ai_direction_weights(2, "attacking", "5 4 1")
    assert dict(w.options) == {"4 3 3": 50, "4 4 2": 25, "3 5 2": 25}
    w = ai_direction_weights(3, "attacking", "4 4 2")
    assert dict(w.options) == {"4 3 3": 65, "3 5 2": 20} and w.total == 85
    w = ai_direction_weights(2, "counter", "5 4 1")
    assert dict(w.options) == {"4 3 3": 35, "4 4 2": 25, "3 5 2": 40}


@pytest.mark.parametrize("stub,in_default,face,change", [
    (40, False, 30, True), (40, False, 31, False), (40, True, 15, True), (40, True, 16, False),
    (41, False, 29, True), (41, False, 30, False),  # 29.5%: 29 changes, 30 does not
])
def test_ai_halftime_threshold(stub: int, in_default: bool, face: int, change: bool) -> None:
    coach = Coach("c", "attacking", stub)
    formation = "4 3 3" if in_default else "5 4 1"
    d = Dice(1)
    d.fix(face, 1)
    rec = ai_halftime(d, "k", coach, formation, 2)
    assert rec["change"] is change
    if change:
        assert rec["to"] in {"4 3 3", "4 4 2", "3 5 2"} and rec["to"] != formation


def test_ai_halftime_needs_a_two_goal_deficit() -> None:
    assert ai_halftime(Dice(1), "k", ATTACKER, "5 4 1", 1) is None


def _xi(prefix: str) -> dict:
    return {"GK": [player(f"{prefix}门", "GK")], "DF": [player(f"{prefix}卫{i}", "DF") for i in range(4)],
            "MF": [player(f"{prefix}中{i}", "MF") for i in range(4)], "FW": [player(f"{prefix}锋{i}", "FW") for i in range(2)]}


def _side(plan_timeouts=None, morale: int = 0):  # noqa: ANN001, ANN202
    xi = _xi("我")
    c = club("我队", [p for ps in xi.values() for p in ps], morale=morale)
    c.coach = ATTACKER
    s = side(c, xi, "4 4 2", 2)
    s.plan = Plan(ATTACKER, timeouts=plan_timeouts, sub_below=0)
    return s


def test_voted_morale_timeouts_and_limit() -> None:
    """+5 then +3 (§7.3.2 ②); a third time-out in normal time is refused (§7.3.1: two)."""
    s = _side([{"before": 2, "use": "morale", "when": "always"}, {"before": 3, "use": "morale", "when": "always"},
               {"before": 4, "use": "morale", "when": "always"}], morale=10)
    got = [break_before(Dice(1), "k", s, n, 0, False)["timeouts"] for n in (2, 3, 4)]
    assert [t[0]["gain"] for t in got[:2]] == [5, 3] and s.club.morale == 18
    assert got[2][0]["refused"] == "limit" and s.timeouts_used == 2 == timeout_limit(False)
    assert timeout_limit(True) == 3


def test_voted_timeout_conditions() -> None:
    s = _side([{"before": 4, "use": "morale", "when": "trailing"}])
    assert break_before(Dice(1), "k", s, 4, 1, False)["timeouts"] == []
    assert break_before(Dice(1), "k", s, 4, -1, False)["timeouts"][0]["gain"] == 5


def test_player_boost_lasts_one_slice_and_cannot_repeat() -> None:
    """§7.3.2 ③: +3 to every ability of one player for the next slice only."""
    s = _side([{"before": 2, "use": "player", "player": "我锋0", "when": "always"},
               {"before": 3, "use": "player", "player": "我锋0", "when": "always"}])
    fw = s.lineup["FW"][0]
    before = s.value(fw, "ATK")
    rec = break_before(Dice(1), "k", s, 2, 0, False)["timeouts"][0]
    assert rec["gain"] == 3 and s.value(fw, "ATK") == before + 3
    s.boost.clear()  # the end of the slice (match._end_slice) clears it
    assert s.value(fw, "ATK") == before
    assert break_before(Dice(1), "k", s, 3, 0, False)["timeouts"][0]["refused"] == "repeat"


def test_voted_formation_change_adapts_and_reslots() -> None:
    s = _side([{"before": 4, "use": "formation", "formation": "3 5 2", "when": "always"}])
    d = Dice(1)
    d.fix(3)
    got = break_before(d, "k", s, 4, 0, False)
    ch = got["changes"][0]
    assert ch["from"] == "4 4 2" and ch["to"] == "3 5 2" and ch["how"] == "active"
    assert ch["adaptation"]["matches"] == 3  # 3, attacking coach not aligned with 3 5 2, stubbornness 50
    assert s.adapting and s.club.adapt_left == 3
    assert {k: len(v) for k, v in s.lineup.items()} == {"GK": 1, "DF": 3, "MF": 5, "FW": 2}
    assert len(ch["temps"]) == 1  # one defender now plays midfield at a temporary MID
    fw = s.lineup["FW"][0]
    assert s.value(fw, "ATK") == (30 * 105 // 100) - 2  # 3 5 2 ATK +5%, then −2 adapting


def test_ai_side_changes_at_half_time_when_two_down() -> None:
    s = _side(None)
    s.club.coach = Coach("c", "attacking", 0)  # 50%: roll ≤ 50 changes
    d = Dice(1)
    d.fix(50, 1)
    got = break_before(d, "k", s, 4, -2, False)
    to = got["timeouts"][0]
    assert to["use"] == "formation" and to["check"]["change"] and s.formation == "4 3 3"
    assert got["changes"][0]["adaptation"]["matches"] == 2 and s.timeouts_used == 1
    assert break_before(Dice(1), "k", _side(None), 3, -2, False)["timeouts"] == []  # only at half-time
