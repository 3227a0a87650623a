"""The 群英杯 chapters' words for the code's keys, once, in data: ``tables/purasbar/glossary.yaml``.

Templates reach them through one Jinja filter, ``cn``: ``{{ a.facility | cn('facility') }}`` prints
训练设施. Two sections come from where the words already live: ``staff_role`` adds staff.yaml's
``roles.*.name`` to the glossary's own (主教练), and ``formation`` is the 000 §7.1 table's labels
(:data:`~.match.formations.FORMATIONS`).

The filter is built from a :class:`~anko_writer.resources.Resources` (:func:`make_cn`), so a campaign
folder's ``tables/purasbar/glossary.yaml`` (or ``staff.yaml``) overrides the shipped one like any table:
:meth:`~.ruleset.Purasbar.resources` puts that filter in the description it attaches, and
:data:`~.ruleset.INFO` carries :data:`cn`, the shipped tables' filter.

>>> cn("medical", "facility"), cn("scout", "staff_role"), cn("coach", "staff_role"), cn("4 3 3", "formation")
('医疗设施', '球探', '主教练', '攻击')
>>> cn("ice", "facility", "设施")
'设施'
>>> cn("ice", "facility")
Traceback (most recent call last):
ValueError: glossary.yaml: no word for 'ice' in facility (it has: training, youth, medical)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...cache import cached
from ...errors import TableError
from ...resources import Resources
from ...schema import DictOf, Field, Map, Str, validate
from ...textfile import read_text
from ...yamlio import load_yaml_text
from .match.formations import FORMATIONS

GLOSSARY = "glossary.yaml"
"""The file under ``tables/purasbar/``."""

SCHEMA = Map({"source": Field(Str(), required=False)}, extra=DictOf(Str(), Str()))
"""Sections of key → word, beside the ``source`` every table names."""

_MISSING: Any = object()


def load_glossary(tables_dir: Path) -> dict[str, dict[str, str]]:
    """Every section of ``tables_dir/glossary.yaml``, ``staff_role`` and ``formation`` completed."""
    return _read(tables_dir / GLOSSARY, tables_dir / STAFF)


STAFF = "staff.yaml"
"""Where the staff roles' names live (``roles.<role>.name``)."""


def _read(glossary_path: Path, staff_path: Path) -> dict[str, dict[str, str]]:
    """Both files' sections, parsed once per pair of texts (:mod:`~anko_writer.cache`)."""
    texts = (read_text(glossary_path, TableError), read_text(staff_path, TableError))
    return cached("glossary", texts, lambda: _parse(glossary_path, texts[0], staff_path, texts[1]))


def _parse(glossary_path: Path, glossary_text: str, staff_path: Path, staff_text: str) -> dict[str, dict[str, str]]:
    """The sections of the glossary's text, ``staff_role`` and ``formation`` completed."""
    data = validate(load_yaml_text(glossary_text, glossary_path, TableError), SCHEMA, glossary_path, TableError)
    sections = {str(k): {str(key): str(word) for key, word in v.items()} for k, v in data.items() if k != "source"}
    roles = load_yaml_text(staff_text, staff_path, TableError)["roles"]
    sections["staff_role"] = {**{str(role): str(row["name"]) for role, row in roles.items()},
                              **sections.get("staff_role", {})}
    sections["formation"] = {name: f.label for name, f in FORMATIONS.items()}
    return sections


@lru_cache(maxsize=8)
def _cached(stamp: tuple[tuple[str, int], ...]) -> dict[str, dict[str, str]]:
    return _read(Path(stamp[0][0]), Path(stamp[1][0]))


def glossary(resources: Resources | None = None) -> dict[str, dict[str, str]]:
    """The glossary ``resources`` find (campaign folder first; None: the shipped one), read once per file
    version."""
    res = resources if resources is not None else Resources("purasbar", None)
    paths = (res.table_path(GLOSSARY), res.table_path(STAFF))
    return _cached(tuple((str(p), p.stat().st_mtime_ns) for p in paths))


def make_cn(resources: Resources | None = None) -> Callable[..., str]:
    """The ``cn`` filter over the glossary ``resources`` find (None: the shipped one), read on first use."""
    read: dict[str, dict[str, str]] = {}

    def cn(key: Any, section: str, default: str = _MISSING) -> str:
        """The chapter's word for ``key`` in ``section``; ``default`` when it has none (else a ValueError)."""
        if not read:
            read.update(glossary(resources))
        sections = read
        words = sections.get(section)
        if words is None:
            raise ValueError(f"{GLOSSARY}: no section {section!r} (it has: {', '.join(sections)})")
        word = words.get(str(key))
        if word is not None:
            return word
        if default is not _MISSING:
            return default
        raise ValueError(f"{GLOSSARY}: no word for {key!r} in {section} (it has: {', '.join(words)})")

    return cn


cn = make_cn()
"""The ``cn`` filter over the shipped glossary."""


__all__ = ["GLOSSARY", "STAFF", "cn", "glossary", "load_glossary", "make_cn"]
