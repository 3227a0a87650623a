"""A small typed schema for YAML documents: plain Python out, the first error out as ``file:line:col``.

A schema is a tree of nodes (:class:`Str`, :class:`Int`, :class:`Map`, :class:`List` …). :func:`validate`
walks a document loaded by :func:`anko_writer.yamlio.load_yaml`, returns it as builtin types with
defaults filled in, and raises the first problem as the caller's error class, naming the key path
and where the offending value sits — like MkDocs' config errors::

    campaign.yaml:12:5: players[3].position: 应为以下之一：FW、MF、DF、GK，实际是 'ST'

>>> from anko_writer.yamlio import load_yaml_text
>>> options = Map({"title": Field(Str()), "output": Field(Str(), default="out")})
>>> validate(load_yaml_text("title: 雷希特的冬天\\n", "c.yaml"), options, "c.yaml")
{'title': '雷希特的冬天', 'output': 'out'}
>>> validate(load_yaml_text("title: 雷希特的冬天\\nouptut: 帖子\\n", "c.yaml"), options, "c.yaml")
Traceback (most recent call last):
...
anko_writer.errors.CampaignError: c.yaml:2:1: 未知的键 'ouptut'；是不是想写 'output'？

Custom scalar nodes subclass :class:`Scalar` and raise :class:`Invalid` from ``convert``.
"""

from __future__ import annotations

import copy
import datetime
import json
import math
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NoReturn

from .errors import CampaignError, InputError, Location
from .yamlio import FastPathError, Pos, load_located, load_plain_fast, position, to_plain


class _Missing:
    """Type of :data:`MISSING`."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
"""Marks a :class:`Field` with no default."""


class Invalid(Exception):
    """A value breaks a node's rule; ``message`` has no location (the caller adds it)."""

    def __init__(self, message: str, names_value: bool = False) -> None:
        self.message = message
        self.names_value = names_value
        """True when the message starts with the value itself (``'s1x5' 不符合格式 …``)."""
        super().__init__(message)


_TYPE_NAMES = {"bytes": "字节串", "complex": "复数", "Decimal": "小数", "Fraction": "分数", "time": "时间"}
"""Chinese names of the rarer types :func:`show` may meet (other types are named by their Python name)."""


def show(value: Any) -> str:
    """How a value is named in a message: ``'ST'``, ``120``, ``true``, ``列表``, ``空值``.

    >>> show("abc"), show(120), show(True), show([1]), show({}), show(None)
    ("'abc'", '120', 'true', '列表', '映射', '空值')
    >>> import datetime; show(datetime.date(2026, 1, 2)), show(b"x")
    ('日期（2026-01-02）', '字节串')
    """
    if value is None:
        return "空值"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(str(value))
    if isinstance(value, int):
        return repr(int(value))
    if isinstance(value, float):
        return repr(float(value))
    if isinstance(value, Mapping):
        return "映射"
    if isinstance(value, (list, tuple)):
        return "列表"
    if isinstance(value, Set):
        return "集合"
    if isinstance(value, (datetime.date, datetime.datetime)):
        return f"日期（{value.isoformat()}）"
    name = type(value).__name__
    return _TYPE_NAMES.get(name, f"{name} 类型的值")


def did_you_mean(got: Any, options: Sequence[Any]) -> str:
    """``"；是不是想写 'Y'？"`` for the closest option (case-insensitive, difflib), else ``""``.

    >>> did_you_mean("ouput", ["title", "output"]), did_you_mean("x", ["title"])
    ("；是不是想写 'output'？", '')
    """
    if not isinstance(got, (str, int)) or isinstance(got, bool):
        return ""
    import difflib  # an error's hint only: a command that validates cleanly never needs it

    lowered = {str(o).lower(): o for o in options}
    target = str(got).lower()
    hits = [target] if target in lowered else difflib.get_close_matches(target, list(lowered), n=1)
    return f"；是不是想写 {show(lowered[hits[0]])}？" if hits else ""


def _join(path: str, key: Any) -> str:
    """Extend a key path: ``club`` + ``name`` → ``club.name``; ``players`` + 3 → ``players[3]``."""
    if isinstance(key, int) and not isinstance(key, bool):
        return f"{path}[{key}]"
    text = str(key)
    if not re.fullmatch(r"[^\s.\[\]'\"]+", text):
        return f"{path}[{text!r}]"
    return f"{path}.{text}" if path else text


@dataclass(frozen=True)
class At:
    """Where a value sits while it is validated: file, key path, 1-based position, error class."""

    file: Path | str
    """The file named in errors."""
    path: str
    """Key path from the document root (``players[3].position``; empty at the root)."""
    pos: Pos | None
    """Line and column of the value, if known."""
    error: type[InputError] = CampaignError
    """Exception class raised by :meth:`fail`."""

    def fail(self, message: str) -> NoReturn:
        """Raise ``error`` for this place."""
        line, col = self.pos if self.pos else (None, None)
        raise self.error(Location(self.file, line, col), self.path, message)

    def value(self, mapping: Any, key: Any) -> At:
        """The place of ``mapping[key]`` (an empty value is placed at its key)."""
        part: Literal["value", "key"] = "key" if mapping.get(key) is None else "value"
        return At(self.file, _join(self.path, key), position(mapping, key, part) or self.pos, self.error)

    def key(self, mapping: Any, key: Any) -> At:
        """The place of the key itself; the path stays the mapping's."""
        return At(self.file, self.path, position(mapping, key, "key") or self.pos, self.error)

    def item(self, seq: Any, index: int) -> At:
        """The place of ``seq[index]``."""
        return At(self.file, _join(self.path, index), position(seq, index) or self.pos, self.error)

    def child(self, container: Any, key_or_index: Any) -> At:
        """:meth:`value` for a mapping, :meth:`item` for a list."""
        if isinstance(container, Mapping):
            return self.value(container, key_or_index)
        return self.item(container, key_or_index)


Child = tuple[str, str, str, "Node"]
"""(key path, requirement, description, node) for :func:`describe`."""


class Node:
    """One rule for one YAML value; subclasses check it and return it as plain Python."""

    doc: str = ""

    def check(self, value: Any, at: At) -> Any:
        """Validate ``value`` found at ``at``; return it as builtin types or raise via ``at.fail``."""
        raise NotImplementedError

    def type_name(self) -> str:
        """Short type shown by :func:`describe` (``integer (1–99)``)."""
        return type(self).__name__.lower()

    def children(self, path: str) -> Iterator[Child]:
        """The keys nested under this node, for :func:`describe`."""
        return iter(())


class Scalar(Node):
    """A node for one value with no children: subclasses implement :meth:`convert`."""

    def check(self, value: Any, at: At) -> Any:
        """Run :meth:`convert`, turning :class:`Invalid` into a located error."""
        try:
            return self.convert(value)
        except Invalid as err:
            at.fail(err.message)

    def convert(self, value: Any) -> Any:
        """Return ``value`` as plain Python or raise :class:`Invalid`."""
        raise NotImplementedError


def _is_int(value: Any) -> bool:
    """An integer that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def _bounds(lo: float | None, hi: float | None) -> str:
    """`` (1–99)``, `` (≥ 1)``, `` (≤ 9)`` or ``""`` for :func:`describe`."""
    if lo is not None and hi is not None:
        return f" ({lo}–{hi})"
    if lo is not None:
        return f" (≥ {lo})"
    return f" (≤ {hi})" if hi is not None else ""


GOT = "实际是"
"""The words that name the value a message refused (``应为整数，实际是 'x'``)."""


def _check_range(value: float, lo: float | None, hi: float | None) -> None:
    """Raise :class:`Invalid` when ``value`` is outside ``lo..hi`` (either end may be open)."""
    if (lo is None or value >= lo) and (hi is None or value <= hi):
        return
    if lo is not None and hi is not None:
        raise Invalid(f"应在 {lo} 到 {hi} 之间，{GOT} {show(value)}")
    if lo is not None:
        raise Invalid(f"应不小于 {lo}，{GOT} {show(value)}")
    raise Invalid(f"应不大于 {hi}，{GOT} {show(value)}")


@dataclass
class Enum(Scalar):
    """One of a fixed set of strings or integers.

    >>> Enum(["markdown", "bbcode", "html"]).convert("BBCode")
    Traceback (most recent call last):
    ...
    anko_writer.schema.Invalid: 应为以下之一：markdown、bbcode、html，实际是 'BBCode'；是不是想写 'bbcode'？
    """

    values: Sequence[str | int]
    """The allowed values, in the order messages list them."""
    doc: str = ""

    def convert(self, value: Any) -> Any:
        """The matching allowed value (``4`` never matches ``'4'``, ``true`` never matches ``1``)."""
        for allowed in self.values:
            same_kind = isinstance(value, str) if isinstance(allowed, str) else _is_int(value)
            if same_kind and value == allowed:
                return allowed
        listed = "、".join(str(v) for v in self.values)
        raise Invalid(f"应为以下之一：{listed}，{GOT} {show(value)}{did_you_mean(value, self.values)}")

    def type_name(self) -> str:
        """``one of `FW`, `MF```."""
        return "one of " + ", ".join(f"`{v}`" for v in self.values)


@dataclass
class Str(Scalar):
    """A string, optionally from ``choices``, at least ``min_len`` long, or matching ``pattern``."""

    choices: Sequence[str] | None = None
    """If given, the string must be one of these (messages as :class:`Enum`)."""
    min_len: int = 1
    """Shortest length allowed; the default 1 also refuses blank strings."""
    pattern: str | None = None
    """Regular expression the whole string must match."""
    pattern_doc: str | None = None
    """Human name of the pattern used in messages (``s<season>m<month>``)."""
    doc: str = ""
    _regex: re.Pattern[str] | None = field(init=False, repr=False, default=None)

    def __post_init__(self) -> None:
        self._regex = re.compile(self.pattern) if self.pattern is not None else None

    def convert(self, value: Any) -> str:
        """The string, checked."""
        if not isinstance(value, str):
            raise Invalid(f"应为字符串，{GOT} {show(value)}")
        text = str(value)
        if self.choices is not None:
            chosen: str = Enum(self.choices).convert(text)  # the choices are strings
            return chosen
        if self.min_len and not text.strip():
            raise Invalid("不能为空")
        if len(text) < self.min_len:
            raise Invalid(f"至少应有 {self.min_len} 个字符，{GOT} {len(text)} 个")
        if self._regex is not None and not self._regex.fullmatch(text):
            raise Invalid(f"{text!r} 不符合格式 {self.pattern_doc or self.pattern}", names_value=True)
        return text

    def type_name(self) -> str:
        """``string``, ``one of …`` or ``string matching …``."""
        if self.choices is not None:
            return Enum(self.choices).type_name()
        if self.pattern is not None:
            return f"string matching `{self.pattern_doc or self.pattern}`"
        return "string"


NAME_DELIMITERS = "｜〕〔＝|#/"
"""Characters a :class:`Name` may not hold: the delimiters of a roll id (``s1/league/r05/A-B#3``) and of a
hidden-dice seal or reveal line (``〔封存｜编号 {id}｜{expr}＝？？？｜承诺 …〕``)."""

MARKUP_CHARS = "[]<>"
"""Characters a :class:`Name` may not hold because forums read them as markup (a BBCode tag, an HTML
element): a club named ``[collapse=x]…`` would open a tag in every post that names it."""

_SPACE_NAMES = {" ": "空格", "\u3000": "全角空格（U+3000）", "\t": "制表符",
                "\n": "换行", "\r": "换行"}


def name_problem(text: str) -> str | None:
    """Why ``text`` cannot be a name that ends up in a roll id or a seal line, or None.

    Whitespace of any kind, control and invisible format characters, the delimiters of
    :data:`NAME_DELIMITERS` and the markup brackets of :data:`MARKUP_CHARS` are refused.

    >>> name_problem("卡尔·穆勒") is None
    True
    >>> name_problem("卡尔 穆勒"), name_problem("雷希特/竞技"), name_problem("a\\u200bb")
    ('不能含有空格', "不能含有 '/'", '不能含有不可见字符（U+200B）')
    """
    for ch in text:
        if ch in _SPACE_NAMES:
            return f"不能含有{_SPACE_NAMES[ch]}"
        if ch.isspace():
            return f"不能含有空白字符（U+{ord(ch):04X}）"
        if ch in NAME_DELIMITERS or ch in MARKUP_CHARS:
            return f"不能含有 {ch!r}"
        hidden = _unseen_problem(ch)
        if hidden:
            return hidden
    return None


def _unseen_problem(ch: str) -> str | None:
    """Why ``ch`` cannot stand in a name or a line of display text: a control or invisible character, or None."""
    category = unicodedata.category(ch)
    if category == "Cc":
        return f"不能含有控制字符（U+{ord(ch):04X}）"
    if category in ("Cf", "Cs"):
        return f"不能含有不可见字符（U+{ord(ch):04X}）"
    return None


MARKUP_WHY = "论坛会把它当作排版标记"
"""Why a markup bracket is refused, as messages give it."""


def line_problem(text: str) -> str | None:
    """Why ``text`` cannot be one line of display text that chapters print (a thread title), or None: a line
    break (it would start a raw line of the chapter: a heading, a fold marker, a forged reveal), a control or
    invisible character, or a markup bracket of :data:`MARKUP_CHARS`. Spaces are fine.

    >>> line_problem("BALL 安科：读者执 白"), line_problem("标题\\n〔揭晓｜…〕"), line_problem("[b]x")
    (None, '不能含有换行', "不能含有 '['（论坛会把它当作排版标记）")
    """
    for ch in text:
        if ch in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029":
            return "不能含有换行"
        if ch in MARKUP_CHARS:
            return f"不能含有 {ch!r}（{MARKUP_WHY}）"
        hidden = _unseen_problem(ch)
        if hidden:
            return hidden
    return None


@dataclass
class Line(Str):
    """One line of display text a chapter prints (a thread title): like :class:`Str`, plus no line break,
    control character or markup bracket (:func:`line_problem`)."""

    def convert(self, value: Any) -> str:
        """The line, checked."""
        text = super().convert(value)
        problem = line_problem(text)
        if problem:
            raise Invalid(f"{text!r} {problem}", names_value=True)
        return text

    def type_name(self) -> str:
        """``one line of text (no line break or []<>)``."""
        return f"one line of text (no line break or {MARKUP_CHARS})"


@dataclass
class Name(Str):
    """A name that ends up in roll ids, hidden-dice seal lines or a chapter's records: a club, a city or
    a person. Like :class:`Str`, plus no whitespace, control characters or ``｜ 〕 〔 ＝ | # /``.

    >>> Name().convert("卡尔 穆勒")
    Traceback (most recent call last):
    ...
    anko_writer.schema.Invalid: '卡尔 穆勒' 不能含有空格（会破坏掷骰编号或封存行）
    """

    def convert(self, value: Any) -> str:
        """The name, checked."""
        text = super().convert(value)
        problem = name_problem(text)
        if problem:
            markup = problem[-2] in MARKUP_CHARS and problem.endswith("'")
            why = MARKUP_WHY if markup else "会破坏掷骰编号或封存行"
            raise Invalid(f"{text!r} {problem}（{why}）", names_value=True)
        return text

    def type_name(self) -> str:
        """``name (no whitespace or ｜〕〔＝|#/[]<>)``."""
        return f"name (no whitespace or {NAME_DELIMITERS}{MARKUP_CHARS})"


@dataclass
class Int(Scalar):
    """An integer (``true`` is not one) between ``min`` and ``max`` inclusive."""

    min: int | None = None
    max: int | None = None
    doc: str = ""

    def convert(self, value: Any) -> int:
        """The integer, checked."""
        if not _is_int(value):
            raise Invalid(f"应为整数，{GOT} {show(value)}")
        _check_range(int(value), self.min, self.max)
        return int(value)

    def type_name(self) -> str:
        """``integer (1–99)``."""
        return "integer" + _bounds(self.min, self.max)


@dataclass
class Secret(Int):
    """An integer that stays private (the campaign seed): an error about it never repeats the value.

    >>> Secret(min=0).convert(12.5)
    Traceback (most recent call last):
    ...
    anko_writer.schema.Invalid: 应为整数（此值保密，这里不复述）
    """

    def convert(self, value: Any) -> int:
        """The integer, checked; the message names the problem, never the value."""
        try:
            return super().convert(value)
        except Invalid as err:
            kind = "应为整数" if not _is_int(value) else str(err).split(f"，{GOT}")[0]
            raise Invalid(f"{kind}（此值保密，这里不复述）") from None


@dataclass
class Float(Scalar):
    """A finite number (integers accepted) between ``min`` and ``max`` inclusive."""

    min: float | None = None
    max: float | None = None
    doc: str = ""

    def convert(self, value: Any) -> float:
        """The number as a float, checked."""
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            raise Invalid(f"应为数字，{GOT} {show(value)}")
        _check_range(value, self.min, self.max)
        return float(value)

    def type_name(self) -> str:
        """``number (0–1)``."""
        return "number" + _bounds(self.min, self.max)


@dataclass
class Bool(Scalar):
    """``true`` or ``false``."""

    doc: str = ""

    def convert(self, value: Any) -> bool:
        """The boolean."""
        if not isinstance(value, bool):
            raise Invalid(f"应为 true 或 false，{GOT} {show(value)}")
        return bool(value)

    def type_name(self) -> str:
        """``boolean``."""
        return "boolean"


@dataclass
class Data(Scalar):
    """Any YAML data, returned as plain Python (effect parameters, free notes)."""

    doc: str = ""

    def convert(self, value: Any) -> Any:
        """A plain deep copy."""
        return to_plain(value)

    def type_name(self) -> str:
        """``any``."""
        return "any"


@dataclass(frozen=True)
class Field:
    """One key of a :class:`Map`: its node, whether it must be present, its default and its doc."""

    node: Node
    required: bool = True
    """Must the key be present? Giving a ``default`` makes it optional."""
    default: Any = MISSING
    """Filled in (deep-copied) when the key is absent."""
    doc: str = ""

    def __post_init__(self) -> None:
        if self.default is not MISSING:
            object.__setattr__(self, "required", False)

    def requirement(self) -> str:
        """``required``, ``default: `3``` or ``optional`` for :func:`describe`."""
        if self.required:
            return "required"
        if self.default is MISSING:
            return "optional"
        return f"default: `{json.dumps(self.default, ensure_ascii=False)}`"


def _mapping(value: Any, at: At) -> Mapping[Any, Any]:
    """``value`` if it is a mapping, else a located type error."""
    if not isinstance(value, Mapping):
        at.fail(f"应为映射，{GOT} {show(value)}")
    return value


@dataclass
class Map(Node):
    """A mapping with known keys; unknown keys are errors unless ``extra`` validates their values."""

    fields: dict[str, Field]
    extra: Node | None = None
    """Node for the values of keys not in ``fields`` (None: such keys are errors)."""
    doc: str = ""

    def check(self, value: Any, at: At) -> dict[Any, Any]:
        """A plain dict: known keys in schema order (defaults filled), then extra keys."""
        mapping = _mapping(value, at)
        known: dict[Any, Any] = {}
        extras: dict[Any, Any] = {}
        for key, item in mapping.items():
            f = self.fields.get(key) if isinstance(key, str) else None
            if f is not None:
                known[key] = f.node.check(item, at.value(mapping, key))
            elif self.extra is not None:
                extras[to_plain(key)] = self.extra.check(item, at.value(mapping, key))
            else:
                at.key(mapping, key).fail(self._unknown(key))
        return self._fill(known, at) | extras

    def _unknown(self, key: Any) -> str:
        """Message for a key the schema does not know."""
        hint = did_you_mean(key, list(self.fields))
        return f"未知的键 {show(key)}" + (hint or f"（可用的键：{'、'.join(self.fields) or '无'}）")

    def _fill(self, known: dict[Any, Any], at: At) -> dict[Any, Any]:
        """Schema-ordered dict with defaults; raises for the first missing required key."""
        out: dict[Any, Any] = {}
        for name, f in self.fields.items():
            if name in known:
                out[name] = known[name]
            elif f.required:
                at.fail(f"缺少必填的键 {name!r}")
            elif f.default is not MISSING:
                out[name] = copy.deepcopy(f.default)
        return out

    def type_name(self) -> str:
        """``mapping``."""
        return "mapping"

    def children(self, path: str) -> Iterator[Child]:
        """Each field, then ``<any key>`` for ``extra``."""
        for name, f in self.fields.items():
            yield _join(path, name), f.requirement(), f.doc or f.node.doc, f.node
        if self.extra is not None:
            yield f"{path}.<any key>" if path else "<any key>", "optional", self.extra.doc, self.extra


@dataclass
class DictOf(Node):
    """A mapping with free keys checked by ``key`` (e.g. ``s1m5``) and values checked by ``value``."""

    key: Scalar
    value: Node
    doc: str = ""

    def check(self, value: Any, at: At) -> dict[Any, Any]:
        """A plain dict in document order."""
        mapping = _mapping(value, at)
        out: dict[Any, Any] = {}
        for key, item in mapping.items():
            try:
                plain_key = self.key.convert(key)
            except Invalid as err:
                text = f"键 {err.message}" if err.names_value else f"键 {show(key)}：{err.message}"
                at.key(mapping, key).fail(text)
            out[plain_key] = self.value.check(item, at.value(mapping, key))
        return out

    def type_name(self) -> str:
        """``mapping``."""
        return "mapping"

    def children(self, path: str) -> Iterator[Child]:
        """One placeholder key (``decisions.<s<season>m<month>>``)."""
        name = getattr(self.key, "pattern_doc", None) or self.key.type_name()
        yield f"{path}.<{name}>" if path else f"<{name}>", "optional", self.value.doc, self.value


def _items(n: int) -> str:
    """``1 item``, ``2 items`` for :func:`describe`."""
    return f"{n} item" + ("" if n == 1 else "s")


@dataclass
class List(Node):
    """A list of ``item`` with ``min_len`` to ``max_len`` entries."""

    item: Node
    min_len: int = 0
    max_len: int | None = None
    doc: str = ""

    def check(self, value: Any, at: At) -> list[Any]:
        """A plain list."""
        if not isinstance(value, list):
            at.fail(f"应为列表，{GOT} {show(value)}")
        if len(value) < self.min_len:
            at.fail(f"至少应有 {self.min_len} 项，{GOT} {len(value)} 项")
        if self.max_len is not None and len(value) > self.max_len:
            at.fail(f"至多应有 {self.max_len} 项，{GOT} {len(value)} 项")
        return [self.item.check(v, at.item(value, i)) for i, v in enumerate(value)]

    def type_name(self) -> str:
        """``list of mapping``."""
        lo, hi = self.min_len or None, self.max_len
        if lo is not None and hi is not None:
            count = f" ({lo}–{hi} items)"
        elif lo is not None or hi is not None:
            count = f" (at least {_items(lo)})" if lo is not None else f" (at most {_items(hi or 0)})"
        else:
            count = ""
        return f"list of {self.item.type_name()}{count}"

    def children(self, path: str) -> Iterator[Child]:
        """The item's own keys under ``path[]``."""
        return self.item.children(f"{path}[]")


Where = str | int | tuple[str | int, ...]
"""Where inside a value a :class:`Check` places its error: a key, an index, or a path of them."""
Problem = str | tuple[Where, str] | None
"""What a :class:`Check` function returns: nothing, a message, or (key, index or path inside, message)."""


@dataclass
class Check(Node):
    """``node``, then ``fn(plain_value)`` for cross-field rules; a returned message is the error.

    ``fn`` may return ``(key_or_index, message)`` to place the error on a child of the value, or
    ``((key, index, …), message)`` to place it deeper (``("league", 3, "city")``).

    >>> from anko_writer.yamlio import load_yaml_text
    >>> def repeats(xs: list[str]) -> Problem:
    ...     return next(((i, f"重复了 {x!r}") for i, x in enumerate(xs) if x in xs[:i]), None)
    >>> unique = Check(List(Str()), repeats, doc="No name twice.")
    >>> validate(load_yaml_text("- 甲\\n- 乙\\n- 甲\\n", "n.yaml"), unique, "n.yaml")
    Traceback (most recent call last):
    ...
    anko_writer.errors.CampaignError: n.yaml:3:3: [2]: 重复了 '甲'
    """

    node: Node
    fn: Callable[[Any], Problem]
    doc: str = ""

    def check(self, value: Any, at: At) -> Any:
        """Validate with ``node``, then apply ``fn``."""
        result = self.node.check(value, at)
        problem = self.fn(result)
        if problem is None:
            return result
        if isinstance(problem, tuple):
            where, message = problem
            _inside(value, at, where if isinstance(where, tuple) else (where,)).fail(message)
        at.fail(problem)

    def type_name(self) -> str:
        """The inner node's type."""
        return self.node.type_name()

    def children(self, path: str) -> Iterator[Child]:
        """The inner node's keys."""
        return self.node.children(path)


def _inside(value: Any, at: At, path: tuple[str | int, ...]) -> At:
    """The place of ``value[path[0]][path[1]]…`` (placed at the deepest part the document has)."""
    for i, part in enumerate(path):
        found = isinstance(value, Mapping) and part in value or \
            isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value)
        if not found:
            for rest in path[i:]:
                at = At(at.file, _join(at.path, rest), at.pos, at.error)
            return at
        at, value = at.child(value, part), value[part]
    return at


def validate(doc: Any, schema: Node, file: Path | str, error: type[InputError] = CampaignError) -> Any:
    """Check a loaded YAML document against ``schema``; return plain Python or raise the first ``error``."""
    return schema.check(doc, At(file, "", position(doc), error))


def validate_text(text: str, schema: Node, file: Path | str, error: type[InputError] = CampaignError) -> Any:
    """Parse and check a file we wrote (a state file): libyaml's fast parser first; on any problem it is read
    again with positions, so an error still names the file, line and key: by libyaml with the locating parser's
    very positions when :func:`~anko_writer.yamlio.load_located` can, else by the locating parser itself."""
    try:
        return schema.check(load_plain_fast(text), At(file, "", None, error))
    except (FastPathError, InputError):
        return validate(load_located(text, file, error), schema, file, error)


def _cell(text: str) -> str:
    """Escape a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def _rows(node: Node, path: str) -> Iterator[str]:
    """Table rows for every key under ``node``, depth first."""
    for key, req, doc, child in node.children(path):
        rule = f" Rule: {child.doc}" if isinstance(child, Check) and child.doc and child.doc != doc else ""
        yield f"| `{_cell(key)}` | {_cell(child.type_name())} | {_cell(req)} | {_cell(doc + rule)} |"
        yield from _rows(child, key)


def describe(schema: Node) -> str:
    """A Markdown reference table of every key: path, type, required/default and description.

    >>> print(describe(Map({"seed": Field(Int(min=0), doc="Campaign seed.")})))
    | Key | Type | Required | Description |
    |---|---|---|---|
    | `seed` | integer (≥ 0) | required | Campaign seed. |
    """
    head = ["| Key | Type | Required | Description |", "|---|---|---|---|"]
    return "\n".join(head + list(_rows(schema, "")))


__all__ = [
    "MISSING", "Invalid", "At", "Node", "Scalar", "Str", "Name", "name_problem", "NAME_DELIMITERS", "MARKUP_CHARS", "Line", "line_problem",
    "Int", "Secret", "Float", "Bool", "Enum", "Data",
    "Field", "Map", "DictOf", "List", "Check", "Problem", "Where", "validate", "validate_text", "describe", "show",
    "did_you_mean", "GOT", "MARKUP_WHY",
]
