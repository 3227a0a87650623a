"""The contract between the core and a ruleset plug-in, and the registry that finds plug-ins.

The core never imports a ruleset by name: rulesets register through the ``anko_writer.rulesets``
entry-point group, and any module in the ``anko_writer.rulesets`` package that exposes ``RULESET``
is found too (so a source checkout works without installing).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import pkgutil
import re
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .chapters import Chapter, ChapterKey, KeyStyle, Record, Run, SeasonRun
from .errors import AnkoError, CampaignError, Location
from .info import Currency, NewOption, RulesetInfo, Units
from .resources import Resources
from .schema import Field, Node, Secret, Str, did_you_mean

if TYPE_CHECKING:
    from .audit.plugin import AuditPlugin
    from .campaign import Campaign

StateT = TypeVar("StateT")
"""The type of a ruleset's loaded end state (:meth:`Ruleset.load_state`): its own, the core never reads it."""

Start = tuple[int, StateT]
"""Where a run starts: ``(k, state)``, the state loaded at the end of arc ``k`` (``Start[StateT]``; bare,
any ruleset's)."""


CAMPAIGN_FIELDS: dict[str, Field] = {
    "ruleset": Field(Str(), doc="The ruleset that plays this campaign."),
    "seed": Field(Secret(min=0), doc="Seed of every die; keep it private (it also derives hidden-dice salts)."),
    "title": Field(Str(), doc="The campaign's title."),
    "output": Field(Str(), required=False, doc="Output folder, relative to this file."),
}
"""The keys the core reads from every campaign file, for a ruleset's schema to start with
(``Map({**CAMPAIGN_FIELDS, "name": Field(Str())})``); the seed's errors never repeat it."""


@dataclass
class NewCampaign:
    """The output of ``anko-writer new``: the commented campaign YAML text and its chapter 0."""

    filename: str
    yaml_text: str
    chapter0: Chapter


class Ruleset(ABC, Generic[StateT]):
    """A game system plug-in: owns its models, rules, tables, templates and campaign schema.

    The core asks it for :attr:`info`, a campaign schema, a new campaign, and a run up to a chapter key;
    it does dice, seals (:class:`~anko_writer.seals.SealBook`), tables, rendering, output and ``verify``.
    Generic over the type of its end state (``class Mine(Ruleset[MyState])``), as MkDocs' ``BasePlugin``
    is over its config: what :meth:`load_state` returns is what :meth:`play` gets back in ``start``.
    """

    name: str
    """Registry name, also the folder under ``templates/`` and ``tables/``."""

    @property
    def info(self) -> RulesetInfo:
        """What the core needs to know beyond the rules (override it; the default has only the name)."""
        return RulesetInfo(self.name)

    @property
    def sealable(self) -> Mapping[str, str]:
        """The roll kinds a host may seal or show (``options.sealed``): kind → what it seals, in Chinese
        (empty: the ruleset lets the host choose none; what it seals is then its own rule)."""
        return {}

    @property
    def sealed_by_default(self) -> tuple[str, ...]:
        """The kinds sealed when the campaign sets no ``options.sealed`` (every sealable kind unless
        overridden): the ruleset's behaviour before the host could choose."""
        return tuple(self.sealable)

    def resources(self, campaign_dir: Path | None) -> Resources:
        """The search path of this ruleset's templates and tables, ``campaign_dir`` first."""
        return Resources(self.name, campaign_dir, self.info)

    @abstractmethod
    def campaign_schema(self, resources: Resources) -> Node:
        """The schema (see :mod:`anko_writer.schema`) the campaign file must satisfy."""

    @abstractmethod
    def new_campaign(self, options: Mapping[str, str], seed: int, resources: Resources) -> NewCampaign:
        """Generate a campaign from the ``new`` options (:attr:`RulesetInfo.new_options`): its YAML and chapter 0."""

    def chapter0(self, results: Record, template: str = "chapter0.md.j2") -> Chapter:
        """Chapter 0 (``new``'s opening post) of ``results``, headed ``{"ruleset", "arc": 0, "part": 0}``."""
        return Chapter(0, 0, {"ruleset": self.name, "arc": 0, "part": 0, **results}, template)

    @abstractmethod
    def play(self, campaign: Campaign, until: ChapterKey, resources: Resources,
             start: Start[StateT] | None = None) -> Run:
        """Simulate arc ``until.arc`` from its start to part ``until.part`` inclusive; pure and deterministic.

        ``start`` is ``(k, state)``: the loaded state at the end of arc ``k`` < ``until.arc``."""

    def play_chapter(self, campaign: Campaign, until: ChapterKey, resources: Resources,
                     start: Start[StateT] | None = None) -> Run:
        """What the ``chapter`` command needs: part ``until.part``'s chapter among the run's chapters. A
        ruleset may skip what comes after that part (an arc's closing chapter) and resume from a
        checkpoint; by default, :meth:`play`."""
        return self.play(campaign, until, resources, start)

    def play_season(self, campaign: Campaign, season: int, last_month: int, resources: Resources,
                    start: Start[StateT] | None = None) -> Run:
        """:meth:`play` under the 群英杯's words (kept for callers written before chapter keys)."""
        return self.play(campaign, ChapterKey(season, last_month), resources, start)

    def rules_context(self, campaign: Campaign, resources: Resources) -> Mapping[str, object]:
        """What the rules post (``rules.md.j2``) may print beyond the campaign: the rule numbers, read from
        the code that plays them (none by default)."""
        return {}

    def opening_vote(self, campaign: Campaign, resources: Resources) -> Mapping[str, object] | None:
        """The vote record chapter 0 ends with (the first chapter's 安价, with its ``ballot``), computed from the
        campaign as it stands, so ``anko-writer tally`` can count it: chapter 0 has no JSON beside it. None: the
        ruleset's chapter 0 asks for no vote."""
        return None

    def load_state(self, text: str, path: Path | str, resources: Resources) -> StateT:
        """Validate an arc's end-state text; rulesets whose arcs do not follow each other have none."""
        raise AnkoError(f"规则集 {self.name} 不能从状态文件接着写下一{self.info.units.arc_cn}")

    def write_state(self, state: StateT) -> str | None:
        """The text an arc's end writes for a loaded end state (what :meth:`load_state` reads back), for the
        contract suite's text round trip; None: the ruleset does not say (the default)."""
        return None

    def state_arc(self, state: StateT) -> int | None:
        """The arc a loaded end state says it ended: its key named by the arc's English word
        (:attr:`Units.arc_en`: ``season: 1``, ``duel: 1``); None when it names none."""
        if isinstance(state, Mapping):
            value = state.get(self.info.units.arc_en)
            if isinstance(value, int) and not isinstance(value, bool):
                return value
        return None

    def load_arc_state(self, text: str, path: Path | str, resources: Resources, arc: int) -> StateT:
        """:meth:`load_state` for the state file of arc ``arc`` (the one its folder names), and a located
        CampaignError if the file says it is the end of another arc (copied from another season's folder)."""
        state = self.load_state(text, path, resources)
        named = self.state_arc(state)
        if named is not None and named != arc:
            word = self.info.units.arc_en
            m = re.search(rf"(?m)^[ \t]*([\"']?){re.escape(word)}\1[ \t]*:[ \t]*", text)  # YAML or JSON
            where = Location(path, text.count("\n", 0, m.start()) + 1, m.end() - m.start() + 1) if m else Location(path)
            cn = self.info.units.arc_cn
            raise CampaignError(where, word, f"这个状态文件在第 {arc} {cn}的文件夹里，却是第 {named} {cn}的结尾："
                                f"另一{cn}的状态文件不能开始下一{cn}")
        return state

    def parts(self, arc: int) -> int:
        """How many part chapters arc ``arc`` has in this ruleset's current scope."""
        return self.months()

    def audit(self) -> AuditPlugin:
        """This ruleset's ``anko-writer audit`` metrics (:mod:`anko_writer.audit`); AnkoError if it has none."""
        raise AnkoError(f"规则集 {self.name} 不支持 audit（它没有定义审计指标）")

    def months(self) -> int:
        """The 群英杯's word for :meth:`parts` (12 unless overridden)."""
        return 12


SEALED = "sealed"
"""The key under ``options`` that names the roll kinds the host seals."""


def sealed_kinds(data: Mapping[str, Any], default: Iterable[str]) -> frozenset[str]:
    """The roll kinds a validated campaign seals: its ``options.sealed`` when the host set it, else
    ``default`` (the ruleset's :attr:`Ruleset.sealed_by_default`).

    >>> sorted(sealed_kinds({"options": {"sealed": ["shootout"]}}, ("injury", "shootout")))
    ['shootout']
    >>> sorted(sealed_kinds({"options": {}}, ("injury", "shootout")))
    ['injury', 'shootout']
    """
    options = data.get("options")
    if isinstance(options, Mapping) and isinstance(options.get(SEALED), (list, tuple)):
        return frozenset(options[SEALED])
    return frozenset(default)


class UnknownRuleset(AnkoError):
    """The campaign names a ruleset that is not installed."""


class BrokenRuleset(AnkoError):
    """A ruleset plug-in failed to import."""


def _load(name: str, load: Callable[[], object]) -> object:
    try:
        return load()
    except Exception as err:  # a plug-in's own bug must still be one clean line
        raise BrokenRuleset(f"规则集插件 {name} 加载失败：{type(err).__name__}: {err}") from err


AnyRuleset = Ruleset[Any]
"""A ruleset of any state type, as the registry holds them."""


def _discover() -> dict[str, AnyRuleset]:
    from importlib.metadata import entry_points

    found: dict[str, AnyRuleset] = {}
    for ep in entry_points(group="anko_writer.rulesets"):
        rs = _load(ep.value, ep.load)
        if not isinstance(rs, Ruleset):
            raise BrokenRuleset(f"规则集插件 {ep.value} 不是 Ruleset：{type(rs).__name__}")
        found.setdefault(rs.name, rs)
    pkg = importlib.import_module("anko_writer.rulesets")
    for info in pkgutil.iter_modules(pkg.__path__, "anko_writer.rulesets."):
        mod = _load(info.name, partial(importlib.import_module, info.name))
        rs = getattr(mod, "RULESET", None)
        if isinstance(rs, Ruleset):
            found.setdefault(rs.name, rs)
    return found


_REGISTRY: dict[str, AnyRuleset] | None = None
_NAMED: dict[str, AnyRuleset | None] = {}
"""Rulesets imported alone by their entry point's name, before (or instead of) a whole discovery."""


def _named(name: str) -> AnyRuleset | None:
    """The ruleset of the entry point called ``name``, imported alone (None: no such entry point, or it
    registers another name); a whole discovery imports every plug-in, which a run does not need."""
    points = entry_points_of(GROUP)
    if points is None:
        from importlib.metadata import entry_points

        loads = [(ep.value, ep.load) for ep in entry_points(group=GROUP, name=name)]
    else:
        loads = [(value, partial(_load_value, value)) for n, value in points if n == name]
    for value, load in loads:
        rs = _load(value, load)
        if isinstance(rs, Ruleset) and rs.name == name:
            return rs
    return None


GROUP = "anko_writer.rulesets"
"""The entry-point group rulesets register in."""
_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")
"""An entry point's value, as :class:`importlib.metadata.EntryPoint` reads it."""
_INFO = (".dist-info", ".egg-info")


def _load_value(value: str) -> object:
    """The object an entry point's ``module:attr`` value names (as :meth:`importlib.metadata.EntryPoint.load`)."""
    m = _VALUE.match(value)
    assert m is not None  # entry_points_of kept only values that match
    obj: object = importlib.import_module(m["module"])
    for attr in filter(None, (m["attr"] or "").split(".")):
        obj = getattr(obj, attr)
    return obj


def entry_points_of(group: str) -> list[tuple[str, str]] | None:
    """``(name, value)`` of every entry point in ``group``, in the order ``importlib.metadata.entry_points`` gives
    them, read from the import path's folders without importing :mod:`importlib.metadata` (10–15 ms of every
    command's start, issue 29); None when the path holds what this reading does not cover (a zip file, an egg,
    another distribution finder, a name or line it would read otherwise): the caller asks importlib.metadata.

    >>> points = entry_points_of(GROUP)  # None only where a test's set-up left a path or finder it does not read
    >>> points is None or ("purasbar", "anko_writer.rulesets.purasbar:RULESET") in points
    True
    """
    if any(hasattr(f, "find_distributions") and f is not importlib.machinery.PathFinder for f in sys.meta_path):
        return None
    seen: set[str] = set()
    found: list[tuple[str, str]] = []
    for entry in sys.path:
        folders = _dist_folders(entry)
        if folders is None:
            return None
        for key, folder in folders:
            if key in seen:
                continue
            seen.add(key)
            points = _points(os.path.join(entry or ".", folder), group)
            if points is None:
                return None
            found.extend(points)
    return found


def _dist_folders(entry: object) -> list[tuple[str, str]] | None:
    """The distributions of one import path entry as importlib.metadata orders them: ``(normalized name, folder)``,
    the first folder of each name (None: an entry this reading does not cover)."""
    if not isinstance(entry, str) or entry.lower().endswith(".egg"):
        return None
    root = entry or "."
    try:
        children = os.listdir(root)
    except OSError:
        return None if os.path.exists(root) else []  # a zip file holds distributions too; a missing folder none
    first: dict[str, str] = {}
    for child in children:
        low = child.lower()
        if low.endswith(_INFO):
            if not child.endswith(_INFO):
                return None  # its name would come from its METADATA
            first.setdefault(re.sub(r"[-_.]+", "-", low.rpartition(".")[0].partition("-")[0]).replace("-", "_"), child)
    return list(first.items())


def _points(folder: str, group: str) -> list[tuple[str, str]] | None:
    """``(name, value)`` of the entry points of ``group`` in a distribution folder's ``entry_points.txt``, read as
    importlib.metadata reads it (None: a line or value it would read otherwise, or a file it would fail on)."""
    try:
        with open(os.path.join(folder, "entry_points.txt"), encoding="utf-8") as f:
            text = f.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
        return []
    except (OSError, UnicodeError):
        return None
    section: str | None = None
    points: list[tuple[str, str]] = []
    for line in (raw.strip() for raw in text.splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
        elif section is not None:
            name, eq, value = line.partition("=")
            if not eq:
                return None
            if section == group:
                if _VALUE.match(value.strip()) is None:
                    return None
                points.append((name.strip(), value.strip()))
    return points


def get(name: str) -> AnyRuleset:
    """The registered ruleset called ``name``."""
    global _REGISTRY
    if _REGISTRY is None:
        if name not in _NAMED:
            _NAMED[name] = _named(name)
        found = _NAMED[name]
        if found is not None:
            return found
        _REGISTRY = _discover()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = "、".join(sorted(_REGISTRY)) or "无"
        raise UnknownRuleset(f"未知的规则集 {name!r}（已安装：{known}）{did_you_mean(name, sorted(_REGISTRY))}") from None


def names() -> list[str]:
    """Names of every installed ruleset."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = _discover()
    return sorted(_REGISTRY)


__all__ = ["CAMPAIGN_FIELDS", "SEALED", "AnyRuleset", "BrokenRuleset", "Chapter", "ChapterKey", "Currency", "KeyStyle",
           "NewCampaign", "NewOption", "Record", "Ruleset", "RulesetInfo", "Run", "SeasonRun", "Start", "StateT",
           "Units", "UnknownRuleset", "get", "names", "sealed_kinds"]
