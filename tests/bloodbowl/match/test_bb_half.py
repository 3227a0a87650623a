"""The half loop: the §12 record, determinism, invariants (Hypothesis) and statistics over many halves."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as hs

from anko_writer.dice import Dice
from anko_writer.rulesets.bloodbowl.match import ai
from anko_writer.rulesets.bloodbowl.match.api import play_half
from anko_writer.rulesets.bloodbowl.match.model import State

from .scen import half

ROLL_KEYS = {"kind", "player", "dice", "modifiers", "target", "success"}
BLOCK_KEYS = {"attacker_st", "defender_st", "assists", "dice_count", "chooser", "faces", "chosen"}


def test_record_has_the_design_fields_and_keys() -> None:
    """DESIGN §12: teams, turns with actions and ROLLs; every roll's key starts with the half's key."""
    d = Dice(5)
    res = play_half(half(key="s1/r2/h1"), d)
    rec = res.record
    for k in ("teams", "turns", "kickoffs", "score", "attacks", "diagrams", "casualties", "sealed"):
        assert k in rec
    for t in rec["teams"]:  # type: ignore[attr-defined]
        for p in t["players"]:
            assert {"id", "name", "position", "MA", "ST", "AG", "AV", "skills", "state"} <= set(p)
    for t in rec["turns"]:  # type: ignore[attr-defined]
        assert {"half", "turn", "team", "actions", "turnover", "score"} <= set(t) and 1 <= t["turn"] <= 8
        for a in t["actions"]:
            assert {"player", "kind", "path", "rolls", "turnover"} <= set(a)
            for r in a["rolls"]:
                assert ROLL_KEYS <= set(r)
                if r["kind"] == "block":
                    assert BLOCK_KEYS <= set(r)
                if r["kind"] in ("armour", "injury", "casualty"):
                    assert {"total", "result"} <= set(r)
    assert all(r.id.startswith("s1/r2/h1/") for r in d.log)
    assert all(len(row) == 26 for dg in rec["diagrams"] for row in dg["rows"])  # type: ignore[attr-defined]


def test_same_seed_same_record() -> None:
    """Same input, same seed: the identical record (speed is measured in benchmarks/rulesets.py)."""
    a = play_half(half(), Dice(9))
    b = play_half(half(), Dice(9))
    assert json.dumps(a.record, sort_keys=True) == json.dumps(b.record, sort_keys=True)


def test_eight_turns_each_and_half_two_carry() -> None:
    """Each team plays turns 1–8 (a Riot may shift them); half 2 starts from half 1's carry."""
    r1 = play_half(half(), Dice(11))
    turns = Counter(t["side"] for t in r1.record["turns"])  # type: ignore[attr-defined]
    assert 7 <= turns["home"] <= 9 and 7 <= turns["away"] <= 9
    h2 = half(half_no=2, key="s1/r1/h2")
    h2.carry = r1.carry
    h2.score = r1.score
    r2 = play_half(h2, Dice(11))
    assert r2.score[0] >= r1.score[0] and r2.score[1] >= r1.score[1] and r2.carry == {}
    out = r1.carry["out"]
    for t in r2.record["teams"]:  # type: ignore[attr-defined]
        for p in t["players"]:
            if out.get(p["id"]) in ("casualty", "dead"):  # type: ignore[union-attr]
                assert p["state"] in ("casualty", "dead")


def _check(st: State) -> None:
    """At most one player per square, players on the pitch or in the dug-out, the ball in one place."""
    seen = set()
    for p in st.players.values():
        if p.sq is None:
            assert p.state in ("reserve", "ko", "casualty", "dead")
        else:
            assert p.state in ("standing", "prone", "stunned") and 1 <= p.sq[0] <= 26 and 1 <= p.sq[1] <= 15
            assert p.sq not in seen and st.grid[p.sq] == p.id
            seen.add(p.sq)
    assert len(st.grid) == len(seen)
    if st.ball.carrier is not None:
        c = st.players[st.ball.carrier]
        assert st.ball.sq is None and c.sq is not None and c.state == "standing"
    else:
        assert st.ball.sq is not None


@settings(max_examples=8, deadline=None)
@given(hs.integers(min_value=0, max_value=10**6))
def test_invariants_after_every_action(seed: int) -> None:
    """Hypothesis: after every action of a half the pitch is legal."""
    original = ai.Actions._run

    def checked(self: ai.Actions, p, kind, body, *more, **named):  # noqa: ANN001, ANN002, ANN003, ANN202
        ok = original(self, p, kind, body, *more, **named)
        _check(self.st)
        return ok
    ai.Actions._run = checked  # type: ignore[method-assign]
    try:
        play_half(half(key=f"h{seed}"), Dice(seed))
    finally:
        ai.Actions._run = original  # type: ignore[method-assign]


def test_statistics_over_many_halves() -> None:
    """Over 64 halves (32 matches; each pairing of the four rosters and of the four styles) TDs and
    casualties per match are in Blood Bowl's range, and block dice show each face as often as the die has it."""
    races = ["human", "orc", "dwarf", "skaven"]
    styles = ["cage", "bash", "pass", "kill_thrower"]
    tds = cas = 0
    faces: Counter[str] = Counter()
    one_die: Counter[str] = Counter()
    n = 64
    for i in range(n):
        plans = {"home": {"style": styles[i % 4]}, "away": {"style": styles[(i // 4) % 4]}}
        r = play_half(half(races[i % 4], races[(i // 4) % 4], key=f"st{i}", plans=plans), Dice(i))
        tds += sum(r.score)
        cas += len(r.record["casualties"])  # type: ignore[arg-type]
        for t in r.record["turns"]:  # type: ignore[attr-defined]
            for a in t["actions"]:
                for ro in a["rolls"]:
                    if ro["kind"] == "block":
                        faces.update(ro["faces"])
                        if ro["dice_count"] == 1:
                            one_die[ro["chosen"]] += 1
    matches = n / 2
    assert 1.0 <= tds / matches <= 5.0
    assert 0.5 <= cas / matches <= 4.0
    total = sum(faces.values())
    for f, share in (("attacker_down", 1 / 6), ("both_down", 1 / 6), ("push", 2 / 6),
                     ("defender_stumbles", 1 / 6), ("defender_down", 1 / 6)):
        assert abs(faces[f] / total - share) < 0.02
    ones = sum(one_die.values())
    assert abs(one_die["push"] / ones - 1 / 3) < 0.06 and abs(one_die["attacker_down"] / ones - 1 / 6) < 0.05
