"""Counting a ballot's votes (issue 16): pure functions from replies to a result per question.

The rules, each stated in the tally's output (:data:`RULES`):

- one vote per reader: a reader's last vote line for this ballot that holds at least one readable answer
  counts; their earlier lines are listed as superseded; a line with nothing readable is listed with the
  reasons and does not replace an earlier vote;
- with a deadline (``--until``), a line from a reply after it is listed as late, and a reply without a time
  is listed as undated — neither counts (nothing shows it came in time); without a deadline every reply counts;
- an item that cannot be read is listed with the reply that gave it: an unknown option or name, or an item
  that is not ``标签：答案`` at all; the reply's other answers still count;
- a vote line for another ballot's key is listed as another chapter's;
- per question the plurality wins; a tie follows the question's rule: ``keep`` (the current choice stands if
  it is among the tied, else ``die``), ``die`` (a visible die among the tied, in option order, rolled on a
  stream of the campaign seed named by the ballot key and the question's label: the same replies give the
  same die), ``fallback`` (nothing is written: the rules decide as if no one voted); a list question counted
  ``each`` (transfers) keeps a name more than half of its answerers wrote, at its most-voted amount (a tie:
  the lower).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..ballot import (
    COUNT_TEXT,
    TIE_TEXT,
    Ballot,
    OrderParser,
    Question,
    Vote,
    has_head,
    is_chapter_text,
    loose_lines,
    read_votes,
    vote_keys,
)
from ..dice import Dice
from . import ngadice
from .replies import Reply, Thread

RULES = (
    "每位读者一票：以截止前最后一条能读出答案的投票为准，之前的列为「被后一票取代」；一条也读不出的投票只列出原因，不取代之前的票",
    "一票里每一项只算一个答案：同一个答案重复写只计一次；同一项写了不同的答案，这一项不计（不猜），都列出来",
    "给了截止时间时，截止后的回复和没有时间的回复都单独列出，不计票；没给截止时间时每条回复都计",
    "主持人不投票：楼主（帖子第一楼的作者）的回复、帖子里的章节原文（贴出来的示例回复行）都不计，列出来",
    "引用别人的票不算引用者的票，列为引用；投给别的安价的票、没写【安价】开头的票、页面本身的文字都单独列出",
    "宽容但不猜：全角半角、大小写、空格、繁体简体（安價、陣型、老闆）、分隔符（4-3-3 就是 4 3 3）、漏写的冒号（阵型C）、"
    "常见的别写（阵形）都照读；两个选项都可能的写法、没有的选项或名字、不是「标签：答案」的写法连同回复列出，同一条回复里其余的答案照常计",
    "每一项得票最多的选项胜出；平票按该项的规则处理",
)
"""The counting rules, as the tally's output states them."""


@dataclass(frozen=True)
class Cast:
    """One vote line for the ballot in one reply."""

    reply: Reply
    vote: Vote
    vote_key: str = ""
    """The ballot's key (how the output quotes the line)."""


@dataclass(frozen=True)
class Problem:
    """An item of a vote line that could not be read, or was not counted: ``kind`` ``option`` (the question
    refused the answer), ``format`` (not an item of this ballot), ``repeat`` (the same answer again, counted
    once) or ``ambiguous`` (different answers to one question in one vote, neither counted)."""

    reply: Reply
    item: str
    reason: str
    kind: str


ASIDE = {
    "host": "主持人（楼主）的回复",
    "chapter": "章节原文（示例回复行）",
    "quote": "引用里的票（是被引用者的，不是引用者的）",
    "chrome": "页面本身的文字",
    "outside": "不在任何一楼里的文字",
    "loose": "没写【安价】开头的票",
}
"""Why a line that looks like a vote is not one, in the output's words (:attr:`Aside.kind`)."""


@dataclass(frozen=True)
class Aside:
    """A line that looks like a vote and is not counted, and why (:data:`ASIDE`); ``reply`` is None for
    the page's text outside any reply."""

    reply: Reply | None
    line: str
    kind: str


@dataclass(frozen=True)
class Candidate:
    """One answer given to a question, and who gave it (readers, in file order)."""

    value: Any
    shown: str
    voters: tuple[str, ...]


@dataclass(frozen=True)
class Result:
    """One question counted: its candidates, how many readers answered, and what is written (``decided``)."""

    question: Question
    candidates: tuple[Candidate, ...]
    answered: int
    decided: bool
    value: Any
    how: str
    """How the result came about, in the output's words (the die included, if one was rolled)."""
    die: str = ""
    """The tie die as shown, 「1D2＝1」 (empty: none rolled)."""

    def rule(self) -> str:
        """The question's tie (or count) rule as the output states it."""
        q = self.question
        return COUNT_TEXT[q.count] if q.kind != "choice" and q.count == "each" else TIE_TEXT[q.tie]


@dataclass(frozen=True)
class Count:
    """A ballot counted from a thread's replies."""

    ballot: Ballot
    replies: int
    counted: tuple[Cast, ...]
    superseded: tuple[Cast, ...]
    late: tuple[Cast, ...]
    undated: tuple[Cast, ...]
    unreadable: tuple[Cast, ...]
    """Vote lines with no readable answer (their items are in :attr:`problems`)."""
    problems: tuple[Problem, ...]
    other_keys: tuple[tuple[Reply, str], ...]
    results: tuple[Result, ...]
    set_aside: tuple[Aside, ...] = ()
    """Lines that look like votes and are not (the host's, the chapter's, quotes, the page's, headless)."""
    encoding: str = ""
    """The replies file's encoding (empty: not read from a file)."""
    hosts: tuple[str, ...] = ()
    """The host's names, whose replies never count."""
    dice: tuple[ngadice.Check, ...] = ()
    """Readers' NGA ``[dice]`` rolls recomputed from the saved page (empty: not an NGA page, or no dice)."""

    def decisions(self) -> list[Result]:
        """The questions that write a value."""
        return [r for r in self.results if r.decided]


def shown(q: Question, value: Any) -> str:
    """An answer as the output shows it: ``B. 4 3 3``, ``放权``, ``扬·贝格尔、保罗·穆勒``, ``卡尔·施密特 520,000``."""
    if q.kind == "choice":
        opt = next((o for o in q.options if o.value == value), None)
        if opt is None:
            return str(value)
        word = opt.words[0]
        return f"{word}. {value}" if len(word) == 1 and word.isascii() and word != str(value) else word
    if q.kind == "offers" and isinstance(value, dict):
        name, amount = q.offer_keys
        return f"{value.get(name, '')} {value.get(amount, 0):,}"
    if isinstance(value, list):
        return "、".join(shown(q, v) for v in value)
    return str(value)


def _key(value: Any) -> str:
    """A value as a dictionary key (lists and mappings compared by content)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def tie_die(seed: int, ballot: Ballot, q: Question, n: int) -> tuple[int, str]:
    """The visible die among ``n`` tied answers: its face (1–n) and how it prints, 「1D2＝1」; its stream
    is named by the ballot key and the question's label, so a recount rolls the same face."""
    roll = Dice(seed).roll(f"tally/{ballot.key}/{q.label}", f"1D{n}", f"{q.label}平票")
    return roll.total, f"「{roll.expr}＝{roll.total}」"


def _plurality(q: Question, ballot: Ballot, answers: list[tuple[str, Any]], seed: int) -> Result:
    """A choice (or a whole list answer): the most votes wins, a tie by the question's rule."""
    order: list[str] = []
    values: dict[str, Any] = {}
    voters: dict[str, list[str]] = {}
    if q.kind == "choice":
        for o in q.options:
            k = _key(o.value)
            order.append(k)
            values[k] = o.value
            voters[k] = []
    for author, value in answers:
        k = _key(value)
        if k not in voters:
            order.append(k)
            values[k] = value
            voters[k] = []
        voters[k].append(author)
    cands = tuple(Candidate(values[k], shown(q, values[k]), tuple(voters[k])) for k in order)
    if not answers:
        return Result(q, cands, 0, False, None, "无人投这一项，按规则默认")
    top = max(len(c.voters) for c in cands)
    tied = [c for c in cands if len(c.voters) == top]
    if len(tied) == 1:
        return Result(q, cands, len(answers), True, tied[0].value, f"{tied[0].shown}（{top} 票）")
    names = "、".join(c.shown for c in tied)
    if q.tie == "fallback":
        return Result(q, cands, len(answers), False, None, f"{names} 各 {top} 票平票：按没人投处理，不写入，由规则默认")
    if q.tie == "keep":
        kept = next((c for c in tied if c.value == q.keep), None)
        if kept is not None:
            return Result(q, cands, len(answers), True, kept.value,
                          f"{names} 各 {top} 票平票：当前的选择在平票之列，沿用 {kept.shown}")
    face, die = tie_die(seed, ballot, q, len(tied))
    won = tied[face - 1]
    return Result(q, cands, len(answers), True, won.value,
                  f"{names} 各 {top} 票平票：按选项顺序掷骰 {die} → {won.shown}", die)


def _each(q: Question, answers: list[tuple[str, Any]]) -> Result:
    """A list counted name by name: a name more than half the answerers wrote is kept, at its most-voted
    amount (a tie: the lower); kept names in order of votes, then of first mention."""
    name_key = q.offer_keys[0] if q.kind == "offers" else None
    order: list[str] = []
    voters: dict[str, list[str]] = {}
    amounts: dict[str, dict[int, list[str]]] = {}
    for author, items in answers:
        seen: set[str] = set()
        for item in items:
            name = str(item[name_key]) if name_key else str(item)
            if name in seen:
                continue
            seen.add(name)
            if name not in voters:
                order.append(name)
                voters[name] = []
                amounts[name] = {}
            voters[name].append(author)
            if name_key:
                amounts[name].setdefault(int(item[q.offer_keys[1]]), []).append(author)
    cands: list[Candidate] = []
    kept: list[Any] = []
    for name in sorted(order, key=lambda n: (-len(voters[n]), order.index(n))):
        if name_key:
            by = amounts[name]
            for amount in sorted(by):
                value = {name_key: name, q.offer_keys[1]: amount}
                cands.append(Candidate(value, shown(q, value), tuple(by[amount])))
            if len(voters[name]) * 2 > len(answers):
                best = min(by, key=lambda a: (-len(by[a]), a))
                kept.append({name_key: name, q.offer_keys[1]: best})
        else:
            cands.append(Candidate(name, name, tuple(voters[name])))
            if len(voters[name]) * 2 > len(answers):
                kept.append(name)
    if not answers:
        return Result(q, tuple(cands), 0, False, None, "无人投这一项，按规则默认")
    if not kept:
        return Result(q, tuple(cands), len(answers), False, None,
                      f"没有名字得到超过半数（{len(answers)} 人中）的票：不写入，由规则默认")
    return Result(q, tuple(cands), len(answers), True, kept,
                  f"{shown(q, kept)}（答这一项的 {len(answers)} 人中过半）")


def count_question(q: Question, ballot: Ballot, counted: Sequence[Cast], seed: int) -> Result:
    """One question counted over the votes that count."""
    answers = [(c.reply.author, a.value) for c in counted for a in c.vote.answers if a.label == q.label]
    if q.kind != "choice" and q.count == "each":
        return _each(q, answers)
    return _plurality(q, ballot, answers, seed)


def _heads(text: str) -> list[str]:
    """The lines of ``text`` that hold a vote's head."""
    return [x.strip() for x in text.split("\n") if has_head(x)]


def count_votes(replies: Sequence[Reply], ballot: Ballot, seed: int,
                until: datetime.datetime | None = None, hosts: Sequence[str] = (),
                orders: Mapping[str, OrderParser] | None = None) -> Count:
    """The ballot counted from ``replies`` (in thread order) by the rules of :data:`RULES`; ``hosts``: the
    host's names beside the thread starter and the layout's ``hosts`` (a :class:`Thread` knows those);
    ``orders``: the parsers of the questions that take a ruleset's notation (:func:`~anko_writer.ballot.order_parsers`):
    an illegal order is listed with the legal choices, and each order counts in its canonical form."""
    late: list[Cast] = []
    undated: list[Cast] = []
    unreadable: list[Cast] = []
    problems: list[Problem] = []
    others: list[tuple[Reply, str]] = []
    aside: list[Aside] = []
    by_reader: dict[str, list[Cast]] = {}
    host = list(hosts)
    if isinstance(replies, Thread):
        host += [h for h in (replies.host(), *replies.hosts) if h]
        aside += [Aside(None, line, "outside") for line in replies.outside]
    host = list(dict.fromkeys(host))
    for reply in replies:
        aside += [Aside(reply, line, why) for line, why in reply.set_aside]
        if reply.author in host:
            aside += [Aside(reply, line, "host") for line in _heads(reply.body)]
            continue
        if is_chapter_text(reply.body, ballot):
            aside += [Aside(reply, line, "chapter") for line in _heads(reply.body)]
            continue
        aside += [Aside(reply, line, "loose") for line in loose_lines(reply.body, ballot)]
        for key in dict.fromkeys(vote_keys(reply.body)):
            if key != ballot.key.lower():
                others.append((reply, key))
        for vote in read_votes(reply.body, ballot, orders):
            cast = Cast(reply, vote, ballot.key)
            if until is not None and reply.time is None:
                undated.append(cast)
                continue
            if until is not None and reply.time is not None and reply.time > until:
                late.append(cast)
                continue
            for item, reason, kind in vote.problems:
                problems.append(Problem(reply, item, reason, kind))
            if not vote.answers:
                unreadable.append(cast)
                continue
            by_reader.setdefault(reply.author, []).append(cast)
    counted = sorted((casts[-1] for casts in by_reader.values()), key=lambda c: c.reply.index)
    superseded = sorted((c for casts in by_reader.values() for c in casts[:-1]), key=lambda c: c.reply.index)
    results = tuple(count_question(q, ballot, counted, seed) for q in ballot.questions)
    return Count(ballot, len(replies), tuple(counted), tuple(superseded), tuple(late), tuple(undated),
                 tuple(unreadable), tuple(problems), tuple(others), results, tuple(aside),
                 replies.encoding if isinstance(replies, Thread) else "", tuple(host),
                 replies.dice if isinstance(replies, Thread) else ())


__all__ = ["ASIDE", "Aside", "Candidate", "Cast", "Count", "Problem", "RULES", "Result", "count_question", "count_votes", "shown",
           "tie_die"]
