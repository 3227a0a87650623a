"""The contract between the core and a ruleset plug-in, and the registry that finds plug-ins.

The core never imports a ruleset by name: rulesets register through the ``anko_writer.rulesets``
entry-point group, and any module in the ``anko_writer.rulesets`` package that exposes ``RULESET``
is found too (so a source checkout works without installing).
"""

from __future__ import annotations

import importlib
import pkgutil
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from .errors import AnkoError


@dataclass
class Chapter:
    """One month's output: the structured results (JSON contract) and the template that tells it."""

    season: int
    month: int
    results: dict[str, Any]
    """JSON-able record of DESIGN §5 (``ruleset, season, month, seed, rolls, matches, ...``)."""
    template: str = "chapter.md.j2"
    """Template name inside ``templates/<ruleset>/``."""
    name: str | None = None
    """File name (without extension) when it is not ``mMM``: e.g. ``end`` for a season's settlement."""
    public: dict[str, Any] | None = None
    """What the JSON file holds when it differs from ``results``: sealed hidden rolls masked."""


@dataclass
class SeasonRun:
    """What a ruleset produces for a season: one chapter per month simulated, and the summary."""

    chapters: list[Chapter]
    summary: dict[str, Any] = field(default_factory=dict)
    """Context of the season index (``index.md.j2``)."""
    state_text: str | None = None
    """The finished season's end as a file the host may edit (``sNN/state-end.yaml``), if the ruleset
    carries seasons over; the next season starts from it."""

    @property
    def months(self) -> list[Chapter]:
        """The month chapters alone (without a season-end chapter such as the settlement)."""
        return [c for c in self.chapters if c.name is None]


@dataclass
class NewCampaign:
    """The output of ``anko-writer new``: the commented campaign YAML text and its chapter 0."""

    filename: str
    yaml_text: str
    chapter0: Chapter


class Ruleset(ABC):
    """A game system plug-in: owns its models, rules, tables, templates and campaign schema."""

    name: str
    """Registry name, also the folder under ``templates/`` and ``tables/``."""

    @abstractmethod
    def campaign_schema(self, resources: "Any") -> Any:
        """The schema (see :mod:`anko_writer.schema`) the campaign file must satisfy."""

    @abstractmethod
    def new_campaign(self, city: str, seed: int, resources: "Any") -> NewCampaign:
        """Generate a club by the rules and return its commented YAML and chapter 0."""

    @abstractmethod
    def play_season(self, campaign: "Any", season: int, last_month: int, resources: "Any",
                    start: "tuple[int, Any] | None" = None) -> SeasonRun:
        """Simulate ``season`` from its start to ``last_month`` inclusive; pure and deterministic.

        ``start`` is ``(k, state)``: the loaded state at the end of season ``k`` < ``season``."""

    def load_state(self, text: str, path: "Any", resources: "Any") -> Any:
        """Validate a ``state-end.yaml`` text; rulesets without seasons that follow have none."""
        raise AnkoError(f"the {self.name} ruleset does not continue seasons from a state file")

    def months(self) -> int:
        """How many chapters a season has in this ruleset's current scope."""
        return 12


class UnknownRuleset(AnkoError):
    """The campaign names a ruleset that is not installed."""


class BrokenRuleset(AnkoError):
    """A ruleset plug-in failed to import."""


def _load(name: str, load: Any) -> Any:
    try:
        return load()
    except Exception as err:  # a plug-in's own bug must still be one clean line
        raise BrokenRuleset(f"ruleset plug-in {name} failed to load: {type(err).__name__}: {err}") from err


def _discover() -> dict[str, Ruleset]:
    found: dict[str, Ruleset] = {}
    for ep in entry_points(group="anko_writer.rulesets"):
        rs = _load(ep.value, ep.load)
        found.setdefault(rs.name, rs)
    pkg = importlib.import_module("anko_writer.rulesets")
    for info in pkgutil.iter_modules(pkg.__path__, "anko_writer.rulesets."):
        mod = _load(info.name, lambda: importlib.import_module(info.name))
        rs = getattr(mod, "RULESET", None)
        if isinstance(rs, Ruleset):
            found.setdefault(rs.name, rs)
    return found


_REGISTRY: dict[str, Ruleset] | None = None


def get(name: str) -> Ruleset:
    """The registered ruleset called ``name``."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = _discover()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownRuleset(f"unknown ruleset {name!r} (installed: {known})") from None


def names() -> list[str]:
    """Names of every installed ruleset."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = _discover()
    return sorted(_REGISTRY)
