"""接战 between battles (002 §3.3, design engage.md §1.1): the host heals, forms a 伤员队 and recruits, by the
campaign's ``between: {b2: {heal: {游侠: 3}, wounded_unit: {from: [矛手], name: 伤员队}, recruit: {游侠: 5}}}``,
applied to the cards the last battle left at the next battle's start, in that order.

* ``heal``: wounded men back to the ranks (by 巨魔活力, rest, a healer — the host's call), at most the wounded.
* ``wounded_unit``: the wounded of the listed units formed into a unit of their own (§3.3 "伤员队"): they fight
  two training levels lower (a 受训 unit's wounded cannot fight at all, so they cannot join); the new unit's training
  is the 75 % majority's, else the lowest (E4); DESIGNED: it carries the first unit's weapons and armour, no
  shield, tactics, traits or commander, 松散·纵深·静止, in the first unit's zone; a battle lists it to field it.
* ``recruit``: new men join a unit (a destroyed one too), at its training.

>>> cards = {"矛手": {"id": "矛手", "side": "边防军", "men": 15, "wounded": 4, "dead": 1, "training": "老兵",
...                   "weapons": [], "armour": {"kind": "重甲", "traits": []}, "zone": "北林"}}
>>> done = apply(cards, {"heal": {"矛手": 1}, "wounded_unit": {"from": ["矛手"], "name": "伤员队"}, "recruit": {}}, 2)
>>> [d["kind"] for d in done], cards["矛手"]["men"], cards["矛手"]["wounded"], cards["伤员队"]["training"]
(['heal', 'wounded_unit'], 16, 0, '未受训')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .units import mixed_training, wounded_training

Record = dict[str, Any]


class BetweenError(ValueError):
    """A ``between`` entry that cannot be applied: its campaign key and the message."""

    def __init__(self, where: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.where, self.message = where, message


def _card(cards: Mapping[str, Record], uid: str, where: tuple[str | int, ...]) -> Record:
    if uid not in cards:
        raise BetweenError(where, f"没有部队「{uid}」（有：{'、'.join(sorted(cards))}）")
    return cards[uid]


def apply(cards: dict[str, Record], spec: Mapping[str, Any], arc: int) -> list[Record]:
    """``spec`` (one battle's ``between`` entry) applied to ``cards`` (id → card, changed in place) before battle
    ``arc``: what was done, in order."""
    at: tuple[str | int, ...] = ("between", f"b{arc}")
    done: list[Record] = []
    for uid, n in spec.get("heal", {}).items():
        c = _card(cards, uid, (*at, "heal", uid))
        if n > c.get("wounded", 0):
            raise BetweenError((*at, "heal", uid), f"{uid}只有 {c.get('wounded', 0)} 名伤员，治不好 {n} 人")
        c["men"], c["wounded"] = c["men"] + n, c["wounded"] - n
        done.append({"kind": "heal", "unit": uid, "n": n, "men": c["men"], "wounded": c["wounded"]})
    if spec.get("wounded_unit"):
        done.append(_wounded_unit(cards, spec["wounded_unit"], (*at, "wounded_unit")))
    for uid, n in spec.get("recruit", {}).items():
        c = _card(cards, uid, (*at, "recruit", uid))
        c["men"] += n
        done.append({"kind": "recruit", "unit": uid, "n": n, "men": c["men"]})
    return done


def _wounded_unit(cards: dict[str, Record], w: Mapping[str, Any], at: tuple[str | int, ...]) -> Record:
    """§3.3: the 伤员队 formed from the listed units' wounded."""
    uid = w.get("id") or w["name"]
    if uid in cards:
        raise BetweenError((*at, "id"), f"已经有一支部队叫「{uid}」，伤员队换个 id")
    by_training: dict[str, int] = {}
    taken: dict[str, int] = {}
    sources = [_card(cards, x, (*at, "from")) for x in w["from"]]
    for c in sources:
        if c.get("wounded", 0) <= 0:
            raise BetweenError((*at, "from"), f"{c['id']}没有伤员")
        lower = wounded_training(c["training"])
        if lower is None:  # 002 §3.3: two levels lower than 未受训 — they cannot fight
            raise BetweenError((*at, "from"), f"{c['id']}是{c['training']}：伤员降两级后低于未受训，不能参战（002 §3.3）")
        if c["side"] != sources[0]["side"]:
            raise BetweenError((*at, "from"), f"{c['id']}与{sources[0]['id']}不是同一方")
        by_training[lower] = by_training.get(lower, 0) + c["wounded"]
        taken[c["id"]] = c["wounded"]
        c["wounded"] = 0
    first = sources[0]
    training = mixed_training(by_training)
    cards[uid] = {"id": uid, "side": first["side"], "name": w["name"], "men": sum(taken.values()), "wounded": 0,
                  "dead": 0, "training": training, "commander": False, "tactics": [], "traits": [],
                  "weapons": [dict(x) for x in first.get("weapons", [])],
                  "armour": dict(first.get("armour") or {"kind": "none", "traits": []}),
                  "formation": {"density": "松散", "shape": "纵深", "move": "静止"}, "zone": first.get("zone")}
    return {"kind": "wounded_unit", "unit": uid, "name": w["name"], "from": taken, "training": training,
            "men": sum(taken.values())}


def created(data: Mapping[str, Any], arc: int) -> set[str]:
    """The ids the ``between`` entries up to battle ``arc`` create (their first appearance needs no card)."""
    return {str(v["wounded_unit"].get("id") or v["wounded_unit"]["name"]) for k, v in data.get("between", {}).items()
            if v.get("wounded_unit") and int(k[1:]) <= arc}


__all__ = ["BetweenError", "apply", "created"]
