"""What a ruleset tells the core about itself: names, units, money, words, ``new`` options, resources.

A plain, typed description (like a MkDocs plug-in's config schema): the core reads it to write
headings and help, format money, check prose, ask ``anko-writer new`` for the right options, find the
ruleset's templates and tables, and add its Jinja filters.

>>> Currency("P$").format(1250000)
'1,250,000 P$'
>>> Currency("枚金币", space=False).format(-3)
'−3枚金币'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .chapters import DEFAULT_STYLE, KeyStyle

MINUS = "\u2212"
"""The minus sign of numbers in prose (U+2212)."""

Filter = Callable[..., str]
"""A Jinja filter a ruleset adds: a value (and arguments) in, text out."""


@dataclass(frozen=True)
class Units:
    """The words for a ruleset's arcs and parts, for headings (Chinese) and help (English)."""

    arc_cn: str = "赛季"
    part_cn: str = "月"
    arc_en: str = "season"
    part_en: str = "month"


@dataclass(frozen=True)
class Currency:
    """How amounts of money are written: digits (grouped by thousands or not) and a unit."""

    unit: str
    """The unit after the number: ``P$``, ``枚金币``, ``gp``."""
    space: bool = True
    """A space between number and unit (``1,250 P$``; ``3枚金币`` has none)."""
    grouping: bool = True
    """Thousands separators (``1,250,000``)."""

    def format(self, amount: int) -> str:
        """``amount`` as prose writes it."""
        sign = MINUS if amount < 0 else ""
        digits = f"{abs(int(amount)):,}" if self.grouping else str(abs(int(amount)))
        return f"{sign}{digits}{' ' if self.space else ''}{self.unit}"


@dataclass(frozen=True)
class NewOption:
    """One option ``anko-writer new`` asks for: ``--option NAME=VALUE``."""

    name: str
    """The option's name (``city``, ``name``, ``race``)."""
    help: str
    """One line for ``--help`` and errors."""
    required: bool = True
    default: str | None = None
    """Used when the option is not given and not required."""


@dataclass(frozen=True)
class RulesetInfo:
    """Everything the core needs to know about a ruleset beyond its rules."""

    name: str
    """Registry name, also the folder under ``templates/`` and ``tables/``."""
    title: str = ""
    """The game's name for help (``《布拉斯群英杯》``)."""
    units: Units = Units()
    keys: KeyStyle = DEFAULT_STYLE
    """How chapter keys are written as paths."""
    currency: Currency = Currency("", space=False)
    """The money filter's format."""
    allowed_words: frozenset[str] = frozenset()
    """ASCII words (three letters or more) the prose check accepts (``ATK``, ``MA``)."""
    new_options: tuple[NewOption, ...] = ()
    """What ``anko-writer new`` asks for."""
    templates: Path | None = None
    """The folder holding ``<name>/*.j2`` (None: the core's built-in ``templates/``)."""
    tables: Path | None = None
    """The folder holding ``<name>/*.yaml`` (None: the core's built-in ``tables/``)."""
    filters: Mapping[str, Filter] = field(default_factory=dict)
    """Extra Jinja filters (they may replace a core filter of the same name)."""

    def root(self, kind: str) -> Path | None:
        """The ``templates`` or ``tables`` root this ruleset ships, or None for the built-in one."""
        return {"templates": self.templates, "tables": self.tables}.get(kind)

    def options(self, given: Mapping[str, str]) -> dict[str, str]:
        """``given`` checked against :attr:`new_options`, defaults filled in; ValueError names the problem.

        >>> info = RulesetInfo("x", new_options=(NewOption("name", "the duellist"),))
        >>> info.options({"name": "阿尔托"})
        {'name': '阿尔托'}
        >>> info.options({"nmae": "阿尔托"})
        Traceback (most recent call last):
        ValueError: unknown option 'nmae' for the x ruleset (it takes: name)
        """
        known = {o.name: o for o in self.new_options}
        for key in given:
            if key not in known:
                takes = ", ".join(known) or "no options"
                raise ValueError(f"unknown option {key!r} for the {self.name} ruleset (it takes: {takes})")
        out = dict(given)
        for o in self.new_options:
            if o.name not in out:
                if o.required:
                    raise ValueError(f"missing option {o.name!r} ({o.help})")
                if o.default is not None:
                    out[o.name] = o.default
        return out


__all__ = ["Currency", "Filter", "MINUS", "NewOption", "RulesetInfo", "Units"]
