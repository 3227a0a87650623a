"""A ruleset's words for its code's keys (``tables/<ruleset>/glossary.yaml``), as the ``cn`` filter:
``{{ r.kind | cn('kind') }}`` prints 闪避 for Blood Bowl. A campaign folder's glossary overrides the shipped
one; a key with no word is an error naming the glossary, never an English word in a chapter."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from .info import RulesetInfo
from .resources import Resources
from .schema import DictOf, Field, Map, Str
from .tables import load_data

GLOSSARY = "glossary.yaml"
SCHEMA = Map({"source": Field(Str(), required=False)}, extra=DictOf(Str(), Str()))
_NONE: Any = object()


def make_cn(resources: Resources) -> Callable[..., str]:
    """The ``cn`` filter over the glossary ``resources`` find (read on first use)."""
    words: dict[str, dict[str, str]] = {}

    def cn(key: Any, section: str, default: Any = _NONE) -> str:
        """The chapter's word for ``key`` in ``section`` (``default``, else a ValueError, when it has none)."""
        if not words:
            words.update({k: v for k, v in load_data(resources.table_path(GLOSSARY), SCHEMA).items() if k != "source"})
        found = words.get(section, {}).get(str(key))
        if found is not None:
            return found
        if default is not _NONE:
            return str(default)
        raise ValueError(f"{GLOSSARY}: no word for {key!r} in {section}")

    return cn


def with_glossary(name: str, campaign_dir: Path | None, info: RulesetInfo) -> Resources:
    """A ruleset's resources whose ``info`` adds the ``cn`` filter over the glossary they find."""
    res = Resources(name, campaign_dir, info)
    res.info = replace(info, filters={**info.filters, "cn": make_cn(res)})
    return res


__all__ = ["GLOSSARY", "make_cn", "with_glossary"]
