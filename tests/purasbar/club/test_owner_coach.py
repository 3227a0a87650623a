"""000 §4.1 phases 2–3, §4.5, §5.8.2, §15.2 / §16.3 (designed): owner actions, coach decisions, conflicts."""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from pathlib import Path

import pytest

from anko_writer.dice import Dice
from anko_writer.errors import TableError
from anko_writer.rulesets.purasbar.club.coach_decisions import (
    COACH_FIXED,
    coach_checked,
    load_coach_decisions,
    monthly_decision,
    scout_chance,
    scout_opponent,
)
from anko_writer.rulesets.purasbar.club.conflict import contest, forced, halve, non_forced_allowed
from anko_writer.rulesets.purasbar.club.owner_actions import (
    OWNER_FIXED,
    layout,
    load_owner_actions,
    monthly_action,
    owner_checked,
)
from tests.util import RES

OWNER = load_owner_actions(RES.table_path("owner_actions.yaml"))
COACH = load_coach_decisions(RES.table_path("coach_decisions.yaml"))
TABLES = {"owner_actions": OWNER, "coach_decisions": COACH}
NEUTRAL_OWNER = {"wealth": 30, "fanaticism": 50, "control": 50}
NEUTRAL_COACH = {"passion": 50, "stubbornness": 50, "tendency": "pragmatic"}


def state(**kw) -> dict:  # noqa: ANN003
    """A club where every action can be carried out, with overrides."""
    base = {"facilities": {"training": 2, "youth": 2, "medical": 2},
            "staff": {"assistant": 2, "doctor": 2, "commercial": 2, "fitness": 2, "scout": 2},
            "morale": 0, "transfer_window": True, "young_players": 3, "losing_streak": 0, "owner_to_coach": 50,
            "healthy_players": 20, "next_match": True}
    base.update(kw)
    return base


def owner(face: int, traits: dict | None = None, st: dict | None = None) -> dict:
    d = Dice(1)
    d.fix(face)
    return monthly_action(d, "m/owner", traits or NEUTRAL_OWNER, st or state(), TABLES)


def coach(face: int, traits: dict | None = None, st: dict | None = None) -> dict:
    d = Dice(1)
    d.fix(face)
    return monthly_decision(d, "m/coach", traits or NEUTRAL_COACH, TABLES, st)


def spans(rec_or_ranges) -> dict[str, tuple[int, int]]:  # noqa: ANN001
    ranges = rec_or_ranges["ranges"] if isinstance(rec_or_ranges, dict) else rec_or_ranges
    return {r["key"]: (r["lo"], r["hi"]) for r in ranges}


def test_tables_are_designed_and_sized() -> None:
    assert OWNER.source == COACH.source == "designed"
    assert (len(OWNER), len(COACH)) == (15, 10)


@pytest.mark.parametrize("face,key", [(50, "sponsor_dinner"), (51, "intervene"), (55, "intervene"),
                                      (60, "intervene"), (61, "transfer_budget"), (1, "delegate"),
                                      (100, "medical_upgrade")])
def test_owner_fixed_range_under_neutral_personality(face: int, key: str) -> None:
    rec = owner(face)
    assert rec["roll"]["total"] == face and rec["row"]["key"] == key and rec["action"] == key
    assert rec["weights"] == [] and rec["fallback"] == []
    assert spans(rec)["intervene"] == OWNER_FIXED["intervene"] == (51, 60)


@pytest.mark.parametrize("face,key", [(1, "team_talk"), (5, "team_talk"), (6, "attack_drill"),
                                      (35, "fitness_camp"), (36, "one_on_one"), (45, "one_on_one"),
                                      (46, "scout_opponent"), (56, "tactics_review"), (70, "tactics_review"),
                                      (71, "assistant_session"), (81, "squad_conflict"),
                                      (90, "squad_conflict"), (91, "youth_watch")])
def test_coach_fixed_ranges_under_neutral_personality(face: int, key: str) -> None:
    rec = coach(face)
    assert rec["row"]["key"] == key and rec["action"] == key
    for k, span in COACH_FIXED.items():
        assert spans(rec)[k] == span
    assert COACH_FIXED == {"team_talk": (1, 5), "one_on_one": (36, 45), "tactics_review": (56, 70),
                           "squad_conflict": (81, 90)}


def covers_once(ranges: list[dict]) -> bool:
    faces = [f for r in ranges for f in range(r["lo"], r["hi"] + 1)]
    return sorted(faces) == list(range(1, 101)) and all(r["hi"] >= r["lo"] for r in ranges)


def test_owner_weighting_covers_every_face_once() -> None:
    c = owner_checked(OWNER)
    for w, f, ctl, streak in itertools.product((10, 50, 90), (10, 50, 90), (10, 50, 90), (0, 2, 5)):
        ranges, _ = layout(c, {"wealth": w, "fanaticism": f, "control": ctl}, {"losing_streak": streak, "owner_to_coach": 50})
        assert covers_once(ranges), (w, f, ctl, streak)
        assert [r["key"] for r in ranges] == [r.params["key"] for r in c.rows]


def test_coach_weighting_covers_every_face_once() -> None:
    c = coach_checked(COACH)
    for p, s, t in itertools.product((10, 50, 90), (10, 50, 90), ("attacking", "counter", "possession", "pragmatic")):
        ranges, _ = layout(c, {"passion": p, "stubbornness": s, "tendency": t}, {})
        assert covers_once(ranges), (p, s, t)


@pytest.mark.parametrize("traits,streak,span", [
    ({"control": 66}, 0, (51, 60)), ({"control": 67}, 0, (49, 62)), ({"control": 33}, 0, (53, 58)),
    ({"control": 34}, 0, (51, 60)), ({}, 2, (50, 61)), ({"control": 90}, 3, (48, 63)), ({"control": 10}, 2, (52, 59)),
])
def test_intervene_weighting(traits: dict, streak: int, span: tuple[int, int]) -> None:
    ranges, _ = layout(owner_checked(OWNER), {**NEUTRAL_OWNER, **traits}, {"losing_streak": streak, "owner_to_coach": 50})
    assert spans(ranges)["intervene"] == span


def test_owner_weighting_takes_from_neighbours() -> None:
    s = spans(layout(owner_checked(OWNER), {"wealth": 41, "fanaticism": 67, "control": 20}, {"losing_streak": 0, "owner_to_coach": 50})[0])
    assert s["delegate"] == (1, 9) and s["staff_talk"] == (10, 12)                       # 放权 +3 right
    assert s["upgrade_facility"] == (35, 44) and s["private_injection"] == (67, 78)      # ±2; ±1 twice
    assert s["sponsor_dinner"] == (45, 52) and s["transfer_budget"] == (59, 66)


def test_coach_weighting() -> None:
    c = coach_checked(COACH)
    hot = spans(layout(c, {"passion": 80, "stubbornness": 80, "tendency": "attacking"}, {})[0])
    assert hot["attack_drill"] == (6, 21) and hot["defence_drill"] == (22, 25) and hot["tactics_review"] == (59, 67)
    cold = spans(layout(c, {"passion": 20, "stubbornness": 20, "tendency": "counter"}, {})[0])
    assert cold["attack_drill"] == (6, 10) and cold["tactics_review"] == (54, 72)
    for k in ("team_talk", "one_on_one", "squad_conflict"):
        assert hot[k] == cold[k] == COACH_FIXED[k]


def test_weighted_roll_lands_in_the_widened_row() -> None:
    assert owner(49, {**NEUTRAL_OWNER, "control": 80})["action"] == "intervene"
    assert owner(49)["action"] == "sponsor_dinner"
    assert coach(18, {**NEUTRAL_COACH, "passion": 80})["action"] == "attack_drill"


def test_missing_trait_is_an_error() -> None:
    with pytest.raises(KeyError):
        monthly_action(Dice(1), "k", {"wealth": 1, "fanaticism": 1}, state(), TABLES)


FULL = {"facilities": {"training": 5, "youth": 5, "medical": 5},
        "staff": {"assistant": 5, "doctor": 5, "commercial": 5, "fitness": 5, "scout": 5}}


def test_facility_at_max_falls_back_down_the_chain() -> None:
    rec = owner(97, st=state(**FULL))
    assert rec["row"]["key"] == "medical_upgrade" and rec["action"] is None
    assert [(f["from"], f["reason"], f["to"]) for f in rec["fallback"]] == [
        ("medical_upgrade", "facility_max", "upgrade_facility"), ("upgrade_facility", "facility_max", "staff_training"),
        ("staff_training", "staff_max", None)]
    assert rec["effect"] == {"kind": "funds", "polarity": "positive", "amount": 50000}  # 000 §6.2.4's 5 万 P$
    assert rec["text"]


def test_one_facility_left_is_still_upgraded() -> None:
    rec = owner(40, st=state(facilities={"training": 5, "youth": 4, "medical": 5}))
    assert rec["action"] == "upgrade_facility" and rec["fallback"] == []
    assert rec["effect"]["kind"] == "facility" and rec["effect"]["levels"] == 1


def test_medical_at_max_uses_its_fallback_row() -> None:
    rec = owner(95, st=state(facilities={"training": 2, "youth": 2, "medical": 5}))
    assert rec["action"] == "upgrade_facility" and rec["effect"]["facility"] == "random"


def test_closed_window_and_missing_young_players_fall_back() -> None:
    rec = owner(62, st=state(transfer_window=False))
    assert rec["fallback"][0]["reason"] == "requires_transfer_window"
    assert rec["effect"] == {"kind": "funds", "polarity": "positive", "amount": 150000}
    rec = owner(80, st=state(young_players=0))
    assert rec["action"] == "inspect_training" and rec["effect"]["kind"] == "morale"
    rec = owner(80, st=state(young_players=0, morale=100))
    assert rec["fallback"][-1] == {"from": "inspect_training", "reason": "morale_max", "to": None}
    assert rec["effect"]["kind"] == "affinity" and rec["effect"]["direction"] == "owner_to"


def test_negative_morale_at_floor_falls_back() -> None:
    rec = owner(28, st=state(morale=-100))
    assert rec["effect"] == {"kind": "affinity", "polarity": "negative", "who": "coach", "direction": "to_owner",
                             "amount": 3}


def test_vote_skips_the_roll() -> None:
    d = Dice(1)
    rec = monthly_action(d, "m", NEUTRAL_OWNER, state(), TABLES, vote="private_injection")
    assert rec["roll"] is None and d.log == [] and rec["vote"] == "private_injection"
    assert rec["effect"] == {"kind": "investment", "polarity": "positive", "amount": 250000}
    rec = monthly_action(d, "m", NEUTRAL_OWNER, state(**FULL), TABLES, vote="upgrade_facility")
    assert rec["fallback"] and rec["effect"]["amount"] == 50000
    with pytest.raises(ValueError):
        monthly_action(d, "m", NEUTRAL_OWNER, state(), TABLES, vote="buy_a_yacht")


def test_coach_fallbacks_only_with_a_club_state() -> None:
    assert coach(40)["action"] == "one_on_one"
    rec = coach(40, st=state(healthy_players=0))
    assert rec["action"] == "team_talk" and rec["fallback"][0]["reason"] == "requires_healthy_players"
    rec = coach(50, st=state(next_match=False))
    assert rec["action"] == "attack_drill" and rec["effect"]["scope"] == "month"
    assert coach(95, st=state(young_players=0))["action"] == "fitness_camp"


def test_every_row_effect_is_structured() -> None:
    rec = owner(55)
    assert rec["effect"] == {"kind": "intervene", "polarity": "neutral", "to_owner": -1}
    assert coach(10)["effect"] == {"kind": "match_mod", "polarity": "positive", "amount": 2, "side": "us",
                                   "slices": "all", "scope": "month"}


def write_table(tmp: Path, rows: str) -> Path:
    p = tmp / "owner_actions.yaml"
    p.write_text("source: designed\ndice: 1D100\nrows:\n" + rows, encoding="utf-8")
    return p


BASE_ROWS = """\
  - {range: 1-50, key: a, name: 甲, polarity: positive, effect: funds, amount: 1}
  - {range: 51-60, key: intervene, name: 干预, polarity: neutral, effect: intervene}
  - {range: 61-100, key: b, name: 乙, polarity: positive, effect: funds, amount: 1}
"""


def test_checks_refuse_broken_tables(tmp_path: Path) -> None:
    load_owner_actions(write_table(tmp_path, BASE_ROWS))
    bad = {
        "moved": BASE_ROWS.replace("51-60", "51-59").replace("61-100", "60-100"),
        "no fallback": BASE_ROWS.replace("effect: funds, amount: 1}\n  - {range: 51",
                                         "effect: facility, facility: random, levels: 1}\n  - {range: 51", 1),
        "loop": BASE_ROWS.replace("amount: 1}\n  - {range: 51", "amount: 1, requires: [x], fallback: b}\n  - {range: 51")
                         .replace("61-100, key: b, name: 乙, polarity: positive, effect: funds, amount: 1",
                                  "61-100, key: b, name: 乙, polarity: positive, effect: morale, amount: 1, fallback: a"),
        "too wide": BASE_ROWS.replace("effect: intervene}", "effect: intervene, widen: [{trait: control, at_least: 1, right: 40}]}"),
        "unknown trait": BASE_ROWS.replace("effect: intervene}", "effect: intervene, widen: [{trait: mood, at_least: 1, right: 1}]}"),
        "dup key": BASE_ROWS.replace("key: b", "key: a"),
        "dangling": BASE_ROWS.replace("amount: 1}\n  - {range: 51", "amount: 1, requires: [x], fallback: zzz}\n  - {range: 51"),
        "bad inline": BASE_ROWS.replace("amount: 1}\n  - {range: 51", "amount: 1, fallback: {effect: teleport}}\n  - {range: 51"),
        "inline can fail": BASE_ROWS.replace("amount: 1}\n  - {range: 51",
                                             "amount: 1, requires: [x], fallback: {effect: morale, amount: 1}}\n  - {range: 51"),
    }
    for name, rows in bad.items():
        with pytest.raises(TableError) as err:
            load_owner_actions(write_table(tmp_path, rows))
        owner_checked.cache_clear()
        said = err.value.message  # issue 28: a host reads it in Chinese
        assert re.search(r"[\u4e00-\u9fff]", said) and not re.search(r"\b(?:needs|must|is not|got)\b", said), (name, said)


def frequencies(roll, weights: dict[str, tuple[int, int]], n: int) -> None:  # noqa: ANN001
    counts = Counter(roll(i) for i in range(n))
    assert set(counts) <= set(weights)
    for k, (lo, hi) in weights.items():
        p = (hi - lo + 1) / 100
        sigma = math.sqrt(n * p * (1 - p))
        assert abs(counts[k] - n * p) <= 4 * sigma, (k, counts[k], n * p)


@pytest.mark.parametrize("traits,streak", [(NEUTRAL_OWNER, 0), ({"wealth": 90, "fanaticism": 90, "control": 90}, 3),
                                           ({"wealth": 5, "fanaticism": 5, "control": 5}, 0)])
def test_owner_rows_fire_at_their_widths(traits: dict, streak: int) -> None:
    d = Dice(20240601)
    st = state(losing_streak=streak)
    want = spans(layout(owner_checked(OWNER), traits, st)[0])
    frequencies(lambda i: monthly_action(d, f"s1/m{i}/owner", traits, st, TABLES)["action"], want, 20000)


@pytest.mark.parametrize("traits", [NEUTRAL_COACH, {"passion": 90, "stubbornness": 90, "tendency": "attacking"}])
def test_coach_rows_fire_at_their_widths(traits: dict) -> None:
    d = Dice(77)
    want = spans(layout(coach_checked(COACH), traits, {})[0])
    frequencies(lambda i: monthly_decision(d, f"s1/m{i}/coach", traits, TABLES)["action"], want, 20000)


@pytest.mark.parametrize("o,c,result", [
    ("intervene", "tactics_review", True), ("intervene", "one_on_one", True), ("intervene", "team_talk", True),
    ("intervene", "squad_conflict", True), ("intervene", "attack_drill", False), ("intervene", "scout_opponent", False),
    ("delegate", "tactics_review", False), (None, "team_talk", False),
])
def test_forced_combinations(o: str | None, c: str, result: bool) -> None:
    assert forced(o, c) is result


def test_forced_matches_the_rolled_rows() -> None:
    assert forced(owner(51)["action"], coach(56)["action"]) and forced(owner(60)["action"], coach(1)["action"])
    assert forced(owner(55)["action"], coach(40)["action"]) and forced(owner(55)["action"], coach(85)["action"])
    assert not forced(owner(61)["action"], coach(56)["action"])


def fight(o_face: int, c_face: int, control: int, stub: int, o_aff: int, c_aff: int) -> dict:
    d = Dice(1)
    d.fix(o_face, c_face)
    return contest(d, "m/conflict", control, stub, o_aff, c_aff)


def test_contest_formula_exact() -> None:
    rec = fight(25, 30, 60, 70, 80, 50)   # 60 + 25 + 80/20=4 → 89 ; 70 + 30 − 50/10=5 → 95
    assert (rec["owner"]["bonus"], rec["owner"]["total"]) == (4, 89)
    assert (rec["coach"]["penalty"], rec["coach"]["total"]) == (5, 95)
    assert rec["owner"]["roll"]["expr"] == rec["coach"]["roll"]["expr"] == "1D50"
    assert rec["winner"] == "coach" and rec["morale_temp"] == 2 and rec["coach_decision"] == "full"
    assert rec["owner_action"] == "withdrawn"


def test_contest_floors_the_affinity_terms() -> None:
    rec = fight(1, 1, 50, 50, 99, 99)
    assert (rec["owner"]["bonus"], rec["coach"]["penalty"]) == (4, 9)
    assert (rec["owner"]["total"], rec["coach"]["total"]) == (55, 42)
    assert fight(1, 1, 50, 50, 19, 9)["owner"]["bonus"] == 0


def test_contest_outcomes() -> None:
    own = fight(50, 1, 60, 70, 80, 50)
    assert own["winner"] == "owner" and own["coach_decision"] == "void" and own["owner_action"] == "full"
    assert own["morale_temp"] == 0 and own["affinity"] == {"owner_to": 0, "to_owner": -5}
    assert own["followup"]["win"]["to_owner"] == 7 and own["followup"]["loss"]["owner_to"] == -10
    tie = fight(31, 30, 60, 70, 80, 50)   # 60 + 31 + 4 = 95 = 70 + 30 − 5
    assert tie["owner"]["total"] == tie["coach"]["total"] == 95
    assert tie["winner"] == "tie" and tie["owner_action"] == tie["coach_decision"] == "half"
    own["affinity"]["to_owner"] = 99
    assert fight(50, 1, 60, 70, 80, 50)["affinity"]["to_owner"] == -5   # records never share dicts


def test_halve_rounds_up_and_marks_the_factor() -> None:
    assert halve({"kind": "morale", "amount": 3}) == {"kind": "morale", "amount": 2, "factor": [1, 2]}
    assert halve({"kind": "morale", "amount": 1})["amount"] == 1
    assert halve({"kind": "match_mod", "amount": -5})["amount"] == -3
    assert halve({"kind": "tactics"}) == {"kind": "tactics", "factor": [1, 2]}


def test_non_forced_conflicts_once_a_month() -> None:
    assert non_forced_allowed(0) and not non_forced_allowed(1)


def test_scout_opponent_reveals_on_success() -> None:
    assert scout_chance(2) == 70 and scout_chance(5) == 100 and scout_chance(2, factor=(1, 2)) == 35
    d = Dice(1)
    d.fix(70, 71)
    hit, miss = scout_opponent(d, "m/scout", 2), scout_opponent(d, "m/scout", 2)
    assert hit["success"] and hit["reveal"] == "opponent_abilities"
    assert not miss["success"] and miss["reveal"] is None


def test_affinity_feeds_the_intervention_width() -> None:
    """§15.5 → §15.2: an owner who distrusts his coach (owner→coach ≤ 30, ≤ 10) intervenes on more faces."""
    checked = owner_checked(OWNER)
    width = {}
    for aff in (5, 20, 50, 80, 95):
        ranges, _ = layout(checked, NEUTRAL_OWNER, {"losing_streak": 0, "owner_to_coach": aff})
        r = next(x for x in ranges if x["key"] == "intervene")
        width[aff] = r["hi"] - r["lo"] + 1
    assert [width[a] for a in (5, 20, 50, 80, 95)] == [14, 12, 10, 8, 6]
