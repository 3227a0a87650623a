"""Templates select and print from data (issue 10): records carry machine fields (a roll's ``kind``,
thresholds, factors, multipliers, bounds, ``clamped``), labels live once in ``glossary.yaml``, and no
template restates a rule number or matches a Chinese purpose."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from anko_writer.dice import Dice, Roll
from anko_writer.resources import builtin_dir
from anko_writer.rulesets.purasbar.club.generation import roll_name
from anko_writer.rulesets.purasbar.club.morale import load_morale, monthly_adjustment
from anko_writer.rulesets.purasbar.club.youth import load_youth, promotion_chance
from anko_writer.rulesets.purasbar.competition.schedule import make_schedule
from anko_writer.rulesets.purasbar.events.depth import multiplier, scale
from anko_writer.rulesets.purasbar.glossary import cn, glossary, load_glossary
from anko_writer.rulesets.purasbar.match.abilities import stamina_factor
from anko_writer.rulesets.purasbar.match.engine import GOAL_THRESHOLD, SHOT_THRESHOLD, _Ctx, attack, play
from anko_writer.rulesets.purasbar.match.formations import FORMATIONS
from anko_writer.rulesets.purasbar.match.tactics import Coach, adaptation
from anko_writer.rulesets.purasbar.money.finance import R_BANDS, r_band, r_from_ledger
from anko_writer.rulesets.purasbar.money.ledger import Ledger
from anko_writer.rulesets.purasbar.ruleset import INFO
from tests.purasbar.match.test_match import _sides
from tests.util import RES, no_reveal

TEMPLATES = builtin_dir("templates") / "purasbar"
SOURCES = {p.name: p.read_text(encoding="utf-8") for p in sorted(TEMPLATES.glob("*.j2"))}

# ------------------------------------------------------------------------- the templates' sources

FORBIDDEN = [
    # selecting rolls by their human purpose
    "selectattr('purpose'", "r.purpose ==", "r.purpose in",
    # restated rule numbers: §5.1 thresholds, §5.3.2 stamina factor, §6.1.2 multipliers, §6.2.3 bands of R
    "> 15，形成射门", "≤ 15，攻势被破坏", "> 20，球进了", "≤ 20，没能破门",
    "p.stamina < 30", "p.stamina < 50", "MULT", "BAND_RULE", "R ≥ 2.0", "0.5 ≤ R",
    # §5.1.2 shooter weights, the 1D3/1D5 face orders of effects.py
    "STD_WEIGHTS", "WHO_ORDER",
    # clamps re-derived by adding the parts up
    "raw.v", "c.training + c.assistant + c.age_term", "x.before + x.drift + x.swing",
    # label dictionaries copied into templates (now in glossary.yaml)
    "{% set FAC =", "{% set ROLE =", "{% set STAGE =", "{% set BAND =", "{% set REASON =", "{% set LABEL =",
    "{% set POS =", "{% set ABIL =", "{% set GROUP =", "{% set TENDENCY =", "{% set POL =", "{% set ENV =",
    "{% set TRAIT =", "{% set POOL =", "{% set COMP =", "{% set STAGE_NAME =", "{% set WINDOW =",
    "{% set APPLIES =", "{% set WHEN =", "{% set REFUSED =", "{% set TIER =", "{% set KIND = {'",
]


@pytest.mark.parametrize("needle", FORBIDDEN)
def test_no_template_restates_a_rule_or_matches_a_purpose(needle: str) -> None:
    found = [name for name, text in SOURCES.items() if needle in text]
    assert not found, f"{needle!r} in {found}: read it from the record or from glossary.yaml"


LABEL_DICT = re.compile(r"\{'[^{}']+': '[^']*[\u4e00-\u9fff][^{}]*\}")
"""A dictionary literal with Chinese values: ``{'win': '赢球', …}`` (named or inline)."""


def test_no_label_dictionary_in_templates() -> None:
    found = [(name, m.group()[:40]) for name, text in SOURCES.items() for m in LABEL_DICT.finditer(text)]
    assert not found, found


def test_every_cn_section_a_template_names_exists() -> None:
    used = {m.group(1) for text in SOURCES.values() for m in re.finditer(r"\bcn\('(\w+)'", text)}
    assert used and used <= set(glossary()), used - set(glossary())


# ------------------------------------------------------------------------------------- the glossary

def test_glossary_completes_staff_roles_and_formations_from_their_sources() -> None:
    g = load_glossary(builtin_dir("tables") / "purasbar")
    assert g["staff_role"]["assistant"] == "首席助教" and g["staff_role"]["coach"] == "主教练"
    assert g["formation"] == {name: f.label for name, f in FORMATIONS.items()}
    assert g["match_stage"]["quarter_final"] == "四分之一决赛" and g["prize_stage"]["quarter"] == "八强"
    assert g["ledger_kind"]["transfer_in"] == "转会" and g["ledger_total"]["transfer_in"] == "转会支出"


def test_cn_filter_is_registered_and_strict() -> None:
    assert INFO.filters["cn"] is cn
    assert cn("broke", "finance_band") == "极度缺钱" and cn("x", "finance_band", "?") == "?"
    with pytest.raises(ValueError, match="no word for 'x' in finance_band"):
        cn("x", "finance_band")
    with pytest.raises(ValueError, match="no section 'nope'"):
        cn("x", "nope")


# ---------------------------------------------------------------------------- the records' fields

def test_roll_kind_is_emitted_only_when_set() -> None:
    assert Roll("a#1", "x", "1D6", (3,), 3).to_json() == {
        "id": "a#1", "purpose": "x", "expr": "1D6", "dice": [3], "total": 3, "hidden": False}
    d = Dice(1)
    assert d.roll("k", "1D6", "x", kind="k1").to_json()["kind"] == "k1"


def test_schedule_draw_and_name_rolls_carry_their_kind() -> None:
    d = Dice(7)
    mark = d.mark()
    clubs = [f"队{i}" for i in range(6)]
    make_schedule(d, "s1/schedule", clubs)
    rolls = d.since(mark)
    draws = [r for r in rolls if r.kind == "schedule_draw"]
    assert [r.expr for r in draws] == ["1D6", "1D5", "1D4", "1D3", "1D2"]
    assert all(r.kind is None for r in rolls if r not in draws)  # the home rolls
    mark = d.mark()
    d.fix(2, 1)
    roll_name(d, "n", {"given": ["甲", "乙"], "family": ["丙", "丁"]}, set())
    assert [(r.purpose, r.kind) for r in d.since(mark)] == [("名", "given_name"), ("姓", "family_name")]


def test_shooter_pick_says_when_a_group_was_empty() -> None:
    home, away = _sides()
    d = Dice(1)
    d.fix(20, 10, 2, 13)
    assert attack(_Ctx(d, "m", 30, no_reveal), 1, home, away)["shooter_pick"]["reweighted"] is False
    home.lineup["MF"] = []
    d.fix(30, 10, 2, 13)  # (46 + 0) / 2 − 36 + 30 + 4 = 21: a shot; 1D70 = 10 → FW
    pick = attack(_Ctx(d, "m", 30, no_reveal), 1, home, away)["shooter_pick"]
    assert pick["reweighted"] is True and [w[0] for w in pick["weights"]] == ["FW", "OTHER"]


def test_attack_record_carries_the_thresholds() -> None:
    home, away = _sides()
    d = Dice(1)
    d.fix(9)  # 15: no shot
    a = attack(_Ctx(d, "m", 30, no_reveal), 1, home, away)
    assert a["shot_threshold"] == SHOT_THRESHOLD == 15 and not a["shot"] and "goal_threshold" not in a
    d.fix(10, 1, 1, 12)  # 16: a shot; finish 20: saved
    a = attack(_Ctx(d, "m", 30, no_reveal), 1, home, away)
    assert a["shot"] and a["goal_threshold"] == GOAL_THRESHOLD == 20 and not a["goal"]


def test_lineup_rows_carry_the_stamina_factor() -> None:
    home, away = _sides()
    home.lineup["FW"][0].stamina = 40
    home.lineup["FW"][1].stamina = 20
    home.entries = [(slot, p, p.stamina) for slot, p in home.on_pitch()]
    d = Dice(1)
    rec = play(d, "m", home, away, competition="league", round_no=1, neutral=False, reveal=no_reveal)
    rows = {r["name"]: r for r in rec["lineups"]["home"]}
    assert rows["主锋0"]["stamina_factor"] == [4, 5] and rows["主锋1"]["stamina_factor"] == [3, 5]
    assert all(r["stamina_factor"] == list(stamina_factor(r["stamina"])) for r in rows.values())
    assert rows["主门"]["stamina_factor"] == [1, 1]


@pytest.mark.parametrize("polarity", ["positive", "negative", "neutral"])
@pytest.mark.parametrize("depth", [-3, -2, -1, 0, 1, 2, 3])
def test_multiplier_is_the_one_scale_applies(polarity: str, depth: int) -> None:
    assert scale(400, polarity, depth)[0] == 400 * multiplier(polarity, depth)


@pytest.mark.parametrize("funds,band", [(300, "rich"), (150, "balanced"), (60, "tight"), (10, "broke")])
def test_r_record_carries_its_band_bounds(funds: int, band: str) -> None:
    rec = r_from_ledger(Ledger(funds), 100, 1)
    assert rec["band"] == band and rec["band_bounds"] == list(R_BANDS[band])
    lo, below = rec["band_bounds"]
    assert (lo is None or rec["R"] >= lo) and (below is None or rec["R"] < below)
    assert [r_band(x) for x in (2.0, 1.99, 1.0, 0.5, 0.49, float("inf"))] == [
        "rich", "balanced", "balanced", "tight", "broke", "rich"]


def test_adaptation_says_when_it_was_clamped() -> None:
    d = Dice(1)
    d.fix(1)  # 1 − 1 (aligned) − 1 (flexible) = −1 → at least 1
    rec = adaptation(d, "k", Coach("a", "attacking", 10), "4 3 3")
    assert (rec["raw"], rec["matches"], rec["clamped"]) == (-1, 1, True)
    d.fix(3)
    rec = adaptation(d, "k", None, "4 3 3")
    assert (rec["raw"], rec["matches"], rec["clamped"]) == (3, 3, False)


def test_promotion_chance_says_when_it_was_clamped() -> None:
    table = load_youth(RES)
    low = promotion_chance(0, 0, 40, table)
    assert low["clamped"] == (low["chance"] != low["training"] + low["assistant"] + low["age_term"] + low["bonus"])
    assert promotion_chance(0, 0, 40, table, bonus=-500)["clamped"] is True
    assert promotion_chance(2, 2, 19, table)["clamped"] is False


def test_morale_adjustment_says_when_it_was_clamped() -> None:
    table = load_morale(RES)
    assert monthly_adjustment(["win"], 0, table)["clamped"] is False
    top = monthly_adjustment(["win"] * 4, 100, table, bonus=50)
    assert top["clamped"] is True and top["morale"] == 100


def test_templates_folder_is_the_checkouts() -> None:
    assert Path(TEMPLATES).is_dir() and "match.j2" in SOURCES


def test_a_campaigns_glossary_overrides_the_shipped_one(tmp_path: Path) -> None:
    from anko_writer.render import render_chapter
    from anko_writer.rulesets.purasbar import RULESET

    shipped = (builtin_dir("tables") / "purasbar" / "glossary.yaml").read_text(encoding="utf-8")
    (tmp_path / "tables" / "purasbar").mkdir(parents=True)
    (tmp_path / "tables" / "purasbar" / "glossary.yaml").write_text(
        shipped.replace("training: 训练设施", "training: 训练场"), encoding="utf-8")
    (tmp_path / "templates" / "purasbar").mkdir(parents=True)
    (tmp_path / "templates" / "purasbar" / "x.md.j2").write_text(
        "{{ 'training' | cn('facility') }}、{{ 'youth' | cn('facility') }}\n", encoding="utf-8")
    res = RULESET.resources(tmp_path)
    assert render_chapter(res, "x.md.j2", {}) == "训练场、青训设施\n"
    assert cn("training", "facility") == "训练设施"  # the shipped filter is untouched
