"""Line-ups as an assignment (designed, issue 26): fewest stand-ins, no keeper up front when avoidable,
an AI club's pre-match formation, and a window recruiting for a short position."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.rulesets.purasbar.match.formations import FORMATIONS
from anko_writer.rulesets.purasbar.match.lineup import SLOTS, ai_formation, assign, best_formation, need, pick_lineup
from anko_writer.rulesets.purasbar.match.tactics import AI_ADAPT
from tests.util import club, player


def _squad(counts: dict[str, int], **kw: int) -> list:
    return [player(f"{pos}{i}", pos, **kw) for pos in SLOTS for i in range(counts.get(pos, 0))]


def _stand_ins(xi: dict) -> tuple[int, int]:
    """(starters out of position, goalkeepers among them at outfield slots)."""
    out = [(s, p) for s, ps in xi.items() for p in ps if p.position != s]
    return len(out), sum(p.position == "GK" for _, p in out)


def _compositions(n: int, parts: int):
    """Every way to split ``n`` into ``parts`` ordered non-negative integers."""
    for cut in itertools.combinations(range(n + parts - 1), parts - 1):
        edges = (-1, *cut, n + parts - 1)
        yield tuple(b - a - 1 for a, b in itertools.pairwise(edges))


def _brute(have: dict[str, int], formation: str) -> tuple[int, int]:
    """Exhaustive: over every count matrix x[position][slot] the squad allows, the lexicographic least
    (stand-ins, goalkeepers at outfield slots) for a full eleven. Slot by slot, every split of the slot's
    count among the four positions, keeping the least cost for each count of players used so far (both
    parts of the cost add up over the slots, so the least of a whole matrix is the least over these)."""
    counts = FORMATIONS[formation].counts()
    best: dict[tuple[int, ...], tuple[int, int]] = {(0, 0, 0, 0): (0, 0)}
    for j, s in enumerate(SLOTS):
        nxt: dict[tuple[int, ...], tuple[int, int]] = {}
        for used, (off, keepers) in best.items():
            for split in _compositions(counts[s], 4):  # split[i]: players of position SLOTS[i] at slot s
                now = tuple(u + x for u, x in zip(used, split, strict=True))
                if any(now[i] > have[q] for i, q in enumerate(SLOTS)):
                    continue
                cost = (off + counts[s] - split[j], keepers + (split[0] if j else 0))
                if cost < nxt.get(now, (99, 99)):
                    nxt[now] = cost
        best = nxt
    assert best
    return min(best.values())


@settings(max_examples=20, deadline=None)
@given(st.fixed_dictionaries({s: st.integers(0, 8) for s in SLOTS}).filter(lambda d: sum(d.values()) >= 11),
       st.sampled_from(list(FORMATIONS)))
def test_lineup_needs_the_fewest_stand_ins(have: dict[str, int], formation: str) -> None:
    """Against an exhaustive search: the line-up uses the fewest stand-ins the squad allows, and no more
    goalkeepers at outfield slots than necessary; :func:`need` predicts both."""
    c = club("队", _squad(have))
    got = _stand_ins(pick_lineup(c, formation))
    assert got == _brute(have, formation) == (need(c, formation).stand_ins, need(c, formation).keepers_outfield)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.lists(st.lists(st.integers(0, 30), min_size=n + 2, max_size=n + 2),
                                                      min_size=n, max_size=n)))
def test_assignment_is_exact(cost: list[list[int]]) -> None:
    """The Hungarian method finds a minimum-cost assignment (against every permutation)."""
    got = assign(cost)
    assert len(set(got)) == len(got)
    best = min(sum(cost[i][j] for i, j in enumerate(p)) for p in itertools.permutations(range(len(cost[0])), len(cost)))
    assert sum(cost[i][j] for i, j in enumerate(got)) == best


def test_review_example_one_stand_in_not_four() -> None:
    """rules-flagship D1 (梅迪卡白衣, s1 m02): 4 4 2 with MF 4 / GK 4 / DF 3 / FW 8 healthy needs one
    stand-in, an outfield player at DF; the greedy pass in slot order fielded four."""
    c = club("梅迪卡", _squad({"MF": 4, "GK": 4, "DF": 3, "FW": 8}))
    xi = pick_lineup(c, "4 4 2")
    assert _stand_ins(xi) == (1, 0)
    assert [p.position for p in xi["DF"]].count("FW") == 1 and all(p.position == "MF" for p in xi["MF"])


def test_no_keeper_up_front_while_an_outfield_player_is_free() -> None:
    """4 3 3 with DF 4 / MF 5 / FW 1 / GK 3: both missing forwards are midfielders, not keepers."""
    xi = pick_lineup(club("队", _squad({"DF": 4, "MF": 5, "FW": 1, "GK": 3})), "4 3 3")
    assert [p.position for p in xi["FW"]].count("GK") == 0 and _stand_ins(xi) == (2, 0)


def test_stand_ins_rest_the_tired_and_pick_the_best_at_the_slot() -> None:
    """Among free players, a stand-in is one at or above the rest line, then the best at the slot's
    attribute (his own does not count once he plays it, §3.4.2, but it breaks the tie)."""
    ps = _squad({"GK": 1, "DF": 3, "MF": 4, "FW": 2}) + [player("累", "MF", df=90, stamina=20),
                                                        player("强", "MF", df=50), player("弱", "MF", df=10)]
    xi = pick_lineup(club("队", ps), "4 4 2", rest_below=30)
    assert [p.name for p in xi["DF"] if p.position != "DF"] == ["强"]


def test_ai_club_takes_the_formation_with_fewest_stand_ins_and_adapts() -> None:
    """An AI club with three defenders leaves 4 4 2 for 3 5 2 (no stand-in) and starts the §7.4.4 fixed
    two-match adaptation; a tie keeps the formation it has (no needless adaptation)."""
    c = club("队", _squad({"GK": 2, "DF": 3, "MF": 6, "FW": 3}), formation="4 4 2")
    assert need(c, "4 4 2").stand_ins == 1 and need(c, "3 5 2").stand_ins == 0
    rec = ai_formation(c)
    assert rec == {"before": "4 4 2", "after": "3 5 2", "adaptation": AI_ADAPT} and AI_ADAPT == 2
    assert (c.formation, c.adapt_left) == ("3 5 2", 2)
    assert ai_formation(c) is None
    full = club("队", _squad({"GK": 2, "DF": 5, "MF": 5, "FW": 3}), formation="5 4 1")
    assert best_formation(full, "5 4 1")[0] == "5 4 1" and ai_formation(full) is None


def test_injured_players_do_not_count_towards_a_formation() -> None:
    """Need counts healthy players only: a hurt defender makes 4 4 2 short."""
    ps = _squad({"GK": 1, "DF": 4, "MF": 5, "FW": 2})
    ps[1].injured_weeks = 2
    assert need(club("队", ps), "4 4 2").stand_ins == 1
