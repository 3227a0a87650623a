"""The off-season rules of club life (000 §4.4 steps 10 and 12, designed) and their table ``seasons.yaml``:
staff poaching and the owner's retirement. The settlement (``season.settlement``) plays them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ....dice import Dice
from ....resources import Resources
from ....schema import Field, Int, Map, Str
from ....tables import DiceNotation, load_data
from .generation import roll_name

SEASONS = Map({
    "source": Field(Str()),
    "poach": Field(Map({"offer_base": Field(Int(min=0, max=100)), "offer_per_level": Field(Int(min=0)),
                        "accept_base": Field(Int(min=0, max=100)), "replacement_die": Field(DiceNotation())}),
                   doc="§4.4 step 10 off-season poaching (designed)."),
    "owner_retirement": Field(Map({"from_age": Field(Int(min=18)), "per_year": Field(Int(min=1, max=100))}),
                              doc="§4.4 step 12 the owner's retirement (designed)."),
})
"""Schema of ``seasons.yaml``."""


def load_seasons(resources: Resources) -> dict[str, Any]:
    """The validated ``seasons.yaml`` (campaign folder first)."""
    table: dict[str, Any] = load_data(resources.table_path("seasons.yaml"), SEASONS)
    return table


def poaching(dice: Dice, key: str, staff: dict[str, Any], affinity: Any, people: Any, names: dict[str, list[str]],
             used: set[str], rules: dict[str, Any]) -> list[dict[str, Any]]:
    """§4.4 step 10 (designed): each staff member may get an outside offer (D100 ≤ base + level × n);
    he takes it on D100 ≤ accept_base + his affinity tier's ``poach`` points, and a newcomer of level
    1D3 with neutral affinity takes the post."""
    p = rules["poach"]
    out = []
    for role in list(staff):
        member = staff[role]
        offer_at = p["offer_base"] + p["offer_per_level"] * member.level
        offer = dice.roll(f"{key}/{role}", "D100", f"{member.name}收到挖角邀约")
        rec: dict[str, Any] = {"role": role, "name": member.name, "level": member.level, "offer_roll": offer.to_json(),
                               "offer_at": offer_at, "offer": offer.total <= offer_at}
        if rec["offer"]:
            tier = people.affinity_tier(affinity.get(role, "to_owner"))
            accept_at = max(0, min(100, p["accept_base"] + tier.params["poach"]))
            accept = dice.roll(f"{key}/{role}", "D100", f"{member.name}是否接受")
            rec.update(accept_roll=accept.to_json(), accept_at=accept_at, tier=tier.params["name"],
                       poach=tier.params["poach"], left=accept.total <= accept_at)
            if rec["left"]:
                level = dice.roll(f"{key}/{role}", p["replacement_die"], "继任者等级")
                name = roll_name(dice, f"{key}/{role}/name", names, used)
                staff[role] = replace(member, name=name, level=level.total)
                affinity.bonds[role] = type(affinity.bonds[role])(50, 50)
                rec.update(successor=name, successor_level=level.total, level_roll=level.to_json())
        out.append(rec)
    return out


def owner_retirement(dice: Dice, key: str, owner: Any, rules: dict[str, Any]) -> dict[str, Any]:
    """§4.4 step 12 (designed): the owner grows a year older; from ``from_age`` he retires on
    D100 ≤ (age − from_age + 1) × per_year, and the story ends.

    >>> from types import SimpleNamespace as NS
    >>> d = Dice(1); d.fix(30)
    >>> r = owner_retirement(d, "k", NS(age=72), {"owner_retirement": {"from_age": 70, "per_year": 10}})
    >>> (r["age"], r["chance"], r["retires"])
    (73, 40, True)
    """
    rule = rules["owner_retirement"]
    owner.age += 1
    rec: dict[str, Any] = {"age": owner.age, "chance": 0, "roll": None, "retires": False}
    if owner.age >= rule["from_age"]:
        chance = min(100, (owner.age - rule["from_age"] + 1) * rule["per_year"])
        roll = dice.roll(key, "D100", "老板退休判定")
        rec.update(chance=chance, roll=roll.to_json(), retires=roll.total <= chance)
    return rec


__all__ = ["SEASONS", "load_seasons", "poaching", "owner_retirement"]
