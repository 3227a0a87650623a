"""``anko-writer audit``: play many independent replicates of a campaign, render nothing, and report
how the rules behave — the ruleset's own metrics and every dice table's rows against their widths.

The core here knows nothing of any game: replicates and their seeds, jobs and Dask, progress, the
report's skeleton and the dice-table counts (:func:`anko_writer.tables.counting_rows`). A ruleset adds
its metrics through :meth:`anko_writer.ruleset.Ruleset.audit` (an :class:`AuditPlugin`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..chapters import Record
from .plugin import AuditPlugin, Figure, Section, Table
from .report import AUDIT_EXTRA, dice_section, draw_ahead, require_plots, terminal_lines, warm_plots, write_report
from .runner import (
    CONNECT_TIMEOUT,
    AuditSpec,
    Progress,
    _loaded,
    check_scheduler,
    plugin_for,
    replicate_seed,
    run_replicate,
    run_replicates,
)

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..ruleset import Start


def meta_of(campaign: Campaign, replicates: int, first: int, arcs: int) -> Record:
    """The report's description of the run: what was played, nothing of how (no seed, jobs or times)."""
    return {"title": f"audit of {campaign.path.name}", "campaign": campaign.path.name,
            "ruleset": campaign.ruleset, "replicates": replicates, "from_season": first,
            "seasons_per_run": arcs}


def build_report(campaign: Campaign, samples: Sequence[Record]) -> list[Section]:
    """The ruleset's sections, then the core's dice-table section, from the replicates in order."""
    loaded = _loaded(campaign)
    metrics = [s["metrics"] for s in samples]
    return [*loaded.plugin.aggregate(metrics, loaded.resources), dice_section(samples)]


def audit(campaign: Campaign, replicates: int, first: int = 1, arcs: int = 1, jobs: int = 1,
          scheduler: str | None = None, start: Start[Any] | None = None,
          progress: Progress | None = None, scheduler_timeout: float = CONNECT_TIMEOUT) -> tuple[Record, list[Section]]:
    """Play ``replicates`` replicates and build the report: ``(meta, sections)``."""
    plugin_for(campaign)  # a ruleset without audit metrics fails before anything is played
    spec = AuditSpec(campaign, first, arcs, start)
    samples = run_replicates(spec, replicates, jobs, scheduler, progress, meanwhile=warm_plots,
                             scheduler_timeout=scheduler_timeout)
    sections = build_report(campaign, samples)
    # the plots in this machine's ``jobs`` processes, free now (a Dask client's threads: not forked with)
    draw_ahead(sections, jobs if scheduler is None else 1)
    return meta_of(campaign, replicates, first, arcs), sections


__all__ = ["AUDIT_EXTRA", "AuditPlugin", "AuditSpec", "check_scheduler", "Figure", "Section", "Table", "audit",
           "build_report", "meta_of", "plugin_for", "replicate_seed", "require_plots", "run_replicate", "run_replicates",
           "terminal_lines", "write_report"]
