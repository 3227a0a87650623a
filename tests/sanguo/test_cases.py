"""The DATC-style cases of ``units_cases.yaml`` and ``combat_cases.yaml``, one parametrized test each, and
Hypothesis invariants of the same rules."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, is_dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anko_writer.dice import Dice
from anko_writer.kit.grid import Grid, chebyshev, manhattan
from anko_writer.rulesets.sanguo import combat, units
from anko_writer.rulesets.sanguo.units import General, Unit
from tests.sanguo.cases import load

GRID = Grid(26, 26, x0=1, y0=1)
"""Square names for the cases: A1 = (1, 1)."""



def make_unit(spec: dict[str, Any]) -> Unit:
    """A unit from a case's setup (generals named g0, d1, d2 …, adviser a)."""
    leader = General("g0", spec.get("command", 10), 5, spec.get("intellect", 5))
    deputies = tuple(General(f"d{i}", 5, 5, v) for i, v in enumerate(spec.get("deputies", []), 1))
    adviser = General("a", 5, 5, spec["adviser"]) if "adviser" in spec else None
    return Unit("u", leader, deputies, adviser, spec.get("kind", "infantry"), spec.get("troops", 0),
                spec.get("ap", 0), spec.get("supplies", 0))


def fields(record: object) -> dict[str, Any]:
    """A record's fields, plus its ``die``, for comparing with a case's expectation."""
    assert is_dataclass(record) and not isinstance(record, type)
    out = {k: getattr(record, k) for k in asdict(record)}
    if hasattr(record, "die"):
        out["die"] = record.die
    return out


def subset(expect: dict[str, Any], got: dict[str, Any]) -> None:
    """Every expected key holds its expected value."""
    assert {k: got[k] for k in expect} == expect


def fixed(die: int | None) -> Dice:
    """Dice whose next face is ``die``."""
    d = Dice(1)
    if die is not None:
        d.fix(die)
    return d


def sq(name: str | None) -> Any:
    """A square name as a grid tuple."""
    return None if name is None else GRID.coords(name)


def units_case(c: dict[str, Any]) -> None:
    """Judge one units case."""
    op, expect = c["op"], c["expect"]
    if op in ("ap_cap", "supply_cap"):
        assert getattr(units, op)(c["troops"]) == expect
    elif op == "with_troops":
        ch = make_unit(c["unit"]).with_troops(c["troops"])
        got = {"troops": ch.unit.troops, "ap": ch.unit.ap, "supplies": ch.unit.supplies, **fields(ch)}
        subset(expect, got)
    elif op == "gain_supplies":
        subset(expect, fields(make_unit(c["unit"]).gain_supplies(c["amount"])))
    elif op == "breaches":
        assert [[b.rule, b.field, b.value, b.limit] for b in make_unit(c["unit"]).breaches()] == expect
    elif op == "intellect":
        assert make_unit(c["unit"]).intellect == expect
    elif op == "save_ap":
        d = fixed(c["die"])
        s = units.save_ap(c["order"], c["cost"], c["intellect"], d, "s")
        subset(expect, fields(s))
        assert len(d.log) == (0 if expect["die"] is None else 1)
    elif op == "meal":
        m = units.meal(make_unit(c["unit"]), supplied=c.get("supplied", 0), night=c.get("night", False))
        subset(expect, fields(m))
        assert (m.unit.troops, m.unit.supplies, m.unit.ap) == (m.troops_after, m.supplies_after, m.ap_after)
    elif op == "legion_cap":
        assert units.legion_cap(c["command"]) == expect
    elif op == "legion_breaches":
        found = units.legion_breaches(c["command"], c["units"])
        assert [[b.rule, b.field, b.value, b.limit] for b in found] == expect
    else:
        raise AssertionError(f"unknown op {op}")


def combat_case(c: dict[str, Any]) -> None:
    """Judge one combat case."""
    op, expect = c["op"], c["expect"]
    if op == "judge":
        d = fixed(c["die"])
        h = combat.judge(c["a"], c["d"], d, "h", surprise=c.get("surprise", False))
        subset(expect, fields(h))
        assert len(d.log) == (1 if h.band in ("low", "high") else 0)
    elif op == "unit_strength":
        mods = [(n, v) for n, v in c.get("modifiers", [])]
        subset(expect, fields(combat.unit_strength(make_unit(c["unit"]), cost=c["cost"] if "cost" in c else 0,
                                                   modifiers=mods)))
    elif op == "defence_modifiers":
        a, df = c["attacker"], c["defender"]
        mods_got = combat.defence_modifiers(attacker_kind=a["kind"], attacker_terrain=a["terrain"],
                                       attacker_stronghold=a.get("stronghold"), defender_terrain=df["terrain"],
                                       defender_stronghold=df.get("stronghold"), defender_level=df.get("level", 0))
        assert [list(m) for m in mods_got] == expect
    elif op == "attack_total":
        main = combat.strength(*c["attacker"])
        assert combat.attack_total(main, [combat.strength(*j) for j in c["joiners"]]) == expect
    elif op == "gate_strength":
        subset(expect, fields(combat.gate_strength(c["defence"], c["level"])))
    elif op == "settle":
        att, dmg = combat.settle(make_unit(c["attacker"]), make_unit(c["defender"]),
                                 combat.Hit(0, 1, "crush", None, c["dealt"], False, 0, c["dealt"]))
        got = {"troops": dmg.unit.troops, "ap": dmg.unit.ap, "supplies": dmg.unit.supplies,
               "attacker_supplies": att.supplies, **fields(dmg)}
        subset(expect, got)
    elif op == "charge":
        blocked = {sq(b) for b in c.get("blocked", [])}
        ch = combat.charge(sq(c["m"]), sq(c["a"]), sq(c["t"]), dealt=c["dealt"], blocked=blocked.__contains__)
        got = fields(ch)
        got["landing"] = None if ch.landing is None else GRID.name(ch.landing)
        got["to"] = GRID.name(ch.to)
        subset(expect, got)
    else:
        raise AssertionError(f"unknown op {op}")


CASES: list[tuple[Callable[[dict[str, Any]], None], dict[str, Any]]] = (
    [(units_case, c) for c in load("units_cases.yaml")] + [(combat_case, c) for c in load("combat_cases.yaml")])


@pytest.mark.parametrize(("judge", "case"), CASES, ids=[c["id"] for _, c in CASES])
def test_case(judge: Callable[[dict[str, Any]], None], case: dict[str, Any]) -> None:
    """One numbered case: its judgement is the expected one."""
    judge(case)


@given(st.integers(0, 40))
def test_ap_cap_never_above_troops_and_grows(troops: int) -> None:
    """R9: the cap is at most 兵力 and never falls as 兵力 grows."""
    assert units.ap_cap(troops) <= troops
    assert units.ap_cap(troops) <= units.ap_cap(troops + 1)


@given(st.integers(0, 40), st.integers(1, 40), st.integers(1, 3))
def test_damage_grows_with_attack(a: int, d: int, die: int) -> None:
    """R16: for the same die, more attack strength never deals less damage, and damage is ≥ 0."""
    lo = combat.judge(a, d, fixed(die), "h").damage
    hi = combat.judge(a + 1, d, fixed(die), "h").damage
    assert 0 <= lo <= hi


@given(st.integers(1, 15), st.integers(0, 40), st.integers(0, 20), st.booleans())
def test_meal_never_grows_and_halves_at_worst(troops: int, supplies: int, supplied: int, night: bool) -> None:
    """R20: a meal never adds 兵力, and at worst halves it; the unit stays within its caps."""
    u = Unit("u", General("g", 15, 5, 5), troops=troops, ap=units.ap_cap(troops),
             supplies=min(supplies, 2 * troops))
    m = units.meal(u, supplied=supplied, night=night)
    assert troops // 2 <= m.troops_after <= troops
    assert m.unit.breaches() == ()


SQUARES = st.tuples(st.integers(3, 20), st.integers(3, 20))
STEPS = st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1)])
KING_STEPS = st.sampled_from([(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy])


@given(SQUARES, STEPS, KING_STEPS)
def test_landing_is_next_to_the_target_away_from_the_move(a: tuple[int, int], d: tuple[int, int],
                                                           back: tuple[int, int]) -> None:
    """R22: the landing square is orthogonally next to T, never A, and no nearer M than T is."""
    t = (a[0] + d[0], a[1] + d[1])
    m = (a[0] + back[0], a[1] + back[1])
    if m == t:
        return
    land = combat.landing(m, a, t)
    assert manhattan(land, t) == 1 and land != a
    assert chebyshev(land, m) >= chebyshev(t, m)
