"""Free-text orders (issue 23): a text question may name a ruleset's notation; the tally reads each answer
through the parser the ruleset registered, so two spellings of one order are one answer (in the canonical
form), and an illegal order is listed with the legal choices named. Fixed ballots, a fake notation in the
style of 三国's orders (``移 J6 攻 J7``)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from anko_writer.ballot import Ballot, BallotError, Illegal, Question, order_parsers, read_votes, register_notation
from anko_writer.tally.count import count_votes
from anko_writer.tally.replies import Reply

LEGAL = ("移 J6", "移 K5", "攻 J7", "突进")
"""The orders the fake position allows."""


def _orders(campaign: Any, ballot: Ballot) -> Any:
    """The fake notation: ``移J6`` and ``移 j6`` are ``移 J6``; anything else is refused with the legal orders."""
    def parse(items: tuple[str, ...]) -> tuple[Any, ...] | Illegal:
        out = []
        for text in items:
            canon = re.sub(r"^(移|攻)\s*", r"\1 ", text.strip().upper())
            if canon not in LEGAL:
                return Illegal(f"「{text}」不是这时的合法指令", LEGAL)
            out.append(canon)
        return tuple(out)
    return parse


register_notation("test.orders", _orders)
ORDERS = Question("指令", ("orders",), "text", max_items=3, example="移 J6、攻 J7", notation="test.orders")
BALLOT = Ballot("j1r2", ("decisions", "j1r2"), (ORDERS,), deadline="下一帖发出之前")


def _replies(*lines: tuple[str, str]) -> list[Reply]:
    return [Reply(author, None, str(i + 2), body, i + 1, i + 1) for i, (author, body) in enumerate(lines)]


def test_the_notation_travels_in_the_ballot_record() -> None:
    rec = BALLOT.to_record()
    assert rec["questions"][0]["notation"] == "test.orders"
    assert Ballot.from_record(rec) == BALLOT
    with pytest.raises(BallotError, match="只有 text 问题可以带 notation"):
        Question("阵型", (), "names", notation="test.orders")


def test_two_spellings_of_one_order_count_as_one_answer_and_an_illegal_one_is_listed() -> None:
    count = count_votes(_replies(("小明", "【安价 j1r2】指令：移 J6、攻 J7"),
                                 ("阿红", "【安价 j1r2】指令：移j6，攻j7"),
                                 ("老王", "【安价 j1r2】指令：移 Z9"),
                                 ("小李", "【安价 j1r2】指令：突进")),
                        BALLOT, 1, orders=order_parsers(BALLOT, None))
    (result,) = count.results
    assert [(c.value, c.voters) for c in result.candidates] == [(["移 J6", "攻 J7"], ("小明", "阿红")),
                                                               (["突进"], ("小李",))]
    assert result.decided and result.value == ["移 J6", "攻 J7"]
    (problem,) = count.problems
    assert problem.reply.author == "老王" and problem.kind == "option"
    assert problem.reason == "「移 Z9」不是这时的合法指令（合法的有：移 J6、移 K5、攻 J7、突进）"
    assert [c.reply.author for c in count.unreadable] == ["老王"]


def test_without_the_rulesets_parser_the_items_stay_as_written() -> None:
    """Reading a ballot without its campaign (no parser): the text as typed, checked later by the schema."""
    (vote,) = read_votes("【安价 j1r2】指令：移j6", BALLOT)
    assert [a.value for a in vote.answers] == [["移j6"]]
    assert order_parsers(Ballot("k", (), (Question("x", (), "text", notation="nobody.registered"),)), None) == {}


def test_an_illegal_order_names_at_most_thirty_legal_choices() -> None:
    many = tuple(f"移 A{i}" for i in range(40))
    text = Illegal("「移 Z9」不合法", many).message()
    assert "移 A29" in text and "移 A30" not in text and text.endswith("等 40 种）")
    assert Illegal("「移 Z9」不合法").message() == "「移 Z9」不合法"
