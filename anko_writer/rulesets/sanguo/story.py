"""三国's chapter story as data (design sanguo.md §1.1 "the situation first"): the beats a readers' chapter tells —
attacks, sightings, contact lost, captures, interrupts, hunger — each a kind and its facts, phrased by the
templates' phrase bank (``templates/sanguo/phrases.yaml``, ``sg_<kind>``); never prose here, never a decision.

Only what the readers' side saw goes in: the beats are read from the chapter's public TURN records.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Record = dict[str, Any]


def _names(units: Iterable[Mapping[str, Any]]) -> str:
    """``波才部、彭脱部``."""
    return "、".join(f"{u['主将']}部" for u in units)


def _attack(o: Mapping[str, Any], readers: str, names: Mapping[str, str]) -> Record:
    a = o["attack"]
    target = o["target"]
    ours = o["side"] == readers
    if target["kind"] == "gate":
        return {"kind": "gate_hit" if not a["destroyed"] else "gate_broken",
                "facts": {"att": o["主将"], "gate": target["id"], "left": a["def_after"]["兵力"], "ours": ours}}
    kind = ("our_" if ours else "their_") + ("rout" if a["destroyed"] else "hit" if a["dealt"] else "miss")
    return {"kind": kind, "facts": {"att": o["主将"], "def": names.get(target["id"], target["id"]), "dealt": a["dealt"],
                                    "left": a["def_after"]["兵力"], "surprise": a["surprise"],
                                    "charge": (o.get("charge") or {}).get("none") is None and bool(o.get("charge")),
                                    "square": target["square"]}}


def beats(turns: Sequence[Mapping[str, Any]], readers: str, before: Iterable[str], names: Mapping[str, str],
          day_end: Mapping[str, Any] | None, told: dict[str, int] | None = None) -> list[Record]:
    """The chapter's beats in the order they happened; ``before``: the enemy ids the readers saw as the
    chapter began; ``names``: unit id → its 主将 (for the units the readers know); ``told``: how many beats of
    each kind the scene told before (updated; each beat's ``n`` is its place, so a phrase bank is walked
    through before a phrasing comes back)."""
    out = _beats(turns, readers, before, names, day_end)
    counts = told if told is not None else {}
    for b in out:
        b["n"] = counts.get(b["kind"], 0)
        counts[b["kind"]] = b["n"] + 1
    return out


def _beats(turns: Sequence[Mapping[str, Any]], readers: str, before: Iterable[str], names: Mapping[str, str],
           day_end: Mapping[str, Any] | None) -> list[Record]:
    """The beats, without their places."""
    out: list[Record] = []
    seen = set(before)
    fallen: set[str] = set()
    for t in turns:
        if t["kind"] == "interrupt":
            out.append({"kind": "interrupt_ours" if t["side"] == readers else "interrupt_theirs",
                        "facts": {"side": t["side"]}})
        for o in t["orders"]:
            if o.get("attack") and o.get("target"):
                out.append(_attack(o, readers, names))
                if o["attack"]["destroyed"]:
                    fallen.add(o["target"]["id"])
        now = {v["id"]: v for v in t["visible"]}
        new = [v for i, v in now.items() if i not in seen]
        gone = [i for i in seen if i not in now and i not in fallen]
        if new:
            out.append({"kind": "sighted", "facts": {"names": _names(new), "n": len(new),
                                                     "squares": "、".join(v["square"] for v in new)}})
        if gone:
            out.append({"kind": "lost", "facts": {"names": "、".join(f"{names.get(i, i)}部" for i in sorted(gone)),
                                                  "n": len(gone)}})
        seen = set(now)
        for c in t.get("captures", []):
            out.append({"kind": "capture_ours" if c["side"] == readers else "capture_theirs",
                        "facts": {"stronghold": c["stronghold"], "side": c["side"]}})
        for b in t.get("built", []):
            out.append({"kind": "built", "facts": {"name": b["built"], "site": b["site"]}})
        for c in t.get("legion_checks", []):
            if c["dissolved"]:
                out.append({"kind": "dissolved", "facts": {"leader": names.get(c["leader"], c["leader"])}})
    if day_end:
        hungry = [m for m in day_end["meals"] if m["hungry"]]
        failed = [s for s in day_end["supply"] if not s["ok"]]
        out.append({"kind": "hunger" if hungry else "fed",
                    "facts": {"names": _names(hungry), "n": len(hungry), "failed": len(failed)}})
    if not any(b["kind"] != "fed" for b in out):
        out.insert(0, {"kind": "quiet", "facts": {}})
    return out


__all__ = ["beats"]
