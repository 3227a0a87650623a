"""接战's unit card in the seed's own format (002 §2.6, design engage.md §1.2): the card text a host copies from
the rulebook, read into the same record as the campaign's YAML fields.

A card is a name line, the 基本资料 lines, and one 详述 line per piece of equipment::

    高等精灵边防军分队
    【部队规模】25人（超小）
    【受训程度】受训，有指挥官
    【部队战术】快速阵型（紧密）
    【部队特性】穿林
    【制式装备】附魔长剑，黑木短弓，精灵重盾，巡守皮甲
    【附魔长剑】附魔长剑适用于近战白刃战，具有“单兵”和“附魔武器”特性。
    …

An equipment line is read as the seed writes it: ``适用于近战白刃战`` / ``适用于短距平射、中距抛射`` make a weapon
(its reach the farthest named); a “quoted” armour kind (“轻甲”, “重甲”, “高级重甲”) makes the armour, its other
quoted traits the armour's; a name with 盾 makes the shield; “坐骑（陆行鸟）” the mount; a name ending in 箭 or 矢
is ammunition, whose traits go to every missile weapon (DESIGNED). 战术详述 and 特性详述 lines and the 储备装备 are
read past. ``，有指挥官`` after the training is DESIGNED (the seed's card does not say; E5 needs it).

>>> card = parse_card("精灵\\n【部队规模】25人（超小）\\n【受训程度】受训\\n【制式装备】长剑，皮甲\\n"
...                   "【长剑】适用于近战白刃战，具有“单兵”特性。\\n【皮甲】具有“轻甲”特性。")
>>> card["men"], card["weapons"][0]["traits"], card["armour"]
(25, ['单兵'], {'kind': '轻甲', 'traits': []})
>>> parse_card("【部队规模】25人（小型）\\n【受训程度】受训")
Traceback (most recent call last):
...
anko_writer.rulesets.engage.cardtext.CardError: 第1行【部队规模】：25人是超小，卡上写的是小型（E1）
"""

from __future__ import annotations

import re
from typing import Any

from .units import MAX_MEN, TRAINING, band, parse_tactic

FIELDS = ("部队规模", "受训程度", "部队战术", "部队特性", "制式装备", "储备装备")
"""The 基本资料 fields, as the seed's card names them."""
REQUIRED = ("部队规模", "受训程度")
"""The fields a card must give."""
HEADERS = frozenset({"基本资料", "战术详述", "特性详述", "装备详述"})
"""Section lines read past."""
ARMOUR_KINDS = ("高级重甲", "重甲", "轻甲")
REACH = {"近战": 0, "短距": 1, "中距": 2, "远距": 3, "长距": 3}
"""A use's distance word and its reach (长距 read as the weapon range 远距)."""
RANGE_OF = {0: "近战", 1: "短距", 2: "中距", 3: "远距"}
_LINE = re.compile(r"^【([^】]+)】\s*(.*?)\s*$")
_SIZE = re.compile(r"^([0-9]+)\s*人\s*[（(]\s*([^，,）)]+)\s*(?:[，,][^）)]*)?[）)]$")
_TRAINING = re.compile(r"^(未受训|受训|老兵|精锐)\s*(?:[，,]\s*(有指挥官))?[。.]?$")
_USE = re.compile(r"(近战|短距|中距|远距|长距)(白刃|平射|抛射)")
_QUOTED = re.compile(r"[“\"「]([^”\"」]+)[”\"」]")
_MOUNT = re.compile(r"^坐骑\s*[（(]\s*(马匹|陆行鸟|魔泉豹|龙鹰)\s*[)）]$")


class CardError(ValueError):
    """A card line that cannot be read: its line in the card (1-based), the card's field and the message."""

    def __init__(self, line: int, field: str, message: str) -> None:
        super().__init__(f"第{line}行【{field}】：{message}")
        self.line, self.field, self.message = line, field, message


def split_list(text: str) -> list[str]:
    """A card list (``，`` or ``、`` between items, none inside brackets), ``无`` as nothing.

    >>> split_list("组合阵型（紧密、纵深），快速阵型（紧密）。")
    ['组合阵型（紧密、纵深）', '快速阵型（紧密）']
    """
    out, cur, depth = [], "", 0
    for c in text.strip().rstrip("。."):
        depth += c in "（(" and 1 or 0
        depth -= c in "）)" and 1 or 0
        if c in "，,、" and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    out.append(cur.strip())
    return [x for x in out if x and x != "无"]


def parse_card(text: str) -> dict[str, Any]:
    """The card's record: ``name`` (its first plain line), ``men``, ``training``, ``commander``, ``tactics``,
    ``traits``, ``weapons``, ``armour``, ``shield``, ``mount`` — the campaign's own field shapes. A CardError names
    the card line and field of the first problem."""
    basics: dict[str, tuple[int, str]] = {}
    details: dict[str, tuple[int, str]] = {}
    name = None
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line in HEADERS:
            continue
        m = _LINE.match(line)
        if m is None:
            if name is not None:
                raise CardError(n, "部队名", f"看不懂这一行「{line[:30]}」（每行写作【字段】内容，只有第一行是部队名）")
            name = line
            continue
        key, value = m[1].strip(), m[2]
        target = basics if key in FIELDS else details
        if key in target:
            raise CardError(n, key, f"【{key}】写了两次（第{target[key][0]}行已有）")
        target[key] = (n, value)
    for key in REQUIRED:
        if key not in basics:
            raise CardError(1, key, f"部队卡缺【{key}】")
    out: dict[str, Any] = {"name": name} if name else {}
    out.update(_size(*basics["部队规模"]), **_training(*basics["受训程度"]))
    out["tactics"] = _tactics(*basics.get("部队战术", (0, "")))
    out["traits"] = split_list(basics.get("部队特性", (0, ""))[1])
    out.update(_equipment(basics.get("制式装备", (1, "")), details, set(out["tactics"]) | set(out["traits"]),
                          set(split_list(basics.get("储备装备", (0, ""))[1]))))
    return out


def _size(n: int, value: str) -> dict[str, Any]:
    m = _SIZE.match(value)
    if m is None:
        raise CardError(n, "部队规模", f"写作「25人（超小）」，卡上是「{value[:30]}」")
    men = int(m[1])
    if not 1 <= men <= MAX_MEN:
        raise CardError(n, "部队规模", f"人数须在 1 到 {MAX_MEN} 之间（E1），卡上是 {men}")
    if band(men) != m[2]:
        raise CardError(n, "部队规模", f"{men}人是{band(men)}，卡上写的是{m[2]}（E1）")
    return {"men": men}


def _training(n: int, value: str) -> dict[str, Any]:
    m = _TRAINING.match(value.strip())
    if m is None:
        raise CardError(n, "受训程度", f"写作{'、'.join(TRAINING)}之一（可加「，有指挥官」），卡上是「{value[:30]}」")
    return {"training": m[1], "commander": m[2] is not None}


def _tactics(n: int, value: str) -> list[str]:
    out = []
    for x in split_list(value):
        try:
            parse_tactic(x)
        except ValueError:
            raise CardError(n, "部队战术", f"看不懂战术「{x}」（写作「快速阵型（紧密）」之类）") from None
        out.append(x.replace("（", "(").replace("）", ")"))
    return out


def _equipment(listed: tuple[int, str], details: dict[str, tuple[int, str]], described: set[str],
               reserve: set[str]) -> dict[str, Any]:
    """The 制式装备 items read from their 详述 lines; every other 详述 line must describe a tactic, a trait or a
    piece of reserve equipment."""
    at, items = listed[0], split_list(listed[1])
    bare = {x.split("(")[0].split("（")[0] for x in described}
    for key, (n, _) in details.items():
        if key not in items and key not in described and key not in bare and key not in reserve:
            raise CardError(n, key, f"【{key}】不在【制式装备】里，也不是这张卡的战术、特性或储备装备")
    out: dict[str, Any] = {"weapons": [], "armour": {"kind": "none", "traits": []}, "shield": None, "mount": None}
    ammo: list[str] = []
    for item in items:
        if item not in details:
            raise CardError(at, "制式装备", f"「{item}」没有装备详述行（写一行【{item}】…适用于近战白刃战，具有“…”特性）")
        n, text = details[item]
        _item(out, ammo, item, n, text)
    for w in out["weapons"]:
        if any(m != "白刃" for m in w["modes"]):
            w["traits"] += [t for t in ammo if t not in w["traits"]]
    return out


def _item(out: dict[str, Any], ammo: list[str], item: str, n: int, text: str) -> None:
    """One piece of equipment from its 详述 line, into ``out``."""
    traits = _QUOTED.findall(text)
    uses = _USE.findall(text)
    kinds = [k for k in ARMOUR_KINDS if k in traits]
    mounts = [m[1] for t in traits if (m := _MOUNT.match(t))]
    if uses:
        reach = max(REACH[d] for d, _ in uses)
        modes = list(dict.fromkeys(m for _, m in uses))
        out["weapons"].append({"name": item, "traits": traits, "range": RANGE_OF[reach], "modes": modes})
    elif kinds:
        if out["armour"]["kind"] != "none":
            raise CardError(n, item, "一张卡只能有一件护甲")
        out["armour"] = {"kind": kinds[0], "traits": [t for t in traits if t not in ARMOUR_KINDS]}
    elif mounts:
        out["mount"] = {"kind": mounts[0], "armour": "坐骑重甲" in traits}
    elif "盾" in item:
        if out["shield"] is not None:
            raise CardError(n, item, "一张卡只能有一面盾牌")
        out["shield"] = {"name": item, "traits": traits}
    elif item.endswith(("箭", "矢")):
        ammo += traits
    else:
        raise CardError(n, item, f"看不出「{item}」是武器、护甲、盾牌、坐骑还是箭矢（写“适用于近战白刃战”或"
                                 f"“具有“轻甲”特性”）")


__all__ = ["FIELDS", "REQUIRED", "CardError", "parse_card", "split_list"]
