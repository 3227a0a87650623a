"""A half told as drives (issue 27): each kick-off opens a drive; in it the turns that changed something (the ball
won or lost, a casualty, a touchdown, a sending-off, a long run) are plays, and every run of turns in between is one
quiet line (how many blocks, who fell, who held the ball). Each item is a kind and its facts, with ``n``, its place
among the items of its kind told so far in the season, so ``phrase_nth('bb_' ~ kind, n, ...)`` walks the phrase
bank in order (``templates/bloodbowl/phrases.yaml``). Never prose here, never a decision: every fact is read from
the (veiled) turn records and :func:`.story.turn_story`.

>>> beat_key({"kind": "carrier_hit", "stripped": True, "ours": False})
'bb_strip_theirs'
>>> f = quiet_facts([{"turn": 3, "turnover": None, "actions": []}], [{"ball": None, "ours": True}])
>>> (f["first"], f["last"], f["blocks"], "carrier" in f)
(3, 3, 0, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Record = dict[str, Any]

PLAYS = ("td", "death", "cas", "carrier_hit", "sent_off", "pickup_fail", "fall", "pickup", "run", "catch")
"""The beats that make a turn a play (in this order of weight); a turn with none of them is quiet."""
MAX_BEATS = 2
"""Beats told of one play (the rest stay in the turn's fold of dice)."""


def beat_key(b: Mapping[str, Any]) -> str:
    """The phrase bank of beat ``b``."""
    side = "ours" if b.get("ours") else "theirs"
    k = b["kind"]
    if k in ("cas", "death") and b.get("self_hurt"):
        return f"bb_{k}_self"
    if k == "carrier_hit":
        return f"bb_strip_{side}"
    if k == "fall":
        return f"bb_fall_{'carrier' if b.get('carrier') else 'player'}_{side}"
    if k in ("sent_off", "catch"):
        return f"bb_{k}"
    return f"bb_{k}_{side}"


def _is_play(b: Mapping[str, Any]) -> bool:
    """Whether beat ``b`` makes its turn a play (a carrier knocked over but still holding the ball does not)."""
    if b["kind"] == "carrier_hit":
        return bool(b.get("stripped"))
    return b["kind"] in PLAYS


def quiet_facts(turns: Sequence[Mapping[str, Any]], stories: Sequence[Mapping[str, Any]]) -> Record:
    """The facts of a run of quiet team turns: the span, the blocks thrown, the players knocked down, the broken
    armour, the turnovers, and the ball at the run's end (who holds it, or loose)."""
    blocks = downs = broken = 0
    for t in turns:
        for a in t.get("actions", []):
            for r in a.get("rolls", []):
                if r.get("kind") == "block":
                    blocks += 1
                    downs += r.get("chosen") in ("defender_down", "defender_stumbles", "both_down")
                elif r.get("kind") == "armour" and r.get("success"):
                    broken += 1
    numbers = sorted({int(t["turn"]) for t in turns})
    ball = stories[-1].get("ball")
    facts: Record = {"first": numbers[0], "last": numbers[-1], "blocks": blocks, "downs": downs, "broken": broken,
                     "turnovers": sum(1 for t in turns if t.get("turnover")), "teams": sorted({str(t.get("team", ""))
                                                                                             for t in turns})}
    if ball:
        facts.update(carrier=ball["carrier"], carrier_ours=ball["ours"], pos=ball["pos"])
    return facts


def _quiet_kind(f: Mapping[str, Any]) -> str:
    ball = "loose" if "carrier" not in f else ("ours" if f["carrier_ours"] else "theirs")
    return f"quiet_{ball}_{'scuffle' if f['blocks'] else 'calm'}"


def half_drives(record: Mapping[str, Any], stories: Sequence[Mapping[str, Any]], told: dict[str, int]) -> list[Record]:
    """The half's drives: ``{kick, items}`` with ``kick`` the index of its kick-off (None: the half began without
    one in this record) and ``items`` its plays and quiet runs in order; ``told`` (the season's counts) updated."""
    turns = record.get("turns", [])
    kicks = len(record.get("kickoffs", []))
    out: list[Record] = [{"kick": 0 if kicks else None, "items": []}]
    quiet: list[int] = []

    def flush() -> None:
        if quiet:
            f = quiet_facts([turns[i] for i in quiet], [stories[i] for i in quiet])
            out[-1]["items"].append(place({"kind": _quiet_kind(f), "facts": f}, told))
            quiet.clear()

    for i, (t, s) in enumerate(zip(turns, stories, strict=False)):
        plays = [b for b in s["beats"] if _is_play(b)]
        if not plays:
            quiet.append(i)
        else:
            flush()
            plays.sort(key=lambda b: PLAYS.index(b["kind"]))
            chosen = sorted(plays[:MAX_BEATS], key=lambda b: int(b["action_index"]))
            beats = [place({"kind": beat_key(b)[3:], "facts": dict(b)}, told) for b in chosen]
            facts = {"turn": int(t["turn"]), "team": t.get("team"), "ours": s["ours"],
                     "score": list(t.get("score") or [0, 0]), "scorer": s.get("scorer")}
            out[-1]["items"].append(place({"kind": "play_" + ("td" if s.get("scorer") else "lead"),
                                           "facts": facts, "beats": beats}, told))
        if t.get("turnover") == "touchdown" and len(out) < kicks:
            flush()
            out.append({"kick": len(out), "items": []})
    flush()
    return out


def place(item: Record, told: dict[str, int]) -> Record:
    """``item`` with ``n``, its place among the items of its kind told so far in the season (``told`` updated)."""
    item["n"] = told.get(item["kind"], 0)
    told[item["kind"]] = item["n"] + 1
    return item


__all__ = ["MAX_BEATS", "PLAYS", "beat_key", "half_drives", "place", "quiet_facts"]
