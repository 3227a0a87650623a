"""BALL's chapter story as data (issue 27): each turn one beat — who moved and what each action did — then the
title's event and the look ahead, each a kind and its facts, phrased by ``templates/ball/phrases.yaml``
(``bs_<kind>``, walked in order by the beat's place ``n`` among its kind in the game). Never prose here, never a
decision: every fact is read from the chapter's turn records (DESIGN §12).

>>> clause({"kind": "move", "label": "X5", "from": "G5", "to": "F6", "had_ball": True, "pickup": False,
...         "effects": []}, "ATK")
{'kind': 'carry', 'facts': {'who': 'X5', 'frm': 'G5', 'to': 'F6', 'rows': 1}}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .board import label

Record = dict[str, Any]

_PASSES = {"handoff": "handoff", "short_pass": "short_pass", "long_pass": "long_pass"}


def _row(square: str) -> int:
    """The row of ``G5``: 5."""
    return int(square[1:])


def forward(side: str, frm: str, to: str) -> int:
    """Rows ``side`` gained moving from ``frm`` to ``to`` (ATK attacks upwards, DEF downwards; 003 §3, designed)."""
    step = _row(to) - _row(frm)
    return step if side == "ATK" else -step


def clause(a: Mapping[str, Any], side: str) -> Record:
    """One action or recovery task of ``side`` as a clause kind and its facts."""
    kind, who, victim = a["kind"], a.get("label"), a.get("target_label")
    frm, to = a.get("from"), a.get("to")
    if kind == "move":
        rows = forward(side, str(frm), str(to))
        name = ("carry" if rows > 0 else "carry_back") if a["had_ball"] else "pickup" if a["pickup"] else \
            "move_up" if rows > 0 else "move_back" if rows < 0 else "move_across"
        return {"kind": name, "facts": {"who": who, "frm": frm, "to": to, "rows": abs(rows)}}
    if kind == "dodge":
        return {"kind": "dodge_steal" if a["target_had_ball"] else "dodge",
                "facts": {"who": who, "victim": victim, "to": to, "land": a.get("land")}}
    if kind == "tactical_dodge":
        return {"kind": "tdodge_loose" if a.get("ball_to") else "tdodge",
                "facts": {"who": who, "victim": victim, "to": to, "push": a.get("push_to"), "ball": a.get("ball_to")}}
    if kind in ("block", "protect"):
        return {"kind": "block_ball" if kind == "block" and a["target_had_ball"] else kind,
                "facts": {"who": who, "victim": victim, "to": to}}
    if kind in _PASSES:
        return {"kind": _PASSES[kind], "facts": {"who": who, "mate": victim, "ball": a.get("ball_to")}}
    if kind == "card":
        return {"kind": "card", "facts": {"who": who or side, "card": a.get("card_name")}}
    if kind == "convert_pe":
        return {"kind": "convert", "facts": {"n": a.get("pa")}}
    if kind == "release":
        return {"kind": "release", "facts": {"who": who, "under": victim, "to": to, "push": a.get("push_to")}}
    return {"kind": "stand_up", "facts": {"who": who, "to": to}}


def _lead(t: Mapping[str, Any], readers: str) -> str:
    """Who moved: the readers by their vote, the AI standing in for them, or the AI's own side."""
    if t["side"] != readers:
        return "lead_ai"
    return "lead_voted" if t["coach"] == "readers" else "lead_stand_in"


def _holder(position: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The piece holding the ball in a POSITION (None: the ball is free)."""
    return next((p for p in position["pieces"] if p["ball"]), None)


def rows_to_go(side: str, square: str, zones: Mapping[str, Sequence[int]]) -> int:
    """Rows between ``square`` and the nearer row of ``side``'s scoring end zone (0: in it)."""
    return min(abs(_row(square) - r) for r in zones[side])


def event(turns: Sequence[Mapping[str, Any]], end: Mapping[str, Any] | None, readers: str) -> str:
    """The chapter's headline event: a touchdown, the limit, the ball won, picked up or knocked loose, a knock-down,
    a pass, the carrier's advance, or plain manoeuvring (``trade``: both sides won the ball) — each read from the actions' effects."""
    if end:
        if end["how"] == "touchdown":
            return "td_ours" if end["winner"] == readers else "td_theirs"
        return "limit"
    holder = _holder(turns[0]["before"])
    side = holder["side"] if holder else None
    found: list[str] = []
    for t in turns:
        whose = "ours" if t["side"] == readers else "theirs"
        for a in t["actions"]:
            for e in a["effects"]:
                if e["kind"] == "ball":
                    new = e["piece"].split("-")[0]
                    if new != side:
                        found.append(("steal_" if side else "pickup_") + whose)
                    side = new
                elif e["kind"] == "free_ball":
                    if a["kind"] not in _PASSES:  # a pass leaves the ball free on purpose
                        found.append("loose_" + whose)
                    side = None
                elif e["kind"] == "state" and e["state"] == "down" and e["piece"].split("-")[0] != t["side"]:
                    found.append("knock_" + whose)
            if a["kind"] in _PASSES:
                found.append("pass_" + whose)
            if a["kind"] == "move" and a["had_ball"] and forward(t["side"], a["from"], a["to"]) > 0:
                found.append("carry_" + whose)
    if "steal_ours" in found and "steal_theirs" in found:
        return "trade"
    order = ("steal", "loose", "pickup", "knock", "pass", "carry")
    for head in order:
        for f in found:
            if f.startswith(head):
                return f
    return "plain"


def ahead(after: Mapping[str, Any], readers: str, zones: Mapping[str, Sequence[int]]) -> Record:
    """The look ahead: who holds the ball before the next vote and how far it is from either end zone."""
    holder = _holder(after)
    if holder is None:
        return {"kind": "ahead_free", "facts": {"square": after["free_ball"]}}
    return {"kind": "ahead_ours" if holder["side"] == readers else "ahead_theirs",
            "facts": {"who": label(holder["id"]), "square": holder["square"],
                      "rows": rows_to_go(holder["side"], holder["square"], zones)}}


def _place(b: Record, told: dict[str, int]) -> Record:
    """``b`` with ``n``, its place among the beats of its kind told so far in the game (``told`` updated)."""
    b["n"] = told.get(b["kind"], 0)
    told[b["kind"]] = b["n"] + 1
    return b


def chapter_story(rec: Mapping[str, Any], told: dict[str, int]) -> Record:
    """The chapter's title event, turn beats and look ahead, each with its place (``told``: the game's counts)."""
    readers, zones, turns = rec["readers"], rec["end_zones"], rec["turns"]
    beats = []
    for t in turns:
        clauses = [_place(clause(a, t["side"]), told) for a in t["actions"] + t["recovery"]]
        if not t["actions"]:
            clauses.insert(0, _place({"kind": "idle", "facts": {}}, told))
        beats.append(_place({"kind": _lead(t, readers), "facts": {"turn": t["n"]}, "clauses": clauses}, told))
        scorer = next((a["label"] for a in t["actions"] if any(e["kind"] == "touchdown" for e in a["effects"])), None)
        if scorer:
            kind = "touchdown_ours" if t["touchdown"] == readers else "touchdown_theirs"
            beats.append(_place({"kind": kind, "facts": {"who": scorer, "side": t["touchdown"]}}, told))
    look = _place(ahead(turns[-1]["after"], readers, zones), told) if rec.get("vote") else None
    down = None
    if look:
        look["facts"]["next"] = rec["part"] + 1
        mine = [label(p["id"]) for p in turns[-1]["after"]["pieces"] if p["side"] == readers and p["state"] == "down"]
        if mine:  # 003 §10: a piece down cannot act; the recovery phase must stand it up
            down = _place({"kind": "down_ours", "facts": {"who": "、".join(mine), "count": len(mine)}}, told)
    title = _place({"kind": "title_" + event(turns, rec.get("end"), readers)}, told)
    return {"title": title, "beats": beats, "ahead": look, "down": down}


__all__ = ["ahead", "chapter_story", "clause", "event", "forward", "rows_to_go"]
