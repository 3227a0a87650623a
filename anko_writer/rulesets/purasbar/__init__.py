"""《布拉斯群英杯》(000): the flagship ruleset — a 24-club league season narrated month by month."""

from __future__ import annotations

from typing import Any

from ...resources import Resources
from ...ruleset import Chapter, NewCampaign, Ruleset, SeasonRun
from .campaign_schema import campaign_schema
from .data import load_tables
from .newcampaign import new_campaign
from .season import LEAGUE_MONTHS, World, clubs_json, new_world, next_vote, play_month, tired
from .standings import table


def _month_record(world: World, month: int, played: dict[str, Any], rolls: list[Any],
                  campaign: dict[str, Any]) -> dict[str, Any]:
    standings = [r.to_json() for r in table(world.order, world.results)]
    return {
        "ruleset": "purasbar", "season": world.season, "month": month, "seed": world.seed,
        "title": campaign["title"], "club": world.ours.name, "coach": campaign["coach"]["name"],
        "stadium": campaign["club"]["stadium"], "doctor": world.ours.doctor,
        "rolls": [r.to_json() for r in rolls],
        **played,
        "standings": standings,
        "clubs": clubs_json(world),
        "tired": tired(world),
        "vote": next_vote(world, month) if month < 12 else None,
    }


def _prep_record(world: World) -> dict[str, Any]:
    """What month 1 publishes before the first ball: the draw and our 23 fixtures with their 1D2."""
    ours = world.ours.name
    fixtures = [f.to_json() for f in world.fixtures if ours in (f.a, f.b)]
    return {"draw_order": world.draw_order, "our_fixtures": fixtures,
            "all_fixtures": [f.to_json() for f in world.fixtures]}


def _our_results(chapters: list[Chapter]) -> list[dict[str, Any]]:
    """Our club's league results, month by month."""
    out = []
    for ch in chapters:
        for i in ch.results["our_matches"]:
            m = ch.results["matches"][i]
            out.append({"month": ch.month, "round": m["round"], "home": m["home"], "away": m["away"],
                        "score": m["score"]})
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


class Purasbar(Ruleset):
    """The 群英杯 ruleset plug-in."""

    name = "purasbar"

    def campaign_schema(self, resources: Resources) -> Any:
        """The campaign schema, its city list read from ``cities.yaml``."""
        return campaign_schema([c["city"] for c in load_tables(resources).cities])

    def new_campaign(self, city: str, seed: int, resources: Resources) -> NewCampaign:
        """Generate a club by 000 ch.2–3 and write its commented campaign file and chapter 0."""
        return new_campaign(city, seed, load_tables(resources))

    def months(self) -> int:
        """Months 1–11 are the league (this issue's scope)."""
        return LEAGUE_MONTHS

    def play_season(self, campaign: Any, season: int, last_month: int, resources: Resources) -> SeasonRun:
        """Simulate months 1..last_month of ``season`` from the campaign file."""
        data = campaign.data if hasattr(campaign, "data") else campaign
        seed = data["seed"]
        tables = load_tables(resources).as_dict()
        world = new_world(data, seed, season, tables)
        prep = _prep_record(world)
        chapters = []
        mark = 0
        for month in range(1, last_month + 1):
            decisions = data["decisions"].get(f"s{season}m{month}", {})
            played = play_month(world, month, decisions)
            if month == 1:
                played["prep"] = prep
            rolls = world.dice.since(mark)
            mark = world.dice.mark()
            chapters.append(Chapter(season, month, _month_record(world, month, played, rolls, data)))
        summary = {"ruleset": self.name, "season": season, "title": data["title"],
                   "club": world.ours.name, "months": [c.month for c in chapters],
                   "standings": chapters[-1].results["standings"] if chapters else [],
                   "our_results": _our_results(chapters), "scorers": _scorers(chapters),
                   "fixtures": prep["our_fixtures"]}
        return SeasonRun(chapters, summary)


RULESET = Purasbar()
"""The registered instance (entry point ``anko_writer.rulesets: purasbar``)."""
