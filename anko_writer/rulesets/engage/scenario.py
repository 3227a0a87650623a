"""接战's campaign file (design engage.md §1.2): its schema, and a battle built from it and the state the last
battle left (men, wounded, dead, equipment, ammunition carried by unit id).

A unit appears in full the first time; in a later battle its card comes from the state file (which the host may
edit: recruits, healing, a 伤员队), and the battle's entry only places it (``{id, zone, formation}``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...ballot import DEADLINE
from ...ruleset import CAMPAIGN_FIELDS
from ...schema import Bool, Check, Data, DictOf, Enum, Field, Int, List, Map, Name, Node, Problem, Str
from .between import created
from .cardtext import CardError, parse_card
from .equipment import THROWN_ROUNDS
from .formation import Formation, problems
from .movement import DISTANCES
from .phases import MAX_ROUNDS, RESPONSE_PASSES
from .units import HIDDEN_FIELDS, MAX_MEN, TRAINING, Armour, Mount, Shield, Weapon, card_problems, parse_tactic

VOTE_KEY = r"b([1-9])r([0-9]{2})"
"""A vote's key: ``b1r02`` (battle 1, round 2)."""
CARD_KEYS = ("name", "side", "men", "training")
"""What a unit's first appearance must give."""

WEAPON = Map({"name": Field(Name()), "traits": Field(List(Str()), default=[]),
              "range": Field(Enum(["近战", "短距", "中距", "远距"]), default="近战"),
              "modes": Field(List(Enum(["白刃", "平射", "抛射"]), min_len=1), default=["白刃"])})
FORMATION = Map({"density": Field(Enum(["紧密", "松散"]), default="松散"),
                 "shape": Field(Enum(["纵深", "稳固", "展开", "行军"]), default="纵深"),
                 "move": Field(Enum(["静止", "半速", "全速"]), default="静止")})
UNIT = Map({
    "id": Field(Name(), doc="The unit's id (its name in votes)."),
    "side": Field(Name(), required=False), "name": Field(Str(), required=False),
    "men": Field(Int(min=1, max=MAX_MEN), required=False, doc="E1: 1–600 men."),
    "wounded": Field(Int(min=0), default=0, doc="Wounded men who do not fight (§3.3)."),
    "dead": Field(Int(min=0), default=0),
    "training": Field(Enum(list(TRAINING)), required=False),
    "commander": Field(Bool(), default=False, doc="E5: a 受训 unit without one only defends."),
    "tactics": Field(List(Str()), default=[], doc="E5b: 快速阵型(紧密) …"),
    "traits": Field(List(Str()), default=[]),
    "weapons": Field(List(WEAPON), default=[]),
    "armour": Field(Map({"kind": Field(Enum(["none", "轻甲", "重甲", "高级重甲"]), default="none"),
                         "traits": Field(List(Str()), default=[])}), required=False),
    "shield": Field(Map({"name": Field(Name()), "traits": Field(List(Str()), default=[])}), required=False),
    "mount": Field(Map({"kind": Field(Enum(["马匹", "陆行鸟", "魔泉豹", "龙鹰"])),
                        "armour": Field(Bool(), default=False)}), required=False),
    "ammo": Field(Int(min=0), required=False, doc="§5.1.2 投掷: rounds of throwing weapons (default 2)."),
    "formation": Field(FORMATION, required=False),
    "zone": Field(Name()),
    "card": Field(Str(), required=False, doc="002 §2.6: the unit card in the seed's own format (:mod:`.cardtext`), "
                  "instead of name, men, training, commander, tactics, traits, weapons, armour, shield and mount."),
    "hidden": Field(Bool(), default=False, doc="§1.6: a hidden deployment (an AI unit), sealed until it springs."),
    "card_hidden": Field(List(Enum(list(HIDDEN_FIELDS))), default=[],
                         doc="§1.6: the card fields the readers do not know yet (an AI unit), sealed until used."),
})
ZONE = Map({"id": Field(Name()), "name": Field(Str(), required=False), "complex": Field(Bool(), default=False),
            "cover": Field(DictOf(Enum(["平射", "抛射", "白刃"]), Int(min=0, max=4)), default={}),
            "obstacle": Field(Int(min=0, max=3), default=0)})
DM = Map({"unit": Field(Name()), "vs": Field(Name(), required=False),
          "kind": Field(Enum(["attack", "defence", "dice", "action"]), default="defence"),
          "n": Field(Int(min=-9, max=9)), "reason": Field(Str())})
AI = Map({"posture": Field(Enum(["attack", "hold", "defend"]), default="attack")})
BATTLE = Map({
    "name": Field(Str()),
    "zones": Field(List(ZONE, min_len=1)),
    "distances": Field(List(List(Data(), min_len=3, max_len=4)), default=[],
                       doc="[zone, zone, 近战|短距|中距|长距, obstacles?] (002 §4.2)."),
    "units": Field(List(UNIT, min_len=2)),
    "ai": Field(DictOf(Name(), AI), default={}),
    "dm": Field(DictOf(Str(pattern=r"r[0-9]{1,2}", pattern_doc="r<round>, like r2"), List(DM)), default={},
                doc="E6: host judgements by round, each printed with its reason."),
    "prisoners": Field(Bool(), default=False, doc="E11: the victor takes prisoners (else the left wounded die)."),
})
BETWEEN = Map({
    "heal": Field(DictOf(Name(), Int(min=1)), default={}, doc="Wounded men back to the ranks, by unit."),
    "wounded_unit": Field(Map({"from": Field(List(Name(), min_len=1)), "name": Field(Name()),
                               "id": Field(Name(), required=False)}), required=False,
                          doc="§3.3: a 伤员队 formed from these units' wounded."),
    "recruit": Field(DictOf(Name(), Int(min=1)), default={}, doc="New men, by unit."),
})
OPTIONS = {"max_rounds": MAX_ROUNDS, "response_turns": RESPONSE_PASSES, "rounding": "half_up",
           "vote_deadline": DEADLINE}


def _card_problem(data: dict[str, Any]) -> Problem:
    """The first unit card that breaks a rule, or a zone, distance or first appearance that is wrong."""
    seen: set[str] = set()
    for i, b in enumerate(data["battles"]):
        seen |= created(data, i + 1)
        zones = {z["id"] for z in b["zones"]}
        for j, d in enumerate(b["distances"]):
            if len(d) < 3 or d[0] not in zones or d[1] not in zones or d[2] not in DISTANCES or \
                    (len(d) == 4 and not (isinstance(d[3], int) and 0 <= d[3] <= 3)):
                return ("battles", i, "distances", j), f"写作 [区域, 区域, {'|'.join(DISTANCES)}, 障碍数]，区域须在 zones 中"
        ids: set[str] = set()
        for j, entry in enumerate(b["units"]):
            at = ("battles", i, "units", j)
            try:
                u = with_card(entry)
            except CardError as exc:
                return (*at, "card"), f"部队卡{exc}"
            except ValueError as exc:
                return (*at, "card"), str(exc)
            if u["id"] in ids:
                return (*at, "id"), f"{u['id']} 在这一战里列了两次"
            ids.add(u["id"])
            if u["zone"] not in zones:
                return (*at, "zone"), f"没有区域「{u['zone']}」（有：{'、'.join(sorted(zones))}）"
            if u["id"] not in seen:
                missing = [k for k in CARD_KEYS if k not in u]
                if missing:
                    return (*at, missing[0]), f"{u['id']} 第一次出场，要写全部队卡（{'、'.join(CARD_KEYS)}）"
            seen.add(u["id"])
            secret = _secret_problem(u, data["readers"])
            if secret:
                return (*at, secret[0]), secret[1]
            for t in u["tactics"]:
                try:
                    parse_tactic(t)
                except ValueError as exc:
                    return (*at, "tactics"), str(exc)
            card = troop_card(u)
            bad = card_problems(men=u.get("men", 1), traits=tuple(u["traits"]), weapons=card["weapons"],
                                armour=card["armour"], mount=card["mount"])
            bad += problems(card["formation"], mount=card["mount"], traits=tuple(u["traits"]),
                            training=u.get("training", "受训"), commander=u["commander"])
            if bad:
                return (*at, bad[0].field.split(".")[0].split("[")[0]), f"{bad[0].text}（{bad[0].rule}）"
        if data["readers"] not in {u.get("side") for u in b["units"]} and i == 0:
            return ("battles", i, "units"), f"第一战里没有读者一方（{data['readers']}）的部队"
    return None


CARD_FIELDS = ("name", "men", "training", "commander", "tactics", "traits", "weapons", "armour", "shield", "mount")
"""What a ``card:`` text gives (a unit entry with a card writes none of them itself)."""


def with_card(u: Mapping[str, Any]) -> dict[str, Any]:
    """A unit entry with its ``card:`` text read into the card fields (:func:`.cardtext.parse_card`); CardError for
    an unreadable card, ValueError when the entry also writes a field the card gives."""
    if not u.get("card"):
        return dict(u)
    card = parse_card(str(u["card"]))
    both = [k for k in CARD_FIELDS if u.get(k) not in (None, 0, False, [])]
    if both:
        raise ValueError(f"{u['id']} 写了部队卡 card，就不要再写 {both[0]}（卡上的【…】行已经给出）")
    out = {k: v for k, v in u.items() if k != "card"}
    out.update({k: v for k, v in card.items() if v is not None})
    return out


def _secret_problem(u: Mapping[str, Any], readers: str) -> tuple[str, str] | None:
    """§1.6: only the AI's units hide; a hidden deployment seals its whole card already."""
    if not (u["hidden"] or u["card_hidden"]):
        return None
    key = "hidden" if u["hidden"] else "card_hidden"
    if u.get("side") == readers:
        return key, f"{u['id']} 是读者一方的部队：读者知道自己的部队，不能隐藏"
    if u["hidden"] and u["card_hidden"]:
        return "card_hidden", f"{u['id']} 是伏兵（hidden），整张部队卡都已封存，不必再写 card_hidden"
    return None


def troop_card(u: Mapping[str, Any]) -> dict[str, Any]:
    """A unit entry's equipment and formation as the rules' records."""
    a = u.get("armour") or {}
    s, m, f = u.get("shield"), u.get("mount"), u.get("formation") or {}
    return {
        "weapons": tuple(Weapon(w["name"], tuple(w.get("traits", ())), w.get("range", "近战"),
                                tuple(w.get("modes", ["白刃"]))) for w in u.get("weapons", ())),
        "armour": Armour(a.get("kind", "none"), tuple(a.get("traits", ()))),
        "shield": Shield(s["name"], tuple(s.get("traits", ()))) if s else None,
        "mount": Mount(m["kind"], bool(m.get("armour", False))) if m else None,
        "formation": Formation(f.get("density", "松散"), f.get("shape", "纵深"), f.get("move", "静止")),
    }


def merged(u: Mapping[str, Any], carried: Mapping[str, Any] | None) -> dict[str, Any]:
    """A battle's unit entry over the card carried from before (the state file's, or its last appearance): the
    entry's own keys win where it wrote them (the schema's defaults — 0, false, [] — do not count).

    >>> merged({"id": "游侠", "zone": "桥头", "commander": False, "traits": []},
    ...        {"id": "游侠", "men": 22, "commander": True, "traits": ["穿林"], "zone": "北林"})["commander"]
    True
    """
    if not carried:
        return {"ammo": THROWN_ROUNDS, **u}
    base = dict(carried)
    base.update({k: v for k, v in u.items() if v not in (0, False, [], None) or k == "zone"})
    base.setdefault("ammo", THROWN_ROUNDS)
    return base


def campaign_schema(votes: Any = None) -> Node:
    """The campaign file's schema (``votes``: a check replaying the votes, added by the ruleset)."""
    top = Map({
        **CAMPAIGN_FIELDS,
        "ruleset": Field(Enum(["engage"]), doc="The rulebook this campaign plays."),
        "readers": Field(Name(), doc="The side the readers command; every other side is played by the AI."),
        "options": Field(Map({
            "max_rounds": Field(Int(min=1, max=MAX_ROUNDS), default=MAX_ROUNDS, doc="§1.1: rounds at most."),
            "response_turns": Field(Int(min=0, max=5), default=RESPONSE_PASSES, doc="E12: response passes."),
            "rounding": Field(Enum(["half_up", "floor"]), default="half_up", doc="E6: men lost rounded."),
            "vote_deadline": Field(Str(), default=DEADLINE, doc="When a chapter's vote closes."),
        }), default=dict(OPTIONS)),
        "battles": Field(List(BATTLE, min_len=1, max_len=9), doc="The battles (战), one arc each."),
        "between": Field(DictOf(Str(pattern=r"b[2-9]", pattern_doc="b<battle>, like b2"), BETWEEN), default={},
                         doc="002 §3.3: the host's roster changes applied at that battle's start (:mod:`.between`)."),
        "orders": Field(DictOf(Str(pattern=VOTE_KEY, pattern_doc="b<battle>r<round>, like b1r02"),
                               DictOf(Str(), Data())), default={},
                        doc="The readers' votes by round: a unit's id → its order(s); 应对 → response orders."),
    })
    checked = Check(top, _card_problem, doc="Every unit card keeps the rules; zones and distances are known.")
    return checked if votes is None else Check(checked, votes, doc="Every vote is legal where the battle stands.")


__all__ = ["BATTLE", "CARD_FIELDS", "with_card", "OPTIONS", "UNIT", "VOTE_KEY", "campaign_schema", "merged", "troop_card"]
