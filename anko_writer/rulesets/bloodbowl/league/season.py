"""A season of the league: five rounds of a six-team round robin, our match told half by half.

Chapter ``2r − 1`` is round r's first half: the reveals that fall due, the hiring and resting voted
before the match, then our first half. Chapter ``2r`` is its second half, then the round's other
matches (played by the same engine, reported briefly), every match's income, and the table. Hidden
dice: the engine throws a casualty roll of one of our players hidden; the chapter posts its seal and
a later chapter (``options.reveal_delay``) reveals it. Until then the player is shown as 伤情封存 and
nothing the roll decided reaches a publishable file; a casualty whose fate a match of ours before the
reveal would show (with delay 2, one in a second half) is thrown in the open instead (:func:`may_seal`).
The host may play them all in the open: ``options.sealed`` without ``casualty`` (:data:`SEALABLE`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from ....arcs import Arc, Part
from ....ballot import Ballot, deadline_of
from ....chapters import Record, Run
from ....dice import Dice
from ....errors import AnkoError
from ....ruleset import sealed_kinds
from ....seals import SealBook
from ..match.api import HalfInput, HalfResult, Plan, Side
from .advance import advance, ladder_from, mvp
from .drives import place
from .rosters import Positional, Roster, Rosters
from .schedule import Fixture, round_robin
from .standings import MatchScore, table
from .story import half_story
from .teams import LeagueData, Team, ai_lineup, ai_plan, fit, hire, team_from
from .votes import Words, bloodbowl_ballot

PlayHalf = Callable[[HalfInput, Dice], HalfResult]
"""The match engine's entry point (:func:`~..match.api.play_half`)."""

ROUNDS = 5
"""Rounds of a six-team single round robin."""
PARTS = 2 * ROUNDS
"""Chapters (halves of our matches) in a season."""

SEALABLE = {
    "casualty": "我方球员的伤亡骰（D68）和队医为他重掷的那一颗：这名球员写作伤情封存，"
                "过一到两章（按揭晓延迟）再揭晓他的命运",
}
"""The roll kinds a host may seal (``options.sealed``); sealed unless the campaign says (DESIGN §10)."""


def part_of(rnd: int, half: int) -> int:
    """The chapter (part) of round ``rnd``'s half ``half``.

    >>> part_of(1, 1), part_of(1, 2), part_of(3, 1), part_of(5, 2)
    (1, 2, 5, 10)
    """
    return 2 * (rnd - 1) + half


@dataclass
class World:
    """The league as a season plays it."""

    season: int
    teams: dict[str, Team]
    """Every team by name, in the league's order (ours first)."""
    ours: str
    book: SealBook
    pending: dict[str, str] = field(default_factory=dict)
    """Our player id → the sealed casualty roll that decides his fate (shown as 伤情封存)."""
    results: list[MatchScore] = field(default_factory=list)
    titles: dict[str, int] = field(default_factory=dict)
    """Headline kind → chapters of the season headlined by it so far (titles never repeat)."""
    told: dict[str, int] = field(default_factory=dict)
    """Story item kind → items of that kind told so far this season (:mod:`.drives`: phrases walked in order)."""

    @property
    def us(self) -> Team:
        """Our team."""
        return self.teams[self.ours]

    def order(self) -> list[str]:
        """Team names in the league's order."""
        return list(self.teams)


@dataclass
class Match:
    """Our match in progress between its two chapters."""

    fixture: Fixture
    absent: dict[str, list[str]]
    """Team name → ids missing this match (they recover after it)."""
    rested: list[str]
    lineup: list[str]
    first: HalfResult | None = None
    kicking: Side = "away"


@dataclass
class Season:
    """Everything a season's chapters need besides the world."""

    data: Mapping[str, Any]
    """The campaign (or the next season's start): title, options, decisions."""
    rosters: Rosters
    league: LeagueData
    play_half: PlayHalf
    where: str = "campaign"
    """The campaign file's name, for errors about votes."""
    words: Words | None = None
    """The glossary's words (the ``cn`` filter) the vote's choices are written with; None: their keys."""


def other(side: Side) -> Side:
    """The other side."""
    return "away" if side == "home" else "home"


def vote(s: Season, season: int, part: int) -> Mapping[str, Any]:
    """The readers' vote for chapter ``part`` (empty when there is none)."""
    return cast(Mapping[str, Any], (s.data.get("decisions") or {}).get(f"s{season}h{part}", {}))


def _player(s: Season, team: Team, word: str, key: str) -> str:
    """The id of ``team``'s player ``word`` (a name or an id), or a located error."""
    p = team.find(word)
    if p is None:
        raise AnkoError(f"{s.where}: decisions.{key}: {team.name}没有球员 {word!r}")
    return p.id


def our_plan(s: Season, w: World, opp: Team, season: int, part: int, half: int, lead: int,
             lineup: list[str]) -> tuple[Plan, Record]:
    """Our plan for the half: the vote where there is one, else the AI coach's; and where each piece came from."""
    v = vote(s, season, part)
    key = f"s{season}h{part}"
    ai = ai_plan(w.us, s.league, half, lead)
    voted = dict(v.get("plan") or {})
    plan: Plan = cast(Plan, {**ai, **{k: x for k, x in voted.items() if k != "blitz_first"}})
    if "blitz_first" in voted:
        word = voted["blitz_first"]
        target = opp.find(word) or w.us.find(word)
        if target is None:
            raise AnkoError(f"{s.where}: decisions.{key}.plan.blitz_first: 两队都没有球员 {word!r}")
        plan["blitz_first"] = target.id
    plan["lineup"] = lineup
    source = {"plan": "vote" if voted else "ai", "voted": sorted(voted), "lineup": "vote" if "lineup" in v else "ai",
              "key": key}
    return plan, source


def their_plan(s: Season, team: Team, half: int, lead: int, lineup: list[str]) -> Plan:
    """An AI team's plan and line-up."""
    plan = ai_plan(team, s.league, half, lead)
    plan["lineup"] = lineup
    return plan


def choose_lineup(s: Season, team: Team, v: Mapping[str, Any], key: str, resting: list[str],
                  out: list[str]) -> tuple[list[str], list[str]]:
    """Our line-up: the voted players who can play, filled up to eleven by the AI; and the voted players
    who cannot (injured, resting or off)."""
    if "lineup" not in v:
        return [i for i in ai_lineup(team, resting) if i not in out], []
    wanted = [_player(s, team, word, f"{key}.lineup") for word in v["lineup"]]
    able = {p.id for p in fit(team, resting)} - set(out)
    chosen = [i for i in wanted if i in able]
    dropped = [i for i in wanted if i not in able]
    for i in ai_lineup(team, resting):
        if len(chosen) >= 11:
            break
        if i not in chosen and i not in out:
            chosen.append(i)
    return chosen, dropped


def income(s: Season, dice: Dice, key: str, home: Team, away: Team, score: tuple[int, int]) -> Record:
    """Gate and winnings after a match (designed): 2D6 × the gate for each side, a bonus to the winner
    or to both on a draw."""
    inc = s.league.income
    out: Record = {"home": home.name, "away": away.name, "lines": []}
    for side, team in (("home", home), ("away", away)):
        r = dice.roll(f"{key}/gate", "2D6", f"{team.name}门票")
        mine, theirs = (score[0], score[1]) if side == "home" else (score[1], score[0])
        bonus = inc["win"] if mine > theirs else inc["draw"] if mine == theirs else 0
        gain = r.total * inc["gate"] + bonus
        team.sheet.treasury += gain
        out["lines"].append({"team": team.name, "roll": r.to_json(), "gate": r.total * inc["gate"], "bonus": bonus,
                             "gain": gain, "treasury": team.sheet.treasury})
    return out


def big_guy(roster: Roster) -> Positional | None:
    """The roster's big guy (ST 5 or more, one a team), if it has one."""
    return next((p for p in roster.positions if p.ST >= 5 and p.max == 1), None)


def ai_hires(s: Season, w: World, dice: Dice, key: str) -> list[Record]:
    """AI teams short of eleven fit players hire the cheapest positional while they can pay; a full team
    then buys its big guy once the treasury holds his price (designed)."""
    out: list[Record] = []
    for name, team in w.teams.items():
        if name == w.ours:
            continue
        roster = s.rosters[team.sheet.race]
        while len(fit(team)) < 11:
            rec = hire(team, roster, roster.cheapest().key, s.league, dice, f"{key}/{name}")
            out.append(rec)
            if not rec["hired"]:
                break
        big = big_guy(roster)
        if (big is not None and len(fit(team)) >= 11 and team.sheet.treasury >= big.cost
                and not any(p.position == big.name and not p.dead for p in team.sheet.players)):
            out.append(hire(team, roster, big.key, s.league, dice, f"{key}/{name}"))
    return out


def sealed_casualties(record: Mapping[str, Any], ours: str) -> dict[str, Record]:
    """Roll id → ``{moment, outcome}`` for each casualty of ours whose roll the engine sealed (and for the
    apothecary's sealed second roll: its moment names the casualty roll, it has no outcome of its own)."""
    out: dict[str, Record] = {}
    for c in record.get("casualties", []):
        o = c.get("outcome") or {}
        if c.get("team") == ours and o.get("sealed_by"):
            moment = {"player": c["player"], "name": c["name"], "half": c.get("half"), "turn": c.get("turn")}
            out[o["sealed_by"]] = {"moment": moment, "outcome": {**o, "player": c["player"], "name": c["name"]}}
            if o.get("apothecary"):  # the apothecary's roll: revealed with it, its outcome is the casualty's
                out[o["apothecary"]["id"]] = {"moment": {**moment, "apothecary": o["sealed_by"]}, "outcome": None}
    return out


def veil(record: Record, pending: Mapping[str, str]) -> None:
    """Nothing of a sealed casualty's outcome in the half's record: the player is shown as a casualty
    with no profile (a lasting injury or death would show in it) until the reveal."""
    for team in record.get("teams", []):
        for i, p in enumerate(team.get("players", [])):
            if p.get("id") in pending:
                team["players"][i] = {"id": p["id"], "name": p["name"], "position": p.get("position"),
                                      "MA": None, "ST": None, "AG": None, "AV": None, "skills": [],
                                      "state": "casualty", "sealed": True}


ROLL_PUBLIC = ("id", "kind", "player", "dice", "modifiers", "target", "success", "hidden")
"""What the JSON keeps of a still-sealed ROLL: that it was rolled, by whom; not its faces, total, result,
meaning or the lasting injury and absence it decided."""


def mask_turn_rolls(obj: Any, sealed: frozenset[str]) -> Any:
    """DESIGN §12 ROLLs (``{kind, player, dice, total, result …}``, with the engine's roll ``id``) of a
    still-sealed roll keep their kind and player, not their faces, result or anything the result decided
    (the core's roll records, with ``expr``, are :func:`~anko_writer.hidden.mask_sealed`'s)."""
    if isinstance(obj, dict):
        if "kind" in obj and obj.get("id") in sealed and "dice" in obj and "expr" not in obj:
            return {k: obj[k] for k in ROLL_PUBLIC if k in obj} | {"dice": None, "total": None, "result": None}
        return {k: mask_turn_rolls(v, sealed) for k, v in obj.items()}
    if isinstance(obj, list):
        return [mask_turn_rolls(v, sealed) for v in obj]
    return obj


def headline(record: Mapping[str, Any], ours: str) -> str:
    """What the half's title is about: our or their touchdown, a casualty, or a hard-fought half."""
    tds = [t for t in record.get("turns", []) if t.get("turnover") == "touchdown"]
    mine = sum(1 for t in tds if t.get("team") == ours)
    if mine and mine >= len(tds) - mine:
        return "td_ours"
    if tds:
        return "td_theirs"
    cas = record.get("casualties", [])
    if any(c.get("team") == ours for c in cas):
        return "cas_ours"
    if cas:
        return "cas_theirs"
    return "grind"


def roster_view(w: World, team: Team) -> list[Record]:
    """Our roster for the vote: fit, missing the next match, or 伤情封存 (no profile while sealed)."""
    out = []
    for p in team.sheet.players:
        if p.dead and p.id not in w.pending:
            continue
        row: Record = {"id": p.id, "name": p.name, "position": p.position, "spp": p.spp}
        if p.id in w.pending:
            row.update(state="sealed", MA=None, ST=None, AG=None, AV=None, skills=[], lasting=[])
        else:
            row.update(state="missing" if p.miss_next else "fit", MA=p.MA, ST=p.ST, AG=p.AG, AV=p.AV,
                       skills=list(p.skills), lasting=list(p.lasting))
        out.append(row)
    return out


def league_world(data: Mapping[str, Any], season: int) -> World:
    """The league as ``data`` (the campaign, or a season's start) holds it before season ``season``'s first
    chapter: every team in the league's order (ours first), the seals carried in and whose fate they hide."""
    teams = {data["team"]["name"]: team_from(data["team"], True)}
    teams.update({t["name"]: team_from(t, False) for t in data["league"]})
    book = SealBook.carried_in(data.get("seals", []), "season")
    world = World(season, teams, data["team"]["name"], book)
    for sealed in book.pending():
        if sealed.outcome and "player" in sealed.outcome:
            world.pending[str(sealed.outcome["player"])] = sealed.id
    return world


def vote_record(s: Season, w: World, season: int, part: int, schedule: list[list[Fixture]]) -> Record:
    """What the readers vote on at the end of chapter ``part``: the next half's plan; before a match
    also the line-up, hiring and resting; and its ballot (the reply line, the tie rules, the deadline)."""
    return next_vote(s.rosters, s.words, deadline_of(s.data), w, season, part, schedule)


def opening_vote(data: Mapping[str, Any], rosters: Rosters, words: Words | None) -> Record:
    """The vote chapter 0 ends with (season 1's first half), from the campaign ``data`` as it stands: ``new``
    builds chapter 0's with it, ``anko-writer tally`` counts it (chapter 0 has no JSON)."""
    w = league_world(data, 1)
    return next_vote(rosters, words, deadline_of(data), w, 1, 0, round_robin(w.order()))


def next_vote(rosters: Rosters, words: Words | None, deadline: str, w: World, season: int, part: int,
              schedule: list[list[Fixture]]) -> Record:
    """:func:`vote_record` from its parts (chapter 0 asks for part 1's vote before any Season plays)."""
    nxt = part + 1
    next_season = nxt > PARTS
    key = f"s{season + 1}h1" if next_season else f"s{season}h{nxt}"
    rnd = 1 if next_season else (nxt + 1) // 2
    prematch = next_season or nxt % 2 == 1
    fx = None if next_season else next(f for f in schedule[rnd - 1] if f.has(w.ours))
    roster = rosters[w.us.sheet.race]
    have = {pos.name: sum(1 for p in w.us.sheet.players if p.position == pos.name and (not p.dead or p.id in w.pending))
            for pos in roster.positions}
    # next season's first opponent: round 1 of the same round robin (the state file keeps the league's order)
    target = fx or next(f for f in schedule[0] if f.has(w.ours))
    return {"key": key, "prematch": prematch, "next_season": next_season, "round": rnd,
            "opponent": None if fx is None else (fx.away if fx.home == w.ours else fx.home),
            "home": None if fx is None else fx.home == w.ours,
            "roster": roster_view(w, w.us), "treasury": w.us.sheet.treasury,
            "positions": [{"key": p.key, "name": p.name, "cost": p.cost, "max": p.max, "have": have[p.name]}
                          for p in roster.positions],
            "deadline": deadline, "blitz_team": target.away if target.home == w.ours else target.home,
            "ballot": _ballot(roster, words, w, key, deadline, prematch, target).to_record()}


def _ballot(roster: Roster, words: Words | None, w: World, key: str, deadline: str, prematch: bool,
            fx: Fixture) -> Ballot:
    """The vote's ballot. Names a reader may write: the living players of ``fx``'s opponent for 先强袭; ours for
    首发 and 轮休, but not those whose fate is still sealed (the next chapter may reveal them dead, and a vote
    naming a dead player cannot be played). The examples: the opponent's and our AI coach's first picks (ours
    among the players whose fate is known, so a sealed death changes no name in them)."""
    opp = w.teams[fx.away if fx.home == w.ours else fx.home]
    ours = {p.id: p.name for p in w.us.sheet.players if not p.dead and p.id not in w.pending}
    their = {p.id: p.name for p in opp.sheet.players if not p.dead}
    blitz = next((their[i] for i in ai_lineup(opp) if i in their), next(iter(their.values()), ""))
    return bloodbowl_ballot(key, deadline, words or (lambda k, section: k), list(their.values()), blitz,
                            list(ours.values()), [ours[i] for i in ai_lineup(w.us, list(w.pending)) if i in ours],
                            prematch,
                            [pos.name for pos in roster.positions])


def apply_reveal(w: World, outcome: Record | None) -> object:
    """A revealed casualty takes its effect in the story: the player's fate is public from here on (the
    engine already applied it to his sheet); the dead are buried."""
    if not outcome or "player" not in outcome:
        return None
    pid = str(outcome["player"])
    w.pending.pop(pid, None)
    team = w.us
    p = next((x for x in team.sheet.players if x.id == pid), None)
    dead = bool(p.dead) if p is not None else outcome.get("result") == "dead"
    if p is not None and p.dead:
        team.sheet.players.remove(p)
        team.fallen.append(p.name)
    elif p is None and dead:
        team.fallen.append(str(outcome.get("name", pid)))
    lasting = outcome.get("lasting") or []
    return {"dead": dead, "miss_next": bool(p.miss_next) if p is not None else False,
            "lasting": [lasting] if isinstance(lasting, str) else list(lasting),
            "profile": None if p is None or dead else {"MA": p.MA, "ST": p.ST, "AG": p.AG, "AV": p.AV}}


def _score(result: HalfResult) -> tuple[int, int]:
    return (int(result.score[0]), int(result.score[1]))


def _cas(record: Mapping[str, Any], victim: str) -> int:
    """Casualties suffered by ``victim`` in a half."""
    return sum(1 for c in record.get("casualties", []) if c.get("team") == victim)


def _kicker_first(result: HalfResult, given: Side) -> Side:
    """Who kicked off the half (the engine's coin toss in half 1: its first kick-off)."""
    kicks = result.record.get("kickoffs") or []
    first = kicks[0] if isinstance(kicks, list) and kicks else {}
    side = first.get("kicking", given) if isinstance(first, dict) else given
    return "home" if side == "home" else "away"


def _put(w: World, result: HalfResult) -> None:
    """The teams as the half left them."""
    for sheet in (result.home, result.away):
        w.teams[sheet.name].sheet = sheet


def may_seal(part: int, delay: int) -> bool:
    """Whether a casualty of ours in chapter ``part`` may be sealed with a reveal ``delay`` chapters later:
    only if no match of ours starts in a chapter posted before the reveal (a first half, this season's or,
    past the season's end, the next one's), since whether he plays would tell a reader whether he lives
    (designed, DESIGN §10). The chapters between are then the rest of his own match, which a casualty
    misses whatever the die says.

    >>> may_seal(3, 1), may_seal(3, 2), may_seal(4, 1), may_seal(4, 2), may_seal(9, 2), may_seal(10, 2)
    (True, True, True, False, True, False)
    """
    return not any(q % 2 == 1 for q in range(part + 1, part + max(1, delay)))


def _half(s: Season, w: World, dice: Dice, fx: Fixture, season: int, half: int, plans: dict[Side, Plan],
          score: tuple[int, int], kicking: Side, carry: dict[str, object], seal: bool = True) -> HalfResult:
    """One half through the engine (``seal``: our casualty rolls thrown hidden); the teams updated."""
    home, away = w.teams[fx.home], w.teams[fx.away]
    given = HalfInput(f"s{season}/r{fx.round}/g{fx.game}/h{half}", copy.deepcopy(home.sheet),
                      copy.deepcopy(away.sheet), cast(Any, half), score, kicking, plans, dict(carry), seal)
    result = s.play_half(given, dice)
    _put(w, result)
    return result


def fielded(*records: Mapping[str, Any]) -> list[str]:
    """Ids of the players a match put on the pitch (on it at a half's end, or off it hurt or sent off)."""
    out: list[str] = []
    for rec in records:
        for t in rec.get("teams", []):
            for p in t.get("players", []):
                if (p.get("square") is not None or p.get("state") not in ("reserve", None)) and p["id"] not in out:
                    out.append(p["id"])
    return out


def _grow(s: Season, w: World, dice: Dice, key: str, fx: Fixture, first: HalfResult, second: HalfResult) -> Record:
    """After a match (designed, LRB6): each side's MVP among those it fielded, then every improvement roll
    due; a player whose fate is still sealed rolls his after the reveal."""
    ladder = ladder_from(s.league.advancement)
    played = fielded(first.record, second.record)
    out: Record = {"mvp": [], "advances": []}
    for name in (fx.home, fx.away):
        team = w.teams[name]
        m = mvp(ladder, dice, key, team, played)
        if m is not None:
            out["mvp"].append(m)
    for name in (fx.home, fx.away):
        out["advances"] += advance(ladder, dice, key, w.teams[name], s.rosters[w.teams[name].sheet.race],
                                   list(w.pending))
    return out


def _finish(w: World, fx: Fixture, absent: Mapping[str, list[str]], first: HalfResult, second: HalfResult) -> Record:
    """After a match: those who sat it out recover, the dead (not sealed) are buried, the table counts it."""
    recovered: list[str] = []
    buried: list[str] = []
    for name in (fx.home, fx.away):
        team = w.teams[name]
        for p in team.sheet.players:
            if p.id in absent.get(name, []) and p.miss_next:
                p.miss_next = False
                recovered.append(p.name)
        buried += team.bury(keep=w.pending)
    score = _score(second)
    cas_home = _cas(first.record, fx.away) + _cas(second.record, fx.away)
    cas_away = _cas(first.record, fx.home) + _cas(second.record, fx.home)
    w.results.append(MatchScore(fx.home, fx.away, score[0], score[1], cas_home, cas_away))
    return {"recovered": recovered, "buried": buried}


def _other_match(s: Season, w: World, dice: Dice, fx: Fixture, season: int) -> Record:
    """An AI match, both halves, told briefly."""
    home, away = w.teams[fx.home], w.teams[fx.away]
    absent = {t.name: [p.id for p in t.sheet.players if p.miss_next] for t in (home, away)}
    lineups = {t.name: ai_lineup(t) for t in (home, away)}
    plans: dict[Side, Plan] = {"home": their_plan(s, home, 1, 0, lineups[fx.home]),
                               "away": their_plan(s, away, 1, 0, lineups[fx.away])}
    first = _half(s, w, dice, fx, season, 1, plans, (0, 0), "away", {})
    kick2 = other(_kicker_first(first, "away"))
    lead = first.score[0] - first.score[1]
    plans = {"home": their_plan(s, w.teams[fx.home], 2, lead, lineups[fx.home]),
             "away": their_plan(s, w.teams[fx.away], 2, -lead, lineups[fx.away])}
    second = _half(s, w, dice, fx, season, 2, plans, _score(first), kick2, first.carry)
    growth = _grow(s, w, dice, f"s{season}/r{fx.round}/g{fx.game}", fx, first, second)
    after = _finish(w, fx, absent, first, second)
    cas = [{"team": c["team"], "name": c["name"], "roll": c["roll"], "outcome": c["outcome"], "half": c.get("half")}
           for r in (first, second) for c in cast(list[Record], r.record.get("casualties", []))]
    tds = [{"team": t["team"], "half": t["half"], "turn": t["turn"]}
           for r in (first, second) for t in cast(list[Record], r.record.get("turns", []))
           if t.get("turnover") == "touchdown"]
    return {**fx.to_json(), "score": list(_score(second)), "casualties": cas, "touchdowns": tds, **after,
            "growth": growth}


def stakes(w: World, opp: Team, match: Match | None, home_side: Side) -> Record:
    """What is at stake before a half: both teams' places in the table, who of ours is missing (injured,
    resting, or with his fate still sealed)."""
    rows = table(w.order(), w.results)
    place = {r.team: (i + 1, r) for i, r in enumerate(rows)}
    ours_rank, ours_row = place[w.ours]
    opp_rank, opp_row = place[opp.name]
    missing = [] if match is None else [p.name for p in w.us.sheet.players if p.id in match.absent.get(w.ours, [])]
    sealed = [p.name for p in w.us.sheet.players if p.id in w.pending]
    return {"played": ours_row.played, "rank": ours_rank, "points": ours_row.points, "opp_rank": opp_rank,
            "opp_points": opp_row.points, "missing": missing, "sealed": [n for n in sealed if n not in missing],
            "rested": [] if match is None else [p.name for p in w.us.sheet.players if p.id in match.rested],
            "home": home_side == "home"}


def play_season(s: Season, w: World, last: int) -> Run:
    """Chapters 1..``last`` of season ``w.season``; at the season's end the run's summary and the world
    ready to be written as ``state-end.yaml`` (by the caller)."""
    season = w.season
    dice = Dice(int(s.data["seed"]))
    schedule = round_robin(w.order())
    delay = int(s.data.get("options", {}).get("reveal_delay", 1))
    seal = "casualty" in sealed_kinds(s.data, SEALABLE)  # options.sealed
    arc = Arc(season, dice, w.book, lambda o: apply_reveal(w, o), delay, publish=mask_turn_rolls)
    match: Match | None = None
    for part in range(1, last + 1):
        with arc.part(part) as p:
            match = _chapter(s, w, dice, delay, p, schedule, match, seal)
    summary = summary_of(w, arc, s) if last == PARTS else {}
    return arc.run(summary)


def _chapter(s: Season, w: World, dice: Dice, delay: int, p: Part, schedule: list[list[Fixture]],
             match: Match | None, seal: bool = True) -> Match | None:
    """Chapter ``p``'s half of our match (and after a second half, the round's other matches and the table)
    into ``p.results``; the match going on into the next chapter, if any (``seal``: the host seals our
    casualty rolls, ``options.sealed``)."""
    season, part = w.season, p.key.part
    rnd, half = (part + 1) // 2, 2 - part % 2
    reveals = p.reveals
    fx = next(f for f in schedule[rnd - 1] if f.has(w.ours))
    home_side: Side = "home" if fx.home == w.ours else "away"
    opp = w.teams[fx.away if home_side == "home" else fx.home]
    v, key = vote(s, season, part), f"s{season}h{part}"
    results: Record = {"ruleset": "bloodbowl", "arc": season, "part": part, "season": season, "round": rnd,
                       "half": half, "title": s.data["title"], "team": w.ours, "opponent": opp.name,
                       "coach": w.us.coach, "opponent_coach": opp.coach, "fixture": fx.to_json(),
                       "home": fx.home, "away": fx.away, "ours_side": home_side, "reveals": reveals}
    if part == 1:
        results["schedule"] = [[f.to_json() for f in r] for r in schedule]
    if half == 1:
        pre: Record = {"hires": [], "ai_hires": ai_hires(s, w, dice, f"s{season}/r{rnd}/hire")}
        roster = s.rosters[w.us.sheet.race]
        for h in v.get("hire") or []:
            pre["hires"].append(hire(w.us, roster, h["position"], s.league, dice,
                                     f"s{season}/r{rnd}/hire/{w.ours}", h.get("name"), w.pending))
            pre["hires"][-1]["voted"] = True
        resting = [_player(s, w.us, word, f"{key}.rest") for word in v.get("rest") or []]
        absent = {t.name: [p.id for p in t.sheet.players if p.miss_next] for t in (w.us, opp)}
        lineup, dropped = choose_lineup(s, w.us, v, key, resting, [])
        match = Match(fx, absent, resting, lineup)
        before = stakes(w, opp, match, home_side)
        their = ai_lineup(opp)
        plan, source = our_plan(s, w, opp, season, part, 1, 0, lineup)
        plans: dict[Side, Plan] = {home_side: plan, other(home_side): their_plan(s, opp, 1, 0, their)}
        names = {p.id: p.name for p in w.us.sheet.players}
        pre.update(rested=[names[i] for i in resting], dropped=[names[i] for i in dropped],
                   absent=[{"team": t, "names": [n.name for n in w.teams[t].sheet.players if n.id in ids]}
                           for t, ids in absent.items()])
        results["pre"] = pre
        result = _half(s, w, dice, fx, season, 1, plans, (0, 0), "away", {},
                       seal and may_seal(part, delay))
        match.first = result
        match.kicking = other(_kicker_first(result, "away"))
    else:
        if match is None or match.first is None:
            raise AnkoError(f"season {season}: half 2 of round {rnd} without its first half")
        first = match.first
        before = stakes(w, opp, match, home_side)
        lead = first.score[0] - first.score[1]
        mine = lead if home_side == "home" else -lead
        carried_out = set(cast(list[str], first.carry.get("out", []))) if first.carry else set()
        if "lineup" in v:
            lineup, dropped = choose_lineup(s, w.us, v, key, match.rested, sorted(carried_out))
        else:
            lineup, dropped = match.lineup, []
        plan, source = our_plan(s, w, opp, season, part, 2, mine, lineup)
        plans = {home_side: plan, other(home_side): their_plan(s, opp, 2, -mine, ai_lineup(opp))}
        result = _half(s, w, dice, fx, season, 2, plans, _score(first), match.kicking, first.carry,
                       seal and may_seal(part, delay))
    record = copy.deepcopy(result.record)
    seals = sealed_casualties(record, w.ours)
    for rid, note in seals.items():
        if note["outcome"] is not None:
            w.pending[str(note["outcome"]["player"])] = rid
    veil(record, w.pending)
    results.update({k: x for k, x in record.items() if k != "sealed"})
    results.update(plans={k: dict(p) for k, p in plans.items()}, plan_source=source,
                   headline=headline(record, w.ours), half_score=list(_score(result)))
    first_record = None
    if half == 2 and match is not None and match.first is not None:
        first_record = copy.deepcopy(match.first.record)
        veil(first_record, w.pending)
    results["story"] = half_story(results, w.ours, home_side, first_record,
                                  before, w.titles, w.told)
    if half == 2 and match is not None and match.first is not None:
        growth = _grow(s, w, dice, f"s{season}/r{rnd}/g{fx.game}", fx, match.first, result)
        post: Record = {"ours": _finish(w, fx, match.absent, match.first, result), "growth": growth}
        post["income"] = [income(s, dice, f"s{season}/r{rnd}/g{fx.game}", w.teams[fx.home], w.teams[fx.away],
                                 _score(result))]
        post["others"] = []
        for f in schedule[rnd - 1]:
            if f is fx:
                continue
            post["others"].append(_other_match(s, w, dice, f, season))
            post["income"].append(income(s, dice, f"s{season}/r{rnd}/g{f.game}", w.teams[f.home],
                                         w.teams[f.away], tuple(post["others"][-1]["score"])))
        post["standings"] = [r.to_json() for r in table(w.order(), w.results)]
        results["post"] = post
    results["story"]["ahead"] = look_ahead(w, schedule, season, rnd, half, results, match)
    if half == 2:
        match = None
    results["rolls"] = [r.to_json() for r in p.seal(cast(Mapping[str, Mapping[str, Record]], seals))]
    results["sealed"] = p.sealed
    results["vote"] = vote_record(s, w, season, part, schedule)
    results["voted"] = bool(v)
    p.results = results
    return match


def look_ahead(w: World, schedule: list[list[Fixture]], season: int, rnd: int, half: int, results: Record,
               match: Match | None) -> Record:
    """What the next chapter holds, as a story item: after a first half, the score and who kicks off the second;
    after a second half, the next round's opponent and both teams' places (or, after the last round, our final
    place); and who of ours still has his fate sealed (his name, never the die)."""
    sealed = [p.name for p in w.us.sheet.players if p.id in w.pending]
    score = results["half_score"]
    me = 0 if results["ours_side"] == "home" else 1
    facts: Record = {"team": w.ours, "sealed": sealed, "mine": score[me], "theirs": score[1 - me],
                     "opponent": results["opponent"]}
    if half == 1 and match is not None:
        kicker = match.fixture.home if match.kicking == "home" else match.fixture.away
        state = "leading" if score[me] > score[1 - me] else "trailing" if score[me] < score[1 - me] else "level"
        facts.update(kicker=kicker, receiving=kicker != w.ours)
        return place({"kind": f"ahead_half2_{state}", "facts": facts}, w.told)
    rows = results["post"]["standings"]
    rank = {r["team"]: (i + 1, r["points"]) for i, r in enumerate(rows)}
    facts.update(rank=rank[w.ours][0], points=rank[w.ours][1], leader=rows[0]["team"], lead_points=rows[0]["points"])
    if rnd >= len(schedule):
        return place({"kind": "ahead_end", "facts": facts}, w.told)
    fx = next(f for f in schedule[rnd] if f.has(w.ours))
    nxt = fx.away if fx.home == w.ours else fx.home
    facts.update(next=nxt, home=fx.home == w.ours, round=rnd + 1, next_rank=rank[nxt][0], next_points=rank[nxt][1])
    return place({"kind": "ahead_next", "facts": facts}, w.told)


def summary_of(w: World, arc: Arc, s: Season) -> Record:
    """The season's index: the final table, our results, the fallen and the best players (nothing sealed)."""
    chapters = arc.chapters
    ours = []
    for ch in chapters:
        r = ch.results
        if r["half"] == 2:
            ours.append({"round": r["round"], "home": r["home"], "away": r["away"], "score": r["half_score"]})
    standings = chapters[-1].results["post"]["standings"] if chapters else []
    stars = sorted(((p.spp, p.name, t.name) for t in w.teams.values() for p in t.sheet.players
                    if not p.dead and p.id not in w.pending), key=lambda x: (-x[0], x[1]))[:5]
    return {"ruleset": "bloodbowl", "arc": w.season, "season": w.season, "title": s.data["title"], "team": w.ours,
            "results": ours, "standings": standings, "champion": standings[0]["team"] if standings else None,
            "fallen": {t.name: list(t.fallen) for t in w.teams.values() if t.fallen},
            "stars": [{"spp": a, "name": b, "team": c} for a, b, c in stars],
            "pending": arc.pending(),
            "treasury": w.us.sheet.treasury}


__all__ = ["Match", "PARTS", "PlayHalf", "ROUNDS", "SEALABLE", "Season", "World", "apply_reveal", "headline", "league_world",
           "mask_turn_rolls", "may_seal", "next_vote", "opening_vote", "part_of", "play_season", "roster_view", "veil",
           "vote_record"]
