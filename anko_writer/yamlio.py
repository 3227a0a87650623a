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
import functools
import io
import re
from collections.abc import Hashable, Mapping, Set
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from . import cache, prebuilt
from .errors import InputError, Location
from .textfile import read_text

if TYPE_CHECKING:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, StreamMark
    from ruamel.yaml.nodes import Node as YAMLNode
    from ruamel.yaml.reader import ReaderError

Pos = tuple[int, int]
"""A 1-based ``(line, column)`` pair, as compilers print them."""

MAX_BYTES = 1_000_000
"""The largest YAML text read (in UTF-8 bytes): ten times a season's ``state-end.yaml`` (about 110 kB),
the largest file anko-writer writes; bigger files would take the round-trip parser minutes."""
MAX_DEPTH = 64
"""The deepest nesting of mappings and lists (the files here nest about 6 deep)."""
ALIAS_BUDGET = 10_000
"""How many values YAML aliases (``*name``) may add to a document beyond those written out. The shipped
campaigns and tables use no aliases; the budget stops an alias bomb ("billion laughs") before anything
walks the expanded document."""
MAX_INT_DIGITS = 100
"""The longest integer literal (a seed has at most 20 digits)."""


class _RoundTrip:
    """ruamel.yaml's round-trip loader's parts as this module uses them, built on the first text the locating
    parser reads (:func:`_rt`): a run whose documents all come from the cache or libyaml never imports ruamel.yaml
    (10 ms of ``month``, issue 29)."""

    def __init__(self) -> None:
        from ruamel.yaml import YAML
        from ruamel.yaml.composer import Composer, ComposerError, MaxDepthExceededError
        from ruamel.yaml.constructor import ConstructorError, DuplicateKeyError, RoundTripConstructor
        from ruamel.yaml.error import MarkedYAMLError
        from ruamel.yaml.events import AliasEvent
        from ruamel.yaml.nodes import MappingNode, SequenceNode
        from ruamel.yaml.reader import ReaderError

        class UnknownTagError(ConstructorError):
            """A YAML tag the loader does not build objects for (``!!python/object``, ``!foo``)."""

        class _StrictConstructor(RoundTripConstructor):
            """The round-trip constructor, minus its habit of keeping unknown tags as tagged objects."""

            def construct_refused(self, node: YAMLNode) -> None:
                """Refuse a node whose tag has no safe constructor."""
                raise UnknownTagError(None, None, f"不支持的标签 {_short_tag(node.tag)!r}", node.start_mark)

            def construct_plain_str(self, node: YAMLNode) -> str:
                """``!!str 433`` is the string ``'433'`` (the round-trip loader would keep a tagged object)."""
                value = self.construct_scalar(node)
                # A quoted scalar is a str subclass that remembers its quotes (``keep_quotes``): keep it as it is.
                return value if isinstance(value, str) else str(value)

            def construct_bounded_int(self, node: YAMLNode) -> Any:
                """An integer, unless its literal is longer than :data:`MAX_INT_DIGITS` (Python would refuse to
                print a number past 4300 digits, and nothing here needs one that long)."""
                if len(str(node.value)) > MAX_INT_DIGITS:
                    raise ConstructorError(None, None, f"整数字面量超过 {MAX_INT_DIGITS} 个字符",
                                           node.start_mark)
                return self.construct_yaml_int(node)

        _StrictConstructor.add_constructor(None, _StrictConstructor.construct_refused)
        _StrictConstructor.add_constructor("tag:yaml.org,2002:str", _StrictConstructor.construct_plain_str)
        _StrictConstructor.add_constructor("tag:yaml.org,2002:int", _StrictConstructor.construct_bounded_int)

        class AliasError(ComposerError):
            """An alias that refers to its own anchor, or aliases that expand the document past
            :data:`ALIAS_BUDGET`."""

        class _BoundedComposer(Composer):
            """The composer, minus recursive aliases and alias bombs (both refused with the alias's position).

            A composed document shares one node for an anchor and all its aliases, so what the aliases add is
            counted once per node (memoized), without expanding anything.
            """

            def compose_document(self) -> Any:
                """Compose one document, then refuse it if its aliases expand it past the budget."""
                self._open: set[Any] = set()
                self._aliases: list[tuple[StreamMark, str, YAMLNode]] = []
                node = super().compose_document()
                if self._aliases:
                    _check_alias_budget(node, self._aliases)
                return node

            def compose_node(self, parent: Any, index: Any) -> Any:
                """Record each alias; refuse one inside the node its anchor names."""
                event = self.parser.peek_event()
                if isinstance(event, AliasEvent):
                    if event.anchor in self._open:
                        raise AliasError(None, None, f"别名 '*{event.anchor}' 在它自己的锚点 "
                                         f"'&{event.anchor}' 之内（递归结构）", event.start_mark)
                    node = super().compose_node(parent, index)
                    self._aliases.append((event.start_mark, str(event.anchor), node))
                    return node
                anchor = getattr(event, "anchor", None)
                if anchor is None:
                    return super().compose_node(parent, index)
                self._open.add(anchor)
                try:
                    return super().compose_node(parent, index)
                finally:
                    self._open.discard(anchor)

        self.YAML, self.MarkedYAMLError, self.ReaderError = YAML, MarkedYAMLError, ReaderError
        self.MaxDepthExceededError, self.ConstructorError = MaxDepthExceededError, ConstructorError
        self.DuplicateKeyError, self.MappingNode, self.SequenceNode = DuplicateKeyError, MappingNode, SequenceNode
        self.UnknownTagError, self.AliasError = UnknownTagError, AliasError
        self.Constructor, self.Composer = _StrictConstructor, _BoundedComposer


_RT: _RoundTrip | None = None


def _rt() -> _RoundTrip:
    """ruamel.yaml's parts (imported the first time the locating parser is needed)."""
    global _RT
    if _RT is None:
        _RT = _RoundTrip()
    return _RT


def __getattr__(name: str) -> Any:
    """``AliasError`` and ``UnknownTagError``, ruamel.yaml's error classes as this module refines them (made when
    first asked for: they import ruamel.yaml)."""
    if name in ("AliasError", "UnknownTagError"):
        return getattr(_rt(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

def _check_alias_budget(root: YAMLNode, aliases: list[tuple[StreamMark, str, YAMLNode]]) -> None:
    """Raise :class:`AliasError` at the costliest alias if aliases add more than :data:`ALIAS_BUDGET` values."""
    rt = _rt()
    size: dict[int, int] = {}

    def expanded(node: YAMLNode) -> int:
        """Values in ``node`` once every alias inside it is written out (nesting is at most MAX_DEPTH)."""
        known = size.get(id(node))
        if known is not None:
            return known
        total = 1
        if isinstance(node, rt.MappingNode):
            total += sum(expanded(k) + expanded(v) for k, v in node.value)
        elif isinstance(node, rt.SequenceNode):
            total += sum(expanded(v) for v in node.value)
        size[id(node)] = total
        return total

    added = expanded(root) - len(size)
    if added > ALIAS_BUDGET:
        mark, anchor, _ = max(aliases, key=lambda a: expanded(a[2]))
        raise rt.AliasError(None, None, f"别名使这份文档多出 {added:,} 个值，超过允许的 "
                         f"{ALIAS_BUDGET:,} 个（最多的是 '*{anchor}'）；请把这些值直接写出来", mark)


def _short_tag(tag: Any) -> str:
    """``tag:yaml.org,2002:python/object:os.system`` → ``!!python/object:os.system``."""
    text = str(getattr(tag, "value", tag))
    return "!!" + text[len("tag:yaml.org,2002:") :] if text.startswith("tag:yaml.org,2002:") else text


def _yaml(keep_quotes: bool = False) -> YAML:
    """A fresh round-trip YAML instance with the project's dump style (``keep_quotes``: a loaded string
    remembers its quotes, so a dump writes it as it was written)."""
    rt = _rt()
    y = rt.YAML(typ="rt")
    y.preserve_quotes = keep_quotes
    y.Constructor = rt.Constructor
    y.Composer = rt.Composer
    y.max_depth = MAX_DEPTH
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


def _ruamel_error(name: str) -> Any:
    """ruamel.yaml's error class ``name``, for an ``except`` clause (evaluated only once something was raised: a
    document from the cache imports no ruamel.yaml); a class no error is, when ruamel.yaml was never imported
    (nothing it raises can then be on its way)."""
    rt = _RT
    return getattr(rt, name) if rt is not None else _NeverRaised


class _NeverRaised(BaseException):
    """An exception nothing raises."""


_TOO_DEEP = f"映射和列表嵌套超过 {MAX_DEPTH} 层"
"""The message for a document nested past :data:`MAX_DEPTH`."""
_DUP = re.compile(r'found duplicate key "(.*)" with value')


def _first_key_line(text: str, err: MarkedYAMLError, key: str) -> int | None:
    """1-based line where the mapping that ``err`` complains about first defines ``key``."""
    rt = _rt()
    start = err.context_mark
    stack = [rt.YAML(typ="rt").compose(text)]
    while stack and start is not None:
        node = stack.pop()
        if isinstance(node, rt.MappingNode) and node.start_mark.index == start.index:
            lines = [k.start_mark.line + 1 for k, _ in node.value if str(k.value) == key]
            return lines[0] if lines else None
        if isinstance(node, (rt.MappingNode, rt.SequenceNode)):
            stack.extend(v for pair in node.value for v in (pair if isinstance(pair, tuple) else (pair,)))
    return None


def _yaml_message(err: MarkedYAMLError, text: str) -> str:
    """The one-line message for a ruamel error."""
    rt = _rt()
    if isinstance(err, rt.UnknownTagError):
        return f"{err.problem}（这里的 YAML 只是纯数据，会构造对象的标签一律拒绝）"
    if isinstance(err, rt.MaxDepthExceededError):
        return _TOO_DEEP
    if isinstance(err, (rt.AliasError, rt.ConstructorError)) and not isinstance(err, rt.DuplicateKeyError):
        return str(err.problem)
    m = _DUP.search(str(err.problem)) if isinstance(err, rt.DuplicateKeyError) else None
    if m:
        line = _first_key_line(text, err, m.group(1))
        return f"重复的键 {m.group(1)!r}" + (f"（第 {line} 行已经定义过）" if line else "")
    problem = str(err.problem or err.context)
    if problem.startswith("but ") and err.context:  # "expected X" + "but found Y" read as one sentence
        problem = f"{err.context}, {problem}"
    return f"YAML 语法错误：{problem}"


def load_yaml_text(text: str, file: Path | str, error: type[InputError] = InputError, *,
                   keep_quotes: bool = False) -> Any:
    """Parse YAML ``text`` (reported as coming from ``file``) with the strict round-trip loader.

    Hostile input is one located error: text over :data:`MAX_BYTES`, nesting past :data:`MAX_DEPTH`,
    a recursive alias, aliases that add more than :data:`ALIAS_BUDGET` values, a huge integer.

    >>> bomb = "a: &a [x, x]\\n" + "".join(f"{c}: &{c} [*{p}, *{p}, *{p}]\\n" for p, c in zip("abcdefghij", "bcdefghijk"))
    >>> try:
    ...     load_yaml_text(bomb, "bomb.yaml")
    ... except InputError as err:
    ...     print(err.location, err.message.split("；")[0])
    bomb.yaml:11:8 别名使这份文档多出 309,987 个值，超过允许的 10,000 个（最多的是 '*j'）

    ``keep_quotes`` loads a file the tool will write back (:func:`dump_yaml`): its strings keep the quotes the
    host (or ``new``) wrote, so only what the tool changes moves (never cached: the caller edits it).
    """
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        raise error(Location(file), "", f"文件有 {size:,} 字节；这里的 YAML 文件至多 "
                                        f"{MAX_BYTES:,} 字节")
    try:
        if keep_quotes:
            return _yaml(keep_quotes=True).load(text)
        shipped, doc = prebuilt.document(text, _unpacked)  # a table the package ships, read when it was built
        return doc if shipped else cache.cached("yaml", [text], lambda: _yaml().load(text))
    except _ruamel_error("MarkedYAMLError") as err:
        raise error(Location(file, *_mark_pos(err)), "", _yaml_message(err, text)) from None
    except _ruamel_error("ReaderError") as err:  # a control character (NUL, ESC …): YAML refuses it anywhere, even in a comment
        raise error(Location(file, *_char_pos(text, err.position)), "", _reader_message(err)) from None
    except RecursionError:  # the depth limit stops nesting first; this is a last guard, never a traceback
        raise error(Location(file), "", _TOO_DEEP) from None


_CONTROL_NAMES = {0: "NUL", 0x1B: "ESC", 0x7F: "DEL", 0x08: "退格", 0x0C: "换页"}


def _char_pos(text: str, index: Any) -> tuple[int, int] | tuple[None, None]:
    """1-based ``(line, column)`` of character ``index`` of ``text``."""
    if not isinstance(index, int) or not 0 <= index <= len(text):
        return None, None
    line_start = text.rfind("\n", 0, index) + 1
    return text.count("\n", 0, index) + 1, index - line_start + 1


def _reader_message(err: ReaderError) -> str:
    """The one-line message for a character YAML does not allow.

    >>> try:
    ...     load_yaml_text("a: 1\\n# \\x1b[31m\\n", "c.yaml")
    ... except InputError as e:
    ...     print(e)
    c.yaml:2:3: YAML 不允许控制字符 U+001B（ESC），请删去
    """
    char = err.character
    code = ord(char) if isinstance(char, str) and len(char) == 1 else char if isinstance(char, int) else None
    if code is None:
        return f"YAML 不允许的字符：{err.reason}"
    name = f"U+{code:04X}" + (f"（{_CONTROL_NAMES[code]}）" if code in _CONTROL_NAMES else "")
    return f"YAML 不允许{'控制' if code < 0x100 else ''}字符 {name}，请删去"


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
    if isinstance(data, str):
        return str(data)
    if isinstance(data, int):
        return int(data)
    if isinstance(data, float):
        return float(data)
    if isinstance(data, bytes):
        return bytes(data)
    if isinstance(data, datetime.datetime):
        return datetime.datetime.fromisoformat(data.isoformat())
    return data


def dump_yaml(data: Any) -> str:
    """Round-trip dump: comments and key order kept, unicode as-is, 2-space maps, ``  - `` lists."""
    buf = io.BytesIO()
    _yaml().dump(data, buf)
    return buf.getvalue().decode("utf-8")




# ---------------------------------------------------------------------------------------------
# The fast path: libyaml's C parser for files that are almost always well-formed (state files)


_ALIAS = re.compile(r"(?:^|[\s\[{,:-])[&*][^\s\[\]{},]", re.M)
"""What may be an anchor or alias token, or a look-alike inside a string (Markdown's ``**bold**``): such a
text's nodes are looked at for an alias (:func:`_aliased`), which takes the locating parser, whose alias
budget the fast path does not have."""


class FastPathError(Exception):
    """The fast parser declined a text; the caller falls back to :func:`load_yaml_text`."""


def _int12(loader: Any, node: Any) -> int:
    if len(str(node.value)) > MAX_INT_DIGITS:  # the locating parser refuses it, and names where
        raise FastPathError("an integer literal too long")
    text = loader.construct_scalar(node)
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    if digits.startswith(("0o", "0x")):
        return sign * int(digits[2:], 8 if digits[1] == "o" else 16)
    return sign * int(digits, 10)


def _float12(loader: Any, node: Any) -> float:
    text = loader.construct_scalar(node).lower()
    if text.endswith(".inf"):
        return float("-inf") if text.startswith("-") else float("inf")
    return float("nan") if text == ".nan" else float(text)


def _decline(loader: Any, node: Any) -> Any:
    raise FastPathError(f"{node.value!r} is read differently by YAML versions")


_pyyaml: Any = None
"""PyYAML, once :func:`_fast_ready` imported it: a run that parses no text fast (its tables, banks and documents
from the cache) never imports it (10 ms of every command's start, issue 29)."""
_FastLoader: Any = None
"""libyaml's loader with YAML 1.2 scalars, once :func:`_fast_ready` built it."""


def _fast_ready() -> None:
    """Import PyYAML and build :data:`_FastLoader`, the first time a text is parsed fast."""
    global _pyyaml, _FastLoader
    if _FastLoader is not None:
        return
    import yaml

    class _Fast(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]  # libyaml's loader is untyped
        """libyaml's parser with YAML 1.2 core-schema scalars, as the round-trip loader reads them:
        ``yes``/``on``/``0755``/``1:30``/dates stay what YAML 1.2 says, and a duplicate key is refused."""

        yaml_implicit_resolvers: dict[Any, Any] = {}

        def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
            """A mapping; a duplicate key declines the fast path (the locating parser names it)."""
            keys = [self.construct_object(k, deep=deep) for k, _ in node.value]
            if len(set(keys)) != len(keys):
                raise FastPathError("duplicate key")
            mapping: dict[Any, Any] = super().construct_mapping(node, deep=deep)
            return mapping

    for tag, pattern, first in (  # YAML 1.2 scalars as ruamel.yaml resolves them
        # what ruamel.yaml reads beyond the core schema (dates, ``1_000``, ``0b1``, merge keys): declined
        ("tag:anko,2026:decline",
         r"[-+]?0b[0-1_]+|(?=.*_)[-+]?[0-9._][0-9a-zA-Z._+-]*"
         r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ].*)?|<<|=", list("-+._0123456789<=")),
        ("tag:yaml.org,2002:null", r"~|null|Null|NULL|", ["~", "n", "N", ""]),
        ("tag:yaml.org,2002:bool", r"true|True|TRUE|false|False|FALSE", list("tTfF")),
        ("tag:yaml.org,2002:int", r"[-+]?(?:[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)", list("-+0123456789")),
        ("tag:yaml.org,2002:float",
         r"[-+]?[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+|[-+]?\.[0-9]+(?:[eE][-+][0-9]+)?"
         r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)",
         list("-+.0123456789")),
    ):
        _Fast.add_implicit_resolver(tag, re.compile(rf"^(?:{pattern})$"), first)
    _Fast.add_constructor("tag:anko,2026:decline", _decline)
    _Fast.add_constructor("tag:yaml.org,2002:int", _int12)
    _Fast.add_constructor("tag:yaml.org,2002:float", _float12)
    for tag in ("timestamp", "binary", "set", "omap", "pairs"):  # not YAML 1.2 core: the locating parser decides
        _Fast.add_constructor(f"tag:yaml.org,2002:{tag}", None)
    _pyyaml, _FastLoader = yaml, _Fast


def load_plain_fast(text: str) -> Any:
    """``text`` parsed by libyaml as plain data with YAML 1.2 scalars, or :class:`FastPathError` for anything
    unusual (aliases, duplicate keys, tags outside the core schema, a syntax error, an oversized text).

    Gives positions for nothing: a caller validates the result and, on any problem, parses again with
    :func:`load_yaml_text` to report it at its line and column.

    >>> load_plain_fast("a: [yes, on, 0755, 1.5e3, ~, True, 0x1F]\\n")
    {'a': ['yes', 'on', 755, 1500.0, None, True, 31]}
    >>> load_plain_fast("a: 1\\na: 2\\n")
    Traceback (most recent call last):
    anko_writer.yamlio.FastPathError: duplicate key
    """
    return load_plain_fast_lines(text)[0]


def load_plain_fast_lines(text: str, key: str | None = None) -> tuple[Any, list[int]]:
    """:func:`load_plain_fast`, with the 1-based line of each item of the list under the top-level ``key``
    (a table's rows, whose lines its later errors name; empty when there is no such list).

    >>> load_plain_fast_lines("name: x\\nrows:\\n  - a: 1\\n\\n  - {a: 2}\\n", "rows")
    ({'name': 'x', 'rows': [{'a': 1}, {'a': 2}]}, [3, 5])
    """
    if len(text) * 3 > MAX_BYTES and len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise FastPathError("too large")
    if _deep_text(text):  # libyaml's composer recurses in C: a deep enough nesting crashes the process
        raise FastPathError("deep nesting")
    _fast_ready()
    loader = _FastLoader(text)
    try:
        node = loader.get_single_node()
        if node is not None and _ALIAS.search(text) and _aliased(node):
            raise FastPathError("anchors or aliases")
        data = loader.construct_document(node) if node is not None else None
    except FastPathError:
        raise
    except Exception as err:  # a syntax error, an unknown tag, a nesting too deep …
        raise FastPathError(str(err)) from None
    finally:
        loader.dispose()
    if _depth(data) > MAX_DEPTH:  # the locating parser names where (nothing walks a deeper document)
        raise FastPathError("deep nesting")
    lines: list[int] = []
    if key is not None and isinstance(node, _pyyaml.MappingNode):
        for k, v in node.value:
            if k.value == key and isinstance(v, _pyyaml.SequenceNode):
                lines = [item.start_mark.line + 1 for item in v.value]
    return data, lines


class _Lines:
    """Where a loaded mapping's or list's parts sit (0-based lines and columns), told as ruamel.yaml's ``lc`` tells
    them: :func:`position` reads either."""

    __slots__ = ("line", "col", "data")

    def __init__(self, line: int, col: int, data: dict[Any, tuple[int, ...]]) -> None:
        self.line, self.col, self.data = line, col, data

    def key(self, key: Any) -> tuple[int, int]:
        """A mapping's ``key``: where the key is written."""
        at = self.data[key]
        return at[0], at[1]

    def value(self, key: Any) -> tuple[int, int]:
        """A mapping's ``key``: where its value is written."""
        at = self.data[key]
        return at[2], at[3]

    def item(self, index: Any) -> tuple[int, int]:
        """A list's item ``index``: where it is written."""
        at = self.data[index]
        return at[0], at[1]


class LocatedMap(dict[Any, Any]):
    """A plain mapping that knows where its keys and values sit in its text (``lc``, as ruamel.yaml's)."""

    __slots__ = ("lc",)
    lc: _Lines


class LocatedList(list[Any]):
    """A plain list that knows where its items sit in its text (``lc``, as ruamel.yaml's)."""

    __slots__ = ("lc",)
    lc: _Lines


@functools.cache
def _unsure() -> re.Pattern[str]:
    """What :func:`load_located` leaves to the locating parser: a tab, a carriage return, a byte-order mark, a line or
    paragraph separator, a control character (which YAML 1.1's libyaml and YAML 1.2's ruamel.yaml may read apart),
    and a directive (``%YAML 1.1`` changes what ruamel.yaml's scalars mean). Compiled on first use (about 2 ms):
    a command whose documents all come from the cache reads none."""
    return re.compile("[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
                      "|^%", re.M)


def load_located(text: str, file: Path | str, error: type[InputError] = InputError) -> Any:
    """The YAML document in ``text`` with positions, as :func:`load_yaml_text` gives it, but read by libyaml when it
    can be: plain data whose every mapping and list knows where its parts sit (:class:`LocatedMap`,
    :class:`LocatedList`; :func:`position` tells the very line and column ruamel.yaml's would), kept in the cache
    as plain data (JSON), so a later run imports neither YAML library. Anything the fast path declines, and any
    syntax error, is :func:`load_yaml_text`'s; a check that refuses the fast reading names the place the locating
    parser's reading would (``tests/core/test_fast_located.py`` proves the data, types and positions the same).

    >>> doc = load_located("a: 1\\nlist:\\n  - x\\n  - y\\n", "f.yaml")
    >>> type(doc).__name__, position(doc, "list", part="key"), position(doc["list"], 1), position(doc["list"], 9)
    ('LocatedMap', (2, 1), (4, 5), (3, 3))
    """
    packed = cache.cached("yaml-located", [text], lambda: _packed_fast(text))
    if packed is False:
        return load_yaml_text(text, file, error)
    try:
        return _unpacked(packed)
    except (TypeError, ValueError, IndexError, KeyError):  # not what this module packs: read it again
        return load_yaml_text(text, file, error)


def is_located(doc: Any) -> bool:
    """True when ``doc`` is :func:`load_located`'s libyaml reading (not the locating parser's)."""
    return isinstance(doc, (LocatedMap, LocatedList))


def _packed_fast(text: str) -> Any:
    """``text``'s document read by libyaml, packed as plain data with its positions (:func:`_pack`), or False
    when the fast path declines it."""
    if _unsure().search(text):
        return False
    try:
        node, data = _fast_node_and_data(text)
        return _pack(node, data)
    except FastPathError:
        return False


def _fast_node_and_data(text: str) -> tuple[Any, Any]:
    """libyaml's composed node and constructed data of ``text`` (:func:`load_plain_fast_lines`'s checks)."""
    if len(text) * 3 > MAX_BYTES and len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise FastPathError("too large")
    if _deep_text(text):
        raise FastPathError("deep nesting")
    _fast_ready()
    loader = _FastLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise FastPathError("no document")
        if _ALIAS.search(text) and _aliased(node):
            raise FastPathError("anchors or aliases")
        data = loader.construct_document(node)
    except FastPathError:
        raise
    except Exception as err:  # a syntax error, an unknown tag …
        raise FastPathError(str(err)) from None
    finally:
        loader.dispose()
    if _depth(data) > MAX_DEPTH:
        raise FastPathError("deep nesting")
    return node, data


def _pack(node: Any, data: Any) -> Any:
    """``data`` (built from ``node``) as JSON's data with ruamel.yaml's positions: a mapping is ``["m", line,
    col, [[key, key line, key col, value line, value col, value], …]]``, a list ``["l", line, col, [[line, col,
    item], …]]``, a scalar itself. An empty plain scalar declines (ruamel.yaml places it at the next token, libyaml
    after the colon); so does a scalar that is not JSON's (a date is declined already)."""
    mark = node.start_mark
    if isinstance(node, _pyyaml.MappingNode):
        if not isinstance(data, dict) or len(data) != len(node.value):
            raise FastPathError("a mapping's keys")
        pairs = []
        for (k, v), (key, value) in zip(node.value, data.items(), strict=True):
            pairs.append([_scalar(k, key), k.start_mark.line, k.start_mark.column, v.start_mark.line,
                          v.start_mark.column, _pack(v, value)])
        return ["m", mark.line, mark.column, pairs]
    if isinstance(node, _pyyaml.SequenceNode):
        if not isinstance(data, list) or len(data) != len(node.value):
            raise FastPathError("a list's items")
        return ["l", mark.line, mark.column,
                [[v.start_mark.line, v.start_mark.column, _pack(v, item)] for v, item in zip(node.value, data, strict=True)]]
    return _scalar(node, data)


def _scalar(node: Any, value: Any) -> Any:
    """A scalar's value, if it packs as itself (else :class:`FastPathError`)."""
    if not isinstance(node, _pyyaml.ScalarNode):
        raise FastPathError("a key that is no scalar")
    if node.value == "" and not node.style:  # plain (libyaml's style is "" or None)
        raise FastPathError("an empty value")
    if value is not None and type(value) not in (str, int, float, bool):
        raise FastPathError("a scalar outside JSON")
    return value


def packed_located(text: str) -> Any:
    """``text``'s fast reading packed as JSON's data (:func:`load_located`'s cache entry), or None: declined."""
    packed = _packed_fast(text)
    return None if packed is False else packed


def unpacked_located(packed: Any) -> Any:
    """The document :func:`packed_located` packed (:class:`LocatedMap`, :class:`LocatedList` and scalars)."""
    return _unpacked(packed)


def same_reading(fast: Any, slow: Any) -> bool:
    """True when ``fast`` (a located reading) holds what ``slow`` (the locating parser's) holds: the same keys,
    items and plain scalars (type and value), every mapping, key, value and item at the same line and column."""
    if isinstance(fast, (LocatedMap, LocatedList)):
        lc = getattr(slow, "lc", None)
        if lc is None or (fast.lc.line, fast.lc.col) != (lc.line, lc.col):
            return False
        if isinstance(fast, LocatedMap):
            return (isinstance(slow, Mapping) and list(fast) == [to_plain(k) for k in slow]
                    and all(fast.lc.data[k] == tuple(lc.data.get(k, ())) and same_reading(fast[k], slow[k])
                            for k in fast))
        return (isinstance(slow, list) and len(slow) == len(fast)
                and all(fast.lc.data[i] == tuple(lc.data.get(i, ())) and same_reading(item, slow[i])
                        for i, item in enumerate(fast)))
    plain = to_plain(slow)
    return type(plain) is type(fast) and (plain == fast or plain != plain and fast != fast)


def _unpacked(packed: Any) -> Any:
    """The document :func:`_pack` packed: :class:`LocatedMap`, :class:`LocatedList` and scalars."""
    if type(packed) is not list:
        return packed
    kind, line, col, parts = packed
    if kind == "m":
        mapping = LocatedMap()
        at: dict[Any, tuple[int, ...]] = {}
        for key, kl, kc, vl, vc, value in parts:
            mapping[key] = _unpacked(value)
            at[key] = (kl, kc, vl, vc)
        mapping.lc = _Lines(line, col, at)
        return mapping
    if kind == "l":
        items = LocatedList(_unpacked(item) for _, _, item in parts)
        items.lc = _Lines(line, col, {i: (il, ic) for i, (il, ic, _) in enumerate(parts)})
        return items
    raise ValueError(kind)


def _aliased(node: Any) -> bool:
    """True when a composed document uses an alias: libyaml's composer gives an alias the very node its
    anchor names, so some node is reached twice (an anchor no alias uses reads as plain data).

    >>> _aliased(_FastLoader("a: &x [1]\\nb: *x\\n").get_single_node())
    True
    >>> _aliased(_FastLoader("a: &x [1]\\nb: 又是 **粗体**\\n").get_single_node())
    False
    """
    seen: set[int] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            return True
        seen.add(id(item))
        if isinstance(item, _pyyaml.MappingNode):
            for key, value in item.value:
                stack += (key, value)
        elif isinstance(item, _pyyaml.SequenceNode):
            stack += item.value
    return False


_DASHES = re.compile(rf"(?:[-?][ \t]+){{{MAX_DEPTH},}}")
"""A run of nested block entries on one line (``- - - - x``)."""


def _deep_text(text: str) -> bool:
    """True when ``text`` may nest more than :data:`MAX_DEPTH` deep on one line, by flow brackets (counted
    even inside strings: a false alarm only costs the slower parser) or by ``- - -`` runs. Nesting by
    indentation is bounded by the text's size, far below what crashes libyaml."""
    if text.count("[") + text.count("{") > MAX_DEPTH:
        depth = 0
        for m in _BRACKETS.finditer(text):
            depth += 1 if m.group() in "[{" else -1
            if depth > MAX_DEPTH:
                return True
    return _DASHES.search(text) is not None


_BRACKETS = re.compile(r"[\[\]{}]")


def _depth(data: Any) -> int:
    """How deep lists and mappings nest in ``data`` (walked without recursion)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, level + 1) for child in children if isinstance(child, (dict, list)))
    return deepest


__all__ = [
    "Pos", "MAX_BYTES", "MAX_DEPTH", "ALIAS_BUDGET", "MAX_INT_DIGITS",
    "load_yaml", "load_yaml_text", "position", "to_plain", "dump_yaml", "FastPathError", "load_plain_fast",
    "load_plain_fast_lines", "LocatedMap", "LocatedList", "load_located", "is_located", "packed_located",
    "unpacked_located", "same_reading",
]
