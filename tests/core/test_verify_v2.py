"""Commitment versions: v1 lines posted by the previous version still verify; v2 rolls (reading and faces) and
secret facts verify, and every kind of tampering is a located problem (hidden.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from anko_writer import hidden
from anko_writer.dice import Dice, DiceExpr, Roll
from anko_writer.hidden import Fact, canonical_json, reveal_line, scan, seal_line, verify_dir
from tests import json_choices
from tests.choices import Choices, built

# Posted by main before this change (/tmp/snap-main: the 群英杯's seed-188 league, Blood Bowl's orc league).
OLD_POSTS = [
    ("〔封存｜编号 s2/league/r20/内特维克联合-雷希特竞技/events#3｜1D100＝？？？｜承诺 "
     "05031fe395d70ee0ce8b41e2194cd8493d1e22b6ac7f41f0955bbca4f67108c2〕",
     "〔揭晓｜编号 s2/league/r20/内特维克联合-雷希特竞技/events#3｜1D100＝13｜盐 aa30457333b9c3a9fb1b52a24f20fc01〕"),
    ("〔封存｜编号 s2/r5/g1/h1/away4#4｜D68＝？？？｜承诺 083c9b95dfda50c11b34ae60c1db8d8a139d0b3302757ef20d17ea12bd046eed〕",
     "〔揭晓｜编号 s2/r5/g1/h1/away4#4｜D68＝37｜盐 46b3c55b785c5ca828525b6ed7edb08e〕"),
]
SEED = 20240611


def _post(tmp: Path, *lines: str) -> hidden.VerifyReport:
    """``verify`` over one chapter holding ``lines``."""
    folder = tmp / "out" / "s01"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "m01.md").write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    return verify_dir(tmp / "out")


def _spread(faces: tuple[int, ...] = (2, 3, 5)) -> Roll:
    d = Dice(SEED)
    d.fix(*faces)
    return d.roll("b1/r1/交战1", DiceExpr.parse(f"{len(faces)}D6").read_as("spread"), "减员骰", hidden=True)


CARD = Fact("b1/卡/巨魔#卡", {"unit": "巨魔", "traits": ["再生", "巨魔活力"], "note": "林中 [b]伏兵[/b] <i>|〕"},
            "敌军部队卡")


@pytest.mark.parametrize("seal, reveal", OLD_POSTS)
def test_v1_posts_of_the_previous_version_verify(seal: str, reveal: str, tmp_path: Path) -> None:
    report = _post(tmp_path, seal, reveal)
    assert report.ok and report.checked == 1, report.problems
    assert scan(seal)[0][0].kind == "v1"
    tampered = reveal.replace("＝13｜", "＝14｜").replace("＝37｜", "＝38｜")
    assert "的承诺不符" in _post(tmp_path, seal, tampered).problems[0]


def test_sum_and_d68_seals_stay_v1_byte_for_byte() -> None:
    """The lines of a sum and of a D68 are what the previous version printed (no marker, the same hash)."""
    r = Roll("s1/demo#1", "核心重伤判定", "D100", (42,), 42, hidden=True)
    assert seal_line(r, 7) == ("〔封存｜编号 s1/demo#1｜D100＝？？？｜承诺 "
                               "5392eee7e6756bd5200f1a1b32219105ee48f6a807a38ac999058a2410883693〕")
    d68 = Roll("s1/x#1", "伤亡", "D68", (6, 3), 63, True, "casualty", "tens_units")
    assert seal_line(d68, 7) == seal_line(d68._replace(reading="sum"), 7)
    assert "v2" not in seal_line(d68, 7) + reveal_line(d68, 7)
    assert hidden.version_of(d68) == 1 and hidden.version_of(_spread()) == 2 and hidden.version_of(CARD) == 2


def test_a_v2_roll_is_sealed_with_its_reading_and_faces(tmp_path: Path) -> None:
    r = _spread()
    seal, reveal = seal_line(r, SEED), reveal_line(r, SEED)
    assert seal.startswith("〔封存｜v2｜编号 b1/r1/交战1#1｜3D6＝？？？｜读法 spread｜承诺 ")
    assert reveal.startswith("〔揭晓｜v2｜编号 b1/r1/交战1#1｜3D6＝2,3,5→4｜读法 spread｜盐 ")
    s, rv = scan(seal)[0][0], scan(reveal)[1][0]
    assert (rv.kind, rv.reading, rv.faces, rv.value) == ("v2", "spread", (2, 3, 5), 4) and rv.matches(s)
    assert rv.hashed() == f"v2|b1/r1/交战1#1|3D6|spread|2,3,5|4|{hidden.salt_for(SEED, r.id)}"
    report = _post(tmp_path, "减员骰「3D6＝？？？」", seal, "减员骰「3D6＝2,3,5→4」\n" + reveal)
    assert report.ok and report.checked == 1, report.problems


@pytest.mark.parametrize("change, message", [
    (lambda t: t.replace("2,3,5→4", "2,3,6→5"), "的承诺不符"),   # other faces, consistent
    (lambda t: t.replace("读法 spread", "读法 highest").replace("→4", "→5"), "揭晓的读法是 highest，"),
    (lambda t: t.replace("〔揭晓｜v2｜", "〔揭晓｜"), "暗骰行格式不对"),        # v1 marker, v2 body
])
def test_a_tampered_v2_reveal_is_a_problem(change: object, message: str, tmp_path: Path) -> None:
    r = _spread()
    report = _post(tmp_path, seal_line(r, SEED), change(reveal_line(r, SEED)))  # type: ignore[operator]
    assert not report.ok and message in report.problems[0], report.problems


def test_faces_that_do_not_read_to_the_value_are_caught_even_when_committed(tmp_path: Path) -> None:
    """A host who committed to faces 2,3,5 with the value 5 is caught: verify reads the faces itself."""
    lie = _spread()._replace(total=5)
    report = _post(tmp_path, seal_line(lie, SEED), reveal_line(lie, SEED))
    assert report.problems and "但这些点数按 spread 读法得 4" in report.problems[0]
    seven = _spread()._replace(dice=(2, 3, 7))
    assert "这些点数不是 3D6 掷得出来的" in _post(tmp_path, seal_line(seven, SEED), reveal_line(seven, SEED)).problems[0]


def test_a_v1_reveal_of_a_v2_seal_is_refused(tmp_path: Path) -> None:
    r = _spread()
    v1 = reveal_line(r._replace(reading="sum"), SEED)
    report = _post(tmp_path, seal_line(r, SEED), v1)
    assert "揭晓的是第一版格式的骰子，" in report.problems[0] and "封存的是第二版格式的骰子" in report.problems[0]


def test_the_post_must_print_what_a_v2_reveal_says(tmp_path: Path) -> None:
    r = _spread()
    report = _post(tmp_path, seal_line(r, SEED), "减员骰「3D6＝2,3,6→5」\n" + reveal_line(r, SEED))
    assert report.problems == [f"{tmp_path / 'out/s01/m01.md'}:4: b1/r1/交战1#1 的揭晓是 3D6＝2,3,5→4，但帖子第 3 行"
                               "印的是「3D6＝2,3,6→5」"]


# ---------------------------------------------------------------------------------------------
# Facts


def test_a_fact_is_sealed_and_revealed_as_canonical_json(tmp_path: Path) -> None:
    seal, reveal = seal_line(CARD, SEED), reveal_line(CARD, SEED)
    assert seal.startswith("〔封存｜v2｜编号 b1/卡/巨魔#卡｜事实＝？？？｜承诺 ")
    payload = reveal.split("事实＝", 1)[1].rsplit("｜盐 ", 1)[0]
    assert payload == canonical_json(CARD.payload) and json.loads(payload) == CARD.payload
    assert not any(c in payload for c in "〕｜ <>\n") and "[b]" not in payload  # nothing ends, breaks or marks up the line
    rv = scan(reveal)[1][0]
    assert (rv.kind, rv.payload) == ("fact", payload)
    assert rv.hashed() == f"v2|b1/卡/巨魔#卡|fact|{payload}|{hidden.salt_for(SEED, CARD.id)}"
    assert _post(tmp_path, seal, reveal).ok
    other = reveal_line(CARD._replace(payload={**CARD.payload, "unit": "食人魔"}), SEED)
    assert "的承诺不符" in _post(tmp_path, seal, other).problems[0]
    broken = reveal.replace(payload, payload[:-1])
    assert _post(tmp_path, seal, broken).problems  # no longer JSON, and no longer the commitment


def test_a_fact_reveal_that_is_not_json_is_a_problem(tmp_path: Path) -> None:
    """Even with a matching commitment (a host hashing a non-JSON text), the fact is refused."""
    salt = hidden.salt_for(SEED, "x#1")
    commit = hidden._sha(hidden.hashed_text_fact("x#1", "NaN", salt))
    report = _post(tmp_path, f"〔封存｜v2｜编号 x#1｜事实＝？？？｜承诺 {commit}〕", f"〔揭晓｜v2｜编号 x#1｜事实＝NaN｜盐 {salt}〕")
    assert report.problems and "它的事实不是合法的 JSON" in report.problems[0]


def test_a_roll_cannot_open_a_facts_seal(tmp_path: Path) -> None:
    seal = seal_line(CARD, SEED)
    roll = Roll(CARD.id, "x", "3D6", (1, 1, 1), 1, True, reading="spread")
    problem = _post(tmp_path, seal, reveal_line(roll, SEED)).problems[0]
    assert "揭晓的是第二版格式的骰子，" in problem and problem.endswith("封存的是事实）")


def test_canonical_json_is_json_dumps_but_for_its_escapes() -> None:
    plain = {"b": [1, 2.5, None, True], "a": {"甲": "乙"}}
    assert canonical_json(plain) == json.dumps(plain, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    for bad in ({1: "a"}, {"x": float("nan")}, {"x": object()}):
        with pytest.raises(ValueError):
            canonical_json(bad)


def _json(ch: Choices) -> Any:
    """A JSON value of at most 12 leaves: None, booleans, integers, finite floats, texts of any characters, and lists
    and objects of up to four items (one draw of bytes: :mod:`tests.json_choices`)."""
    return json_choices.nested(ch, 12, json_choices.leaf, json_choices.text)


@given(payload=built(_json, size=500))
@settings(max_examples=300, deadline=None)
def test_any_json_payload_round_trips_through_its_lines(payload: object) -> None:
    """Whatever the payload (any characters), its reveal is one well-formed line whose JSON reads back to it
    and opens its seal."""
    fact = Fact("j1/d2/s3/黄巾#态势", payload)
    seal, reveal = seal_line(fact, 1), reveal_line(fact, 1)
    seals, reveals, bad = hidden._parse(f"前文\n{seal}\n{reveal}\n后文")
    assert not bad and len(seals) == len(reveals) == 1 and reveals[0].matches(seals[0])
    assert json.loads(reveals[0].payload) == payload and reveals[0].inconsistency() is None
    assert hidden.hidden_spans(reveal) == [(0, len(reveal))]
