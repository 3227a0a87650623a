"""Hidden dice: seal/reveal lines, scanning and verification of a written output directory."""

from __future__ import annotations

import doctest
import hashlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anko_writer import hidden
from anko_writer.dice import Dice, Roll
from anko_writer.hidden import (
    VerifyReport,
    commitment,
    format_report,
    reveal_line,
    salt_for,
    scan,
    seal_line,
    verify_dir,
)
from anko_writer.output import write_files

SEED = 20240501
KEY = "s1/league/r05/雷希特-玛吉克"


def _hidden_roll(seed: int = SEED, key: str = KEY) -> Roll:
    """One hidden D100 thrown by the real roller."""
    return Dice(seed=seed).roll(key, "D100", "赛前核心重伤判定", hidden=True)


def _chapters(roll: Roll, seed: int = SEED) -> dict[str, str]:
    """m01 posts the seal inside prose, m03 the reveal."""
    m01 = (
        "# 第一赛季 · 第一月\n\n## 隐藏骰\n"
        f"赛前核心重伤判定「D100＝？？？」{seal_line(roll, seed)}，结果将在两个月后揭晓。\n"
    )
    m03 = f"# 第一赛季 · 第三月\n\n## 揭晓\n第一月的隐藏骰：{reveal_line(roll, seed)}——核心安然无恙。\n"
    return {"s01/m01.md": m01, "s01/m03.md": m03}


def test_doctests() -> None:
    assert doctest.testmod(hidden).failed == 0


def test_salt_and_commitment_formulas() -> None:
    want_salt = hashlib.sha256(f"anko-salt\x1f5\x1f{KEY}#1".encode()).hexdigest()[:32]
    assert salt_for(5, f"{KEY}#1") == want_salt
    assert salt_for(6, f"{KEY}#1") != want_salt
    want = hashlib.sha256(f"{KEY}#1|D100|42|{want_salt}".encode()).hexdigest()
    assert commitment(f"{KEY}#1", "D100", 42, want_salt) == want
    assert len(want) == 64


def test_line_formats_exact() -> None:
    r = _hidden_roll()
    salt = salt_for(SEED, r.id)
    assert r.expr == "1D100"
    c = commitment(r.id, r.expr, r.total, salt)
    assert seal_line(r, SEED) == f"〔封存｜编号 {KEY}#1｜1D100＝？？？｜承诺 {c}〕"
    assert reveal_line(r, SEED) == f"〔揭晓｜编号 {KEY}#1｜1D100＝{r.total}｜盐 {salt}〕"
    assert str(r.total) not in seal_line(r, SEED).split("承诺")[0]


@pytest.mark.parametrize("bad_id", ["a｜b", "a〕b", "a b", "a\tb", "a\nb", "", "a\u3000b"])
def test_bad_roll_ids_rejected(bad_id: str) -> None:
    r = Roll(bad_id, "x", "D100", (5,), 5, True)
    with pytest.raises(ValueError):
        seal_line(r, SEED)
    with pytest.raises(ValueError):
        reveal_line(r, SEED)


def test_scan_reports_line_numbers() -> None:
    r = _hidden_roll()
    text = f"第一行\n第二行 {seal_line(r, SEED)} 尾巴\n\n前缀{reveal_line(r, SEED)}\n"
    seals, reveals = scan(text)
    assert [(s.roll_id, s.line) for s in seals] == [(r.id, 2)]
    assert [(x.roll_id, x.value, x.line) for x in reveals] == [(r.id, r.total, 4)]
    assert reveals[0].matches(seals[0])


def test_end_to_end_verify(tmp_path: Path) -> None:
    r = _hidden_roll()
    write_files(tmp_path, _chapters(r))
    report = verify_dir(tmp_path)
    assert (report.ok, report.checked, report.sealed, report.problems) == (True, 1, [], [])
    assert format_report(report) == "核对了 1 次揭晓；0 项仍在封存"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_altered_value_fails(tmp_path: Path) -> None:
    r = _hidden_roll()
    write_files(tmp_path, _chapters(r))
    other = r.total % 100 + 1
    _edit(tmp_path / "s01/m03.md", f"＝{r.total}｜", f"＝{other}｜")
    report = verify_dir(tmp_path)
    assert not report.ok and report.checked == 1
    assert len(report.problems) == 1
    assert "m03.md:4:" in report.problems[0]
    assert f"{r.id} 的揭晓与" in report.problems[0] and "的承诺不符" in report.problems[0]
    assert "\n1 个问题：\n" in format_report(report)


def test_altered_salt_fails(tmp_path: Path) -> None:
    r = _hidden_roll()
    write_files(tmp_path, _chapters(r))
    salt = salt_for(SEED, r.id)
    _edit(tmp_path / "s01/m03.md", salt, salt_for(SEED + 1, r.id))
    report = verify_dir(tmp_path)
    assert not report.ok
    assert "m03.md" in report.problems[0] and "的承诺不符" in report.problems[0]


def test_altered_expr_fails(tmp_path: Path) -> None:
    r = _hidden_roll()
    write_files(tmp_path, _chapters(r))
    _edit(tmp_path / "s01/m03.md", f"｜{r.expr}＝", "｜1D30＝")
    report = verify_dir(tmp_path)
    assert not report.ok and "与承诺不符（揭晓的骰式是 1D30，" in report.problems[0]


def test_unparseable_tampering_is_not_silently_ignored(tmp_path: Path) -> None:
    r = _hidden_roll()
    write_files(tmp_path, _chapters(r))
    _edit(tmp_path / "s01/m03.md", f"＝{r.total}｜", "＝九十九｜")
    report = verify_dir(tmp_path)
    assert not report.ok and "m03.md:4: 暗骰行格式不对" in report.problems[0]


def test_removed_seal_means_no_commitment(tmp_path: Path) -> None:
    r = _hidden_roll()
    write_files(tmp_path, _chapters(r))
    _edit(tmp_path / "s01/m01.md", seal_line(r, SEED), "")
    report = verify_dir(tmp_path)
    assert report.checked == 1
    assert len(report.problems) == 1
    assert "m03.md:4:" in report.problems[0]
    assert f"{r.id} 的揭晓没有对应的封存" in report.problems[0]


def test_seal_without_reveal_is_still_sealed(tmp_path: Path) -> None:
    r1 = _hidden_roll()
    r2 = _hidden_roll(key="s1/month/m02/injury")
    files = _chapters(r1)
    files["s01/m02.md"] = f"# 第二月\n\n伤病判定{seal_line(r2, SEED)}\n"
    write_files(tmp_path, files)
    report = verify_dir(tmp_path)
    assert report.ok and report.checked == 1
    assert [rid for rid, _ in report.sealed] == [r2.id]
    assert report.sealed[0][1].endswith("m02.md:3")
    assert f"1 项仍在封存：{r2.id}（" in format_report(report)


def test_conflicting_duplicate_seal(tmp_path: Path) -> None:
    r = _hidden_roll()
    forged = Roll(r.id, r.purpose, r.expr, (r.total % 100 + 1,), r.total % 100 + 1, True)
    files = _chapters(r)
    files["s01/index.md"] = f"汇总：{seal_line(r, SEED)}\n"  # same seal repeated: fine
    write_files(tmp_path, files)
    assert verify_dir(tmp_path).ok
    (tmp_path / "s02").mkdir()
    (tmp_path / "s02/m01.md").write_text(f"重贴：{seal_line(forged, SEED)}\n", encoding="utf-8")
    report = verify_dir(tmp_path)
    assert not report.ok
    assert any("s02/m01.md:1:" in p and f"{r.id} 的封存与前面" in p and "的承诺矛盾" in p for p in report.problems)


def test_verify_missing_dir_raises(tmp_path: Path) -> None:
    from anko_writer.errors import VerifyError

    with pytest.raises(VerifyError):
        verify_dir(tmp_path / "nope")


def test_report_ok_property() -> None:
    assert VerifyReport(3, [("a", "f:1")], []).ok
    assert not VerifyReport(3, [], ["f:1: x"]).ok


_ids = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="｜〕"), min_size=1, max_size=30
).filter(lambda s: not any(c.isspace() for c in s))
_exprs = st.sampled_from(["D100", "1D30", "3D100", "1D18+17", "1D3+2", "2D6", "D68", "1D3-5"])


@given(rid=_ids, expr=_exprs, value=st.integers(-50, 10_000), seed=st.integers(0, 2**63))
def test_property_reveal_matches_and_tampering_breaks(rid: str, expr: str, value: int, seed: int) -> None:
    r = Roll(rid, "p", expr, (value,), value, True)
    (seal,), _ = scan(seal_line(r, seed))
    _, (rev,) = scan(reveal_line(r, seed))
    assert (seal.roll_id, rev.roll_id, rev.value, rev.expr) == (rid, rid, value, expr)
    assert rev.matches(seal)
    salt = rev.salt
    assert commitment(rid, expr, value + 1, salt) != seal.commitment
    assert commitment(rid, expr, value, salt_for(seed + 1, rid)) != seal.commitment
    assert commitment(rid, expr + "+1", value, salt) != seal.commitment
    assert commitment(rid + "x", expr, value, salt) != seal.commitment
