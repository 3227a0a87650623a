"""接战's round as a story (issue 27; design engage.md §1.1 "the situation first"): each unit's
order and what came of it (who charged whom, who closed, who broke off), each fight's losses, which formation broke
or whose morale went, who was lost, and the look ahead to the next vote — each a beat kind and its facts, phrased by
``templates/engage/phrases.yaml`` (``eg_<kind>``, walked in order by the beat's place ``n`` among its kind in the
battle). Never prose here, never a decision: every fact is read from the round's record (§1.7).

>>> order_beat({"unit": "游侠", "by": "readers", "turn": "main", "kind": "冲锋", "target": "巨魔"},
...            {"游侠": "边防军"}, "边防军", {"游侠": {"closed": True, "distance_after": 0}}, {}, {})
{'kind': 'charge_hit', 'facts': {'unit': '游侠', 'target': '巨魔', 'dist': '近战'}, 'lead': 'lead_ours'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Record = dict[str, Any]

DISTANCES = ("近战", "短距", "中距", "长距")
"""002 §4.2's distance bands by index (0: engaged)."""
_PLAIN = {"移动": "move", "固守": "hold", "举盾": "shield", "撤退": "retreat", "行动": "act", "变阵": "formation",
          "射击": "shoot", "攻击": "attack"}
_BROKE = {"松散": "broke_loose", "展开": "broke_wide", "wavering": "waver", "routed": "rout"}
_LOST = {"destroyed": "destroyed", "routed": "routed", "retreated": "retreated"}


def _formation(u: Mapping[str, Any] | None) -> str:
    """``紧密·纵深`` of a unit record (empty without one)."""
    f = (u or {}).get("formation") or {}
    return "·".join(x for x in (f.get("density"), f.get("shape")) if x)


def order_beat(o: Mapping[str, Any], sides: Mapping[str, str], readers: str, closing: Mapping[str, Mapping[str, Any]],
               leaving: Mapping[str, Mapping[str, Any]], after: Mapping[str, Mapping[str, Any]]) -> Record:
    """One unit's order and what came of it; ``lead``: who gave it (our vote, the AI for us, the enemy, a
    response)."""
    uid, kind = o["unit"], o["kind"]
    facts: Record = {"unit": uid, "target": o.get("target")}
    c = closing.get(uid)
    if kind in ("冲锋", "接近", "攻击") and c is not None:  # an attack from afar closes first (002 §4.3)
        name = ("charge_" if kind == "冲锋" else "close_") + ("hit" if c["closed"] else "short")
        facts["dist"] = DISTANCES[min(3, int(c["distance_after"]))]
    elif kind == "脱离":
        d = leaving.get(uid)
        name = "disengage_ok" if d is None or d["success"] else "disengage_fail"
        facts["target"] = d["from"] if d else o.get("target")
    elif kind in _PLAIN:
        name = _PLAIN[kind]
        facts["formation"] = _formation(after.get(uid))
        facts["text"] = o.get("text")
    else:
        name = "wait"
    if o.get("turn") == "response":
        lead = "lead_response"
        facts["trigger"] = o.get("trigger")
    elif sides.get(uid) != readers:
        lead = "lead_theirs"
    else:
        lead = "lead_ours" if o.get("by") == "readers" else "lead_stand_in"
    return {"kind": name, "facts": facts, "lead": lead}


def fight_beats(engagements: Sequence[Mapping[str, Any]]) -> list[Record]:
    """Each fight's losses: two units at blades' length told together, a volley or a one-sided blow alone."""
    out: list[Record] = []
    told: set[int] = set()  # by place: a unit may shoot, then fight the same enemy hand to hand
    for i, e in enumerate(engagements):
        if i in told:
            continue
        told.add(i)
        j = next((j for j, x in enumerate(engagements) if j not in told and e["mode"] == x["mode"] == "白刃"
                  and (x["attacker"], x["defender"]) == (e["defender"], e["attacker"])), None)
        if j is not None:
            back = engagements[j]
            told.add(j)
            out.append({"kind": "melee_pair", "facts": {"a": e["attacker"], "b": e["defender"], "phase": e["phase"],
                                                         "a_lost": back["casualties"], "b_lost": e["casualties"]}})
            continue
        shot = e["mode"] != "白刃"
        kind = ("shot" if shot else "blow") + ("" if e["casualties"] else "_miss")
        out.append({"kind": kind, "facts": {"att": e["attacker"], "def": e["defender"], "lost": e["casualties"],
                                            "phase": e["phase"], "weapon": e.get("weapon")}})
    return out


def round_beats(rec: Mapping[str, Any]) -> list[Record]:
    """The round's beats in the order they happened, without their places."""
    readers = rec["readers"]
    units = {u["id"]: u for u in rec["units"]}
    after = {u["id"]: u for u in rec["after"]}
    sides = {uid: u["side"] for uid, u in after.items()}
    out: list[Record] = []
    closing: dict[str, Mapping[str, Any]] = {}
    for c in rec["closings"]:
        closing.setdefault(c["unit"], c)
    leaving = {d["unit"]: d for d in rec["disengage"]}
    out += [order_beat(o, sides, readers, closing, leaving, after) for o in rec["orders"]]
    out += fight_beats(rec["engagements"])
    for c in rec["checks"]:
        effect = c.get("effect")
        if effect in _BROKE and c["kind"] != "action" and not (effect == "routed" and after[c["unit"]]["lost"]):
            out.append({"kind": _BROKE[effect], "facts": {"unit": c["unit"]}})
    for uid, u in after.items():
        if u["lost"] and uid in units:
            out.append({"kind": _LOST[u["lost"]], "facts": {"unit": uid, "ours": u["side"] == readers}})
    return out


def ahead(rec: Mapping[str, Any]) -> Record:
    """The look ahead before the next vote: who of ours is locked in a fight, and what the enemy has left."""
    readers = rec["readers"]
    alive = [u for u in rec["after"] if not u["lost"]]
    ours = "、".join(f"{u['id']} {u['men']} 人" for u in alive if u["side"] == readers)
    foes = "、".join(f"{u['id']} {u['men']} 人" for u in alive if u["side"] != readers)
    fights = "、".join(f"{u['id']}与{'、'.join(u['engaged_with'])}" for u in alive
                       if u["side"] == readers and u["engaged_with"])
    return {"kind": "ahead_locked" if fights else "ahead_open",
            "facts": {"next": rec["round"] + 1, "ours": ours, "foes": foes or "无", "fights": fights}}


def _place(b: Record, told: dict[str, int], key: str) -> Record:
    """``b`` with ``n``, its place among the ``key`` beats told so far in the battle (``told`` updated)."""
    b["n"] = told.get(key, 0)
    told[key] = b["n"] + 1
    return b


def round_story(rec: Mapping[str, Any], told: dict[str, int]) -> Record:
    """The round's beats and the look ahead, each with its place (``told``: the battle's counts); an order's
    lead is counted apart (``lead_n``), so a lead and a clause walk their banks apart."""
    beats = []
    for b in round_beats(rec):
        _place(b, told, b["kind"])
        if "lead" in b:
            b["lead_n"] = told.get(b["lead"], 0)
            told[b["lead"]] = b["lead_n"] + 1
        beats.append(b)
    look = _place(ahead(rec), told, "ahead") if rec.get("vote") else None
    return {"beats": beats, "ahead": look}


__all__ = ["DISTANCES", "ahead", "fight_beats", "order_beat", "round_beats", "round_story"]
