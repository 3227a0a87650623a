"""000 §5.4 extra time and penalties, §5.5 substitutions, §3.4 replacements, §5.7 in a match."""

from __future__ import annotations

from anko_writer.dice import Dice
from anko_writer.rulesets.purasbar.match.engine import play, prepare
from anko_writer.rulesets.purasbar.match.injuries import Infirmary
from anko_writer.rulesets.purasbar.match.penalties import shootout, takers
from anko_writer.rulesets.purasbar.match.side import Plan
from anko_writer.rulesets.purasbar.match.substitutions import policy_subs, substitute
from anko_writer.rulesets.purasbar.match.tactics import Coach
from tests.util import club, no_reveal, player, side

COACH = Coach("教练", "pragmatic", 50)


def _gk(v: int) -> int:
    return v


def test_takers_by_atk_or_vote() -> None:
    xi = [player(f"p{i}", "FW", atk=10 * i) for i in range(1, 12)]
    order, src = takers(xi, None)
    assert src == "ai" and [p.name for p in order[:5]] == ["p11", "p10", "p9", "p8", "p7"]
    order, src = takers(xi, ["p1", "p2", "不在场"])
    assert src == "vote" and [p.name for p in order[:4]] == ["p1", "p2", "p11", "p10"]


def _kickers(prefix: str, atk: int = 50) -> list:
    return [player(f"{prefix}{i}", "FW", atk=atk) for i in range(11)]


def test_shootout_best_of_five_exact() -> None:
    """1D20 + ATK/10 against 1D20 + GK/10, strictly greater scores; 1D2 = 1: the first side starts."""
    a, b = _kickers("甲"), _kickers("乙")
    ka, kb = player("甲门", "GK", gk=30), player("乙门", "GK", gk=30)
    d = Dice(1)
    # first 1D2=1, then (taker, keeper) per kick: A scores 10+5>5+3, B misses 1+5 vs 20+3, ...
    d.fix(1, 10, 5, 1, 20, 10, 5, 1, 20, 10, 5, 1, 20)
    rec = shootout(d, "k", ("甲", "乙"), (a, b), (ka, kb), lambda i, k: k.attrs["GK"], hide=False)
    # after 3 pairs 甲 3 : 0 乙 — 乙 cannot catch up (2 kicks left): over before pair 4
    assert rec["score"] == [3, 0] and rec["winner"] == "甲" and len(rec["kicks"]) == 6
    k = rec["kicks"][0]
    assert (k["taker_bonus"], k["keeper_bonus"], k["taker_value"], k["keeper_value"], k["scored"]) == (5, 3, 15, 8, 1)
    assert [x["team"] for x in rec["kicks"]] == ["甲", "乙"] * 3


def test_shootout_equal_is_a_save() -> None:
    a, b = _kickers("甲"), _kickers("乙")
    d = Dice(1)
    d.fix(2, 8, 10)  # 乙 first; 8 + 5 = 13 against 10 + 3 = 13 → saved
    rec = shootout(d, "k", ("甲", "乙"), (a, b), (player("x", "GK", gk=30), player("y", "GK", gk=30)),
                   lambda i, k: k.attrs["GK"], hide=False)
    assert rec["first"] == "乙" and rec["kicks"][0]["team"] == "乙" and rec["kicks"][0]["scored"] == 0


def test_sudden_death_and_hidden_from_pair_five() -> None:
    """Level after five → pairs until one scores and the other does not; pairs 5+ sealed (§5.8.4)."""
    a, b = _kickers("甲"), _kickers("乙")
    d = Dice(1)
    scored, saved = (20, 1), (1, 20)
    seq = [1] + [x for _ in range(5) for x in scored + scored]  # 5 : 5
    seq += [x for x in scored + scored]                          # pair 6: both score
    seq += [x for x in scored + saved]                           # pair 7: 甲 scores, 乙 misses
    d.fix(*seq)
    rec = shootout(d, "k", ("甲", "乙"), (a, b), (player("x", "GK"), player("y", "GK")),
                   lambda i, k: k.attrs["GK"], hide=True)
    assert rec["score"] == [7, 6] and rec["winner"] == "甲" and len(rec["kicks"]) == 14
    assert [k["hidden"] for k in rec["kicks"]] == [False] * 8 + [True] * 6
    assert all(k["taker_roll"]["hidden"] and k["keeper_roll"]["hidden"] for k in rec["kicks"][8:])
    assert rec["kicks"][10]["taker"] == "甲5"  # the sixth kicker


def _wall(prefix: str, age: int = 25) -> dict:
    """An eleven that can never shoot or be shot at: ATK 1, DEF/MID 99 → 攻势值 always ≤ 15."""
    return {"GK": [player(f"{prefix}门", "GK", atk=1, df=99, mid=99, age=age)],
            "DF": [player(f"{prefix}卫{i}", "DF", atk=1, df=99, mid=99, age=age) for i in range(4)],
            "MF": [player(f"{prefix}中{i}", "MF", atk=1, df=99, mid=99, age=age) for i in range(4)],
            "FW": [player(f"{prefix}锋{i}", "FW", atk=1, df=99, mid=99, age=age) for i in range(2)]}


def test_level_knockout_goes_to_extra_time_then_penalties() -> None:
    """Two extra slices with 1D50, a new 1D2 kick-off, doubled stamina loss (§5.3.1), then a shoot-out."""
    hx, ax = _wall("主"), _wall("客", age=30)
    h = club("主队", [p for ps in hx.values() for p in ps])
    a = club("客队", [p for ps in ax.values() for p in ps])
    hs, as_ = side(h, hx, "4 4 2", 2), side(a, ax, "4 4 2", -2)
    rec = play(Dice(3), "m", hs, as_, competition="knockout", round_no=1, neutral=False, reveal=no_reveal)
    assert rec["score"] == [0, 0] and rec["extra_time"] and rec["extra_kickoff_roll"]["expr"] == "1D2"
    assert [s["index"] for s in rec["slices"]] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert {a["die_sides"] for a in rec["attacks"]} == {50} and len(rec["attacks"]) == 16
    end = {r["name"]: r["stamina_end"] for r in rec["lineups"]["home"]}
    assert set(end.values()) == {100 - 6 * 5 - 2 * 10}           # age 25: 30 + 20
    end = {r["name"]: r["stamina_end"] for r in rec["lineups"]["away"]}
    assert set(end.values()) == {100 - 6 * 6 - 2 * 12}           # age 30: 36 + 24
    assert rec["shootout"] is not None and rec["penalties"] == rec["shootout"]["score"]
    assert rec["winner"] == rec["shootout"]["winner"]
    assert all(r["minutes"] == 88 + 30 for r in rec["lineups"]["home"])


def test_league_draw_has_no_extra_time() -> None:
    hx, ax = _wall("主"), _wall("客")
    h = club("主队", [p for ps in hx.values() for p in ps])
    a = club("客队", [p for ps in ax.values() for p in ps])
    rec = play(Dice(3), "m", side(h, hx, "4 4 2", 2), side(a, ax, "4 4 2", -2), competition="league",
               round_no=1, neutral=False, reveal=no_reveal)
    assert rec["score"] == [0, 0] and not rec["extra_time"] and rec["shootout"] is None and rec["winner"] is None


def _squad_with_bench() -> tuple:
    xi = _wall("我")
    bench = [player("替锋甲", "FW", core=False), player("替锋乙", "FW", core=False), player("替卫", "DF", core=False)]
    c = club("我队", [p for ps in xi.values() for p in ps] + bench)
    c.coach = COACH
    s = side(c, xi, "4 4 2", 0)
    s.plan = Plan(COACH)
    return s, bench


def test_tired_player_replaced_by_same_position_role_player_at_random() -> None:
    """AI policy: below 30 stamina goes off; two FW role players → 1D2 picks; on with 1D40+40 (§5.5)."""
    s, bench = _squad_with_bench()
    s.lineup["FW"][0].stamina = 25
    d = Dice(1)
    d.fix(2, 17)
    out = policy_subs(d, "k", s, 4, False)
    assert len(out) == 1
    rec = out[0]
    assert (rec["out"], rec["in"], rec["tier"], rec["pick_roll"]["expr"]) == ("我锋0", "替锋乙", "role", "1D2")
    assert rec["stamina_roll"]["total"] == 57 and bench[1].stamina == 57 and rec["temp"] is None
    assert bench[1] in s.lineup["FW"] and "我锋0" in s.gone


def test_a_core_substitute_comes_on_at_full_stamina() -> None:
    """000 §5.5: a core player who has not played this match comes on with 100 stamina, whatever he had
    left from earlier matches, and no die is rolled for it."""
    s, bench = _squad_with_bench()
    core = player("核心替补", "FW", stamina=55)
    s.club.players.append(core)
    s.club.players.remove(bench[0])
    s.club.players.remove(bench[1])
    s.lineup["FW"][0].stamina = 25
    out = policy_subs(Dice(1), "k", s, 4, False)
    assert [(r["in"], r["core"], r["stamina"], r["stamina_roll"]) for r in out] == [("核心替补", True, 100, None)]
    assert core.stamina == 100


def test_voted_policy_picks_the_best_and_respects_the_limit() -> None:
    s, bench = _squad_with_bench()
    bench[0].attrs["ATK"] = 60
    s.plan = Plan(COACH, sub_below=101, subs_voted=True)  # everyone is "tired"
    out = policy_subs(Dice(1), "k", s, 2, False)
    assert len(out) == 3 == s.subs_used  # §5.5: three in normal time
    assert out[0]["pick_roll"] is None
    assert [r["in"] for r in out if r["slot"] == "FW"][0] == "替锋甲"
    assert substitute(Dice(1), "k", s, "FW", s.lineup["FW"][0], "stamina", 3, False) is None
    assert len(policy_subs(Dice(1), "k", s, 7, True)) == 0  # the bench is empty now


def test_forced_replacement_out_of_position_rolls_temporary_ability() -> None:
    """No goalkeeper on the bench: another player goes in goal at team GK × (0.5 + 1D50/100) (§3.4.2)."""
    s, bench = _squad_with_bench()
    gk = s.lineup["GK"][0]
    s.lineup["GK"].remove(gk)
    s.gone.add(gk.name)
    s.retired.append(("GK", gk))
    team_gk = s.team_abilities()["GK"]
    d = Dice(1)
    d.fix(1, 33, 20)  # pick among 3 bench players, role stamina, temp 1D50
    from anko_writer.rulesets.purasbar.match.inplay import break_before
    got = break_before(d, "k", s, 3, 0, False)["substitutions"][0]
    assert got["reason"] == "injury" and got["tier"] == "other" and got["slot"] == "GK"
    assert got["temp"]["value"] == team_gk * 70 // 100 and s.lineup["GK"][0].name == got["in"]
    assert s.value(s.lineup["GK"][0], "GK") == team_gk * 70 // 100


def test_retirement_in_play_and_post_match_injury_bookkeeping() -> None:
    """Under 20 stamina at a slice's end, 1D20 ≤ 5 forces him off; he is then out of the next match."""
    hx, ax = _wall("主"), _wall("客")
    h = club("主队", [p for ps in hx.values() for p in ps])
    a = club("客队", [p for ps in ax.values() for p in ps])
    for c in (h, a):
        c.infirmary = Infirmary()
    victim = hx["FW"][0]
    victim.stamina = 24  # 24 − 5 = 19 after slice 1
    d = Dice(5)
    d.fix(1, *([1] * 2), 3, 4, prefix="m")  # kick-off, two attack dice, then his 1D20 = 3 → off, weeks 1D6 = 4
    rec = play(d, "m", side(h, hx, "4 4 2", 2), side(a, ax, "4 4 2", -2), competition="league",
               round_no=1, neutral=False, reveal=no_reveal, week=5)
    ret = [x for x in rec["injuries"] if x["kind"] == "retired"]
    assert ret[0]["player"] == victim.name and ret[0]["forced_off"] and ret[0]["slice"] == 1
    assert ret[0]["weeks"] == 2 and ret[0]["out_until_week"] == 7
    assert not victim.healthy and victim.injured_weeks == 3  # weeks 5, 6, 7
    assert h.infirmary.available(victim, 8)
    row = next(r for r in rec["lineups"]["home"] if r["name"] == victim.name)
    assert row["slices"] == [1] and row["minutes"] == 18
    assert all(x["minutes"] > 40 for x in rec["injuries"] if x["kind"] == "post_match")
    assert not any(x["player"] == victim.name for x in rec["injuries"] if x["kind"] == "post_match")


def test_a_temporary_ability_is_never_zero() -> None:
    """Designed floor (rules-flagship D5): a team ability of 1 gives 1 × (50 + 1D50) / 100 → 0 by the
    formula alone; the value is floored at 1, like every ability (§2.2, §3.2.1)."""
    players = [player(f"卫{i}", "DF") for i in range(4)] + [player(f"中{i}", "MF") for i in range(6)] + \
              [player("门", "GK")]  # no forward at all: team ATK is 1 (§3.1.1)
    d = Dice(1)
    d.fix(23, 50)
    s, temps = prepare(d, "k", club("队", players), "4 4 2", 2, None)
    assert s.team_abilities()["ATK"] == 1
    assert [(t["slot"], t["roll"]["total"], t["value"]) for t in temps] == [("FW", 23, 1), ("FW", 50, 1)]


def test_the_temporary_floor_is_printed(tmp_path) -> None:  # noqa: ANN001
    """The chapter shows the formula's own result and says when the floor of 1 lifted it."""
    from tests.util import render_macro
    players = [player(f"卫{i}", "DF") for i in range(4)] + [player(f"中{i}", "MF") for i in range(6)] + [player("门", "GK")]
    d = Dice(1)
    d.fix(23, 50)
    _, temps = prepare(d, "k", club("队", players), "4 4 2", 2, None)
    text = render_macro(tmp_path, "temp(t)", template="macros.j2", alias="m", t=temps[0])
    assert "1 × (50 + 「1D50＝23」) / 100 → 1（临时能力至少为 1）" in text


def test_prepare_rolls_temporary_ability_for_lineup_gaps() -> None:
    players = [player(f"卫{i}", "DF") for i in range(3)] + [player(f"中{i}", "MF") for i in range(6)] + \
              [player(f"锋{i}", "FW") for i in range(2)] + [player("门", "GK")]
    c = club("队", players)
    d = Dice(1)
    d.fix(50)
    s, temps = prepare(d, "k", c, "4 4 2", 2, None)
    assert len(temps) == 1 and temps[0]["slot"] == "DF" and temps[0]["attr"] == "DEF"
    assert temps[0]["value"] == s.team_abilities()["DEF"] * 100 // 100
