"""The state and new-campaign files of every ruleset: one writer, one reader (issue 23).

``anko-writer new`` writes a commented campaign file and each finished arc writes ``sNN/state-end.yaml``;
the host edits both by hand and the tool reads them back. Every ruleset writes them with this module: block
keys with flow values on one line (:func:`field`, :func:`items`), comments where the host needs them, and
one scalar writer (:func:`scalar`) that quotes a string whenever YAML would read it as anything else (a
number, a boolean, null) or could not read it at all (``A, B`` in a flow mapping, ``- x``, ``&x``, ``#``,
a character YAML does not allow). Two quoting styles share that writer: ``"plain"`` writes a string bare
when it is safe (purasbar's files), ``"json"`` always double-quotes values, so every flow value is JSON as
well (Blood Bowl's and BALL's files).

The texts are written by code rather than overridable templates: a state file is read back as the next
arc's input (a season played in memory goes through the same text), so its layout is a contract the
loader relies on, and a host's template could drop a key the next arc needs. A file the tool rewrites
(``tally --write`` into the campaign) goes through ruamel's round trip (:mod:`anko_writer.yamlio`), which
keeps the host's comments and key order.

>>> field("name", "A, B"), field("name", "卡尔·穆勒"), field("name", "卡尔·穆勒", style="json")
('name: "A, B"', 'name: 卡尔·穆勒', 'name: "卡尔·穆勒"')
>>> flow({"id": "s1/x#3", "k": 0.5, "f": "4 3 3", "n": None, "t": [True, "12"]})
'{id: "s1/x#3", k: 0.5, f: 4 3 3, n: null, t: [true, "12"]}'
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from .schema import Node, validate_text

Style = Literal["plain", "json"]
"""How values are quoted: ``plain`` — a string bare when YAML reads it back as that string; ``json`` —
every string double-quoted (JSON's escapes, which YAML reads too)."""

KEEP = ("title", "ruleset", "seed", "output", "options", "decisions")
"""The campaign keys an arc started from a state file still takes from the campaign file."""

KEPT_NOTE = "# 种子、选项与读者投票仍在战役文件里。"
"""The state header's last line: what stays in the campaign file (:data:`KEEP`)."""

_PLAIN = (r"[\w\u00b7\u2013\u2014\u3000-\u9fff\uff00-\uffef]"
          r"[\w \u00b7\u2013\u2014\u3000-\u9fff\uff00-\uffef.-]*")
"""The pattern of what may stand bare in a flow collection: letters, digits, CJK and full-width forms, the middle
dot and dashes; spaces, dots and hyphens inside (no ``,[]{}:#&*!|>'"%@```, none of YAML's indicators)."""
_WORDS = {"true", "false", "null", "yes", "no", "on", "off", "~"}
"""Words YAML 1.1 or 1.2 reads as a boolean or null (quoted for readers of either version)."""
_NUMBER = re.compile(r"[-+.\d][\d._eE+-]*|[-+]?0[xXoObB][\da-fA-F_]*")
"""What a YAML version may read as a number (decimal, exponent, ``1_000``, ``0x1F``, ``0o17``, ``0b101``)."""


@lru_cache(maxsize=1)
def _plain() -> re.Pattern[str]:
    """:data:`_PLAIN` compiled when a state is first written (2.4 ms of CPU a ``month`` run need not pay)."""
    return re.compile(_PLAIN)


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def _escaped(ch: str) -> str:
    """One character inside a double-quoted scalar: JSON's escapes, and ``\\uXXXX`` for every character YAML
    does not allow in a file or reads as a line break (DEL, C1 controls, NEL, U+2028/9, BOM, non-characters)."""
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    code = ord(ch)
    if code < 0x20 or 0x7F <= code <= 0x9F or code in (0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF) \
            or 0xD800 <= code <= 0xDFFF:
        return f"\\u{code:04x}"
    return ch


def quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar (the same text as JSON for every printable string).

    >>> quoted('说 "好"'), quoted("a\\x7fb")
    ('"说 \\\\"好\\\\""', '"a\\\\u007fb"')
    """
    return '"' + "".join(_escaped(ch) for ch in text) + '"'


def is_plain(text: str) -> bool:
    """True when ``text`` may stand bare as a flow scalar and reads back as this very string.

    >>> [is_plain(t) for t in ("卡尔·穆勒", "4 3 3", "A, B", "- x", "yes", "0x1F", "12", "a ")]
    [True, True, False, False, False, False, False, False]
    """
    return (_plain().fullmatch(text) is not None and not text.endswith(" ") and text.lower() not in _WORDS
            and _NUMBER.fullmatch(text) is None)


def scalar(value: Any, style: Style = "plain") -> str:
    """One scalar as YAML: null, true/false, a number (a :class:`~decimal.Decimal` keeps its digits:
    ``Decimal("0.500")``), or a string quoted by ``style``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        return repr(value) if math.isfinite(value) else (".inf" if value > 0 else "-.inf")
    decimal = sys.modules.get("decimal")  # a Decimal exists only once decimal is imported (1 ms of every start)
    if decimal is not None and isinstance(value, decimal.Decimal):
        return str(value)
    text = str(value)
    return text if style == "plain" and is_plain(text) else quoted(text)


def key(name: Any, style: Style = "plain") -> str:
    """A mapping key (block keys are always written in the plain style; JSON's keys are strings)."""
    return scalar(str(name) if style == "json" else name, style)


def flow(value: Any, style: Style = "plain") -> str:
    """A value in one-line YAML flow style (with ``style`` ``json``: JSON text too).

    >>> flow({"name": "卡尔·铁拳", "spp": 3, "skills": []}, "json")
    '{"name": "卡尔·铁拳", "spp": 3, "skills": []}'
    """
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{key(k, style)}: {flow(v, style)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v, style) for v in value) + "]"
    return scalar(value, style)


def _noted(line: str, note: str, gap: int) -> str:
    """``line`` with ``# note`` after ``gap`` spaces (``note`` empty: the line alone)."""
    return f"{line}{' ' * gap}# {note}" if note else line


def field(name: str, value: Any, indent: int = 0, *, note: str = "", gap: int = 2, style: Style = "plain") -> str:
    """``name: value`` at ``indent`` levels (two spaces each), the value in flow style, a comment after ``gap``
    spaces when ``note`` is given.

    >>> field("formation", "4 4 2", 1, note="阵型", gap=4)
    '  formation: 4 4 2    # 阵型'
    """
    return _noted(f"{'  ' * indent}{key(name)}: {flow(value, style)}", note, gap)


def item(value: Any, indent: int = 0, style: Style = "plain") -> str:
    """One ``- value`` list entry at ``indent`` levels, the value in flow style."""
    return f"{'  ' * indent}- {flow(value, style)}"


def items(name: str, values: Sequence[Any], indent: int = 0, style: Style = "plain") -> list[str]:
    """A block list: ``name: []`` when empty, else ``name:`` and one flow entry a line, one level deeper.

    >>> items("seals", []), items("seals", [{"id": "a"}])
    (['seals: []'], ['seals:', '  - {id: a}'])
    """
    head = f"{'  ' * indent}{key(name)}:"
    if not values:
        return [head + " []"]
    return [head, *[item(v, indent + 1, style) for v in values]]


def block(data: Mapping[str, Any], indent: int = 0, style: Style = "plain") -> list[str]:
    """``data`` as block keys, one :func:`field` a line; a non-empty mapping value opens a block one level deeper.

    >>> block({"name": "A, B", "purse": 10, "options": {"reveal_delay": 1}}, style="json")
    ['name: "A, B"', 'purse: 10', 'options:', '  reveal_delay: 1']
    """
    lines: list[str] = []
    for name, value in data.items():
        if isinstance(value, Mapping) and value:
            lines += [f"{'  ' * indent}{key(name)}:", *block(value, indent + 1, style)]
        else:
            lines.append(field(name, value, indent, style=style))
    return lines


def state_header(arc: int, *, unit: str, written: str, edits: str, command: str) -> list[str]:
    """The four comment lines every ``state-end.yaml`` starts with: which arc ended (``unit``: 赛季), how it
    was written, what the host may edit, the command that starts the next arc, and what stays in the campaign.

    >>> state_header(2, unit="赛季", written="私密", edits="可以改名", command="anko-writer arc c.yaml --arc 3")[:2]
    ['# 第 2 赛季结束时的存档（anko-writer 写出，私密）。', '# 下一赛季从这里开始：可以改名，改完运行']
    """
    return [f"# 第 {arc} {unit}结束时的存档（anko-writer 写出，{written}）。",
            f"# 下一{unit}从这里开始：{edits}，改完运行",
            f"# `{command}`；格式错误会像战役文件一样报出行号和键名。",
            KEPT_NOTE]


def document(lines: Sequence[str]) -> str:
    """The file's text: ``lines`` joined, with a final newline."""
    return "\n".join(lines) + "\n"


def seeded(text: str, seed: int, title: str | None = None) -> str:
    r"""A shipped campaign's text (its top-level ``seed:`` line, and ``title:`` when given, replaced): what ``new``
    writes for a ruleset that ships a scenario.

    >>> seeded("title: 甲\nseed: 0\nscenes: []\n", 42, "乙")
    'title: 乙\nseed: 42\nscenes: []\n'
    """
    lines = [f"seed: {seed}" if ln.startswith("seed:") else ln for ln in text.splitlines()]
    if title:
        lines = [f"title: {title}" if ln.startswith("title:") else ln for ln in lines]
    return document(lines)


def start_data(campaign: Mapping[str, Any], state: Mapping[str, Any], keep: Sequence[str] = KEEP) -> dict[str, Any]:
    """The next arc's input: the campaign's ``keep`` keys (title, seed, options, votes …) with the state's."""
    return {**{k: campaign[k] for k in keep if k in campaign}, **state}


def read_state(text: str, schema: Node, path: Path | str) -> dict[str, Any]:
    """A state file's text parsed and validated by ``schema`` (errors name the file, line and key)."""
    data: dict[str, Any] = validate_text(text, schema, path)
    return data


__all__ = ["KEEP", "KEPT_NOTE", "Style", "block", "document", "seeded", "field", "flow", "is_plain", "item", "items", "key",
           "quoted", "read_state", "scalar", "start_data", "state_header"]
