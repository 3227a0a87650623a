"""《布拉斯群英杯》(000): the ruleset class — a 24-club league season narrated month by month (the season
loop is :mod:`.season.run`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...info import Currency, NewOption, RulesetInfo
from ...resources import Resources
from ...ruleset import NewCampaign, Ruleset, SeasonRun, Start
from ...schema import Node, validate_text
from .competition.calendar import MONTHS as SEASON_MONTHS
from .glossary import cn, make_cn
from .report_rows import FILTERS as REPORT_FILTERS
from .setup.campaign_schema import campaign_schema
from .setup.tables import load_purasbar_tables

# The arc loop and the state file's reader are imported where they are used (issue 29: ``check`` loads neither).
if TYPE_CHECKING:
    from ...audit.plugin import AuditPlugin
    from ...campaign import Campaign
    from ...chapters import ChapterKey

State = dict[str, Any]
"""A season's end as :func:`.setup.state.load_state_text` validated it."""


class Purasbar(Ruleset[State]):
    """The 群英杯 ruleset plug-in."""

    name = "purasbar"

    @property
    def info(self) -> RulesetInfo:
        """Seasons of months, ``1,250,000 P$``, the football abbreviations, ``new --city``."""
        return INFO

    def resources(self, campaign_dir: Path | None) -> Resources:
        """The core's search path, described with a ``cn`` filter over this campaign's glossary (a
        ``tables/purasbar/glossary.yaml`` in the campaign folder overrides the shipped one)."""
        res = Resources(self.name, campaign_dir, INFO)
        if campaign_dir is not None:
            res.info = replace(INFO, filters={**INFO.filters, "cn": make_cn(res)})
        return res

    def campaign_schema(self, resources: Resources) -> Node:
        """The campaign schema, its city list read from ``cities.yaml``."""
        tables = load_purasbar_tables(resources)
        owner_keys = [r.params["key"] for r in tables.owner_actions.rows]
        return campaign_schema([c["city"] for c in tables.cities], tables.people, owner_keys)

    def new_campaign(self, options: Mapping[str, str], seed: int, resources: Resources) -> NewCampaign:
        """Generate a club by 000 ch.2–3 for ``options["city"]``: its commented campaign file and chapter 0,
        which ends with month 1's vote (the season as the campaign file will start it)."""
        from .setup.newcampaign import new_campaign

        made = new_campaign(options["city"], seed, load_purasbar_tables(resources))
        data = validate_text(made.yaml_text, self.campaign_schema(resources), made.filename)
        from .season.run import opening_vote

        made.chapter0.results["vote"] = opening_vote(data, resources)
        return made

    def opening_vote(self, campaign: Campaign, resources: Resources) -> dict[str, Any] | None:
        """Month 1's vote, as chapter 0 ends with it (the season as the campaign starts it)."""
        from .season.run import opening_vote

        return opening_vote(campaign.data, resources)

    def rules_context(self, campaign: Campaign, resources: Resources) -> Mapping[str, object]:
        """The 开帖's rule numbers (:mod:`.rules_post`)."""
        from .rules_post import numbers

        return {"rule": numbers()}

    def parts(self, arc: int) -> int:
        """Months 1–11 are the league, month 12 the 群英杯."""
        return SEASON_MONTHS

    def load_state(self, text: str, path: Path | str, resources: Resources) -> State:
        """A season's ``state-end.yaml`` validated (errors name file, line and key like the campaign's)."""
        from .setup.state import load_state_text

        tables = load_purasbar_tables(resources)
        return load_state_text(text, path, [c["city"] for c in tables.cities], tables.people)

    def write_state(self, state: State) -> str:
        """A loaded ``state-end.yaml`` written again, as the season's settlement writes it."""
        from .setup.state import state_yaml

        return state_yaml(state)

    def play(self, campaign: Campaign, until: ChapterKey, resources: Resources, start: Start[State] | None = None, *,
             publish: bool = True, keep_state: bool = True, hand_state: bool = False) -> SeasonRun:
        """Simulate months 1..until.part of season ``until.arc``: from ``start`` (the state at the end
        of an earlier season) or from the campaign, playing any season in between in memory.

        ``publish=False`` (the audit) leaves out each chapter's public JSON (sealed rolls masked);
        ``keep_state=False`` (the audit) leaves out the end state's text; ``hand_state=True`` (the audit's
        chained season) hands the end state on as the object its text loads as."""
        data, state = self._before(campaign, until.arc, resources, start, publish)
        from .season.run import play_season

        return play_season(self.name, data, state, until.arc, until.part, resources, publish, keep_state,
                           hand_state)

    @property
    def sealable(self) -> Mapping[str, str]:
        """The 群英杯's sealable roll kinds (000 §5.8.4): the injury response and the late shoot-out kicks."""
        from .season.world import SEALABLE

        return SEALABLE

    def audit(self) -> AuditPlugin:
        """The 群英杯's audit metrics (:mod:`.audit`)."""
        from .audit import PurasbarAudit

        return PurasbarAudit()

    def play_chapter(self, campaign: Campaign, until: ChapterKey, resources: Resources,
                     start: Start[State] | None = None) -> SeasonRun:
        """Month ``until.part`` alone, for the ``month`` command: no settlement after month 12, and the
        months before it resumed from the checkpoint an earlier run left (:mod:`.season.checkpoint`) when
        nothing they read has changed; the run holds the months played here, not the whole season."""
        data, state = self._before(campaign, until.arc, resources, start)
        from .season.run import play_month

        return play_month(self.name, data, state, until.arc, until.part, resources)

    def _before(self, campaign: Campaign, arc: int, resources: Resources, start: Start[State] | None,
                publish: bool = True) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The campaign's data and the state season ``arc`` starts from (earlier seasons played in memory)."""
        from ...arcs import replay

        data = campaign.data
        from .season.run import play_season  # the season runner is loaded only when a season is played (issue 29)

        state = replay(start, arc, lambda k, at: play_season(self.name, data, at, k, SEASON_MONTHS, resources, publish),
                       lambda text, k: self.load_state(text, f"<end of season {k}>", resources))
        return data, state


INFO = RulesetInfo(
    "purasbar", title="《布拉斯群英杯》", currency=Currency("P$"),
    allowed_words=frozenset({"ATK", "DEF", "MID", "GK", "FW", "MF", "DF", "STA", "MNT"}),
    new_options=(NewOption("city", "新球会的主场城市（cities.yaml 里的一座城市）"),),
    filters={"cn": cn, **REPORT_FILTERS})
"""The 群英杯's description: the core's default layout (``sNN/mMM.md``) and built-in resource folders; its
filters: ``cn`` prints the chapter's word for a key from ``glossary.yaml``, the match report's prepared values
(:mod:`.report_rows`)."""
