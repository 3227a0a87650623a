"""Story facts of a half, as DATA for the chapter template: what each turn was about (its beats), which
actions decided something (their dice go in the main text, the rest in a fold), where things happened
(in words a reader understands, from the squares), the half's ranked moments and the headline they make,
the stakes before it and the summary after it.

Nothing here formats a sentence or decides a result: the engine has played the half; the template picks
the words (``phrases.yaml``) for the facts computed here. Only the veiled record is read, so a sealed
casualty's outcome never shapes the story before its reveal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from ....kit import story
from . import drives

Record = dict[str, Any]

LENGTH, WIDTH = 26, 15
"""The pitch (squares are 1-based; the home side scores in column 26, the away side in column 1)."""
WIDE = 4
"""Rows of each wide zone."""
LONG_RUN = 5
"""Squares a ball carrier must cover in one action for the run to be told."""

WEIGHTS = {"death": 100, "td_last": 90, "comeback": 85, "cas_hattrick": 80, "shutout": 75, "td": 60,
           "cas": 40, "endzone_turnover": 30, "long_run": 25, "ko": 15, "grind": 0}
"""How much each kind of moment weighs when the half's headline is chosen."""


def place(sq: Sequence[int] | None, side: str) -> Record | None:
    """Where ``sq`` is for a player of ``side``: squares to the end zone he attacks, his own half or
    theirs, and the lane as he faces the opponents' end zone.

    >>> place([24, 2], "home")
    {'to_go': 2, 'half': 'theirs', 'lane': 'left', 'square': [24, 2], 'side': 'home'}
    >>> place([2, 8], "home")['half'], place([26, 14], "away")['lane']
    ('own', 'left')
    """
    if not sq:
        return None
    x, y = int(sq[0]), int(sq[1])
    to_go = LENGTH - x if side == "home" else x - 1
    own = x <= LENGTH // 2 if side == "home" else x > LENGTH // 2
    top = y <= WIDE
    bottom = y > WIDTH - WIDE
    if not (top or bottom):
        lane = "middle"
    else:
        lane = "left" if top == (side == "home") else "right"
    return {"to_go": to_go, "half": "own" if own else "theirs", "lane": lane, "square": [x, y], "side": side}


def _side_of(teams: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    return {p["id"]: t.get("side", "home" if i == 0 else "away")
            for i, t in enumerate(teams) for p in t.get("players", [])}


def _names(teams: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    return {p["id"]: p["name"] for t in teams for p in t.get("players", [])}


def _outcomes(record: Mapping[str, Any]) -> dict[str, Record]:
    """Casualty roll id → its outcome (``sealed`` when the roll is still sealed)."""
    out: dict[str, Record] = {}
    for c in record.get("casualties", []):
        rid = (c.get("roll") or {}).get("id")
        o = c.get("outcome") or {}
        if rid:
            sealed = bool(o.get("sealed_by"))  # a sealed roll's result and meaning wait for its reveal (DESIGN §10)
            out[rid] = {"sealed": sealed, "result": None if sealed else o.get("result"),
                        "meaning": None if sealed else o.get("meaning")}
    return out


def _beats(a: Mapping[str, Any], turn: Mapping[str, Any], side_of: Mapping[str, str], names: Mapping[str, str],
           outcomes: Mapping[str, Record], ours_side: str, scorer: str | None) -> list[Record]:
    """What one action did that a reader should be told, most telling first."""
    actor = a["player"]
    side = side_of.get(actor, turn["side"])
    ours = side == ours_side
    rolls = a.get("rolls", [])
    ball = a.get("ball") or {}
    target = a.get("target")
    path = a.get("path") or []
    end = path[-1] if path else None
    out: list[Record] = []

    def beat(kind: str, **more: Any) -> None:
        out.append({"kind": kind, "actor": names.get(actor, actor), "ours": ours, "action": a["kind"], **more})

    block = next((r for r in rolls if r.get("kind") == "block"), None)
    face = block.get("chosen") if block else None
    for r in rolls:
        k, res = r.get("kind"), r.get("result")
        victim = r.get("player")
        vname = names.get(victim, victim) if victim else None
        v_ours = side_of.get(victim, "") == ours_side if victim else False
        if k == "casualty":
            o = outcomes.get(r.get("id", ""), {})
            self_hurt = victim == actor
            beat("death" if o.get("result") == "dead" else "cas", victim=vname, victim_ours=v_ours,
                 self_hurt=self_hurt, sealed=bool(o.get("sealed")), meaning=o.get("meaning"), face=face,
                 pos=place(end, side))
        elif k == "injury" and res == "ko":
            beat("ko", victim=vname, victim_ours=v_ours, self_hurt=victim == actor, face=face,
                 crowd=bool(r.get("crowd")))
        elif k == "push" and res == "crowd":
            beat("crowd", victim=vname, victim_ours=v_ours)
        elif k == "foul" and res == "sent_off":
            beat("sent_off", victim=names.get(target, target) if target else None)
    if block is not None and target:
        was_carrier = ball.get("before") == target
        tname = names.get(target, target)
        lost = was_carrier and ball.get("carrier") != target
        if was_carrier:
            beat("carrier_hit", victim=tname, victim_ours=not ours, face=face, stripped=lost,
                 pos=place(end, side))
        elif face in ("defender_down", "defender_stumbles") and not any(b["kind"] in ("cas", "death", "ko")
                                                                         for b in out):
            armour = next((r for r in rolls if r.get("kind") == "armour" and r.get("player") == target), None)
            if armour is not None and armour.get("success"):
                beat("down", victim=tname, victim_ours=not ours, face=face, broken=True)
        if a.get("turnover") == "knocked_down" and face in ("attacker_down", "both_down"):
            beat("att_down", victim=tname, face=face)
    for r in rolls:
        k = r.get("kind")
        if k == "pickup" and r.get("success") and ball.get("carrier") == actor:
            beat("pickup", pos=place(end, side))
        elif k in ("dodge", "gfi") and not r.get("success") and a.get("turnover") == "knocked_down" \
                and not any(x.get("kind") == k and x.get("success") for x in rolls[rolls.index(r) + 1:]):
            beat("fall", how=k, pos=place(end, side), carrier=ball.get("before") == actor)
        elif k == "catch" and r.get("success") and r.get("player"):
            out.append({"kind": "catch", "actor": names.get(r["player"], r["player"]),
                        "ours": side_of.get(r["player"]) == ours_side, "action": a["kind"]})
    hurt = {b.get("victim") for b in out if b["kind"] in ("ko", "cas", "death")}
    out = [b for b in out if not (b["kind"] == "crowd" and b.get("victim") in hurt)]
    if a.get("turnover") == "pickup_failed":
        beat("pickup_fail", pos=place(end, side))
    steps = max(len(path) - 1, 0)
    if actor == scorer:
        beat("td", steps=steps, start=place(path[0] if path else None, side), pos=place(end, side))
    elif ball.get("before") == actor and ball.get("carrier") == actor and steps >= LONG_RUN:
        beat("run", steps=steps, start=place(path[0], side), pos=place(end, side))
    return out


PRIORITY = ["td", "death", "cas", "carrier_hit", "ko", "sent_off", "fall", "att_down", "pickup_fail", "run",
            "pickup", "catch", "crowd", "down"]
"""Which beat of a turn is its lead."""


def turn_story(t: Mapping[str, Any], side_of: Mapping[str, str], names: Mapping[str, str],
               outcomes: Mapping[str, Record], ours_side: str) -> Record:
    """One team turn: its beats (each pointing at its action), the actions whose dice are decisive, the lead
    beat, the ball at the turn's end, and whether the turn is ours."""
    actions = t.get("actions", [])
    scorer = None
    if t.get("turnover") == "touchdown":
        scorer = next((a["player"] for a in reversed(actions)
                       if a["player"] in ((a.get("ball") or {}).get("carrier"), (a.get("ball") or {}).get("before"))),
                      None)
    beats: list[Record] = []
    decisive: list[int] = []
    for i, a in enumerate(actions):
        found = _beats(a, t, side_of, names, outcomes, ours_side, scorer)
        for b in found:
            b["action_index"] = i
        beats += found
        if found or a.get("turnover"):
            decisive.append(i)
    lead = min(beats, key=lambda b: PRIORITY.index(b["kind"])) if beats else None
    ball: Record | None = None
    last = next((a.get("ball") for a in reversed(actions) if a.get("ball")), None)
    if last and last.get("carrier"):
        holder = last["carrier"]
        hs = side_of.get(holder, "home")
        ball = {"carrier": names.get(holder, holder), "ours": hs == ours_side,
                "pos": place(last.get("square"), hs)}
    blocks = downs = hurt = 0
    blocker: str | None = None
    for i, a in enumerate(actions):
        if i in decisive:
            continue
        for r in a.get("rolls", []):
            if r.get("kind") == "block":
                blocks += 1
                blocker = blocker or str(a["player"])
                downs += r.get("chosen") in ("defender_down", "defender_stumbles", "both_down")
            elif r.get("kind") == "armour" and r.get("success"):
                hurt += 1  # armour broken in a quiet action: the victim is stunned, "护甲都挡住了" would be false
    shown = sorted(beats, key=lambda b: PRIORITY.index(b["kind"]))[:3]
    shown.sort(key=lambda b: b["action_index"])
    return {"ours": t.get("side") == ours_side, "beats": shown, "more_beats": max(len(beats) - len(shown), 0),
            "decisive": decisive, "blocks": blocks, "downs": downs, "hurt": hurt, "blocker": blocker,
            "lead": lead["kind"] if lead else None,
            "ball": ball,
            "scorer": names.get(scorer, scorer) if scorer else None,
            "endzone_turnover": _endzone_turnover(t, actions, side_of)}


def _endzone_turnover(t: Mapping[str, Any], actions: Sequence[Mapping[str, Any]], side_of: Mapping[str, str]) -> bool:
    """A turnover that cost the ball within three squares of the end zone its team attacks."""
    to = t.get("turnover")
    if not to or to == "touchdown" or not actions:
        return False
    a = actions[-1]
    ball = a.get("ball") or {}
    if ball.get("before") is None or side_of.get(ball["before"]) != t.get("side"):
        return False
    sq = ball.get("square")
    p = place(sq, str(t.get("side")))
    return bool(p and p["to_go"] <= 3 and ball.get("carrier") != ball.get("before"))


def spp_board(teams: Sequence[Mapping[str, Any]], *more: Sequence[Mapping[str, Any]]) -> list[Record]:
    """Players who earned star player points, most first (summed over the halves given)."""
    total: dict[str, Record] = {}
    for group in (teams, *more):
        for t in group:
            for p in t.get("players", []):
                if p.get("spp_half"):
                    row = total.setdefault(p["id"], {"name": p["name"], "team": t["name"], "spp": 0})
                    row["spp"] += int(p["spp_half"])
    return sorted(total.values(), key=lambda r: (-r["spp"], r["name"]))[:3]


def moments(record: Mapping[str, Any], turns: Sequence[Record], ours: str, ours_side: str,
            first: Mapping[str, Any] | None) -> list[Record]:
    """The half's moments, ranked (heaviest first): each ``{kind, weight, ours, name?, turn?}``."""
    found: list[Record] = []
    half = record.get("half", 1)
    for t, s in zip(record.get("turns", []), turns, strict=False):
        for b in s["beats"]:
            if b["kind"] == "death":
                found.append({"kind": "death", "ours": not b["victim_ours"], "victim_ours": b["victim_ours"],
                              "name": b["victim"], "turn": t["turn"]})
            elif b["kind"] == "td":
                last = t["turn"] == 8
                found.append({"kind": "td_last" if last else "td", "ours": s["ours"], "name": b["actor"],
                              "turn": t["turn"], "steps": b["steps"]})
            elif b["kind"] == "run":
                found.append({"kind": "long_run", "ours": s["ours"], "name": b["actor"], "turn": t["turn"],
                              "steps": b["steps"]})
        if s["endzone_turnover"]:
            found.append({"kind": "endzone_turnover", "ours": s["ours"], "turn": t["turn"],
                          "name": s["beats"][-1]["actor"] if s["beats"] else None})
    cas = [c for c in record.get("casualties", [])]
    for victim_ours in (False, True):
        mine = [c for c in cas if (c.get("team") == ours) == victim_ours]
        if len(mine) >= 3:
            found.append({"kind": "cas_hattrick", "ours": not victim_ours, "count": len(mine)})
        elif mine:
            found.append({"kind": "cas", "ours": not victim_ours, "name": mine[0]["name"], "count": len(mine)})
    kos = sum(1 for s in turns for b in s["beats"] if b["kind"] == "ko")
    if kos:
        found.append({"kind": "ko", "ours": True, "count": kos})
    score = record.get("half_score") or record.get("score") or [0, 0]
    start = record.get("score_at_start") or [0, 0]
    me = 0 if ours_side == "home" else 1
    if half == 2:
        if start[me] < start[1 - me] and score[me] >= score[1 - me]:
            found.append({"kind": "comeback", "ours": True, "won": score[me] > score[1 - me]})
        if score[me] > score[1 - me] and score[1 - me] == 0:
            found.append({"kind": "shutout", "ours": True, "score": [score[me], score[1 - me]]})
        elif score[1 - me] > score[me] and score[me] == 0:
            found.append({"kind": "shutout", "ours": False, "score": [score[1 - me], score[me]]})
    if not found:
        found.append({"kind": "grind", "ours": True})
    for f in found:
        f["weight"] = WEIGHTS[f["kind"]] + (1 if f.get("ours") else 0)
    beats = [story.Beat(f["kind"], f["weight"], facts=f) for f in found]
    return [cast(Record, b.facts) for b in story.heaviest(beats, tie=lambda b: b.facts.get("turn", 0))]


def headline_key(top: Mapping[str, Any]) -> str:
    """The title bank of the heaviest moment (``title_<key>`` in ``phrases.yaml``: :func:`.kit.story.phrase_key`)."""
    kind = top["kind"]
    if kind in ("grind", "comeback"):
        return str(kind)
    if kind == "ko":
        return "grind"
    if kind == "death":
        return "death_ours" if top.get("victim_ours") else "death_theirs"
    if kind == "cas":
        return "cas_theirs" if top.get("ours") else "cas_ours"
    return f"{kind}_{'ours' if top.get('ours') else 'theirs'}"


def half_story(record: Mapping[str, Any], ours: str, ours_side: str, first: Mapping[str, Any] | None,
               stakes: Record, title_counts: dict[str, int], told: dict[str, int] | None = None) -> Record:
    """Everything the chapter tells about its half besides the dice: per-turn beats, the drives (:mod:`.drives`,
    numbered in the season's ``told``), moments, headline (and how many earlier chapters of the season had the
    same one), stakes, summary."""
    told = {} if told is None else told
    teams = record.get("teams", [])
    side_of, names = _side_of(teams), _names(teams)
    outcomes = _outcomes(record)
    turns = [turn_story(t, side_of, names, outcomes, ours_side) for t in record.get("turns", [])]
    ranked = moments(record, turns, ours, ours_side, first)
    key = headline_key(ranked[0])
    n = story.count(title_counts, key)
    score = list(record.get("half_score") or record.get("score") or [0, 0])
    me = 0 if ours_side == "home" else 1
    state = "leading" if score[me] > score[1 - me] else "trailing" if score[me] < score[1 - me] else "level"
    tds = [{"name": s["scorer"], "turn": t["turn"], "team": t["team"], "ours": s["ours"]}
           for t, s in zip(record.get("turns", []), turns, strict=False) if s["scorer"]]
    cas = [{"name": c["name"], "team": c["team"], "ours": c.get("team") == ours,
            "sealed": bool((c.get("outcome") or {}).get("sealed_by"))} for c in record.get("casualties", [])]
    summary: Record = {"score": score, "state": state, "tds": tds, "cas": cas, "spp": spp_board(teams),
                       "mine": score[me], "theirs": score[1 - me]}
    if first is not None:
        first_turns = [turn_story(t, _side_of(first.get("teams", [])), _names(first.get("teams", [])),
                                  _outcomes(first), ours_side) for t in first.get("turns", [])]
        summary["match"] = {
            "tds": [{"name": s["scorer"], "turn": t["turn"], "team": t["team"], "ours": s["ours"], "half": 1}
                    for t, s in zip(first.get("turns", []), first_turns, strict=False) if s["scorer"]]
            + [{**x, "half": 2} for x in tds],
            "cas_ours": sum(1 for c in first.get("casualties", []) if c.get("team") == ours) + sum(
                1 for c in cas if c["ours"]),
            "cas_theirs": sum(1 for c in first.get("casualties", []) if c.get("team") != ours) + sum(
                1 for c in cas if not c["ours"]),
            "spp": spp_board(first.get("teams", []), teams),
        }
    reveals = [drives.place({"kind": "reveal_" + _consequence(r.get("back") or {}), "facts": {}}, told)
               for r in record.get("reveals", []) if not (r.get("moment") or {}).get("apothecary")]
    opening = drives.place({"kind": "open", "facts": {}}, told)
    stake = drives.place({"kind": "stakes_" + _stakes_kind(stakes, record, ours_side), "facts": {}}, told)
    kicks = [drives.place({"kind": "kick_" + ("touchback" if k.get("touchback") else "land"),
                           "aim": place(k.get("target"), str(k.get("receiving"))),
                           "land": place(k.get("landing"), str(k.get("receiving"))),
                           "facts": {"kicker": k.get("kicker"), "receiver": k.get("receiver"),
                                     "event": k.get("event_text"), "again": i > 0}}, told)
             for i, k in enumerate(record.get("kickoffs", []))]
    told_drives = drives.half_drives(record, turns, told)
    summary["n"] = drives.place({"kind": f"sum_h{record.get('half', 1)}_{state}", "facts": {}}, told)["n"]
    return {"turns": turns, "kicks": kicks, "drives": told_drives, "moments": ranked[:5], "headline": key,
            "title_n": n, "stakes": stakes, "stake": stake, "open": opening, "reveals": reveals, "summary": summary}


def _consequence(back: Mapping[str, Any]) -> str:
    """What a revealed casualty means for the player, as the roster has it: dead, a lasting injury, the next
    match missed, or nothing more."""
    if back.get("dead"):
        return "dead"
    if back.get("lasting"):
        return "lasting"
    return "miss" if back.get("miss_next") else "fine"


def _stakes_kind(stakes: Mapping[str, Any], record: Mapping[str, Any], ours_side: str) -> str:
    """The bank of the opening's stakes: the season's first match, the table before a match, or the score at
    the break (leading, trailing, level)."""
    if record.get("half", 1) == 1:
        return "first" if not stakes.get("played") else "table"
    start = record.get("score_at_start") or [0, 0]
    me = 0 if ours_side == "home" else 1
    return "half2_" + ("leading" if start[me] > start[1 - me] else "trailing" if start[me] < start[1 - me]
                       else "level")


__all__ = ["LONG_RUN", "PRIORITY", "WEIGHTS", "half_story", "headline_key", "moments", "place", "spp_board",
           "turn_story"]
