"""002 §3.3 between battles: the host heals, forms a 伤员队 and recruits by the campaign's ``between`` keys,
applied at the next battle's start, printed in its first chapter and kept in the state; an entry that cannot be
applied is a located error at ``check``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from typer.testing import CliRunner

from anko_writer import cli
from anko_writer.campaign import load_campaign
from anko_writer.chapters import ChapterKey
from anko_writer.cli import app
from anko_writer.ruleset import get

SHIPPED = Path(__file__).resolve().parents[2] / "campaigns" / "engage" / "river.yaml"


def _campaign(tmp: Path, between: dict[str, Any], field_it: bool = False) -> Path:
    data = YAML(typ="safe").load(SHIPPED.read_text(encoding="utf-8"))
    data["between"] = between
    if field_it:
        data["battles"][1]["units"].append({"id": "伤员队", "zone": "渡口"})
    path = tmp / "c.yaml"
    with path.open("w", encoding="utf-8") as f:
        YAML().dump(data, f)
    return path


def _end_of_one() -> dict[str, Any]:
    camp = load_campaign(SHIPPED)
    state: dict[str, Any] = json.loads(get("engage").play(camp, ChapterKey(1, 12), camp.resources()).state_text or "")
    return state["units"]


def test_heal_recruit_and_a_wounded_unit_are_applied_at_battle_twos_start(tmp_path: Path) -> None:
    one = _end_of_one()
    assert one["游侠"]["wounded"] >= 3 and one["矛手"]["wounded"] >= 1 and one["矛手"]["training"] == "老兵"
    path = _campaign(tmp_path, {"b2": {"heal": {"游侠": 3}, "recruit": {"游侠": 5},
                                       "wounded_unit": {"from": ["矛手"], "name": "伤员队"}}}, field_it=True)
    camp = load_campaign(path)
    run = get("engage").play(camp, ChapterKey(2, 12), camp.resources())
    r1 = run.chapters[0]
    start = {u["id"]: u for u in r1.results["units"]}
    assert start["游侠"]["men"] == one["游侠"]["men"] + 3 + 5 and start["游侠"]["wounded"] == one["游侠"]["wounded"] - 3
    assert start["矛手"]["wounded"] == 0
    # 002 §3.3: the wounded fight two levels lower — a 老兵's as 未受训
    assert start["伤员队"]["men"] == one["矛手"]["wounded"] and start["伤员队"]["training"] == "未受训"
    assert [d["kind"] for d in r1.results["between"]] == ["heal", "wounded_unit", "recruit"]
    md = cli.chapter_files(camp.resources(), r1, camp)["b02/r01.md"]
    assert "战前整编" in md and "游侠：招募 5 人" in md and "由矛手的伤员" in md
    assert json.loads(run.state_text or "")["between"] == r1.results["between"]


def test_more_healed_than_wounded_is_refused_at_its_key(tmp_path: Path) -> None:
    n = _end_of_one()["游侠"]["wounded"] + 1
    res = CliRunner().invoke(app, ["check", str(_campaign(tmp_path, {"b2": {"heal": {"游侠": n}}}))])
    assert res.exit_code != 0 and "between.b2.heal.游侠" in res.output and "治不好" in res.output


def test_a_trained_units_wounded_cannot_form_a_wounded_unit(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["check", str(_campaign(
        tmp_path, {"b2": {"wounded_unit": {"from": ["游侠"], "name": "伤员队"}}}))])
    assert res.exit_code != 0 and "between.b2.wounded_unit.from" in res.output and "低于未受训" in res.output


def test_an_unknown_unit_or_battle_is_refused(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["check", str(_campaign(tmp_path, {"b2": {"recruit": {"精灵": 5}}}))])
    assert res.exit_code != 0 and "between.b2.recruit.精灵" in res.output
    res = CliRunner().invoke(app, ["check", str(_campaign(tmp_path, {"b3": {"recruit": {"游侠": 5}}}))])
    assert res.exit_code != 0 and "between.b3" in res.output and "没有第3战" in res.output
