"""000 §6.4 external environment: the season's forced Appendix C event, its depth and its modifiers."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ....dice import Dice
from ....resources import Resources
from ....schema import Check, Enum, Field, Int, List, Map, Problem, Str
from ....tables import DiceTable, Row, TotalRange, load_table, span_text
from .depth import POLARITIES, Depth, scale
from .pool import EventTables, check_rows, draw, load_event_tables
from .records import EnvironmentState, EnvModifier, ExternalRecord, LeagueEffect

TARGETS = {
    "ticket": "multiplier",
    "broadcast": "multiplier",
    "sponsor": "multiplier",
    "transfer": "multiplier",
    "youth": "points",
    "injury": "points",
    "morale": "points",
}
"""Environment targets (design doc): multipliers scale an amount by (100 + p)%; points add p (§6.4.3)."""
GOOD = {"ticket": 1, "broadcast": 1, "sponsor": 1, "youth": 1, "morale": 1, "injury": -1, "transfer": 0}
"""The sign of a percent that helps clubs; transfer fees cut both ways, so they appear in neutral rows only."""
EFFECTS = ("environment", "funds", "morale", "depth", "nothing")
"""Effect kinds Appendix C and its exclusive tables may name (docs/design-club-life.md)."""
DEPTH_POOLS = ("business",)
"""Pools an external `depth` row may move (the external pool resets after its own exclusive event)."""
FILES = {"base": "external_events.yaml", "golden": "external_golden.yaml", "dark": "external_dark.yaml"}
"""Appendix C and its two exclusive tables (000 §6.4.2: 黄金纪元 / 至暗纪元)."""

_MOD = Map({"target": Field(Enum(list(TARGETS))), "percent": Field(Int())}, doc="One season modifier.")
_TURN = Map({"target": Field(Enum(list(TARGETS))), "percent": Field(Int(min=1))},
            doc="A neutral row's extra modifier once depth ±2 turns it (000 §6.1.2); its sign follows.")
_LEAN = Map({"positive": Field(Str()), "negative": Field(Str())}, doc="A neutral row's prose at depth ±1/±2.")


def _row_problem(row: dict[str, Any]) -> Problem:
    """Cross-field rules of one event row (design doc: effect parameters, signs, neutral-only keys)."""
    effect, polarity = row["effect"], row["polarity"]
    if effect == "environment" and ("target" not in row or "percent" not in row):
        return "target" if "target" not in row else "percent", "environment 行需要 target 和 percent"
    if effect in ("funds", "morale", "depth") and "amount" not in row:
        return "amount", f"{effect} 行需要 amount"
    if effect == "depth" and "pool" not in row:
        return "pool", "depth 行需要 pool"
    if effect in ("funds", "morale", "depth") and polarity == "neutral":
        return "polarity", f"{effect} 行的正负取自它的 polarity，所以不能是 neutral"
    if polarity != "neutral" and ("turn" in row or "lean" in row):
        return "turn" if "turn" in row else "lean", "turn 和 lean 只用于 neutral 的行"
    mods = ([("percent", {"target": row["target"], "percent": row["percent"]})] if "target" in row else []) + \
        [(("also", j, "percent"), m) for j, m in enumerate(row.get("also", []))]
    for where, m in mods:
        if m["percent"] == 0:
            return where, f"{m['target']} 的 percent 不能是 0"
        sign = GOOD[m["target"]] * (1 if m["percent"] > 0 else -1)
        if (polarity == "positive" and sign <= 0) or (polarity == "negative" and sign >= 0):
            helpful = GOOD[m["target"]]
            return where, f"{m['target']} {m['percent']:+d} 与 {polarity} 的行不符（有利的方向是 {helpful:+d}）"
    if "turn" in row and not GOOD[row["turn"]["target"]]:
        return ("turn", "target"), f"turn 需要一个有有利方向的 target，{row['turn']['target']} 没有"
    return None


ROW = Check(Map({
    "range": Field(TotalRange()),
    "key": Field(Str(pattern=r"[a-z][a-z0-9_]*", pattern_doc="latin snake_case")),
    "name": Field(Str()),
    "polarity": Field(Enum(list(POLARITIES))),
    "effect": Field(Enum(list(EFFECTS))),
    "text": Field(Str()),
    "target": Field(Enum(list(TARGETS)), required=False),
    "percent": Field(Int(), required=False, doc="Signed: the real direction for clubs."),
    "amount": Field(Int(min=1), required=False, doc="Magnitude; the sign comes from polarity."),
    "pool": Field(Enum(list(DEPTH_POOLS)), required=False),
    "also": Field(List(_MOD), required=False, doc="Further modifiers of the same event."),
    "turn": Field(_TURN, required=False),
    "lean": Field(_LEAN, required=False),
}), _row_problem, doc="One external event (docs/design-club-life.md event rows).")
"""An Appendix C row with the parameters its effect needs."""


def load_event_table(path: Path) -> DiceTable:
    """Load one external event table: full D100 coverage, then every row a :data:`ROW` with a unique key."""
    return check_rows(load_table(path, EFFECTS), schema=ROW)


def load_external(resources: Resources) -> EventTables:
    """Appendix C and the two exclusive tables from the ruleset's table path (campaign folder first)."""
    return load_event_tables(resources, FILES, lambda side, table: check_rows(table, schema=ROW), EFFECTS)


@dataclass
class Environment:
    """The external pool: its depth (kept across seasons, §6.4.2) and this season's modifiers (§6.4.3)."""

    depth: Depth = field(default_factory=lambda: Depth("external"))
    modifiers: dict[str, int] = field(default_factory=dict)
    """Target → sum of the season's percents."""
    events: list[str] = field(default_factory=list)
    """Keys of this season's external events, in order."""

    def add(self, target: str, percent: int) -> None:
        """Add one modifier to the season's sum for ``target``."""
        if target not in TARGETS:
            raise ValueError(f"unknown environment target {target!r}")
        total = self.modifiers.get(target, 0) + percent
        if total:
            self.modifiers[target] = total
        else:
            self.modifiers.pop(target, None)

    def new_season(self) -> None:
        """Last season's modifiers end (§6.4.1: effects last the season); the depth stays (§6.1.1)."""
        self.modifiers.clear()
        self.events.clear()

    def to_json(self) -> EnvironmentState:
        """``{depth, modifiers, events}`` for the campaign state."""
        mods = {t: self.modifiers[t] for t in TARGETS if self.modifiers.get(t)}
        return {"depth": self.depth.value, "modifiers": mods, "events": list(self.events)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Environment:
        """The inverse of :meth:`to_json`."""
        env = cls(Depth("external", int(data.get("depth", 0))))
        for target, percent in (data.get("modifiers") or {}).items():
            env.add(target, int(percent))
        env.events = list(data.get("events") or [])
        return env


def _modifiers(row: Row, depth: int, scaled: bool) -> list[EnvModifier]:
    """The row's environment modifiers, magnitudes scaled by depth (§6.1.2), signs as written."""
    p = row.params
    mods = ([{"target": p["target"], "percent": p["percent"]}] if row.effect == "environment" else [])
    mods += [dict(m) for m in p.get("also", [])]
    out: list[EnvModifier] = []
    for m in mods:  # scale() keeps a neutral row's size: only its polarity turns at ±2
        size = scale(abs(m["percent"]), p["polarity"], depth)[0] if scaled else abs(m["percent"])
        out.append({"target": m["target"], "base": m["percent"], "percent": size if m["percent"] > 0 else -size})
    turned = scale(1, p["polarity"], depth)[1] if scaled and p["polarity"] == "neutral" else "neutral"
    if "turn" in p and turned != "neutral":  # §6.1.2: a neutral event turns positive at +2, negative at −2
        t = p["turn"]
        sign = GOOD[t["target"]] * (1 if turned == "positive" else -1)
        out.append({"target": t["target"], "base": 0, "percent": sign * t["percent"], "turn": turned})
    return out


def _other(row: Row, depth: int, scaled: bool) -> list[LeagueEffect]:
    """Effects the season code applies (league-wide funds or morale, a business depth move)."""
    if row.effect not in ("funds", "morale", "depth"):
        return []
    polarity, amount = row.params["polarity"], row.params["amount"]
    if scaled and row.effect != "depth":  # a depth move is a step, never multiplied
        amount = scale(amount, polarity, depth)[0]
    sign = 1 if polarity == "positive" else -1
    rec: LeagueEffect = {"kind": row.effect, "scope": "league", "amount": amount, "delta": sign * amount}
    if row.effect == "depth":
        rec["pool"] = row.params["pool"]
    return [rec]


def _resolve(dice: Dice, key: str, env: Environment, tables: EventTables, forced: bool) -> ExternalRecord:
    """One external event: table, roll, depth, scaled effects applied to ``env``."""
    drawn = draw(dice, key, tables, env.depth, exclusive=forced)  # §6.4.2: only the forced event switches
    exclusive, table, roll, row = drawn.exclusive, drawn.table, drawn.roll, drawn.row
    before = env.depth.value
    scaled = not exclusive  # §6.1.2: the ±3 tables carry their own sizes
    polarity = scale(1, row.params["polarity"], before)[1] if scaled else row.params["polarity"]
    mods = _modifiers(row, before, scaled)
    for m in mods:
        env.add(m["target"], m["percent"])
    env.events.append(row.params["key"])
    lean = None
    if row.params["polarity"] == "neutral" and before and not exclusive:  # §6.1.2 "略微偏向" at ±1
        lean = "positive" if before > 0 else "negative"
    # §6.1.3 ladder on the event's own D100 (no move at ±3); §6.4.2: reset after the exclusive event
    step, reset = drawn.settle(env.depth)
    return {
        "forced": forced, "table": table.name, "exclusive": exclusive, "roll": roll.ref(),
        "event": {"key": row.params["key"], "name": row.params["name"], "range": span_text(row.lo, row.hi),
                  "effect": row.effect, "polarity": row.params["polarity"], "text": row.text,
                  "lean_text": row.params["lean"][lean] if lean and "lean" in row.params else None},
        "depth_used": before, "polarity": polarity, "lean": lean,
        "modifiers": mods, "effects": _other(row, before, scaled),
        "depth": step, "reset": reset, "depth_after": env.depth.value, "environment": env.to_json(),
    }


def season_start(dice: Dice, key: str, env: Environment, tables: EventTables) -> ExternalRecord:
    """000 §6.4.1: the forced D100 at the first month of a season; the season's modifiers start over."""
    env.new_season()
    return _resolve(dice, key, env, tables, forced=True)


def extra_trigger(dice: Dice, key: str, env: Environment, tables: EventTables) -> ExternalRecord:
    """000 §6.4.1 extra roll after a super-event: Appendix C even at ±3, added to the season's modifiers."""
    return _resolve(dice, key, env, tables, forced=False)


def modifier(env: Environment, target: str) -> int:
    """The season's summed percent for ``target`` (0 when none)."""
    if target not in TARGETS:
        raise ValueError(f"unknown environment target {target!r}")
    return env.modifiers.get(target, 0)


def apply_percent(value: int, env: Environment, target: str) -> int:
    """000 §6.4.3 cross-pool multiplier: ``value × (100 + p) / 100`` rounded down, never below 0 × value.

    >>> env = Environment(modifiers={"broadcast": -30})
    >>> apply_percent(1_000_000, env, "broadcast"), apply_percent(999, env, "broadcast")
    (700000, 699)
    """
    if TARGETS.get(target) != "multiplier":
        raise ValueError(f"{target!r} is not a multiplier target")
    return value * max(0, 100 + modifier(env, target)) // 100


def youth_bonus(env: Environment) -> int:
    """000 §6.4.3: percentage points added to every youth check's success rate (大陆青训热潮 +5)."""
    return modifier(env, "youth")


def injury_bonus(env: Environment) -> int:
    """Percentage points added to the §5.7.1 injury risk (designed)."""
    return modifier(env, "injury")


def morale_bonus(env: Environment) -> int:
    """Points added to each month-end morale adjustment (designed, see morale.yaml)."""
    return modifier(env, "morale")


__all__ = [
    "TARGETS", "GOOD", "EFFECTS", "FILES", "Environment", "load_event_table", "load_external",
    "season_start", "extra_trigger", "modifier", "apply_percent", "youth_bonus", "injury_bonus", "morale_bonus",
]
