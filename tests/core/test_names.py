"""Names that end up in roll ids and hidden-dice seal lines are refused at load (issue 9 §2.1).

A roll id is ``s1/league/r05/雷希特竞技-玛吉克联#3`` and a seal line ``〔封存｜编号 {id}｜{expr}＝？？？｜承诺 …〕``:
a name with whitespace, a control character or one of ``｜ 〕 〔 ＝ | # /`` would break one of them, so
every club, city and person name is checked where it is read, with the key that holds it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from anko_writer.campaign import load_campaign
from anko_writer.errors import CampaignError, TableError
from anko_writer.schema import Invalid, Name, Str, name_problem
from tests.util import campaign_file

ROOT = Path(__file__).resolve().parents[2]
BUILTIN_TABLES = ROOT / "tables" / "purasbar"

BAD = [
    ("卡尔 穆勒", "不能含有空格"),
    ("卡尔\u3000穆勒", "不能含有全角空格（U+3000）"),
    ("卡尔\t穆勒", "不能含有制表符"),
    ("卡尔\n穆勒", "不能含有换行"),
    ("卡尔\u00a0穆勒", "不能含有空白字符（U+00A0）"),
    ("卡尔｜穆勒", "不能含有 '｜'"),
    ("卡尔〕穆勒", "不能含有 '〕'"),
    ("卡尔〔穆勒", "不能含有 '〔'"),
    ("卡尔＝穆勒", "不能含有 '＝'"),
    ("卡尔|穆勒", "不能含有 '|'"),
    ("卡尔#穆勒", "不能含有 '#'"),
    ("卡尔/穆勒", "不能含有 '/'"),
    ("卡尔\x07穆勒", "不能含有控制字符（U+0007）"),
    ("卡尔\u200b穆勒", "不能含有不可见字符（U+200B）"),
]


@pytest.mark.parametrize(("name", "what"), BAD)
def test_a_name_may_not_hold_what_breaks_an_id_or_a_seal_line(name: str, what: str) -> None:
    with pytest.raises(Invalid) as err:
        Name().convert(name)
    assert err.value.message == f"{name!r} {what}（会破坏掷骰编号或封存行）"


@pytest.mark.parametrize("name", ["卡尔·穆勒", "让-保罗·贝尔蒙多", "雷希特竞技", "O'Neil", "阿尔·7号"])
def test_ordinary_names_pass(name: str) -> None:
    assert Name().convert(name) == name and name_problem(name) is None


def test_display_text_keeps_its_spaces() -> None:
    assert Str().convert("雷希特 的 冬天") == "雷希特 的 冬天"


# ---------------------------------------------------------------- the campaign file


def _quoted(name: str) -> str:
    """``name`` as a double-quoted YAML scalar (every character outside printable ASCII/CJK escaped)."""
    out = []
    for ch in name:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ch in "\u00a0\u200b\u3000":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _edit(tmp: Path, pattern: str, bad: str) -> tuple[Path, int, int]:
    """A generated campaign with the first match of ``pattern``'s group 1 replaced by ``bad`` (quoted);
    returns the file and the 1-based line and column of the new value."""
    path = campaign_file(tmp)
    text = path.read_text(encoding="utf-8")
    m = re.search(pattern, text, re.M)
    assert m, pattern
    text = text[: m.start(1)] + _quoted(bad) + text[m.end(1):]
    path.write_text(text, encoding="utf-8")
    line = text.count("\n", 0, m.start(1)) + 1
    col = m.start(1) - (text.rfind("\n", 0, m.start(1)) + 1) + 1
    return path, line, col


WHERE = {
    "players[0].name": r"^players:\n(?:  #.*\n)*  - \{name: ([^,]+),",
    "club.name": r"^club:\n(?:  .*\n)*?  name: (\S+)",
    "coach.name": r"^coach:\n  name: (\S+)",
    "owner.name": r"^owner: \{name: ([^,]+),",
    "staff.doctor.name": r"^  doctor: \{name: ([^,]+),",
}


@pytest.mark.parametrize("key", list(WHERE))
@pytest.mark.parametrize(("bad", "what"), [("卡尔 穆勒", "不能含有空格"), ("卡尔\u3000穆勒", "不能含有全角空格（U+3000）"),
                                          ("雷希特/竞技", "不能含有 '/'")])
def test_every_name_in_the_campaign_is_checked_where_it_sits(tmp_path: Path, key: str, bad: str, what: str) -> None:
    path, line, col = _edit(tmp_path, WHERE[key], bad)
    with pytest.raises(CampaignError) as err:
        load_campaign(path)
    assert str(err.value) == (f"{path}:{line}:{col}: {key}: {bad!r} {what}"
                              f"（会破坏掷骰编号或封存行）")


VOTES = {
    "decisions.s1m12.penalties[1]": ("s1m12: {penalties: [甲, %s]}", "penalties"),
    "decisions.s1m6.timeouts[0].player": ("s1m6: {timeouts: [{before: 4, use: player, player: %s}]}", "timeouts"),
    "decisions.s1m7.transfers.buy[0].player": ("s1m7: {transfers: {buy: [{player: %s, offer: 10}]}}", "buy"),
    "decisions.s1m7.transfers.sell[0].player": ("s1m7: {transfers: {sell: [{player: %s, price: 10}]}}", "sell"),
    "decisions.s1m7.transfers.release[0]": ("s1m7: {transfers: {release: [%s]}}", "release"),
}


@pytest.mark.parametrize("key", list(VOTES))
def test_names_in_votes_are_checked_before_the_squad_is(tmp_path: Path, key: str) -> None:
    vote, _ = VOTES[key]
    line_text = "  " + vote % _quoted("卡尔\t穆勒")
    path = campaign_file(tmp_path, extra=f"decisions:\n{line_text}\n")
    lines = path.read_text(encoding="utf-8").splitlines()
    line = lines.index(line_text) + 1
    col = line_text.index('"') + 1
    with pytest.raises(CampaignError) as err:
        load_campaign(path)
    assert str(err.value) == (f"{path}:{line}:{col}: {key}: '卡尔\\t穆勒' 不能含有制表符"
                              f"（会破坏掷骰编号或封存行）")


def test_the_built_in_campaign_passes() -> None:
    c = load_campaign(ROOT / "campaigns" / "recht.yaml")
    assert all(name_problem(p["name"]) is None for p in c.data["players"])


def _check(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "anko_writer", "check", str(path)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_check_refuses_a_player_name_with_a_space(tmp_path: Path) -> None:
    path, line, col = _edit(tmp_path, WHERE["players[0].name"], "卡尔 穆勒")
    res = _check(path)
    assert res.returncode == 1
    out = res.stdout + res.stderr
    assert f"错误：{path}:{line}:{col}: players[0].name: '卡尔 穆勒' 不能含有空格" \
           f"（会破坏掷骰编号或封存行）" in out
    assert "Traceback" not in out


# ---------------------------------------------------------------- the tables the AI clubs' names come from


def _override(tmp: Path, table: str, old: str, new: str) -> tuple[Path, Path, int, int]:
    """A campaign whose folder overrides ``tables/purasbar/<table>`` with ``old`` replaced by ``new``."""
    camp = campaign_file(tmp)
    folder = tmp / "tables" / "purasbar"
    folder.mkdir(parents=True)
    text = (BUILTIN_TABLES / table).read_text(encoding="utf-8")
    start = text.index(old)
    text = text[:start] + new + text[start + len(old):]
    path = folder / table
    path.write_text(text, encoding="utf-8")
    line = text.count("\n", 0, start) + 1
    col = start - (text.rfind("\n", 0, start) + 1) + 1
    return camp, path, line, col


def _table_error(tmp: Path, table: str, old: str, new: str, offset: int = 0) -> tuple[Path, str, str]:
    """The campaign, its TableError and the ``file:line:col`` of ``new`` (plus ``offset`` columns) in the
    overriding table."""
    camp, path, line, col = _override(tmp, table, old, new)
    with pytest.raises(TableError) as err:
        load_campaign(camp)
    return camp, str(err.value), f"{path}:{line}:{col + offset}"


@pytest.mark.parametrize(("table", "old", "new", "offset", "expected"), [
    ("cities.yaml", "玛吉克联", "玛吉克 联", 0,
     "cities[1].club: '玛吉克 联' 不能含有空格（会破坏掷骰编号或封存行）"),
    ("cities.yaml", "city: 玛吉克,", "city: 布拉斯,", len("city: "), "cities[1].city: '布拉斯' 与 cities[0] 重复"),
    ("names.yaml", "汉斯,", "汉#斯,", 0, "given[1]: '汉#斯' 不能含有 '#'（会破坏掷骰编号或封存行）"),
])
def test_tables_refuse_names_that_would_break_a_roll_id(tmp_path: Path, table: str, old: str, new: str,
                                                        offset: int, expected: str) -> None:
    camp, message, at = _table_error(tmp_path, table, old, new, offset)
    assert message == f"{at}: {expected}"
    if "不能含有空格" in expected:
        res = _check(camp)
        assert res.returncode == 1 and f"错误：{message}" in res.stdout + res.stderr

def test_a_name_pool_has_at_most_as_many_names_as_a_die_has_faces(tmp_path: Path) -> None:
    many = ", ".join(f"名{i}" for i in range(1001))
    _, message, at = _table_error(tmp_path, "names.yaml", "[卡尔,", f"[{many}, 卡尔,")
    assert message.startswith(f"{at}: given: 至多应有 1000 项，实际是")

def test_our_club_may_not_take_another_citys_club_name(tmp_path: Path) -> None:
    path = campaign_file(tmp_path)
    text = path.read_text(encoding="utf-8").replace("  name: 雷希特竞技\n", "  name: 玛吉克联\n", 1)
    path.write_text(text, encoding="utf-8")
    line = text.split("\n").index("  name: 玛吉克联") + 1
    with pytest.raises(CampaignError) as err:
        load_campaign(path)
    assert str(err.value) == (f"{path}:{line}:9: club.name: '玛吉克联' 是玛吉克的球队的名字"
                              f"（两支球队不能同名）")


# ---------------------------------------------------------------- forum markup (issue 22)


@pytest.mark.parametrize("ch", ["[", "]", "<", ">"])
def test_a_name_may_not_hold_forum_markup(ch: str) -> None:
    name = f"雷希特{ch}竞技"
    with pytest.raises(Invalid) as err:
        Name().convert(name)
    assert err.value.message == f"{name!r} 不能含有 {ch!r}（论坛会把它当作排版标记）"


def test_check_refuses_a_club_name_holding_bbcode(tmp_path: Path) -> None:
    evil = "[collapse=x][url=javascript:alert(1)]雷希特竞技"
    path, line, col = _edit(tmp_path, WHERE["club.name"], evil)
    res = _check(path)
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert res.stderr == (f"错误：{path}:{line}:{col}: club.name: {evil!r} 不能含有 '['"
                          f"（论坛会把它当作排版标记）\n")


@pytest.mark.parametrize(("title", "problem"), [
    ("雷希特的冬天\n〔揭晓｜编号 s1/x#1｜D100＝1｜盐 00〕", "不能含有换行"),
    ("雷希特\u2028的冬天", "不能含有换行"),
    ("雷希特\x1b[31m的冬天", "不能含有控制字符（U+001B）"),
    ("[b]雷希特[/b]", "不能含有 '['（论坛会把它当作排版标记）"),
])
def test_a_campaign_title_is_one_line_of_text(tmp_path: Path, title: str, problem: str) -> None:
    path = campaign_file(tmp_path)
    text = path.read_text(encoding="utf-8")
    m = re.search(r"^title: (.+)$", text, re.M)
    assert m
    text = text[: m.start(1)] + _quoted(title).replace("\x1b", "\\e").replace("\u2028", "\\L") + text[m.end(1):]
    path.write_text(text, encoding="utf-8")
    line = text.count("\n", 0, m.start(1)) + 1
    with pytest.raises(CampaignError) as err:
        load_campaign(path)
    assert str(err.value) == f"{path}:{line}:8: title: {title!r} {problem}"


def test_a_spaced_title_still_passes(tmp_path: Path) -> None:
    path = campaign_file(tmp_path)
    text = re.sub(r"^title: .+$", "title: 雷希特 的 冬天（第二季）", path.read_text(encoding="utf-8"), count=1, flags=re.M)
    path.write_text(text, encoding="utf-8")
    assert load_campaign(path).data["title"] == "雷希特 的 冬天（第二季）"


@pytest.mark.parametrize(("value", "problem"), [
    ("安科\n〔揭晓｜编号 x#1｜D6＝6｜盐 00〕", "不能含有换行"),
    ("[collapse=x]安科", "不能含有 '['（论坛会把它当作排版标记）"),
])
def test_new_refuses_an_option_that_breaks_its_line(tmp_path: Path, value: str, problem: str) -> None:
    res = subprocess.run([sys.executable, "-m", "anko_writer", "new", str(tmp_path / "c"), "--ruleset", "ball",
                          "--option", f"title={value}"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.startswith(f"错误：--option title: {value!r} {problem}")
    assert not (tmp_path / "c").exists()
