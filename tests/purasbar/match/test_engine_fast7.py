"""Issue 29 round 7: the match engine's shortcuts against the code they replaced (000 §3.4, §5.1, §5.3, §5.7):
the same line-ups, records and dice in the same order."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.rulesets.purasbar.match.abilities import PERCENT
from anko_writer.rulesets.purasbar.match.formations import FORMATIONS
from anko_writer.rulesets.purasbar.match.lineup import SLOTS, assign, pick_lineup, stand_in_cost
from anko_writer.rulesets.purasbar.models import MAIN, Club, Player
from tests.util import club, player

FORMS = st.sampled_from(sorted(FORMATIONS))


def _best_own_5ac80d2(own: list[tuple[int, Player]], slot: str, formation: str, rest_below: int,
                      count: int) -> list[tuple[int, Player]]:
    """lineup._best_own as of 5ac80d2 (the reference the one-pass pick_lineup is checked against)."""
    if len(own) <= 1:
        return own[:count]
    attr = MAIN[slot]
    pct = PERCENT[formation].get(attr)
    ranked = []
    for i, p in own:
        attrs = p.attrs
        if not attrs:
            ranked.append((0, 0, 0, i, p))
            continue
        value = attrs[attr]
        if pct is not None:
            value = value * pct // 100
        stamina = p.stamina
        if stamina < 50:
            value = value * 4 // 5 if stamina >= 30 else value * 3 // 5
        ranked.append((1, int(stamina < rest_below), -value if value > 0 else 0, i, p))
    ranked.sort()
    return [(x[3], x[4]) for x in ranked[:count]]


def _pick_lineup_5ac80d2(c: Club, formation: str, rest_below: int = 0) -> dict[str, list[Player]]:
    """lineup.pick_lineup as of 5ac80d2."""
    pool = [(i, p) for i, p in enumerate(c.players) if p.injured_weeks == 0]
    by_position: dict[str, list[tuple[int, Player]]] = {s: [] for s in SLOTS}
    for x in pool:
        if x[1].position in by_position:
            by_position[x[1].position].append(x)
    counts = FORMATIONS[formation].counts()
    lineup: dict[str, list[Player]] = {}
    chosen: set[int] = set()
    for slot in SLOTS:
        own = _best_own_5ac80d2(by_position[slot], slot, formation, rest_below, counts[slot])
        chosen.update(i for i, _ in own)
        lineup[slot] = [p for _, p in own]
    open_slots = [s for s in SLOTS for _ in range(counts[s] - len(lineup[s]))]
    free = [(i, p) for i, p in pool if i not in chosen and p.attrs]
    if open_slots and free:
        open_slots = open_slots[: len(free)]
        cost = [[stand_in_cost(p, s, formation, i, rest_below) for i, p in free] for s in open_slots]
        for s, j in zip(open_slots, assign(cost), strict=True):
            lineup[s].append(free[j][1])
    return lineup


@st.composite
def _club(draw: st.DrawFn) -> Club:
    """A squad of 0–20 players: any position (and an odd one), rolled or not, injured or not, any stamina."""
    players = []
    for i in range(draw(st.integers(0, 20))):
        v = st.integers(-5, 99)
        p = player(f"p{i}", draw(st.sampled_from(["GK", "DF", "MF", "FW", "GK", "XX"])), atk=draw(v), df=draw(v),
                   mid=draw(v), gk=draw(v), stamina=draw(st.integers(0, 100)), core=draw(st.booleans()))
        if draw(st.integers(0, 4)) == 0:
            p.attrs = {}  # an AI core player not yet rolled
        p.injured_weeks = draw(st.sampled_from([0, 0, 0, 1, 3]))
        players.append(p)
    return club("队", players)


@settings(max_examples=400, deadline=None)
@given(_club(), FORMS, st.sampled_from([0, 30, 50, 60, 101]))
def test_one_pass_pick_lineup_is_the_old_one(c: Club, formation: str, rest_below: int) -> None:
    """000 §3.4, §7.1: the one-pass ranking picks the same players in the same order in every slot as the
    per-position _best_own of 5ac80d2, stand-ins and short squads included (the order decides the §5.1.2
    shooter draw)."""
    got: dict[str, Any] = {s: [id(p) for p in ps] for s, ps in pick_lineup(c, formation, rest_below).items()}
    want = {s: [id(p) for p in ps] for s, ps in _pick_lineup_5ac80d2(c, formation, rest_below).items()}
    assert got == want
    assert list(got) == list(want)
