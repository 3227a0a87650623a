"""Issue 29 round 7: the match engine's shortcuts against the code they replaced (000 §3.4, §5.1, §5.3, §5.7):
the same line-ups, records and dice in the same order."""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.dice import Dice
from anko_writer.rulesets.purasbar.match import engine
from anko_writer.rulesets.purasbar.match.abilities import PERCENT
from anko_writer.rulesets.purasbar.match.engine import YOUNG_AGE, play, recoveries
from anko_writer.rulesets.purasbar.match.formations import FORMATIONS
from anko_writer.rulesets.purasbar.match.injuries import CHECK_MINUTES, WEEKS_TABLE, injury_risk, minutes_played
from anko_writer.rulesets.purasbar.match.inplay import HALF_TIME, break_before
from anko_writer.rulesets.purasbar.match.lineup import SLOTS, assign, pick_lineup, stand_in_cost
from anko_writer.rulesets.purasbar.match.side import Plan, Side
from anko_writer.rulesets.purasbar.models import MAIN, Club, Player
from tests.choices import Choices, built
from tests.purasbar.match.test_engine_fast5 import COACH, _squad
from tests.util import club, no_reveal, player

FORMS = st.sampled_from(sorted(FORMATIONS))


def _best_own_5ac80d2(own: list[tuple[int, Player]], slot: str, formation: str, rest_below: int,
                      count: int) -> list[tuple[int, Player]]:
    """lineup._best_own as of 5ac80d2 (the reference the one-pass pick_lineup is checked against)."""
    if len(own) <= 1:
        return own[:count]
    attr = MAIN[slot]
    pct = PERCENT[formation].get(attr)
    ranked = []
    for i, p in own:
        attrs = p.attrs
        if not attrs:
            ranked.append((0, 0, 0, i, p))
            continue
        value = attrs[attr]
        if pct is not None:
            value = value * pct // 100
        stamina = p.stamina
        if stamina < 50:
            value = value * 4 // 5 if stamina >= 30 else value * 3 // 5
        ranked.append((1, int(stamina < rest_below), -value if value > 0 else 0, i, p))
    ranked.sort()
    return [(x[3], x[4]) for x in ranked[:count]]


def _pick_lineup_5ac80d2(c: Club, formation: str, rest_below: int = 0) -> dict[str, list[Player]]:
    """lineup.pick_lineup as of 5ac80d2."""
    pool = [(i, p) for i, p in enumerate(c.players) if p.injured_weeks == 0]
    by_position: dict[str, list[tuple[int, Player]]] = {s: [] for s in SLOTS}
    for x in pool:
        if x[1].position in by_position:
            by_position[x[1].position].append(x)
    counts = FORMATIONS[formation].counts()
    lineup: dict[str, list[Player]] = {}
    chosen: set[int] = set()
    for slot in SLOTS:
        own = _best_own_5ac80d2(by_position[slot], slot, formation, rest_below, counts[slot])
        chosen.update(i for i, _ in own)
        lineup[slot] = [p for _, p in own]
    open_slots = [s for s in SLOTS for _ in range(counts[s] - len(lineup[s]))]
    free = [(i, p) for i, p in pool if i not in chosen and p.attrs]
    if open_slots and free:
        open_slots = open_slots[: len(free)]
        cost = [[stand_in_cost(p, s, formation, i, rest_below) for i, p in free] for s in open_slots]
        for s, j in zip(open_slots, assign(cost), strict=True):
            lineup[s].append(free[j][1])
    return lineup


def _play(spec: tuple[dict[str, Any], dict[str, Any]], seed: int, competition: str, lean: bool,
          bonus: int = 0) -> tuple[str, str, str]:
    """The match of ``spec`` (test_engine_fast5's squads) on fresh copies of its players: its record, its dice
    log and every player's stamina, age and injury afterwards, as JSON."""
    sides = []
    for s, venue in zip(spec, (2, -2), strict=True):
        fresh = {p.name: player(p.name, p.position, atk=p.attrs["ATK"], df=p.attrs["DEF"], mid=p.attrs["MID"],
                                gk=p.attrs["GK"], age=p.age, stamina=p.stamina, core=p.core) for p in s["players"]}
        c = club(s["players"][0].name[0], list(fresh.values()), s["formation"], morale=s["morale"])
        c.coach = COACH  # the AI's half-time check (§7.4) needs one
        line = {slot: [fresh[p.name] for p in group] for slot, group in s["lineup"].items()}
        sides.append(Side(c, s["formation"], line, venue, Plan(COACH, sub_below=s["sub_below"])))
    dice = Dice(seed)
    rec = play(dice, "m/甲-乙", sides[0], sides[1], competition=competition, round_no=1, neutral=False,
               reveal=no_reveal, lean=lean, risk_bonus=bonus, week=3)
    after = [(p.name, p.stamina, p.injured_weeks) for s in sides for p in s.club.players]
    return (json.dumps(rec, ensure_ascii=False), json.dumps([list(r) for r in dice.log], ensure_ascii=False),
            json.dumps(after, ensure_ascii=False))


POSITIONS = ("GK", "DF", "MF", "FW", "GK", "XX")
WEEKS = (0, 0, 0, 1, 3)


def squad_of(ch: Choices) -> Club:
    """A squad of 0–20 players: any position (and an odd one), rolled or not, injured or not, any stamina."""
    players = []
    for i in range(ch.integer(0, 20)):
        p = player(f"p{i}", ch.pick(POSITIONS), atk=ch.integer(-5, 99), df=ch.integer(-5, 99),
                   mid=ch.integer(-5, 99), gk=ch.integer(-5, 99), stamina=ch.integer(0, 100), core=ch.flip())
        if ch.integer(0, 4) == 0:
            p.attrs = {}  # an AI core player not yet rolled
        p.injured_weeks = ch.pick(WEEKS)
        players.append(p)
    return club("队", players)


_club = built(squad_of, size=1 + 20 * 9)
""":func:`squad_of` of one draw of bytes, a byte a choice (tests.choices: 400 clubs drawn player by player were
90 % Hypothesis's own bookkeeping, issue 29)."""


@settings(max_examples=400, deadline=None)
@given(_club, FORMS, st.sampled_from([0, 30, 50, 60, 101]))
def test_one_pass_pick_lineup_is_the_old_one(c: Club, formation: str, rest_below: int) -> None:
    """000 §3.4, §7.1: the one-pass ranking picks the same players in the same order in every slot as the
    per-position _best_own of 5ac80d2, stand-ins and short squads included (the order decides the §5.1.2
    shooter draw)."""
    got: dict[str, Any] = {s: [id(p) for p in ps] for s, ps in pick_lineup(c, formation, rest_below).items()}
    want = {s: [id(p) for p in ps] for s, ps in _pick_lineup_5ac80d2(c, formation, rest_below).items()}
    assert got == want
    assert list(got) == list(want)


def _after_5ac80d2(ctx: Any, side: Any, match_no: int, rows: list[Any]) -> None:
    """engine._after as of 5ac80d2: each §5.7.1 check through post_match_check."""
    c = side.club
    by_name = {p.name: p for p in c.players}
    forced = {id(q) for _, q in side.forced_off}
    for row in rows:
        p = by_name[row["name"]]
        row["stamina_end"] = p.stamina
        minutes = row["minutes"] = minutes_played(row["slices"])
        if minutes <= CHECK_MINUTES or (forced and id(p) in forced):
            continue
        rec = _post_match_check_5ac80d2(ctx.dice, ctx.key, p, minutes, p.stamina, c.doctor, ctx.week,
                                        ctx.risk_bonus, keep_clean=not ctx.lean)
        if rec is not None:
            rec.update({"team": c.name, "kind": "post_match"})
            ctx.records["injuries"].append(rec)
            if c.infirmary is not None and rec.get("out_until_week") is not None:
                c.infirmary.apply(p, rec)
    young, other = recoveries(c, match_no)
    for row in rows:
        p = by_name[row["name"]]
        left = p.stamina + (young if (p.age or 0) <= YOUNG_AGE else other)
        p.stamina = row["recovered"] = left if left < 100 else 100
    if side.adapting:
        c.adapt_left = max(0, c.adapt_left - 1)
    c.morale -= side.morale_gained


def _post_match_check_5ac80d2(dice: Dice, key: str, p: Player, minutes: int, stamina_after: int,
                              doctor_level: int, week: int, bonus: int = 0, keep_clean: bool = True) -> Any:
    """injuries.post_match_check as of 5ac80d2 (risk and record in one function)."""
    if minutes <= CHECK_MINUTES:
        return None
    roll = dice.roll(key, "1D100", f"{p.name} 伤病抽检")
    risk = injury_risk(p.age or 0, stamina_after) + bonus
    if roll.total > risk:
        if not keep_clean:
            return None
        return {"player": p.name, "week": week, "minutes": minutes, "stamina_after": stamina_after,
                "risk": risk, "roll": roll.total, "injured": False}
    r = dice.roll(key, "1D6", f"{p.name} 缺阵周数")
    weeks = max(1, WEEKS_TABLE[r.total] - doctor_level)
    return {"player": p.name, "week": week, "roll": roll.total, "weeks_roll": r.total,
            "weeks_table": WEEKS_TABLE[r.total], "doctor": doctor_level, "weeks": weeks, "out_until_week": week + weeks,
            "rolls": [roll.to_json(), r.to_json()], "minutes": minutes, "stamina_after": stamina_after, "risk": risk,
            "injured": True}


@settings(max_examples=60, deadline=None)
@given(_squad("甲"), _squad("乙"), st.integers(0, 10**6), st.sampled_from(["league", "knockout"]), st.booleans(),
       st.integers(0, 30))
def test_the_inlined_checks_play_as_post_match_check(home: dict[str, Any], away: dict[str, Any], seed: int,
                                                     competition: str, lean: bool, bonus: int) -> None:
    """000 §5.7.1, §5.6: the post-match checks inlined in _after (risk, die, a lean match's clean check dropped at
    the die, the record built by check_record) give the record and the dice log, purposes and all, that every
    check through the old post_match_check gave, published and lean, with any §6.4.3 risk bonus."""
    fast = _play((home, away), seed, competition, lean, bonus)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine, "_after", _after_5ac80d2)
        plain = _play((home, away), seed, competition, lean, bonus)
    assert fast == plain


def _checked_play(spec: tuple[dict[str, Any], dict[str, Any]], seed: int, competition: str,
                  lean: bool) -> tuple[tuple[str, str, str], list[tuple[int, bool]]]:
    """:func:`_play` with every break the engine skips as quiet checked against break_before on a copy of the side
    and the dice (no record, no die thrown); the play and each break's (slice, skipped)."""
    breaks: list[tuple[int, bool]] = []
    fast_quiet, real_play = engine._quiet_break, engine.play
    held: list[Dice] = []

    def checked(side: Side, n: int, extra_time: bool, lead: int) -> bool:
        got = fast_quiet(side, n, extra_time, lead)
        breaks.append((n, got))
        if got:
            side_copy, dice_copy = copy.deepcopy((side, held[0]))
            out = break_before(dice_copy, "m/甲-乙", side_copy, n, lead, extra_time)
            assert out == {"substitutions": [], "timeouts": [], "changes": []}
            assert [list(r) for r in dice_copy.log] == [list(r) for r in held[0].log]
            assert dice_copy.stream("m/甲-乙").drawn == held[0].stream("m/甲-乙").drawn
        return got

    def play_holding_dice(dice: Dice, *args: Any, **kwargs: Any) -> Any:
        held.append(dice)
        return real_play(dice, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine, "_quiet_break", checked)
        mp.setattr(sys.modules[__name__], "play", play_holding_dice)
        return _play(spec, seed, competition, lean), breaks


def _never_quiet(spec: tuple[dict[str, Any], dict[str, Any]], seed: int, competition: str,
                 lean: bool) -> tuple[str, str, str]:
    """:func:`_play` with every break through break_before."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine, "_quiet_break", lambda side, n, extra_time, lead: False)
        return _play(spec, seed, competition, lean)


@settings(max_examples=100, deadline=None)
@given(_squad("甲"), _squad("乙"), st.integers(0, 10**6), st.sampled_from(["league", "knockout"]), st.booleans())
def test_a_quiet_break_is_one_break_before_does_nothing_in(home: dict[str, Any], away: dict[str, Any], seed: int,
                                                           competition: str, lean: bool) -> None:
    """000 §5.5, §7.3, §7.4: at every break the engine skips as quiet (the lowest stamina _end_slice kept,
    half-time without the AI's check), break_before on a copy of the side and the dice gives no record and throws
    no die; and the match is the one every break through break_before plays (record, dice log, players after)."""
    fast, _ = _checked_play((home, away), seed, competition, lean)
    assert fast == _never_quiet((home, away), seed, competition, lean)


def _fixed_squad(prefix: str, strength: int) -> dict[str, Any]:
    """A fresh 4 4 2 squad of ``strength`` (eleven starters, five on the bench) in test_engine_fast5's shape."""
    positions = ["GK"] + ["DF"] * 4 + ["MF"] * 4 + ["FW"] * 2 + ["GK", "DF", "MF", "MF", "FW"]
    players = [player(f"{prefix}{i}", pos, atk=strength, df=strength, mid=strength, gk=strength, age=20 + i,
                      core=i % 3 == 0) for i, pos in enumerate(positions)]
    lineup: dict[str, list[Player]] = {"GK": [], "DF": [], "MF": [], "FW": []}
    for p in players[:11]:
        lineup[p.position].append(p)
    return {"players": players, "lineup": lineup, "formation": "4 4 2", "sub_below": 30, "morale": 50}


def test_half_time_is_skipped_unless_the_ai_checks() -> None:
    """000 §7.4: over fixed squads and 40 seeds, half-time breaks are skipped as quiet, and those where a side
    trails by 2 or more (the AI's 1D100 check) are not; each match plays as with every break through break_before."""
    spec = (_fixed_squad("甲", 80), _fixed_squad("乙", 30))
    kinds = set()
    for seed in range(40):
        fast, breaks = _checked_play(spec, seed, "league", seed % 2 == 0)
        assert fast == _never_quiet(spec, seed, "league", seed % 2 == 0)
        kinds |= {got for n, got in breaks if n == HALF_TIME}
    assert kinds == {True, False}


@given(st.integers(1, 30), st.integers(0, 10**6))
def test_the_parsed_pick_die_rolls_as_its_notation(size: int, seed: int) -> None:
    """000 §5.1.2 step 1: the shooter's ``1D{candidates}`` parsed once throws and records the roll the notation
    text does (id, expr, faces, reading)."""
    a, b = Dice(seed), Dice(seed)
    assert a.roll("k", engine._pick_expr(size), "射门球员人选") == b.roll("k", f"1D{size}", "射门球员人选")
    assert a.stream("k").drawn == b.stream("k").drawn
