"""The vote (安价) a chapter asks for, in one core format every ruleset shares (issue 16).

A ruleset describes its vote as a :class:`Ballot`: the key readers quote (``s1m4``), where the result goes
in the campaign (``decisions.s1m4``), and its questions, each with a reply label (``阵型``), the answers it
accepts and what a tie does. The ballot travels in the chapter's published ``vote`` record
(:meth:`Ballot.to_record`), so the chapter template prints the reply line from it (the ``reply_line``
filter) and ``anko-writer tally`` reads it back (:meth:`Ballot.from_record`) without knowing the game.

A reply line is ``【安价 KEY】标签：答案；标签：答案``. Reading one forgives what readers type: half- or
full-width brackets, colons and semicolons, letters in either case, spaces, a missing bracket.

>>> b = Ballot("s1m4", ("decisions", "s1m4"), (
...     Question("阵型", ("formation",), "choice", (Option("4 4 2", ("A",)), Option("3 5 2", ("B",))),
...              tie="keep", keep="3 5 2"),
...     Question("摊牌", ("conflict",), "choice", (Option(False, ("否",)), Option(True, ("是",)))),
... ))
>>> b.reply_line()
'【安价 s1m4】阵型：A；摊牌：否'
>>> [(a.label, a.value) for a in read_votes("顶一个 [安价 S1M4] 阵型: b ; 摊牌:是", b)[0].answers]
[('阵型', '3 5 2'), ('摊牌', True)]
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, TypeAlias

from .errors import AnkoError

DEADLINE = "下一帖发出之前"
"""When a vote closes unless the campaign's ``options.vote_deadline`` says otherwise (every ruleset)."""


def deadline_of(campaign: Mapping[str, Any]) -> str:
    """When a campaign's votes close, as every vote block states it: ``options.vote_deadline``, else
    :data:`DEADLINE`.

    >>> deadline_of({"options": {"vote_deadline": "发帖后 48 小时"}}), deadline_of({})
    ('发帖后 48 小时', '下一帖发出之前')
    """
    return str((campaign.get("options") or {}).get("vote_deadline", DEADLINE))


KINDS = ("choice", "names", "offers", "text")
"""What a question accepts: one of its options; a list of names (from ``names`` when given); a list of
``名字 金额`` pairs; free text lines (orders in a ruleset's notation when the question names one, else
checked later by the campaign schema)."""
TIES = ("keep", "die", "fallback")
"""What a tie does: keep ``keep`` if it is among the tied answers, else a visible die among them (``keep``);
a visible die among the tied answers (``die``); no decision, the rules' default applies (``fallback``)."""
TIE_TEXT = {
    "keep": "平票时若当前选择在平票之列就沿用，否则在平票的选项里公开掷骰",
    "die": "平票时在平票的选项里公开掷骰",
    "fallback": "平票按没人投处理，由规则默认",
}
"""How each tie rule reads in a chapter and in the tally's output."""

COUNTS = ("whole", "each")
"""How a list question is counted: ``whole`` — each distinct answer is one candidate, the plurality wins
(like a choice); ``each`` — every name is counted on its own, and a name is in the result when more than
half of the readers who answered the question wrote it (an offer's amount: the most-voted one, the lower
on a tie)."""
COUNT_TEXT = {
    "whole": "",
    "each": "每个名字各自计票：写到他的读者超过答这一项读者的一半才算数；金额取得票最多的一档，平票取较低的一档",
}
"""How each count rule reads in a chapter and in the tally's output (``whole`` reads as a choice)."""

SEPARATORS = "，、,/"
"""What separates the items of a list answer (after normalising full-width forms)."""


class VoteError(AnkoError):
    """A readers' vote the ruleset cannot play where the story stands: ``where`` is its path under the campaign
    (``("orders", "j1t05", "皇甫嵩")``), which the campaign's schema check places at its file, line and key."""

    def __init__(self, where: tuple[str | int, ...], message: str) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{'.'.join(str(w) for w in where)}: {message}")


class BallotError(ValueError):
    """A ballot record is malformed (a chapter JSON not written by this version, or a ruleset bug)."""


@dataclass(frozen=True)
class Option:
    """One answer a choice question accepts: the ``value`` written into the campaign, and the ``words`` a
    reader may write for it (the first is what the chapter prints)."""

    value: Any
    words: tuple[str, ...]


@dataclass(frozen=True)
class Question:
    """One item of a vote: its reply ``label``, the ``path`` under the ballot's root the answer is written
    to (empty: the root itself), its ``kind`` and options, and its tie rule."""

    label: str
    path: tuple[str | int, ...]
    kind: str = "choice"
    options: tuple[Option, ...] = ()
    names: tuple[str, ...] = ()
    """For ``names`` and ``offers``: the names a reader may use (empty: any)."""
    max_items: int = 0
    """For list kinds: the most items an answer may hold (0: no limit)."""
    tie: str = "fallback"
    keep: Any = None
    """For ``tie == "keep"``: the value that stands if it is among the tied answers."""
    example: str = ""
    """The answer the reply line shows (default: the first option's first word)."""
    count: str = "whole"
    """For list kinds: how the answers are counted (:data:`COUNTS`)."""
    offer_keys: tuple[str, str] = ("name", "amount")
    """For ``offers``: the keys an item is written with (the campaign's, e.g. ``("player", "offer")``)."""
    item_key: str = ""
    """For ``names`` and ``text``: each item of the answer is written as ``{item_key: item}`` (招募 →
    ``[{"position": "闪击手"}]``); empty: the items themselves."""
    separators: str = ""
    """For list kinds: the characters that separate items (empty: :data:`SEPARATORS`; a notation that
    itself holds a comma needs fewer)."""
    nothing: str = ""
    """For list kinds: a word that answers with an empty list (``无``: rest nobody), a neutral example."""
    aliases: tuple[str, ...] = ()
    """Other labels a reader may write for this question (beside :data:`LABEL_ALIASES` and the label in
    traditional script, which every ballot accepts)."""
    notation: str = ""
    """For ``text``: the ruleset notation its items are orders in (a name given to :func:`register_notation`,
    ``ball.actions``); the tally reads each answer through it, so an illegal order is listed with the legal
    choices and two spellings of one order count as one answer. Empty: the items are kept as written."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise BallotError(f"问题 {self.label!r}：kind {self.kind!r} 不是「{'、'.join(KINDS)}」之一")
        if self.tie not in TIES:
            raise BallotError(f"问题 {self.label!r}：tie {self.tie!r} 不是「{'、'.join(TIES)}」之一")
        if self.kind == "choice" and not self.options:
            raise BallotError(f"问题 {self.label!r}：choice 问题需要 options")
        if self.count not in COUNTS:
            raise BallotError(f"问题 {self.label!r}：count {self.count!r} 不是「{'、'.join(COUNTS)}」之一")
        if self.notation and self.kind != "text":
            raise BallotError(f"问题 {self.label!r}：只有 text 问题可以带 notation")

    def labels(self) -> tuple[str, ...]:
        """Every label a reader may write for this question: its own, its :attr:`aliases` and the core's."""
        return (self.label, *self.aliases, *LABEL_ALIASES.get(self.label, ()))

    def shown(self) -> str:
        """The answer the reply line shows."""
        if self.example:
            return self.example
        return self.options[0].words[0] if self.options else ""

    def read(self, text: str, orders: OrderParser | None = None) -> Any:
        """The value a reader's answer ``text`` stands for; a :class:`AnswerError` says why it cannot be.
        ``orders``: the parser of :attr:`notation` for this ballot (None: a text answer is kept as written)."""
        text = text.strip()
        if not text:
            raise AnswerError("空答案")
        if self.kind == "choice":
            return self._choice(text)
        if self.kind != "choice" and self.nothing and _fold(text) in _word_forms((self.nothing,)):
            return []
        seps = self.separators or SEPARATORS
        # items also lose the backquotes of a chapter's inline code readers copy (`X3 E5-G7`)
        items = [t.strip().strip("`").strip() for t in re.split(f"[{re.escape(seps)}]", text)]
        items = [t for t in items if t]
        if self.max_items and len(items) > self.max_items:
            raise AnswerError(f"最多 {self.max_items} 项，写了 {len(items)} 项")
        if self.kind == "offers":
            return [self._offer(t) for t in items]
        if self.kind == "text" and orders is not None:
            items = _orders(items, orders)
        values: list[Any] = items if self.kind == "text" else [self._name(t) for t in items]
        return [{self.item_key: v} for v in values] if self.item_key else values

    def _choice(self, text: str) -> Any:
        """The option ``text`` names (a word, its letter, or the value itself, in either script, width, spacing
        and separators forgiven: ``4-3-3`` is ``4 3 3``); text two options could mean is refused, not guessed."""
        want = _fold(text)
        found = [o for o in self.options if want in _word_forms(tuple(o.words)) or want == _fold(str(o.value))]
        if not found:
            # 「A. 4 4 2 控球」: the letter followed by its description
            head = re.match(r"([a-z])(?:[.、)\s]|$)", unicodedata.normalize("NFKC", text).strip().lower())
            if head:
                found = [o for o in self.options if head.group(1) in _word_forms(tuple(o.words))]
        values = list({_key(o.value): o.value for o in found}.values())
        if len(values) > 1:
            words = "、".join(o.words[0] for o in found)
            raise AnswerError(f"「{text}」可以是 {words} 几个选项，不猜")
        if values:
            return values[0]
        raise AnswerError(f"没有「{text}」这个选项（可选：{'、'.join(o.words[0] for o in self.options)}）")

    def _name(self, text: str) -> str:
        """A name from :attr:`names` (either script, spaces, dots and hyphens forgiven; two names that read the
        same are refused, not guessed)."""
        if not self.names:
            return text
        want = _fold(text)
        found = [n for n in self.names if want in _word_forms((n,))]
        if len(set(found)) > 1:
            raise AnswerError(f"「{text}」可以是 {'、'.join(found)}，不猜")
        if found:
            return found[0]
        raise AnswerError(f"没有叫「{text}」的人")

    def _offer(self, text: str) -> dict[str, Any]:
        """``名字 金额`` (金额 in P$, ``万`` and ``k``/``m`` forgiven), keyed by :attr:`offer_keys`."""
        name, amount = self.offer_keys
        m = re.fullmatch(r"(.+?)\s*(\d[\d,]*(?:\.\d+)?)\s*(万|k|m|P\$)?\s*(?:P\$)?",
                         simplified(unicodedata.normalize("NFKC", text)), re.IGNORECASE)
        if not m:
            self._name(text)  # an unknown name says so first
            raise AnswerError(f"「{text}」缺少金额")
        value = float(m.group(2).replace(",", ""))
        unit = (m.group(3) or "").lower()
        value *= {"万": 10_000, "k": 1_000, "m": 1_000_000}.get(unit, 1)
        return {name: self._name(m.group(1)), amount: int(value)}

    def to_record(self) -> dict[str, Any]:
        """The question as published in the chapter's JSON."""
        out: dict[str, Any] = {"label": self.label, "path": list(self.path), "kind": self.kind, "tie": self.tie}
        if self.options:
            out["options"] = [{"value": o.value, "words": list(o.words)} for o in self.options]
        if self.names:
            out["names"] = list(self.names)
        if self.max_items:
            out["max_items"] = self.max_items
        if self.keep is not None:
            out["keep"] = self.keep
        if self.example:
            out["example"] = self.example
        if self.count != "whole":
            out["count"] = self.count
        if self.offer_keys != ("name", "amount"):
            out["offer_keys"] = list(self.offer_keys)
        if self.item_key:
            out["item_key"] = self.item_key
        if self.separators:
            out["separators"] = self.separators
        if self.nothing:
            out["nothing"] = self.nothing
        if self.aliases:
            out["aliases"] = list(self.aliases)
        if self.notation:
            out["notation"] = self.notation
        return out

    @classmethod
    def from_record(cls, rec: Mapping[str, Any]) -> Question:
        """The question :meth:`to_record` published."""
        try:
            # a compact table row (anko_writer.compact) holds null for a field another row has
            get = {k: v for k, v in rec.items() if v is not None}
            return cls(label=str(get["label"]), path=tuple(get.get("path", ())), kind=str(get.get("kind", "choice")),
                       options=tuple(Option(o["value"], tuple(o["words"])) for o in get.get("options", ())),
                       names=tuple(get.get("names", ())), max_items=int(get.get("max_items", 0)),
                       tie=str(get.get("tie", "fallback")), keep=get.get("keep"), example=str(get.get("example", "")),
                       count=str(get.get("count", "whole")),
                       offer_keys=_pair(get.get("offer_keys", ("name", "amount"))),
                       item_key=str(get.get("item_key", "")), separators=str(get.get("separators", "")),
                       nothing=str(get.get("nothing", "")),
                       aliases=tuple(str(a) for a in get.get("aliases", ())),
                       notation=str(get.get("notation", "")))
        except (KeyError, TypeError) as exc:
            raise BallotError(f"章节 JSON 里的投票问题格式有误（{exc}）") from exc


@dataclass(frozen=True)
class Illegal:
    """An order a notation refuses: why (Chinese, quoting the reader's text) and the legal choices there were."""

    reason: str
    legal: tuple[str, ...] = ()

    def message(self) -> str:
        """The reason with the legal choices named (at most :data:`LEGAL_SHOWN` of them)."""
        if not self.legal:
            return self.reason
        more = f" 等 {len(self.legal)} 种" if len(self.legal) > LEGAL_SHOWN else ""
        return f"{self.reason}（合法的有：{'、'.join(self.legal[:LEGAL_SHOWN])}{more}）"


LEGAL_SHOWN = 30
"""The most legal choices an illegal order's message names."""

OrderParser: TypeAlias = Callable[[tuple[str, ...]], "tuple[Any, ...] | Illegal"]
"""A notation bound to one ballot: an answer's orders, in order, to their canonical values (one value for every
spelling of one order), or :class:`Illegal` for the first it refuses. Orders are read as a sequence: each may
depend on the ones before (a move changes the position the next is legal in)."""
NotationFactory: TypeAlias = Callable[[Any, "Ballot"], OrderParser]
"""What a ruleset registers for a notation: the parser for a ballot of a campaign (the position it was cast in
comes from the campaign, which the tally has loaded)."""

_NOTATIONS: dict[str, NotationFactory] = {}


def register_notation(name: str, factory: NotationFactory) -> None:
    """Make notation ``name`` (``ball.actions``) readable by the tally: ``factory(campaign, ballot)`` gives the
    parser of that ballot's answers. A ruleset registers its notations when it is imported."""
    _NOTATIONS[name] = factory


def order_parsers(ballot: Ballot, campaign: Any) -> dict[str, OrderParser]:
    """The parser of each question of ``ballot`` that names a registered notation, by label (a notation no
    ruleset registered leaves its question's answers as written: the campaign's check still reads them)."""
    return {q.label: _NOTATIONS[q.notation](campaign, ballot) for q in ballot.questions
            if q.notation and q.notation in _NOTATIONS}


def _orders(items: list[str], orders: OrderParser) -> list[Any]:
    """``items`` read by ``orders``: their canonical values, or the refusal as an :class:`AnswerError`."""
    got = orders(tuple(items))
    if isinstance(got, Illegal):
        raise AnswerError(got.message())
    return list(got)


def _pair(keys: Sequence[Any]) -> tuple[str, str]:
    """An offer's two keys from a record (a list of two strings)."""
    if len(keys) != 2:
        raise TypeError(f"offer_keys must name two keys, got {list(keys)!r}")
    return str(keys[0]), str(keys[1])


class AnswerError(ValueError):
    """A reader's answer to one question cannot be read (its message is Chinese: it goes in the tally's list)."""


@dataclass(frozen=True)
class Ballot:
    """The vote one chapter asks for: the ``key`` readers quote, the ``root`` path in the campaign its result
    is written under, the questions, and the deadline the chapter states."""

    key: str
    root: tuple[str | int, ...]
    questions: tuple[Question, ...]
    deadline: str = ""

    def reply_line(self) -> str:
        """The line a reader copies: ``【安价 s1m4】阵型：A；摊牌：否``."""
        items = "；".join(f"{q.label}：{q.shown()}" for q in self.questions)
        return f"【安价 {self.key}】{items}"

    def question(self, label: str) -> Question | None:
        """The question a reply's ``label`` names (width, spaces, script and :data:`LABEL_ALIASES` forgiven)."""
        want = _fold(label)
        return next((q for q in self.questions if want in _word_forms(q.labels())), None)

    def to_record(self) -> dict[str, Any]:
        """The ballot as published in the chapter's ``vote`` record."""
        return {"key": self.key, "root": list(self.root), "deadline": self.deadline,
                "questions": [q.to_record() for q in self.questions]}

    @classmethod
    def from_record(cls, rec: Mapping[str, Any]) -> Ballot:
        """The ballot :meth:`to_record` published."""
        try:
            return cls(key=str(rec["key"]), root=tuple(rec["root"]), deadline=str(rec.get("deadline", "")),
                       questions=tuple(Question.from_record(q) for q in rec["questions"]))
        except (KeyError, TypeError) as exc:
            raise BallotError(f"章节的投票记录格式有误（{exc}）") from exc


@dataclass(frozen=True)
class Answer:
    """One question answered in one reply."""

    label: str
    value: Any
    text: str


@dataclass(frozen=True)
class Vote:
    """One vote line of one reply for a ballot: the answers read, and the items that could not be read
    (``(text, reason, kind)``: kind ``option`` — the question refused the answer; ``format`` — not an item of
    this ballot; ``repeat`` — the same answer again, counted once; ``ambiguous`` — two different answers to
    one question, neither counted)."""

    line: str
    answers: tuple[Answer, ...]
    problems: tuple[tuple[str, str, str], ...] = field(default=())
    head: str = ""
    """The whole line of the reply the vote starts on, as the reader wrote it."""


LABEL_ALIASES: dict[str, tuple[str, ...]] = {"阵型": ("阵形",)}
"""Labels readers write for a question's label, accepted by every ballot (a question adds its own as
:attr:`Question.aliases`); traditional script needs none (it is folded to simplified)."""

@cache
def _head() -> re.Pattern[str]:
    """The start of a vote line: 【安价 s1m4】 and what readers make of it (安價 is folded to 安价 first).

    This and the other patterns here are compiled on first use: a command that reads no ballot needs none."""
    return re.compile(r"[\[【〔(（]?\s*安\s*价\s*([a-z0-9]+)\s*[\]】〕)）]?\s*[:：]?", re.IGNORECASE)


_NARROW = {**{c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}, 0x3000: 0x20, ord("；"): ord(";")}
"""Full-width ASCII forms to ASCII, one character for one (so offsets still point into the original)."""

@cache
def _fold_out() -> re.Pattern[str]:
    """What comparing two answers ignores: spaces, middle dots (the names' ·, Big5's ‧) and dashes
    (``4-3-3`` is ``4 3 3``)."""
    return re.compile(r"[\s·・‧•∙.\-_–—‐‑−~～]")

_T2S: dict[int, str] = {}
_SEEN: set[str] = set()


@cache
def _opencc(config: str) -> Any:
    """One OpenCC converter per config (loaded on first use)."""
    import opencc

    return opencc.OpenCC(config)


def simplified(text: str) -> str:
    """``text`` with each traditional character in simplified script, one character for one (offsets into
    ``text`` stay valid; OpenCC's Taiwan, Hong Kong and general tables, character by character).

    >>> simplified("【安價 s1m3】陣型：C；老闆：放權")
    '【安价 s1m3】阵型：C；老板：放权'
    """
    new = {c for c in set(text) if ord(c) >= 0x2E80} - _SEEN
    if new:
        tw, hk, t2s = _opencc("tw2s"), _opencc("hk2s"), _opencc("t2s")
        for c in new:
            out = t2s.convert(tw.convert(hk.convert(c)))
            if len(out) == 1 and out != c:
                _T2S[ord(c)] = out
        _SEEN.update(new)
    return text.translate(_T2S) if _T2S else text


def _narrow(text: str) -> str:
    """``text`` folded for finding heads and labels, one character for one: ASCII widths, simplified script."""
    return simplified(text.translate(_NARROW))


def _fold(text: str) -> str:
    """``text`` for comparison: NFKC, simplified script, lower case, without spaces, middle dots and dashes."""
    return _fold_out().sub("", simplified(unicodedata.normalize("NFKC", text))).lower()


@lru_cache(maxsize=4096)
def _word_forms(words: tuple[str, ...]) -> frozenset[str]:
    """``words`` folded, with their traditional forms (OpenCC's phrases: a word may change, not only its
    characters) folded too, so either script matches."""
    out = set()
    for w in words:
        out.add(_fold(w))
        for config in ("s2twp", "s2hk"):
            out.add(_fold(_opencc(config).convert(w)))
    out.discard("")
    return frozenset(out)


def _key(value: Any) -> str:
    """A value compared by content (lists and mappings too)."""
    return repr(value)


def _label_pattern(ballot: Ballot) -> re.Pattern[str]:
    """A known label (any form) where an item starts, in :func:`_narrow` text."""
    forms = {_narrow(f) for q in ballot.questions for w in q.labels()
             for f in (w, _opencc("s2twp").convert(w), _opencc("s2hk").convert(w))}
    forms.discard("")
    return re.compile("|".join(re.escape(f) for f in sorted(forms, key=lambda f: (-len(f), f))), re.IGNORECASE)


def vote_keys(text: str) -> list[str]:
    """The ballot keys the vote lines in ``text`` name, in order (lower case).

    >>> vote_keys("【安价 s1m4】阵型：A\\n安價S1M5 陣型：B")
    ['s1m4', 's1m5']
    """
    return [m.group(1).lower() for m in _head().finditer(_narrow(text))]


def has_head(text: str) -> bool:
    """True when ``text`` holds a vote line's head (【安价 KEY】 in any width or script)."""
    return _head().search(_narrow(text)) is not None


def _line_at(text: str, at: int) -> str:
    """The whole line of ``text`` holding offset ``at``, stripped."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return text[start:end if end >= 0 else len(text)].strip()


def _vote_end(narrow: str, start: int, limit: int, labels: re.Pattern[str]) -> int:
    """Where a vote starting at ``start`` ends (at most ``limit``): its head's line, and each following line
    that starts with one of the ballot's labels (a vote written over several lines); the first other line
    (the reader's own words, the page's chrome) ends it."""
    end = narrow.find("\n", start)
    if end < 0 or end >= limit:
        return limit
    while end < limit:
        nxt = narrow.find("\n", end + 1)
        nxt = limit if nxt < 0 or nxt > limit else nxt
        if not labels.match(narrow[end + 1:nxt].lstrip()):
            return end
        end = nxt
    return limit


def read_votes(text: str, ballot: Ballot, orders: Mapping[str, OrderParser] | None = None) -> list[Vote]:
    """Every vote line for ``ballot`` in a reply's ``text`` (usually one; the tally keeps a reply's last);
    ``orders``: the parsers of the questions that take a notation, by label (:func:`order_parsers`)."""
    narrow = _narrow(text)  # same length as ``text``: problems quote the reader's own characters
    heads = list(_head().finditer(narrow))
    labels = _label_pattern(ballot)
    votes = []
    for i, m in enumerate(heads):
        if m.group(1).lower() != ballot.key.lower():
            continue
        end = _vote_end(narrow, m.end(), heads[i + 1].start() if i + 1 < len(heads) else len(text), labels)
        vote = _read_line(text[m.end():end], narrow[m.end():end], ballot, labels, orders or {})
        votes.append(Vote(vote.line, vote.answers, vote.problems, _line_at(text, m.start())))
    return votes


def loose_lines(text: str, ballot: Ballot) -> list[str]:
    """The lines of ``text`` outside every vote line (of any key) that start with one of ``ballot``'s labels
    and read as at least one answer: a vote without its 【安价 KEY】 head, listed by the tally, never counted."""
    narrow = _narrow(text)
    labels = _label_pattern(ballot)
    out = []
    in_vote = False
    at = 0
    for line in text.split("\n"):
        n = narrow[at:at + len(line)]
        at += len(line) + 1
        if _head().search(n):
            in_vote = True
            continue
        starts = labels.match(n.lstrip()) is not None
        if in_vote and starts:
            continue
        in_vote = False
        if starts and _read_line(line, n, ballot, labels, {}).answers:
            out.append(line.strip())
    return out


@cache
def _chrome_marks() -> re.Pattern[str]:
    """The forum's bold and code marks, which a pasted chapter may carry around its reply line."""
    return re.compile(r"\*\*|\[/?b\]|\[/?code\]|`")


def is_chapter_text(text: str, ballot: Ballot) -> bool:
    """True when ``text`` (a reply) holds the chapter's own vote block: its example reply line, word for
    word, after the block's deadline sentence (截止 …) or its 复制下面这行回复 — the chapter pasted or
    copied with the page, never a reader's vote."""
    folded = _fold(_chrome_marks().sub("", text))
    if _fold(ballot.reply_line()) not in folded:
        return False
    marks = [f"截止{ballot.deadline}"] if ballot.deadline else []
    return any(_fold(m) in folded for m in (*marks, "复制下面这行回复"))


def _items(narrow: str, labels: re.Pattern[str]) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each item in a vote's text: split at ``;`` and line ends, and before a known
    label that follows a space or comma (``阵型：B 老板：放权``, ``阵型B 老板放权``)."""
    spans = []
    for piece in re.finditer(r"[^;\n]+", narrow):
        at = piece.start()
        starts = [at]
        for m in labels.finditer(narrow, at, piece.end()):
            if m.start() > at and narrow[m.start() - 1] in " \t,，、":
                starts.append(m.start())
        for a, b in zip(starts, starts[1:] + [piece.end()], strict=True):
            spans.append((a, b))
    return spans


def _read_line(body: str, narrow: str, ballot: Ballot, labels: re.Pattern[str],
               orders: Mapping[str, OrderParser]) -> Vote:
    """The answers after one vote line's head (its line and the label lines after it)."""
    answers: list[Answer] = []
    problems: list[tuple[str, str, str]] = []
    for start, end in _items(narrow, labels):
        raw = body[start:end]
        item = raw.strip().strip("。.，,、")
        if not item:
            continue
        lead = len(raw) - len(raw.lstrip())
        known = labels.match(narrow, start + lead)
        if known is not None:
            label, rest = item[:known.end() - start - lead], item[known.end() - start - lead:]
            sep_m = re.match(r"\s*[:：=＝]?\s*", rest)
            answer = rest[sep_m.end() if sep_m else 0:]
            q = ballot.question(label)
            if q is None:  # cannot happen: the pattern holds only the ballot's labels
                problems.append((item, f"没有「{label}」这一项", "format"))
                continue
            if not answer.strip():
                problems.append((item, "只有标签，没有答案", "option"))
                continue
        else:
            label, sep, answer = _split_item(item)
            if not sep:
                problems.append((item, "缺少「标签：答案」的冒号", "format"))
                continue
            q = ballot.question(label)
            if q is None:
                problems.append((item, f"没有「{label}」这一项（可投：{'、'.join(x.label for x in ballot.questions)}）",
                                 "format"))
                continue
        try:
            answers.append(Answer(q.label, q.read(answer, orders.get(q.label)), item))
        except AnswerError as exc:
            problems.append((item, str(exc), "option"))
    return Vote(body.strip(), *_one_per_question(answers, problems))


def _one_per_question(answers: list[Answer], problems: list[tuple[str, str, str]]
                      ) -> tuple[tuple[Answer, ...], tuple[tuple[str, str, str], ...]]:
    """One answer per question in one vote: the same answer again is listed and counted once; two different
    answers to one question are listed and neither counts (the reader's intent is not guessed)."""
    by_label: dict[str, list[Answer]] = {}
    for a in answers:
        by_label.setdefault(a.label, []).append(a)
    kept: list[Answer] = []
    for label, given in by_label.items():
        values = {_key(a.value) for a in given}
        if len(values) > 1:
            problems.append(("；".join(a.text for a in given),
                             f"同一票里「{label}」写了 {len(values)} 个不同的答案，这一项不计", "ambiguous"))
            continue
        kept.append(given[0])
        for a in given[1:]:
            problems.append((a.text, f"「{label}」重复写了一次，只计一次", "repeat"))
    order = {a.label: i for i, a in enumerate(answers)}
    return tuple(sorted(kept, key=lambda a: order[a.label])), tuple(problems)


def _split_item(item: str) -> tuple[str, str, str]:
    """``标签：答案`` split at its first colon (``("", "", item)`` when it has none)."""
    m = re.match(r"\s*([^:：]+?)\s*([:：])\s*(.*)", item, re.S)
    if not m:
        return "", "", item
    return m.group(1), m.group(2), m.group(3)


def item_question(item: str, ballot: Ballot) -> Question | None:
    """The question a vote item's label names (None: no colon, or no such label): tells an answer the
    question refused (an unknown option) from an item that is not a vote at all."""
    label, sep, _ = _split_item(item)
    return ballot.question(label) if sep else None


def tie_text(q: Question) -> str:
    """How ``q``'s tie rule reads."""
    return TIE_TEXT[q.tie]


def labels(questions: Sequence[Question]) -> str:
    """The labels of ``questions`` joined for a sentence: ``阵型、老板、摊牌``."""
    return "、".join(q.label for q in questions)


__all__ = ["Answer", "AnswerError", "Ballot", "BallotError", "COUNTS", "COUNT_TEXT", "DEADLINE", "Illegal", "KINDS",
           "LABEL_ALIASES", "LEGAL_SHOWN", "NotationFactory", "Option", "OrderParser", "Question", "SEPARATORS", "TIES",
           "TIE_TEXT", "Vote", "deadline_of", "has_head", "is_chapter_text", "item_question", "labels", "loose_lines",
           "order_parsers", "read_votes", "register_notation", "simplified", "tie_text", "vote_keys"]
