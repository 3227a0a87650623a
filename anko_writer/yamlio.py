"""Round-trip YAML: load with positions, report errors as ``file:line:col``, dump keeping comments.

Every file a host edits goes through :func:`load_yaml` (ruamel.yaml's round-trip loader), so the loaded
mappings remember where each key and value sits and :func:`dump_yaml` writes comments and key order
back unchanged. Nothing in YAML can run Python: the loader refuses every tag it does not know
(``!!python/object``, ``!foo`` …) instead of building objects from them.

>>> data = load_yaml_text("thread:\\n  title: 雷希特的冬天  # 帖子标题\\n", "campaign.yaml")
>>> position(data["thread"], "title")
(2, 10)
>>> print(dump_yaml(data), end="")
thread:
  title: 雷希特的冬天  # 帖子标题
"""

from __future__ import annotations

import datetime
import io
import re
from collections.abc import Hashable, Mapping, Set
from pathlib import Path
from typing import Any, Literal

from ruamel.yaml import YAML
from ruamel.yaml.constructor import ConstructorError, DuplicateKeyError, RoundTripConstructor
from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.nodes import MappingNode, SequenceNode
from ruamel.yaml.nodes import Node as YAMLNode

from .errors import InputError, Location
from .textfile import read_text

Pos = tuple[int, int]
"""A 1-based ``(line, column)`` pair, as compilers print them."""


class UnknownTagError(ConstructorError):
    """A YAML tag the loader does not build objects for (``!!python/object``, ``!foo``)."""


class _StrictConstructor(RoundTripConstructor):
    """The round-trip constructor, minus its habit of keeping unknown tags as tagged objects."""

    def construct_refused(self, node: YAMLNode) -> None:
        """Refuse a node whose tag has no safe constructor."""
        raise UnknownTagError(None, None, f"unsupported tag {_short_tag(node.tag)!r}", node.start_mark)


    def construct_plain_str(self, node: YAMLNode) -> str:
        """``!!str 433`` is the string ``'433'`` (the round-trip loader would keep a tagged object)."""
        return self.construct_scalar(node)


_StrictConstructor.add_constructor(None, _StrictConstructor.construct_refused)
_StrictConstructor.add_constructor("tag:yaml.org,2002:str", _StrictConstructor.construct_plain_str)


def _short_tag(tag: Any) -> str:
    """``tag:yaml.org,2002:python/object:os.system`` → ``!!python/object:os.system``."""
    text = str(getattr(tag, "value", tag))
    return "!!" + text[len("tag:yaml.org,2002:") :] if text.startswith("tag:yaml.org,2002:") else text


def _yaml() -> YAML:
    """A fresh round-trip YAML instance with the project's dump style."""
    y = YAML(typ="rt")
    y.Constructor = _StrictConstructor
    y.allow_unicode = True
    y.encoding = "utf-8"
    y.width = 4096
    y.indent(mapping=2, sequence=4, offset=2)
    return y


def _mark_pos(err: MarkedYAMLError) -> tuple[int | None, int | None]:
    """1-based position of a ruamel error (its problem mark, else its context mark)."""
    mark = err.problem_mark or err.context_mark
    if mark is None:
        return None, None
    return mark.line + 1, mark.column + 1


_DUP = re.compile(r'found duplicate key "(.*)" with value')


def _first_key_line(text: str, err: MarkedYAMLError, key: str) -> int | None:
    """1-based line where the mapping that ``err`` complains about first defines ``key``."""
    start = err.context_mark
    stack = [YAML(typ="rt").compose(text)]
    while stack and start is not None:
        node = stack.pop()
        if isinstance(node, MappingNode) and node.start_mark.index == start.index:
            lines = [k.start_mark.line + 1 for k, _ in node.value if str(k.value) == key]
            return lines[0] if lines else None
        if isinstance(node, (MappingNode, SequenceNode)):
            stack.extend(v for pair in node.value for v in (pair if isinstance(pair, tuple) else (pair,)))
    return None


def _yaml_message(err: MarkedYAMLError, text: str) -> str:
    """The one-line message for a ruamel error."""
    if isinstance(err, UnknownTagError):
        return f"{err.problem} (YAML here is plain data; tags that build objects are refused)"
    m = _DUP.search(str(err.problem)) if isinstance(err, DuplicateKeyError) else None
    if m:
        line = _first_key_line(text, err, m.group(1))
        return f"duplicate key {m.group(1)!r}" + (f" (first defined at line {line})" if line else "")
    problem = str(err.problem or err.context)
    if problem.startswith("but ") and err.context:  # "expected X" + "but found Y" read as one sentence
        problem = f"{err.context}, {problem}"
    return f"YAML syntax error: {problem}"


def load_yaml_text(text: str, file: Path | str, error: type[InputError] = InputError) -> Any:
    """Parse YAML ``text`` (reported as coming from ``file``) with the strict round-trip loader."""
    try:
        return _yaml().load(text)
    except MarkedYAMLError as err:
        raise error(Location(file, *_mark_pos(err)), "", _yaml_message(err, text)) from None


def load_yaml(path: Path, error: type[InputError] = InputError) -> Any:
    """Load one YAML document with positions; every failure is an ``error`` naming ``path:line:col``."""
    return load_yaml_text(read_text(path, error), path, error)


def position(
    node: Any, key_or_index: Hashable | None = None, part: Literal["value", "key"] = "value"
) -> Pos | None:
    """1-based ``(line, col)`` of a mapping's value (or key) or a sequence's item; else of ``node`` itself.

    Returns ``None`` for plain Python data, which carries no positions.

    >>> doc = load_yaml_text("a: 1\\nlist:\\n  - x\\n  - y\\n", "f.yaml")
    >>> position(doc, "list", part="key"), position(doc["list"], 1), position(doc["list"], 9)
    ((2, 1), (4, 5), (3, 3))
    """
    lc = getattr(node, "lc", None)
    if lc is None:
        return None
    if key_or_index is not None:
        try:
            if isinstance(node, Mapping):
                line, col = lc.key(key_or_index) if part == "key" else lc.value(key_or_index)
            else:
                line, col = lc.item(key_or_index)
            return line + 1, col + 1
        except (KeyError, IndexError, TypeError):
            pass
    if lc.line is None:
        return None
    return lc.line + 1, lc.col + 1


def to_plain(data: Any) -> Any:
    """Deep copy of loaded YAML as builtin types (dict, list, str, int, float, bool, None, dates).

    >>> type(to_plain(load_yaml_text("a: [1, 2.5, x]", "f.yaml")))
    <class 'dict'>
    """
    if isinstance(data, Mapping):
        return {to_plain(k): to_plain(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [to_plain(v) for v in data]
    if isinstance(data, Set):
        return {to_plain(v) for v in data}
    if isinstance(data, bool) or data is None:
        return None if data is None else bool(data)
    for kind in (str, int, float, bytes):
        if isinstance(data, kind):
            return kind(data)
    if isinstance(data, datetime.datetime):
        return datetime.datetime.fromisoformat(data.isoformat())
    return data


def dump_yaml(data: Any) -> str:
    """Round-trip dump: comments and key order kept, unicode as-is, 2-space maps, ``  - `` lists."""
    buf = io.BytesIO()
    _yaml().dump(data, buf)
    return buf.getvalue().decode("utf-8")


__all__ = ["Pos", "UnknownTagError", "load_yaml", "load_yaml_text", "position", "to_plain", "dump_yaml"]
