"""The month's headlines (issue 15): the notable events of one month's results, most salient first.

Data only, never prose: each event says its ``kind``, a ``salience`` and the people, clubs and numbers a
sentence needs; the chapter's title and opening paragraph phrase them (``title_<kind>`` and
``open_<kind>`` in ``templates/purasbar/phrases.yaml``). The first event heads the month: the most
salient one whose ``(kind, subject)`` has not headed an earlier month of the season, so no two titles of a
season tell the same thing (each title phrasing of a kind with a subject names it).

What runs across months (matches won or lost in a row, signings still to play, the biggest fee, whether
the league is decided, the events that headed earlier months) is a :class:`Memo`; the ranking and the
heads-and-seen part of it are the story kit's (:func:`anko_writer.kit.story.rank`); :func:`rank` is pure and
returns the next memo, and :class:`Told` keeps it on the world, so a month resumed from a checkpoint
ranks as a full replay does.

>>> rec = {"month": 3, "club": "甲", "our_matches": [0], "clubs": [], "standings": [], "reveals": [],
...        "matches": [{"home": "甲", "away": "乙", "score": [2, 0], "winner": "甲", "competition": "league",
...                     "attacks": [], "lineups": {}}]}
>>> events, memo = rank(rec, fresh())
>>> [(e["kind"], e["other"], e["score"]) for e in events], memo["heads"], memo["win_run"]
([('win', '乙', [2, 0])], [['win', '乙']], 1)
>>> rank(rec, memo)[0][0]["before"]
1
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ....kit import story
from ..club.achievements import CUP_STAGES, result, trailed
from ..competition.calendar import CUP_MONTH
from ..competition.schedule import ROUNDS_BY_MONTH
from ..match.penalties import sealed
from . import rarity

if TYPE_CHECKING:
    from typing import TypedDict
else:  # a shape is mypy's alone: no class is built (issue 29)
    from ..models import RecordShape as TypedDict

Record = dict[str, Any]

LAST_LEAGUE_MONTH = max(ROUNDS_BY_MONTH)
"""The month of the league's last rounds (000 §4.2.1: month 11)."""
LEAGUE_ROUNDS = max(r for rounds in ROUNDS_BY_MONTH.values() for r in rounds)
"""Rounds a club plays in the league (23)."""
POINTS_FOR_WIN = 3
"""League points of a win (000 §4.2)."""
GIANT_GAP = 20
"""How much higher a club's total ability (§2.2) must be for a win over it to be a giant-killing, and how
much lower for a defeat by it to be an upset."""
BIG_MARGIN = 4
"""Goals between the sides for a big win or a heavy defeat."""
STREAK = 3
"""Matches won (or lost) in a row, across months, before a month's run is a headline."""
RECORD_FEE = 100_000
"""The smallest fee a red-letter transfer may have (P$)."""
LEAD = 3
"""Events the opening paragraph tells at most."""
NOTABLE = 30
"""The salience an event past the first needs to be told in the opening paragraph (less when the first has
less: a month of plain results tells them all)."""


class Headline(TypedDict):
    """One notable event of the month: what a title or an opening sentence needs."""

    kind: str
    """The event (``title_<kind>`` / ``open_<kind>`` phrase banks)."""
    salience: int
    """How notable (higher first)."""
    subject: str
    """With ``kind``, what no two months of a season head with ("" for a kind told at most once)."""
    other: str | None
    """The other club: the opponent, the champion, the club that knocked us out."""
    player: str | None
    """Our player the event is about."""
    score: list[int] | None
    """The match's score, our goals first."""
    number: int | None
    """The kind's number: goals, matches in a row, fee, ability gap, goals behind, rank, rounds left, the cup
    stage reached (``achievements.CUP_STAGES``)."""
    what: str | None
    """A key or name the event carries: a revealed moment's event, the scorer's slot (GK, DF), the cup stage."""
    before: int
    """Earlier months of the season with an event of the same kind and subject (a keeper who scores again)."""
    lead: bool
    """Whether the opening paragraph tells it: the first, and up to two more of salience ≥ NOTABLE (or, in a
    quiet month whose first is below NOTABLE, any)."""


class Memo(TypedDict):
    """What the headlines carry from one month of a season to the next."""

    heads: list[list[str]]
    """``[kind, subject]`` of each earlier month's first event."""
    win_run: int
    """Our matches won in a row, all competitions, up to now."""
    loss_run: int
    """Our matches lost in a row."""
    signed: dict[str, int]
    """Players we bought this season who have not played yet → fee."""
    record_fee: int
    """The biggest fee we paid this season."""
    decided: bool
    """Whether the league title was already decided."""
    seen: dict[str, int]
    """``kind|subject`` → earlier months with such an event."""


def fresh() -> Memo:
    """The memo before a season's first month."""
    return {"heads": [], "win_run": 0, "loss_run": 0, "signed": {}, "record_fee": 0, "decided": False, "seen": {}}


def _event(kind: str, salience: int, subject: str = "", *, other: str | None = None, player: str | None = None,
           score: list[int] | None = None, number: int | None = None, what: str | None = None) -> Headline:
    """A headline (``lead`` is set once the month is ranked)."""
    return {"kind": kind, "salience": salience, "subject": subject, "other": other, "player": player,
            "score": score, "number": number, "what": what, "before": 0, "lead": False}


def _score(m: Record, club: str) -> list[int]:
    """The score with ``club``'s goals first."""
    return list(m["score"]) if m["home"] == club else [m["score"][1], m["score"][0]]


def _opponent(m: Record, club: str) -> str:
    """The other club of a match."""
    return str(m["away"] if m["home"] == club else m["home"])


def _behind(m: Record, club: str) -> int:
    """The most goals ``club`` trailed by during the match (0 if never behind)."""
    us = them = worst = 0
    for a in m["attacks"]:
        if a["goal"]:
            us, them = (us + 1, them) if a["team"] == club else (us, them + 1)
            worst = max(worst, them - us)
    return worst


def _match_events(m: Record, club: str, totals: dict[str, int]) -> list[Headline]:
    """A match of ours: its result, a giant-killing or upset, a big margin, a comeback, hat-tricks, goals
    of our keeper or defenders."""
    opp, score, res = _opponent(m, club), _score(m, club), result(m, club)
    margin = score[0] - score[1]
    base = {"win": 12, "draw": 8, "loss": 10}[res]
    if sealed(m):  # 000 §5.8.4: a tie whose shoot-out is sealed has no result above its reveal, only its goals
        return _goal_events(m, club, opp, score)
    out = [_event(res, base + min(abs(margin), 5), opp, other=opp, score=score)]
    gap = totals.get(opp, 0) - totals.get(club, 0)
    if res == "win" and gap >= GIANT_GAP:
        out.append(_event("giant_killing", 60 + min(gap // 2, 25), opp, other=opp, score=score, number=gap))
    if res == "loss" and -gap >= GIANT_GAP:
        out.append(_event("upset_loss", 50 + min(-gap // 2, 25), opp, other=opp, score=score, number=-gap))
    if margin >= BIG_MARGIN:
        out.append(_event("big_win", rarity.of("big_win") + 4 * (margin - BIG_MARGIN), opp, other=opp, score=score, number=margin))
    if -margin >= BIG_MARGIN:
        out.append(_event("heavy_defeat", 40 + 4 * (-margin - BIG_MARGIN), opp, other=opp, score=score,
                          number=-margin))
    if res == "win" and trailed(m, club):
        behind = _behind(m, club)
        out.append(_event("comeback", rarity.of("comeback") + 8 * (behind - 1), opp, other=opp, score=score, number=behind))
    return out + _goal_events(m, club, opp, score)


def _goal_events(m: Record, club: str, opp: str, score: list[int]) -> list[Headline]:
    """Our hat-tricks and the goals of our keeper or defenders in a match."""
    out: list[Headline] = []
    goals: dict[str, int] = {}
    slots: dict[str, str] = {}
    for a in m["attacks"]:
        if a["goal"] and a["team"] == club:
            goals[a["shooter"]] = goals.get(a["shooter"], 0) + 1
            if a.get("shooter_pos") in ("GK", "DF"):
                slots.setdefault(a["shooter"], a["shooter_pos"])
    for name, n in sorted(goals.items()):
        if n >= 3:
            out.append(_event("hat_trick", rarity.of("hat_trick") + 4 * (n - 3), name, other=opp, player=name, score=score, number=n))
        if name in slots:
            keeper = slots[name] == "GK"
            kind = "keeper_goal" if keeper else "defender_goal"  # issue 27: as rare as the world has it
            out.append(_event(kind, rarity.of(kind) + 3 * (n - 1),
                              name, other=opp, player=name, score=score, number=n, what=slots[name]))
    return out


def _played(m: Record, club: str) -> list[str]:
    """Our players who took the pitch in a match."""
    side = "home" if m["home"] == club else "away"
    return [p["name"] for p in (m.get("lineups") or {}).get(side, []) if p.get("slices", True)]


def _signings(record: Record, club: str) -> dict[str, int]:
    """Players we bought in this month's window → fee."""
    window = ((record.get("life") or {}).get("window")) or {}
    return {e["player"]: int(e.get("fee") or 0) for e in window.get("ours", [])
            if e.get("kind") == "buy" and e.get("done") and e.get("to") == club}


def _decided(standings: list[Record]) -> str | None:
    """The league champion if no club can catch the leader any more, else None."""
    if len(standings) < 2:
        return None
    top = standings[0]
    chase = max(r["points"] + POINTS_FOR_WIN * (LEAGUE_ROUNDS - r["played"]) for r in standings[1:])
    return str(top["team"]) if top["points"] > chase else None


def _league_events(record: Record, club: str, memo: Memo) -> tuple[list[Headline], bool]:
    """The league title decided this month, and how the league ended in its last month (and whether it is
    decided now)."""
    standings, month = record.get("standings") or [], record["month"]
    if month > LAST_LEAGUE_MONTH or not standings:
        return [], memo["decided"]
    champion = _decided(standings)
    out: list[Headline] = []
    if month == LAST_LEAGUE_MONTH:
        rank = next((i + 1 for i, r in enumerate(standings) if r["team"] == club), 0)
        if rank == 1:
            out.append(_event("league_won", 100, other=club, number=standings[0]["points"]))
        elif rank:
            out.append(_event("league_final", 75 if rank <= 3 else 30, other=str(standings[0]["team"]), number=rank))
    elif champion is not None and not memo["decided"]:
        ours = champion == club
        rounds_left = LEAGUE_ROUNDS - standings[0]["played"]
        out.append(_event("league_clinched" if ours else "league_decided", 95 if ours else 45, other=champion,
                          number=rounds_left))
    return out, memo["decided"] or champion is not None


def _cup_events(record: Record, club: str, ms: list[Record]) -> list[Headline]:
    """Month 12: the 群英杯 won, or who knocked us out and at which stage (``what``), or the Swiss round
as far as we went (``other``: the champion)."""
    if record["month"] != CUP_MONTH or "champion" not in record:
        return []
    if record["champion"] == club:
        final = next((m for m in reversed(ms) if m.get("stage") == "final"), None)
        return [_event("cup_won", 100, other=_opponent(final, club) if final else None,
                       score=_score(final, club) if final else None)]
    lost = next((m for m in reversed(ms) if m["competition"] == "knockout" and result(m, club) == "loss"), None)
    if lost is None:
        return [_event("cup_swiss_out", 60, other=str(record["champion"]), what="swiss")]
    stage = lost.get("stage") or "quarter_final"
    return [_event("cup_out", 60 + 10 * CUP_STAGES[stage], other=_opponent(lost, club), score=_score(lost, club),
                   number=CUP_STAGES[stage], what=stage)]


def _reveals(record: Record) -> list[Headline]:
    """Hidden dice revealed this month whose moment the reveal retells."""
    out = []
    for r in record.get("reveals") or []:
        moment = r.get("moment")
        if moment:
            out.append(_event("reveal", 35, moment["opponent"], other=moment["opponent"], player=moment.get("player"),
                              number=r.get("total"), what=moment.get("event")))
    return out


def _money(record: Record) -> list[Headline]:
    """A step down the §11.3 bankruptcy chain (a warning, the emergency)."""
    step = ((record.get("life") or {}).get("money") or {}).get("bankruptcy") or {}
    event = step.get("event")
    if event in ("warning", "emergency"):
        return [_event(f"bankruptcy_{event}", 80 if event == "warning" else 92, number=step.get("months_left"))]
    return []


def _runs(results: list[str], memo: Memo) -> tuple[int, int]:
    """Matches won and lost in a row after this month's results."""
    win, loss = memo["win_run"], memo["loss_run"]
    for r in results:
        win, loss = (win + 1 if r == "win" else 0), (loss + 1 if r == "loss" else 0)
    return win, loss


def told_before_reveal(record: Record) -> Record | None:
    """The month as a reader knows it above a sealed shoot-out's reveal (None: no shoot-out of ours is sealed).

    000 §5.8.4: the tie is told as level after extra time (no winner, no shoot-out score), the matches after
    it (later knockout rounds, which only its winner plays) and the cup's champion are left out, so nothing
    the title or the opening says depends on a sealed kick.

    >>> m = {"winner": "甲", "penalties": [4, 2], "shootout": {"sealed_rest": {}}}
    >>> told_before_reveal({"matches": [{}, m, {}], "our_matches": [0, 1, 2], "champion": "甲"})
    {'matches': [{}, {'winner': None, 'penalties': None, 'shootout': {'sealed_rest': {}}}, {}], 'our_matches': [0, 1]}
    """
    ours = list(record["our_matches"])
    at = next((n for n, i in enumerate(ours) if sealed(record["matches"][i])), None)
    if at is None:
        return None
    matches = list(record["matches"])
    matches[ours[at]] = matches[ours[at]] | {"winner": None, "penalties": None}
    return {k: v for k, v in record.items() if k != "champion"} | {"matches": matches, "our_matches": ours[:at + 1]}


def rank(record: Record, memo: Memo) -> tuple[list[Headline], Memo]:
    """The month's headlines, the one that heads it first, then most salient first; and the next memo.

    A month with a sealed shoot-out of ours is ranked as :func:`told_before_reveal` tells it; what the
    memo carries on (streaks, signings) is the whole month's, what headed it the told one's."""
    told = told_before_reveal(record)
    if told is None:
        return _rank(record, memo)
    events, heads = _rank(told, memo)
    return events, {**_rank(record, memo)[1], "heads": heads["heads"], "seen": heads["seen"]}


def _rank(record: Record, memo: Memo) -> tuple[list[Headline], Memo]:
    """:func:`rank` of the month as given."""
    club = record["club"]
    ms = [record["matches"][i] for i in record["our_matches"]]
    totals = {c["name"]: c["total"] for c in record.get("clubs") or []}
    events: list[Headline] = [e for m in ms for e in _match_events(m, club, totals)]
    results = [result(m, club) for m in ms]
    win, loss = _runs(results, memo)
    if results and all(r == "win" for r in results) and win >= STREAK:
        events.append(_event("win_streak", 45 + 5 * min(win, 9), str(win), number=win))
    if results and all(r == "loss" for r in results) and loss >= STREAK:
        events.append(_event("loss_streak", 45 + 5 * min(loss, 9), str(loss), number=loss))
    league, decided = _league_events(record, club, memo)
    events += league + _cup_events(record, club, ms) + _reveals(record) + _money(record)
    bought = _signings(record, club)
    waiting = {**memo["signed"], **bought}
    played = {p for m in ms for p in _played(m, club)}
    for name, fee in sorted(waiting.items()):
        if name in played:
            scored = sum(a["goal"] and a["team"] == club and a["shooter"] == name for m in ms for a in m["attacks"])
            events.append(_event("debut", 40 + min(fee // 50_000, 20) + (20 if scored else 0), name, player=name,
                                 number=scored))
    top = max(bought.items(), key=lambda kv: (kv[1], kv[0]), default=None)
    record_fee = memo["record_fee"]
    if top is not None and top[1] >= RECORD_FEE and top[1] > record_fee:
        events.append(_event("record_signing", 45 + min(top[1] // 100_000, 40), top[0], player=top[0], number=top[1]))
        record_fee = top[1]
    told = story.rank([story.Beat(e["kind"], e["salience"], e["subject"], e) for e in events],
                      story.Memo(tuple((h[0], h[1]) for h in memo["heads"]), memo["seen"]))
    events = [cast(Headline, {**b.facts, "before": told.before[b.tag]}) for b in told.beats]
    if told.head is not None:
        bar = NOTABLE if events[0]["salience"] >= NOTABLE else 0  # a quiet month tells its other results
        lead = [e for e in events[1:] if e["salience"] >= bar][:LEAD - 1]
        for e in [events[0], *lead]:
            e["lead"] = True
    memo_next: Memo = {"heads": [list(h) for h in told.memo.heads], "win_run": win, "loss_run": loss,
                       "signed": {n: f for n, f in waiting.items() if n not in played},
                       "record_fee": record_fee, "decided": decided, "seen": dict(told.memo.seen)}
    return events, memo_next


def fold(records: list[Record]) -> tuple[list[list[Headline]], Memo]:
    """Rank a season's months in order: each month's headlines and the memo after the last."""
    memo, out = fresh(), []
    for rec in records:
        events, memo = rank(rec, memo)
        out.append(events)
    return out, memo


@dataclass
class Told:
    """The headlines' memo for the season being played (kept on the world, so checkpoints carry it)."""

    memo: Memo = field(default_factory=fresh)

    def month(self, record: Record) -> list[Headline]:
        """Rank one month (in order) and remember what it carries on."""
        events, self.memo = rank(record, self.memo)
        return events


__all__ = ["BIG_MARGIN", "GIANT_GAP", "Headline", "LAST_LEAGUE_MONTH", "LEAD", "LEAGUE_ROUNDS", "Memo", "NOTABLE",
           "POINTS_FOR_WIN", "RECORD_FEE", "STREAK", "Told", "fold", "fresh", "rank", "told_before_reveal"]
