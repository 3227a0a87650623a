"""000 §4.1 phase 2 and §15.2 (designed): the owner's monthly action, weighted by personality."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ....dice import Dice
from ....errors import Location, TableError
from ....tables import DiceTable, Row, load_table
from .records import ActionPick, ActionRange, Effect, FallbackStep

BASE_EFFECTS = frozenset({
    "funds", "investment", "morale", "facility", "staff_level", "affinity", "injury", "stamina",
    "ability", "match_mod", "depth", "environment", "nothing",
})
"""The effect kinds of docs/design-club-life.md."""
OWNER_EFFECTS = BASE_EFFECTS | {"intervene"}
"""Kinds the owner table may name: the shared ones and 干预主教练 (000 §4.5)."""
INTERVENE = "intervene"
"""Key of 干预主教练."""
OWNER_FIXED = {INTERVENE: (51, 60)}
"""000 §4.5.1: 干预主教练 is 51–60 of the §15.2 table."""
OWNER_TRAITS = frozenset({"wealth", "fanaticism", "control"})
"""Owner personality a weighting rule may read (1–100 each)."""
OWNER_STATE = frozenset({"losing_streak", "owner_to_coach"})
"""Club state a weighting rule may read."""
META = frozenset({"key", "name", "polarity", "fallback", "requires", "widen"})
"""Row keys that are not effect parameters."""
POLARITIES = frozenset({"positive", "negative", "neutral"})
"""000 §6.1.2 columns."""
FACILITIES = ("training", "youth", "medical")
"""000 §2.3 facilities."""
STAFF = ("assistant", "doctor", "commercial", "fitness", "scout")
"""Five staff roles (design doc, People)."""
LEVEL_MAX = 5
"""Design doc: facility and staff levels are kept in 1…5."""
MORALE_MIN, MORALE_MAX = -100, 100
"""000 §5.1.3: team morale is kept in −100…100."""
OPS = frozenset({"at_least", "at_most", "equals"})
"""Comparisons a weighting rule may use."""


@dataclass(frozen=True)
class Widen:
    """One weighting rule: when the condition holds, the row's edges move out by ``left``/``right`` faces."""

    row: str
    source: str
    """``trait`` (personality) or ``state`` (club state)."""
    name: str
    op: str
    value: int | str
    left: int
    right: int

    def holds(self, traits: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """True when the condition is met; a missing value is a KeyError."""
        src = traits if self.source == "trait" else state
        if self.name not in src:
            raise KeyError(f"weighting of {self.row} needs {self.source} {self.name!r}")
        v = src[self.name]
        if self.op == "equals":
            equal: bool = v == self.value
            return equal
        holds: bool = v >= self.value if self.op == "at_least" else v <= self.value
        return holds

    def to_json(self) -> dict[str, Any]:  # keys name the rule's source and operator: no fixed shape
        """The rule as recorded in the month."""
        return {"row": self.row, self.source: self.name, self.op: self.value, "left": self.left,
                "right": self.right}


@dataclass(frozen=True)
class Checked:
    """A validated action table: rows by face order, their keys, and the weighting rules."""

    table: DiceTable
    rows: tuple[Row, ...]
    index: dict[str, int]
    rules: tuple[Widen, ...]


def _fail(table: DiceTable, row: Row | None, msg: str) -> TableError:
    """A TableError at the row's line (or the file when no row is to blame)."""
    where = Location(table.path, row.line if row is not None else None)
    return TableError(where, f"rows[{row.params.get('key', '?')}]" if row is not None else "", msg)


def _rule(table: DiceTable, row: Row, raw: Any, traits: frozenset[str], state: frozenset[str]) -> Widen:
    """Parse one ``widen`` entry: ``{trait|state: name, at_least|at_most|equals: v, left, right}``."""
    if not isinstance(raw, dict):
        raise _fail(table, row, f"widen 的每一项应为映射，实际是 {raw!r}")
    src = [s for s in ("trait", "state") if s in raw]
    ops = [o for o in OPS if o in raw]
    extra = set(raw) - {"trait", "state", "left", "right"} - OPS
    if len(src) != 1 or len(ops) != 1 or extra:
        raise _fail(table, row, f"widen 的一项要有 trait/state 之一，以及 {'、'.join(sorted(OPS))} 之一：{raw!r}")
    source, op = src[0], ops[0]
    name = raw[source]
    if name not in (traits if source == "trait" else state):
        raise _fail(table, row, f"widen 里有未知的 {source} {name!r}")
    left, right = raw.get("left", 0), raw.get("right", 0)
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (left, right)):
        raise _fail(table, row, "widen 的 left/right 应为整数")
    value = raw[op]
    if op != "equals" and not (isinstance(value, int) and not isinstance(value, bool)):
        raise _fail(table, row, f"{op} 应为整数，实际是 {value!r}")
    return Widen(row.params["key"], source, name, op, value, left, right)


def can_fail(row_or_effect: Row | Mapping[str, Any]) -> bool:
    """True when the club's state may stop the effect (a level or morale at its cap, a missing requirement)."""
    params: Mapping[str, Any]
    if isinstance(row_or_effect, Row):
        kind, params = row_or_effect.effect, row_or_effect.params
    else:
        kind, params = row_or_effect["effect"], row_or_effect
    return bool(params.get("requires")) or kind in ("facility", "staff_level", "morale")


def _shifts(index: dict[str, int], n: int, active: list[Widen]) -> list[int]:
    """Boundary moves: entry i is how far the top of row i moves (000 §6.2.3 neighbour reallocation)."""
    shift = [0] * n
    for w in active:
        i = index[w.row]
        if w.left:
            shift[i - 1] -= w.left
        if w.right:
            shift[i] += w.right
    return shift


def check(table: DiceTable, fixed: Mapping[str, tuple[int, int]], traits: frozenset[str],
          state: frozenset[str], allowed: frozenset[str]) -> Checked:
    """Validate an action table: keys, fixed ranges, fallbacks ending in a sure effect, widths ≥ 1 under any weighting."""
    rows = tuple(sorted(table.rows, key=lambda r: r.lo))
    index: dict[str, int] = {}
    for i, row in enumerate(rows):
        for need in ("key", "name", "polarity"):
            if need not in row.params:
                raise _fail(table, row, f"这一行缺少 {need!r}")
        if row.params["key"] in index:
            raise _fail(table, row, f"键 {row.params['key']!r} 重复")
        if row.params["polarity"] not in POLARITIES:
            raise _fail(table, row, f"polarity 应为以下之一：{'、'.join(sorted(POLARITIES))}")
        index[row.params["key"]] = i
    for k, span in fixed.items():
        if k not in index or (rows[index[k]].lo, rows[index[k]].hi) != span:
            raise _fail(table, None, f"{k} 应占 {span[0]}-{span[1]}（000 §4.5.1）")
    for row in rows:
        _check_own_fallback(table, index, row, allowed)
    rules: list[Widen] = []
    for i, row in enumerate(rows):
        for raw in row.params.get("widen", []) or []:
            w = _rule(table, row, raw, traits, state)
            if (w.left and i == 0) or (w.right and i == len(rows) - 1):
                raise _fail(table, row, "最边上的行不能扩到 1 以下或 100 以上")
            rules.append(w)
        _check_fallback(table, rows, index, row)
    _check_widths(table, rows, index, tuple(rules))
    return Checked(table, rows, index, tuple(rules))


def _check_own_fallback(table: DiceTable, index: dict[str, int], row: Row, allowed: frozenset[str]) -> None:
    """The row's ``fallback``, if any, is a row key or an inline effect of an allowed kind."""
    own = row.params.get("fallback")
    if isinstance(own, dict) and own.get("effect") not in allowed:
        raise _fail(table, row, f"fallback 的效果 {own.get('effect')!r} 不是允许的类型")
    if own is not None and not isinstance(own, (dict, str)):
        raise _fail(table, row, f"fallback 应为一行的键或一个内联效果，实际是 {own!r}")
    if isinstance(own, str) and own not in index:
        raise _fail(table, row, f"fallback {own!r} 不是任何一行的键")


def _check_fallback(table: DiceTable, rows: tuple[Row, ...], index: dict[str, int], row: Row) -> None:
    """A row that can fail names a fallback; the chain has no loop and ends in an effect that cannot fail."""
    seen = {row.params["key"]}
    cur: Row | Mapping[str, Any] = row
    while can_fail(cur):
        fb = cur.params.get("fallback") if isinstance(cur, Row) else None
        if fb is None:
            raise _fail(table, row, f"{row.params['key']!r} 的 fallback 链以一个可能失败的行动结尾")
        if isinstance(fb, dict):
            cur = fb
            continue
        if fb in seen:
            raise _fail(table, row, f"fallback 经过 {fb!r} 绕成了圈")
        seen.add(fb)
        cur = rows[index[fb]]


def _check_widths(table: DiceTable, rows: tuple[Row, ...], index: dict[str, int], rules: tuple[Widen, ...]) -> None:
    """Every row keeps at least one face even if every rule that narrows it applies at once."""
    n = len(rows)
    worst = [r.hi - r.lo + 1 for r in rows]
    for w in rules:
        shift = _shifts(index, n, [w])
        for i in range(n):
            change = shift[i] - (shift[i - 1] if i else 0)
            worst[i] += min(0, change)
    for row, width in zip(rows, worst, strict=True):
        if width < 1:
            raise _fail(table, row, f"加权可能把 {row.params['key']!r} 缩到 {width} 个点数")


@lru_cache(maxsize=32)
def owner_checked(table: DiceTable) -> Checked:
    """The owner table validated once per loaded table."""
    return check(table, OWNER_FIXED, OWNER_TRAITS, OWNER_STATE, OWNER_EFFECTS)


def load_owner_actions(path: Path) -> DiceTable:
    """Load ``owner_actions.yaml`` and run the action-table checks (a TableError on the first problem)."""
    table = load_table(path, OWNER_EFFECTS)
    owner_checked(table)
    return table


def layout(checked: Checked, traits: Mapping[str, Any], state: Mapping[str, Any]) -> tuple[list[ActionRange], list[Widen]]:
    """This month's ranges after weighting (every face 1–100 once) and the rules that applied."""
    active = [w for w in checked.rules if w.holds(traits, state)]
    n = len(checked.rows)
    shift = _shifts(checked.index, n, active)
    ranges: list[ActionRange] = []
    lo = checked.rows[0].lo
    for row, s in zip(checked.rows, shift, strict=False):
        hi = row.hi + s
        ranges.append({"key": row.params["key"], "name": row.params["name"], "lo": lo, "hi": hi})
        lo = hi + 1
    return ranges, active


def effect_of(row: Row) -> Effect:
    """The structured effect of a row: its kind, polarity and parameters."""
    params = {k: v for k, v in row.params.items() if k not in META}
    return {"kind": row.effect, "polarity": row.params["polarity"], **params}


def _inline(fb: Mapping[str, Any]) -> Effect:
    """An inline fallback as a structured effect (positive unless it says otherwise)."""
    params = {k: v for k, v in fb.items() if k not in ("effect", "polarity", "text")}  # text goes to the record
    return {"kind": fb["effect"], "polarity": fb.get("polarity", "positive"), **params}


def _level_blocked(levels: Mapping[str, int], target: str, names: tuple[str, ...]) -> bool:
    """True when the target (or, for ``random``, every one of ``names``) is at level 5."""
    pool = names if target == "random" else (target,)
    return all(levels[t] >= LEVEL_MAX for t in pool)


def blocked(row: Row, state: Mapping[str, Any]) -> str | None:
    """Why the row cannot be carried out this month (000 §4.1 phase 2), or None."""
    for flag in row.params.get("requires", []) or []:
        if not state[flag]:
            return f"requires_{flag}"
    p = row.params
    if row.effect == "facility" and p["levels"] > 0 and _level_blocked(state["facilities"], p["facility"], FACILITIES):
        return "facility_max"
    if row.effect == "staff_level" and p["levels"] > 0 and _level_blocked(state["staff"], p["role"], STAFF):
        return "staff_max"
    if row.effect == "morale":
        if p["polarity"] == "positive" and state["morale"] >= MORALE_MAX:
            return "morale_max"
        if p["polarity"] == "negative" and state["morale"] <= MORALE_MIN:
            return "morale_min"
    return None


def resolve(checked: Checked, key: str, state: Mapping[str, Any] | None) -> tuple[Row, Effect, list[FallbackStep]]:
    """Follow fallbacks from row ``key`` until one can be carried out: (last row, effect, chain)."""
    row = checked.rows[checked.index[key]]
    chain: list[FallbackStep] = []
    while state is not None:
        why = blocked(row, state)
        if why is None:
            break
        fb = row.params["fallback"]
        if isinstance(fb, dict):
            chain.append({"from": row.params["key"], "reason": why, "to": None})
            return row, _inline(fb), chain
        chain.append({"from": row.params["key"], "reason": why, "to": fb})
        row = checked.rows[checked.index[fb]]
    return row, effect_of(row), chain


def pick(dice: Dice, key: str, checked: Checked, traits: Mapping[str, Any], state: Mapping[str, Any] | None,
         purpose: str, vote: str | None) -> ActionPick:
    """Weighted D100 (or the readers' vote), then fallbacks: the month's action record."""
    ranges, active = layout(checked, traits, state or {})
    roll = None
    if vote is not None:
        if vote not in checked.index:
            raise ValueError(f"no action {vote!r} in {checked.table.name}")
        chosen = next(r for r in ranges if r["key"] == vote)
    else:
        r = dice.roll(key, checked.table.dice, purpose)
        roll = r.to_json()
        chosen = next(x for x in ranges if x["lo"] <= r.total <= x["hi"])
    row, effect, chain = resolve(checked, chosen["key"], state)
    inline = bool(chain) and chain[-1]["to"] is None
    text = row.params["fallback"].get("text") if inline else row.text
    return {"ranges": ranges, "weights": [w.to_json() for w in active], "vote": vote, "roll": roll,
            "row": chosen, "fallback": chain, "action": None if inline else row.params["key"],
            "effect": effect, "text": text}


def monthly_action(dice: Dice, key: str, owner_traits: Mapping[str, Any], club_state: Mapping[str, Any],
                   tables: Mapping[str, Any], vote: str | None = None) -> ActionPick:
    """000 §4.1 phase 2: the owner's D100 on the weighted §15.2 table (or the readers' vote), with fallbacks."""
    checked = owner_checked(tables["owner_actions"])
    return pick(dice, key, checked, owner_traits, club_state, "老板月度行动", vote)


__all__ = [
    "BASE_EFFECTS", "OWNER_EFFECTS", "INTERVENE", "OWNER_FIXED", "Widen", "Checked", "check", "can_fail",
    "layout", "blocked", "resolve", "pick", "load_owner_actions", "owner_checked", "monthly_action",
]
