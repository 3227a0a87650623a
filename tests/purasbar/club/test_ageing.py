"""Season-end ageing (000 §4.4 step 6, designed §8.4): decline, MNT compensation, leaders, retirement."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.dice import Dice
from anko_writer.errors import TableError
from anko_writer.render import find_problems, render_chapter
from anko_writer.resources import Resources
from anko_writer.rulesets.purasbar.club.ageing import (
    age_squad,
    band,
    in_bounds,
    leader_chance,
    load_ageing,
    load_ageing_table,
    remove_retired,
)
from anko_writer.rulesets.purasbar.models import Player
from tests.util import RES, club, player

TABLE = load_ageing(RES)


def vet(name: str, age: int, pos: str = "FW", mnt: int = 50, sta: int = 60, main: int = 40) -> Player:
    """A rolled player of ``age`` (before the season-end +1)."""
    p = player(name, pos, age=age)
    p.attrs.update(MNT=mnt, STA=sta)
    p.attrs[p.main] = main
    return p


def render_macro(tmp: Path, call: str, **ctx: Any) -> str:
    """Render ``{{ gr.<call> }}`` from growth.j2 through anko_writer.render, prose-checked."""
    folder = tmp / "templates" / "purasbar"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "t.md.j2").write_text("{% import 'growth.j2' as gr with context %}{{ gr." + call + " }}\n",
                                    encoding="utf-8")
    md = render_chapter(Resources("purasbar", tmp), "t.md.j2", ctx)
    assert find_problems(md) == [], find_problems(md)
    assert "{{" not in md and "None" not in md
    return md


def test_table_is_designed_with_the_documented_numbers() -> None:
    assert TABLE["source"] == "designed"
    assert [(b["from"], b["chance"], b["loss"]) for b in TABLE["decline"]["bands"]] == \
        [(30, 20, "1D3"), (32, 35, "1D3"), (34, 50, "1D3+1"), (36, 70, "1D3+2")]
    assert [(b["from"], b["chance"]) for b in TABLE["retirement"]["bands"]] == \
        [(34, 15), (35, 30), (36, 50), (37, 70), (38, 100)]
    assert TABLE["compensation"] == {"from": 30, "veteran": 1, "declined": 1}
    assert TABLE["leader"] == {"from": 30, "mnt": 60, "base": 15, "max_leaders": 2}
    assert band(TABLE["decline"]["bands"], 29) is None and band(TABLE["decline"]["bands"], 99)["chance"] == 70


def one(p: Player, *faces: int, leaders: int = 0) -> dict[str, Any]:
    """Age a one-player club (plus ``leaders`` leader team-mates under 30) with fixed faces."""
    mates = [vet(f"领袖{i}", 20) for i in range(leaders)]
    for m in mates:
        m.leader = True
    d = Dice(1)
    d.fix(*faces, prefix=f"s1/age/{p.name}")
    rec = age_squad(d, "s1/age", club("城", [p, *mates]), TABLE)
    return rec["players"][0]


def test_under_thirty_only_ages() -> None:
    p = vet("少", 28)
    rec = one(p)
    assert p.age == 29 and rec["decline"] is None and rec["retirement"] is None and rec["mnt"] is None
    assert rec["leader"] is None and p.attrs["MNT"] == 50


@pytest.mark.parametrize("age, face, declines", [(29, 20, True), (29, 21, False), (31, 35, True), (31, 36, False)])
def test_decline_threshold_by_band(age: int, face: int, declines: bool) -> None:
    p = vet("老", age)
    rec = one(p, face, 2, 3)
    assert rec["decline"]["chance"] == (20 if age == 29 else 35) and rec["decline"]["success"] is declines
    assert (p.attrs["STA"], p.attrs["ATK"]) == ((58, 37) if declines else (60, 40))
    assert rec["mnt"] == {"before": 50, "gain": 2 if declines else 1, "after": 52 if declines else 51}


def test_decline_losses_grow_with_age_and_stop_at_one() -> None:
    p = vet("老", 35, pos="GK", sta=3, main=70)
    assert one(p, 50)["retired"] and p.age == 36           # 36: retirement 50%, 50 ≤ 50
    q = vet("老二", 35, pos="GK", sta=3, main=70)
    rec = one(q, 51, 70, 1, 3)                             # stays; decline 70 ≤ 70; 1D3+2 shows 3 and 5
    assert not rec["retired"] and rec["decline"]["success"]
    assert [(x["attr"], x["roll"]["expr"], x["roll"]["total"], x["before"], x["after"])
            for x in rec["decline"]["losses"]] == [("STA", "1D3+2", 3, 3, 1), ("GK", "1D3+2", 5, 70, 65)]
    assert q.attrs["STA"] == 1 and q.attrs["GK"] == 65


@pytest.mark.parametrize("age, chance", [(33, 15), (34, 30), (35, 50), (36, 70), (37, 100), (50, 100)])
def test_retirement_threshold_by_age(age: int, chance: int) -> None:
    p = vet("老", age)
    rec = one(p, chance)
    assert rec["retirement"]["chance"] == chance and rec["retired"]
    assert rec["decline"] is None and rec["mnt"] is None  # a retiring player rolls nothing else
    if chance < 100:
        q = vet("老", age)
        rec = one(q, chance + 1, 100)
        assert not rec["retired"] and rec["decline"]["success"] is False


def test_mnt_compensation_caps_at_99() -> None:
    p = vet("老", 31, mnt=98)
    one(p, 1, 1, 1, 100)
    assert p.attrs["MNT"] == 99


@pytest.mark.parametrize("mnt, face, leader", [(58, None, False), (59, 15, True), (59, 16, False),
                                               (79, 35, True), (79, 36, False)])
def test_leader_threshold_and_chance(mnt: int, face: int | None, leader: bool) -> None:
    p = vet("老", 29, mnt=mnt)
    rec = one(p, 100, *([face] if face else []))  # no decline: MNT +1 before the leader check
    assert p.leader is leader
    if face is None:
        assert rec["leader"] is None and p.attrs["MNT"] == 59
        return
    assert rec["leader"]["mnt"] == mnt + 1 and rec["leader"]["chance"] == (15 if mnt == 59 else 35)
    assert leader_chance(61, TABLE) == 16


def test_leader_needs_room_and_thirty() -> None:
    p = vet("老", 29, mnt=90)
    assert one(p, 100, leaders=2)["leader"] is None and not p.leader
    q = vet("少", 25, mnt=90)
    assert one(q)["leader"] is None
    r = vet("老", 29, mnt=90)
    r.leader = True
    assert one(r, 100)["leader"] is None and r.leader


def test_record_and_removal() -> None:
    old, young = vet("甲", 40), vet("乙", 20)
    ghost = Player("丙", "GK", True)  # an AI core not rolled yet (000 §5.8.3)
    c = club("城", [old, young, ghost])
    d = Dice(3)
    rec = age_squad(d, "s1/age", c, TABLE)
    assert rec["retired"] == ["甲"] and rec["skipped"] == ["丙"] and ghost.age is None
    assert [r["name"] for r in rec["players"]] == ["甲", "乙"]
    assert remove_retired(c, rec) == [old] and c.players == [young, ghost]


def test_streams_are_per_player() -> None:
    a1, b1 = vet("甲", 33), vet("乙", 33)
    a2 = vet("甲", 33)
    r1 = age_squad(Dice(9), "k", club("城", [a1, b1]), TABLE)
    r2 = age_squad(Dice(9), "k", club("城", [a2]), TABLE)
    assert r1["players"][0] == r2["players"][0]


def test_rates_match_the_table() -> None:
    """Fixed seed, 3,000 players an age: retirement and decline rates within ±3 points of the table."""
    n = 3000
    d = Dice(2024)
    for age in range(30, 40):
        c = club("城", [vet(f"p{i}", age - 1) for i in range(n)])
        rec = age_squad(d, f"s1/{age}", c, TABLE)
        ret = band(TABLE["retirement"]["bands"], age)
        retired = len(rec["retired"]) / n
        assert abs(retired - (ret["chance"] / 100 if ret else 0)) < 0.03, (age, retired)
        stayed = [r for r in rec["players"] if not r["retired"]]
        if stayed:
            rate = sum(r["decline"]["success"] for r in stayed) / len(stayed)
            assert abs(rate - band(TABLE["decline"]["bands"], age)["chance"] / 100) < 0.035, (age, rate)


ATTR = st.integers(1, 99)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["FW", "MF", "DF", "GK"]), st.integers(16, 40), ATTR, ATTR, ATTR,
                          ATTR, ATTR, ATTR, st.booleans()), min_size=1, max_size=12),
       st.integers(1, 12), st.integers(0, 10_000))
def test_attributes_stay_in_bounds(rows: list[tuple], seasons: int, seed: int) -> None:
    players = [Player(f"p{i}", pos, core, dict(zip(("ATK", "DEF", "MID", "GK", "STA", "MNT"), vals, strict=False)), age)
               for i, (pos, age, *vals, core) in enumerate(rows)]
    c = club("城", players)
    d = Dice(seed)
    for s in range(seasons):
        ages = {p.name: p.age for p in c.players}
        rec = age_squad(d, f"s{s}/age", c, TABLE)
        remove_retired(c, rec)
        assert all(in_bounds(p) and p.age == ages[p.name] + 1 for p in c.players)
        assert sum(p.leader for p in c.players) <= 2


def test_bad_bands_are_refused(tmp_path: Path) -> None:
    text = RES.table_path("ageing.yaml").read_text(encoding="utf-8").replace("{from: 32, to: 33", "{from: 33, to: 33")
    bad = tmp_path / "ageing.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(TableError, match="这一段应从 32 岁开始"):
        load_ageing_table(bad)


def test_ageing_renders(tmp_path: Path) -> None:
    d = Dice(5)
    ps = [vet("卡尔·穆勒", 33, mnt=70), vet("汉斯·施密特", 31, mnt=62), vet("奥托·韦伯", 24)]
    c = club("雷希特竞技", ps)
    d.fix(20, prefix="s1/age/卡尔·穆勒")            # 34: retirement 20 > 15, he stays
    d.fix(5, 2, 1, prefix="s1/age/汉斯·施密特")      # 32: decline 5 ≤ 35, STA −2, ATK −1; then the leader roll
    rec = age_squad(d, "s1/age", c, TABLE)
    md = render_macro(tmp_path, "ageing(rec)", rec=rec)
    h = rec["players"][1]
    assert "全队年龄 +1" in md and "**汉斯·施密特**（前锋，32 岁）" in md
    assert "衰减判定「1D100＝5」 ≤ 35，**状态下滑**：STA「1D3＝2」60 → 58、ATK「1D3＝1」40 → 39。" in md
    assert "老将精神补偿 MNT 62 → 64。" in md and f"{h['leader']['chance']}%" in md
    assert "退役判定「1D100＝20」 > 15，还想再踢一年。" in md and "奥托·韦伯" not in md
    rec["players"][0].update(retired=True)
    rec["retired"] = ["卡尔·穆勒"]
    assert "离队：卡尔·穆勒。" in render_macro(tmp_path, "ageing(rec)", rec=rec)
    quiet = age_squad(Dice(1), "q", club("城", [vet("少", 20)]), TABLE)
    assert "无人需要掷衰减判定" in render_macro(tmp_path, "ageing(rec)", rec=quiet)
