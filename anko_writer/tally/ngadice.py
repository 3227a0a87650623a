"""Readers' own NGA ``[dice]`` rolls, recomputed from a saved page (issue 28).

NGA never stores a ``[dice]`` result: the page's script rolls it in the reader's browser from a linear
congruential generator seeded by the post's ids (``ubbcode.sRand`` in NGA's ``js_bbscode_core.js``):

- the seed is ``authorId + tid + pid`` (the poster's uid, the thread and the reply; the first post's pid
  is 0);
- each die first steps the seed, ``seed = (seed * 9301 + 49297) % 233280``, then shows
  ``floor(seed / 233280 * faces) + 1``;
- all the ``[dice]`` tags of one post share the one sequence, in the order they stand in the post (a tag
  inside ``[code]`` is not rolled);
- ``[dice]d6+2d20+3[/dice]`` reads term by term after a leading ``+``: ``d6`` is one die, ``2d20`` two,
  ``3`` a constant; a term of more than 10 dice or more than 1000 faces rolls nothing and makes the sum
  ``ERROR``; the result reads ``ROLL : d6+2d20+3=d6(2)+d20(5)+d20(19)+3=29`` (seed 3).

So a page that carries the ids lets anyone roll every post's dice again. :func:`check_page` reads a
saved NGA page (see :func:`floors` for where the ids are) and, for each post, compares what the page
shows with the recomputation: a rendered result that differs (an edited page), a ``ROLL :`` line typed by
hand (no tag behind it) and a post whose ids are missing are all listed.

>>> [d.faces for d in roll("d6+2d20+3", 60423359 + 46162468 + 857425480).dice]
[6, 20, 20]
>>> roll("d6+2d20+3", 3).text
'ROLL : d6+2d20+3=d6(2)+d20(5)+d20(19)+3=29'
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser

MULTIPLIER = 9301
"""The generator's multiplier (``ubbcode.sRand``)."""
INCREMENT = 49297
"""The generator's increment."""
MODULUS = 233280
"""The generator's modulus: a die reads ``seed / MODULUS`` as a number in [0, 1)."""
MAX_DICE = 10
"""The most dice one term may roll (``11d6`` rolls nothing: ``OUT OF LIMIT``)."""
MAX_FACES = 1000
"""The most faces a die may have (``d1001`` rolls nothing: ``OUT OF LIMIT``)."""

TAG = re.compile(r"\[dice\]([\dd+\s]+?)\[/dice\]", re.I)
"""A ``[dice]`` tag as NGA's script finds it (digits, ``d``, ``+`` and white space only)."""
TERM = re.compile(r"(\+)(\d{0,10})(?:(d)(\d{1,10}))?", re.I)
"""One term of an expression after the leading ``+``: a count, and ``d`` and faces for dice."""
CODE = re.compile(r"\[code(=[^\]]+)?\](.+?)\[/code\]", re.I)
"""A ``[code]`` block: its content is shown as code, its ``[dice]`` never rolled."""
COLLAPSE = re.compile(r"\[collapse(=[^\]]{1,50})?\](.*?)\[/collapse\]", re.I | re.S)
"""A ``[collapse]`` fold: NGA's current script rolls a fold's dice from a seed of its own (see :func:`check_post`)."""
SHOWN = re.compile(r"ROLL\s*:\s*([\dd+\s]+?)\s*=\s*([^=]*?)\s*=\s*(-?\d+|ERROR)", re.I)
"""A result as the page shows it, rendered or typed: ``ROLL : d6=d6(4)=4``."""


def step(seed: float) -> float:
    """The generator's next state, in the page script's double arithmetic (exact below 2**53).

    >>> step(1)
    58598.0
    """
    return math.fmod(float(seed) * MULTIPLIER + INCREMENT, MODULUS)


@dataclass(frozen=True)
class Die:
    """One die of a roll: its faces and the face it showed."""

    faces: int
    face: int


@dataclass(frozen=True)
class Roll:
    """One ``[dice]`` expression rolled: its dice, the expansion and the sum (``ERROR`` past the limits)."""

    expression: str
    dice: tuple[Die, ...]
    expansion: str
    total: str

    @property
    def text(self) -> str:
        """The result as NGA renders it: ``ROLL : d6=d6(4)=4``."""
        return f"ROLL : {self.expression}={self.expansion}={self.total}"


@dataclass
class Stream:
    """One post's generator: the seed, stepped by every die the post rolls."""

    seed: float

    def face(self, faces: int) -> int:
        """The next die of ``faces`` faces."""
        self.seed = step(self.seed)
        return math.floor(self.seed / float(MODULUS) * faces) + 1


def roll(expression: str, seed: float | Stream) -> Roll:
    """``expression`` (a ``[dice]`` tag's content) rolled as NGA's script rolls it, from ``seed`` (a post's
    ``authorId + tid + pid``) or from a post's :class:`Stream` already stepped by its earlier dice.

    >>> roll("d20+5", 0).text
    'ROLL : d20+5=d20(5)+5=10'
    >>> roll("11d6", 0).text
    'ROLL : 11d6=OUT OF LIMIT=ERROR'
    """
    stream = seed if isinstance(seed, Stream) else Stream(float(seed))
    dice: list[Die] = []
    total: int | None = 0

    def term(m: re.Match[str]) -> str:
        nonlocal total
        count_text, d, faces_text = m.group(2), m.group(3), m.group(4)
        count = int(count_text) if count_text else (1 if d else 0)  # 002: `if($2)… else if($3)$2=1`
        if not d:
            if total is not None:
                total += count
            return f"+{count}"
        faces = int(faces_text)
        if count > MAX_DICE or faces > MAX_FACES:
            total = None
            return "+OUT OF LIMIT"
        out = ""
        for _ in range(count):
            die = Die(faces, stream.face(faces))
            dice.append(die)
            out += f"+d{faces}({die.face})"
            if total is not None:
                total += die.face
        return out

    expansion = TERM.sub(term, "+" + expression)[1:]
    return Roll(expression, tuple(dice), expansion, "ERROR" if total is None else str(total))


def expressions(content: str) -> list[str]:
    """The ``[dice]`` expressions of a post's BBCode in the order they roll (a ``[code]`` block's left out;
    line breaks read as spaces, as the script reads them).

    >>> expressions("先 [dice]d6[/dice]，[code][dice]d100[/dice][/code] 再 [DICE]2d20 + 1[/DICE]")
    ['d6', '2d20 + 1']
    """
    text = CODE.sub("", content.replace("\n", " "))
    return [m.group(1) for m in TAG.finditer(text)]


def roll_post(content: str, seed: float) -> list[Roll]:
    """Every ``[dice]`` of one post rolled from the post's seed, in order, on one shared sequence."""
    stream = Stream(float(seed))
    return [roll(x, stream) for x in expressions(content)]


# ---------------------------------------------------------------------------------------------
# A saved page


@dataclass
class Floor:
    """One post of a saved NGA page: its place, author, ids, its content (BBCode, or HTML the script
    rendered) and the results its rendered ``dice`` tables show."""

    index: int
    floor: str | None = None
    author: str = ""
    author_id: int | None = None
    pid: int | None = None
    content: str = ""
    shown: list[str] = field(default_factory=list)
    """The text of each ``<table class="dice">`` in the post (the page was saved after the script ran)."""
    typed: list[str] = field(default_factory=list)
    """``ROLL :`` results in the post's own text, outside any dice table."""
    folded: bool = False
    """A rendered dice table stands inside a fold (an element of class ``collapse_content``)."""


@dataclass(frozen=True)
class Check:
    """One post's dice, recomputed: ``ok`` (the page shows what the ids roll), ``bad`` (it shows something
    else), ``typed`` (a result typed by hand), ``rolled`` (the page holds the tags unrendered: the results
    are what NGA shows), ``unknown`` (the ids are missing, or the post's dice cannot be recomputed)."""

    floor: Floor
    status: str
    rolls: tuple[Roll, ...] = ()
    shown: tuple[str, ...] = ()
    why: str = ""

    def where(self) -> str:
        """The post as the tally names it: ``#3 小红``."""
        place = f"#{self.floor.floor}" if self.floor.floor is not None else f"第{self.floor.index + 1}条"
        return f"{place} {self.floor.author}".strip()


STATUS = {"ok": "相符", "bad": "不符", "typed": "手打", "rolled": "重算", "unknown": "无法复算"}
"""How the tally names each status."""

_PROC = re.compile(r"commonui\.postArg\.proc\s*\(([^)]*)\)")
"""NGA's per-post call in the page's scripts: ``proc(i, containers ×7, fid, tid, pid, type, tAid, pAid, …)``."""
_DEFAULT = re.compile(r"commonui\.postArg\.setDefault\s*\(([^)]*)\)")
"""NGA's per-page call: ``setDefault(fid, stid, tid, tAid, …)``."""
_SAVED = re.compile(r"<!--\s*saved from url=\(\d+\)\S*?[?&]tid=(\d+)", re.I)
"""The address a browser notes when it saves a page: ``<!-- saved from url=(0046)https://…/read.php?tid=… -->``."""
_CONTENT = re.compile(r"^postcontent(\d+)$")
_AUTHOR = re.compile(r"^postauthor(\d+)$")
_ANCHOR = re.compile(r"^pid(\d+)Anchor$")
_UID = re.compile(r"[?&]uid=(\d+)")
_FLOOR = re.compile(r"#(\d+)")
VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "area", "base", "col", "embed", "source", "wbr"})
"""Elements without an end tag."""


def _int(text: str) -> int | None:
    """A script argument as a number (None: ``null``, a string, an expression)."""
    text = text.strip().strip("'\"")
    return int(text) if re.fullmatch(r"-?\d+", text) else None


def _args(text: str) -> list[str]:
    """A call's arguments split at top-level commas (``$('postcontent0')`` is one argument)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return [*out, cur]


class _Page(HTMLParser):
    """The posts of a saved NGA page: each ``postcontent{i}`` element's inner HTML, its dice tables, and
    the author and floor that precede it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.floors: dict[int, Floor] = {}
        self.author: tuple[str, int | None] | None = None
        self.author_open = False
        self.pid: int | None = None
        self.floor: str | None = None
        self.info = 0  # depth inside a postInfo element (its #N is the floor)
        self.current: Floor | None = None
        self.depth = 0
        self.dice: list[str] | None = None
        self.dice_depth = 0
        self.folds: list[int] = []  # depths of the open ``collapse_content`` elements in a post
        self.raw: list[str] = []
        self.scripts: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Open an element: a post's content, a dice table, an author link, an anchor."""
        a = {k: v or "" for k, v in attrs}
        if tag == "script":
            self.in_script = True
            self.scripts.append("")
        if self.current is not None:
            self.raw.append(self.get_starttag_text() or "")
            if tag in VOID:
                return
            self.depth += 1
            classes = a.get("class", "").split()
            if "collapse_content" in classes:
                self.folds.append(self.depth)
            if tag == "table" and "dice" in classes:
                self.dice, self.dice_depth = [], self.depth
                self.current.folded = self.current.folded or bool(self.folds)
            return
        m = _CONTENT.match(a.get("id", ""))
        if m:
            idx = int(m.group(1))
            author, uid = self.author or ("", None)
            self.current = self.floors.setdefault(idx, Floor(idx))
            self.current.floor, self.current.author = self.floor, author
            self.current.author_id, self.current.pid = uid, self.pid
            self.depth, self.raw = 1, []
            return
        if _AUTHOR.match(a.get("id", "")) or (tag == "a" and "author" in a.get("class", "").split()):
            href = _UID.search(a.get("href", ""))
            self.author = ("", int(href.group(1)) if href else None)
            self.author_open = True
        anchor = _ANCHOR.match(a.get("id", ""))
        if anchor:
            self.pid = int(anchor.group(1))
        if "postinfo" in a.get("class", "").lower().split() or a.get("id", "").startswith("postInfo"):
            self.info = 1
        elif self.info and tag not in VOID:
            self.info += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """A self-closed element (``<br/>``): kept in a post's content, nothing opened."""
        if self.current is not None:
            self.raw.append(self.get_starttag_text() or "")
        elif tag not in VOID:
            self.handle_starttag(tag, attrs)
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        """Close an element; the end of a post's content ends the post."""
        if tag in VOID:
            return
        if tag == "script":
            self.in_script = False
        if tag == "a":
            self.author_open = False
        if self.current is None:
            if self.info:
                self.info -= 1
            return
        if self.dice is not None and self.depth == self.dice_depth:
            self.current.shown.append(" ".join("".join(self.dice).split()))
            self.dice = None
        if self.folds and self.folds[-1] == self.depth:
            self.folds.pop()
        self.depth -= 1
        if self.depth == 0:
            self.current.content = unescape("".join(self.raw))
            self.current = None
            self.floor = None
            self.pid = None
            return
        self.raw.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        """Text: a script's source, an author's name, a floor number, or a post's content."""
        if self.in_script and self.scripts:
            self.scripts[-1] += data
            return
        if self.current is not None:
            self.raw.append(data)
            if self.dice is not None:
                self.dice.append(data)
            return
        if self.author_open and self.author is not None:
            self.author = (self.author[0] + data.strip(), self.author[1])
        if self.info:
            m = _FLOOR.search(data)
            if m:
                self.floor = m.group(1)

    def handle_entityref(self, name: str) -> None:
        """An entity, kept as written (the content is unescaped as a whole)."""
        self.handle_data(f"&{name};")

    def handle_charref(self, name: str) -> None:
        """A character reference, kept as written."""
        self.handle_data(f"&#{name};")


def page_tid(html: str) -> int | None:
    """The thread's id on a saved page: ``setDefault``'s third argument, else the address the browser noted
    when it saved the page (None: the page carries neither)."""
    m = _DEFAULT.search(html)
    if m:
        args = _args(m.group(1))
        if len(args) > 2 and _int(args[2]) is not None:
            return _int(args[2])
    saved = _SAVED.search(html)
    return int(saved.group(1)) if saved else None


def floors(html: str) -> tuple[int | None, list[Floor]]:
    """A saved NGA page's thread id and posts. Each post is the element ``id="postcontent{i}"``; its ids are
    the arguments of its ``commonui.postArg.proc(i, …)`` call (pid the 11th, the author's uid the 14th), or
    failing those the attributes NGA writes around it: the anchor ``id="pid{pid}Anchor"`` and the author link
    ``id="postauthor{i}"`` (or ``class="author"``) whose ``href`` holds ``uid={uid}``. The thread id is
    :func:`page_tid`'s."""
    parser = _Page()
    parser.feed(html)
    parser.close()
    for script in parser.scripts:
        for m in _PROC.finditer(script):
            args = _args(m.group(1))
            idx = _int(args[0]) if args else None
            if idx is None or idx not in parser.floors or len(args) < 14:
                continue
            f = parser.floors[idx]
            f.pid = _int(args[10]) if _int(args[10]) is not None else f.pid
            f.author_id = _int(args[13]) if _int(args[13]) is not None else f.author_id
    for f in parser.floors.values():
        rendered = re.sub(r"<table\b[^>]*\bdice\b.*?</table>", " ", f.content, flags=re.I | re.S)
        f.typed = [" ".join(m.group(0).split()) for m in SHOWN.finditer(re.sub(r"<[^>]+>", " ", rendered))]
    return page_tid(html), [parser.floors[k] for k in sorted(parser.floors)]


def _same(shown: str, rolled: Roll) -> bool:
    """True when a rendered result reads as the recomputed one (white space aside)."""
    return "".join(shown.split()) == "".join(rolled.text.split())


def check_post(f: Floor, tid: int | None) -> Check | None:
    """One post's dice recomputed and compared with the page (None: the post has no dice and no typed
    result). A post with a ``[dice]`` inside a ``[collapse]`` is not judged: NGA's current script rolls a
    fold's dice from a seed of its own (the fold's number added), which a page does not show."""
    tags = expressions(f.content)
    if not tags and not f.shown and not f.typed:
        return None
    if f.typed and not tags and not f.shown:
        return Check(f, "typed", shown=tuple(f.typed), why="没有 [dice] 标签，是手打的结果")
    missing = [name for name, v in (("帖子 tid", tid), ("回复 pid", f.pid), ("作者 uid", f.author_id)) if v is None]
    if missing:
        return Check(f, "unknown", shown=tuple(f.shown), why=f"页面上没有{'、'.join(missing)}")
    assert tid is not None and f.pid is not None and f.author_id is not None
    seed = f.author_id + tid + f.pid
    if seed == 0:  # the script rolls Math.random() then
        return Check(f, "unknown", why="三个编号之和为 0，NGA 此时用的是不可重现的随机数")
    if f.folded or any(TAG.search(m.group(2)) for m in COLLAPSE.finditer(f.content)):
        return Check(f, "unknown", why="折叠块里的骰子另起种子，不复算")
    if tags:
        return Check(f, "rolled", tuple(roll_post(f.content, seed)))
    rolls = tuple(_rolls_of_shown(f.shown, seed))
    ok = len(rolls) == len(f.shown) and all(_same(s, r) for s, r in zip(f.shown, rolls, strict=True))
    return Check(f, "ok" if ok else "bad", rolls, tuple(f.shown),
                 "" if ok else "页面显示的结果与编号算出的不同：页面被改过，或结果是伪造的")


def _rolls_of_shown(shown: Sequence[str], seed: float) -> Iterator[Roll]:
    """The rendered results' expressions rolled again, in order, on the post's one sequence."""
    stream = Stream(float(seed))
    for text in shown:
        m = re.match(r"\s*ROLL\s*:\s*([\dd+\s]+?)\s*=", text, re.I)
        if m is None:
            return
        yield roll(m.group(1), stream)


_ANY = re.compile(r"\[dice\]|class\s*=\s*['\"]?[^'\">]*\bdice\b|ROLL\s*:", re.I)
"""What a page with dice holds somewhere: a tag, a rendered dice table, or a result typed as NGA prints it."""


def has_dice(html: str) -> bool:
    """True when the page may hold a roll (a page without one is not parsed a second time).

    >>> has_dice("<span class='postcontent'>【安价 s1m3】阵型：C</span>"), has_dice("[dice]d6[/dice]")
    (False, True)
    """
    return _ANY.search(html) is not None


def check_page(html: str) -> tuple[Check, ...]:
    """Every post of a saved NGA page that rolls or shows dice, recomputed (:func:`check_post`)."""
    tid, posts = floors(html)
    out = (check_post(f, tid) for f in posts)
    return tuple(c for c in out if c is not None)


def describe(c: Check) -> str:
    """One check as the tally lists it (Chinese)."""
    rolled = "；".join(r.text for r in c.rolls)
    if c.status == "ok":
        return f"{c.where()}：{rolled}（与页面相符）"
    if c.status == "rolled":
        return f"{c.where()}：{rolled}（页面存的是未显示的 [dice] 标签，这就是 NGA 显示的结果）"
    if c.status == "bad":
        return f"{c.where()}：页面显示「{'；'.join(c.shown)}」，按编号重算是「{rolled}」——{c.why}"
    if c.status == "typed":
        return f"{c.where()}：「{'；'.join(c.shown)}」{c.why}，不是 NGA 掷的"
    return f"{c.where()}：{c.why}"


__all__ = ["CODE", "COLLAPSE", "Check", "Die", "Floor", "INCREMENT", "MAX_DICE", "MAX_FACES", "MODULUS",
           "MULTIPLIER", "Roll", "SHOWN", "STATUS", "Stream", "TAG", "TERM", "check_page", "check_post",
           "describe", "expressions", "floors", "has_dice", "page_tid", "roll", "roll_post", "step"]
