"""The 群英杯 chapters' words for the code's keys, once, in data: ``tables/purasbar/glossary.yaml``.

Templates reach them through one Jinja filter, ``cn`` (registered in :data:`~.ruleset.INFO`'s
``filters``): ``{{ a.facility | cn('facility') }}`` prints 训练设施. Two sections come from where the
words already live: ``staff_role`` adds staff.yaml's ``roles.*.name`` to the glossary's own (主教练),
and ``formation`` is the 000 §7.1 table's labels (:data:`~.match.formations.FORMATIONS`).

The filter reads the shipped tables (the core's filter contract is a fixed mapping, with no
campaign folder): a campaign changes a chapter's words by overriding the template.

>>> cn("medical", "facility"), cn("scout", "staff_role"), cn("coach", "staff_role"), cn("4 3 3", "formation")
('医疗设施', '球探', '主教练', '攻击')
>>> cn("ice", "facility", "设施")
'设施'
>>> cn("ice", "facility")
Traceback (most recent call last):
ValueError: glossary.yaml: no word for 'ice' in facility (it has: training, youth, medical)
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from ...errors import TableError
from ...resources import Resources
from ...schema import DictOf, Field, Map, Str
from ...tables import load_data
from ...yamlio import load_yaml
from .match.formations import FORMATIONS

GLOSSARY = "glossary.yaml"
"""The file under ``tables/purasbar/``."""

SCHEMA = Map({"source": Field(Str(), required=False)}, extra=DictOf(Str(), Str()))
"""Sections of key → word, beside the ``source`` every table names."""

_MISSING: Any = object()


def load_glossary(tables_dir: Path) -> dict[str, dict[str, str]]:
    """Every section of ``tables_dir/glossary.yaml``, with ``staff_role`` and ``formation`` completed."""
    sections = {k: v for k, v in load_data(tables_dir / GLOSSARY, SCHEMA).items() if k != "source"}
    roles = load_yaml(tables_dir / "staff.yaml", TableError)["roles"]
    sections["staff_role"] = {**{str(role): str(row["name"]) for role, row in roles.items()},
                              **sections.get("staff_role", {})}
    sections["formation"] = {name: f.label for name, f in FORMATIONS.items()}
    return sections


@lru_cache(maxsize=1)
def glossary() -> dict[str, dict[str, str]]:
    """The shipped glossary, read once."""
    return load_glossary(Resources("purasbar", None).shipped_dir("tables"))


def cn(key: Any, section: str, default: str = _MISSING) -> str:
    """The chapter's word for ``key`` in ``section``; ``default`` when it has none (else a ValueError)."""
    words = glossary().get(section)
    if words is None:
        raise ValueError(f"{GLOSSARY}: no section {section!r} (it has: {', '.join(glossary())})")
    word = words.get(str(key))
    if word is not None:
        return word
    if default is not _MISSING:
        return default
    raise ValueError(f"{GLOSSARY}: no word for {key!r} in {section} (it has: {', '.join(words)})")


__all__ = ["GLOSSARY", "cn", "glossary", "load_glossary"]
