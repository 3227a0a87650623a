"""Season-end ageing (000 §4.4 step 6, designed §8.4): age +1, retirement, decline, veterans' MNT, leaders.

Every club ages by the same rule. Each player rolls on his own stream (``{key}/{name}``), so a renamed
or departed player never moves another's dice. Records keep every part of the arithmetic; nothing here
formats prose. Retired players stay in ``club.players`` until :func:`remove_retired` takes them out.

>>> from anko_writer.dice import Dice
>>> from ..models import Club, Player
>>> t = {"decline": {"attrs": ["STA", "main"], "bands": [{"from": 30, "to": 99, "chance": 50, "loss": "1D3"}]},
...      "compensation": {"from": 30, "veteran": 1, "declined": 1},
...      "leader": {"from": 30, "mnt": 60, "base": 15, "max_leaders": 2},
...      "retirement": {"bands": [{"from": 36, "to": 99, "chance": 100}]}}
>>> p = Player("甲", "FW", True, {"ATK": 40, "DEF": 10, "MID": 20, "GK": 5, "STA": 60, "MNT": 50}, 30)
>>> c = Club("城", "城", 100, {}, "ATK", "4 4 2", [p])
>>> d = Dice(1)
>>> d.fix(50, 2, 3)   # decline roll 50 ≤ 50, STA −2, ATK −3
>>> rec = age_squad(d, "s1/age", c, t)
>>> (p.age, p.attrs["STA"], p.attrs["ATK"], p.attrs["MNT"], rec["retired"])
(31, 58, 37, 52, [])
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ....dice import Dice
from ....resources import Resources
from ....schema import Check, Field, Int, List, Map, Problem, Str
from ....tables import DiceNotation, load_data
from ..models import ATTRIBUTES, Club, Player
from .records import AgedPlayer, Ageing, Decline, Judgement, LeaderCheck, MntGain

ATTR_MIN, ATTR_MAX = 1, 99
"""Design doc: every attribute stays within 1…99 (the decline never takes one below 1)."""
AGE_TOP = 99
"""The last band of an age table reaches this age."""


def bands_problem(bands: list[dict[str, Any]]) -> Problem:
    """Age bands run upward from the first one's ``from`` to 99 without gaps or overlaps."""
    expect = bands[0]["from"]
    for i, band in enumerate(bands):
        if band["from"] != expect or band["to"] < band["from"]:
            return (i, f"这一段应从 {expect} 岁开始，且不能在开始之前结束")
        expect = band["to"] + 1
    return None if expect == AGE_TOP + 1 else (len(bands) - 1, f"最后一段应到 {AGE_TOP} 岁")


def _bands(extra: dict[str, Field]) -> Check:
    """A list of contiguous age bands with a ``chance`` and the ``extra`` fields."""
    band = Map({"from": Field(Int(min=1)), "to": Field(Int(min=1, max=AGE_TOP)),
                "chance": Field(Int(min=0, max=100), doc="1D100 ≤ chance succeeds."), **extra})
    return Check(List(band, min_len=1), bands_problem)


SCHEMA = Map({
    "source": Field(Str()),
    "decline": Field(Map({
        "attrs": Field(List(Str(choices=["STA", "MNT", "ATK", "DEF", "MID", "GK", "main"]), min_len=1),
                       doc="Attributes a decline hits (`main`: the position's main attribute)."),
        "bands": Field(_bands({"loss": Field(DiceNotation(), doc="Points lost per attribute.")})),
    }), doc="Designed §8.4 decline roll."),
    "compensation": Field(Map({
        "from": Field(Int(min=1)), "veteran": Field(Int(min=0)), "declined": Field(Int(min=0)),
    }), doc="Designed §8.4 veterans' MNT compensation."),
    "leader": Field(Map({
        "from": Field(Int(min=1)), "mnt": Field(Int(min=1, max=ATTR_MAX)), "base": Field(Int(min=0, max=100)),
        "max_leaders": Field(Int(min=1)),
    }), doc="Designed §8.4 leader trait: 1D100 ≤ base + (MNT − mnt)."),
    "retirement": Field(Map({"bands": Field(_bands({}))}), doc="Designed §8.4 retirement roll."),
})
"""The shape of ``ageing.yaml``."""


def load_ageing_table(path: Path) -> dict[str, Any]:
    """``ageing.yaml`` checked against :data:`SCHEMA` (TableError on a problem)."""
    table: dict[str, Any] = load_data(path, SCHEMA)
    return table


def load_ageing(resources: Resources) -> dict[str, Any]:
    """The ruleset's ``ageing.yaml`` (campaign folder first)."""
    return load_ageing_table(resources.table_path("ageing.yaml"))


def band(bands: list[dict[str, Any]], age: int) -> dict[str, Any] | None:
    """The band holding ``age``, or None below the first band.

    >>> band([{"from": 30, "to": 31, "chance": 20}, {"from": 32, "to": 99, "chance": 35}], 33)["chance"]
    35
    """
    return next((b for b in bands if b["from"] <= age <= b["to"]), None)


def leader_chance(mnt: int, table: dict[str, Any]) -> int:
    """Designed §8.4: base + (MNT − threshold), at most 100.

    >>> leader_chance(60, {"leader": {"mnt": 60, "base": 15}}), leader_chance(80, {"leader": {"mnt": 60, "base": 15}})
    (15, 35)
    """
    lt: dict[str, int] = table["leader"]
    return min(100, lt["base"] + mnt - lt["mnt"])


def _check(dice: Dice, key: str, chance: int, purpose: str) -> Judgement:
    """One 1D100 ≤ chance judgement as a record."""
    r = dice.roll(key, "1D100", purpose)
    return {"chance": chance, "roll": r.to_json(), "success": r.total <= chance}


def _decline(dice: Dice, key: str, p: Player, table: dict[str, Any]) -> Decline | None:
    """Designed §8.4: the age band's 1D100; on a decline each listed attribute loses the band's die (≥ 1)."""
    b = band(table["decline"]["bands"], p.age or 0)
    if b is None:
        return None
    rec: Decline = {**_check(dice, key, b["chance"], f"{p.name} 年龄衰减判定"), "losses": []}
    if rec["success"]:
        for name in table["decline"]["attrs"]:
            attr = p.main if name == "main" else name
            r = dice.roll(key, b["loss"], f"{p.name} {attr} 衰减")
            before = p.attrs[attr]
            p.attrs[attr] = max(ATTR_MIN, before - r.total)
            rec["losses"].append({"attr": attr, "roll": r.to_json(), "before": before, "after": p.attrs[attr]})
    return rec


def _compensate(p: Player, declined: bool, table: dict[str, Any]) -> MntGain | None:
    """Designed §8.4 老将精神补偿: MNT + veteran (+ declined in a decline year), at most 99."""
    ct = table["compensation"]
    if (p.age or 0) < ct["from"]:
        return None
    gain = ct["veteran"] + (ct["declined"] if declined else 0)
    before = p.attrs["MNT"]
    p.attrs["MNT"] = min(ATTR_MAX, before + gain)
    return {"before": before, "gain": gain, "after": p.attrs["MNT"]}


def _leader(dice: Dice, key: str, p: Player, leaders: int, table: dict[str, Any]) -> LeaderCheck | None:
    """Designed §8.4 领袖特质解锁: a veteran non-leader with MNT ≥ threshold rolls while the squad has room."""
    lt = table["leader"]
    if p.leader or (p.age or 0) < lt["from"] or p.attrs["MNT"] < lt["mnt"] or leaders >= lt["max_leaders"]:
        return None
    rec: LeaderCheck = {**_check(dice, key, leader_chance(p.attrs["MNT"], table), f"{p.name} 领袖特质判定"),
                        "threshold": lt["mnt"], "mnt": p.attrs["MNT"], "base": lt["base"]}
    p.leader = rec["success"]
    return rec


def age_player(dice: Dice, key: str, p: Player, leaders: int, table: dict[str, Any]) -> AgedPlayer:
    """One rolled player's season end: age +1, retirement, decline, MNT compensation, leader (applied)."""
    rec: AgedPlayer = {"name": p.name, "position": p.position, "core": p.core, "age_before": p.age,
                       "age": (p.age or 0) + 1, "retirement": None, "retired": False, "decline": None,
                       "mnt": None, "leader": None}
    p.age = rec["age"]
    b = band(table["retirement"]["bands"], p.age)
    if b is not None:
        retirement = rec["retirement"] = _check(dice, key, b["chance"], f"{p.name} 退役判定")
        rec["retired"] = retirement["success"]
        if rec["retired"]:
            return rec
    rec["decline"] = _decline(dice, key, p, table)
    rec["mnt"] = _compensate(p, bool(rec["decline"] and rec["decline"]["success"]), table)
    rec["leader"] = _leader(dice, key, p, leaders, table)
    return rec


def age_squad(dice: Dice, key: str, club: Club, table: dict[str, Any]) -> Ageing:
    """000 §4.4 step 6 for one club (designed §8.4); players not rolled yet (000 §5.8.3) are skipped.

    The record: ``club``, ``players`` (one :func:`age_player` record each, squad order), ``retired``
    (names, still in the squad: see :func:`remove_retired`), ``leaders_new``, ``skipped`` (unrolled).
    """
    leaders = sum(1 for p in club.players if p.leader)
    out: list[AgedPlayer] = []
    skipped: list[str] = []
    for p in club.players:
        if not p.rolled or p.age is None:
            skipped.append(p.name)
            continue
        rec = age_player(dice, f"{key}/{p.name}", p, leaders, table)
        if rec["leader"] and rec["leader"]["success"]:
            leaders += 1
        out.append(rec)
    return {"club": club.name, "players": out, "retired": [r["name"] for r in out if r["retired"]],
            "leaders_new": [r["name"] for r in out if r["leader"] and r["leader"]["success"]],
            "declined": [r["name"] for r in out if r["decline"] and r["decline"]["success"]],
            "skipped": skipped}


def remove_retired(club: Club, record: Ageing) -> list[Player]:
    """Take the record's retired players out of ``club.players``; return them (in squad order)."""
    gone = set(record["retired"])
    out = [p for p in club.players if p.name in gone]
    club.players = [p for p in club.players if p.name not in gone]
    return out


def in_bounds(p: Player) -> bool:
    """Every attribute of a rolled player is within 1…99."""
    return all(ATTR_MIN <= p.attrs[a] <= ATTR_MAX for a in ATTRIBUTES)


__all__ = [
    "SCHEMA", "ATTR_MIN", "ATTR_MAX", "bands_problem", "load_ageing", "load_ageing_table", "band",
    "leader_chance", "age_player", "age_squad", "remove_retired", "in_bounds",
]
