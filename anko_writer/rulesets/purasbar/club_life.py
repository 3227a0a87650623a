"""Our club's life across a season (000 §4.1): fortunes, match events and what they change.

Each phase function rolls through the rule modules (business, match_events …) and applies their
effects through :mod:`effects`; it returns the records the chapter prints. Only the readers' club has a
life: the 23 AI clubs play the §5 rules without events (their stories are not told).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .business import month_start
from .depth import Depth
from .effects import Target, apply
from .finance import FinanceRules, r_band, r_coefficient, season_bill
from .match_events import MatchDepth, check
from .side import Side
from .world import World

ALL_SLICES = 8
"""A ``match_mod`` said to last ``all`` slices lasts the match, extra time included."""


@dataclass
class Life:
    """Our club's people and fortunes for the season (persisted in the campaign or the season state)."""

    owner: Any
    coach: Any
    staff: dict[str, Any]
    affinity: Any
    funds: dict[str, int]
    finance: FinanceRules
    tables: dict[str, Any]
    environment: Any = None
    depth: dict[str, Depth] = field(default_factory=lambda: {"business": Depth("business"),
                                                              "external": Depth("external")})
    boost: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Player → (attribute, +2) for next month's first match (000 §8.1.2)."""
    boost_due: bool = False
    scouted: set[str] = field(default_factory=set)
    """Opponents whose four abilities were researched before the match (000 §5.8.2)."""
    pending_mods: list[dict[str, Any]] = field(default_factory=list)
    """Attack modifiers for our next match (e.g. 进攻演练)."""

    def target(self, world: World, key: str) -> Target:
        """What an effect may touch on our side."""
        return Target(world.ours, world.dice, key, world.week, funds=self.funds, staff=self.staff,
                      affinity=self.affinity, depth=self.depth, environment=self.environment)

    def level(self, role: str) -> int:
        """A staff member's level (0 when the role is vacant)."""
        member = self.staff.get(role)
        return member.level if member is not None else 0


def finances(world: World, life: Life) -> dict[str, Any]:
    """Funds, the season's bill and R (000 §6.2.3), as read at the start of a month."""
    bill = season_bill(world.ours, (m.level for m in life.staff.values()), life.finance)
    r = r_coefficient(life.funds["funds"], bill["total"])
    return {"funds": life.funds["funds"], "bill": bill, "R": r, "band": r_band(r)}


def business_phase(world: World, life: Life, month: int) -> dict[str, Any]:
    """000 §4.1 phase 1 item 1: three business checks, each event applied before the next check."""
    key = f"s{world.season}/m{month:02d}/business"
    money = finances(world, life)
    staff = {role: m.level for role, m in life.staff.items()}
    salaries = {role: m.level * life.finance.staff_salary_per_level for role, m in life.staff.items()}
    records = month_start(world.dice, key, life.depth["business"], life.level("commercial"),
                          life.owner.fanaticism, life.owner.wealth, money["R"], life.tables["business"],
                          staff=staff, salaries=salaries)
    for rec in records:
        if rec.get("kind") == "check" and rec.get("triggered") and rec.get("effect"):
            rec["applied"] = apply(life.target(world, key), rec["effect"])
            cost = (rec.get("branch") or {}).get("cost")
            if cost:
                life.funds["funds"] -= cost
    return {"finances": money, "checks": records, "depth": life.depth["business"].value}


def _entry_effect(entry: dict[str, Any]) -> dict[str, Any]:
    """A match-event ``apply`` entry in :func:`effects.apply` form."""
    if entry["effect"] == "injury":
        return {"effect": "injury", "polarity": "negative", "target": entry["target"], "weeks": entry["weeks"]}
    delta = entry["delta"]
    out = {"effect": entry["effect"], "polarity": "positive" if delta >= 0 else "negative", "amount": abs(delta)}
    for k in ("target", "slices"):
        if k in entry:
            out[k] = entry[k]
    return out


def _in_play_injury(world: World, side: Side, entry: dict[str, Any], key: str) -> dict[str, Any]:
    """An event injury during play: a player on the pitch leaves as a retired player does (§5.7.3)."""
    pitch = side.on_pitch()
    if entry["target"] == "random_core":
        pool = [x for x in pitch if x[1].core] or pitch
    elif entry["target"] == "star":
        best = max((p.total for _, p in pitch), default=0)
        pool = [x for x in pitch if x[1].total == best]
    else:
        pool = pitch
    if not pool:
        return {"effect": "injury", "changed": False, "reason": "no player"}
    pick = world.dice.roll(key, f"1D{len(pool)}", "伤者抽取") if len(pool) > 1 else None
    slot, p = pool[pick.total - 1 if pick else 0]
    weeks = max(1, entry["weeks"] - side.club.doctor)
    until = world.week + weeks
    side.lineup[slot].remove(p)
    side.gone.add(p.name)
    side.retired.append((slot, p))
    side.forced_off.append((slot, p))
    side.club.infirmary.set_injury(p, until, world.week)
    return {"effect": "injury", "changed": True, "player": p.name, "weeks_base": entry["weeks"],
            "doctor": side.club.doctor, "weeks": weeks, "out_until_week": until,
            "pick_roll": pick.to_json() if pick else None}


def pre_match(world: World, life: Life, key: str, depth: MatchDepth, ours: Any, theirs: Any) -> dict[str, Any]:
    """The §6.3.1 pre-match check (before the line-ups, so a pre-match injury keeps a player out)."""
    rec = check(world.dice, f"{key}/events", 0, depth, life.coach.resume_modifier(life.tables["people"]),
                True, life.tables["match_events"])
    pending: dict[str, list[dict[str, Any]]] = {"us": [], "them": []}
    if rec and rec.get("triggered"):
        rec["applied"] = []
        for entry in rec.get("apply", []):
            club = ours if entry["side"] == "us" else theirs
            if entry["effect"] == "match_mod":
                slices = ALL_SLICES if entry["slices"] == "all" else entry["slices"]
                pending[entry["side"]].append({"amount": entry["delta"], "slices": slices})
                rec["applied"].append({"effect": "match_mod", "side": entry["side"], "amount": entry["delta"],
                                       "slices": slices})
                continue
            t = Target(club, world.dice, f"{key}/events", world.week)
            rec["applied"].append({"side": entry["side"], **apply(t, _entry_effect(entry))})
    return {"record": rec, "pending": pending}


def slice_hook(world: World, life: Life, key: str, depth: MatchDepth, our_side_name: str):  # noqa: ANN201
    """The match engine's hook for our match: a §6.3 check at each slice that has one."""
    resume = life.coach.resume_modifier(life.tables["people"])

    def on_point(n: int, home: Side, away: Side) -> list[dict[str, Any]]:
        """Check slice ``n``; apply the event to the side it concerns."""
        rec = check(world.dice, f"{key}/events", n, depth, resume, True, life.tables["match_events"])
        if rec is None:
            return []
        if rec.get("triggered"):
            us, them = (home, away) if home.club.name == our_side_name else (away, home)
            rec["applied"] = [_apply_in_play(world, us if e["side"] == "us" else them, e, f"{key}/events")
                              for e in rec.get("apply", [])]
        return [rec]
    return on_point


def _apply_in_play(world: World, side: Side, entry: dict[str, Any], key: str) -> dict[str, Any]:
    if entry["effect"] == "match_mod":
        slices = ALL_SLICES if entry["slices"] == "all" else entry["slices"]
        side.mods.append({"amount": entry["delta"], "slices": slices})
        return {"effect": "match_mod", "side": entry["side"], "amount": entry["delta"], "slices": slices}
    if entry["effect"] == "injury":
        return {"side": entry["side"], **_in_play_injury(world, side, entry, key)}
    if entry["effect"] == "stamina" and entry.get("target", "team") == "team":
        for _, p in side.on_pitch():
            p.stamina = max(0, min(100, p.stamina + entry["delta"]))
        return {"effect": "stamina", "side": entry["side"], "amount": entry["delta"], "changed": True}
    t = Target(side.club, world.dice, key, world.week)
    return {"side": entry["side"], **apply(t, _entry_effect(entry))}
