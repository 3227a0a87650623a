"""The DATC-style cases of ``legion_cases.yaml``, one parametrized test, and Hypothesis invariants of the
legion rules (R23, R25–R27)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anko_writer.kit.grid import Grid
from anko_writer.rulesets.sanguo import legion
from anko_writer.rulesets.sanguo.combat import strength
from anko_writer.rulesets.sanguo.units import General, Unit, supply_cap
from tests.sanguo.cases import load

GRID = Grid(26, 26, x0=1, y0=1)
"""Square names for the cases: A1 = (1, 1)."""
CASES = load("legion_cases.yaml")


def make_legion(spec: dict[str, Any]) -> legion.Legion:
    """A legion from a case."""
    return legion.Legion("L", spec["leader"], tuple(spec["members"]))


def make_unit(spec: dict[str, Any]) -> Unit:
    """A unit from a case (leader g of 统率 ``command``, default 10)."""
    return Unit(spec["id"], General("g", spec.get("command", 10), 5, 5), kind=spec.get("kind", "infantry"),
                troops=spec.get("troops", 0), ap=spec.get("ap", 0), supplies=spec.get("supplies", 0))


def judge(c: dict[str, Any]) -> None:
    """Judge one legion case."""
    op, expect, lg = c["op"], c["expect"], make_legion(c["legion"])
    if op == "check":
        offsets = [tuple(o) for o in c["offsets"]] if "offsets" in c else None
        at = {k: GRID.coords(v) for k, v in c["at"].items()}
        r = legion.check(lg, at, turn_end=c["turn_end"], offsets=offsets)
        assert {"outside": list(r.outside), "dissolved": r.dissolved} == expect
    elif op == "join":
        joiners = [legion.Joiner(make_unit(j["unit"]), GRID.coords(j["at"]), j.get("acted", False))
                   for j in c["joiners"]]
        ja = legion.joint_attack(lg, lg.leader, strength(*c["attacker"]), GRID.coords(c["target"]), joiners)
        got = [[j.unit, j.joined, j.reason, j.distance, None if j.strength is None else j.strength.total]
               for j in ja.joins]
        assert {"total": ja.total, "joins": got} == expect
    elif op == "pool":
        p = legion.pool_meal(lg, [make_unit(u) for u in c["units"]], supplied=c.get("supplied", 0),
                             night=frozenset(c.get("night", ())))
        pooled = {"need": p.need, "hungry": p.hungry, "pool_after": p.pool_after,
                  "units": [[u.id, u.troops, u.supplies, u.ap] for u in p.units]}
        assert pooled == expect
    elif op == "adjacency":
        assert legion.needs_adjacency(lg, c["giver"], c["taker"]) == expect
    else:
        raise AssertionError(f"unknown op {op}")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case: dict[str, Any]) -> None:
    """One numbered case: its judgement is the expected one."""
    judge(case)


@given(st.integers(0, 60), st.lists(st.integers(0, 20), min_size=1, max_size=6))
def test_split_keeps_the_pool_within_caps(pool: int, caps: list[int]) -> None:
    """R27: the split hands out min(pool, Σ cap), never above a unit's cap."""
    named = [(f"u{i}", c) for i, c in enumerate(caps)]
    shares = legion.split(pool, named, "u0")
    assert sum(s for _, s in shares) == min(pool, sum(caps))
    assert all(0 <= s <= c for (_, s), (_, c) in zip(shares, named, strict=True))


@given(st.lists(st.tuples(st.integers(0, 10), st.integers(0, 20)), min_size=3, max_size=6),
       st.integers(0, 20))
def test_pool_meal_conserves_food(specs: list[tuple[int, int]], supplied: int) -> None:
    """R27 with R20: each unit keeps at least half its 兵力; the pool split back is what was left, and no
    unit ends above its caps."""
    us = [Unit(f"u{i}", General("g", 10, 5, 5), troops=t, ap=0, supplies=min(s, supply_cap(t)))
          for i, (t, s) in enumerate(specs)]
    lg = legion.Legion("L", "u0", tuple(u.id for u in us))
    p = legion.pool_meal(lg, us, supplied=supplied)
    before = {u.id: u.troops for u in us}
    assert all(before[u.id] // 2 <= u.troops <= before[u.id] and u.breaches() == () for u in p.units)
    assert sum(u.supplies for u in p.units) == p.pool_after
    assert p.hungry == max(0, p.need - supplied - p.pool_before)
