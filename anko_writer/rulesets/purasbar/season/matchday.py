"""Playing one fixture in the season: weeks and absences, plans from the votes, and the match itself."""

from __future__ import annotations

from typing import Any, cast

from ..events.environment import injury_bonus
from ..events.match_events import MatchDepth
from ..match.engine import VENUE_BONUS, YOUNG_AGE, play, prepare, recoveries
from ..match.injuries import Infirmary
from ..match.lineup import ai_formation, needs
from ..match.records import Disclosure, HomeAway, MatchMod, MatchRecord, RestRecord, WeekRecord
from ..match.side import AI_SUB_STAMINA, Plan, Side
from ..models import Club
from ..money.finance import book_gate, ticket_income
from ..money.records import Gate
from .phases import pre_match, slice_hook
from .world import World, disclose_for, reveal_for


def _our_extras(world: World, life: Any, pre: dict[str, Any], us: Side, them: Side,
                counts: dict[str, int]) -> Disclosure | None:
    """Our side's extras at kick-off: event modifiers (pre-match and the month's drills), the §8.1.2
    training boost in the month's first match, and a scouted opponent's abilities (§5.8.2)."""
    # copies (a side counts its own down) of phases.pre_match's modifiers, untyped there
    us.mods += [cast(MatchMod, dict(m)) for m in pre["pending"]["us"]]
    them.mods += [cast(MatchMod, dict(m)) for m in pre["pending"]["them"]]
    for m in life.month_mods:
        (us if m["side"] == "us" else them).mods.append({"amount": m["amount"], "slices": m["slices"]})
    if counts[world.ours.name] == 1 and life.boost:
        us.pre_bonus = dict(life.boost)
        life.boost = {}
    if life.scout_next:
        life.scout_next = False
        return disclose_for(world)(them.club)
    return None


def plan_for(club: Club, decisions: dict[str, Any], hide_penalties: bool = False) -> Plan:
    """Our side follows the readers' votes where they voted; everything else follows the AI rules."""
    if not club.ours:
        return Plan(club.coach)
    subs = decisions.get("subs")
    return Plan(club.coach, timeouts=decisions.get("timeouts"),
                sub_below=subs["stamina_below"] if subs else AI_SUB_STAMINA, subs_voted=subs is not None,
                penalty_order=decisions.get("penalties"), hide_penalties=hide_penalties)


REST_SHARE = 2
"""Designed: a completed week gives every healthy player half the §5.6 amount (see :func:`rest`)."""


def rest(world: World, week: int) -> list[RestRecord]:
    """The recovery of one completed week: every healthy player recovers half the §5.6 amount (rounded
    down, no third-match halving; our fitness coach adds his level), on top of his post-match recovery.

    Designed reading of §4.1 phase 5 item 1, a 体力恢复 besides the post-match one with no amount and
    no one named. Read as once a month, or only for players who sat the week out, the text's arithmetic
    (−30 a match, about +15 after it, halved from a month's third match) leaves the eight-match cup month
    with squads of three or four fit players. The full §5.6 amount every week (the reading before issue
    15) erased every league match's fatigue: 95 % of league starts began at 100 stamina, no league player
    ended a match under 50, and §5.3.2 and the stamina terms of §5.7 acted only in the cup month. With
    half, measured on the built-in campaign's season 1 (seeds 1 and 2): 49–58 % of league starts at 100;
    19–25 % of league players end a match under 50 (the §5.3.2 penalty acts in its last slices) and 7–9 %
    under 30; 68–96 §5.7.3 retirement checks in league months (0–1 before). A third was tried too: league
    starts averaged 77–79 and in-match retirements quadrupled, an injury crisis every month.
    """
    out: list[RestRecord] = []
    for club in world.clubs.values():
        # designed: our fitness coach adds his level to the weekly recovery (not to §5.6's formula)
        extra = world.life.level("fitness") if club.ours and world.life is not None else 0
        young, other = recoveries(club, 1)  # recovery(club, p, 1) of a young and of any other player
        young, other = young // REST_SHARE + extra, other // REST_SHARE + extra
        ours = club.ours
        for p in club.players:
            before = p.stamina
            if before < 100 and p.injured_weeks == 0 and p.attrs:  # p.healthy and p.rolled, read directly
                after = before + (young if (p.age or 0) <= YOUNG_AGE else other)
                p.stamina = after = after if after < 100 else 100
                if ours:
                    out.append({"week": week, "name": p.name, "before": before, "after": after})
    return out


def advance_week(world: World, week: int) -> WeekRecord:
    """Move every club to ``week``: the weeks completed on the way rest (see :func:`rest`), then injured
    players whose absence ended come back (000 §5.7.4)."""
    out: WeekRecord = {"rest": [], "returns": []}
    if week <= world.week:
        return out
    for done in range(world.week, week):
        out["rest"] += rest(world, done)
    world.week = week
    for club in world.clubs.values():
        infirmary: Infirmary = club.infirmary  # ``Club.infirmary`` is typed ``Any`` in models.py
        for rec in infirmary.advance(club.players, week, world.dice, f"s{world.season}/week{week}/{club.name}"):
            out["returns"].append({"team": club.name, **rec})
    return out


def play_fixture(world: World, key: str, home_name: str, away_name: str, *, competition: str,
                 round_no: int, week: int, neutral: bool, decisions: dict[str, Any],
                 counts: dict[str, int]) -> MatchRecord:
    """One match on its own dice stream ``key``; ``counts`` holds each club's matches this month (§5.6)."""
    home, away = world.clubs[home_name], world.clubs[away_name]
    ours = home.ours or away.ours
    for c in (home, away):
        counts[c.name] = counts.get(c.name, 0) + 1
    venue = 0 if neutral else VENUE_BONUS
    knock = competition == "knockout"
    hide = knock and "shootout" in world.sealed  # options.sealed
    life = world.life if ours else None
    depth = MatchDepth()
    pre = None
    if life is not None:
        us, them = (home, away) if home.ours else (away, home)
        pre = pre_match(world, life, key, depth, us, them)
    found = {c.name: needs(c) for c in (home, away)}  # the squads do not change before kick-off
    picks = {c.name: None if c.ours else ai_formation(c, found[c.name]) for c in (home, away)}
    hs, h_temps = prepare(world.dice, key, home, home.formation, venue, plan_for(home, decisions, hide),
                          found[home.name])
    as_, a_temps = prepare(world.dice, key, away, away.formation, -venue, plan_for(away, decisions, hide),
                           found[away.name])
    for s in (hs, as_):
        pick = picks[s.club.name]
        if pick is not None and s.kickoff is not None:  # kickoff: set by prepare
            s.kickoff["choice"] = pick
    scouted = None
    if life is not None:
        assert pre is not None  # set above whenever life is not None
        scouted = _our_extras(world, life, pre, hs if home.ours else as_, as_ if home.ours else hs, counts)
    adapting: HomeAway[bool] = {"home": hs.adapting, "away": as_.adapting}
    rec = play(world.dice, key, hs, as_, competition=competition, round_no=round_no, neutral=neutral,
               reveal=reveal_for(world, ours), disclose=disclose_for(world) if ours else None,
               match_no=(counts[home.name], counts[away.name]), week=week,
               on_point=slice_hook(world, life, key, depth, world.ours.name) if life is not None else None,
               risk_bonus=injury_bonus(world.life.environment) if world.life is not None else 0, lean=world.lean)
    rec["pre_match_event"] = pre["record"] if pre else None
    rec["scouted"] = scouted
    rec["boosted"] = [{"player": n, "attr": a, "amount": v} for n, (a, v) in
                      ((hs if home.ours else as_).pre_bonus.items() if life is not None else [])]
    rec.update({"ours": ours, "week": week, "temps": {"home": h_temps, "away": a_temps},
                "adapting": adapting})
    for side, club in ((hs, home), (as_, away)):
        club.formation = side.formation  # a change in play stands (000 §7.2, §7.4.4)
        played = world.played
        for p in {id(p): p for _, p, _ in side.entries}.values():
            weeks = played.get((club.name, p.name))
            if weeks is None:
                played[club.name, p.name] = {week}
            else:
                weeks.add(week)
            p.apps += 1
    count_goals(world, rec)
    rec["gate"] = gate(world, key, home, away, competition, round_no)
    return rec


def gate(world: World, key: str, home: Club, away: Club, competition: str, round_no: int) -> Gate | None:
    """Designed §11.1 and §4.2.3: the match's gate, booked on both clubs' ledgers (the final's split); a lean
    season's gate keeps no ``lines`` (what the ledgers booked: only a chapter shows them)."""
    life = world.life
    if life is None:
        return None
    comp = "final" if competition == "knockout" and round_no == 3 else competition
    rec = ticket_income(world.dice, key, home, away, comp, life.finance, life.environment)
    rec["lines"] = book_gate(home.ledger, away.ledger, rec, world.season, world.month, f"{home.name}–{away.name}",
                             life.finance, lines=not world.lean)
    return rec


def count_goals(world: World, rec: MatchRecord) -> None:
    """Add the match's goals to each scorer's season tally (§3.3.2 promotion and Appendix E read it)."""
    for a in rec["attacks"]:
        if a["goal"]:
            shooter = a["shooter"]
            for p in world.clubs[a["team"]].players:  # the first of that name
                if p.name == shooter:
                    p.goals += 1
                    break
