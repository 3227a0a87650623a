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

import hashlib
import re
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

import jinja2
from jinja2 import FileSystemLoader, StrictUndefined, pass_context
from jinja2.runtime import Context
from jinja2.sandbox import SandboxedEnvironment

from . import yamlio
from .dice import Roll
from .errors import AnkoError, Location, TableError, TemplateError
from .resources import Resources

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
    if total is not None:
        expr, value, hidden = roll, total, False
    elif isinstance(roll, Sequence) and not isinstance(roll, str) and len(roll) == 2:
        expr, value = roll
        hidden = False
    else:
        expr, value = _field(roll, "expr"), _field(roll, "total")
        hidden = bool(_field(roll, "hidden", False))
    return f"「{expr}＝{'？？？' if hidden else value}」"


def money(amount: int) -> str:
    """An amount of money with thousands separators: ``1,250,000 P$``."""
    sign = MINUS if amount < 0 else ""
    return f"{sign}{abs(int(amount)):,} P$"


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
    )


@pass_context
def seal(ctx: Context, roll: Any) -> str:
    """The sealed line of a hidden roll (commitment from the campaign ``seed`` in the context)."""
    return str(_hidden().seal_line(as_roll(roll), ctx["seed"]))


@pass_context
def reveal(ctx: Context, roll: Any) -> str:
    """The reveal line of a hidden roll (value and salt, from the campaign ``seed`` in the context)."""
    return str(_hidden().reveal_line(as_roll(roll), ctx["seed"]))


FILTERS: dict[str, Callable[..., str]] = {
    "dice": dice,
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
    key = "\x1f".join([event, *(str(s) for s in salt)])
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
            raise TemplateError(f"no phrasing for event {event!r} in {PHRASES_FILE}")
        return options

    def index(self, event: str, *salt: Any) -> int:
        """The index of the phrasing chosen for ``event`` (and record it as used)."""
        n = len(self._options(event))
        used = self._used.setdefault(event, set())
        if len(used) >= n:
            used.clear()
        start = _stable_index(n, event, salt)
        last = self._last.get(event)
        order = [(start + k) % n for k in range(n)]
        choice = next((i for i in order if i not in used and i != last), start)
        used.add(choice)
        self._last[event] = choice
        return choice

    def pick(self, event: str, *salt: Any) -> str:
        """The phrasing (raw template text) chosen for ``event`` with these salt parts."""
        return self._options(event)[self.index(event, *salt)]

    def phrase(self, event: str, /, *salt: Any, **variables: Any) -> str:
        """Pick a phrasing for ``event`` and render it with ``variables``."""
        i = self.index(event, *salt)
        text = self._options(event)[i]
        if self.env is None:
            return text
        try:
            return _compiled(self.env, text).render(**variables)
        except jinja2.TemplateError as exc:
            raise TemplateError(f"{PHRASES_FILE}: {event}[{i}]: {exc}") from exc


_PHRASE_CACHE: weakref.WeakKeyDictionary[SandboxedEnvironment, dict[str, jinja2.Template]] = (
    weakref.WeakKeyDictionary()
)


def _compiled(env: SandboxedEnvironment, text: str) -> jinja2.Template:
    """``env.from_string(text)``, compiled once per environment."""
    cache = _PHRASE_CACHE.setdefault(env, {})
    tpl = cache.get(text)
    if tpl is None:
        tpl = cache[text] = env.from_string(text)
    return tpl


def _load_bank_yaml(path: Path) -> Any:
    """Load the bank's YAML; a syntax error on a line starting with ``{{`` gets a quoting hint."""
    try:
        return yamlio.load_yaml(path, TableError)
    except TableError as exc:
        lines = path.read_text(encoding="utf-8").splitlines()
        line = lines[exc.location.line - 1] if exc.location.line and exc.location.line <= len(lines) else ""
        if line.lstrip(" -").startswith("{"):
            exc.message += " (quote a phrasing that starts with '{{')"
        raise


def load_phrases(path: Path) -> dict[str, list[str]]:
    """Read a phrase bank: a mapping of event keys to a phrasing or a list of phrasings."""
    data = _load_bank_yaml(path)
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise TableError(Location(path, 1), "", "expected a mapping of event keys to phrasings")
    bank: dict[str, list[str]] = {}
    for key, value in data.items():
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not items or not all(isinstance(x, str) for x in items):
            where = Location(path, *(yamlio.position(data, key) or (None, None)))
            raise TableError(where, str(key), "expected a phrasing or a non-empty list of phrasings")
        bank[str(key)] = [str(x) for x in items]
    return bank


_BANKS: dict[tuple[Path, int], dict[str, list[str]]] = {}


def phrase_bank(resources: Resources) -> dict[str, list[str]]:
    """The ruleset's phrase bank (campaign override first), or an empty bank if it has none."""
    try:
        path = resources.find("templates", PHRASES_FILE)
    except AnkoError:
        return {}
    key = (path, path.stat().st_mtime_ns)
    if key not in _BANKS:
        _BANKS[key] = load_phrases(path)
    return _BANKS[key]


# ---------------------------------------------------------------------------------------------
# Environment and rendering


def make_env(resources: Resources) -> SandboxedEnvironment:
    """A sandboxed Jinja environment over the ruleset's template search path, with our filters."""
    env = SandboxedEnvironment(
        loader=FileSystemLoader([str(p) for p in resources.search_path("templates")]),
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(FILTERS)
    return env


_ENVS: dict[tuple[str, str], SandboxedEnvironment] = {}


def _key(resources: Resources) -> tuple[str, str]:
    """Cache key: the template search path (folders) of these resources."""
    return resources.ruleset, "|".join(str(p) for p in resources.search_path("templates"))


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
        return f"{template_name}: template not found: {exc.message or exc.name}"
    frame = _template_frame(exc.__traceback__)
    where = f"{_display(frame[0])}:{frame[1]}" if frame else template_name
    message = exc.message if isinstance(exc, jinja2.TemplateError) and exc.message else str(exc)
    return f"{where}: {message}"


_RENDER_ERRORS = (jinja2.TemplateError, AnkoError, TypeError, ValueError, KeyError, AttributeError,
                  ArithmeticError, IndexError)


def normalize(text: str) -> str:
    """Strip trailing spaces, collapse 3+ blank lines into 2, end with exactly one newline.

    >>> normalize("a  \\n\\n\\n\\n\\nb\\n\\n")
    'a\\n\\n\\nb\\n'
    """
    lines = [line.rstrip(" \t") for line in text.split("\n")]
    body = re.sub(r"\n{4,}", "\n\n\n", "\n".join(lines))
    return body.strip("\n") + "\n"


def render_chapter(resources: Resources, template_name: str, context: Mapping[str, Any]) -> str:
    """Render one chapter with a fresh :class:`Phraser`; errors become one-line ``TemplateError``s.

    Environments are shared per template search path (templates compile once per process), and the
    ``phrase`` global is swapped per call, so render chapters one at a time (not from threads).
    """
    env = _shared_env(resources)
    env.globals["phrase"] = Phraser(phrase_bank(resources), env).phrase
    try:
        text = env.get_template(template_name).render(**context)
    except _RENDER_ERRORS as exc:
        raise TemplateError(_describe(exc, template_name)) from exc
    return normalize(text)


# ---------------------------------------------------------------------------------------------
# Prose check

_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HALF_PUNCT = re.compile(rf"(?<=[{_CJK}])[,;:?!()]|[,;:?!()](?=[{_CJK}])")
_WORD = re.compile(r"[A-Za-z]{3,}")
_ALLOWED_WORDS = {"ATK", "DEF", "MID", "GK", "FW", "MF", "DF", "STA", "MNT"}
_SEALED = re.compile(r"〔[^〕]*〕")
_DICE_LINE = re.compile(r"「[^」]*」")
_HEX = re.compile(r"\b[0-9a-fA-F]{16,}\b")
_SENTENCE_END = re.compile(r"[。！？\n]+")


def _scrub(line: str) -> str:
    """A line with seal/reveal lines, dice lines and hashes removed (they may hold ASCII)."""
    for pattern in (_SEALED, _DICE_LINE, _HEX):
        line = pattern.sub(" ", line)
    return line


def _line_problems(number: int, line: str) -> list[str]:
    """Typography problems of one line of prose."""
    text = _scrub(line)
    problems = [f"line {number}: half-width {m.group()!r} next to Chinese text: {line.strip()[:60]}"
                for m in _HALF_PUNCT.finditer(text)]
    problems += [f"line {number}: ASCII word {m.group()!r} in prose: {line.strip()[:60]}"
                 for m in _WORD.finditer(text) if m.group() not in _ALLOWED_WORDS]
    return problems


def _repeated_sentences(md: str) -> list[str]:
    """Sentences (split on 。！？ and line ends) that appear twice in a row."""
    sentences = [s.strip() for s in _SENTENCE_END.split(md) if re.search(f"[{_CJK}]", s)]
    return [f"sentence repeated: {a[:60]}" for a, b in zip(sentences, sentences[1:]) if a == b]


def find_problems(md: str) -> list[str]:
    """Prose problems of a chapter: half-width punctuation, stray English words, repeated sentences.

    >>> find_problems("射门,球进了。")
    ["line 1: half-width ',' next to Chinese text: 射门,球进了。"]
    >>> find_problems("前锋（ATK 52）「3D100＝57」，1,250,000 P$。")
    []
    """
    problems: list[str] = []
    for number, line in enumerate(md.splitlines(), 1):
        problems += _line_problems(number, line)
    return problems + _repeated_sentences(md)


__all__ = [
    "FILTERS",
    "as_roll",
    "MINUS",
    "Phraser",
    "cn_list",
    "cn_num",
    "dice",
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
]
