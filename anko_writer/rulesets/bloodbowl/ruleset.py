"""Blood Bowl (004): the ruleset class — a six-team league season told half by half.

The match engine (:mod:`.match`) plays each half; this class plays the league around it: the schedule,
votes, hiring and resting, injuries and star player points carried from match to match and season to
season, hidden casualty rolls, standings, and the state file the next season starts from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from ...arcs import replay
from ...audit.plugin import AuditPlugin
from ...ballot import deadline_of
from ...campaign import Campaign
from ...chapters import ChapterKey, KeyStyle
from ...glossary import make_cn
from ...info import Currency, NewOption, RulesetInfo, Units
from ...resources import Resources
from ...ruleset import NewCampaign, Ruleset, Run, Start
from ...schema import Node
from .league.rosters import load_rosters
from .league.season import PARTS, SEALABLE, Season, league_world, opening_vote, play_season
from .league.teams import load_league
from .league.votes import TIES
from .match import api
from .setup.new import FILENAME, new_league
from .setup.schema import campaign_schema
from .setup.state import load_state_text, start_data, state_yaml

INFO = RulesetInfo(
    "bloodbowl", title="血腥碗联赛", units=Units("赛季", "半场", "season", "half"),
    keys=KeyStyle(arc_prefix="s", part_prefix="h"), currency=Currency("金币", space=False),
    allowed_words=frozenset({"SPP", "D68"}),
    new_options=(NewOption("team", "我方球队的名字"),
                 NewOption("race", "我方球队的种族：rosters.yaml 里的一个名单键（human、orc …）"),
                 NewOption("coach", "我方主教练（默认：从名字池里掷出）", required=False)))


class Bloodbowl(Ruleset[dict[str, Any]]):
    """The Blood Bowl league ruleset plug-in."""

    name = "bloodbowl"
    play_half = staticmethod(api.play_half)
    """The match engine's half (tests swap in a fake)."""
    load_rosters = staticmethod(load_rosters)
    """Where the rosters come from (the engine's ``rosters.yaml``; tests swap in a fake)."""

    @property
    def info(self) -> RulesetInfo:
        """Seasons of halves (``s01/h03.md``), gold pieces, the ``new`` options."""
        return INFO

    def resources(self, campaign_dir: Path | None) -> Resources:
        """The core's search path with the ``cn`` filter over this campaign's glossary."""
        res = Resources(self.name, campaign_dir, INFO)
        res.info = replace(INFO, filters={**INFO.filters, "cn": make_cn(res)})
        return res

    @property
    def sealable(self) -> Mapping[str, str]:
        """Blood Bowl's one sealable roll kind: our players' casualty roll and its apothecary re-roll."""
        return SEALABLE

    def campaign_schema(self, resources: Resources) -> Node:
        """The campaign schema, its races from the rosters."""
        return campaign_schema(self.load_rosters(resources))

    def rules_context(self, campaign: Campaign, resources: Resources) -> Mapping[str, object]:
        """How votes are counted, as the chapters' ballots count them: the deadline and each tie rule's labels."""
        return {"vote_deadline": deadline_of(campaign.data),
                "vote_ties": {rule: [label for label, tie in TIES.items() if tie == rule] for rule in ("die", "fallback")}}

    def new_campaign(self, options: Mapping[str, str], seed: int, resources: Resources) -> NewCampaign:
        """A league by visible dice: our team (``team``, ``race``, ``coach``) and five AI teams; chapter 0
        ends with the first half's vote."""
        text, chapter0 = new_league(options, seed, self.load_rosters(resources), load_league(resources),
                                    make_cn(resources))
        return NewCampaign(FILENAME, text, chapter0)

    def opening_vote(self, campaign: Campaign, resources: Resources) -> Mapping[str, object] | None:
        """Season 1's first half's vote, as chapter 0 ends with it (the league as the campaign holds it)."""
        return opening_vote(campaign.data, self.load_rosters(resources), make_cn(resources))

    def parts(self, arc: int) -> int:
        """Two halves for each of our five matches."""
        return PARTS

    def load_state(self, text: str, path: Path | str, resources: Resources) -> dict[str, Any]:
        """A season's ``state-end.yaml`` validated (errors name the file, line and key)."""
        return load_state_text(text, path, self.load_rosters(resources))

    def write_state(self, state: dict[str, Any]) -> str:
        """A loaded ``state-end.yaml`` written again, as the season's end writes it."""
        return state_yaml(state["season"], state["team"], state["league"], state["seals"])

    def play(self, campaign: Campaign, until: ChapterKey, resources: Resources, start: Start[dict[str, Any]] | None = None) -> Run:
        """Seasons from ``start`` (or the campaign) up to part ``until.part`` of season ``until.arc``; seasons
        in between are played in memory through their state text, as if read from the file."""
        def season(k: int, state: dict[str, Any] | None, last: int) -> Run:
            data = start_data(campaign.data, state) if state is not None else campaign.data
            return self._season(campaign, data, k, last, resources)
        state = replay(start, until.arc, lambda k, st: season(k, st, PARTS),
                       lambda text, k: self.load_state(text, "state-end.yaml", resources))
        return season(until.arc, state, until.part)

    def audit(self) -> AuditPlugin:
        """Blood Bowl's audit metrics (:mod:`.audit`): per-race match figures against real play."""
        from .audit import BloodbowlAudit

        return BloodbowlAudit()

    def _season(self, campaign: Campaign, data: Mapping[str, Any], season: int, last: int,
                resources: Resources) -> Run:
        """One season's chapters 1..last, and at its end the state text."""
        rosters, league = self.load_rosters(resources), load_league(resources)
        world = league_world(data, season)
        teams, book = world.teams, world.book
        where = campaign.path.name
        run = play_season(Season(data, rosters, league, type(self).play_half, where, make_cn(resources)), world, last)
        if last == PARTS:
            run.state_text = state_yaml(season, world.us.to_data(),
                                        [t.to_data() for n, t in teams.items() if n != world.ours],
                                        book.carry(PARTS))
        return run


__all__ = ["Bloodbowl", "INFO"]
