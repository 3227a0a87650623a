"""002 §2.6: a unit card in the seed's own format (``card: |``) plays as the same card in YAML fields, and an
unreadable one is a located error: the file, line and key of the card, the card's own line and field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from typer.testing import CliRunner

from anko_writer.campaign import load_campaign
from anko_writer.chapters import ChapterKey
from anko_writer.cli import app
from anko_writer.ruleset import get

SHIPPED = Path(__file__).resolve().parents[2] / "campaigns" / "engage" / "river.yaml"
RANGER = """高等精灵边防军分队
【部队规模】25人（超小）
【受训程度】受训，有指挥官
【部队战术】快速阵型（紧密）
【部队特性】穿林
【制式装备】附魔长剑，长弓，精灵重盾，巡守皮甲
【附魔长剑】附魔长剑适用于近战白刃战，具有“单兵”和“附魔武器”特性。
【长弓】长弓适用于远距平射、远距抛射，具有“定发”特性。
【精灵重盾】精灵重盾具有“支援”特性。
【巡守皮甲】巡守皮甲具有“轻甲”特性。
"""
CARD_KEYS = ("name", "men", "training", "commander", "tactics", "traits", "weapons", "armour", "shield")


def _with_card(tmp: Path, card: str, extra: dict[str, Any] | None = None) -> Path:
    data = YAML(typ="safe").load(SHIPPED.read_text(encoding="utf-8"))
    ranger = data["battles"][0]["units"][0]
    assert ranger["id"] == "游侠"
    for k in CARD_KEYS:
        ranger.pop(k, None)
    ranger["card"] = card
    ranger.update(extra or {})
    path = tmp / "c.yaml"
    with path.open("w", encoding="utf-8") as f:
        YAML().dump(data, f)
    return path


def _chapters(path: Path) -> list[Any]:
    camp = load_campaign(path)
    return [c.results for c in get("engage").play(camp, ChapterKey(1, 12), camp.resources()).chapters]


def test_a_card_in_the_seeds_format_plays_as_the_same_card_in_fields(tmp_path: Path) -> None:
    assert _chapters(_with_card(tmp_path, RANGER)) == _chapters(SHIPPED)


def test_a_bad_card_line_is_located_at_the_card_and_names_its_line_and_field(tmp_path: Path) -> None:
    path = _with_card(tmp_path, RANGER.replace("25人（超小）", "25人（小型）"))
    res = CliRunner().invoke(app, ["check", str(path)])
    assert res.exit_code != 0 and "Traceback" not in res.output
    text = path.read_text(encoding="utf-8").splitlines()
    line = next(i for i, x in enumerate(text, start=1) if x.strip().startswith("card:"))
    assert f"c.yaml:{line}" in res.output and "battles[0].units[0].card" in res.output
    assert "第2行【部队规模】：25人是超小，卡上写的是小型" in res.output


def test_a_card_and_the_same_field_in_yaml_is_refused(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["check", str(_with_card(tmp_path, RANGER, {"men": 30}))])
    assert res.exit_code != 0 and "battles[0].units[0].card" in res.output and "不要再写 men" in res.output
