"""What a ruleset gives the audit: how to play one replicate lean, and how to turn its arcs into plain
numbers and all replicates into report sections. The core knows nothing of any game."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..chapters import ChapterKey, Record, Run
from ..resources import Resources

if TYPE_CHECKING:
    from ..campaign import Campaign
    from ..ruleset import Ruleset, Start


@dataclass
class Figure:
    """One plot of a report section: its caption and the PNG's bytes."""

    caption: str
    png: bytes


class Later(Figure):
    """A :class:`Figure` drawn when its caption or PNG is first read, or ahead of that by
    :func:`anko_writer.audit.report.draw_ahead` (in other processes: the report's plots are most of its time)."""

    def __init__(self, draw: Callable[[], Figure]) -> None:
        self._draw = draw
        self._drawn: Figure | None = None

    @property
    def pending(self) -> bool:
        """True until drawn (here, or elsewhere and handed back with :meth:`done`)."""
        return self._drawn is None

    def drawn(self) -> Figure:
        """The figure, drawn here the first time it is asked for."""
        if self._drawn is None:
            self._drawn = self._draw()
        return self._drawn

    def done(self, figure: Figure) -> None:
        """Take ``figure`` as the drawing (drawn elsewhere by the same call)."""
        self._drawn = figure

    @property  # a field of Figure, read through the drawing
    def caption(self) -> str:  # type: ignore[override]
        """The drawing's caption."""
        return self.drawn().caption

    @property
    def png(self) -> bytes:  # type: ignore[override]
        """The drawing's PNG bytes."""
        return self.drawn().png


@dataclass
class Table:
    """A table of a report section for the HTML page: caption, header, rows of plain cells, and one sentence
    saying what the table means for a host (printed under the caption)."""

    caption: str
    header: list[str]
    rows: list[list[Any]]
    note: str = ""


@dataclass
class Section:
    """One part of the report: its JSON ``data``, what the terminal shows and what the HTML page shows."""

    key: str
    """The section's key in ``report.json``."""
    title: str
    """Its heading."""
    data: Record
    """Plain numbers for ``report.json``."""
    lines: list[str] = field(default_factory=list)
    """The few lines the terminal prints."""
    tables: list[Table] = field(default_factory=list)
    """Tables for ``report.html``."""
    figures: list[Figure] = field(default_factory=list)
    """Plots for ``report.html`` (embedded as data URIs)."""


class AuditPlugin(ABC):
    """A ruleset's audit metrics: measured in the worker that played a replicate, aggregated in order."""

    def play(self, ruleset: Ruleset[Any], campaign: Campaign, until: ChapterKey, resources: Resources,
             start: Start[Any] | None, chained: bool = True) -> Run:
        """Play one whole arc for the audit (the default: the ruleset's normal :meth:`Ruleset.play`);
        ``chained`` is False for a replicate's last arc, whose end state nothing reads (a plug-in may skip it)."""
        return ruleset.play(campaign, until, resources, start=start)

    def prepare(self, ruleset: Ruleset[Any], resources: Resources) -> None:
        """Load what every replicate reads, once a process, before the first (the default: nothing). The
        ``audit`` process prepares before its pool's workers fork, so they start with it loaded."""
        return None

    def ended(self, run: Run) -> bool:
        """True when the story ended with ``run`` (no next arc); the default: the arc left no end state."""
        return run.state_text is None

    @abstractmethod
    def figures(self, run: Run, resources: Resources) -> Record:
        """One arc's plain JSON-able numbers, taken as soon as it is played: the worker keeps these and lets
        the run go, so its memory stays flat however many arcs a replicate chains (issue 29)."""

    @abstractmethod
    def measure(self, arcs: list[Record], resources: Resources) -> Record:
        """One replicate's arcs' :meth:`figures` (in order) as plain JSON-able numbers; a pure function of them."""

    @abstractmethod
    def aggregate(self, samples: list[Record], resources: Resources) -> list[Section]:
        """The report's sections from every replicate's :meth:`measure`, in replicate order."""


__all__ = ["AuditPlugin", "Figure", "Later", "Section", "Table"]
