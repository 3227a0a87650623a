"""Line-ups as an assignment (designed reading of 000 §3.4, §7.1): the eleven with the fewest stand-ins.

A stand-in is a starter out of his position; he plays it at a §3.4.2 temporary ability, which depends on
the team and a die, not on him. So the best line-up of a formation is, in this order of importance:

1. the fewest stand-ins (every position first fills its slots from its own players);
2. no goalkeeper at an outfield slot while an outfield player is free to stand in;
3. the fewest starters under the coach's rest line (§5.5);
4. the best own players by the slot's main attribute (after formation bonus and stamina penalty).

Own players of a position are interchangeable only among that position's slots, so (1), (3) and (4)
are met by taking each position's best; the stand-ins are then an assignment of the players left to the
slots left (:func:`assign`, exact, Hungarian method). ``tests/purasbar/match/test_lineup.py`` checks the
result against a brute-force search over every line-up of small squads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..models import MAIN, Club, Player
from .abilities import PERCENT, effective
from .formations import FORMATIONS
from .records import FormationPick
from .tactics import AI_ADAPT

SLOTS = ("GK", "DF", "MF", "FW")
"""Slot order of a line-up (GK first)."""
KEEPER_OUTFIELD = 10**7
"""Cost of a goalkeeper at an outfield slot: above any other cost of a stand-in (rule 2)."""
TIRED = 10**5
"""Cost of a starter under the rest line (rule 3)."""


def _rank_key(p: Player, slot: str, formation: str, index: int, rest_below: int) -> tuple[int, int, int, int]:
    """Own-position order: an AI core player not yet rolled (000 §5.8.3) first; then players at or above
    the rest line before those under it; then the best value of the slot's main attribute after
    formation bonus and stamina penalty; then squad order."""
    if not p.rolled:
        return (0, 0, 0, index)
    return (1, int(p.stamina < rest_below), -effective(p, MAIN[slot], formation), index)


def assign(cost: Sequence[Sequence[int]]) -> list[int]:
    """An exact minimum-cost assignment of each row to a distinct column (rows ≤ columns).

    The Hungarian method with potentials, O(rows² × columns); returns each row's column.

    >>> assign([[4, 1, 3], [2, 0, 5]])
    [1, 0]
    >>> assign([[1, 2], [1, 9]])
    [1, 0]
    """
    n, m = len(cost), len(cost[0]) if cost else 0
    if n == 0:
        return []
    big = 1 << 62
    u, v = [0] * (n + 1), [0] * (m + 1)
    owner, way = [0] * (m + 1), [0] * (m + 1)
    for i in range(1, n + 1):
        owner[0], j0 = i, 0
        low, used = [big] * (m + 1), [False] * (m + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = owner[j0], big, 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < low[j]:
                        low[j], way[j] = cur, j0
                    if low[j] < delta:
                        delta, j1 = low[j], j
            for j in range(m + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    low[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    out = [0] * n
    for j in range(1, m + 1):
        if owner[j]:
            out[owner[j] - 1] = j - 1
    return out


def stand_in_cost(p: Player, slot: str, formation: str, index: int, rest_below: int) -> int:
    """The cost of ``p`` standing in at ``slot``: rules 2 and 3, then the best at the slot's attribute."""
    keeper = KEEPER_OUTFIELD if p.position == "GK" and slot != "GK" else 0
    tired = TIRED if p.stamina < rest_below else 0
    return keeper + tired + (999 - min(999, effective(p, MAIN[slot], formation))) * 64 + index


@dataclass(frozen=True)
class Need:
    """What a formation asks of the healthy squad: stand-ins, and goalkeepers among them at outfield slots."""

    stand_ins: int
    keepers_outfield: int


def need(club: Club, formation: str) -> Need:
    """The fewest stand-ins ``formation`` needs from the club's healthy players, and the fewest of those
    who must be goalkeepers at an outfield slot (stand-ins are rolled players, 000 §3.4.2).

    A squad of three keepers, three defenders, four midfielders and two forwards has no outfield player to
    spare, so either formation puts one keeper in an outfield slot:

    >>> from ..models import Player
    >>> ps = [Player(f"p{i}", pos, False, attrs={"ATK": 1}) for i, pos in enumerate("GK GK GK DF DF DF MF MF MF MF FW FW".split())]
    >>> need(Club("c", "c", 0, {}, "ATK", "4 4 2", ps), "4 4 2"), need(Club("c", "c", 0, {}, "ATK", "4 4 2", ps), "3 5 2")
    (Need(stand_ins=1, keepers_outfield=1), Need(stand_ins=1, keepers_outfield=1))
    """
    return _need(_census(club), FORMATIONS[formation].counts())


def needs(club: Club) -> dict[str, Need]:
    """:func:`need` of each of the four formations (§7.1 table order), from one count of the squad."""
    counts = [0] * (2 * len(SLOTS))  # per slot (unrolled, rolled): _census flattened, as a key
    index = _SLOT_INDEX
    for p in club.players:
        if p.injured_weeks == 0:  # Player.healthy
            k = index.get(p.position)
            if k is not None:  # at one of the four positions
                counts[k + 1 if p.attrs else k] += 1  # Player.rolled
    key = tuple(counts)
    found = _NEEDS.get(key)
    if found is None:
        census = _census(club)
        found = _NEEDS[key] = {f: _need(census, spec.counts()) for f, spec in FORMATIONS.items()}
    return dict(found)


_SLOT_INDEX = {s: 2 * i for i, s in enumerate(SLOTS)}
"""Where a position's (unrolled, rolled) counts start in :func:`needs`'s key."""


_NEEDS: dict[tuple[int, ...], dict[str, Need]] = {}
""":func:`needs` by squad census (the counts of :func:`_census`, GK DF MF FW): a few hundred at most."""


def _census(club: Club) -> dict[str, tuple[int, int]]:
    """Per position, the healthy players' (unrolled, rolled) counts: all :func:`need` reads of a squad."""
    unrolled = dict.fromkeys(SLOTS, 0)
    rolled = dict.fromkeys(SLOTS, 0)
    for p in club.players:
        if p.injured_weeks == 0 and p.position in rolled:  # Player.healthy, at one of the four positions
            if p.attrs:  # Player.rolled
                rolled[p.position] += 1
            else:
                unrolled[p.position] += 1
    return {s: (unrolled[s], rolled[s]) for s in SLOTS}


def _need(census: dict[str, tuple[int, int]], counts: dict[str, int]) -> Need:
    """:func:`need` from a squad's :func:`_census` and a formation's slot counts."""
    short, spare = {}, {}
    for s in SLOTS:
        unrolled, rolled = census[s]
        short[s] = max(0, counts[s] - unrolled - rolled)
        # the rolled players left once the slots are filled, unrolled ones first in (000 §3.4.2)
        spare[s] = max(0, rolled - max(0, counts[s] - unrolled))
    outfield_free = spare["DF"] + spare["MF"] + spare["FW"]
    keepers_free = spare["GK"]
    gk_slot = min(short["GK"], outfield_free)
    outfield_short = short["DF"] + short["MF"] + short["FW"]
    by_outfield = min(outfield_short, outfield_free - gk_slot)
    by_keeper = min(outfield_short - by_outfield, keepers_free)
    return Need(gk_slot + by_outfield + by_keeper, by_keeper)


def pick_lineup(club: Club, formation: str, rest_below: int = 0) -> dict[str, list[Player]]:
    """The formation's GK/DF/MF/FW numbers from healthy players: the fewest stand-ins, then no keeper at
    an outfield slot while an outfield player is free, then the freshest and best (module docstring)."""
    # each healthy player of a slot's position with his _rank_key (effective() inlined: no boost, no base), in
    # one pass; the keys end in the squad index, so no two are equal and no players are compared
    ranked: dict[str, list[tuple[int, int, int, int, Player]]] = {"GK": [], "DF": [], "MF": [], "FW": []}
    mains = {pos: (attr, pct, ranked[pos]) for pos, (attr, pct) in _MAINS[formation].items()}  # each with its group
    for i, p in enumerate(club.players):
        if p.injured_weeks != 0:  # Player.healthy
            continue
        main = mains.get(p.position)
        if main is None:
            continue
        attr, pct, group = main
        attrs = p.attrs
        if not attrs:  # an AI core player not yet rolled: first (000 §5.8.3)
            group.append((0, 0, 0, i, p))
            continue
        value = attrs[attr] * pct // 100  # PERCENT holds every ability
        stamina = p.stamina
        if stamina < 50:
            value = value * 4 // 5 if stamina >= 30 else value * 3 // 5
        group.append((1, 1 if stamina < rest_below else 0, -value if value > 0 else 0, i, p))
    counts = FORMATIONS[formation].counts()
    lineup: dict[str, list[Player]] = {}
    short = False
    for slot in SLOTS:
        group, count = ranked[slot], counts[slot]
        if len(group) > 1:
            group.sort()
        lineup[slot] = [x[4] for x in group[:count]]
        short = short or len(group) < count
    if short:
        _stand_ins(club, formation, rest_below, lineup, ranked, counts)
    return lineup


_MAINS = {f: {pos: (MAIN[pos], PERCENT[f][MAIN[pos]]) for pos in SLOTS} for f in FORMATIONS}
"""Per formation, each slot position's main ability and its §3.2 formation percent, as
:func:`pick_lineup` ranks a player of that position."""


def _stand_ins(club: Club, formation: str, rest_below: int, lineup: dict[str, list[Player]],
               ranked: dict[str, list[tuple[int, int, int, int, Player]]], counts: dict[str, int]) -> None:
    """Fill the slots :func:`pick_lineup`'s own players left open with the rolled players left (an exact
    assignment by :func:`stand_in_cost`; too few: the goalkeeper's slot first)."""
    chosen = {x[3] for slot in SLOTS for x in ranked[slot][:counts[slot]]}
    open_slots = [s for s in SLOTS for _ in range(counts[s] - len(lineup[s]))]
    free = [(i, p) for i, p in enumerate(club.players)
            if p.injured_weeks == 0 and i not in chosen and p.attrs]  # Player.healthy, Player.rolled
    if free:
        open_slots = open_slots[: len(free)]
        cost = [[stand_in_cost(p, s, formation, i, rest_below) for i, p in free] for s in open_slots]
        for s, j in zip(open_slots, assign(cost), strict=True):
            lineup[s].append(free[j][1])


def best_formation(club: Club, current: str, preferred: str | None = None,
                   found: dict[str, Need] | None = None) -> tuple[str, dict[str, Need]]:
    """The formation (of the four) needing the fewest stand-ins, then the fewest keepers at outfield
    slots; a tie keeps ``current``, then ``preferred`` (the coach's default), then the §7.1 table order
    (``found``: the squad's :func:`needs`, when the caller has them)."""
    if found is None:
        found = needs(club)
    order = list(FORMATIONS)

    def key(f: str) -> tuple[int, int, int, int, int]:
        n = found[f]
        return (n.stand_ins, n.keepers_outfield, f != current, f != preferred, order.index(f))

    return min(FORMATIONS, key=key), found


def ai_formation(club: Club, found: dict[str, Need] | None = None) -> FormationPick | None:
    """An AI club's pre-match formation (000 §7.2.1 赛前, designed): :func:`best_formation`; a change
    starts the §7.4.4 adaptation, fixed at two matches for the AI (this one first)."""
    preferred = club.coach.default_formation if club.coach is not None else None
    best, _ = best_formation(club, club.formation, preferred, found)
    if best == club.formation:
        return None
    rec: FormationPick = {"before": club.formation, "after": best, "adaptation": AI_ADAPT}
    club.formation = best
    club.adapt_left = AI_ADAPT
    return rec


__all__ = ["Need", "ai_formation", "assign", "best_formation", "need", "needs", "pick_lineup", "stand_in_cost"]
