"""000 §4.3 群英杯: the Swiss draw and table, the 8th-place 1D100 roll-off and the knockout bracket.

Pure functions over club names and results; the caller plays the matches. Every record is plain JSON.

>>> quarter_finals(["一", "二", "三", "四", "五", "六", "七", "八"])
[('一', '八'), ('二', '七'), ('三', '六'), ('四', '五')]
>>> semi_finals(["一", "二", "三", "四"])
[('一', '四'), ('二', '三')]
>>> [(s["competition"], s["round"], s["stage"]) for s in STAGES][5:]
[('knockout', 1, 'quarter_final'), ('knockout', 2, 'semi_final'), ('knockout', 3, 'final')]
"""

from __future__ import annotations

from collections.abc import Sequence

from ....dice import Dice, Roll, shuffle
from .records import DrawGroup, Floater, RollOff, RollOffThrow, Stage, SwissDraw, SwissRow
from .standings import Result, table_rows

SWISS_DIE = 30
"""000 §5.1.1 / §4.3.1: Swiss attacks use 1D30, like the league."""
KNOCKOUT_DIE = 50
"""000 §4.3.2: knockout attacks (extra time included) use 1D50."""
SWISS_ROUNDS = 5
"""000 §4.3.1: five Swiss rounds."""
QUALIFIERS = 8
"""000 §4.3.1: the top eight go on to the knockout stage."""
FINAL_IS_NEUTRAL = True
"""000 §4.3.2: "决赛中立场地"; the other ties get a 1D2 home side."""
HOME_DIE = "1D2"
"""000 §4.3.2: home side of a quarter- or semi-final (1 = the first-named club at home)."""
ROLL_OFF_DIE = "1D100"
"""000 §4.3.1: the 8th-place roll-off die (higher advances)."""


def _swiss_stage(r: int) -> Stage:
    """Swiss round ``r``'s match day (a literal: the shapes are never called, see ``models.RecordShape``)."""
    return {"competition": "swiss", "round": r, "stage": "swiss", "matches": 12, "neutral": False}


STAGES: list[Stage] = [
    *(_swiss_stage(r) for r in range(1, SWISS_ROUNDS + 1)),
    {"competition": "knockout", "round": 1, "stage": "quarter_final", "matches": 4, "neutral": False},
    {"competition": "knockout", "round": 2, "stage": "semi_final", "matches": 2, "neutral": False},
    {"competition": "knockout", "round": 3, "stage": "final", "matches": 1, "neutral": FINAL_IS_NEUTRAL},
]
"""The cup month in order (DESIGN §5 ``round``: Swiss 1–5; knockout 1 QF, 2 SF, 3 final)."""


# --------------------------------------------------------------------------- Swiss draw (000 §4.3.1)

def swiss_round_pairs(dice: Dice, key: str, round_no: int, clubs: list[str],
                      results: list[Result]) -> tuple[list[tuple[str, str]], SwissDraw]:
    """One Swiss round's pairs (A, B) and the draw's record (000 §4.3.1).

    Algorithm (round 1 is the same with every club on 0 points, i.e. one random group):

    1. Group the clubs by current points (3 a win, 1 a draw), highest first; inside a group the
       clubs start in the order of ``clubs`` and are put in a random order by visible dice
       (``shuffle``: 1Dn, 1D(n-1) …, stream ``{key}/draw``, top group first).
    2. Concatenating the groups gives the seeding list. Pair the first unpaired club with the next
       club in the list it has not met; the last club of an odd group therefore meets the first of
       the nearest lower group (积分最接近的下一组, the higher-points candidates first).
    3. A pair's float cost is how many groups apart its two clubs are (0 inside a group). Among all
       rematch-free pairings, the one with the least total float cost is taken; among those, the
       first in the order of step 2. This is a depth-first search with backtracking under a cost
       budget raised from the no-rematch-limit minimum, so a rematch-free pairing is always found
       when one exists, floating no more than the rematches force.

    The home side is not part of the draw: the caller rolls 1D2 per pair (as in 000 §4.2.2).
    """
    if len(clubs) % 2:
        raise ValueError("a Swiss round needs an even number of clubs")
    rows = table_rows(list(clubs), results)
    groups = _draw_groups(dice, key, round_no, clubs, {t: rows[t].points for t in clubs})
    seeding = [t for g in groups for t in g["teams"]]
    level = {t: i for i, g in enumerate(groups) for t in g["teams"]}
    met = _met(clubs, results)
    found = _pair(seeding, [level[t] for t in seeding], met)
    if found is None:
        raise ValueError(f"no rematch-free pairing exists for Swiss round {round_no}")
    pairs, steps_free = found
    floaters = [_floater(a, b, rows[a].points, rows[b].points, level) for a, b in pairs
                if level[a] != level[b]]
    record: SwissDraw = {
        "round": round_no, "groups": groups, "seeding": seeding,
        "pairs": [[a, b] for a, b in pairs], "floaters": floaters,
        "float_steps": sum(f["groups_down"] for f in floaters), "float_steps_free": steps_free,
    }
    return pairs, record


def _draw_groups(dice: Dice, key: str, round_no: int, clubs: list[str],
                 points: dict[str, int]) -> list[DrawGroup]:
    """Score groups, highest first, each shuffled by visible dice (000 §4.3.1 组内随机配对)."""
    out: list[DrawGroup] = []
    for pts in sorted(set(points.values()), reverse=True):
        members = [t for t in clubs if points[t] == pts]
        purpose = f"瑞士轮第{round_no}轮抽签" if round_no == 1 else f"瑞士轮第{round_no}轮抽签（{pts}分组）"
        order, rolls = shuffle(dice, f"{key}/draw", members, purpose)
        out.append({"points": pts, "teams": order, "rolls": [r.to_json() for r in rolls]})
    return out


def _met(clubs: Sequence[str], results: list[Result]) -> dict[str, set[str]]:
    """Who has met whom (000 §4.3.1 任何两队之间不重复交手)."""
    met: dict[str, set[str]] = {t: set() for t in clubs}
    for h, a, _, _ in results:
        met[h].add(a)
        met[a].add(h)
    return met


def _floater(a: str, b: str, pa: int, pb: int, level: dict[str, int]) -> Floater:
    """A cross-group pair: ``a`` floats down to meet ``b``."""
    return {"team": a, "points": pa, "opponent": b, "opponent_points": pb,
            "groups_down": level[b] - level[a]}


def _pair(seeding: list[str], lv: list[int],
          met: dict[str, set[str]]) -> tuple[list[tuple[str, str]], int] | None:
    """Least-float rematch-free pairing, first in seeding order; with the cost free of rematch limits."""
    n = len(seeding)
    ok = [[i != j and seeding[j] not in met[seeding[i]] for j in range(n)] for i in range(n)]
    full = (1 << n) - 1
    free = _line_bound(full, lv)
    top = n // 2 * (max(lv, default=0) - min(lv, default=0))
    failed: dict[int, int] = {}
    # 000 §4.3.1: raise the float budget one step at a time; the first budget that works is the least
    for budget in range(free, top + 1):
        found = _search(full, budget, lv, ok, failed)
        if found is not None:
            return [(seeding[i], seeding[j]) for i, j in found], free
    return None


def _search(mask: int, budget: int, lv: list[int], ok: list[list[bool]],
            failed: dict[int, int]) -> list[tuple[int, int]] | None:
    """Pair the clubs in ``mask`` within ``budget`` float steps: first club first, partners in order."""
    if not mask:
        return []
    if failed.get(mask, -1) >= budget or _line_bound(mask, lv) > budget:
        return None
    i = (mask & -mask).bit_length() - 1
    rest = mask & ~(1 << i)
    m = rest
    while m:
        j = (m & -m).bit_length() - 1
        m &= m - 1
        cost = lv[j] - lv[i]
        if cost > budget:
            break  # partners further down only cost more
        if ok[i][j]:
            sub = _search(rest & ~(1 << j), budget - cost, lv, ok, failed)
            if sub is not None:
                return [(i, j), *sub]
    failed[mask] = budget
    return None


def _line_bound(mask: int, lv: list[int]) -> int:
    """Least float cost of ``mask`` if rematches were allowed: neighbours in seeding order pair up."""
    total, odd, prev = 0, False, 0
    for i in range(mask.bit_length()):
        if mask >> i & 1:
            if odd:
                total += lv[i] - prev
            odd, prev = not odd, lv[i]
    return total


# --------------------------------------------------------------------------- Swiss table (000 §4.3.1)

def swiss_table(clubs: list[str], results: list[Result]) -> list[SwissRow]:
    """The Swiss table: 总积分 > 净胜球 > 总进球 > 对手积分总和; still level keeps the order of ``clubs``."""
    rows = table_rows(list(clubs), results)
    opp = {t: 0 for t in clubs}
    for h, a, _, _ in results:
        # 000 §4.3.1 对手积分总和: the final points of every opponent met
        opp[h] += rows[a].points
        opp[a] += rows[h].points
    out: list[SwissRow] = [{**rows[t].to_json(), "opp_points": opp[t]} for t in clubs]
    return sorted(out, key=lambda r: tuple(-v for v in tie_key(r)))


def tie_key(row: SwissRow) -> tuple[int, int, int, int]:
    """The four Swiss criteria of a table row, in order (000 §4.3.1)."""
    return row["points"], row["gd"], row["gf"], row["opp_points"]


def qualify(dice: Dice, key: str, table: list[SwissRow]) -> tuple[list[str], RollOff]:
    """The eight qualifiers in table order; a tie across 8th place goes to 1D100 (000 §4.3.1).

    Every club level with 8th on all four criteria throws 1D100; the highest take the places left
    (re-thrown among those still level at the cut). The dice decide only who goes: the qualifiers keep
    their table order for the knockout seeding.
    """
    teams = [r["team"] for r in table]
    record: RollOff = {"tied": [], "slots": 0, "throws": [], "advanced": [], "eliminated": []}
    if len(table) <= QUALIFIERS or tie_key(table[QUALIFIERS - 1]) != tie_key(table[QUALIFIERS]):
        return teams[:QUALIFIERS], record
    cut = tie_key(table[QUALIFIERS - 1])
    tied = [r["team"] for r in table if tie_key(r) == cut]
    slots = QUALIFIERS - teams.index(tied[0])
    advanced, throws = _roll_off(dice, key, tied, slots)
    record.update({"tied": tied, "slots": slots, "throws": throws, "advanced": [t for t in tied if t in advanced],
                   "eliminated": [t for t in tied if t not in advanced]})
    return teams[:teams.index(tied[0])] + record["advanced"], record


def _roll_off(dice: Dice, key: str, tied: list[str], slots: int) -> tuple[set[str], list[list[RollOffThrow]]]:
    """1D100 each, highest advance; the clubs still level at the cut throw again."""
    advanced: set[str] = set()
    throws: list[list[RollOffThrow]] = []
    pool = list(tied)
    while slots:
        rolls = {t: dice.roll(key, ROLL_OFF_DIE, f"瑞士轮第八名加掷（{t}）") for t in pool}
        throws.append([{"team": t, "roll": r.to_json()} for t, r in rolls.items()])
        edge = sorted((r.total for r in rolls.values()), reverse=True)[slots - 1]
        above = [t for t in pool if rolls[t].total > edge]
        level = [t for t in pool if rolls[t].total == edge]
        advanced.update(above)
        slots -= len(above)
        if len(level) == slots:
            advanced.update(level)
            break
        pool = level  # 000 §4.3.1 点数高者晋级: equal dice settle nothing, throw again
    return advanced, throws


# --------------------------------------------------------------------------- knockout (000 §4.3.2)

def quarter_finals(top8: Sequence[str]) -> list[tuple[str, str]]:
    """1 v 8, 2 v 7, 3 v 6, 4 v 5 by Swiss rank (000 §4.3.2)."""
    if len(top8) != QUALIFIERS:
        raise ValueError("the quarter-finals need the eight qualifiers in Swiss order")
    return [(top8[i], top8[QUALIFIERS - 1 - i]) for i in range(QUALIFIERS // 2)]


def semi_finals(qf_winners: Sequence[str]) -> list[tuple[str, str]]:
    """Winner of 1v8 v winner of 4v5, winner of 2v7 v winner of 3v6 (a fixed bracket: 000 §4.3.2
    says only "四分之一决赛胜者对阵", so the top two seeds are kept apart until the final).
    """
    if len(qf_winners) != 4:
        raise ValueError("the semi-finals need the four quarter-final winners in tie order")
    return [(qf_winners[0], qf_winners[3]), (qf_winners[1], qf_winners[2])]


def final(sf_winners: Sequence[str]) -> tuple[str, str]:
    """The two semi-final winners, at a neutral ground (000 §4.3.2)."""
    if len(sf_winners) != 2:
        raise ValueError("the final needs the two semi-final winners")
    return sf_winners[0], sf_winners[1]


def home_side(dice: Dice, key: str, a: str, b: str) -> tuple[str, str, Roll]:
    """Home side of a single-match tie by 1D2: 1 = ``a`` at home, 2 = ``b`` (000 §4.3.2)."""
    roll = dice.roll(key, HOME_DIE, f"{a}—{b} 主客场")
    return (a, b, roll) if roll.total == 1 else (b, a, roll)


__all__ = [
    "SWISS_DIE", "KNOCKOUT_DIE", "SWISS_ROUNDS", "QUALIFIERS", "FINAL_IS_NEUTRAL", "HOME_DIE",
    "ROLL_OFF_DIE", "STAGES", "swiss_round_pairs", "swiss_table", "tie_key", "qualify",
    "quarter_finals", "semi_finals", "final", "home_side",
]
