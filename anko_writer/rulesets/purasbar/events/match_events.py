"""000 §6.3 比赛事件池: check points, Appendix A and the ±3 tables, match depth, the coach's response.

Records are plain JSON; templates narrate them and the match engine applies their ``apply`` list.

>>> sorted(POINTS.items())
[(0, 40), (1, 20), (2, 25), (4, 20), (5, 25), (7, 30), (8, 30)]
>>> halve(5), halve(1), worsen(4), worsen(1)
(3, 1, 6, 2)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, cast

from ....dice import Dice
from ....resources import Resources
from ....tables import DiceTable
from . import pool
from .depth import MATCH_LADDER, POLARITIES, Depth, multiplier, scale
from .pool import EventTables, RowAt, draw, load_event_tables
from .records import EffectEntry, EffectSpec, MatchEventRecord, ResponseOutcome, ResponseRecord, ResponseRoll

PRE = 0
"""The pre-match point; in-play points are the slice numbers of :mod:`.match` (1–8)."""
POINTS: dict[int, int] = {PRE: 40, 1: 20, 2: 25, 4: 20, 5: 25, 7: 30, 8: 30}
"""000 §6.3.1 odds (D100 ≤): 赛前 40; each half's 切片 1 / 2 are its 开局 / 中段 slices (1, 2 and 4, 5),
the 补时 slices 3 and 6 get no check (§5.2 has six slices, §6.3.1 odds for four); extra time 7, 8: 30."""
CRITICAL_LOW, CRITICAL_HIGH = MATCH_LADDER[1], MATCH_LADDER[0]
"""000 §6.3.2 / §5.8.4: an event roll of 1–2 or 99–100 is a 大失败 / 大成功 (it moves match depth)."""
RESPONSE_DIE = "1D100"
"""000 §6.3.3: 应对骰 1D100 + résumé modifier."""
RESPONSE_THRESHOLD = 50
"""000 §6.3.3: a total ≥ 50 halves the harm."""
RESPONSE_FUMBLE = 5
"""000 §6.3.3: a natural 1–5 fails and worsens the harm, whatever the modifier."""
EFFECTS = frozenset({"match_mod", "injury", "stamina", "morale", "nothing"})
"""Effect kinds a match event row may name (docs/design-club-life.md)."""
SIDES = ("us", "them", "both")
"""Whom a row touches: the checking club, its opponent, or both alike (neutral rows only)."""
TARGETS = {"injury": ("random", "random_core", "star"), "stamina": ("team", "random")}
"""Players an injury or stamina row picks from (docs/design-club-life.md)."""
WHEN = ("pre", "play")
"""A row limited to the pre-match point or to play; elsewhere its ``fallback`` applies."""
TABLE_FILES = {"base": "match_events.yaml", "golden": "match_golden.yaml", "dark": "match_dark.yaml"}
"""Appendix A and the +3 / −3 exclusive tables (000 §6.1.2, §6.3.1)."""
_KEY = re.compile(r"[a-z][a-z0-9_]*")


@dataclass
class MatchDepth(Depth):
    """A match's depth (000 §6.3.2): reset at kick-off, exclusive table used once at ±3."""

    pool: str = "match"
    spent: bool = False
    """The ±3 exclusive event has happened: depth stays at ±3 and no longer affects this match."""


def halve(amount: int) -> int:
    """000 §6.3.3 减半, rounded up like §6.1.2's ×0.5 on a negative effect (at least 1)."""
    return max(1, -(-amount // 2))


def worsen(amount: int) -> int:
    """000 §6.3.3 恶化: ×1.5 rounded down like §6.1.2's ×1.5, and at least one more."""
    return max(amount + 1, amount * 3 // 2)


def _harms(entry: EffectEntry) -> bool:
    """An applied effect is harm to us: our injury, a loss for us, a gain for them."""
    if entry["effect"] == "injury":
        return entry["side"] == "us"
    return (entry["delta"] < 0) == (entry["side"] == "us")


def _entry(effect: str, params: EffectSpec, side: str, signed: int) -> EffectEntry:
    """One effect on one side, as the engine applies it."""
    if effect == "injury":
        return {"effect": effect, "side": side, "target": params["target"], "weeks": abs(signed)}
    out: EffectEntry = {"effect": effect, "side": side, "delta": signed}
    if effect == "match_mod":
        out["slices"] = params["slices"]
    if effect == "stamina":
        out["target"] = params["target"]
    return out


def _apply(effect: str, params: EffectSpec, amount: int, polarity: str) -> list[EffectEntry]:
    """The effects of a row at its resolved size and polarity (000 §6.1.2)."""
    if effect == "nothing":
        return []
    side = params["side"]
    if side == "both":  # a neutral row hits (down) or helps (up) both alike until depth ±2 turns it
        up = params.get("dir", "down") == "up"
        sides = {"neutral": ("us", "them"), "positive": ("us",) if up else ("them",),
                 "negative": ("them",) if up else ("us",)}[polarity]
        return [_entry(effect, params, s, amount if up else -amount) for s in sides]
    good = (polarity == "positive") == (side == "us")
    return [_entry(effect, params, side, amount if good else -amount)]


def _resize(entry: EffectEntry, size: Any) -> EffectEntry:
    """The entry with its harm resized by ``size`` (halve or worsen)."""
    out = entry.copy()
    if out["effect"] == "injury":
        out["weeks"] = size(out["weeks"])
    else:
        out["delta"] = size(abs(out["delta"])) * (1 if out["delta"] > 0 else -1)
    return out


def _response(dice: Dice, key: str, modifier: int, sealed: bool) -> ResponseRecord:
    """000 §6.3.3: 1D100 + modifier; natural 1–5 worse, ≥ 50 halved, else failed (depth never moves).

    A sealed response keeps what its face decides under ``sealed_by`` (masked in public records)."""
    r = dice.roll(key, RESPONSE_DIE, "主教练应对", hidden=sealed)
    total = r.total + modifier
    if r.total <= RESPONSE_FUMBLE:
        outcome = "worse"
    elif total >= RESPONSE_THRESHOLD:
        outcome = "halved"
    else:
        outcome = "failed"
    decided: ResponseOutcome = {"face": r.total, "total": total, "outcome": outcome}
    rec: ResponseRoll = {"roll": r.ref(), "modifier": modifier, "threshold": RESPONSE_THRESHOLD}
    if sealed:
        # cast: every ** item is a record built above whose keys are known; mypy's extra checks cannot see that it carries no others
        return cast(ResponseRecord, {**rec, "sealed": True, "result": {"sealed_by": r.id, **decided}})
    return cast(ResponseRecord, {**rec, "sealed": False, **decided})


def _pending(entry: EffectEntry, roll_id: str) -> EffectEntry:
    """An injury whose length waits for the sealed response's reveal: out now, for how long is sealed."""
    weeks = cast(int, entry["weeks"])  # an injury entry has its weeks until this makes it pending
    return {**entry, "weeks": None, "pending": {"sealed_by": roll_id, "weeks": weeks}}


def _plain(params: dict[str, Any]) -> dict[str, Any]:
    """A row's parameters without the nested fallback / worse rows (they are reported apart)."""
    return {k: v for k, v in params.items() if k not in ("fallback", "worse", "key", "name", "polarity", "effect", "text")}


def check(dice: Dice, key: str, point: int, depth: MatchDepth, resume_modifier: int, hidden_rules: bool,
          tables: EventTables, odds_modifier: int = 0) -> MatchEventRecord | None:
    """One §6.3 check point: trigger, event, depth, scaling, response; ``None`` where no check is made."""
    if point not in POINTS:
        return None  # §5.2 补时 slices: no §6.3.1 odds (designed mapping, see POINTS)
    odds = POINTS[point] + odds_modifier  # §6.3.1 "可被某些成就或特殊状态修正"
    trigger = dice.roll(key, "1D100", "比赛事件触发")
    rec: MatchEventRecord = {"point": point, "odds": odds, "trigger_roll": trigger.ref(),
                           "triggered": trigger.total <= odds}
    if not rec["triggered"]:
        return rec
    drawn = draw(dice, key, tables, depth, exclusive=not depth.spent)  # §6.3.2: the ±3 table once per match
    side, roll, row = drawn.exclusive, drawn.roll, drawn.row
    when = "pre" if point == PRE else "play"
    fits = row.params.get("when", when) == when
    critical = roll.total <= CRITICAL_LOW or roll.total >= CRITICAL_HIGH
    use = {"effect": row.effect, **row.params, "text": row.text} if fits else dict(row.params["fallback"])
    polarity = use.get("polarity", row.params["polarity"])
    # §6.1.2 multipliers at the depth before this roll moves it; exclusive rows and every event after
    # the exclusive one are taken as written (§6.3.2 "后续事件不再受深度影响").
    at = 0 if side or depth.spent else depth.value
    before = depth.value
    move, _ = drawn.settle(depth, reset=False)  # §6.3.2: 1–2 −1, 99–100 +1; stays put at ±3
    if side:
        depth.spent = True
    base = int(use.get("amount", 0))
    amount, resolved = scale(base, polarity, at) if use["effect"] != "nothing" else (0, polarity)
    lean = {1: "positive", -1: "negative"}.get(at) if resolved == "neutral" else None
    applied = _apply(use["effect"], use, amount, resolved)
    harmful = (resolved == "negative" or lean == "negative") and any(_harms(e) for e in applied)
    # §5.8.4, decided before the die is thrown so the seal itself tells nothing: the coach's response
    # to a row marked hidden (核心重伤) is sealed, and how long the player is out waits for the reveal.
    sealed = hidden_rules and fits and harmful and bool(row.params.get("hidden"))
    response = _response(dice, key, resume_modifier, sealed) if harmful else None
    outcome = (response["result"] if sealed else response)["outcome"] if response else None
    worse = None
    if outcome == "halved":
        applied = [_resize(e, halve) if _harms(e) else e for e in applied]
    elif outcome == "worse":
        worse = row.params.get("worse") if fits else None
        if worse:  # the row states its own escalation (§6.3.3 "争吵升级为斗殴")
            applied += _apply(worse["effect"], worse, int(worse.get("amount", 0)), "negative")
        else:
            applied = [_resize(e, worsen) if _harms(e) else e for e in applied]
    if sealed and response:
        applied = [_pending(e, response["roll"]["id"]) if e["effect"] == "injury" and _harms(e) else e
                   for e in applied]
    rec.update({
        "table": drawn.side, "exclusive": bool(side),
        "event_roll": roll.ref(), "critical": critical, "hidden": sealed,
        "key": row.params["key"], "name": row.params["name"], "row_polarity": row.params["polarity"],
        "range": [row.lo, row.hi], "when": row.params.get("when"), "fits": fits,
        "effect": use["effect"], "params": _plain(use), "text": use.get("text"),
        "fallback": None if fits else dict(row.params["fallback"]),
        "base_amount": base, "scale_depth": at, "multiplier": multiplier(polarity, at), "amount": amount, "polarity": resolved,
        "lean": lean,
        "harmful": harmful, "response": response, "worse": dict(worse) if worse else None,
        "apply": applied,
        "depth_before": before, "depth_move": move, "depth_after": depth.value, "depth_spent": depth.spent,
    })
    return rec


def _check_effect(at: RowAt, where: str, effect: str, p: dict[str, Any], polarity: str) -> None:
    """The parameters one effect (a row, its fallback or its worse) needs."""
    if effect not in EFFECTS:
        at.fail(f"{where}effect", f"未知的效果类型 {effect!r}（可用的类型：{'、'.join(sorted(EFFECTS))}）")
    if effect == "nothing":
        return
    if not isinstance(p.get("amount"), int) or p["amount"] < 1:
        at.fail(f"{where}amount", "amount 应为正整数")
    side = p.get("side")
    if side not in SIDES or (side == "both") != (polarity == "neutral"):
        at.fail(f"{where}side", "应为 us 或 them（both 只用于中性的行，也只能用在那里）")
    if p.get("dir", "down") not in ("down", "up"):
        at.fail(f"{where}dir", "应为 down 或 up")
    if effect == "injury" and (polarity == "neutral" or (side == "us") != (polarity == "negative")):
        at.fail(f"{where}side", "伤病在负面的行里是我方的，在正面的行里是对方的")
    if effect in TARGETS and p.get("target") not in TARGETS[effect]:
        at.fail(f"{where}target", f"应为以下之一：{'、'.join(TARGETS[effect])}")
    slices = p.get("slices")
    if effect == "match_mod" and not (slices == "all" or (isinstance(slices, int) and slices >= 1)):
        at.fail(f"{where}slices", "应为不小于 1 的时段数或 all")


def check_rows(table: DiceTable, polarities: tuple[str, ...]) -> DiceTable:
    """The design-doc row contract on top of the D100 coverage ``load_table`` checks."""
    return pool.check_rows(table, lambda at: _check_row(at, polarities))


def _check_row(at: RowAt, polarities: tuple[str, ...]) -> None:
    """One row's contract (a unique key is checked by :func:`pool.check_rows`)."""
    row, p = at.row, at.row.params
    if not isinstance(p.get("key"), str) or not _KEY.fullmatch(p["key"]):
        at.fail("key", "应为不重复的拉丁字母 snake_case 键")
    if not isinstance(p.get("name"), str) or not row.text:
        at.fail("name", "每一行都要有 name 和 text")
    if p.get("polarity") not in polarities:
        at.fail("polarity", f"应为以下之一：{'、'.join(polarities)}")
    _check_effect(at, "", row.effect, p, p["polarity"])
    if "when" in p and (p["when"] not in WHEN or not isinstance(p.get("fallback"), dict)):
        at.fail("when", "应为 pre 或 play，并有一个 fallback 行用于另一时机")
    for extra in ("fallback", "worse"):
        sub = p.get(extra)
        if sub is None:
            continue
        if not isinstance(sub, dict) or not sub.get("text"):
            at.fail(extra, "应为含 effect、它的参数和 text 的映射")
        pol = "negative" if extra == "worse" else sub.get("polarity", p["polarity"])
        _check_effect(at, f"{extra}.", sub.get("effect", ""), sub, pol)
    if "worse" in p and p["polarity"] == "positive":
        at.fail("worse", "只有有害的行才能 worse（变得更糟）")
    if p.get("hidden") and (row.effect != "injury" or "worse" in p):
        at.fail("hidden", "只有没有 worse 的伤病行才能封存（§5.8.4）")


ROW_POLARITIES = {"base": POLARITIES, "golden": ("positive",), "dark": ("negative",)}
"""The polarities each table's rows may have: the ±3 tables are all good or all bad."""


def load_match_event_tables(resources: Resources) -> EventTables:
    """Appendix A and the exclusive tables from the search path (campaign folder first), validated."""
    return load_event_tables(resources, TABLE_FILES, lambda side, table: check_rows(table, ROW_POLARITIES[side]),
                             EFFECTS)


__all__ = ["PRE", "POINTS", "MatchDepth", "check", "check_rows", "halve", "worsen",
           "load_match_event_tables"]
