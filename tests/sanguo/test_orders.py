"""The DATC-style cases of ``orders_cases.yaml``, one parametrized test, and Hypothesis invariants of the
notation (§1.3)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anko_writer.ballot import Illegal
from anko_writer.dice import Dice
from anko_writer.rulesets.sanguo import orders
from anko_writer.rulesets.sanguo.orders import OrderError, canonical, parse
from tests.sanguo.cases import load

CASES = load("orders_cases.yaml")


def plain(v: Any) -> Any:
    """Tuples as lists, for comparing with YAML."""
    if isinstance(v, tuple):
        return [plain(x) for x in v]
    return v


def judge(c: dict[str, Any]) -> None:
    """Judge one case."""
    op = c["op"]
    if op == "parse":
        o = parse(c["text"])
        assert canonical(o) == c["expect"]
        body = {k: plain(v) for k, v in asdict(o.body).items()}
        assert {k: body[k] for k in c.get("fields", {})} == c.get("fields", {})
        assert parse(canonical(o)) == o
    elif op == "same":
        got = [parse(t) for t in c["texts"]]
        assert {canonical(o) for o in got} == {c["expect"]}
        assert all(o == got[0] for o in got)
    elif op == "cost":
        assert orders.cost(parse(c["text"]), troops=c.get("troops", 0), at=c.get("at")) == c["expect"]
    elif op == "pay":
        d = Dice(1)
        if c["die"] is not None:
            d.fix(c["die"])
        s = orders.pay(parse(c["text"]), c["intellect"], d, "k", troops=c.get("troops", 0), at=c.get("at"))
        got = {"cost": s.cost, "die": s.die, "saved": s.saved, "paid": s.paid}
        assert {k: got[k] for k in c["expect"]} == c["expect"]
    elif op == "illegal":
        problem = orders.read(c["text"])
        assert isinstance(problem, Illegal)
        assert c["says"] in problem.reason
        assert list(problem.legal) == c["legal"]
        with pytest.raises(OrderError):
            parse(c["text"])
    else:
        raise AssertionError(f"unknown op {op}")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case: dict[str, Any]) -> None:
    """One case of orders_cases.yaml."""
    judge(case)


def test_read_orders_is_an_order_parser() -> None:
    """The ballot hook's shape: every order read, or the first refusal."""
    got = orders.read_orders(("移 J6", "侦查 F7"))
    assert not isinstance(got, Illegal) and [canonical(o) for o in got] == ["移 J6", "侦查 F7"]
    assert isinstance(orders.read_orders(("移 J6", "冲 J7")), Illegal)


squares = st.builds(lambda c, r: f"{c}{r}", st.sampled_from("ABCDEFGHJK"), st.integers(1, 19))


@given(st.lists(squares, min_size=1, max_size=3), st.one_of(st.none(), squares), st.booleans(),
       st.sampled_from(["", "皇甫嵩 "]))
def test_canonical_reads_back(path: list[str], attack: str | None, charge: bool, who: str) -> None:
    """The canonical form of a move–attack reads back to the same order, also in lower case and full width."""
    text = f"{who}移 {'>'.join(path)}" + (f" 攻 {attack}" if attack else "") + (" 突进" if charge and attack else "")
    o = parse(text)
    assert parse(canonical(o)) == o
    wide = text.lower().translate({i: i + 0xFEE0 for i in range(0x21, 0x7F)})
    assert parse(wide) == o
