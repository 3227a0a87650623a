"""The club's people: owner (000 ch.15), coach profile (ch.16), staff (ch.12), two-way affinity (§15.5)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.dice import Dice
from anko_writer.errors import TableError
from anko_writer.resources import Resources
from anko_writer.rulesets.purasbar.club.people import (
    AFFINITY_TIERS,
    CONTROL_TIERS,
    DIRECTIONS,
    FANATICISM_TIERS,
    PEOPLE,
    ROLES,
    WEALTH_TIERS,
    Affinity,
    Bond,
    CoachProfile,
    Owner,
    Staff,
    affinity_schema,
    coach_profile_fields,
    generate_affinity,
    generate_coach_profile,
    generate_owner,
    generate_staff,
    load_people_tables,
    owner_schema,
    rapport_training_bonus,
    roster_from_json,
    roster_to_json,
    staff_schema,
)
from anko_writer.rulesets.purasbar.setup.data import load_tables
from anko_writer.schema import Field, Int, Map, validate
from anko_writer.tables import possible_totals
from tests.util import RES

TABLES = load_people_tables(RES)
NAMES = load_tables(RES).names


def owner_with(wealth: int, fanaticism: int, control: int = 50) -> tuple[Owner, dict]:
    """An owner whose three traits are fixed (names, takeover, age and origin on face 1)."""
    d = Dice(1)
    d.fix(1, 1, prefix="o/name")
    d.fix(wealth, fanaticism, control, 1, 1, 1, prefix="o")
    return generate_owner(d, "o", TABLES, NAMES)


# ---------------------------------------------------------------- tables


def test_every_people_table_is_designed_and_maps_every_face() -> None:
    for name, table in TABLES.dice_tables().items():
        for total in possible_totals(table.dice):
            table.lookup(total)  # raises on a gap
        if name != "staff_levels.yaml":
            assert table.source == "designed", name
            assert str(table.dice) == "1D100", name
    for tiers, table in ((WEALTH_TIERS, TABLES.wealth), (FANATICISM_TIERS, TABLES.fanaticism),
                         (CONTROL_TIERS, TABLES.control), (AFFINITY_TIERS, TABLES.affinity)):
        assert [(r.params["key"], r.hi) for r in table.rows] == list(tiers)
    for data in (TABLES.owner, TABLES.coach, TABLES.staff):
        assert data["source"] == "designed"
    assert list(TABLES.staff["roles"]) == list(ROLES)


def test_rulebook_numbers_in_the_tables() -> None:
    assert TABLES.entry(TABLES.wealth, "tycoon").params["name"] == "行业大亨"
    assert TABLES.entry(TABLES.wealth, "tycoon").lo == 41  # 000 §6.2.2
    assert TABLES.entry(TABLES.fanaticism, "career").params["name"] == "事业型"
    assert TABLES.entry(TABLES.fanaticism, "career").lo == 67  # 000 §6.2.2
    veteran = TABLES.entry(TABLES.resume, "league_veteran")
    assert (veteran.params["name"], veteran.params["response"]) == ("联赛熟手", 10)  # 000 §6.3.3
    assert [r.params["origin"] for r in TABLES.affinity.rows] == ["low", "none", "none", "none", "high"]
    assert TABLES.entry(TABLES.origin_low, "betrayal_brand").params["name"] == "背叛烙印"  # the intro
    assert [r.params["training"] for r in TABLES.rapport.rows] == [-4, 0, 2, 4, 6]


def _override(tmp_path: Path, name: str, old: str, new: str) -> Resources:
    """A campaign folder whose copy of ``name`` has ``old`` replaced by ``new``."""
    folder = tmp_path / "tables" / "purasbar"
    folder.mkdir(parents=True)
    text = RES.table_path(name).read_text(encoding="utf-8")
    assert old in text
    (folder / name).write_text(text.replace(old, new), encoding="utf-8")
    return Resources("purasbar", tmp_path)


@pytest.mark.parametrize(("name", "old", "new", "message"), [
    ("coach_resume.yaml", "response: 10,", "response: 12,", "联赛熟手"),
    ("owner_wealth.yaml", "range: 16-40,", "range: 16-39,", "没有一行包含 40"),
    ("affinity.yaml", "range: 11-30, ", "range: 11-29, ", "没有一行包含 30"),
    ("affinity.yaml", "effect: tier, key: hostile,", "effect: tier, key: hostil,", "应为止于 10 的档次 'hostile'"),
    ("staff_rapport.yaml", "training: 6,", "training: six,", "应为整数"),
    ("affinity_origin_low.yaml", "key: clash,", "key: hometown,", "不能与高档表的相同"),
])
def test_broken_people_tables_are_refused(tmp_path: Path, name: str, old: str, new: str, message: str) -> None:
    with pytest.raises(TableError, match=message):
        load_people_tables(_override(tmp_path, name, old, new))


def test_moved_tier_edge_is_refused(tmp_path: Path) -> None:
    res = _override(tmp_path, "owner_wealth.yaml", "range: 16-40,", "range: 16-41,")
    text = (tmp_path / "tables/purasbar/owner_wealth.yaml").read_text(encoding="utf-8")
    (tmp_path / "tables/purasbar/owner_wealth.yaml").write_text(text.replace("range: 41-75,", "range: 42-75,"),
                                                                 encoding="utf-8")
    with pytest.raises(TableError, match="应为止于 40 的档次"):
        load_people_tables(res)


# ---------------------------------------------------------------- owner


def test_wealth_tier_boundary_40_41() -> None:
    poor, rec = owner_with(40, 50)
    rich, rec2 = owner_with(41, 50)
    assert (poor.wealth, poor.wealth_tier, poor.tycoon) == (40, "rich", False)
    assert (rich.wealth, rich.wealth_tier, rich.tycoon) == (41, "tycoon", True)
    assert rec["wealth"]["name"] == "富甲一方" and rec2["wealth"]["name"] == "行业大亨"
    assert (rec2["wealth"]["roll"]["total"], rec2["wealth"]["injection_percent"]) == (41, 100)
    assert [Owner("x", w, 1, 1, "purchase", 40, "tech").wealth_tier for w in (1, 15, 16, 75, 76, 95, 96, 100)] == \
        ["local", "local", "rich", "tycoon", "magnate", "magnate", "titan", "titan"]


def test_fanaticism_boundary_66_67() -> None:
    o66, r66 = owner_with(10, 66)
    o67, r67 = owner_with(10, 67)
    assert (o66.career_minded, o66.fanaticism_tier, r66["fanaticism"]["name"]) == (False, "enthusiast", "热心型")
    assert (o67.career_minded, o67.fanaticism_tier, r67["fanaticism"]["name"]) == (True, "career", "事业型")
    assert (r66["injection_widening"], r67["injection_widening"]) == (0, 1)
    assert owner_with(41, 67)[0].injection_widening == 2  # §6.2.2: 61–65 becomes 59–67


def test_owner_generation_order_and_record() -> None:
    owner, rec = owner_with(41, 67, 65)
    assert owner == Owner(owner.name, 41, 67, 65, "purchase", 30, "industrial")
    assert owner.name == f"{NAMES['given'][0]}·{NAMES['family'][0]}"
    assert owner.control_tier == "dominant" and owner_with(1, 1, 35)[0].control_tier == "hands_off"
    assert [rec[k]["roll"]["purpose"] for k in ("wealth", "fanaticism", "control", "takeover", "age", "origin")] == \
        ["老板财富", "老板狂热", "老板控制欲", "接手方式", "老板年龄", "老板出身"]
    assert (rec["age"]["roll"]["expr"], rec["takeover"]["name"], rec["origin"]["name"]) == ("1D41+29", "溢价收购", "工业世家")
    assert Owner.from_json(owner.to_json()) == owner == Owner.from_json(rec["owner"])


# ---------------------------------------------------------------- coach


def coach_with(traits: tuple[int, int, int, int], resume: tuple[int, ...], background: int = 1) -> tuple[CoachProfile, dict]:
    """Traits in roll order (stubbornness, passion, empathy, discipline), then 1D3 count and résumé faces."""
    d = Dice(1)
    d.fix(*resume, prefix="c/resume")
    d.fix(*traits, background, prefix="c")
    return generate_coach_profile(d, "c", TABLES)


def test_resume_modifier_sums_league_veteran_plus_ten() -> None:
    one, rec = coach_with((70, 20, 50, 50), (1, 21))
    assert one.resume == ["league_veteran"] and one.resume_modifier(TABLES) == 10 == rec["resume_modifier"]
    three, rec3 = coach_with((70, 20, 50, 50), (3, 35, 21, 97, 1))  # 21 repeats 联赛熟手: re-rolled
    assert three.resume == ["league_veteran", "cup_winner", "rookie"]
    assert three.resume_modifier(TABLES) == 10 + 15 - 5 == rec3["resume_modifier"]
    assert [r["duplicate"] for r in rec3["resume_rolls"]] == [False, True, False, False]
    assert [e["response"] for e in rec3["resume"]] == [10, 15, -5]


def test_coach_traits_bands_and_json() -> None:
    coach, rec = coach_with((65, 35, 36, 64), (1, 50), background=41)
    assert (coach.stubbornness, coach.passion, coach.empathy, coach.discipline) == (65, 35, 36, 64)
    assert [coach.band(d) for d in ("stubbornness", "passion", "empathy", "discipline")] == ["high", "low", "mid", "mid"]
    assert [t["dimension"] for t in rec["traits"]] == ["passion", "stubbornness", "empathy", "discipline"]
    assert rec["traits"][1]["label"] == "固执己见" and rec["traits"][0]["label"] == "冷静克制"
    assert rec["traits"][1]["roll"]["purpose"] == "主教练固执"
    assert (coach.background, rec["background"]["name"]) == ("club_legend", "本队名宿")
    assert CoachProfile.from_json({"name": "x", **coach.to_json()}) == coach


def test_stubbornness_keeps_the_old_first_roll() -> None:
    """newcampaign rolled 1D100 stubbornness first on the coach stream; the profile keeps that value."""
    old = Dice(77).roll("k/coach", "1D100", "主教练固执").total
    assert generate_coach_profile(Dice(77), "k/coach", TABLES)[0].stubbornness == old


# ---------------------------------------------------------------- staff


def test_staff_levels_and_rapport() -> None:
    d = Dice(1)
    d.fix(1, 1, 2, 1, 3, 1, 4, 1, 5, 1, prefix="s/names")
    d.fix(96, prefix="s/rapport")
    d.fix(30, 31, 75, 76, 96, prefix="s")  # doctor first, then assistant, commercial, fitness, scout
    staff, rec = generate_staff(d, "s", TABLES, NAMES)
    assert [s.role for s in staff] == list(ROLES)
    assert {s.role: s.level for s in staff} == {"doctor": 1, "assistant": 2, "commercial": 2, "fitness": 3, "scout": 4}
    assert [s.rapport for s in staff] == [96, None, None, None, None]
    assert (rec["rapport"]["name"], rec["rapport"]["training"]) == ("珠联璧合", 6)
    assert rapport_training_bonus(staff, TABLES) == 6
    assert rec["staff"][1]["roll"]["purpose"] == "队医等级" and rec["staff"][0]["title"] == "首席助教"
    assert [s.name for s in staff] == [f"{NAMES['given'][i]}·{NAMES['family'][0]}" for i in range(5)]
    assert roster_from_json(roster_to_json(staff)) == staff == [Staff.from_json(s.to_json()) for s in staff]


@pytest.mark.parametrize(("face", "bonus"), [(1, -4), (10, -4), (11, 0), (35, 0), (36, 2), (75, 2), (76, 4), (95, 4), (100, 6)])
def test_rapport_tiers(face: int, bonus: int) -> None:
    assert rapport_training_bonus([Staff("assistant", "x", 2, face)], TABLES) == bonus
    assert rapport_training_bonus([Staff("doctor", "x", 2)], TABLES) == 0


def test_doctor_level_keeps_the_old_first_roll() -> None:
    """newcampaign rolled the doctor's level first on the staff stream; generate_staff keeps it."""
    _, hit = TABLES.staff_levels.roll(Dice(9), "k/staff", "队医等级")
    staff, _ = generate_staff(Dice(9), "k/staff", TABLES, NAMES)
    assert next(s.level for s in staff if s.role == "doctor") == hit.params["level"]


# ---------------------------------------------------------------- affinity


FACES = (10, 11, 90, 91, 30, 31, 70, 71, 1, 100, 50, 50)
"""owner_to, to_owner for coach, assistant, doctor, commercial, fitness, scout."""


def test_affinity_tier_boundaries_and_origin_only_at_extremes() -> None:
    d = Dice(1)
    d.fix(1, 100, 13, 88, prefix="a/origin")
    d.fix(*FACES, prefix="a")
    aff, rec = generate_affinity(d, "a", TABLES)
    assert [line["value"] for line in rec["lines"]] == list(FACES)
    assert [line["tier"] for line in rec["lines"]] == [
        "hostile", "distant", "trusted", "devoted", "distant", "professional",
        "professional", "trusted", "hostile", "devoted", "professional", "professional"]
    assert [line["tier_name"] for line in rec["lines"][:4]] == ["敌视", "疏远", "信赖", "肝胆相照"]
    with_origin = [(line["who"], line["direction"], line["origin"]["table"], line["origin"]["key"])
                   for line in rec["lines"] if line["origin"]]
    assert with_origin == [("coach", "owner_to", "low", "betrayal_brand"), ("assistant", "to_owner", "high", "life_debt"),
                           ("fitness", "owner_to", "low", "humiliation"), ("fitness", "to_owner", "high", "life_debt")]
    assert len([r for r in d.log if r.id.startswith("a/origin#")]) == 4
    assert aff.bonds["coach"] == Bond(10, 11, {"owner_to": "betrayal_brand"})
    assert aff.bonds["fitness"].origins == {"owner_to": "humiliation", "to_owner": "life_debt"}
    assert rec["lines"][0]["roll"]["purpose"] == "老板→主教练好感度"
    assert rec["lines"][1]["roll"]["purpose"] == "主教练→老板好感度"
    assert Affinity.from_json(aff.to_json()) == aff


def test_no_origin_roll_in_the_middle_tiers() -> None:
    d = Dice(1)
    d.fix(*([11, 90] * 6), prefix="a")
    aff, rec = generate_affinity(d, "a", TABLES)
    assert all(line["origin"] is None for line in rec["lines"])
    assert not any(r.id.startswith("a/origin") for r in d.log)
    assert all(b.origins == {} for b in aff.bonds.values())


def test_affinity_tier_function_and_effects() -> None:
    assert [Affinity.tier(v) for v in (0, 10, 11, 30, 31, 70, 71, 90, 91, 100)] == [
        "hostile", "hostile", "distant", "distant", "professional", "professional",
        "trusted", "trusted", "devoted", "devoted"]
    assert TABLES.affinity_tier(0).params["key"] == "hostile"
    assert [TABLES.affinity_tier(v).params["name"] for v in (5, 20, 50, 80, 95)] == ["敌视", "疏远", "公事公办", "信赖", "肝胆相照"]
    assert [r.params["interfere"] for r in TABLES.affinity.rows] == [4, 2, 0, -2, -4]
    assert [r.params["poach"] for r in TABLES.affinity.rows] == [20, 10, 0, -10, -20]


def test_conflict_scores_use_raw_affinity() -> None:
    """000 §4.5.2: owner = control + 1D50 + 老板→教练/20; coach = 固执 + 1D50 − 教练→老板/10 (both ×20)."""
    aff = Affinity.neutral()
    aff.bonds["coach"] = Bond(100, 100)
    assert aff.conflict_scores(50, 10, 50, 10) == (20 * 60 + 100, 20 * 60 - 200)  # 65 vs 50
    aff.bonds["coach"] = Bond(0, 0)
    assert aff.conflict_scores(50, 10, 50, 10) == (1200, 1200)  # a tie


def test_adjust_keeps_0_to_100() -> None:
    aff = Affinity.neutral(95)
    assert aff.adjust("scout", "to_owner", 20) == 100
    assert aff.adjust("scout", "owner_to", -200) == 0
    assert aff.get("scout", "owner_to") == 0 and Affinity.tier(0) == "hostile"
    with pytest.raises(KeyError):
        aff.get("scout", "sideways")


# ---------------------------------------------------------------- schema fragments


def test_schema_fragments_accept_generated_records_and_refuse_bad_ones() -> None:
    owner, _ = owner_with(41, 67)
    coach, _ = coach_with((50, 50, 50, 50), (2, 21, 50))
    staff, _ = generate_staff(Dice(3), "s", TABLES, NAMES)
    aff, _ = generate_affinity(Dice(3), "a", TABLES)
    assert validate(owner.to_json(), owner_schema(TABLES), "c.yaml") == owner.to_json()
    coach_map = Map({"stubbornness": Field(Int(min=1, max=100)), **coach_profile_fields(TABLES)})
    assert validate(coach.to_json(), coach_map, "c.yaml") == coach.to_json()
    assert validate(roster_to_json(staff), staff_schema(), "c.yaml") == roster_to_json(staff)
    assert validate(aff.to_json(), affinity_schema(), "c.yaml") == aff.to_json()
    from anko_writer.errors import CampaignError
    with pytest.raises(CampaignError, match="wealth: 应在 1 到 100 之间"):
        validate({**owner.to_json(), "wealth": 101}, owner_schema(TABLES), "c.yaml")
    with pytest.raises(CampaignError, match="是不是想写 'purchase'"):
        validate({**owner.to_json(), "takeover": "purchas"}, owner_schema(TABLES), "c.yaml")
    with pytest.raises(CampaignError, match="'league_veteran' 重复"):
        validate({**coach.to_json(), "resume": ["league_veteran"] * 2}, coach_map, "c.yaml")
    with pytest.raises(CampaignError, match="level: 应在 1 到 5 之间"):
        validate({**roster_to_json(staff), "scout": {"name": "x", "level": 6}}, staff_schema(), "c.yaml")
    with pytest.raises(CampaignError, match="to_owner: 应在 0 到 100 之间"):
        validate({**aff.to_json(), "coach": {"owner_to": 0, "to_owner": -1}}, affinity_schema(), "c.yaml")
    assert validate({**aff.to_json(), "coach": {"owner_to": 0, "to_owner": 100}}, affinity_schema(), "c.yaml")["coach"] \
        == {"owner_to": 0, "to_owner": 100, "origins": {}}


# ---------------------------------------------------------------- any seed


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**63))
def test_every_value_stays_in_range(seed: int) -> None:
    d = Dice(seed)
    used: set[str] = set()
    owner, orec = generate_owner(d, "o", TABLES, NAMES, used)
    coach, crec = generate_coach_profile(d, "c", TABLES)
    staff, srec = generate_staff(d, "s", TABLES, NAMES, used)
    aff, arec = generate_affinity(d, "a", TABLES)
    assert all(1 <= v <= 100 for v in (owner.wealth, owner.fanaticism, owner.control))
    assert 30 <= owner.age <= 70
    assert owner.takeover in TABLES.keys(TABLES.takeover) and owner.origin in TABLES.keys(TABLES.owner_origin)
    assert owner.tycoon == (owner.wealth_tier in ("tycoon", "magnate", "titan"))
    assert owner.career_minded == (owner.fanaticism_tier == "career")
    assert all(1 <= coach.trait(dim) <= 100 for dim in ("passion", "stubbornness", "empathy", "discipline"))
    assert 1 <= len(coach.resume) <= 3 and len(set(coach.resume)) == len(coach.resume)
    assert len(coach.resume) == crec["resume_count"]["total"]
    assert -18 <= coach.resume_modifier(TABLES) <= 33  # three worst / three best entries
    assert [s.role for s in staff] == list(ROLES) and all(1 <= s.level <= 5 for s in staff)
    assert 1 <= staff[0].rapport <= 100 and -4 <= rapport_training_bonus(staff, TABLES) <= 6
    assert len(used) == 6  # the owner and five staff, no two alike
    for who in PEOPLE:
        for direction in DIRECTIONS:
            value = aff.get(who, direction)
            assert 1 <= value <= 100
            extreme = Affinity.tier(value) in ("hostile", "devoted")
            assert (direction in aff.bonds[who].origins) == extreme
    assert len([r for r in d.log if r.id.startswith("a/origin#")]) == sum(len(b.origins) for b in aff.bonds.values())
    assert Owner.from_json(owner.to_json()) == owner and CoachProfile.from_json(coach.to_json()) == coach
    assert roster_from_json(srec["roster"]) == staff and Affinity.from_json(arec["affinity"]) == aff
    validate(owner.to_json(), owner_schema(TABLES), "c.yaml")
    validate(aff.to_json(), affinity_schema(), "c.yaml")
    validate(roster_to_json(staff), staff_schema(), "c.yaml")
