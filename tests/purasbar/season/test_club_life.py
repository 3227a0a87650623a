"""000 §4.1: the month's phases wired together for our club (business, owner, coach, events, month end)."""

from __future__ import annotations

from pathlib import Path

import pytest

from anko_writer.campaign import load_campaign
from anko_writer.rulesets.purasbar.season.phases import (
    business_phase,
    coach_phase,
    finances,
    life_from_campaign,
    month_end_phase,
    owner_phase,
)
from anko_writer.rulesets.purasbar.season.world import new_world
from tests.util import RES, TABLES, campaign_file


def _world(tmp: Path, extra: str = ""):  # noqa: ANN202
    data = load_campaign(campaign_file(tmp, extra=extra)).data
    world = new_world(data, data["seed"], 1, TABLES)
    world.life = life_from_campaign(data, TABLES, world.ours.ledger)
    world.month = 1
    return world


def test_r_reads_funds_and_the_season_bill(tmp_path: Path) -> None:
    """000 §6.2.3: R = funds / (wages + staff salaries + maintenance), all due at season end."""
    w = _world(tmp_path)
    money = finances(w, w.life)
    wages = sum(p.wage for p in w.ours.players)
    staff = sum(m.level for m in w.life.staff.values()) * 60_000
    upkeep = sum(w.ours.facilities.values()) * 50_000
    assert money["bill"] == {"wages": wages, "staff": staff, "maintenance": upkeep, "total": wages + staff + upkeep}
    assert money["R"] == round(w.life.ledger.balance / money["bill"]["total"], 2)


def test_business_threshold_uses_the_commercial_manager(tmp_path: Path) -> None:
    """000 §6.2.1: each of the three D100 triggers on ≤ 20 + 商业经理 level."""
    w = _world(tmp_path)
    level = w.life.staff["commercial"].level
    w.dice.fix(20 + level + 1, 20 + level + 1, 20 + level + 1, prefix="s1/m01/business")
    rec = business_phase(w, w.life, 1)
    checks = [c for c in rec["checks"] if c["kind"] == "check"]
    assert [c["threshold"] for c in checks] == [20 + level] * 3 and not any(c["triggered"] for c in checks)


def test_triggered_event_is_applied(tmp_path: Path) -> None:
    w = _world(tmp_path)
    w.dice.fix(1, 63, 100, 100, prefix="s1/m01/business")  # first check triggers; 63 is inside 注资 61–65
    before = w.life.ledger.balance
    rec = business_phase(w, w.life, 1)
    ev = [c for c in rec["checks"] if c.get("triggered")][0]
    assert ev["key"] == "injection" and ev["applied"]["changed"]
    assert w.life.ledger.balance > before


def test_owner_vote_replaces_the_roll_and_forced_conflict_is_contested(tmp_path: Path) -> None:
    """000 §4.5.1: 干预主教练 against 调整战术体系 (56–70) is always a contest (§4.5.2)."""
    w = _world(tmp_path)
    owner = owner_phase(w, w.life, 1, {"owner": "intervene"})
    assert owner["roll"] is None and owner["action"] == "intervene"
    w.dice.fix(60, prefix="s1/m01/coach")  # the coach's D100 lands on 调整战术体系
    w.dice.fix(25, 30, prefix="s1/m01/coach/conflict")
    coach = coach_phase(w, w.life, 1, {}, owner)
    c = coach["conflict"]
    assert coach["row"]["key"] == "tactics_review" and c["forced"]
    aff_o, aff_c = c["owner"]["affinity"], c["coach"]["affinity"]
    assert c["owner"]["total"] == w.life.owner.control + 25 + aff_o // 20
    assert c["coach"]["total"] == w.life.coach.stubbornness + 30 - aff_c // 10
    assert coach["carried_out"] == (c["winner"] != "owner")


def test_no_conflict_without_intervention(tmp_path: Path) -> None:
    w = _world(tmp_path)
    owner = owner_phase(w, w.life, 1, {"owner": "inspect_training"})
    w.dice.fix(60, prefix="s1/m01/coach")
    assert coach_phase(w, w.life, 1, {}, owner)["conflict"] is None


def test_month_end_training_boost_reaches_next_months_first_match(tmp_path: Path) -> None:
    """000 §8.1.2: a training success gives +2 to the main attribute in next month's first match."""
    w = _world(tmp_path)
    w.dice.fix(1, prefix="s1/m01/training")  # 1D100 = 1 always succeeds
    end = month_end_phase(w, w.life, 1, ["win", "win"])
    assert end["training"]["success"] and w.life.boost
    name, (attr, amount) = next(iter(w.life.boost.items()))
    assert amount == 2 and attr == w.ours.player(name).main


@pytest.fixture(scope="module")
def season(season_245):  # noqa: ANN001, ANN201
    """Season 1 of the seed-245 campaign (``conftest.season_245``, shared: read only)."""
    return season_245[1]


def test_every_month_runs_the_phases_in_order(season) -> None:  # noqa: ANN001
    for ch in season.months:
        life = ch.results["life"]
        assert list(life)[:1] == ["business"] and "owner" in life and "coach" in life and "end" in life
        assert ("external" in life) == (ch.month == 1)
        checks = [c for c in life["business"]["checks"] if c["kind"] == "check"]
        assert len(checks) == 3


def test_event_modifiers_reach_the_attack_formula(season) -> None:  # noqa: ANN001
    """000 §5.1.3 安科事件修正: an event's match_mod shows in our attacks and the value still adds up."""
    seen = 0
    for ch in season.months:
        for i in ch.results["our_matches"]:
            for a in ch.results["matches"][i]["attacks"]:
                assert a["value"] == a["attack_avg"] - a["defense_avg"] + a["die"] + sum(a["modifiers"].values())
                seen += "event" in a["modifiers"]
    assert seen


def test_training_boost_is_used_in_the_first_match(season) -> None:  # noqa: ANN001
    boosted = [ch.results["matches"][ch.results["our_matches"][0]]["boosted"] for ch in season.months[1:]]
    trained = [ch.results["life"]["end"]["training"].get("boost") for ch in season.months[:-1]]
    for given, used in zip(trained, boosted, strict=False):
        assert bool(given) == bool(used)
        if given:
            assert used == [{"player": given["player"], "attr": given["attr"], "amount": 2}]


def test_morale_moves_and_stays_in_range(season) -> None:  # noqa: ANN001
    values = [c["morale"] for ch in season.months for c in ch.results["clubs"]]
    assert all(-100 <= v <= 100 for v in values) and len(set(values)) > 5


def test_environment_multiplies_linked_business_money(tmp_path: Path) -> None:
    """000 §6.4.3: a business event marked 受外部环境修正 takes the season's modifier (e.g. × 0.7)."""
    w = _world(tmp_path)
    table = w.life.tables.business.base
    row = next(r for r in table.rows if r.params.get("env") in ("ticket", "broadcast", "sponsor", "transfer")
               and r.effect == "funds")
    w.life.environment.add(row.params["env"], -30)
    face = row.lo if row.lo > 5 else row.hi  # stay off the faces that move depth
    w.dice.fix(1, face, 100, 100, prefix="s1/m01/business")
    rec = business_phase(w, w.life, 1)
    ev = [c for c in rec["checks"] if c.get("triggered")]
    assert ev and ev[0]["key"] == row.params["key"], "the fixed dice must trigger the linked row"
    e = ev[0]["env_applied"]
    assert e["percent"] == -30 and e["after"] == e["before"] * 70 // 100


def test_environment_injury_points_reach_the_post_match_risk() -> None:
    from anko_writer.dice import Dice
    from anko_writer.rulesets.purasbar.match.injuries import post_match_check
    from tests.util import player
    p = player("甲", "FW", age=25)
    rec = post_match_check(Dice(1), "k", p, 88, 60, 0, 1, bonus=2)
    assert rec["risk"] == 2 + 2


def test_affinity_reaching_an_extreme_rolls_its_origin(tmp_path: Path) -> None:
    """§15.5 连锁判定 (designed): a line that falls into 敌视 (≤ 10) rolls the low origin table then."""
    from anko_writer.rulesets.purasbar.season.phases import chained_checks
    w = _world(tmp_path)
    bond = w.life.affinity.bonds["coach"]
    bond.origins.clear()
    bond.owner_to, bond.to_owner = 5, 50
    got = chained_checks(w, w.life, 3)
    coach = [c for c in got if c["who"] == "coach"]
    assert len(coach) == 1 and coach[0]["direction"] == "owner_to" and coach[0]["table"] == "low"
    assert bond.origins["owner_to"] == coach[0]["key"]
    assert not [c for c in chained_checks(w, w.life, 4) if c["who"] == "coach"]  # rolled once
    bond.owner_to = 50
    chained_checks(w, w.life, 5)
    assert "owner_to" not in bond.origins  # left the extreme: the old origin is forgotten


def test_chained_origin_is_told_in_the_month_end(season) -> None:  # noqa: ANN001
    import copy

    from anko_writer.render import find_problems, render_chapter
    ch = season.months[2]
    results = copy.deepcopy(ch.results)
    roll = {"id": "s1/m03/origin#1", "purpose": "好感起源", "expr": "1D100", "dice": [42], "total": 42, "hidden": False}
    results["life"]["end"]["chained"] = [{"who": "coach", "direction": "owner_to", "value": 8, "tier": "hostile",
                                          "tier_name": "敌视", "table": "low", "roll": roll, "key": "clash",
                                          "name": "当众争执", "text": "一次发布会上的争执，让两人从此不再同桌吃饭。"}]
    data = load_campaign(campaign_file(Path(__import__("tempfile").mkdtemp()))).data
    md = render_chapter(RES, ch.template, {**results, "results": results, "seed": 1, "campaign": data})
    assert "（15.5 连锁判定）" in md and "「1D100＝42」→ **当众争执**" in md
    assert find_problems(md) == []


def test_the_votes_owner_ranges_are_the_ones_next_month_uses(season_245) -> None:  # noqa: ANN001
    """The vote lists the owner's §15.2 ranges weighted as next month's D100 will read them (they used to
    be the table's unweighted rows): months 1–11 of the seed-245 season, every range equal."""
    run = season_245[1]
    for shown_in, used_in in zip(run.chapters[:11], run.chapters[1:12], strict=False):
        shown = [o["range"] for o in shown_in.results["vote"]["owner_options"]]
        used = [[r["lo"], r["hi"]] for r in used_in.results["life"]["owner"]["ranges"]]
        assert shown == used, shown_in.month
