"""The 群英杯's season loop: a season played month by month on the core's arc loop (:mod:`anko_writer.arcs`),
calling the wings (match, competition, events, money, club, transfers, setup), then its settlement."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from ....arcs import Arc, HandedRun, Part
from ....ballot import deadline_of
from ....errors import AnkoError
from ....resources import Resources
from ....ruleset import Chapter, SeasonRun, sealed_kinds
from ....seals import SealBook
from ..competition.calendar import CUP_MONTH, SETTLEMENT_MONTH
from ..competition.calendar import MONTHS as SEASON_MONTHS
from ..competition.standings import Row, table
from ..setup.tables import PurasbarTables, load_purasbar_tables
from ..transfers.transfers import summer_month
from . import checkpoint
from .ballot import month_ballot, window_ballot
from .carry import carried_seals, carry_over, fortunes_of, month_achievements
from .cast import CoachState, Squad
from .cupmonth import play_cup_month
from .headlines import LEAGUE_ROUNDS
from .league_month import clubs_json, next_vote, play_league_month, tactics_formation, tired
from .month_money import apps_now, month_money
from .phases import (
    league_morale,
    life_from_campaign,
    month_end_phase,
    our_results,
    phases_before,
)
from .publish import publish as published
from .races import races, stakes_from
from .story import stories
from .windows import market_list, post_market, window_budget, window_phase
from .world import SEALABLE, World, new_world, open_books


def _month_record(world: World, month: int, played: dict[str, Any], campaign: dict[str, Any],
                  reveals: list[dict[str, Any]], sealed: list[dict[str, Any]], lean: bool = False,
                  standing: list[Row] | None = None) -> dict[str, Any]:
    """The month's record (DESIGN §5); ``lean`` (an audit's month): the clubs as the audit reads them, no vote;
    ``standing``: the league table as it stands (computed when not given)."""
    standings = [r.to_json() for r in (table(world.order, world.results) if standing is None else standing)]
    return {
        "ruleset": "purasbar", "season": world.season, "month": month,
        "title": campaign["title"], "club": world.ours.name, "coach": campaign["coach"]["name"],
        "stadium": campaign["club"]["stadium"], "doctor": world.ours.doctor,
        "rolls": [],  # a place in the record's order: the arc fills it with every roll's to_json on the part's exit
        **played,
        "standings": standings,
        "clubs": clubs_json(world, lean),
        "tired": tired(world),
        "reveals": reveals,
        "sealed": sealed,
        "vote": None if lean else _vote(world, month, campaign, window="market" in played),
    }


def _races(results: dict[str, Any], tables: PurasbarTables) -> Any:
    """The month's table as races (:mod:`.season.races`): every club has the same league matches left."""
    rows = results["standings"]
    left = LEAGUE_ROUNDS - int(rows[0]["played"]) if rows else 0
    return races(rows, left, results["club"], stakes_from(tables.prizes, tables.fans, tables.morale)) if rows else None


def _squad(world: World) -> list[Squad]:
    """Our players as the month's cast reads them (a sealed absence shows no length, 000 §5.8.4)."""
    sealed = world.ours.infirmary.sealed
    return [{"name": p.name, "position": p.position, "core": p.core,
             "injured_weeks": None if sealed(p.name) else p.injured_weeks} for p in world.ours.players]


def _coach(world: World) -> CoachState | None:
    """Our coach and the owner's and his §15.5 regard for each other."""
    life = world.life
    if life is None:
        return None
    owner_to = life.affinity.get("coach", "owner_to")
    return {"name": world.ours.coach.name, "owner_to": owner_to, "to_owner": life.affinity.get("coach", "to_owner"),
            "tier": life.tables.people.affinity_tier(owner_to).params["name"]}


def _vote(world: World, month: int, campaign: dict[str, Any], window: bool = False) -> dict[str, Any] | None:
    """The next month's 安价 (none after month 12: the settlement asks for the summer window), with the
    deadline the campaign sets and its ballot (issue 16: the reply line and ``anko-writer tally`` read it);
    ``window``: the next month opens a transfer window whose market this chapter posts."""
    if month >= SEASON_MONTHS:
        return None
    vote = {**next_vote(world, month), "deadline": deadline_of(campaign)}
    market = [p.name for p in world.market] if window else None
    vote["ballot"] = month_ballot(vote, [p.name for p in world.ours.players], market).to_record()
    return vote


def _prep_record(world: World) -> dict[str, Any]:
    """What month 1 publishes before the first ball: the draw and our 23 fixtures with their 1D2."""
    ours = world.ours.name
    fixtures = [f.to_json() for f in world.fixtures if ours in (f.a, f.b)]
    return {"draw_order": world.draw_order, "our_fixtures": fixtures,
            "all_fixtures": [f.to_json() for f in world.fixtures]}


def _sealed_moments(played: dict[str, Any], ours: str) -> dict[str, dict[str, Any]]:
    """Sealed roll id → what the reveal retells: the match, the event and whom it struck (public), and
    what the sealed die decided (``outcome``, private until the reveal)."""
    out: dict[str, dict[str, Any]] = {}
    for m in played.get("matches", []):
        for ev in [m.get("pre_match_event") or {}, *(m.get("match_events") or [])]:
            rs = ev.get("response") or {}
            if not rs.get("sealed"):
                continue
            hurt = next((a for a in ev.get("applied", []) if a.get("pending")), None)
            opp = m["away"] if m["home"] == ours else m["home"]
            out[rs["roll"]["id"]] = {
                "moment": {"match": m["id"], "competition": m["competition"], "round": m["round"],
                           "opponent": opp, "home": m["home"] == ours, "point": ev["point"], "event": ev["name"],
                           "player": hurt["player"] if hurt else None, "modifier": rs["modifier"],
                           "threshold": rs["threshold"]},
                "outcome": {**rs["result"], "absence": {"player": hurt["player"], **hurt["pending"]} if hurt else None}}
    return out


def _revealed_here(played: dict[str, Any]) -> set[str]:
    """Shoot-out kicks are sealed only for their shoot-out: the bracket goes on in the same chapter, so
    the chapter reveals them as the shoot-out ends (``match.j2``)."""
    return {r["id"] for m in played.get("matches", []) for k in (m.get("shootout") or {}).get("kicks", [])
            if k["hidden"] for r in (k["taker_roll"], k["keeper_roll"])}


def _unseal(world: World, outcome: dict[str, Any] | None) -> bool | None:
    """A revealed absence takes its real length: out through its last week, or back at once if that has
    passed (None when there is no absence, or the player is no longer out under a seal)."""
    absence = (outcome or {}).get("absence")
    if not absence:
        return None
    club = world.ours
    player = next((p for p in club.players if p.name == absence["player"]), None)
    if player is None or not club.infirmary.sealed(player.name):
        return None  # sold, or healed with the off-season
    club.infirmary.unseal(player, absence["out_until_week"], world.week)
    return player.injured_weeks == 0


def _our_results(chapters: list[Chapter]) -> list[dict[str, Any]]:
    """Our club's league results, month by month."""
    out = []
    for ch in chapters:
        for i in ch.results["our_matches"]:
            m = ch.results["matches"][i]
            out.append({"month": ch.month, "competition": m["competition"], "round": m["round"],
                        "stage": m.get("stage"), "home": m["home"], "away": m["away"], "score": m["score"],
                        "extra_time": m["extra_time"], "penalties": m["penalties"], "winner": m["winner"]})
    return out


def _scorers(chapters: list[Chapter], top: int = 10) -> list[dict[str, Any]]:
    """Goal scorers of the whole league, most goals first (ties by name for a stable order)."""
    goals: dict[tuple[str, str], int] = {}
    for ch in chapters:
        for m in ch.results["matches"]:
            for a in m["attacks"]:
                if a["goal"]:
                    k = (a["shooter"], a["team"])
                    goals[k] = goals.get(k, 0) + 1
    ranked = sorted(goals.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return [{"name": n, "team": t, "goals": g} for (n, t), g in ranked]


def market_months(tables: PurasbarTables) -> dict[int, int]:
    """Chapter month → the month of the window whose market it posts: the chapter before each window
    but the summer one (transfers.yaml ``windows``; the shipped winter window opens in month 7, so month 6).
    The summer window's market is posted by the settlement before the season, or at the first season's start.

    >>> from ....resources import Resources
    >>> market_months(load_purasbar_tables(Resources("purasbar", None)))
    {6: 7}
    """
    summer = summer_month(tables.transfers)  # posted before the season instead
    return {m - 1: m for m in sorted(tables.windows.values()) if m > 1 and m != summer}


@dataclass
class Season:
    """A season being played month by month: the world and everything the month loop carries."""

    data: dict[str, Any]
    source: dict[str, Any]
    world: World
    arc: Arc
    """The season's chapters and seals (:mod:`anko_writer.arcs`)."""
    summer: Any
    prep: dict[str, Any]
    tables: PurasbarTables
    month: int = 0
    """The last month played (0: none yet)."""
    state_text: str | None = None
    end_state: dict[str, Any] | None = None
    """The end state handed to the next season as loaded (:func:`.setup.state.handed_state`; the audit)."""
    lean: bool = False
    """An audit's season: the records leave out what only a chapter's text and JSON read (the rolls, the
    vote, headlines, races, cast and stories, the clubs' full player records); the world plays the same
    (``tests/purasbar/test_audit_lean.py``)."""

    @property
    def book(self) -> SealBook:
        """The season's seals."""
        assert self.arc.book is not None
        return self.arc.book

    @classmethod
    def begin(cls, data: dict[str, Any], state: dict[str, Any] | None, season: int,
              resources: Resources) -> Season:
        """The season before month 1: the world from the campaign (season 1) or the previous season's state."""
        from ..setup.state import ENDING_CN, player_from, start_data  # here: a month resumed from its checkpoint does without it

        if state is not None and state["ending"] != "none":
            raise AnkoError(f"故事在第 {state['season']} 赛季之后结束了（{ENDING_CN[state['ending']]}），"
                            f"没有第 {season} 赛季")
        source = start_data(data, state) if state is not None else data
        tables = load_purasbar_tables(resources)
        world = new_world(source, data["seed"], season, tables)
        world.sealed = sealed_kinds(data, SEALABLE)
        open_books(world, source, tables)
        world.life = life_from_campaign(source, tables, world.ours.ledger)
        book = SealBook(arc_word="season")
        carry_over(world, state, book)
        arc = Arc(season, world.dice, book, partial(_unseal, world), data["options"]["reveal_delay"], _published,
                  roll_rows=True)
        summer = None
        if state is not None and state["market"]:
            world.market = [player_from(d) for d in state["market"]]
        else:
            summer = post_market(world, season, summer_month(tables.transfers), tables, tables.names)
        return cls(data, source, world, arc, summer, _prep_record(world), tables)

    def play_month(self) -> None:
        """Play the next month and keep its chapter."""
        world, tables, data = self.world, self.tables, self.data
        season, month = world.season, self.month + 1
        self.month = world.month = month
        with self.arc.part(month) as part:  # 000 §5.8.4: the reveals told first, in force from the start
            decisions = data["decisions"].get(f"s{season}m{month}", {})
            apps = apps_now(world)
            life = phases_before(world, world.life, month, decisions)
            life["market"] = self.summer if month == summer_month(tables.transfers) else None
            life["window"] = window_phase(world, month, decisions, tables, tables.names)
            coach = life["coach"]
            tactics = None
            if coach["carried_out"] and (coach["action"] or coach["row"]["key"]) == "tactics_review":
                tactics = tactics_formation(world, month) if month != CUP_MONTH else None
            if month == CUP_MONTH:
                played = play_cup_month(world, decisions, tactics)
            else:
                played = play_league_month(world, month, decisions, tactics)
            life["end"] = month_end_phase(world, world.life, month, our_results(world, played))
            league_morale(world, played)
            standing = table(world.order, world.results)  # the month's matches are all in: one table for both
            life["money"] = month_money(world, month, played, apps, tables, standing)
            posts = market_months(tables)
            if month in posts:
                played["market"] = post_market(world, season, posts[month], tables, tables.names)
            played["market_list"] = market_list(world, tables) if month in posts else []
            if month in posts:
                played["market_budget"] = window_budget(world, tables)
            played["life"] = life
            if month == 1:
                played["prep"] = self.prep
            # every other hidden roll waits reveal_delay chapters for its reveal, with what it will retell
            part.seal(_sealed_moments(played, world.ours.name), _revealed_here(played))
            results = _month_record(world, month, played, data, part.reveals, part.sealed, self.lean, standing)
            results["achievements"] = month_achievements(world, results, tables)
            if not self.lean:  # what the chapter tells: read by its text and JSON alone
                results["headlines"] = world.told.month(results)  # issue 15: what heads the month (season.headlines)
                results["races"] = _races(results, tables)
                results["cast"] = world.cast.month(results, _squad(world), _coach(world), world.week)
                results["stories"] = stories(results)  # issue 15: our matches told as stories (season.story)
            part.results = results

    def settle(self, ruleset: str, keep_state: bool = True, hand_state: bool = False) -> None:
        """000 §4.4 after month 12: the settlement chapter and the state the next season starts from, as
        text (``keep_state``; False: an audit's season, whose text nobody reads) and, with ``hand_state``
        (an audit's chained season), as the object the text would load as."""
        from ..setup.state import handed_state, snapshot, state_yaml

        world, tables = self.world, self.tables
        end = _settlement_chapter(ruleset, world, self.arc, self.data, tables, tables.names, self.lean)
        if not keep_state and not hand_state:
            return
        ending = end.results["settlement"]["next"]["ending"]
        snap = snapshot(world, self.source, fortunes=fortunes_of(world), market=market_list(world, tables),
                        seals=carried_seals(self.book), ending=ending)
        if keep_state:
            self.state_text = state_yaml(snap)
        if hand_state:
            self.end_state = handed_state(snap)

    def run(self, ruleset: str) -> SeasonRun:
        """The chapters played, the season's summary and (after a settlement) its end state."""
        chapters, data = self.arc.chapters, self.data
        months = [c for c in chapters if c.name is None]
        summary = {"ruleset": ruleset, "season": self.world.season, "title": data["title"],
                   "club": self.world.ours.name, "months": [c.month for c in months],
                   "standings": months[-1].results["standings"] if months else [],
                   "our_results": _our_results(months), "scorers": _scorers(months),
                   "fixtures": self.prep["our_fixtures"], "reveals": [],
                   "pending": self.arc.pending(),
                   "cup": _cup_summary(months),
                   "settlement": chapters[-1].results["settlement"] if len(chapters) > len(months) else None}
        if self.end_state is not None:
            return HandedRun(chapters, summary, state_text=self.state_text, state=self.end_state)
        return SeasonRun(chapters, summary, state_text=self.state_text)


def _published(results: dict[str, Any], sealed: frozenset[str]) -> dict[str, Any]:
    """The JSON beside a chapter, masked by the core: in the compact form (:mod:`.publish`)."""
    return published(results)


def _settlement_chapter(ruleset: str, world: World, arc: Arc, data: dict[str, Any], tables: PurasbarTables,
                        names: Any, lean: bool = False) -> Chapter:
    """000 §4.4: the season's settlement as its own chapter (``sNN/end.md``), after month 12."""
    chapters = list(arc.chapters)
    with arc.part(SETTLEMENT_MONTH, template="settlement.md.j2", name="end") as part:
        _settlement(ruleset, world, part, data, chapters, tables, names, lean)
    return arc.chapters[-1]


def _settlement(ruleset: str, world: World, part: Part, data: dict[str, Any], chapters: list[Chapter],
                tables: PurasbarTables, names: Any, lean: bool = False) -> None:
    """The settlement chapter's record into ``part`` (``lean``: an audit's, as :attr:`Season.lean`: no recap,
    no summer window's vote)."""
    from .recap import recap  # the settlement's alone: a month does without both (issue 29)
    from .settlement import settle

    reveals = part.reveals
    rec = settle(world, [c.results for c in chapters], tables, names)
    part.seal()
    ended = rec["next"]["ending"] != "none"
    if ended:  # the final chapter: nothing may stay sealed for ever
        part.reveal_all()
    results = {"ruleset": ruleset, "season": world.season, "month": SETTLEMENT_MONTH,
               "title": data["title"], "club": world.ours.name, "rolls": [],  # filled by the arc
               "settlement": rec, "standings": rec["ranking"]["table"], "clubs": clubs_json(world, lean),
               "reveals": reveals, "sealed": part.sealed,
               "market_list": market_list(world, tables), "next_key": f"s{world.season + 1}m1",
               "ended": ended}
    last = chapters[-1].results if chapters else {}
    if lean:
        part.results = results
        return
    results["recap"] = recap(rec["ranking"]["table"], world.ours.name,  # issue 15: the season in a paragraph
                             last if last.get("month") == CUP_MONTH else None, (last.get("cast") or {}).get("scorer"),
                             rec["season_money"]["net"], rec["season_money"]["balance"])
    if not ended:
        results["market_budget"] = window_budget(world, tables)  # the summer window's vote (issue 16)
        key = results["next_key"]
        ballot = window_ballot(key, deadline_of(data), [p.name for p in world.market],
                               [p.name for p in world.ours.players])
        results["vote"] = {"key": key, "deadline": ballot.deadline, "ballot": ballot.to_record()}
    part.results = results


def _cup_summary(chapters: list[Chapter]) -> dict[str, Any] | None:
    """The 群英杯 part of the season summary, once month 12 was played."""
    cup = next((c.results for c in chapters if c.month == CUP_MONTH), None)
    if cup is None:
        return None
    return {"swiss_table": cup["swiss_table"], "qualifiers": cup["qualifiers"], "bracket": cup["bracket"],
            "champion": cup["champion"]}


def opening_vote(data: dict[str, Any], resources: Resources) -> dict[str, Any] | None:
    """Month 1's vote, as chapter 0 ends with it (the season as the campaign ``data`` starts it)."""
    return _vote(Season.begin(data, None, 1, resources).world, 0, data)


def play_season(ruleset: str, data: dict[str, Any], state: dict[str, Any] | None, season: int, last_month: int,
                resources: Resources, publish: bool = True, keep_state: bool = True,
                hand_state: bool = False) -> SeasonRun:
    """One season from its start (the campaign for season 1, else the previous season's state) to
    ``last_month``, with the settlement after month 12; ``publish=False`` (the audit): no public JSON;
    ``keep_state=False`` (the audit): no state text; ``hand_state`` (the audit's chained season): the end
    state handed on as an object (a :class:`~anko_writer.arcs.HandedRun`)."""
    played = Season.begin(data, state, season, resources)
    played.arc.public = played.arc.keep_rolls = publish
    played.lean = played.world.lean = not publish
    while played.month < last_month:
        played.play_month()
    if last_month == SEASON_MONTHS:
        played.settle(ruleset, keep_state, hand_state)
    return played.run(ruleset)


def play_month(ruleset: str, data: dict[str, Any], state: dict[str, Any] | None, season: int, month: int,
               resources: Resources) -> SeasonRun:
    """Month ``month`` alone, for the ``month`` command: no settlement after month 12, and the months before
    it resumed from the checkpoint an earlier run left (:mod:`.checkpoint`) when nothing they read has
    changed; the run holds the months played here, not the whole season."""
    key = checkpoint.Key.of(data, state, season, resources)
    played = checkpoint.resume(key, month, Season)
    if played is None:
        played = Season.begin(data, state, season, resources)
    else:  # the votes of later months may have changed since the checkpoint was kept
        played.data, played.source = data, data
        if state is not None:  # a later season: the state file's reader, which a first season's month does without
            from ..setup.state import start_data

            played.source = start_data(data, state)
        load_purasbar_tables(resources)  # the cities the schemas read (a side effect of loading)
    while played.month < month:
        played.play_month()
        if played.month >= month - 1:
            checkpoint.keep(key, played)
    return played.run(ruleset)


__all__ = ["Season", "market_months", "opening_vote", "play_month", "play_season"]
