"""000 §4.3 群英杯: the Swiss draw, the Swiss table, the 8th-place roll-off and the knockout bracket."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.dice import Dice
from anko_writer.rulesets.purasbar.competition.cup import (
    FINAL_IS_NEUTRAL,
    KNOCKOUT_DIE,
    QUALIFIERS,
    STAGES,
    SWISS_DIE,
    SWISS_ROUNDS,
    final,
    home_side,
    qualify,
    quarter_finals,
    semi_finals,
    swiss_round_pairs,
    swiss_table,
)
from anko_writer.rulesets.purasbar.match.engine import COMPETITION_DIE
from tests.choices import Choices, built

CLUBS = [f"T{i:02d}" for i in range(1, 25)]


# ------------------------------------------------------------------ helpers (independent of cup.py)

def points(clubs: list[str], results: list[tuple[str, str, int, int]]) -> dict[str, int]:
    """3 a win, 1 a draw."""
    p = {t: 0 for t in clubs}
    for h, a, hg, ag in results:
        p[h] += 3 if hg > ag else 1 if hg == ag else 0
        p[a] += 3 if ag > hg else 1 if hg == ag else 0
    return p


def levels(clubs: list[str], results: list[tuple[str, str, int, int]]) -> dict[str, int]:
    """Score-group index, 0 for the highest points."""
    p = points(clubs, results)
    ranks = sorted(set(p.values()), reverse=True)
    return {t: ranks.index(p[t]) for t in clubs}


def cost(pairs: list[tuple[str, str]], lv: dict[str, int]) -> int:
    """Total groups crossed by the pairs."""
    return sum(abs(lv[a] - lv[b]) for a, b in pairs)


def lex_key(pairs: list[tuple[str, str]], seeding: list[str]) -> tuple[int, ...]:
    """Partner positions, taking the first unpaired club of the seeding each time."""
    partner = {a: b for a, b in pairs} | {b: a for a, b in pairs}
    done: set[str] = set()
    key = []
    for t in seeding:
        if t not in done:
            key.append(seeding.index(partner[t]))
            done.update((t, partner[t]))
    return tuple(key)


def matchings(items: list[str]) -> Iterator[list[tuple[str, str]]]:
    """Every perfect matching, first item's partner in list order (brute force)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, other in enumerate(rest):
        for m in matchings(rest[:k] + rest[k + 1:]):
            yield [(first, other), *m]


def check_seeding(rec: dict, clubs: list[str], results: list) -> None:
    """The seeding is the score groups, highest first, each a permutation of its members."""
    p = points(clubs, results)
    assert [g["points"] for g in rec["groups"]] == sorted(set(p.values()), reverse=True)
    for g in rec["groups"]:
        assert sorted(g["teams"]) == sorted(t for t in clubs if p[t] == g["points"])
        assert [r["expr"] for r in g["rolls"]] == [f"1D{n}" for n in range(len(g["teams"]), 1, -1)]
    assert rec["seeding"] == [t for g in rec["groups"] for t in g["teams"]]


# ------------------------------------------------------------------ constants

def test_constants_and_stages() -> None:
    """1D30 Swiss, 1D50 knockout, 5 rounds, 8 qualifiers; the month's stages in DESIGN §5 numbering."""
    assert (SWISS_DIE, KNOCKOUT_DIE, SWISS_ROUNDS, QUALIFIERS) == (30, 50, 5, 8)
    assert SWISS_DIE == COMPETITION_DIE["swiss"] and KNOCKOUT_DIE == COMPETITION_DIE["knockout"]
    assert [(s["competition"], s["round"]) for s in STAGES] == [
        ("swiss", 1), ("swiss", 2), ("swiss", 3), ("swiss", 4), ("swiss", 5),
        ("knockout", 1), ("knockout", 2), ("knockout", 3)]
    assert [s["stage"] for s in STAGES[5:]] == ["quarter_final", "semi_final", "final"]
    assert [s["matches"] for s in STAGES] == [12] * 5 + [4, 2, 1]
    assert FINAL_IS_NEUTRAL is True
    assert [s["neutral"] for s in STAGES] == [False] * 7 + [True]


# ------------------------------------------------------------------ Swiss draw, pinned

def test_round1_random_draw_pinned() -> None:
    """Round 1: 1D24, 1D23 … 1D2 order all clubs, then 1–2, 3–4 … (each 1Dn picking the last)."""
    d = Dice(1)
    d.fix(*range(24, 1, -1), prefix="cup/r1/draw")
    pairs, rec = swiss_round_pairs(d, "cup/r1", 1, CLUBS, [])
    rev = CLUBS[::-1]
    assert pairs == [(rev[i], rev[i + 1]) for i in range(0, 24, 2)]
    assert pairs[0] == ("T24", "T23") and pairs[-1] == ("T02", "T01")
    assert len(rec["groups"]) == 1 and rec["groups"][0]["points"] == 0
    g = rec["groups"][0]
    assert [r["expr"] for r in g["rolls"]] == [f"1D{n}" for n in range(24, 1, -1)]
    assert [r["total"] for r in g["rolls"]] == list(range(24, 1, -1))
    assert g["rolls"][0]["purpose"] == "瑞士轮第1轮抽签" and g["rolls"][0]["id"] == "cup/r1/draw#1"
    assert rec["floaters"] == [] and rec["float_steps"] == rec["float_steps_free"] == 0
    assert rec["pairs"] == [list(p) for p in pairs]


def test_round2_odd_groups_float_to_nearest_lower_group() -> None:
    """Round 2 after 11 wins and one draw: 3 pts ×11, 1 pt ×2, 0 pts ×11.

    The last of the 3-point draw meets the first of the 1-point group; the 1-point group is then
    odd and sends its last club to the first of the 0-point group.
    """
    r1 = [(CLUBS[i], CLUBS[i + 1], 1, 0) for i in range(0, 22, 2)] + [("T23", "T24", 1, 1)]
    d = Dice(2)
    # 3-pt group (T01,T03,…,T21): 1D11 = 11 takes T21 first, then 1s keep the rest in order;
    # 1-pt group (T23,T24): 1D2 = 2 puts T24 first; 0-pt group: all 1s keep T02,T04,…,T22
    d.fix(11, *[1] * 9, 2, *[1] * 10, prefix="cup/r2/draw")
    pairs, rec = swiss_round_pairs(d, "cup/r2", 2, CLUBS, r1)
    assert pairs == [
        ("T21", "T01"), ("T03", "T05"), ("T07", "T09"), ("T11", "T13"), ("T15", "T17"),
        ("T19", "T24"),
        ("T23", "T02"), ("T04", "T06"), ("T08", "T10"), ("T12", "T14"), ("T16", "T18"), ("T20", "T22"),
    ]
    assert [(g["points"], len(g["teams"])) for g in rec["groups"]] == [(3, 11), (1, 2), (0, 11)]
    assert rec["groups"][1]["teams"] == ["T24", "T23"]
    assert rec["groups"][1]["rolls"][0]["purpose"] == "瑞士轮第2轮抽签（1分组）"
    assert rec["floaters"] == [
        {"team": "T19", "points": 3, "opponent": "T24", "opponent_points": 1, "groups_down": 1},
        {"team": "T23", "points": 1, "opponent": "T02", "opponent_points": 0, "groups_down": 1},
    ]
    assert rec["float_steps"] == rec["float_steps_free"] == 2
    check_seeding(rec, CLUBS, r1)


def test_rematch_in_group_moves_to_next_unmet_club() -> None:
    """Seeding A, C, E (3 pts): A has met C, so A meets E and C floats (000 §4.3.1 no rematch)."""
    clubs = ["A", "B", "C", "D", "E", "F"]
    res = [("A", "C", 1, 1), ("A", "B", 1, 0), ("C", "D", 1, 0), ("E", "F", 1, 0),
           ("B", "D", 0, 0), ("F", "B", 0, 0)]
    # A 4, C 4, E 3, B 2, D 1, F 1 → groups 4:[A,C] 3:[E] 2:[B] 1:[D,F]; A and C have met
    d = Dice(3)
    d.fix(1, 1, prefix="x/draw")
    pairs, rec = swiss_round_pairs(d, "x", 3, clubs, res)
    # A (4) cannot meet C: A–E (1 step), C–B (2 steps), D–F (0) = 3, the least without rematches
    assert pairs == [("A", "E"), ("C", "B"), ("D", "F")]
    assert rec["float_steps"] == 3 and rec["float_steps_free"] == 1
    assert [f["team"] for f in rec["floaters"]] == ["A", "C"]


def test_floater_skips_a_group_only_when_forced() -> None:
    """A (6) has met B, the only 3-point club: A goes to the 1-point group, B follows it there."""
    clubs = ["A", "B", "C", "D", "E", "F"]
    res = [("A", "B", 1, 0), ("A", "E", 1, 0), ("B", "F", 1, 0), ("C", "D", 0, 0)]
    d = Dice(4)
    d.fix(1, 1, prefix="y/draw")
    pairs, rec = swiss_round_pairs(d, "y", 3, clubs, res)
    assert [(g["points"], g["teams"]) for g in rec["groups"]] == [
        (6, ["A"]), (3, ["B"]), (1, ["C", "D"]), (0, ["E", "F"])]
    assert pairs == [("A", "C"), ("B", "D"), ("E", "F")]
    assert [(f["team"], f["opponent"], f["groups_down"]) for f in rec["floaters"]] == [
        ("A", "C", 2), ("B", "D", 1)]


def test_no_rematch_free_pairing_raises() -> None:
    """Four clubs that have all met each other cannot be paired."""
    clubs = ["A", "B", "C", "D"]
    res = [(a, b, 0, 0) for a, b in itertools.combinations(clubs, 2)]
    with pytest.raises(ValueError, match="rematch"):
        swiss_round_pairs(Dice(5), "z", 4, clubs, res)
    with pytest.raises(ValueError, match="even"):
        swiss_round_pairs(Dice(5), "z", 1, clubs[:3], [])


# ------------------------------------------------------------------ Swiss draw, properties

def assert_locally_optimal(pairs: list[tuple[str, str]], rec: dict, lv: dict[str, int],
                           met: set[frozenset[str]]) -> None:
    """No rematch-free swap of two pairs floats less, or as little and earlier in seeding order."""
    seeding = rec["seeding"]
    here = (cost(pairs, lv), lex_key(pairs, seeding))
    for x, y in itertools.combinations(range(len(pairs)), 2):
        (a, b), (c, e) = pairs[x], pairs[y]
        for alt in (((a, c), (b, e)), ((a, e), (b, c))):
            if any(frozenset(p) in met for p in alt):
                continue
            other = [p for k, p in enumerate(pairs) if k not in (x, y)] + list(alt)
            assert (cost(other, lv), lex_key(other, seeding)) > here, (pairs, alt)


def _scores(ch: Choices) -> list[tuple[int, int]]:
    """Five rounds' sixty scores, each side 0–3 goals."""
    return [(ch.integer(0, 3), ch.integer(0, 3)) for _ in range(60)]


scores = built(_scores, size=120)
""":func:`_scores` of one draw of bytes (tests.choices: 120 integers drawn one by one were most of the Swiss
rounds' tests)."""


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), goals=scores)
def test_five_swiss_rounds_properties(seed: int, goals: list[tuple[int, int]]) -> None:
    """Five rounds of 24: everyone once a round, never a rematch, groups kept but for least floating."""
    d = Dice(seed)
    results: list[tuple[str, str, int, int]] = []
    met: set[frozenset[str]] = set()
    for r in range(1, SWISS_ROUNDS + 1):
        pairs, rec = swiss_round_pairs(d, f"s1/cup/swiss/r{r}", r, CLUBS, results)
        check_seeding(rec, CLUBS, results)
        assert len(pairs) == 12 and sorted(itertools.chain(*pairs)) == sorted(CLUBS)
        assert not any(frozenset(p) in met for p in pairs)
        lv, pts = levels(CLUBS, results), points(CLUBS, results)
        cross = [(a, b) for a, b in pairs if pts[a] != pts[b]]
        assert [(f["team"], f["opponent"]) for f in rec["floaters"]] == cross
        assert all(pts[a] > pts[b] and f["groups_down"] == lv[b] - lv[a] >= 1
                   for (a, b), f in zip(cross, rec["floaters"], strict=False))
        assert rec["float_steps"] == cost(pairs, lv) >= rec["float_steps_free"]
        if r == 1:
            assert rec["floaters"] == []
        assert_locally_optimal(pairs, rec, lv, met)
        for k, (a, b) in enumerate(pairs):
            results.append((a, b, *goals[(r - 1) * 12 + k]))
            met.add(frozenset((a, b)))
    assert len(met) == 60
    assert Counter(itertools.chain(*(r[:2] for r in results))) == {t: 5 for t in CLUBS}


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.sampled_from([2, 4, 6, 8, 10]),
       history=st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 2),
                                  st.integers(0, 2)), max_size=20))
def test_draw_equals_brute_force(seed: int, n: int, history: list[tuple[int, int, int, int]]) -> None:
    """Small fields against every perfect matching: least floating, then first in seeding order."""
    clubs = [f"C{i}" for i in range(n)]
    seen: set[frozenset[str]] = set()
    results = []
    for i, j, hg, ag in history:
        pair = frozenset((f"C{i % n}", f"C{j % n}"))
        if i % n != j % n and pair not in seen:
            seen.add(pair)
            results.append((f"C{i % n}", f"C{j % n}", hg, ag))
    lv = levels(clubs, results)
    try:
        pairs, rec = swiss_round_pairs(Dice(seed), "b", 3, clubs, results)
    except ValueError:
        assert not any(all(frozenset(p) not in seen for p in m) for m in matchings(clubs))
        return
    check_seeding(rec, clubs, results)
    legal = [m for m in matchings(rec["seeding"]) if all(frozenset(p) not in seen for p in m)]
    best = min(cost(m, lv) for m in legal)
    assert pairs == next(m for m in legal if cost(m, lv) == best)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9), goals=scores)
def test_least_floating_matches_blossom(seed: int, goals: list[tuple[int, int]]) -> None:
    """With 24 clubs the float cost equals a general min-weight perfect matching (networkx)."""
    nx = pytest.importorskip("networkx")
    d = Dice(seed)
    results: list[tuple[str, str, int, int]] = []
    for r in range(1, SWISS_ROUNDS + 1):
        pairs, rec = swiss_round_pairs(d, f"c/r{r}", r, CLUBS, results)
        lv = levels(CLUBS, results)
        met = {frozenset(x[:2]) for x in results}
        g = nx.Graph()
        g.add_weighted_edges_from((a, b, abs(lv[a] - lv[b])) for a, b in itertools.combinations(CLUBS, 2)
                                  if frozenset((a, b)) not in met)
        m = nx.min_weight_matching(g)
        assert len(m) == 12 and cost(list(m), lv) == rec["float_steps"]
        results += [(a, b, *goals[(r - 1) * 12 + k]) for k, (a, b) in enumerate(pairs)]


def test_draw_is_reproducible_and_keyed() -> None:
    """Same seed and key, same draw; the draw reads only its own stream."""
    a = swiss_round_pairs(Dice(9), "k/r1", 1, CLUBS, [])
    other = Dice(9)
    other.roll("unrelated", "1D100", "x")
    b = swiss_round_pairs(other, "k/r1", 1, CLUBS, [])
    assert a == b


# ------------------------------------------------------------------ Swiss table

def test_swiss_table_order_and_buchholz() -> None:
    """总积分 > 净胜球 > 总进球 > 对手积分总和: A and B level on the first three, A's opponents scored more."""
    clubs = ["B", "A", "C", "D", "E", "F"]
    res = [("A", "C", 1, 0), ("B", "D", 1, 0), ("C", "E", 1, 0), ("D", "F", 0, 0)]
    rows = swiss_table(clubs, res)
    assert [r["team"] for r in rows] == ["A", "B", "C", "F", "D", "E"]
    a, b = rows[0], rows[1]
    assert (a["points"], a["gd"], a["gf"]) == (b["points"], b["gd"], b["gf"]) == (3, 1, 1)
    assert (a["opp_points"], b["opp_points"]) == (3, 1)
    assert a == {"team": "A", "played": 1, "won": 1, "drawn": 0, "lost": 0, "gf": 1, "ga": 0, "gd": 1,
                 "points": 3, "opp_points": 3}
    # without the fourth criterion the given order would have put B first
    assert [r["team"] for r in swiss_table(clubs, res[:2])][:2] == ["B", "A"]


def test_swiss_table_criteria_in_order() -> None:
    """Points first, then GD, then GF, then opponents' points, then the given order."""
    clubs = ["P", "Q", "R", "S", "U", "V"]
    res = [("P", "U", 3, 0),   # P 3 pts GD +3 GF 3
           ("Q", "V", 2, 0),   # Q 3 pts GD +2 GF 2
           ("R", "S", 0, 0)]   # R, S 1 pt GD 0 GF 0, opponents 1 each → given order R, S
    rows = swiss_table(clubs, res)
    assert [r["team"] for r in rows] == ["P", "Q", "R", "S", "V", "U"]  # V GD −2 over U GD −3
    res2 = [("P", "U", 3, 1), ("Q", "V", 2, 0)]  # P GD +2 GF 3 beats Q GD +2 GF 2 on goals for
    assert [r["team"] for r in swiss_table(["Q", "P", "U", "V"], res2)][:2] == ["P", "Q"]
    assert [r["team"] for r in swiss_table(["V", "U"], [("U", "V", 0, 0)])] == ["V", "U"]


# ------------------------------------------------------------------ 8th place

def row(team: str, pts: int, gd: int = 0, gf: int = 0, opp: int = 0) -> dict:
    """A table row with the four criteria."""
    return {"team": team, "played": 5, "won": 0, "drawn": 0, "lost": 0, "gf": gf, "ga": gf - gd,
            "gd": gd, "points": pts, "opp_points": opp}


TOP7 = [row(t, 15 - i) for i, t in enumerate("ABCDEFG")]


def test_qualify_no_tie_rolls_nothing() -> None:
    """Places 8 and 9 differ on a criterion (here opponents' points): no dice."""
    d = Dice(1)
    table = TOP7 + [row("H", 7, opp=30), row("I", 7, opp=29), row("J", 1)]
    q, rec = qualify(d, "q", table)
    assert q == list("ABCDEFGH") and rec["throws"] == [] and rec["tied"] == [] and d.log == []


def test_qualify_eighth_place_roll_off_with_reroll() -> None:
    """H and I level on all four criteria: 1D100 each; 50–50 settles nothing, 30–70 sends I through."""
    d = Dice(1)
    d.fix(50, 50, 30, 70, prefix="q")
    table = TOP7 + [row("H", 7, 1, 5, 30), row("I", 7, 1, 5, 30), row("J", 1)]
    q, rec = qualify(d, "q", table)
    assert q == list("ABCDEFGI")
    assert rec["tied"] == ["H", "I"] and rec["slots"] == 1
    assert [[(t["team"], t["roll"]["total"]) for t in th] for th in rec["throws"]] == [
        [("H", 50), ("I", 50)], [("H", 30), ("I", 70)]]
    assert all(t["roll"]["expr"] == "1D100" for th in rec["throws"] for t in th)
    assert rec["advanced"] == ["I"] and rec["eliminated"] == ["H"]


def test_qualify_three_way_tie_two_places() -> None:
    """G, H, I level at 7–9: 80 takes a place, the two 40s throw again for the last (10–90)."""
    d = Dice(1)
    d.fix(40, 80, 40, 10, 90, prefix="q")
    table = TOP7[:6] + [row(t, 7, 0, 4, 20) for t in "GHI"] + [row("J", 1)]
    q, rec = qualify(d, "q", table)
    assert rec["slots"] == 2 and rec["tied"] == ["G", "H", "I"]
    assert [[t["team"] for t in th] for th in rec["throws"]] == [["G", "H", "I"], ["G", "I"]]
    assert rec["advanced"] == ["H", "I"] and rec["eliminated"] == ["G"]
    assert q == list("ABCDEF") + ["H", "I"]


def test_qualify_tie_above_the_cut_only() -> None:
    """G and H level at 7–8 but I is below: both are in, no dice, given order kept."""
    d = Dice(1)
    table = TOP7[:6] + [row("G", 7), row("H", 7), row("I", 6)]
    q, rec = qualify(d, "q", table)
    assert q == list("ABCDEFGH") and d.log == []


# ------------------------------------------------------------------ knockout

def test_bracket() -> None:
    """QF 1v8, 2v7, 3v6, 4v5; SF (1v8 w) v (4v5 w), (2v7 w) v (3v6 w); the final."""
    top8 = [f"S{i}" for i in range(1, 9)]
    qf = quarter_finals(top8)
    assert qf == [("S1", "S8"), ("S2", "S7"), ("S3", "S6"), ("S4", "S5")]
    winners = ["S8", "S2", "S6", "S4"]  # winners of the ties in QF order
    assert semi_finals(winners) == [("S8", "S4"), ("S2", "S6")]
    assert final(["S4", "S2"]) == ("S4", "S2")
    with pytest.raises(ValueError):
        quarter_finals(top8[:7])
    with pytest.raises(ValueError):
        semi_finals(winners[:3])
    with pytest.raises(ValueError):
        final(["S1"])


def test_home_side_1d2() -> None:
    """1 = the first-named club at home, 2 = the other (000 §4.3.2)."""
    d = Dice(1)
    d.fix(1, 2, prefix="ko")
    home, away, roll = home_side(d, "ko/qf1", "S1", "S8")
    assert (home, away, roll.expr, roll.total) == ("S1", "S8", "1D2", 1)
    home, away, roll = home_side(d, "ko/qf2", "S2", "S7")
    assert (home, away, roll.total) == ("S7", "S2", 2)
    assert roll.purpose == "S2—S7 主客场"
