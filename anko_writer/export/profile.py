"""Forum profiles: what a forum accepts, as data a host can copy and change (DESIGN §11).

A profile is a YAML file: the output ``format``, the post ``limit`` and how the forum counts it, how
folds and tables render, and the tag templates. ``anko-writer export OUT --forum nga`` takes the
shipped ``profiles/nga.yaml``; ``--forum my-forum.yaml`` takes a host's own copy. A broken profile is
refused like a table, with ``file:line:col`` and the key.

>>> p = load_profile("discuz")
>>> (p.name, p.format, p.limit, p.count, p.folds)
('discuz', 'bbcode', 10000, 'utf8', 'appendix')
>>> p.size("雷希特 2 : 1")  # three bytes a Chinese character on a UTF-8 board
15
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError, Location
from ..resources import builtin_dir, shipped_or_file
from ..schema import Enum, Field, Int, Map, Str, validate
from ..yamlio import load_yaml

FORMATS = ("bbcode", "text", "markdown", "html")
"""``bbcode`` and ``text`` render through the tag templates; ``markdown`` keeps the chapter's own
Markdown (folds as ``<details>``); ``html`` writes one self-contained page per arc."""
COUNTS = ("chars", "utf8", "gbk")
"""How a forum measures a post: Unicode characters, or bytes in UTF-8 or GBK."""
TAGS = ("bold", "italic", "code", "h1", "h2", "h3", "h4", "quote", "fold", "table", "row", "head_cell", "cell",
        "list", "item", "ordered_item", "hr", "link", "header", "appendix_header", "appendix_ref")
"""Every tag template a ``bbcode``/``text`` profile may set; ``{}`` is the content."""


class ProfileError(InputError):
    """A forum profile file is malformed."""


def _tags() -> Map:
    """The ``tags`` map: every template optional (a missing one renders the content bare)."""
    return Map({name: Field(Str(), default="{}") for name in TAGS})


SCHEMA = Map({
    "name": Field(Str(min_len=1), doc="The profile's folder under ``export/``."),
    "description": Field(Str(), default=""),
    "format": Field(Enum(FORMATS)),
    "extension": Field(Str(min_len=2), doc="The post files' suffix, with its dot."),
    "limit": Field(Int(min=0), doc="The most a post may hold, in ``count`` units (0: no limit)."),
    "count": Field(Enum(COUNTS), default="chars"),
    "folds": Field(Enum(("inline", "appendix")), default="inline",
                   doc="``inline``: the ``fold`` tag wraps the detail; ``appendix``: moved to posts at "
                       "the end of the chapter, before the vote."),
    "tables": Field(Enum(("tags", "lines")), default="tags",
                    doc="``tags``: the table tags; ``lines``: one aligned line per row."),
    "tags": Field(_tags(), default={}),
})
"""The schema of a profile file."""


@dataclass(frozen=True)
class Profile:
    """One forum's rules for posts."""

    name: str
    description: str
    format: str
    extension: str
    limit: int
    count: str
    folds: str
    tables: str
    tags: dict[str, str]
    source: Path

    def size(self, text: str) -> int:
        """``text`` measured as the forum measures a post."""
        if self.count == "utf8":
            return len(text.encode("utf-8"))
        if self.count == "gbk":  # a character GBK cannot hold is stored as an entity: count it long
            return sum(len(c.encode("gbk")) if _in_gbk(c) else 8 for c in text)
        return len(text)

    def tag(self, name: str, content: str, **fields: Any) -> str:
        """The ``name`` template filled with ``content`` (and named fields like ``title``)."""
        parts = self.tags.get(name, "{}").split("{}")
        return content.join(part.format_map(_Fields(fields)) for part in parts)


class _Fields(dict[str, Any]):
    """Named template fields; an unknown ``{name}`` stays as written."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _in_gbk(c: str) -> bool:
    """True if GBK can encode ``c``."""
    try:
        c.encode("gbk")
    except UnicodeEncodeError:
        return False
    return True


def shipped() -> list[str]:
    """The names of the shipped profiles."""
    return sorted(p.stem for p in builtin_dir("profiles").glob("*.yaml"))


def load_profile(spec: str) -> Profile:
    """The profile named ``spec`` (shipped) or the profile file at path ``spec`` (``*.yaml``)."""
    path = shipped_or_file("profiles", spec, "forum profile", ProfileError, shipped())
    data = validate(load_yaml(path, ProfileError), SCHEMA, path, ProfileError)
    _check_templates(data, path)
    return Profile(**data, source=path)


def _check_templates(data: dict[str, Any], path: Path) -> None:
    """Refuse a tag template that ``str.format`` cannot fill (an unbalanced ``{``)."""
    for name, template in data["tags"].items():
        try:
            for part in template.split("{}"):
                part.format_map(_Fields())
        except (ValueError, IndexError) as err:
            raise ProfileError(Location(path), f"tags.{name}", f"bad template {template!r}: {err}") from None


__all__ = ["COUNTS", "FORMATS", "Profile", "ProfileError", "SCHEMA", "TAGS", "load_profile", "shipped"]
