"""000 §6.2 business events: the monthly 3D100, Appendix B's dynamic ranges, depth and the staff branches.

Records only: the effect of an event is described (kind, params, final amount, polarity); ``effects.py``
applies it. All prose lives in the rows' ``text`` in ``tables/purasbar/business_*.yaml``.

>>> r_factor(2.0), r_factor(1.0), r_factor(0.99), r_factor(0.49)
(2.0, 1.0, 0.5, 0.0)
>>> [facility_width(6, r) for r in (3.0, 1.5, 0.7, 0.1)], facility_width(5, 0.7)
([12, 6, 3, 0], 2)
>>> split_faces(3), split_faces(-3), split_faces(6)
((2, 1), (-2, -1), (3, 3))
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import cast

from ....dice import Dice
from ....resources import Resources
from ....tables import DiceTable, Row
from ..competition.calendar import MONTHS
from .depth import POLARITIES, Depth, multiplier, scale
from .effects import pick
from .pool import EventTables, RowAt, check_rows, draw, load_event_tables, row_at, table_fail
from .records import BusinessBranch, BusinessEvent, BusinessRecord, EffectSpec, RangesInfo

CHECKS = 3
"""000 §6.2.1 / §4.1: 3D100 trigger checks a month, resolved one by one."""
BASE_THRESHOLD = 20
"""000 §6.2.1: a check triggers an event on D100 ≤ 20 + 商业经理等级."""
INJECTION_KEY = "injection"
"""Appendix B row key of 注资."""
INJECTION_RANGE = (61, 65)
"""000 §6.2.2: 注资's base range is 61–65."""
FANATIC_MIN = 67
"""000 §6.2.2: 狂热 ≥ 67 (事业型) widens 注资 by 1 on each side."""
TYCOON_MIN = 41
"""000 §6.2.2: 财富 ≥ 41 (行业大亨及以上) widens 注资 by 1 more on each side."""
FACILITY_KEY = "facility_upgrade"
"""Appendix B row key of 设施升级机会 (000 §6.2.3)."""
TRAINING_KEY = "staff_training"
"""Appendix B row key of 职员进修 (000 §6.2.4)."""
POACH_KEY = "staff_poached"
"""Appendix B row key of 职员挖角 (000 §6.2.4)."""
R_FACTORS: tuple[tuple[float, float], ...] = ((2.0, 2.0), (1.0, 1.0), (0.5, 0.5))
"""000 §6.2.3: (lowest R, width factor) — ×2 from 2.0, ×1 from 1.0, ½ from 0.5, 0 below."""
STAFF_ROLES = ("assistant", "doctor", "commercial", "fitness", "scout")
"""The five staff roles (design doc, People), in the order a 1D5 picks them."""
STAFF_MAX = 5
"""Staff levels run 1…5 (design doc); 5 is 满级 for §6.2.4."""
COMPENSATION_MONTHS = 6
"""000 §6.2.4: 违约金 = half a year (6 of 12 months) of the staff member's season salary."""
TABLE_FILES = {"base": "business_events.yaml", "golden": "business_golden.yaml", "dark": "business_dark.yaml"}
"""Appendix B and its two exclusive tables (000 §6.2.5)."""
TABLE_NAMES = {"base": "business_events", "golden": "business_golden", "dark": "business_dark"}
"""The ``table`` a record names for each side."""
BASE_EFFECTS = frozenset({"funds", "investment", "morale", "facility", "staff_level", "affinity", "injury",
                          "stamina", "ability", "environment", "nothing"})
"""Effect kinds Appendix B may name (design doc; no match_mod outside a match)."""
EXCLUSIVE_EFFECTS = BASE_EFFECTS | {"depth"}
"""The exclusive tables may also move a depth pool (design doc: ``depth`` is for exclusive rows)."""
MAGNITUDE = {"funds": "amount", "investment": "amount", "morale": "amount", "affinity": "amount",
             "stamina": "amount", "ability": "amount", "depth": "amount", "facility": "levels",
             "staff_level": "levels", "injury": "weeks", "environment": "percent"}
"""The parameter of each effect kind that depth scales (000 §6.1.2)."""
ENV_TARGETS = ("ticket", "broadcast", "sponsor", "youth", "transfer", "injury", "morale")
"""000 §6.4.3 environment modifiers a row may name with ``env``."""
META = frozenset({"key", "name", "polarity", "env", "strings", "per_wealth", "bonus", "stay",
                  "salary_by_level", "cost", "discount_dice", "extra_external"})
"""Row keys that describe the event or its branches rather than the effect's parameters."""

Ranges = list[tuple[int, int, Row]]


def r_factor(R: float) -> float:
    """000 §6.2.3: the facility-upgrade width factor for a funding-pressure ratio R."""
    for low, factor in R_FACTORS:
        if R >= low:
            return factor
    return 0.0


def facility_width(width: int, R: float) -> int:
    """000 §6.2.3: the scaled width, rounded down (halving an odd width drops the half face)."""
    return int(width * r_factor(R))


def split_faces(change: int) -> tuple[int, int]:
    """How a width change is shared by the (left, right) neighbours; the odd face goes to the left."""
    sign = 1 if change >= 0 else -1
    return sign * math.ceil(abs(change) / 2), sign * (abs(change) // 2)


def _index(rows: list[Row], key: str) -> int:
    """Position of the row with ``key``; ValueError if the table lacks it."""
    for i, row in enumerate(rows):
        if row.params.get("key") == key:
            return i
    raise ValueError(f"business table has no {key} row")


def _grow(widths: list[int], rows: list[Row], i: int, left: int, right: int) -> None:
    """Row ``i`` takes ``left`` faces from its left neighbour and ``right`` from its right one (§6.2.3)."""
    if i == 0 or i == len(widths) - 1:
        raise ValueError(f"{rows[i].params.get('key')} 两边都要有相邻的行")
    widths[i - 1] -= left
    widths[i + 1] -= right
    widths[i] += left + right
    for j in (i - 1, i + 1):
        if widths[j] < 1:
            who, to = rows[j].params.get("key"), rows[i].params.get("key")
            raise ValueError(f"{who} 太窄，分不出点数给 {to}")


def dynamic_ranges(table: DiceTable, fanaticism: int, wealth: int, R: float,
                   band: str) -> tuple[Ranges, RangesInfo]:
    """This month's Appendix B ranges (§6.2.2 widening, then §6.2.3 R scaling) and their record; ``band`` is
    R's §6.2.3 band (``money.finance.r_band``), named by the caller so the events wing stays below money."""
    rows = sorted(table.rows, key=lambda r: r.lo)
    widths = [r.hi - r.lo + 1 for r in rows]
    inj = _index(rows, INJECTION_KEY)
    # 000 §6.2.2: each trait widens 注资 by one face on each side, taken from the adjacent rows
    widen = int(fanaticism >= FANATIC_MIN) + int(wealth >= TYCOON_MIN)
    _grow(widths, rows, inj, widen, widen)
    fac = _index(rows, FACILITY_KEY)
    base_width = widths[fac]
    # 000 §6.2.3: scale the width by R; the two neighbours absorb the change, odd face on the left
    left, right = split_faces(facility_width(base_width, R) - base_width)
    _grow(widths, rows, fac, left, right)
    ranges: Ranges = []
    lo = rows[0].lo
    for row, w in zip(rows, widths, strict=False):
        if w:  # zero width: the row cannot fire this month
            ranges.append((lo, lo + w - 1, row))
        lo += w
    spans = {r.params["key"]: [a, b] for a, b, r in ranges}
    record: RangesInfo = {
        "R": R if math.isfinite(R) else None, "band": band, "facility_factor": r_factor(R),
        "widen": widen, "injection": spans[INJECTION_KEY], "facility": spans.get(FACILITY_KEY),
        "facility_width": widths[fac], "ranges": [[a, b, r.params["key"]] for a, b, r in ranges],
    }
    return ranges, record


def lookup(ranges: Ranges, face: int) -> Row:
    """The row whose dynamic range holds ``face``."""
    for lo, hi, row in ranges:
        if lo <= face <= hi:
            return row
    raise ValueError(f"no business event covers {face}")


def _effect(row: Row, depth: int, scaled: bool, wealth: int) -> EffectSpec:
    """The row's effect at ``depth`` in ``effects.apply`` form: ``{effect, polarity, amount, base, **params}``."""
    params = {k: v for k, v in row.params.items() if k not in META}
    polarity = row.params["polarity"]
    kind = row.effect
    mag = MAGNITUDE.get(kind)
    base = None if mag is None else int(params[mag]) + wealth * int(row.params.get("per_wealth", 0))
    # 000 §6.2.2: 注资 is never depth-scaled; exclusive rows are already final (no multiplier at ±3)
    if not scaled or kind == "investment":
        amount, final = base, polarity
    else:
        amount, final = scale(1 if base is None else base, polarity, depth)
        amount = None if base is None else amount
    if mag:
        params[mag] = amount
    if final == "neutral" and kind != "nothing":  # 000 §6.1.2: a neutral event only acts once ±2 turns it
        params["dormant"], kind = kind, "nothing"
    return {"effect": kind, **params, "polarity": final, "amount": amount, "base": base}


def _funds(amount: int) -> EffectSpec:
    """A rule-fixed payment to the club (§6.2.4 bonus or 违约金): never depth-scaled."""
    return {"effect": "funds", "polarity": "positive", "amount": amount, "base": amount}


def _training(dice: Dice, key: str, row: Row, effect: EffectSpec,
              staff: Mapping[str, int]) -> tuple[EffectSpec, BusinessBranch]:
    """000 §6.2.4 职员进修: a random staff member below max goes up, else a 50,000 P$ bonus."""
    candidates = [r for r in STAFF_ROLES if 1 <= staff.get(r, 0) < STAFF_MAX]
    if not candidates:  # every staff member is at max: the equivalent bonus
        return _funds(int(row.params["bonus"])), {"branch": "bonus", "candidates": []}
    role, roll = pick(dice, key, candidates, "职员进修人选")
    effect["role"] = role
    level = staff[role]
    return effect, {"branch": "level_up", "candidates": candidates, "pick_roll": roll, "role": role,
                    "from": level, "to": min(STAFF_MAX, level + effect["amount"])}


def _poaching(dice: Dice, key: str, row: Row, effect: EffectSpec, staff: Mapping[str, int],
              salaries: Mapping[str, int] | None) -> tuple[EffectSpec, BusinessBranch]:
    """000 §6.2.4 职员挖角: the member leaves (level down), or 违约金 when absent or unwilling to go."""
    role, roll = (row.params["role"], None) if row.params["role"] != "random" else \
        pick(dice, key, STAFF_ROLES, "挖角对象")
    effect["role"] = role
    level = staff.get(role, 0)
    branch: BusinessBranch = {"role": role, "pick_roll": roll, "level": level}
    if level:
        stay = dice.roll(key, "1D100", "职员去留")
        branch.update({"stay_roll": stay.to_json(), "stay_at_most": int(row.params["stay"])})
        if stay.total > int(row.params["stay"]):  # designed: above the row's ``stay`` the member accepts
            branch.update({"branch": "leaves", "to": max(1, level - effect["amount"])})
            return effect, branch
    # 000 §6.2.4: no such staff, or unwilling to leave → the other club pays half a year's salary
    table = row.params["salary_by_level"]
    salary = salaries[role] if salaries and role in salaries else int(table[max(1, level) - 1])
    pay = salary * COMPENSATION_MONTHS // MONTHS
    branch.update({"branch": "compensation" if level else "absent", "salary": salary, "compensation": pay})
    return _funds(pay), branch


def _facility(dice: Dice, key: str, row: Row) -> BusinessBranch:
    """附录 B 设施升级折扣骰 (designed): the club pays ``cost`` less a 1D50 percent discount."""
    r = dice.roll(key, str(row.params["discount_dice"]), "设施升级折扣骰")
    cost = int(row.params["cost"])
    return {"branch": "discount", "discount_roll": r.to_json(), "discount": r.total, "list_cost": cost,
            "cost": cost * (100 - r.total) // 100}


def _strings(depth: int) -> str:
    """000 §6.2.2: 注资's conditions lean with depth (designed: lenient above 0, harsh below)."""
    return "lenient" if depth > 0 else "harsh" if depth < 0 else "usual"


def _event(dice: Dice, key: str, depth: Depth, ranges: Ranges, tables: EventTables, wealth: int,
           staff: Mapping[str, int] | None, salaries: Mapping[str, int] | None) -> BusinessEvent:
    """One triggered event: the D100, the row, its described effect and the depth it leaves."""
    before = depth.value
    # 000 §6.2.5: at ±3 the event comes from the exclusive table, then depth resets
    drawn = draw(dice, key, tables, depth, lookup=lambda face: lookup(ranges, face))
    side, row = drawn.exclusive, drawn.row
    rec: BusinessEvent = {"table": TABLE_NAMES[drawn.side], "event_roll": drawn.roll.to_json(),
                           "key": row.params["key"], "name": row.params["name"], "base_polarity": row.params["polarity"],
                           "env": row.params.get("env"), "text": row.text, "depth_before": before}
    effect = _effect(row, before, not side, wealth)
    rec["branch"] = None
    if row.params["key"] == INJECTION_KEY and not side:
        rec["strings"] = _strings(before)
        rec["strings_text"] = row.params.get("strings", {}).get(rec["strings"])
    elif row.params["key"] == FACILITY_KEY and not side:
        rec["branch"] = _facility(dice, key, row)
    elif row.params["key"] == TRAINING_KEY and not side and staff is not None:
        effect, rec["branch"] = _training(dice, key, row, effect, staff)
    elif row.params["key"] == POACH_KEY and not side and staff is not None:
        effect, rec["branch"] = _poaching(dice, key, row, effect, staff, salaries)
    rec["effect"] = effect
    rec["polarity"] = effect["polarity"]
    rec["multiplier"] = None if side else multiplier(effect["polarity"], before)  # §6.1.2; exclusive rows: none
    rec["extra_external"] = bool(row.params.get("extra_external", False))  # 000 §6.4.1 追加外部判定
    # 000 §6.1.3 / §4.1: the ladder moves on this roll and applies to later events at once
    rec["depth_step"], rec["depth_reset"] = drawn.settle(depth)
    rec["depth_after"] = depth.value
    return rec


def month_start(dice: Dice, key: str, depth: Depth, commercial_level: int, fanaticism: int, wealth: int,
                R: float, band: str, tables: EventTables, *, staff: Mapping[str, int] | None = None,
                salaries: Mapping[str, int] | None = None) -> list[BusinessRecord]:
    """000 §4.1 phase 1 step 1: a ``ranges`` record, then the three ``check`` records in throwing order."""
    ranges, info = dynamic_ranges(tables.base, fanaticism, wealth, R, band)
    threshold = BASE_THRESHOLD + commercial_level  # 000 §6.2.1
    # cast: every ** item is a record built above whose keys are known; mypy's extra checks cannot see that it carries no others
    out: list[BusinessRecord] = [cast(BusinessRecord, {"kind": "ranges", **info})]
    for n in range(1, CHECKS + 1):
        t = dice.roll(key, "1D100", "经营事件判定")
        rec: BusinessRecord = {"kind": "check", "n": n, "threshold": threshold, "trigger": t.to_json(),
                               "triggered": t.total <= threshold}
        if rec["triggered"]:  # 000 §6.2.1: resolve this event before the next check
            # cast: BusinessRecord extends BusinessEvent and every key is optional, so the event is one
            rec.update(cast(BusinessRecord, _event(dice, key, depth, ranges, tables, wealth, staff, salaries)))
        out.append(rec)
    return out


def _check_row(at: RowAt) -> None:
    """A name, a polarity, a positive size and a known env target (a unique key: :func:`check_rows`)."""
    params, effect = at.row.params, at.row.effect
    for field in ("key", "name", "polarity"):
        if field not in params:
            at.fail(field, f"缺少 {field}")
    if params["polarity"] not in POLARITIES:
        at.fail("polarity", f"polarity 应为以下之一：{'、'.join(POLARITIES)}")
    mag = MAGNITUDE.get(effect)
    if mag and not (isinstance(params.get(mag), int) and params[mag] > 0):
        at.fail(mag, f"{effect} 需要正整数 {mag}")
    if "env" in params and params["env"] not in ENV_TARGETS:
        at.fail("env", f"env 应为以下之一：{'、'.join(ENV_TARGETS)}")


def _check_appendix_b(table: DiceTable) -> None:
    """The rule rows exist, 注资 sits at 61–65, and the extreme months still leave every row a face."""
    keys = {r.params["key"]: r for r in table.rows}
    for k in (INJECTION_KEY, FACILITY_KEY, TRAINING_KEY, POACH_KEY):
        if k not in keys:
            table_fail(table, f"附录 B 需要 {k} 这一行")
    inj = keys[INJECTION_KEY]
    if (inj.lo, inj.hi) != INJECTION_RANGE:
        row_at(table, inj).fail("range", "注资应为 61-65（000 §6.2.2）")
    for need in ("stay", "salary_by_level"):
        if need not in keys[POACH_KEY].params:
            row_at(table, keys[POACH_KEY]).fail(need, f"staff_poached 需要 {need}")
    if "bonus" not in keys[TRAINING_KEY].params:
        row_at(table, keys[TRAINING_KEY]).fail("bonus", "staff_training 需要 bonus")
    for need in ("cost", "discount_dice"):
        if need not in keys[FACILITY_KEY].params:
            row_at(table, keys[FACILITY_KEY]).fail(need, f"facility_upgrade 需要 {need}")
    for R in (2.0, 0.0):
        try:
            dynamic_ranges(table, 100, 100, R, "")  # only the widths are checked: the record is dropped
        except ValueError as err:
            table_fail(table, str(err))


def _validate(side: str, table: DiceTable) -> None:
    """The row contract of every business table (D100 rows); Appendix B's rule rows on the base table."""
    if str(table.dice) != "1D100":
        table_fail(table, f"经营事件表应掷 D100，实际是 {table.dice}")
    check_rows(table, _check_row)
    if side == "base":
        _check_appendix_b(table)


def load_business_tables(resources: Resources) -> EventTables:
    """Appendix B and the 黄金时代 / 至暗时刻 tables, validated (campaign folder first)."""
    return load_event_tables(resources, TABLE_FILES, _validate, BASE_EFFECTS, EXCLUSIVE_EFFECTS)


__all__ = ["month_start", "dynamic_ranges", "load_business_tables", "lookup", "r_factor", "facility_width",
           "split_faces"]
