"""§1.6 sealed where it matters: the enemy's hidden cards and deployments are sealed facts — battle 1's printed in
chapter 0 from the very facts the arc's book holds, battle 2's in battle 1's end chapter — revealed in the chapter
where they first matter, else at the battle's end; and the fog: a hidden card or deployment changed leaves every
chapter before its reveal byte-identical apart from the commitments."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from anko_writer import cli
from anko_writer.campaign import load_campaign
from anko_writer.chapters import ChapterKey
from anko_writer.errors import AnkoError
from anko_writer.hidden import Fact, fact_commitment, scan, seal_line
from anko_writer.render import render_chapter
from anko_writer.ruleset import get
from anko_writer.rulesets.engage.ruleset import briefing
from tests.contract.sealing import blank, published

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "campaigns" / "engage" / "river.yaml"


def _data() -> dict[str, Any]:
    data: dict[str, Any] = YAML(typ="safe").load(SHIPPED.read_text(encoding="utf-8"))
    return data


def _write(tmp: Path, data: dict[str, Any]) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    path = tmp / "c.yaml"
    with path.open("w", encoding="utf-8") as f:
        YAML().dump(data, f)
    return path


def _play(path: Path, arc: int = 1) -> Any:
    camp = load_campaign(path)
    return camp, get("engage").play(camp, ChapterKey(arc, 12), camp.resources())


def test_chapter_zero_prints_the_seal_lines_of_the_facts_the_arc_seals_as_of_chapter_zero(tmp_path: Path) -> None:
    camp, run = _play(SHIPPED)
    intro = briefing(camp.data, camp.seed)
    lines = [seal_line(Fact(s["id"], s["fact"], s["purpose"]), camp.seed) for s in intro["seals"]]
    zero = (ROOT / "campaigns" / "engage" / "river-chapter0.md").read_text(encoding="utf-8")
    assert lines and all(x in zero for x in lines)
    assert {s.roll_id for s in scan(zero)[0]} == {"b1/卡/巨魔#卡", "b1/伏/1#伏"}  # a deployment's id names no unit
    assert "猎手" not in zero and "巨魔活力" not in zero  # neither the ambushers nor the trolls' traits
    # chapter 1 repeats them above its reveals (the same commitment), the reveal opens them
    r1 = run.chapters[0]
    md = cli.chapter_files(camp.resources(), r1, camp)["b01/r01.md"]
    seals, reveals = scan(md)
    assert {s.roll_id: s.commitment for s in seals if "#" in s.roll_id and s.expr == "事实"} == \
        {s["id"]: fact_commitment(Fact(s["id"], s["fact"]), camp.seed) for s in intro["seals"]}
    assert all(r.matches(next(s for s in seals if s.roll_id == r.roll_id)) for r in reveals if r.kind == "fact")


def test_a_card_is_revealed_where_it_is_used_and_an_ambush_where_it_is_seen() -> None:
    camp, run = _play(SHIPPED)
    r1 = run.chapters[0].results
    # the trolls close on the elves in round 1: their dice read the card, so it is revealed in that chapter
    assert any(c["unit"] == "巨魔" for c in r1["closings"]) and "b1/卡/巨魔#卡" in r1["revealed"]
    told = {r["id"]: r for r in r1["reveals"]}
    assert told["b1/卡/巨魔#卡"]["state"] == {"unit": "巨魔", "traits": ["巨魔活力", "残忍天性"]}
    assert told["b1/卡/巨魔#卡"]["sealed_in"] == 0 and told["b1/卡/巨魔#卡"]["salt"]
    # before it, chapter 0's record shows the traits as unknown (null), and its speed too
    trolls = next(u for u in briefing(camp.data, camp.seed)["units"] if u["id"] == "巨魔")
    assert trolls["traits"] is None and trolls["unknown"] == ["traits"] and trolls["speed"] is None
    # the elves charge into 南滩, where the hunters lie: seen at the round's end (no ambush: they were found)
    assert "b1/伏/1#伏" in r1["revealed"] and r1["sprung"] == []
    assert told["b1/伏/1#伏"]["state"]["id"] == "猎手" and told["b1/伏/1#伏"]["state"]["zone"] == "南滩"
    assert "猎手" not in {u["id"] for u in r1["units"]} and "猎手" in {u["id"] for u in r1["after"]}


def _ambush() -> dict[str, Any]:
    data = _data()
    data["battles"] = data["battles"][:1]
    units = data["battles"][0]["units"]
    hunters = next(u for u in units if u["id"] == "猎手")
    hunters["zone"] = "河"  # 短距 from the elves in 北林: their 投矛 reach them
    return data


def test_an_ambush_springs_when_the_enemy_comes_within_reach_and_strikes_as_an_surprise(tmp_path: Path) -> None:
    _, run = _play(_write(tmp_path, _ambush()))
    r1 = run.chapters[0].results
    assert r1["sprung"] == ["猎手"] and "b1/伏/1#伏" in r1["revealed"]
    assert "猎手" in {u["id"] for u in r1["units"]}  # in play from the round's start
    hits = [e for e in r1["engagements"] if e["attacker"] == "猎手"]
    assert all(e["phase"] == "突袭" for e in hits)  # E13: the elves did not know they were there


def test_battle_twos_hidden_card_is_sealed_in_battle_ones_end_chapter_and_carried() -> None:
    camp, one = _play(SHIPPED)
    end = one.chapters[-1]
    assert end.name == "end"
    (seal,) = end.results["seals"]
    assert seal["id"] == "b2/卡/头领#卡" and seal["side"] == "巨魔" and seal["expr"] == "事实"
    md = cli.chapter_files(camp.resources(), end, camp)["b01/end.md"]
    assert f"承诺 {seal['commitment']}" in md and "强大而残忍" not in md
    assert end.json_record()["seals"][0].get("seal", {}).get("fact") is None  # masked by the core
    _, two = _play(SHIPPED, 2)
    told = [r for c in two.chapters for r in c.results["reveals"] if r["id"] == seal["id"]]
    assert len(told) == 1 and told[0]["state"]["traits"] == ["巨魔活力", "残忍天性", "强大而残忍"]
    assert told[0]["sealed_arc"] == 1


def test_a_carried_card_that_no_longer_matches_its_commitment_is_refused() -> None:
    camp, one = _play(SHIPPED)
    rs = get("engage")
    state = rs.load_state(one.state_text or "", "state-end.yaml", camp.resources())
    bad = copy.deepcopy(state)
    bad["seals"][0]["fact"]["fact"]["traits"] = ["巨魔活力"]
    with pytest.raises(AnkoError, match="承诺不符"):
        rs.play(camp, ChapterKey(2, 1), camp.resources(), start=(1, bad))


def _fogged(tmp: Path, zone: str, men: int, armour: str, traits: list[str]) -> tuple[dict[str, str], list[Any]]:
    """Battle 1 with a hidden deployment (``zone``, ``men``) and a card-hidden watcher (``armour``, ``traits``),
    both far from the fighting."""
    data = _data()
    data["battles"] = data["battles"][:1]
    b = data["battles"][0]
    b["zones"] += [{"id": "后山", "name": "后山"}, {"id": "东岗", "name": "东岗"}]
    bow = {"name": "短弓", "traits": [], "range": "中距", "modes": ["平射", "抛射"]}
    b["units"] += [
        {"id": "暗哨", "side": "巨魔", "name": "巨魔暗哨", "men": 10, "training": "受训", "weapons": [bow],
         "armour": {"kind": armour}, "traits": traits, "zone": "后山", "card_hidden": ["traits", "armour"]},
        {"id": "伏兵", "side": "巨魔", "name": "巨魔伏兵", "men": men, "training": "受训", "weapons": [bow],
         "zone": zone, "hidden": True}]
    camp, run = _play(_write(tmp, data))
    files = published(camp, run)
    zero = get("engage").chapter0(briefing(camp.data, camp.seed))
    files["chapter0.md"] = blank(render_chapter(camp.resources(), zero.template, cli.chapter_context(zero, camp),
                                                     seed=camp.seed))
    return files, run.chapters


def _first_told(chapters: list[Any], fid: str) -> int:
    return min([c.part for c in chapters if c.name is None and fid in c.results["revealed"]] or [99])


def test_a_hidden_card_or_deployment_changed_changes_nothing_published_before_its_reveal(tmp_path: Path) -> None:
    a, ch_a = _fogged(tmp_path / "a", "后山", 15, "重甲", ["巨魔活力", "残忍天性"])
    b, ch_b = _fogged(tmp_path / "b", "东岗", 40, "none", [])
    first = min(_first_told(ch, fid) for ch in (ch_a, ch_b) for fid in ("b1/卡/暗哨#卡", "b1/伏/1#伏"))
    window = sorted(k for k in a if k.endswith((".md", ".json", ".svg")) and (
        k == "chapter0.md" or k.startswith("b01/r") and int(k[5:7]) < first))
    assert len(window) >= 4, window  # chapter 0 and a few rounds at least
    assert [k for k in window if a[k] != b[k]] == []
    # the sealed facts differ: the host could not have swapped them afterwards
    fa = [s["fact"] for s in briefing(load_campaign(tmp_path / "a" / "c.yaml").data, 1)["seals"]]
    fb = [s["fact"] for s in briefing(load_campaign(tmp_path / "b" / "c.yaml").data, 1)["seals"]]
    assert fa != fb
