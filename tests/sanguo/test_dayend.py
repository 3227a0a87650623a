"""The DATC-style cases of tests/sanguo/dayend_cases.yaml (R38's day end), and an invariant of the day end."""

from __future__ import annotations

from typing import Any

import pytest

from anko_writer.rulesets.sanguo import dayend
from anko_writer.rulesets.sanguo.legion import Legion
from anko_writer.rulesets.sanguo.supply import Request
from anko_writer.rulesets.sanguo.units import General, Unit
from tests.sanguo.cases import board, load, pieces

CASES = load("dayend_cases.yaml")
SIDE = "汉军"
"""The side whose day end every case judges."""


def run(case: dict[str, Any]) -> dayend.DayEnd:
    """The case's day end."""
    b = board(case)
    specs = [dict(u, side=u.get("side", SIDE)) for u in case["units"]]
    ps = pieces(b, {"units": specs})
    own = [s for s in specs if s["side"] == SIDE]
    units = [Unit(s["id"], General("g", s.get("command", 10), 5, 5), troops=s["troops"], ap=s["ap"],
                  supplies=s["supplies"]) for s in own]
    at = {s["id"]: b.sq(s["at"]) for s in own}
    by = {u.id: u for u in units}
    reqs = [Request(r["unit"], b.sq(r["at"]), by[r["unit"]].troops, r["source"]) for r in case.get("requests", ())]
    legions = [Legion(g["id"], g["leader"], tuple(g["members"])) for g in case.get("legions", ())]
    return dayend.day_end(1, b, SIDE, units, at, pieces=ps, requests=reqs, legions=legions,
                          night=frozenset(case.get("night", ())), pending=case.get("pending"))


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_dayend_case(case: dict[str, Any]) -> None:
    """One case: run the day end and compare each step's results asked for."""
    d = run(case)
    expect = case["expect"]
    if "steps" in expect:
        assert list(d.steps) == expect["steps"] == list(dayend.STEPS)
    sup = {s.unit: s for s in d.supply}
    for uid, want in expect.get("supply", {}).items():
        got = {k: getattr(sup[uid], k) for k in want if k != "line_ok"}
        if "line_ok" in want:
            line = sup[uid].line
            got["line_ok"] = None if line is None else line.ok
        assert got == want, uid
    pools = {p.legion: p for p in d.pooling}
    for lid, want in expect.get("pooling", {}).items():
        got = {"members": list(pools[lid].members), "pool": pools[lid].pool, "need": pools[lid].need}
        assert {k: got[k] for k in want} == want
    after = {u.id: [u.troops, u.ap, u.supplies] for u in d.units}
    assert {k: after[k] for k in expect.get("units", {})} == expect.get("units", {})
    ap = {r.unit: r.reason for r in d.ap}
    assert {k: ap[k] for k in expect.get("ap", {})} == expect.get("ap", {})
    clamps = {c.unit: c for c in d.clamps}
    for uid, want in expect.get("clamps", {}).items():
        assert {k: getattr(clamps[uid], k) for k in want} == want
    stores = {s.stronghold: [s.before, s.supplied, s.after] for s in d.stores}
    assert {k: stores[k] for k in expect.get("stores", {})} == expect.get("stores", {})
    assert all(d.board.stronghold(s.stronghold).store == s.after <= s.cap for s in d.stores)
    assert all(u.breaches() == () for u in d.units)
