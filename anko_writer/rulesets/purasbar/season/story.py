"""The story of one of our matches (issue 15): the beats a short paragraph tells, and what each goal meant.

Data only, never prose: the month chapter phrases each beat through ``story_<kind>`` phrase keys
(``templates/purasbar/phrases.yaml``) and each goal of the fold through ``goal_<state>_<side>``. Everything
here follows from the match record's attacks (their slice, team, goal, shooter and the shooter's slot), its
score, winner, extra time and shoot-out, so the published JSON gives the same story.

>>> m = {"home": "甲", "away": "乙", "score": [2, 1], "winner": "甲", "extra_time": False, "penalties": None,
...      "attacks": [_goal(2, "乙", "丙"), _goal(4, "甲", "丁"), _goal(6, "甲", "丁", "DF")]}
>>> [(b["kind"], b["side"]) for b in story(m, "甲")["beats"]]
[('opener', 'them'), ('equaliser', 'us'), ('late_winner', 'us'), ('rare_defender', 'us'), ('comeback', 'us')]
>>> [g["state"] for g in story(m, "甲")["goals"].values()]
['opener', 'equaliser', 'lead']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..match.engine import EXTRA_SLICES, SLICES
from ..match.penalties import sealed

if TYPE_CHECKING:
    from typing import TypedDict
else:  # a shape is mypy's alone: no class is built (issue 29)
    from ..models import RecordShape as TypedDict

Record = dict[str, Any]

HALF_SLICE = 3
"""The last slice of the first half (000 §5.2: 上半场补时)."""
LATE_SLICE = len(SLICES)
"""From this slice on a goal is late: stoppage time (90′+) and extra time."""
BIG_MARGIN = 3
"""Goals between the sides for a big win or a heavy defeat in the full-time verdict."""
MAX_BEATS = 5
"""Sentences a match story tells at most (issue 15: two to five)."""
RARE_SLOTS = {"GK": "keeper", "DF": "defender"}
"""Slots whose goals are rare: the shooter-group draw (000 §5.1.4) seldom picks them."""
MINUTES = {n: m for n, (_, m) in enumerate(SLICES + EXTRA_SLICES, 1)}
"""Slice number → its minutes (000 §5.2, §5.4.1)."""
WHEN = {m: name for name, m in SLICES + EXTRA_SLICES}
"""A slice's minutes → its name (上半场补时)."""
FIRST_HALF = {MINUTES[n] for n in range(1, HALF_SLICE + 1)}
"""The minutes of the first half's slices."""


class Beat(TypedDict):
    """One sentence's worth of a match story."""

    kind: str
    """opener, equaliser, lead_change, winner, comeback, late_winner, late_equaliser, hat_trick, brace,
    rare_keeper, rare_defender, halftime, clean_sheet, goalless, fulltime, and ``run`` for goals no other beat
    tells (side ``both`` when both teams scored in it)."""
    side: str
    """``us`` or ``them``: whose beat it is (``level`` for a level half-time or a draw)."""
    verdict: str
    """The phrase key's tail: the side, or for half-time and full-time the state (``lead_us``, ``win_big``…),
    or ``same_us`` for a rare goal another beat of the story already told."""
    player: str | None
    """The scorer the beat is about."""
    minute: str | None
    """The minutes of the slice it happened in (``66′–90′``)."""
    when: str | None
    """The name of that slice (``下半场中段``)."""
    score: list[int]
    """The score at that moment, our goals first."""
    number: int | None
    """Goals of the player (brace, hat-trick), goals we trailed by (comeback), the margin (full time)."""


class Goal(TypedDict):
    """What one goal meant when it went in."""

    state: str
    """opener, equaliser, lead (ahead from level), extend, pull_back."""
    side: str
    """``us`` or ``them``."""
    late: bool
    """Scored in stoppage time or extra time."""
    rare: str | None
    """``keeper`` or ``defender`` for a goal from those slots, else None."""
    score: list[int]
    """The score after it, our goals first."""
    shooter: str
    """Who scored it."""
    first_half: bool
    """Scored before half-time (a run of untold goals never spans the break)."""


class Story(TypedDict):
    """A match's story beats (in the order told) and, by attack index, what each goal meant."""

    beats: list[Beat]
    goals: dict[int, Goal]
    halftime: list[int]
    """The score after the first half, our goals first."""


def _goal(slice_no: int, team: str, shooter: str, pos: str = "FW") -> Record:
    """A hand-built scoring attack (for examples and tests)."""
    return {"slice": slice_no, "team": team, "goal": True, "shooter": shooter, "shooter_pos": pos}


def _beat(kind: str, side: str, score: list[int], *, verdict: str | None = None, player: str | None = None,
          minute: str | None = None, number: int | None = None) -> Beat:
    """A beat; ``verdict`` defaults to the side."""
    return {"kind": kind, "side": side, "verdict": verdict or side, "player": player, "minute": minute,
            "when": WHEN.get(minute) if minute else None, "score": list(score), "number": number}


def goal_states(m: Record, club: str) -> dict[int, Goal]:
    """Attack index → what the goal meant for the score (replayed in order), for each goal of the match.

    >>> m = {"attacks": [_goal(1, "甲", "丙"), _goal(2, "乙", "丁"), _goal(6, "乙", "丁", "GK")]}
    >>> [(g["state"], g["side"], g["late"], g["rare"]) for g in goal_states(m, "甲").values()]
    [('opener', 'us', False, None), ('equaliser', 'them', False, None), ('lead', 'them', True, 'keeper')]
    """
    us = them = 0
    out: dict[int, Goal] = {}
    for i, a in enumerate(m["attacks"]):
        if not a["goal"]:
            continue
        ours = a["team"] == club
        before = (us - them) if ours else (them - us)
        us, them = (us + 1, them) if ours else (us, them + 1)
        after = before + 1
        state = ("opener" if us + them == 1 else "equaliser" if after == 0 else "pull_back" if after < 0
                 else "lead" if after == 1 else "extend")
        out[i] = {"state": state, "side": "us" if ours else "them", "late": a["slice"] >= LATE_SLICE,
                  "rare": RARE_SLOTS.get(a.get("shooter_pos") or ""), "score": [us, them],
                  "shooter": str(a.get("shooter") or ""), "first_half": a["slice"] <= HALF_SLICE}
    return out


def _verdict(m: Record, club: str, us: int, them: int) -> str:
    """The full-time state: win_big, win, win_narrow, pens_win, draw, goalless, and the losses alike;
    ``pens_sealed`` for a shoot-out whose kicks are sealed (000 §5.8.4: the story, above the reveal, only
    says it goes to penalties)."""
    if sealed(m):
        return "pens_sealed"
    if m.get("penalties"):
        return "pens_win" if m.get("winner") == club else "pens_loss"
    margin = us - them
    if margin == 0:
        return "goalless" if us == 0 else "draw"
    size = "_big" if abs(margin) >= BIG_MARGIN else ("_narrow" if abs(margin) == 1 else "")
    return ("win" if margin > 0 else "loss") + size


def story(m: Record, club: str) -> Story:
    """The beats of one match's story: at most :data:`MAX_BEATS`, the most telling chosen, told in match order.

    Always a verdict at the end: ``fulltime`` or, for a side that trailed and won in play (not on
    penalties), ``comeback``, which states the final score. A lone late winning goal is told once, as ``late_winner``.
    """
    goals = goal_states(m, club)
    attacks = m["attacks"]
    us, them = (m["score"][0], m["score"][1]) if m["home"] == club else (m["score"][1], m["score"][0])
    half = [sum(1 for i, g in goals.items() if g["side"] == s and attacks[i]["slice"] <= HALF_SLICE)
            for s in ("us", "them")]
    cands: list[tuple[int, float, Beat]] = []  # (priority, when, beat)
    order = list(goals)

    def at(i: int) -> float:
        return float(order.index(i))

    def shooter(i: int) -> str:
        return str(attacks[i]["shooter"])

    def minute(i: int) -> str:
        return MINUTES.get(attacks[i]["slice"], "")

    first = order[0] if order else None
    if first is not None and not (first == order[-1] and goals[first]["late"] and m.get("winner")):
        # a lone late goal that won the match is told once, as the late winner
        g = goals[first]
        cands.append((90, at(first), _beat("opener", g["side"], g["score"], player=shooter(first),
                                           minute=minute(first))))
    # 000 §5.4: a knockout level after extra time is decided on penalties; the winner is the record's
    winner_side = ("us" if m.get("winner") == club else "them") if m.get("winner") else None
    decisive = None
    if winner_side and not m.get("penalties"):
        # the winning goal: the one after which the winner led for good
        decisive = next((i for i in reversed(order) if goals[i]["side"] == winner_side
                         and goals[i]["state"] in ("lead", "opener")), None)
    trailed = {"us": False, "them": False}
    worst = {"us": 0, "them": 0}
    for i in order:
        g = goals[i]
        for s, d in (("us", g["score"][1] - g["score"][0]), ("them", g["score"][0] - g["score"][1])):
            if d > 0:
                trailed[s] = True
                worst[s] = max(worst[s], d)
    late_eq = None
    if decisive is not None and goals[decisive]["late"]:
        g = goals[decisive]
        cands.append((88, at(decisive), _beat("late_winner", g["side"], g["score"], player=shooter(decisive),
                                              minute=minute(decisive))))
    elif decisive is None and order and goals[order[-1]]["state"] == "equaliser" and goals[order[-1]]["late"]:
        late_eq = order[-1]
        g = goals[late_eq]
        cands.append((80, at(late_eq), _beat("late_equaliser", g["side"], g["score"], player=shooter(late_eq),
                                             minute=minute(late_eq))))
    elif decisive is not None and goals[decisive]["state"] == "lead":
        g = goals[decisive]
        cands.append((62, at(decisive), _beat("winner", g["side"], g["score"], player=shooter(decisive),
                                              minute=minute(decisive))))
    # a side that trailed and won in play; a shoot-out's winner is told by the full-time line instead
    comeback = bool(winner_side and trailed[winner_side] and not m.get("penalties"))
    if comeback:  # the comeback sentence tells the final score too
        cands.append((100, len(order) + 1.0, _beat("comeback", str(winner_side), [us, them],
                                                   number=worst[str(winner_side)])))
    equalisers = [i for i in order if goals[i]["state"] == "equaliser" and i != late_eq]
    if decisive is not None and goals[decisive]["state"] == "lead":  # the level score the winner broke
        equalisers = [i for i in equalisers if i < decisive][-1:] or equalisers
    if equalisers:
        i = equalisers[0]
        cands.append((75, at(i), _beat("equaliser", goals[i]["side"], goals[i]["score"], player=shooter(i),
                                       minute=minute(i))))
    changes = [i for i in order if goals[i]["state"] == "lead" and trailed[goals[i]["side"]]
               and i != decisive and any(j < i and goals[j]["state"] == "equaliser" for j in order)]
    if changes:
        i = changes[0]
        cands.append((72, at(i), _beat("lead_change", goals[i]["side"], goals[i]["score"], player=shooter(i),
                                       minute=minute(i))))
    tally: dict[tuple[str, str], list[int]] = {}
    for i in order:
        tally.setdefault((goals[i]["side"], shooter(i)), []).append(i)
    for (side, name), idx in sorted(tally.items(), key=lambda kv: (kv[0][0] != "us", -len(kv[1]), kv[1][0])):
        if len(idx) >= 2:
            kind = "hat_trick" if len(idx) >= 3 else "brace"
            cands.append((84 if kind == "hat_trick" else 60 - (side == "them") * 10, at(idx[-1]) + 0.1,
                          _beat(kind, side, goals[idx[-1]]["score"], player=name, minute=minute(idx[-1]),
                                number=len(idx))))
    for i in order:
        g = goals[i]
        if g["side"] == "us" and g["rare"]:
            cands.append((82, at(i) + 0.2, _beat("rare_" + g["rare"], "us", g["score"], player=shooter(i),
                                                 minute=minute(i))))
            break
    if order:
        h_at = float(sum(1 for i in order if attacks[i]["slice"] <= HALF_SLICE)) - 0.5
        h_state = ("goalless" if half == [0, 0] else "level" if half[0] == half[1]
                   else "lead_us" if half[0] > half[1] else "lead_them")
        cands.append((70, h_at, _beat("halftime", h_state[5:] if h_state.startswith("lead") else "level", half,
                                      verdict=h_state)))
    else:
        cands.append((96, -1.0, _beat("goalless", "level", [0, 0])))
    if them == 0:
        cands.append((65, len(order) + 0.6, _beat("clean_sheet", "us", [us, them])))
    verdict = _verdict(m, club, us, them)
    side = "us" if verdict.startswith(("win", "pens_win")) else "them" if verdict.startswith(("loss", "pens_loss")) \
        else "level"
    if not comeback:
        cands.append((100, len(order) + 1.0, _beat("fulltime", side, [us, them], verdict=verdict,
                                                   number=abs(us - them))))
    chosen = _trim(sorted(cands, key=lambda c: -c[0])[:MAX_BEATS], verdict, half)
    chosen += _runs(chosen, goals, order, minute)
    beats = [b for _, _, b in sorted(chosen, key=lambda c: c[1])]
    for b in beats:  # a rare goal another sentence already told (the opener, the winner) is only remarked on
        if b["kind"].startswith("rare_") and any(o is not b and o["player"] == b["player"]
                                                 and o["minute"] == b["minute"] for o in beats):
            b["verdict"] = "same_" + b["side"]
    return {"beats": beats, "goals": goals, "halftime": half}


def _trim(chosen: list[tuple[int, float, Beat]], verdict: str, half: list[int]) -> list[tuple[int, float, Beat]]:
    """The chosen beats without the ones another beat already says (issue 27: a short paragraph): the clean sheet of
    a big win (its score says it), and the half-time score when the opener was the half's only goal.

    >>> told = [(90, 0.0, _beat("opener", "us", [1, 0], minute="1′–18′")), (70, 0.5, _beat("halftime", "us", [1, 0])),
    ...         (65, 1.6, _beat("clean_sheet", "us", [3, 0]))]
    >>> [b["kind"] for _, _, b in _trim(told, "win_big", [1, 0])]
    ['opener']
    """
    def said(b: Beat) -> bool:
        if b["kind"] == "clean_sheet":
            return verdict.endswith("_big")
        if b["kind"] == "halftime" and sum(half) == 1:
            return any(o["kind"] == "opener" and o["minute"] in FIRST_HALF for _, _, o in chosen)
        return False
    return [c for c in chosen if not said(c[2])]


def _covers(b: Beat, goals: dict[int, Goal], order: list[int], minute: Any) -> set[int]:
    """The goals a beat tells: its scorer's goal at its minute (all of them for a brace or a hat-trick)."""
    if b["kind"] in ("brace", "hat_trick"):
        return {i for i in order if goals[i]["side"] == b["side"] and goals[i].get("shooter") == b["player"]}
    if b["player"] is None or b["kind"] in ("halftime", "fulltime", "comeback", "goalless", "clean_sheet"):
        return set()
    return {i for i in order if goals[i].get("shooter") == b["player"] and minute(i) == b["minute"]
            and goals[i]["score"] == b["score"]}


def _runs(chosen: list[tuple[int, float, Beat]], goals: dict[int, Goal], order: list[int],
          minute: Any) -> list[tuple[int, float, Beat]]:
    """A ``run`` beat for each stretch of goals no chosen beat tells (issue 27: a story never skips a goal):
    who scored in it (``us``, ``them`` or ``both``), how many, the score after it and the minutes of its last goal.

    >>> g = {0: {"side": "them", "score": [0, 1], "shooter": "甲"}, 1: {"side": "them", "score": [0, 2], "shooter": "乙"}}
    >>> g[0]["first_half"] = g[1]["first_half"] = True
    >>> told = [(90, 0.0, _beat("opener", "them", [0, 1], player="甲", minute="1′–18′"))]
    >>> [(b["kind"], b["verdict"], b["number"], b["score"]) for _, _, b in _runs(told, g, [0, 1], ["1′–18′", "20′–45′"].__getitem__)]
    [('run', 'them_one', 1, [0, 2])]
    """
    told: set[int] = set()
    for _, _, b in chosen:
        told |= _covers(b, goals, order, minute)
    out: list[tuple[int, float, Beat]] = []
    run: list[int] = []
    for pos, i in enumerate(order + [-1]):
        crosses = bool(run) and i != -1 and goals[i].get("first_half") != goals[run[-1]].get("first_half")
        if i != -1 and i not in told and not crosses:
            run.append(i)
            continue
        if run:
            sides = {goals[j]["side"] for j in run}
            side = sides.pop() if len(sides) == 1 else "both"
            last = run[-1]
            # before the half-time beat (at pos − 0.5) when the run closes the first half
            verdict = side + ("_one" if len(run) == 1 else "")  # one goal and a string of them read differently
            out.append((0, pos - 0.55, _beat("run", side, goals[last]["score"], verdict=verdict, minute=minute(last),
                                              number=len(run))))
            run = [i] if i != -1 and i not in told else []
    return out


def stories(record: Record) -> dict[str, Story]:
    """Match id → story, for each of our matches of a month's record."""
    club = record["club"]
    return {str(record["matches"][i]["id"]): story(record["matches"][i], club) for i in record["our_matches"]}


__all__ = ["BIG_MARGIN", "Beat", "Goal", "HALF_SLICE", "LATE_SLICE", "MAX_BEATS", "MINUTES", "RARE_SLOTS", "Story", "WHEN",
           "goal_states", "stories", "story"]
