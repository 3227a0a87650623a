"""The template layer: a sandboxed Jinja environment, typography filters and stable phrase picking.

Templates run in Jinja's sandbox with ``StrictUndefined`` and never compute rules: they format the
structured results and pick among phrasings by a stable hash (DESIGN §7), never by dice.

>>> money(1250000)
'1,250,000 P$'
>>> dice({"expr": "1D30", "total": 19, "hidden": False})
'「1D30＝19」'
>>> dice({"expr": "D100", "total": 57, "hidden": True})
'「D100＝？？？」'
>>> signed(2), signed(-2)
('+ 2', '− 2')
>>> cn_num(3), cn_num(23), cn_num(10), cn_num(105)
('三', '二十三', '十', '一百零五')
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import operator
import os
import re
import string
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from types import BuiltinMethodType, CodeType, MethodType, TracebackType
from typing import Any, NamedTuple

import jinja2
from jinja2 import FileSystemLoader, StrictUndefined, nodes, pass_context, pass_environment
from jinja2.bccache import Bucket, BytecodeCache
from jinja2.compiler import CodeGenerator, Frame, optimizeconst
from jinja2.environment import TemplateModule
from jinja2.filters import make_attrgetter, select_or_reject, sync_do_map
from jinja2.nodes import EvalContext
from jinja2.runtime import Context, LoopContext, Macro, missing
from jinja2.sandbox import SandboxedEnvironment
from jinja2.tests import test_defined
from jinja2.utils import Namespace
from jinja2.visitor import NodeTransformer
from markupsafe import Markup

from . import cache, prebuilt, yamlio
from .ballot import Ballot
from .dice import PRINTER, Roll
from .errors import AnkoError, InputError, Location, TableError, TemplateError
from .info import Currency, RulesetInfo
from .resources import Resources
from .textfile import read_text

MINUS = "\u2212"
"""The minus sign used in formula lines (``41 − 37``)."""

PHRASES_FILE = "phrases.yaml"
"""The phrase bank's file name inside ``templates/<ruleset>/``."""

# ---------------------------------------------------------------------------------------------
# Filters


_REQUIRED = object()


def _field(roll: Any, name: str, default: Any = _REQUIRED) -> Any:
    """A roll's field, whether the roll is a mapping or an object (``dice.Roll``)."""
    if isinstance(roll, Mapping):
        return roll[name] if default is _REQUIRED else roll.get(name, default)
    return getattr(roll, name) if default is _REQUIRED else getattr(roll, name, default)


def dice(roll: Any, total: Any = None) -> str:
    """A roll as a dice line: ``「1D30＝19」``, or ``「D100＝？？？」`` when the roll is hidden.

    Accepts a roll record (``{expr, total, hidden, ...}``), an ``(expr, total)`` pair, or an
    expression with the total as argument (``"1D30" | dice(19)``).
    """
    if type(roll) is dict and total is None:  # a roll record: the mapping branch below, without its ABC checks
        expr, value = roll["expr"], roll["total"]
        hidden = bool(roll.get("hidden", False))
        if not hidden and roll.get("reading", None) not in (None, "sum"):
            return PRINTER.dice(as_roll(roll))
    elif total is not None:
        expr, value, hidden = roll, total, False
    elif isinstance(roll, Sequence) and not isinstance(roll, str) and len(roll) == 2:
        expr, value = roll
        hidden = False
    else:
        expr, value = _field(roll, "expr"), _field(roll, "total")
        hidden = bool(_field(roll, "hidden", False))
        if not hidden and _field(roll, "reading", None) not in (None, "sum"):  # 「3D6＝2,3,5→4」
            return PRINTER.dice(as_roll(roll))
    return f"「{expr}＝{'？？？' if hidden else value}」"


DEFAULT_CURRENCY = Currency("P$")
"""The money format of a template rendered without a ruleset's description (the first ruleset's)."""


def money(amount: int) -> str:
    """An amount of money with thousands separators: ``1,250,000 P$`` (a ruleset's own currency
    replaces this filter through :attr:`RulesetInfo.currency`)."""
    return DEFAULT_CURRENCY.format(amount)


def signed(value: int) -> str:
    """A term of a formula line with its sign: ``+ 2``, ``− 2`` (U+2212), ``+ 0``."""
    return f"{MINUS} {abs(value)}" if value < 0 else f"+ {value}"


_CN_DIGITS = "零一二三四五六七八九"
_CN_UNITS = ((1000, "千"), (100, "百"), (10, "十"))


def _cn_below_10000(n: int) -> str:
    """Chinese numeral for 1 ≤ n < 10000, with 零 for skipped places."""
    out: list[str] = []
    gap = False
    for size, unit in _CN_UNITS:
        d, n = divmod(n, size)
        if d:
            if gap and out:
                out.append("零")
            out.append(_CN_DIGITS[d] + unit)
            gap = False
        else:
            gap = True
    if n:
        if gap and out:
            out.append("零")
        out.append(_CN_DIGITS[n])
    text = "".join(out)
    return text[1:] if text.startswith("一十") else text


def cn_num(n: int) -> str:
    """Small integers as Chinese numerals for headings: 0 → 零, 3 → 三, 23 → 二十三 (digits past 9999)."""
    n = int(n)
    if n < 0:
        return "负" + cn_num(-n)
    if n == 0:
        return "零"
    return _cn_below_10000(n) if n < 10000 else str(n)


def pct(value: float, digits: int = 0) -> str:
    """A fraction (0.57) as a percentage: ``57%``."""
    return f"{value * 100:.{digits}f}%"


def thousands(value: int) -> str:
    """An integer with thousands separators: ``12,500``."""
    return f"{int(value):,}"


def cn_list(items: Sequence[Any]) -> str:
    """Items joined with the Chinese enumeration comma: ``甲、乙、丙``."""
    return "、".join(str(i) for i in items)


def _hidden() -> Any:
    """The hidden-dice module, imported late so rendering works without it until a seal is used."""
    from . import hidden

    return hidden


def as_roll(roll: Any) -> Roll:
    """A roll record (``{id, purpose, expr, dice, total, hidden}``) as a :class:`~anko_writer.dice.Roll`."""
    if isinstance(roll, Roll):
        return roll
    return Roll(
        str(_field(roll, "id")),
        str(_field(roll, "purpose", "")),
        str(_field(roll, "expr")),
        tuple(_field(roll, "dice", ()) or ()),
        int(_field(roll, "total")),
        bool(_field(roll, "hidden", False)),
        reading=str(_field(roll, "reading", None) or "sum"),
    )


_SEED: ContextVar[int | None] = ContextVar("anko_writer_seed", default=None)
"""The campaign seed while a chapter renders: the ``seal``/``reveal`` filters read it from here, so no
template can print it (DESIGN §10: the seed never reaches a publishable file)."""


def _seed() -> int:
    """The seed of the chapter being rendered, or a TemplateError outside :func:`render_chapter`."""
    seed = _SEED.get()
    if seed is None:
        raise TemplateError("seal 和 reveal 过滤器需要战役的种子（渲染时给 seed=...）")
    return seed


def seal(roll: Any) -> str:
    """The sealed line of a hidden roll or a secret fact's record (its commitment salted from the campaign seed)."""
    h = _hidden()
    return str(h.seal_line(h.as_fact(roll) if h.is_fact(roll) else as_roll(roll), _seed()))


def reveal(roll: Any) -> str:
    """The reveal line of a hidden roll or a secret fact's record (value and salt, from the campaign seed)."""
    h = _hidden()
    return str(h.reveal_line(h.as_fact(roll) if h.is_fact(roll) else as_roll(roll), _seed()))


def reply_line(ballot: Any) -> str:
    """The reply line readers copy, from a ballot record (:meth:`anko_writer.ballot.Ballot.to_record`)."""
    return Ballot.from_record(ballot).reply_line()


FILTERS: dict[str, Callable[..., str]] = {
    "dice": dice,
    "reply_line": reply_line,
    "money": money,
    "signed": signed,
    "cn_num": cn_num,
    "pct": pct,
    "thousands": thousands,
    "cn_list": cn_list,
    "seal": seal,
    "reveal": reveal,
}
"""Every filter a template can use."""

# ---------------------------------------------------------------------------------------------
# Phrase picking


def _stable_index(n: int, event: str, salt: Sequence[Any]) -> int:
    """``sha256(event, salt…) % n``: the same event and salt always give the same index."""
    key = "\x1f".join((event, *map(str, salt)))
    return int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big") % n


@dataclass
class Phraser:
    """Picks among phrasings by a stable hash, without immediate repeats or reuse within a chapter.

    >>> p = Phraser({"goal": ["A", "B", "C"]})
    >>> picks = [p.pick("goal", minute) for minute in range(6)]
    >>> sorted(picks[:3]) == ["A", "B", "C"] and sorted(picks[3:]) == ["A", "B", "C"]
    True
    """

    bank: Mapping[str, Sequence[str]]
    """Event key → phrasings (small Jinja strings)."""
    env: SandboxedEnvironment | None = None
    """The environment phrasings are rendered in (the chapter's sandbox); None returns them raw."""
    _last: dict[str, int] = field(default_factory=dict, init=False, repr=False)
    _used: dict[str, set[int]] = field(default_factory=dict, init=False, repr=False)

    def _options(self, event: str) -> Sequence[str]:
        """The phrasings of ``event``, or a TemplateError naming it."""
        options = self.bank.get(event)
        if not options:
            raise TemplateError(f"{PHRASES_FILE} 里没有事件 {event!r} 的措辞")
        return options

    def index(self, event: str, *salt: Any) -> int:
        """The index of the phrasing chosen for ``event`` (and record it as used)."""
        n = len(self._options(event))
        used = self._used.setdefault(event, set())
        if len(used) >= n:
            used.clear()
        start = _stable_index(n, event, salt)
        last = self._last.get(event)
        choice = start  # the first of start, start + 1, … (mod n) neither used nor the last, else start
        for k in range(n):
            i = (start + k) % n
            if i not in used and i != last:
                choice = i
                break
        used.add(choice)
        self._last[event] = choice
        return choice

    def pick(self, event: str, *salt: Any) -> str:
        """The phrasing (raw template text) chosen for ``event`` with these salt parts."""
        return self._options(event)[self.index(event, *salt)]

    def phrase(self, event: str, /, *salt: Any, **variables: Any) -> str:
        """Pick a phrasing for ``event`` and render it with ``variables``."""
        return self._render(event, self.index(event, *salt), variables)

    def nth(self, event: str, n: int, /, **variables: Any) -> str:
        """The phrasing number ``n`` (modulo the bank's size) of ``event``, rendered with ``variables``: for
        a sentence said once a chapter, ``n`` running with the month walks a season through the bank, so no
        phrasing comes back before the bank is used up (a hash pick repeats sooner).

        >>> p = Phraser({"intro": ["A", "B", "C"]})
        >>> [p.nth("intro", month) for month in range(1, 5)]
        ['B', 'C', 'A', 'B']
        """
        i = n % len(self._options(event))
        self._used.setdefault(event, set()).add(i)
        self._last[event] = i
        return self._render(event, i, variables)

    def _render(self, event: str, i: int, variables: Mapping[str, Any]) -> str:
        """Phrasing ``i`` of ``event`` rendered with ``variables`` (plain text as it is)."""
        text = self._options(event)[i]
        if self.env is None:
            return text
        filled = _filled(text, variables)  # a phrasing with no slot (and no ``{`` or ``\r``) comes back as it is
        if filled is not None:
            return filled
        try:
            return _compiled(self.env, text).render(**variables)
        except jinja2.TemplateError as exc:
            raise TemplateError(f"{PHRASES_FILE}: {event}[{i}]: {exc}") from exc


_SLOT = re.compile(r"\{\{[ \t]*([^\W\d]\w*)[ \t]*\}\}")
"""A phrasing's ``{{ name }}``: a variable alone, no filter, no whitespace control."""
_JINJA_WORDS = frozenset({"true", "false", "none", "True", "False", "None", "and", "or", "not", "in", "is", "if",
                          "else", "for", "recursive", "import", "with", "without", "context", "as", "from"})
"""Names Jinja's parser reads as a constant or an operator, never as a variable."""
_SLOT_TYPES = frozenset({str, int, float, bool})
"""Values a slot is filled with as ``str(value)``, as the compiled template's ``{{ name }}`` writes them."""
_SLOTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]] | None] = {}


def _slots(text: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """A phrasing's text between its slots and the slots' names, when it is text and ``{{ name }}`` alone
    (None: anything else Jinja would read, kept for the compiler).

    >>> _slots("{{ 人 }}把他视作引路人。")
    (('', '把他视作引路人。'), ('人',))
    >>> _slots("第{{ n | cn_num }}名") is None, _slots("{{{ x }}") is None, _slots("{{ true }}") is None
    (True, True, True)
    """
    if text in _SLOTS:
        return _SLOTS[text]
    parts = _SLOT.split(text)
    texts, names = tuple(parts[0::2]), tuple(parts[1::2])
    plain = all("{" not in t and "\r" not in t for t in texts) and all(
        n.isidentifier() and n not in _JINJA_WORDS for n in names) and not any(t.startswith("}") for t in texts[1:])
    found = _SLOTS[text] = (texts, names) if plain else None
    return found


def _filled(text: str, variables: Mapping[str, Any]) -> str | None:
    """``text`` rendered without compiling it, when it is text and ``{{ name }}`` slots whose every value is a
    plain scalar in ``variables`` (the output the compiled phrasing gives; None: compile it)."""
    slots = _slots(text)
    if slots is None:
        return None
    texts, names = slots
    if not names:
        return texts[0]
    out = [texts[0]]
    for name, after in zip(names, texts[1:], strict=True):
        value = variables.get(name, _MISSING)
        if type(value) not in _SLOT_TYPES:
            return None
        out.append(str(value))
        out.append(after)
    return "".join(out)


_PHRASE_CACHE: weakref.WeakKeyDictionary[SandboxedEnvironment, dict[str, jinja2.Template]] = (
    weakref.WeakKeyDictionary()
)


PHRASE_NAME = "<phrase>"
"""The name a phrasing's compiled code is kept under in the bytecode cache (its source tells them apart)."""


def _compiled(env: SandboxedEnvironment, text: str) -> jinja2.Template:
    """``env.from_string(text)``, compiled once per environment, its code kept in the environment's
    bytecode cache between runs."""
    memo = _PHRASE_CACHE.setdefault(env, {})
    tpl = memo.get(text)
    if tpl is None:
        bcc = env.bytecode_cache
        bucket = bcc.get_bucket(env, PHRASE_NAME, None, text) if bcc is not None else None
        code = bucket.code if bucket is not None else None
        if code is None:
            code = env.compile(text)
            if bcc is not None and bucket is not None:
                bucket.code = code
                bcc.set_bucket(bucket)
        tpl = memo[text] = env.template_class.from_code(env, code, env.make_globals(None), None)
    return tpl


def _load_bank_yaml(path: Path, text: str) -> Any:
    """Load the bank's YAML; a syntax error on a line starting with ``{{`` gets a quoting hint."""
    try:
        return yamlio.load_yaml_text(text, path, TableError)
    except TableError as exc:
        lines = text.splitlines()
        line = lines[exc.location.line - 1] if exc.location.line and exc.location.line <= len(lines) else ""
        if line.lstrip(" -").startswith("{"):
            exc.message += " (quote a phrasing that starts with '{{')"
        raise


def load_phrases(path: Path, text: str | None = None) -> dict[str, list[str]]:
    """Read a phrase bank (``text``: the file's text, when already read): a mapping of event keys to a
    phrasing or a list of phrasings. libyaml reads it first (issue 29); on any problem the locating parser
    reads it again to name where."""
    text = read_text(path, TableError) if text is None else text
    try:
        return _bank(path, yamlio.load_plain_fast(text))
    except (yamlio.FastPathError, TableError):
        return _bank(path, _load_bank_yaml(path, text))


def _bank(path: Path, data: Any) -> dict[str, list[str]]:
    """The checked bank of a loaded phrase file."""
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise TableError(Location(path, 1), "", "应为事件键到措辞的映射")
    bank: dict[str, list[str]] = {}
    for key, value in data.items():
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not items or not all(isinstance(x, str) for x in items):
            where = Location(path, *(yamlio.position(data, key) or (None, None)))
            raise TableError(where, str(key), "应为一条措辞或非空的措辞列表")
        bank[str(key)] = [str(x) for x in items]
    return bank


_BANKS: dict[tuple[Path, int], dict[str, list[str]]] = {}


def _is_bank(value: Any) -> bool:
    """True when a cached value has a phrase bank's shape (event key → non-empty list of phrasings)."""
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, list) and v and all(isinstance(x, str) for x in v)
        for k, v in value.items())


def phrase_bank(resources: Resources) -> dict[str, list[str]]:
    """The ruleset's phrase bank (campaign override first), or an empty bank if it has none; read once per
    process and file version, parsed once per text (shipped as read: :mod:`~anko_writer.prebuilt`; else
    :mod:`~anko_writer.cache`)."""
    try:
        path = resources.find("templates", PHRASES_FILE)
    except AnkoError:
        return {}
    real, folder = os.path.realpath(path), os.path.realpath(path.parent)
    if os.path.commonpath([real, folder]) != folder:
        raise TemplateError(f"{path}：链接到模板文件夹之外的 {real}；"
                            f"措辞库只能是该文件夹里的文件")
    key = (path, path.stat().st_mtime_ns)
    if key not in _BANKS:
        text = read_text(path, TableError)
        shipped = prebuilt.bank(text)  # the package's own bank, read when it was built
        _BANKS[key] = shipped if shipped is not None else cache.cached(
            "phrases", [text], lambda: load_phrases(path, text), _is_bank)
    return _BANKS[key]


# ---------------------------------------------------------------------------------------------
# Bounds: what a hostile template may cost


MAX_STEPS = 1_000_000
"""Loop iterations, calls and attribute or item look-ups one chapter may make: about 40 times the
busiest built-in chapter (the 群英杯 month makes some 26,000)."""
MAX_SECONDS = 60.0
"""Wall time one chapter may take to render (a built-in chapter takes well under a second)."""
MAX_VALUE = 1_000_000
"""The longest string or collection one template expression may build (characters or items)."""
MAX_OUTPUT = 5_000_000
"""The most characters a chapter may render: about 100 times the longest built-in chapter (52,000)."""
_TICK_EVERY = 1024
"""Steps between two looks at the clock."""


class BudgetError(jinja2.TemplateRuntimeError):
    """A template went past one of the rendering bounds (steps, time, value size, output)."""


@dataclass(slots=True)
class _Budget:
    """The steps and time left to the chapter being rendered (slots: the sandbox's hooks count a step some
    150,000 times a season, issue 29)."""

    deadline: float = field(default_factory=lambda: time.monotonic() + MAX_SECONDS)
    mark: int = _TICK_EVERY
    """The count at which the next look (:meth:`check`) is due: every :data:`_TICK_EVERY` steps."""
    _run: Iterator[int] | None = field(default=None, repr=False)
    """The counts being handed out before the next look (None: at the look)."""
    _run_end: int = field(default=0, repr=False)
    _at: int = field(default=0, repr=False)
    step: Callable[[], int] = field(init=False, repr=False)
    """Count one step and return the steps counted so far, with the look due at :attr:`mark` (:meth:`check`) made
    inside it: a C call (``next`` over runs of counts, ``range`` by ``range``) that the hooks and the compiled
    look-ups (:class:`_CodeGenerator`) make inline, its value never 0 (issue 29 round 9: one call where a call, a
    comparison with :attr:`mark` and a branch were made per step, some 136,000 a season)."""

    counts: Iterator[int] = field(init=False, repr=False)
    """The counts :attr:`step` hands out, as an iterator: a loop's items are counted by ``itertools.compress`` over
    it (:func:`_anko_steps`), one count pulled after each item, in C."""

    def __post_init__(self) -> None:
        self.counts = itertools.chain.from_iterable(self._runs())
        self.step = functools.partial(next, self.counts)

    def _runs(self) -> Iterator[Iterator[int]]:
        """The counts up to each look, then the look (:meth:`_looked`), forever."""
        start = 1
        while True:
            end = self.mark
            self._run, self._run_end = iter(range(start, end)), end
            yield self._run
            yield self._looked(end)
            start = end + 1

    def _looked(self, at: int) -> Iterator[int]:
        """The count ``at``, handed out after the look due at it (which may raise :class:`BudgetError`)."""
        self._run, self._at = None, at
        self.check()
        yield at

    @property
    def steps(self) -> int:
        """The steps counted so far."""
        if self._run is None:
            return self._at
        return self._run_end - 1 - operator.length_hint(self._run)

    def tick(self) -> None:
        """Count one step; raise :class:`BudgetError` past :data:`MAX_STEPS` or :data:`MAX_SECONDS`."""
        self.step()

    def check(self) -> bool:
        """The look due at :attr:`mark` steps (every :data:`_TICK_EVERY`): raise :class:`BudgetError` past
        :data:`MAX_STEPS` or :data:`MAX_SECONDS`, else move the mark on and give True."""
        steps, self.mark = self.mark, self.mark + _TICK_EVERY
        if steps > MAX_STEPS:
            raise BudgetError(f"模板运行超过 {MAX_STEPS:,} 步（循环、调用、"
                              f"查找）：是不是死循环或失控的循环？")
        if time.monotonic() > self.deadline:
            raise BudgetError(f"模板渲染超过 {MAX_SECONDS:g} 秒")
        return True


def _sized(value: Any) -> Any:
    """``value``, unless it is a string or collection longer than :data:`MAX_VALUE`."""
    if type(value) is str and len(value) <= MAX_VALUE:  # the usual value (a ``~``, a filter's text), at once
        return value
    if isinstance(value, (str, list, tuple, dict, set, frozenset)) and len(value) > MAX_VALUE:
        raise BudgetError(f"表达式造出了 {len(value):,} 个字符或元素的值；"
                          f"模板最多只能造 {MAX_VALUE:,} 个")
    return value


def _small(number: Any, what: str) -> None:
    """Refuse an integer above :data:`MAX_VALUE` used as a size (a width, a repeat count)."""
    if isinstance(number, int) and not isinstance(number, bool) and abs(number) > MAX_VALUE:
        raise BudgetError(f"{what}为 {number:,}，超过上限 {MAX_VALUE:,}")


_PERCENT_SPEC = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")


@functools.lru_cache(maxsize=256)
def _format_widths(spec: str, percent: bool) -> tuple[tuple[str, ...], bool] | None:
    """The widths and precisions written in a ``%`` or ``str.format`` spec, and whether one is passed as an argument
    (None: a broken ``str.format`` spec); a template's few specs (``'%g'``) are read once (s40render)."""
    widths: list[str] = []
    star = False
    if percent:
        for m in _PERCENT_SPEC.finditer(spec):
            widths += [g for g in m.groups() if g and g != "*"]
            star = star or "*" in m.groups()
    else:
        try:
            for _, _, fmt, _ in string.Formatter().parse(spec):
                widths += re.findall(r"\d+", fmt or "")
                star = star or "{" in (fmt or "")
        except ValueError:
            return None
    return tuple(widths), star


def _check_format(spec: str, args: Sequence[Any], kwargs: Mapping[str, Any], percent: bool) -> None:
    """Refuse a ``%`` or ``str.format`` width or precision above :data:`MAX_VALUE` (also one passed as
    an argument) before the string is built."""
    found = _format_widths(str.__str__(spec) if type(spec) is not str else spec, percent)
    if found is None:
        return  # str.format reports the broken format string itself
    widths, star = found
    for w in widths:
        _small(int(w) if len(w) <= 12 else 10 ** 12, "格式宽度或精度")
    if star:
        for a in [*args, *kwargs.values()]:
            _small(a, "格式宽度或精度")


_SIZE_METHODS = {"center", "ljust", "rjust", "zfill", "expandtabs"}
"""String methods whose integer argument is the length of the string they build."""
_GROW_METHODS = {"extend", "update", "union", "__iadd__", "__ior__"}
"""Methods of lists, dicts and sets that add a whole collection to the receiver."""
_CHECKED_METHODS = frozenset(_SIZE_METHODS | _GROW_METHODS | {"replace", "join"})
"""The names of the methods :func:`_checked_call` checks (any other's arguments go as they are)."""
_SIZE_FILTERS = {"center": "宽度", "batch": "分批大小", "slice": "切分份数"}
"""Built-in filters whose integer arguments are sizes."""
_ARGUMENT_FILTERS = frozenset({"indent", "format", "replace", "join"})
"""Other filters whose arguments :func:`_bounded_filter` checks before they run (the rest: their result only)."""


def _listed(items: Any) -> Any:
    """``items`` as a list unless it already has a length (a generator over a list it extends would never end)."""
    return items if hasattr(items, "__len__") or not hasattr(items, "__iter__") else list(items)


def _check_replace(text: Any, old: Any, new: Any) -> None:
    """Refuse a replacement whose result would be longer than :data:`MAX_VALUE`."""
    if isinstance(text, str) and isinstance(old, str) and isinstance(new, str):
        times = text.count(old) if old else len(text) + 1
        _small(len(text) + times * max(0, len(new) - len(old)), "替换后文本的长度")


def _check_join(separator: Any, items: Any) -> None:
    """Refuse a join whose separators alone would be longer than :data:`MAX_VALUE`."""
    if isinstance(separator, str) and hasattr(items, "__len__"):
        _small(len(separator) * max(0, len(items) - 1), "拼接后文本的长度")


def _checked_call(obj: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> tuple[Any, ...]:
    """``args`` for ``obj(*args, **kwargs)`` after checking what a built-in method would build (generators
    passed to ``join``, ``extend``, ``update`` are listed first)."""
    receiver = getattr(obj, "__self__", None)
    if not isinstance(receiver, (str, list, dict, set)):
        return args
    name = getattr(obj, "__name__", None)
    if isinstance(receiver, str):
        if name in _SIZE_METHODS:
            for a in [*args, *kwargs.values()]:
                _small(a, f"{name}() 的参数")
        elif name == "replace" and len(args) >= 2:
            _check_replace(receiver, args[0], args[1])
        elif name == "join" and args:
            args = (_listed(args[0]), *args[1:])
            _check_join(receiver, args[0])
    elif isinstance(receiver, (list, dict, set)) and name in _GROW_METHODS:
        if len(args) == 1 and not kwargs and type(args[0]) in _LENGTHS:  # the usual ``d.update({k: v})``, at once
            if len(receiver) + len(args[0]) > MAX_VALUE:
                _small(len(receiver) + len(args[0]), "集合的长度")
            return args
        args = tuple(_listed(a) for a in args)
        _small(len(receiver) + sum(len(a) for a in args if hasattr(a, "__len__")) + len(kwargs),
               "集合的长度")
    return args


def _bounded_filter(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """The filter ``fn`` with its size arguments checked before it runs and its result after."""
    passes = getattr(fn, "jinja_pass_arg", None) is not None
    if name not in _SIZE_FILTERS and name not in _ARGUMENT_FILTERS:
        @functools.wraps(fn)
        def result_checked(*args: Any, **kwargs: Any) -> Any:
            return _sized(fn(*args, **kwargs))
        return result_checked

    @functools.wraps(fn)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        value, rest = (args[1], args[2:]) if passes else (args[0], args[1:])
        more = [*rest, *kwargs.values()]
        if name in _SIZE_FILTERS:
            for a in more:
                _small(a, _SIZE_FILTERS[name])
        elif name == "indent" and isinstance(value, str):
            pad = more[0] if more else 4
            pad = len(pad) if isinstance(pad, str) else pad
            _small((value.count("\n") + 1) * pad if isinstance(pad, int) else 0, "缩进后文本的长度")
        elif name == "format" and isinstance(value, str):
            _check_format(value, rest, kwargs, percent=True)
        elif name == "replace" and len(more) >= 2:
            _check_replace(value, more[0], more[1])
        elif name == "join":
            _check_join(more[0] if more else "", value)
        return _sized(fn(*args, **kwargs))
    return bounded


class _Steps(NodeTransformer):
    """Puts a step count on every ``for`` loop and a size check on ``~`` and ``{% set %}…{% endset %}``."""

    def visit_For(self, node: nodes.For) -> nodes.Node:
        """``for x in xs`` → ``for x in xs|_anko_steps``."""
        self.generic_visit(node)
        node.iter = nodes.Filter(node.iter, "_anko_steps", [], [], None, None, lineno=node.iter.lineno)
        return node

    def visit_Concat(self, node: nodes.Concat) -> nodes.Node:
        """``a ~ b`` → ``(a ~ b)|_anko_sized``."""
        self.generic_visit(node)
        return nodes.Filter(node, "_anko_sized", [], [], None, None, lineno=node.lineno)

    def visit_AssignBlock(self, node: nodes.AssignBlock) -> nodes.Node:
        """``{% set x %}…{% endset %}`` → ``{% set x | _anko_sized %}…``."""
        self.generic_visit(node)
        node.filter = nodes.Filter(node.filter, "_anko_sized", [], [], None, None, lineno=node.lineno)
        return node


@pass_environment
def _anko_steps(env: Any, iterable: Any) -> Iterator[Any]:
    """The items of ``iterable``, one step of the chapter's budget each."""
    budget = getattr(env, "budget", None)
    if budget is None:
        return iter(iterable)
    # each item pulled, then one count (never 0, so the item is kept): the step after the item, as a generator
    # stepping before it yields gives, without a Python frame per item (issue 29, s40render)
    return itertools.compress(iterable, budget.counts)


_DICT_ATTRIBUTES = frozenset(dir(dict))
"""Every name ``getattr`` finds on a plain dict (its methods and ``object``'s): any other ``d.name`` in a
template is the item ``d['name']``."""
_SCALARS = frozenset({int, float, bool, type(None)})
"""Types :func:`_sized` has nothing to check in."""
_NUMBERS = frozenset({int, float})
"""Exact number types: ``*``, ``%`` and ``+`` of two of them build nothing :meth:`BoundedEnvironment.call_binop`
checks."""
_LENGTHS = frozenset({str, list, tuple, dict})
"""Exact types whose size :func:`_sized` checks by their length alone."""
_KEYS = frozenset({str, int})
"""Exact key types a plain container's ``[]`` is tried with directly (no ``__index__`` or ``__hash__`` of a
template's making runs before the sandbox's own try)."""
_MISSING = object()
_CONCAT = "".join
"""What the compiled code joins ``a ~ b``'s parts with (:meth:`_CodeGenerator.visit_Concat`)."""
_PLAIN_TYPES = frozenset({dict, list, tuple, str, int, float, LoopContext, TemplateModule, Namespace, Macro})
"""Types whose attributes the sandbox judges by name alone (none is a function, method, class, code object,
frame or generator, and none can pass for one): its verdict on ``(type, name)`` is remembered."""
_SAFE_ATTRIBUTES: dict[tuple[type, str], bool] = {}
_STR_FORMATS = frozenset({"format", "format_map"})
"""The methods the sandbox wraps when a template reads them (:meth:`BoundedEnvironment.wrap_str_format`)."""
_LOOP_PROPERTIES = frozenset({"index0", "index", "revindex0", "revindex", "first", "last", "length", "depth",
                              "depth0", "previtem", "nextitem"})
"""A loop's values a template reads (``loop.last``): none starts with ``_``, none is a method."""
_METHOD_TYPES = (str, list, tuple, dict)
"""Exact types whose public methods the compiled code reads inline (``d.update``, ``s.startswith``)."""
_METHODS_OF = {kind: frozenset(name for name in dir(kind) if not name.startswith("_")) - _STR_FORMATS
               for kind in _METHOD_TYPES}
"""Each type's public method names, but the string methods the sandbox wraps: reading one is the hook's answer
(``is_safe_attribute`` passes every name without ``_``; the value is a built-in method)."""


def _call_macro(macro: Macro, eval_ctx: EvalContext, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``macro(*args, **kwargs)`` as ``Context.call`` makes it (a macro is safely callable and takes the eval
    context): with positional arguments alone and no ``caller``, ``*args`` or ``**kwargs`` of its own, what
    ``Macro.__call__`` does (the arguments not given are ``missing``), without its frames (issue 29)."""
    count = macro._argument_count
    if kwargs or macro.caller or macro.catch_kwargs or macro.catch_varargs or len(args) > count:
        return macro(eval_ctx, *args, **kwargs)
    value = macro._func(*args, *(missing,) * (count - len(args))) if len(args) < count else macro._func(*args)
    return Markup(value) if eval_ctx.autoescape else value


def _plain(func: Any) -> bool:
    """True when Jinja passes a test or a method nothing but its arguments and the sandbox calls it as it is
    (no ``jinja_pass_arg``, ``unsafe_callable`` or ``alters_data``)."""
    return not any(hasattr(func, name) for name in ("jinja_pass_arg", "unsafe_callable", "alters_data"))


_PLAIN_FUNCTIONS: dict[Callable[..., Any], bool] = {}


def _plain_function(func: Callable[..., Any]) -> bool:
    """:func:`_plain`, remembered per function (a method's markers are its function's)."""
    plain = _PLAIN_FUNCTIONS.get(func)
    if plain is None:
        if len(_PLAIN_FUNCTIONS) > 4096:
            _PLAIN_FUNCTIONS.clear()
        plain = _PLAIN_FUNCTIONS[func] = _plain(func)
    return plain


def _plain_item_name(attribute: Any) -> str | None:
    """``attribute`` when :func:`_item_getter` reads it as a plain dict's item (a one-part name), else None."""
    if not isinstance(attribute, str) or "." in attribute or attribute.isdigit():
        return None
    return attribute


def _item_getter(env: Any, attribute: Any) -> Callable[[Any], Any]:
    """Jinja's ``make_attrgetter(env, attribute)`` (the look-up of ``selectattr``, ``rejectattr`` and ``map``), with
    a plain dict's item under a one-part name read as :meth:`BoundedEnvironment.getitem` reads it, without its
    call (issue 29): the same value, the same step, the same errors (anything else goes through ``getitem``)."""
    if not isinstance(attribute, str) or "." in attribute or attribute.isdigit():
        return make_attrgetter(env, attribute)
    getitem = env.getitem

    def item_of(item: Any) -> Any:
        budget = env.budget
        if type(item) is dict and budget is not None:
            value = item.get(attribute, _MISSING)
            if value is not _MISSING:
                budget.step()  # _Budget.tick, inline
                kind = type(value)
                if kind in _SCALARS or (kind in _LENGTHS and len(value) <= MAX_VALUE):  # _sized, inline
                    return value
                return _sized(value)
        return getitem(item, attribute)
    return item_of


def _select_or_reject(context: Context, value: Any, args: tuple[Any, ...], kwargs: dict[str, Any], keep: bool,
                      lookup_attr: bool) -> Iterator[Any]:
    """Jinja's ``select_or_reject`` (``select``, ``reject``, ``selectattr``, ``rejectattr``), with a test that
    takes nothing but its arguments looked up once rather than for each item (issue 29): the same items, the
    same look-ups through the sandbox, the same errors at the same item."""
    if not value:
        return
    env: Any = context.environment  # a BoundedEnvironment (its budget) or another
    if lookup_attr:
        if not args:  # Jinja's own error, as Jinja raises it
            yield from select_or_reject(context, value, args, kwargs, bool, lookup_attr)
            return
        attr = args[0]
        transfunc = _item_getter(env, attr)
        off = 1
    else:
        off = 0
        transfunc = None
    plain = _plain_item_name(attr) if lookup_attr else None  # a one-part name read inline from a plain dict
    if len(args) <= off:  # no test: the item's truth
        for item in value:
            budget = env.budget
            if plain is not None and type(item) is dict and budget is not None and \
                    (found := item.get(plain, _MISSING)) is not _MISSING and \
                    ((kind := type(found)) in _SCALARS or kind in _LENGTHS and len(found) <= MAX_VALUE):
                budget.step()  # item_of's step and value, without its call (round 9)
            else:
                found = transfunc(item) if transfunc else item
            if bool(found) is keep:
                yield item
        return
    name, rest = args[off], args[1 + off:]
    test: Any = env.tests.get(name)
    if test is None or not _plain(test):
        for item in value:
            found = env.call_test(name, transfunc(item) if transfunc else item, rest, kwargs, context)
            if (found if keep else not found):
                yield item
        return
    if test is test_defined and transfunc is not None and not rest and not kwargs and type(attr) is str \
            and attr not in _DICT_ATTRIBUTES and "." not in attr and not attr.isdigit():
        yield from _selecting_defined(env, value, attr, transfunc, keep)
        return
    if len(rest) == 1 and not kwargs and transfunc is not None:  # ``selectattr(name, test, other)``: one argument
        other = rest[0]
        for item in value:
            budget = env.budget
            if plain is not None and type(item) is dict and budget is not None and \
                    (got := item.get(plain, _MISSING)) is not _MISSING and \
                    ((kind := type(got)) in _SCALARS or kind in _LENGTHS and len(got) <= MAX_VALUE):
                budget.step()  # item_of's step and value, without its call (round 9: 10,000 calls a season)
                found = test(got, other)
            else:
                found = test(transfunc(item), other)
            if (found if keep else not found):
                yield item
        return
    for item in value:
        found = test(transfunc(item) if transfunc else item, *rest, **kwargs)
        if (found if keep else not found):
            yield item


def _selecting_defined(env: Any, value: Any, attr: str, transfunc: Callable[[Any], Any], keep: bool) -> Iterator[Any]:
    """``selectattr(attr, 'defined')`` (``keep``) or ``rejectattr``: a plain dict without the item ``attr`` (no dict
    attribute is named so) is one step and not defined, without making the undefined value its look-up would
    return (issue 29: a month's few thousand rolls are walked so); anything else is looked up."""
    for item in value:
        budget = env.budget
        if type(item) is dict and budget is not None and attr not in item:
            budget.step()  # _Budget.tick, inline
            found = False
        else:
            found = test_defined(transfunc(item))
        if found is keep:
            yield item


def _selecting(keep: bool, lookup_attr: bool) -> Callable[..., Iterator[Any]]:
    """The ``select``/``reject``/``selectattr``/``rejectattr`` filter over :func:`_select_or_reject`."""
    @pass_context
    def select(context: Context, value: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
        return _select_or_reject(context, value, args, kwargs, keep, lookup_attr)
    return select


@pass_context
def _map(context: Context, value: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
    """Jinja's ``map``, with ``map(attribute=name)`` reading each item through :func:`_item_getter` (issue 29); a
    filter's name or a ``default`` goes through Jinja's own."""
    if set(kwargs) != {"attribute"} or args:
        yield from sync_do_map(context, value, *args, **kwargs)
        return
    if value:
        env: Any = context.environment
        item_of = _item_getter(env, kwargs["attribute"])
        plain = _plain_item_name(kwargs["attribute"])
        for item in value:
            budget = env.budget
            if plain is not None and type(item) is dict and budget is not None and \
                    (got := item.get(plain, _MISSING)) is not _MISSING and \
                    ((kind := type(got)) in _SCALARS or kind in _LENGTHS and len(got) <= MAX_VALUE):
                budget.step()  # item_of's step and value, without its call (round 9)
                yield got
            else:
                yield item_of(item)


_SELECTING = {"select": (True, False), "reject": (False, False), "selectattr": (True, True),
              "rejectattr": (False, True)}
"""Jinja's filters that :func:`_selecting` replaces: (whether a passing item is kept, whether an attribute is read)."""


class _CodeGenerator(CodeGenerator):
    """Jinja's code generator, with ``a ~ b``'s size check and ``obj.name`` on a plain dict inline (issue 29: 78,000 look-ups a season,
    a fifth of a chapter's time was their call): when ``obj`` is an exact dict of at most :data:`MAX_VALUE` items
    holding ``name`` (no dict attribute is named so) with a value :meth:`BoundedEnvironment.getattr` returns as it
    is (a scalar, or a string, list, tuple or dict of at most :data:`MAX_VALUE`), the compiled code takes the value
    and counts the step through :attr:`_Budget.step` (a C call) as the hook would; anything else calls the hook."""

    def visit_Template(self, node: nodes.Template, frame: Frame | None = None) -> None:
        """The module's code, after the names the inline look-ups read."""
        self.writeline(f"from {__name__} import _SCALARS as _anko_scalars, _LENGTHS as _anko_lengths, "
                       f"_sized as _anko_size_checked, LoopContext as _anko_loop, TemplateModule as _anko_module, "
                       f"Macro as _anko_macro, BuiltinMethodType as _anko_builtin, _CONCAT as _anko_concat")
        super().visit_Template(node, frame)

    @optimizeconst
    def visit_Getitem(self, node: nodes.Getitem, frame: Frame) -> None:
        """``environment.getitem(obj, key)``, with a constant key's item of a plain dict (or a constant index's item of
        a list or tuple that has it) read inline first: the value, the step and the checks of
        :meth:`BoundedEnvironment.getitem`'s first two branches."""
        key = node.arg
        if self.environment.is_async or not isinstance(key, nodes.Const) or type(key.value) not in _KEYS:
            super().visit_Getitem(node, frame)
            return
        const = repr(key.value)
        self.write("(_anko_v if (((_anko_t := type(_anko_o := ")
        self.visit(node.node, frame)
        self.write(f")) is dict and (_anko_v := _anko_o.get({const}, missing)) is not missing)")
        if type(key.value) is int:
            has = f"len(_anko_o) > {key.value}" if key.value >= 0 else f"len(_anko_o) >= {-key.value}"
            self.write(f" or ((_anko_t is list or _anko_t is tuple) and {has} and "
                       f"(_anko_v := _anko_o[{const}]) is not missing)")
        self.write(f") and ((_anko_k := type(_anko_v)) in _anko_scalars or _anko_k in _anko_lengths and "
                   f"len(_anko_v) <= {MAX_VALUE}) and ((_anko_b := environment.budget) is None or "
                   f"_anko_b.step()) else environment.getitem(_anko_o, {const}))")

    @optimizeconst
    def visit_Call(self, node: nodes.Call, frame: Frame, forward_caller: bool = False) -> None:
        """A call given positional arguments alone (outside a block) as
        :meth:`BoundedEnvironment.call_positional`: the loop's names as an argument, not a keyword."""
        if self.environment.is_async or forward_caller or node.kwargs or node.dyn_args or node.dyn_kwargs or \
                frame.block_frame:
            super().visit_Call(node, frame, forward_caller=forward_caller)
            return
        self.write("environment.call_positional(context, " + ("_loop_vars, " if frame.loop_frame else "None, "))
        self.visit(node.node, frame)
        for arg in node.args:
            self.write(", ")
            self.visit(arg, frame)
        self.write(")")

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        """``a ~ b`` as ``"".join(map(str, (a, b)))``: Jinja's ``str_join`` without its Python frame (its case when
        nothing is escaped; anything else as Jinja writes it)."""
        if frame.eval_ctx.volatile or frame.eval_ctx.autoescape:
            super().visit_Concat(node, frame)
            return
        self.write("_anko_concat(map(str, (")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write(")))")

    @optimizeconst
    def visit_Filter(self, node: nodes.Filter, frame: Frame) -> None:
        """A filter; the size check :class:`_Steps` puts on ``a ~ b`` (whose value is always a string) inline."""
        if self.environment.is_async or node.name != "_anko_sized" or not isinstance(node.node, nodes.Concat):
            super().visit_Filter(node, frame)
            return
        self.write("(_anko_s if len(_anko_s := ")
        self.visit(node.node, frame)
        self.write(f") <= {MAX_VALUE} else _anko_size_checked(_anko_s))")

    @optimizeconst
    def visit_Getattr(self, node: nodes.Getattr, frame: Frame) -> None:
        """``environment.getattr(obj, name)``, with the answers of :meth:`BoundedEnvironment.getattr`'s plain cases
        read inline first: a plain dict's item, a loop's property, an imported module's name (round 9: 6,000 of
        the 15,000 look-ups a season left to the hook), a built-in method of a plain string, list, tuple or dict."""
        attr = node.attr
        plain = f"_anko_k in _anko_scalars or _anko_k in _anko_lengths and len(_anko_v) <= {MAX_VALUE}"
        ways = []  # (the object's types, the rest of the way): each gives a value the hook gives as it is
        if attr not in _DICT_ATTRIBUTES:
            ways.append((["dict"], f"len(_anko_o) <= {MAX_VALUE} and ((_anko_k := type(_anko_v := "
                                   f"_anko_o.get({attr!r}, missing))) in _anko_scalars or _anko_k in _anko_lengths "
                                   f"and len(_anko_v) <= {MAX_VALUE})"))
        if attr in _LOOP_PROPERTIES:
            ways.append((["_anko_loop"], f"((_anko_k := type(_anko_v := _anko_o.{attr})) in _anko_scalars or "
                                         f"_anko_k in _anko_lengths and len(_anko_v) <= {MAX_VALUE})"))
        plain_name = not attr.startswith("_") and attr.isidentifier()
        methods = [kind.__name__ for kind in _METHOD_TYPES if attr in _METHODS_OF[kind]] if plain_name else []
        if methods:  # the value is a built-in method (every public name of these types is one)
            ways.append((methods, f"len(_anko_o) <= {MAX_VALUE} and (_anko_v := _anko_o.{attr}) is not None"))
        if plain_name:
            ways.append((["_anko_module"], f"((_anko_k := type(_anko_v := _anko_o.__dict__.get({attr!r}, "
                                           f"missing))) is _anko_macro or {plain})"))
        if self.environment.is_async or not ways:
            super().visit_Getattr(node, frame)
            return
        self.write("(_anko_v if (")
        for n, (types, rest) in enumerate(ways):
            if n:
                self.write(" or ")
            tests = [f"_anko_t is {kind}" for kind in types]
            if n == 0:  # the object's type, taken once
                self.write("(_anko_t := type(_anko_o := " if len(tests) == 1 else "((_anko_t := type(_anko_o := ")
                self.visit(node.node, frame)
                self.write(f")) is {' or '.join([types[0], *tests[1:]])}" + ("" if len(tests) == 1 else ")"))
            else:
                self.write(tests[0] if len(tests) == 1 else f"({' or '.join(tests)})")
            self.write(f" and {rest}")
        self.write(") and ((_anko_b := environment.budget) is None or _anko_b.step()) "
                   f"else environment.getattr(_anko_o, {attr!r}))")


STOPPED = "value was undefined because a callable raised a StopIteration exception"
"""Jinja's text for the undefined a call gives when its callable raised ``StopIteration``."""


class BoundedEnvironment(SandboxedEnvironment):
    """Jinja's sandbox, bounded: every loop iteration, call and look-up is a step of :attr:`budget`, and no
    expression builds a value longer than :data:`MAX_VALUE` (``*``, ``**``, ``%``, ``+``, ``~``,
    ``str.format``, padding methods and size arguments of filters are checked)."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})
    code_generator_class = _CodeGenerator

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.budget: _Budget | None = None
        """The budget of the chapter being rendered (None: only the value sizes are checked)."""
        self.filters.update({name: _selecting(*how) for name, how in _SELECTING.items()})
        self.filters["map"] = _map
        if not self.is_async:  # Jinja's filters with an async variant: the sync function its wrapper would call
            self.filters.update({name: fn.__wrapped__ for name, fn in self.filters.items()
                                 if getattr(fn, "jinja_async_variant", False) and hasattr(fn, "__wrapped__")})
        self.filters = {name: _bounded_filter(name, fn) for name, fn in self.filters.items()}
        self.filters["_anko_steps"] = _anko_steps
        self.filters["_anko_sized"] = _sized
        self.globals.pop("lipsum", None)  # lipsum(n) builds n paragraphs; chapters have no use for it

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        """Parse, then add the step counts and size checks of :class:`_Steps`."""
        tree: nodes.Template = _Steps().visit(super()._parse(source, name, filename))
        tree.set_environment(self)
        return tree

    def call(__self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        """A call from a template: one step; what a built-in method would build is checked, and the result."""
        budget = __self.budget
        if budget is not None:
            budget.step()  # _Budget.tick, inline (issue 29)
        return __self._called(__context, __obj, args, kwargs)

    def call_positional(self, context: Context, loop_vars: dict[str, Any] | None, obj: Any, *args: Any) -> Any:
        """``call(context, obj, *args, _loop_vars=loop_vars)`` (no ``_loop_vars`` when None), which
        :class:`_CodeGenerator` writes for a call given positional arguments alone: a macro given every argument is
        run at once, without the keyword dictionary the call would make (round 9: 14,000 calls a season)."""
        budget = self.budget
        if budget is not None:
            budget.step()  # _Budget.tick, inline
        if type(obj) is Macro and len(args) == obj._argument_count and not obj.caller and not obj.catch_kwargs \
                and not obj.catch_varargs:
            try:
                value = obj._func(*args)
            except StopIteration:
                return self.undefined(STOPPED)
            if context.eval_ctx.autoescape:
                value = Markup(value)
            if type(value) is str and len(value) <= MAX_VALUE:
                return value
            return _sized(value)
        if type(obj) is BuiltinMethodType and type(obj.__self__) in _LENGTHS and obj.__name__ not in _CHECKED_METHODS:
            # _called's path for a method of a plain str, list, tuple or dict that builds nothing it checks
            # (``d.get``, ``xs.append``, ``s.startswith``), without its frame (s40render)
            try:
                value = obj(*args)
            except StopIteration:
                return self.undefined(STOPPED)
            kind = type(value)
            if kind in _SCALARS or (kind in _LENGTHS and len(value) <= MAX_VALUE):
                return value
            return _sized(value)
        return self._called(context, obj, args, {} if loop_vars is None else {"_loop_vars": loop_vars})

    def _called(self, __context: Context, __obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """:meth:`call` after its step."""
        __self = self
        if type(__obj) is Macro:
            if kwargs:
                kwargs.pop("_loop_vars", None)
                kwargs.pop("_block_vars", None)
            try:
                if kwargs or len(args) != __obj._argument_count or __obj.caller or __obj.catch_kwargs or \
                        __obj.catch_varargs:
                    value = _call_macro(__obj, __context.eval_ctx, args, kwargs)
                else:  # _call_macro's path for every argument given, without its frame
                    value = __obj._func(*args)
                    if __context.eval_ctx.autoescape:
                        value = Markup(value)
            except StopIteration:
                return __self.undefined(STOPPED)
        elif ((type(__obj) is BuiltinMethodType and type(__obj.__self__) in _LENGTHS)
              or (type(__obj) is MethodType and _plain_function(__obj.__func__))):
            # Context.call's path, without its look-ups, for a method of a plain str, list, tuple or dict (no
            # pass_* marker, safely callable) or a plain Python method (the phraser's phrase and nth); what a
            # built-in method would build is checked first
            if __obj.__name__ in _CHECKED_METHODS:
                args = _checked_call(__obj, args, kwargs)
            if kwargs:
                kwargs.pop("_loop_vars", None)
                kwargs.pop("_block_vars", None)
            try:
                value = __obj(*args, **kwargs)
            except StopIteration:
                return __self.undefined(STOPPED)
        else:
            value = super().call(__context, __obj, *_checked_call(__obj, args, kwargs), **kwargs)
        if type(value) is str and len(value) <= MAX_VALUE:
            return value
        return _sized(value)

    def getattr(self, obj: Any, attribute: str) -> Any:
        """``obj.attribute`` from a template: one step (``obj`` and the value are size-checked)."""
        budget = self.budget
        if budget is not None:
            budget.step()  # _Budget.tick, inline
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES and len(obj) <= MAX_VALUE:
            # the sandbox's answer (the item, else undefined) without raising and catching an AttributeError
            value = obj.get(attribute, _MISSING)
            if value is _MISSING:
                return self.undefined(obj=obj, name=attribute)
            kind = type(value)
            if kind in _SCALARS or (kind in _LENGTHS and len(value) <= MAX_VALUE):  # _sized, inline
                return value
            return _sized(value)
        kind = type(obj)
        if kind in _PLAIN_TYPES and (kind not in _LENGTHS or len(obj) <= MAX_VALUE) and \
                _SAFE_ATTRIBUTES.get((kind, attribute)):
            # a name the sandbox judged safe on this type before (is_safe_attribute): its value, unless the
            # value is one the sandbox would wrap (str.format) or one to size-check
            try:
                value = getattr(obj, attribute)
            except AttributeError:
                pass
            else:
                kind = type(value)
                if kind in _SCALARS or kind is Macro or (kind in _LENGTHS and len(value) <= MAX_VALUE) or (
                        kind is BuiltinMethodType and attribute not in _STR_FORMATS):
                    return value
        return _sized(super().getattr(_sized(obj), attribute))

    def getitem(self, obj: Any, argument: Any) -> Any:
        """``obj[argument]`` from a template: one step."""
        budget = self.budget
        if budget is not None:
            budget.step()  # _Budget.tick, inline
        if type(obj) is dict and type(argument) in _KEYS:
            # the sandbox's answer: the item, else (a key no dict attribute is named) undefined, without raising
            # and catching a KeyError and an AttributeError
            value = obj.get(argument, _MISSING)
            if value is _MISSING:
                if type(argument) is str and argument in _DICT_ATTRIBUTES:
                    return _sized(super().getitem(obj, argument))
                return self.undefined(obj=obj, name=argument)
            kind = type(value)
            if kind in _SCALARS or (kind in _LENGTHS and len(value) <= MAX_VALUE):  # _sized, inline
                return value
            return _sized(value)
        if type(obj) in _LENGTHS and type(argument) in _KEYS:
            # the sandbox tries ``obj[argument]`` first: the same, without its frames
            try:
                value = obj[argument]
            except (TypeError, LookupError):
                pass
            else:
                kind = type(value)
                if kind in _SCALARS or (kind in _LENGTHS and len(value) <= MAX_VALUE):  # _sized, inline
                    return value
                return _sized(value)
        return _sized(super().getitem(obj, argument))

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        """``*``, ``**``, ``%`` and ``+``, refused when the result would be too large."""
        if type(left) in _NUMBERS and type(right) in _NUMBERS and operator != "**":
            return self.binop_table[operator](left, right)  # nothing below checks two numbers but a power
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int):
                    _small(len(seq) * n, "重复后值的长度")
        elif operator == "**" and isinstance(left, int) and isinstance(right, int) and abs(left) > 1:
            _small(left.bit_length() * right // 64, "幂的大小（机器字数）")
        elif operator == "%" and isinstance(left, str):
            _check_format(left, right if isinstance(right, tuple) else (right,),
                          right if isinstance(right, Mapping) else {}, percent=True)
        elif operator == "+" and isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)):
            _small(len(left) + len(right), "相加结果的长度")
        return _sized(super().call_binop(context, operator, left, right))

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        """The sandbox's answer, remembered per attribute name for the plain types templates read most."""
        if type(obj) not in _PLAIN_TYPES:
            return super().is_safe_attribute(obj, attr, value)
        key = (type(obj), attr)
        safe = _SAFE_ATTRIBUTES.get(key)
        if safe is None:
            safe = _SAFE_ATTRIBUTES[key] = super().is_safe_attribute(obj, attr, value)
        return safe

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """``str.format``, with its widths checked before the string is built."""
        fmt = super().wrap_str_format(value)
        if fmt is None:
            return None
        spec = value.__self__

        def checked(*args: Any, **kwargs: Any) -> str:
            _check_format(spec, args, kwargs, percent=False)
            return str(_sized(fmt(*args, **kwargs)))
        return checked


class RootedLoader(FileSystemLoader):
    """A :class:`~jinja2.FileSystemLoader` that also refuses a template file (or a link) whose real path is
    outside every template folder (``..`` in a name is refused by Jinja already)."""

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        """The template's source, if its real path is inside a template folder."""
        try:
            source, filename, uptodate = super().get_source(environment, template)
        except UnicodeDecodeError:
            for folder in self.searchpath:
                path = Path(folder) / template
                if path.is_file():
                    read_text(path)  # raises the located "not UTF-8 text" error
            raise
        real = os.path.realpath(filename)
        roots = [os.path.realpath(p) for p in self.searchpath]
        if not any(os.path.commonpath([real, root]) == root for root in roots):
            raise TemplateError(f"模板 {template!r}（{filename}）链接到模板文件夹之外的 {real}；"
                                f"模板只能读这些文件夹里的文件")
        return source, filename, uptodate


def _render_bounded(env: SandboxedEnvironment, template_name: str, context: Mapping[str, Any]) -> str:
    """Render with a fresh :class:`_Budget` and stop once the text passes :data:`MAX_OUTPUT` characters."""
    previous = getattr(env, "budget", None)
    env.budget = _Budget()  # type: ignore[attr-defined]
    try:
        template = env.get_template(template_name)
        # Template.generate's work without its generator in between (issue 29 round 9: a season's 21,600 parts
        # passed through two generators and a Python loop each): the parts taken a few at a time in C, their size
        # added up after each few (at most _OUTPUT_CHUNK parts, each a checked value, past the limit)
        pieces = template.root_render_func(template.new_context(dict(context)))
        parts: list[str] = []
        size, limit = 0, MAX_OUTPUT
        while True:
            try:
                chunk = list(itertools.islice(pieces, _OUTPUT_CHUNK))
            except Exception:
                env.handle_exception()  # raises the error with the template's lines, as generate() does
            if not chunk:
                return "".join(parts)
            size += sum(map(len, chunk))
            if size > limit:
                raise BudgetError(f"这一章超过了 {MAX_OUTPUT:,} 个字符（是不是循环失控？）")
            parts += chunk
    finally:
        env.budget = previous  # type: ignore[attr-defined]


_OUTPUT_CHUNK = 16
"""Parts of a chapter's text :func:`_render_bounded` takes before it adds their sizes up."""


# ---------------------------------------------------------------------------------------------
# Compiled templates kept between runs


class TemplateCache(BytecodeCache):
    """Compiled templates on disk, in :func:`~anko_writer.cache.cache_dir`'s ``jinja/`` folder.

    An entry's key is the template's name, file and source, the environment's :func:`env_stamp` and the
    :func:`~anko_writer.cache.code_stamp` (this package's modules, the :class:`_Steps` transform among them,
    and the versions of Python and Jinja): an edited template, a campaign's override of it, another filter
    set or another Jinja is a new key, so an entry is never stale. The cache authenticates an entry (its HMAC)
    before Jinja decodes it; one that cannot be read or fails is compiled again. ``ANKO_WRITER_CACHE=off``
    turns the cache off.
    """

    KIND = "jinja"
    """The cache folder's subfolder of compiled templates."""
    KEEP = 10000
    """Entries kept: every phrasing with Jinja syntax is compiled on its own, and the built-in phrase banks alone
    hold some 3,000 of them (at 400, a season's run evicted what it had just stored and compiled every time)."""

    def __init__(self, stamp: str) -> None:
        self.stamp = stamp
        """The :func:`env_stamp` of the environment whose templates this cache holds."""

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None, source: str) -> Bucket:
        """The template's bucket: the code the package ships for exactly this template (:mod:`~anko_writer.prebuilt`),
        else what the cache folder holds, else empty (Jinja compiles it and stores it here)."""
        code = prebuilt.template_code(self.stamp, name, filename, source)
        if code is None:
            return super().get_bucket(environment, name, filename, source)
        bucket = Bucket(environment, self.get_cache_key(name, filename), self.get_source_checksum(source))
        bucket.code = code
        return bucket

    def _path(self, bucket: Bucket) -> Path | None:
        """Where ``bucket``'s entry lives (None: the cache is off)."""
        return cache.entry_path(self.KIND, [self.stamp, bucket.key, bucket.checksum])

    def load_bytecode(self, bucket: Bucket) -> None:
        """Fill ``bucket`` from its entry, if there is a sound one (the cache authenticates it first)."""
        found, data = cache.load(self._path(bucket), lambda v: isinstance(v, bytes))
        if not found:
            return
        try:
            bucket.bytecode_from_string(data)  # type: ignore[arg-type]
        except Exception:  # an entry of another Jinja: compile again
            bucket.reset()
        if not isinstance(bucket.code, CodeType):
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Store ``bucket``'s code (silently nothing when the cache cannot be written)."""
        cache.store(self._path(bucket), bucket.bytecode_to_string(), keep=self.KEEP)


def env_stamp(env: jinja2.Environment) -> str:
    """A digest of what an environment's compiled code depends on beside the source: its class, syntax
    options, and the names of its filters and tests with what they are passed (context, environment)."""
    def names(table: Mapping[str, Any]) -> str:
        return repr(sorted((name, str(getattr(fn, "jinja_pass_arg", ""))) for name, fn in table.items()))

    options = (type(env).__module__, type(env).__qualname__, env.block_start_string, env.block_end_string,
               env.variable_start_string, env.variable_end_string, env.comment_start_string,
               env.comment_end_string, env.line_statement_prefix, env.line_comment_prefix, env.trim_blocks,
               env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline, env.optimized,
               env.finalize is not None, env.autoescape, env.is_async, sorted(env.extensions))
    return cache.digest([repr(options), names(env.filters), names(env.tests)])


# ---------------------------------------------------------------------------------------------
# Environment and rendering


def make_env(resources: Resources) -> SandboxedEnvironment:
    """A sandboxed, bounded Jinja environment over the ruleset's template search path, with our filters and
    the :class:`TemplateCache` of compiled templates."""
    env = BoundedEnvironment(
        loader=jinja2.ChoiceLoader([RootedLoader([str(p) for p in resources.search_path("templates")]),
                                    jinja2.PrefixLoader({COMMON: RootedLoader(_common_path(resources))})]),
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(FILTERS)
    env.filters.update(ruleset_filters(ruleset_info(resources)))
    env.bytecode_cache = TemplateCache(env_stamp(env))
    return env


COMMON = "_common"
"""The folder of the templates every ruleset imports (``{% import '_common/vote.j2' as vote %}``): the core's
``templates/_common``, which a host overrides like any template, in ``<campaign>/templates/_common``."""


def _common_path(resources: Resources) -> list[str]:
    """The search path of the common templates: the campaign's ``templates/_common`` first, then the core's."""
    return [str(p) for p in Resources(COMMON, resources.campaign_dir).search_path("templates")]


def ruleset_info(resources: Resources) -> RulesetInfo:
    """The description of the ruleset whose files ``resources`` finds: its own, else the registered one's."""
    if resources.info is not None:
        return resources.info
    from . import ruleset

    try:
        return ruleset.get(resources.ruleset).info
    except ruleset.UnknownRuleset:
        return RulesetInfo(resources.ruleset, currency=DEFAULT_CURRENCY)


def ruleset_filters(info: RulesetInfo) -> dict[str, Callable[..., str]]:
    """The filters a ruleset adds to the core's: ``money`` in its currency, then its own (each run only while
    rendering: :func:`at_render`)."""
    return {name: at_render(fn) for name, fn in {"money": info.currency.format, **info.filters}.items()}


def at_render(fn: Callable[..., str]) -> Callable[..., str]:
    """``fn`` as a filter Jinja calls only while rendering, never while compiling.

    Jinja folds a filter over constants (``{{ 'block' | cn('kind') }}``) into the compiled code, and a
    ruleset's filter reads the campaign's glossary or currency, which the compiled code's key does not hold:
    a filter that takes the context is never folded, so a host's glossary reaches every chapter.
    """

    @jinja2.pass_context
    def at_render_filter(_context: Context, *args: Any, **kwargs: Any) -> str:
        return fn(*args, **kwargs)

    at_render_filter.__doc__ = fn.__doc__
    return at_render_filter


_ENVS: dict[tuple[str, str, str], SandboxedEnvironment] = {}


def _key(resources: Resources) -> tuple[str, str, str]:
    """Cache key: the template and table search paths (folders) of these resources (a ruleset's filters
    may read its tables, as the 群英杯's ``cn`` reads ``glossary.yaml``)."""
    return (resources.ruleset, "|".join(str(p) for p in resources.search_path("templates") + _common_path(resources)),
            "|".join(str(p) for p in resources.search_path("tables")))


def _shared_env(resources: Resources) -> SandboxedEnvironment:
    """One environment per search path, so templates compile once per run."""
    key = _key(resources)
    env = _ENVS.get(key)
    if env is None:
        env = _ENVS[key] = make_env(resources)
    return env


def _template_frame(tb: TracebackType | None) -> tuple[str, int] | None:
    """The innermost traceback frame that belongs to a template: (file, line)."""
    found = None
    while tb is not None:
        if "__jinja_exception__" in tb.tb_frame.f_globals:
            found = (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    return found


def _display(filename: str) -> str:
    """A template file name relative to the working directory when it is under it."""
    try:
        return str(Path(filename).resolve().relative_to(Path.cwd()))
    except ValueError:
        return filename


def _describe(exc: BaseException, template_name: str) -> str:
    """``file:line: message`` for an error raised while rendering ``template_name``."""
    if isinstance(exc, jinja2.TemplateSyntaxError):
        where = f"{_display(exc.filename or exc.name or template_name)}:{exc.lineno}"
        return f"{where}: {exc.message}"
    if isinstance(exc, jinja2.TemplateNotFound):
        return f"{template_name}：找不到模板：{exc.message or exc.name}"
    if isinstance(exc, InputError):  # already names its file and line
        return str(exc)
    frame = _template_frame(exc.__traceback__)
    where = f"{_display(frame[0])}:{frame[1]}" if frame else template_name
    message = exc.message if isinstance(exc, jinja2.TemplateError) and exc.message else str(exc)
    if isinstance(exc, RecursionError):
        message = "模板嵌套太深（是不是 include、import 或宏调用了自己？）"
    elif isinstance(exc, MemoryError):
        message = "渲染时内存不足（某个值长得太大）"
    return f"{where}: {message}"


_RENDER_ERRORS = (jinja2.TemplateError, AnkoError, TypeError, ValueError, KeyError, AttributeError,
                  ArithmeticError, IndexError, RecursionError, MemoryError)


def normalize(text: str) -> str:
    """Strip trailing spaces, collapse 3+ blank lines into 2, end with exactly one newline.

    >>> normalize("a  \\n\\n\\n\\n\\nb\\n\\n")
    'a\\n\\n\\nb\\n'
    """
    kept: list[str] = []
    append, blanks = kept.append, 0
    for line in text.split("\n"):  # at most two blank lines in a row: ``\n{4,}`` → ``\n\n\n`` without the regex
        line = line.rstrip(" \t")
        if line:
            blanks = 0
        elif blanks == 2:
            continue
        else:
            blanks += 1
        append(line)
    return "\n".join(kept).strip("\n") + "\n"


def render_chapter(resources: Resources, template_name: str, context: Mapping[str, Any],
                   seed: int | None = None) -> str:
    """Render one chapter with a fresh :class:`Phraser`; errors become one-line ``TemplateError``s.

    ``seed`` (the campaign's) is only for the ``seal``/``reveal`` filters; it is not in the template's
    context. Environments are shared per template search path (templates compile once per process),
    and the ``phrase`` global is swapped per call, so render chapters one at a time (not from threads).
    """
    env = _shared_env(resources)
    phraser = Phraser(phrase_bank(resources), env)
    env.globals["phrase"] = phraser.phrase
    env.globals["phrase_nth"] = phraser.nth
    token = _SEED.set(seed)
    try:
        text = _render_bounded(env, template_name, context)
    except _RENDER_ERRORS as exc:
        raise TemplateError(_describe(exc, template_name)) from exc
    finally:
        _SEED.reset(token)
    return normalize(text)


# ---------------------------------------------------------------------------------------------
# Prose check

_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_ALLOWED_WORDS = frozenset({"ATK", "DEF", "MID", "GK", "FW", "MF", "DF", "STA", "MNT"})
"""The words :func:`find_problems` accepts when not told a ruleset's (the 群英杯's abbreviations)."""


class _Prose(NamedTuple):
    """The prose check's patterns, compiled on its first use (a month or a scene never checks prose: 1.8 ms of
    every start, issue 29 round 6)."""

    half_punct: re.Pattern[str]
    word: re.Pattern[str]
    sealed: re.Pattern[str]
    markup_line: re.Pattern[str]
    """The fold and vote markup (DESIGN §11): its keyword is markup, not prose; a fold's title is prose."""
    dice_line: re.Pattern[str]
    hex: re.Pattern[str]
    code: re.Pattern[str]
    link_target: re.Pattern[str]
    """A Markdown link or image's target (``(t03.svg)``): a file name, not prose (its text stays checked)."""
    fence: re.Pattern[str]
    """A CommonMark code fence: it opens a block that a fence of the same kind, at least as long, closes."""
    sentence_end: re.Pattern[str]
    cjk: re.Pattern[str]


@functools.cache
def _prose() -> _Prose:
    """The prose check's patterns (compiled once, on the first check)."""
    return _Prose(half_punct=re.compile(rf"(?<=[{_CJK}])[,;:?!()]|[,;:?!()](?=[{_CJK}])"),
                  word=re.compile(r"[A-Za-z]{3,}"), sealed=re.compile(r"〔[^〕]*〕"),
                  markup_line=re.compile(r":{3,}(?: fold .*| vote)?"), dice_line=re.compile(r"「[^」]*」"),
                  hex=re.compile(r"\b[0-9a-fA-F]{16,}\b"), code=re.compile(r"`[^`\n]+`"),
                  link_target=re.compile(r"(!?\[[^\]\n]*\])\([^)\n]*\)"),
                  fence=re.compile(r" {0,3}(`{3,}|~{3,})"), sentence_end=re.compile(r"[。！？\n]+"),
                  cjk=re.compile(f"[{_CJK}]"))


def _scrub(line: str) -> str:
    """A line with seal/reveal lines, dice lines, hashes and inline code (a command, an algorithm's name)
    removed (they may hold ASCII)."""
    prose = _prose()
    line = prose.link_target.sub(r"\1", line)
    for pattern in (prose.sealed, prose.dice_line, prose.hex, prose.code):
        line = pattern.sub(" ", line)
    return line


def _line_problems(number: int, line: str, allowed: AbstractSet[str]) -> list[str]:
    """Typography problems of one line of prose."""
    text, prose = _scrub(line), _prose()
    problems = [f"line {number}: half-width {m.group()!r} next to Chinese text: {line.strip()[:60]}"
                for m in prose.half_punct.finditer(text)]
    problems += [f"line {number}: ASCII word {m.group()!r} in prose: {line.strip()[:60]}"
                 for m in prose.word.finditer(text) if m.group() not in allowed]
    if "{{" in line or "{%" in line:  # a table's text with a placeholder nobody filled
        problems.append(f"line {number}: template placeholder left in prose: {line.strip()[:60]}")
    return problems


def _repeated_sentences(md: str) -> list[str]:
    """Sentences (split on 。！？ and line ends) that appear twice in a row."""
    prose = _prose()
    sentences = [s.strip() for s in prose.sentence_end.split(md) if prose.cjk.search(s)]
    return [f"sentence repeated: {a[:60]}" for a, b in zip(sentences, sentences[1:], strict=False) if a == b]


def find_problems(md: str, allowed: AbstractSet[str] | None = None) -> list[str]:
    """Prose problems of a chapter: half-width punctuation, stray English words, repeated sentences.

    ``allowed``: the ASCII words prose may use (a ruleset's :attr:`RulesetInfo.allowed_words`; default
    the 群英杯's).

    >>> find_problems("射门,球进了。")
    ["line 1: half-width ',' next to Chinese text: 射门,球进了。"]
    >>> find_problems("前锋（ATK 52）「3D100＝57」，1,250,000 P$。")
    []
    >>> find_problems("{{ 人 }}把他视作引路人。")
    ['line 1: template placeholder left in prose: {{ 人 }}把他视作引路人。']

    A fenced code block (a pitch diagram, a board, a table in monospace) is not prose: its lines are
    neither checked nor counted as sentences.

    >>> find_problems("球场：\\n```\\nab,c,Kick(x)\\nab,c,Kick(x)\\n```\\n回合结束。")
    []
    """
    problems: list[str] = []
    prose_lines: list[str] = []
    fence: str | None = None
    prose = _prose()
    for number, line in enumerate(md.splitlines(), 1):
        opened = prose.fence.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence) \
                    and not line.strip()[len(opened.group(1)):].strip():
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        prose_lines.append(line)
        if prose.markup_line.fullmatch(line):
            line = line.lstrip(":").strip().removeprefix("fold").removeprefix("vote")
        problems += _line_problems(number, line, _ALLOWED_WORDS if allowed is None else allowed)
    return problems + _repeated_sentences("\n".join(prose_lines))


__all__ = [
    "FILTERS",
    "as_roll",
    "MINUS",
    "Phraser",
    "cn_list",
    "cn_num",
    "dice",
    "reply_line",
    "find_problems",
    "load_phrases",
    "make_env",
    "money",
    "normalize",
    "pct",
    "phrase_bank",
    "render_chapter",
    "reveal",
    "seal",
    "signed",
    "thousands",
    "TemplateCache",
    "at_render",
    "env_stamp",
]
