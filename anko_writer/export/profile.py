"""Forum profiles: what a forum accepts, as data a host can copy and change (DESIGN §11).

A profile is a YAML file: the output ``format``, the post ``limit`` and how the forum counts it, how
folds and tables render, and the tag templates. ``anko-writer export OUT --forum nga`` takes the
shipped ``profiles/nga.yaml``; ``--forum my-forum.yaml`` takes a host's own copy. A broken profile is
refused like a table, with ``file:line:col`` and the key. A profile file is never read through a link that
leaves its own folder. A tag template may name fields (``{title}``, ``{n}``, ``{href}``) but never reach
into them (``{title.__class__}``, ``{title[0]}``): that is refused at load, and templates are filled by
substitution, never by ``str.format``.

>>> p = load_profile("discuz")
>>> (p.name, p.format, p.limit, p.count, p.folds)
('discuz', 'bbcode', 10000, 'utf8', 'appendix')
>>> p.size("雷希特 2 : 1")  # three bytes a Chinese character on a UTF-8 board
15
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from string import Formatter
from typing import Any

from ..errors import InputError, Location
from ..resources import builtin_dir, shipped_or_file
from ..schema import Enum, Field, Int, Map, Str, validate
from ..textfile import read_text
from ..yamlio import load_yaml_text, position

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
    limit_at: Location | None = None
    """Where the profile file sets ``limit`` (for the error when it leaves no room for a post)."""

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
        return content.join(_fill(part, fields) for part in parts)


def _fill(template: str, fields: dict[str, Any]) -> str:
    """``template`` with each ``{name}`` replaced by ``fields[name]`` (an unknown name stays as written,
    ``{{``/``}}`` are braces); only plain names are substituted, nothing is looked up inside a value."""
    out: list[str] = []
    for literal, name, spec, conversion in Formatter().parse(template):
        out.append(literal)
        if name is None:
            continue
        if name in fields and name.isidentifier() and not conversion and not spec:
            out.append(str(fields[name]))
        else:
            out.append("{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}")
    return "".join(out)


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
    path = shipped_or_file("profiles", spec, "论坛配置", ProfileError, shipped())
    doc = load_yaml_text(read_text(path, ProfileError, within=path.parent), path, ProfileError)
    data = validate(doc, SCHEMA, path, ProfileError)
    _check_templates(data, doc, path)
    at = position(doc, "limit") if isinstance(doc, dict) else None
    return Profile(**data, source=path, limit_at=Location(path, *at) if at else Location(path))


def _check_templates(data: dict[str, Any], doc: Any, path: Path) -> None:
    """Refuse a tag template that is not plain text with ``{}`` and ``{name}`` fields: an unbalanced brace,
    a positional field, attribute access or indexing (``{title.__class__}``), a conversion or a format spec.
    Nothing in a template is evaluated, here or when it is filled."""
    tags = doc.get("tags") if isinstance(doc, dict) else None
    for name, template in data["tags"].items():
        at = position(tags, name) if tags is not None else None
        where = Location(path, *at) if at else Location(path)
        try:
            fields = [(f, spec, conv) for part in template.split("{}")
                      for _, f, spec, conv in Formatter().parse(part) if f is not None]
        except ValueError as err:
            raise ProfileError(where, f"tags.{name}", f"模板 {template!r} 有误：{err}") from None
        for field, spec, conversion in fields:
            if not field.isidentifier() or conversion or spec:
                shown = "{" + field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
                raise ProfileError(where, f"tags.{name}", f"模板 {template!r} 有误：{shown} 不是简单的字段名"
                                   "（模板只能用 {}、{title}、{n} 或 {href}；不能取属性、"
                                   "取下标、转换或写格式说明）")


__all__ = ["COUNTS", "FORMATS", "Profile", "ProfileError", "SCHEMA", "TAGS", "load_profile", "shipped"]
