"""The youth academy (designed ch.9) and role-player promotion (000 §3.3.2).

:func:`youth_intake` adds the academy's new role players (aged 16–18, ``youth=True``) to a club at the
season end, never past the 33-player limit; :func:`promotions` turns role players who met the
season's threshold into core players by a 1D100, re-rolling their attributes by the §3.2.1 core
formulas against the current team abilities while keeping age and MNT (plus a designed compensation).
Both apply their results to the club and return plain records.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from ....dice import Dice, DiceExpr
from ....resources import Resources
from ....schema import Check, Field, Int, List, Map, Problem, Str
from ....tables import DiceNotation, load_data
from ..match.abilities import team_abilities
from ..models import ABILITIES, ATTRIBUTES, POSITIONS, SQUAD_LIMIT, Club, Player
from .ageing import ATTR_MAX, band, bands_problem
from .generation import CORE_FORMULAS, CORE_STA, GK_ATK_PERCENT, ROLE_MNT, ROLE_SECONDARY, ROLE_STA, roll_name
from .records import Candidate, CoreStep, MntBonus, Promoted, PromotionChance, Promotions, Youngster, YouthIntake

K_BASE, K_DIVISOR = 100, 250
"""000 §3.3.1 step 3: k = 0.4 + face / 250 = (100 + face) / 250; the academy replaces the D100 by its die."""
LEVELS = (1, 2, 3, 4, 5)
"""Facility levels (000 §2.3)."""
YOUTH_REFERENCE = "initial"
"""Designed (issue 26): an academy player's §3.3.1 equivalents are k × the club's §2.2 abilities (its
「基因底色」), as the first squad's role players, the market's players and the trialists are made; made
against the current dynamic abilities (themselves a mean of players made at 0.4–0.8 of them) each
generation was weaker than the last, and the league's mean forward ATK fell 16.2 → 9.4 in ten seasons."""


def _intake_problem(rows: list[dict[str, Any]]) -> Problem:
    """One row per facility level 1–5, in order, whose k die never passes the rulebook's 100 (k ≤ 0.8)."""
    if [r["level"] for r in rows] != list(LEVELS):
        return "intake 应按顺序为 1、2、3、4、5 级各有一行"
    for i, r in enumerate(rows):
        lo, hi = DiceExpr.parse(r["k"]).bounds()
        if lo < 1 or hi > 100:
            return (i, f"k 的骰子 {r['k']} 应在 1–100 之内（000 §3.3.1：k 从 0.404 到 0.8）")
    return None


TERM = Map({"from": Field(Int(min=1)), "to": Field(Int(min=1, max=99)), "term": Field(Int())})

SCHEMA = Map({
    "source": Field(Str()),
    "age": Field(DiceNotation(), doc="A new academy player's age."),
    "contract": Field(Int(min=1), doc="Seasons on a first contract."),
    "affinity": Field(DiceNotation(), doc="The youngster's regard for the club."),
    "intake": Field(Check(List(Map({
        "level": Field(Int(min=1, max=5)), "count": Field(DiceNotation(), doc="Players a season."),
        "k": Field(DiceNotation(), doc="Replaces §3.3.1's 1D100 in k = 0.4 + face / 250."),
    })), _intake_problem), doc="Designed ch.9 intake by youth facility level."),
    "promotion": Field(Map({
        "min_apps": Field(Int(min=1)), "min_goals": Field(Int(min=1)),
        "per_training": Field(Int(min=0)), "per_assistant": Field(Int(min=0)),
        "min_chance": Field(Int(min=0, max=100)), "limit": Field(Int(min=0)),
        "mnt_bonus": Field(DiceNotation(), doc="精神补偿 added to the kept MNT."),
        "age_terms": Field(Check(List(TERM, min_len=1), bands_problem), doc="Age → chance term."),
    }), doc="000 §3.3.2 promotion (designed numbers)."),
})
"""The shape of ``youth.yaml``."""


def load_youth_table(path: Path) -> dict[str, Any]:
    """``youth.yaml`` checked against :data:`SCHEMA` (TableError on a problem)."""
    table: dict[str, Any] = load_data(path, SCHEMA)
    return table


def load_youth(resources: Resources) -> dict[str, Any]:
    """The ruleset's ``youth.yaml`` (campaign folder first)."""
    return load_youth_table(resources.table_path("youth.yaml"))


# ---------------------------------------------------------------- designed ch.9 intake


def _k_value(team: int, face: int, divisor: int) -> int:
    """floor(team × (100 + face) / divisor), at least 1 (000 §3.3.1 step 4, §3.2.1)."""
    return max(1, team * (K_BASE + face) // divisor)


def _youngster(dice: Dice, key: str, name: str, row: dict[str, Any], team: dict[str, int],
               table: dict[str, Any]) -> tuple[Player, Youngster]:
    """One academy player: 1D4 position, age, k by the level's die, §3.3.1 abilities, STA, MNT, affinity."""
    pos_r = dice.roll(key, "1D4", f"{name} 位置")
    position = POSITIONS[pos_r.total - 1]
    age_r = dice.roll(key, table["age"], f"{name} 年龄")
    k_r = dice.roll(key, row["k"], f"{name} 实力系数")
    main = {"FW": "ATK", "MF": "MID", "DF": "DEF", "GK": "GK"}[position]
    attrs: dict[str, int] = {a: 1 for a in ABILITIES}
    attrs[main] = _k_value(team[main], k_r.total, K_DIVISOR)
    for a in ROLE_SECONDARY[position]:
        attrs[a] = _k_value(team[a], k_r.total, 2 * K_DIVISOR)
    sta_r = dice.roll(key, ROLE_STA, f"{name} STA")
    mnt_r = dice.roll(key, ROLE_MNT, f"{name} MNT")
    aff_r = dice.roll(key, table["affinity"], f"{name} 好感")
    attrs["STA"], attrs["MNT"] = sta_r.total, mnt_r.total
    p = Player(name, position, False, {a: attrs[a] for a in ATTRIBUTES}, age_r.total,
               (K_BASE + k_r.total) / K_DIVISOR, contract=table["contract"], affinity=min(100, aff_r.total),
               youth=True)
    rec: Youngster = {"name": name, "position": position, "position_roll": pos_r.to_json(), "age_roll": age_r.to_json(),
           "k_roll": k_r.to_json(), "k": p.k, "main": main, "secondary": list(ROLE_SECONDARY[position]),
           "sta_roll": sta_r.to_json(), "mnt_roll": mnt_r.to_json(), "affinity_roll": aff_r.to_json(),
           "player": p.to_json()}
    return p, rec


def youth_intake(dice: Dice, key: str, club: Club, table: dict[str, Any], names: dict[str, list[str]],
                 used_names: set[str]) -> YouthIntake:
    """Designed ch.9: the youth facility's count die, capped by the room left under 33; players appended.

    The record: ``club``, ``level``, ``count_roll``, ``rolled`` (the die's count), ``room`` (places
    left under :data:`SQUAD_LIMIT`), ``count`` (players who arrive), ``capped``, ``k_die``, ``team``
    (the abilities the equivalents were computed from) and ``players`` (one record each, with the
    new player's ``to_json``). ``used_names`` gains the squad's names and the new ones.
    """
    level = club.facilities.get("youth", 1)
    row = table["intake"][level - 1]
    count_r = dice.roll(f"{key}/count", row["count"], "青训产出人数")
    room = max(0, SQUAD_LIMIT - len(club.players))
    count = min(count_r.total, room)
    team = dict(club.initial)  # designed: against the club's §2.2 abilities (see :data:`YOUTH_REFERENCE`)
    used_names.update(p.name for p in club.players)
    players: list[Youngster] = []
    for i in range(count):
        name = roll_name(dice, f"{key}/names", names, used_names)
        p, rec = _youngster(dice, f"{key}/{i + 1}", name, row, team, table)
        club.players.append(p)
        players.append(rec)
    return {"club": club.name, "level": level, "count_roll": count_r.to_json(), "rolled": count_r.total,
            "room": room, "count": count, "capped": count < count_r.total, "k_die": row["k"], "team": team,
            "players": players}


SQUAD_FLOOR = 15
"""Designed: the fewest players a club starts a season with (000 §3.3.1's 「球队总人数建议初始在15~25人之间」)."""


def top_up(dice: Dice, key: str, club: Club, table: dict[str, Any], names: dict[str, list[str]],
           used_names: set[str]) -> list[Youngster]:
    """Designed: a club left under :data:`SQUAD_FLOOR` after the season's departures and its intake calls up
    academy players (made as the intake makes them, at the facility's level) until it has that many, so
    no club ever faces a season without eleven to field."""
    row = table["intake"][club.facilities.get("youth", 1) - 1]
    team = dict(club.initial)  # designed, as the intake (:data:`YOUTH_REFERENCE`)
    used_names.update(p.name for p in club.players)
    called: list[Youngster] = []
    while len(club.players) < SQUAD_FLOOR:
        name = roll_name(dice, f"{key}/names", names, used_names)
        p, rec = _youngster(dice, f"{key}/{len(called) + 1}", name, row, team, table)
        club.players.append(p)
        called.append(rec)
    return called


# ---------------------------------------------------------------- §3.3.2 promotion


def eligible(p: Player, table: dict[str, Any]) -> list[str]:
    """Why a role player may roll for promotion: ``apps`` and/or ``goals`` at the season's thresholds."""
    pt = table["promotion"]
    if p.core or not p.rolled:
        return []
    return [why for why, ok in (("apps", p.apps >= pt["min_apps"]), ("goals", p.goals >= pt["min_goals"])) if ok]


def promotion_chance(training: int, assistant: int, age: int, table: dict[str, Any], bonus: int = 0) -> PromotionChance:
    """000 §3.3.2 (designed numbers): training × a + assistant × b + age term + §6.4.3 bonus, at least the floor.

    >>> t = {"promotion": {"per_training": 3, "per_assistant": 2, "min_chance": 1,
    ...      "age_terms": [{"from": 1, "to": 21, "term": 10}, {"from": 22, "to": 99, "term": -20}]}}
    >>> promotion_chance(2, 2, 19, t)["chance"], promotion_chance(2, 2, 30, t)["chance"]
    (20, 1)
    """
    pt = table["promotion"]
    term = band(pt["age_terms"], age)
    parts = {"training": training * pt["per_training"], "assistant": assistant * pt["per_assistant"],
             "age_term": term["term"] if term else 0, "bonus": bonus}
    chance = max(pt["min_chance"], min(100, sum(parts.values())))
    return cast(PromotionChance, {**parts, "chance": chance, "clamped": chance != sum(parts.values())})


def _order(players: list[Player]) -> list[Player]:
    """Who rolls first: more goals, more appearances, younger, then squad order."""
    return sorted(players, key=lambda p: (-p.goals, -p.apps, p.age or 0))


PROMOTION_KEEPS_BEST = True
"""Designed reading of §3.3.2 (issue 26): a promotion re-rolls each attribute by the §3.2.1 core formulas
against the current team abilities, and the player keeps the better of the roll and what he had. Read
literally (the roll replaces the value), the formulas give 0.6–0.8 of a per-position mean, so the role
player who earned the promotion by playing well lost most of his main ability (MID 24 → 3 in the review);
§3.3.2 calls it a reward for 「长期表现优异」 and its 「补全六维」 completes the profile, it does not take away."""


def reroll_core(dice: Dice, key: str, p: Player, team: dict[str, int], table: dict[str, Any]) -> Promoted:
    """000 §3.2.1 formulas for ATK, DEF, MID, GK, STA against ``team``, each kept only when it beats what
    the player had (:data:`PROMOTION_KEEPS_BEST`); age kept, MNT kept + 精神补偿 (applied)."""
    steps: list[CoreStep] = []
    attrs: dict[str, int] = {}
    for attr, offset, divisor in CORE_FORMULAS[p.position]:
        r = dice.roll(key, "1D100", f"{p.name} {attr}")
        attrs[attr] = max(1, team[attr] * (offset + r.total) // divisor)
        steps.append({"attr": attr, "team": team[attr], "offset": offset, "divisor": divisor,
                      "roll": r.to_json(), "value": attrs[attr]})
    if p.position == "GK":
        attrs["ATK"] = max(1, team["ATK"] * GK_ATK_PERCENT // 100)
        steps.append({"attr": "ATK", "team": team["ATK"], "percent": GK_ATK_PERCENT, "value": attrs["ATK"]})
    sta = dice.roll(key, CORE_STA[p.position], f"{p.name} STA")
    attrs["STA"] = sta.total
    steps.append({"attr": "STA", "roll": sta.to_json(), "value": sta.total})
    bonus = dice.roll(key, table["promotion"]["mnt_bonus"], f"{p.name} 精神补偿")
    attrs["MNT"] = min(ATTR_MAX, p.attrs["MNT"] + bonus.total)
    mnt: MntBonus = {"before": p.attrs["MNT"], "roll": bonus.to_json(), "after": attrs["MNT"]}
    before, wage_before = dict(p.attrs), p.wage
    p.core, p.k = True, None
    p.attrs = {a: min(ATTR_MAX, max(attrs[a], before[a]) if PROMOTION_KEEPS_BEST else attrs[a]) for a in ATTRIBUTES}
    return {"name": p.name, "position": p.position, "age": p.age, "team": dict(team), "steps": steps, "mnt": mnt,
            "before": before, "after": dict(p.attrs), "wage_before": wage_before, "wage_after": p.wage}


def promotions(dice: Dice, key: str, club: Club, assistant_level: int, table: dict[str, Any],
               bonus: int = 0) -> Promotions:
    """000 §3.3.2 at the season end: eligible role players roll 1D100 ≤ chance until the limit is reached.

    ``bonus`` is the §6.4.3 youth modifier (``environment.youth_bonus``). The record: ``club``,
    ``training`` / ``assistant`` (levels), ``per_training`` / ``per_assistant``, ``bonus``, ``limit``,
    ``candidates`` (name, age, apps, goals, ``why``, the chance parts ``training`` ``assistant``
    ``age_term`` ``bonus`` in points, ``chance``, ``roll`` — None once the limit is reached — and
    ``success``) and ``promoted`` (one :func:`reroll_core` record each, the team abilities computed
    just before the re-roll).
    """
    training = club.facilities.get("training", 1)
    limit = table["promotion"]["limit"]
    rec: Promotions = {"club": club.name, "training": training, "assistant": assistant_level, "bonus": bonus,
                       "per_training": table["promotion"]["per_training"],
                       "per_assistant": table["promotion"]["per_assistant"], "limit": limit,
                       "candidates": [], "promoted": []}
    for p in _order([p for p in club.players if eligible(p, table)]):
        cand: Candidate = {"name": p.name, "age": p.age, "apps": p.apps, "goals": p.goals,
                           "why": eligible(p, table),
                           **promotion_chance(training, assistant_level, p.age or 0, table, bonus),
                           "roll": None, "success": False}
        rec["candidates"].append(cand)
        if len(rec["promoted"]) >= limit:
            continue  # 名额已满: no roll
        r = dice.roll(f"{key}/{p.name}", "1D100", f"{p.name} 晋升判定")
        cand["roll"], cand["success"] = r.to_json(), r.total <= cand["chance"]
        if cand["success"]:
            team = team_abilities(club.players)
            rec["promoted"].append(reroll_core(dice, f"{key}/{p.name}", p, team, table))
    return rec


__all__ = [
    "SCHEMA", "load_youth", "load_youth_table", "youth_intake", "eligible", "promotion_chance", "reroll_core",
    "promotions", "SQUAD_FLOOR", "top_up",
]
