"""Bad and hostile input is one located error, never a traceback or a hang (issue 9 §2).

YAML alias bombs, recursive aliases, deep nesting and huge numbers; dice expressions past the limits;
templates that loop, recurse or grow without end or read files outside their folders; and
``state-end.yaml`` edits the next season would silently drop.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest

from anko_writer import render, yamlio
from anko_writer.campaign import load_campaign
from anko_writer.dice import DiceExpr
from anko_writer.errors import AnkoError, CampaignError, DiceError, InputError, TableError, TemplateError
from anko_writer.render import RootedLoader, render_chapter
from anko_writer.resources import Resources
from anko_writer.rulesets.purasbar import RULESET
from anko_writer.tables import load_table
from tests.util import RES, campaign_file, one_error_line

ROOT = Path(__file__).resolve().parents[2]


def _python_m(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "anko_writer", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


# ---------------------------------------------------------------- YAML


def _laughs(levels: int = 9) -> str:
    """The billion laughs: ten aliases of ten aliases of … (10**levels strings once expanded)."""
    lines = ["lol0: &lol0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, levels + 1):
        lines.append(f"lol{i}: &lol{i} [" + ", ".join([f"*lol{i - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def test_a_billion_laughs_is_refused_at_the_costliest_alias() -> None:
    with pytest.raises(InputError) as err:
        yamlio.load_yaml_text(_laughs(), "bomb.yaml")
    assert str(err.value) == ("bomb.yaml:10:14: 别名使这份文档多出 12,345,678,990 个值，超过允许的 "
                              "10,000 个（最多的是 '*lol8'）；请把这些值直接写出来")


def test_a_billion_laughs_in_a_campaign_is_a_campaign_error(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text("ruleset: purasbar\n" + _laughs(), encoding="utf-8")
    with pytest.raises(CampaignError, match=r"bomb\.yaml:11:14: 别名使这份文档多出 12,345,678,990 个值"):
        load_campaign(path)
    res = _python_m("check", str(path))
    assert res.returncode == 1 and "错误：" in res.stdout + res.stderr and "Traceback" not in res.stdout + res.stderr


def test_a_few_aliases_are_fine() -> None:
    doc = yamlio.load_yaml_text("home: &c {shirt: 红白, shorts: 黑}\naway: *c\nspare: *c\n", "c.yaml")
    assert yamlio.to_plain(doc) == {"home": {"shirt": "红白", "shorts": "黑"}, "away": {"shirt": "红白", "shorts": "黑"},
                                    "spare": {"shirt": "红白", "shorts": "黑"}}


def test_a_recursive_alias_is_refused() -> None:
    with pytest.raises(InputError) as err:
        yamlio.load_yaml_text("a: 1\nloop: &x [1, {again: *x}]\n", "r.yaml")
    assert str(err.value) == "r.yaml:2:22: 别名 '*x' 在它自己的锚点 '&x' 之内（递归结构）"


def test_deep_nesting_is_refused_before_python_recursion_runs_out() -> None:
    with pytest.raises(InputError) as err:
        yamlio.load_yaml_text("a: " + "[" * 100_000 + "]" * 100_000 + "\n", "deep.yaml")
    assert str(err.value) == "deep.yaml:1:67: 映射和列表嵌套超过 64 层"


def test_a_huge_integer_is_refused() -> None:
    with pytest.raises(InputError) as err:
        yamlio.load_yaml_text("seed: 1\nfunds: " + "9" * 5000 + "\n", "big.yaml")
    assert str(err.value) == "big.yaml:2:8: 整数字面量超过 100 个字符"


def test_a_huge_file_is_refused_before_it_is_parsed() -> None:
    text = "# padding\n" * (yamlio.MAX_BYTES // 10 + 1)
    with pytest.raises(InputError) as err:
        yamlio.load_yaml_text(text, "huge.yaml")
    assert str(err.value) == f"huge.yaml: 文件有 {len(text):,} 字节；这里的 YAML 文件至多 1,000,000 字节"


# ---------------------------------------------------------------- dice


@pytest.mark.parametrize(("expr", "message"), [
    ("1D100000000", "一颗骰子至多 1,000 面，实际是 100000000"),
    ("1000000D6", "一次至多掷 100 颗骰子，实际是 1000000"),
    ("1D6+1000000", "加值至多为 100,000，实际是 1000000"),
    ("9" * 5000 + "D6", None),
])
def test_dice_past_the_limits_are_refused(expr: str, message: str | None) -> None:
    with pytest.raises(DiceError) as err:
        DiceExpr.parse(expr)
    if message is None:
        assert str(err.value) == f"看不懂骰子表达式 {expr[:40]!r}"
    else:
        assert str(err.value) == f"骰子表达式 {expr!r}：{message}"


def test_the_largest_allowed_dice_still_work() -> None:
    assert DiceExpr.parse("100D1000").bounds() == (100, 100_000)
    assert DiceExpr.parse("1D1000-100000").bounds() == (-99_999, -99_000)


TABLE = """\
source: designed
dice: {dice}
rows:
  - {{range: {rows}, effect: colour, value: 红白}}
"""


@pytest.mark.parametrize(("dice", "message"), [
    ("1D100000000", "一颗骰子至多 1,000 面，实际是 100000000"),
    ("1000000D6", "一次至多掷 100 颗骰子，实际是 1000000"),
])
def test_a_table_with_dice_past_the_limits_is_refused_with_its_file_line_and_key(tmp_path: Path, dice: str,
                                                                                message: str) -> None:
    path = tmp_path / "colours.yaml"
    path.write_text(TABLE.format(dice=dice, rows="1-6"), encoding="utf-8")
    with pytest.raises(TableError) as err:
        load_table(path, {"colour"})
    assert str(err.value) == f"{path}:2:7: dice: 骰子表达式 {dice!r}：{message}"


def test_check_refuses_a_campaign_whose_override_table_throws_a_billion_dice(tmp_path: Path) -> None:
    camp = campaign_file(tmp_path)
    folder = tmp_path / "tables" / "purasbar"
    folder.mkdir(parents=True)
    text = (ROOT / "tables" / "purasbar" / "colours.yaml").read_text(encoding="utf-8")
    old = re.search(r"^dice: (\S+)", text, re.M)
    assert old
    text = text.replace(old.group(0), "dice: 1000000000D6", 1)
    (folder / "colours.yaml").write_text(text, encoding="utf-8")
    line = text[: text.index("dice: 1000000000D6")].count("\n") + 1
    res = _python_m("check", str(camp))
    assert res.returncode == 1
    assert (f"错误：{folder / 'colours.yaml'}:{line}:7: dice: 骰子表达式 '1000000000D6'：一次至多掷 "
            f"100 颗骰子，实际是 1000000000") in res.stdout + res.stderr


def test_a_range_with_a_huge_number_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "colours.yaml"
    path.write_text(TABLE.format(dice="1D6", rows="1-" + "9" * 5000), encoding="utf-8")
    with pytest.raises(TableError) as err:
        load_table(path, {"colour"})
    assert str(err.value).startswith(f"{path}:4:13: rows[0].range: 应为 1-3 这样的范围、一个数或 [1, 3]，实际是")


def test_a_table_of_a_thousand_rows_is_checked_row_by_row(tmp_path: Path) -> None:
    rows = "".join(f"  - {{range: {i}, effect: colour, value: c{i}}}\n" for i in range(1, 1001))
    path = tmp_path / "big.yaml"
    path.write_text(f"source: designed\ndice: 1D1000\nrows:\n{rows}", encoding="utf-8")
    assert len(load_table(path, {"colour"})) == 1000
    path.write_text(f"source: designed\ndice: 1D1000\nrows:\n{rows}  - {{range: 500-501, effect: colour}}\n",
                    encoding="utf-8")
    with pytest.raises(TableError, match=r"big\.yaml:1004:13: rows\[1000\]\.range: 500-501 与 rows\[499\]（500）重叠"):
        load_table(path, {"colour"})


# ---------------------------------------------------------------- templates


def _render(tmp: Path, text: str, **files: str) -> str:
    folder = tmp / "templates" / "fake"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "t.md.j2").write_text(text, encoding="utf-8")
    for name, body in files.items():
        (folder / name).write_text(body, encoding="utf-8")
    return render_chapter(Resources("fake", tmp), "t.md.j2", {})


def _where(tmp: Path, line: int, name: str = "t.md.j2") -> str:
    return f"{tmp / 'templates' / 'fake' / name}:{line}: "


def test_nested_loops_run_out_of_steps(tmp_path: Path) -> None:
    with pytest.raises(TemplateError) as err:
        _render(tmp_path, "x\n{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}\n")
    assert str(err.value) == _where(tmp_path, 2) + ("模板运行超过 1,000,000 步（循环、调用、"
                                                    "查找）：是不是死循环或失控的循环？")


def test_a_slow_template_runs_out_of_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render, "MAX_SECONDS", 0.0)
    with pytest.raises(TemplateError) as err:
        _render(tmp_path, "{% for i in range(5000) %}{{ i }}{% endfor %}")
    assert str(err.value) == _where(tmp_path, 1) + "模板渲染超过 0 秒"


@pytest.mark.parametrize(("text", "line", "name", "files"), [
    ("a\n{% include 't.md.j2' %}\n", 2, "t.md.j2", {}),
    ("{% include 'b.j2' %}\n", 1, "t.md.j2|b.j2:2", {"b.j2": "b\n{% include 't.md.j2' %}\n"}),
    ("{% import 't.md.j2' as me %}\n", 1, "t.md.j2", {}),
    ("{% macro f(n) %}\n{{ f(n + 1) }}\n{% endmacro %}\n{{ f(1) }}\n", 2, "t.md.j2", {}),
])
def test_recursive_templates_are_a_located_error(tmp_path: Path, text: str, line: int, name: str,
                                                 files: dict[str, str]) -> None:
    with pytest.raises(TemplateError) as err:
        _render(tmp_path, text, **files)
    message = "模板嵌套太深（是不是 include、import 或宏调用了自己？）"
    if "|" in name:  # two templates that include each other: the recursion stops in either
        first, second = name.split("|")
        assert str(err.value) in (_where(tmp_path, line, first) + message, f"{tmp_path / 'templates' / 'fake' / second}: "
                                  + message)
    else:
        assert str(err.value) == _where(tmp_path, line, name) + message


@pytest.mark.parametrize(("expr", "message"), [
    ("'x' * 1000000000", "重复后值的长度为 1,000,000,000，超过上限 1,000,000"),
    ("2 ** 1000000000", "幂的大小（机器字数）为 31,250,000，超过上限 1,000,000"),
    ("'%999999999d' % 1", "格式宽度或精度为 999,999,999，超过上限 1,000,000"),
    ("'{:999999999}'.format(1)", "格式宽度或精度为 999,999,999，超过上限 1,000,000"),
    ("'%d' | format(1) ~ ('%*d' | format(999999999, 1))",
     "格式宽度或精度为 999,999,999，超过上限 1,000,000"),
    ("'x'.center(1000000000)", "center() 的参数为 1,000,000,000，超过上限 1,000,000"),
    ("'x' | center(1000000000)", "宽度为 1,000,000,000，超过上限 1,000,000"),
    ("[1] | slice(1000000000) | list", "切分份数为 1,000,000,000，超过上限 1,000,000"),
    ("('x' * 1000000) | replace('', 'y' * 1000000)",
     "替换后文本的长度为 1,000,002,000,000，超过上限 1,000,000"),
    ("range(10000000) | list", "Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000)."),
])
def test_an_expression_cannot_build_a_huge_value(tmp_path: Path, expr: str, message: str) -> None:
    with pytest.raises(TemplateError) as err:
        _render(tmp_path, "ok\n{{ " + expr + " }}\n")
    assert str(err.value) == _where(tmp_path, 2) + message


@pytest.mark.parametrize("text", [
    "{% set ns = namespace(s='xxxxxxxxxx') %}\n{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
    "{% set l = [1] %}\n{% for i in range(60) %}{% set _ = l.extend(l) %}{% endfor %}",
    "{% set a = 'x' * 100000 %}\n" + "".join(f"{{% set a{i} %}}{{{{ a{i - 1 if i else ''} }}}}{{{{ a{i - 1 if i else ''} }}}}"
                                              f"{{% endset %}}" for i in range(40)),
])
def test_doubling_a_value_stops_at_the_size_limit(tmp_path: Path, text: str) -> None:
    with pytest.raises(TemplateError) as err:
        _render(tmp_path, text)
    assert str(err.value).startswith(_where(tmp_path, 2))
    assert re.search(r"(造出了 [\d,]+ 个字符或元素的值；模板最多只能造 1,000,000 个"
                     r"|集合的长度为 [\d,]+，超过上限 1,000,000)$", str(err.value))


def test_the_output_is_capped(tmp_path: Path) -> None:
    with pytest.raises(TemplateError) as err:
        _render(tmp_path, "{% for i in range(100000) %}{{ 'x' * 100 }}{% endfor %}")
    assert str(err.value) == "t.md.j2: 这一章超过了 5,000,000 个字符（是不是循环失控？）"


def test_lipsum_is_not_offered(tmp_path: Path) -> None:
    with pytest.raises(TemplateError, match="'lipsum' is undefined"):
        _render(tmp_path, "{{ lipsum(1000000000) }}")


def test_bounded_templates_render_as_before(tmp_path: Path) -> None:
    text = ("{% for i in range(3) %}{{ loop.index }}{% if loop.last %}!{% endif %}{% else %}none{% endfor %} "
            "{% for x in [] %}{% else %}none{% endfor %} {{ '%.2f' % 1.5 }} {{ '{:>4}'.format('a') }} "
            "{% set b | upper %}b{% endset %}{{ b }} {{ 'a' ~ 1 }} {{ [1, 2] + [3] }} {{ 'ab' * 2 }} {{ 2 ** 10 }}")
    assert _render(tmp_path, text) == "123! none 1.50    a B a1 [1, 2, 3] abab 1024\n"


def test_a_template_linked_to_a_file_outside_the_template_folders_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("the campaign seed is 1267", encoding="utf-8")
    folder = tmp_path / "templates" / "fake"
    folder.mkdir(parents=True)
    os.symlink(secret, folder / "evil.j2")
    (folder / "t.md.j2").write_text("x\n{% include 'evil.j2' %}\n", encoding="utf-8")
    with pytest.raises(AnkoError) as err:  # the resource search path or the loader refuses it
        render_chapter(Resources("fake", tmp_path), "t.md.j2", {})
    assert "evil.j2" in str(err.value) and "之外" in str(err.value) and "1267" not in str(err.value)
    env = jinja2.Environment(loader=RootedLoader([str(folder)]))
    with pytest.raises(TemplateError) as loader_err:
        env.get_template("evil.j2")
    assert str(loader_err.value) == (f"模板 'evil.j2'（{folder / 'evil.j2'}）链接到模板文件夹之外的 {secret}；"
                                     f"模板只能读这些文件夹里的文件")
    with pytest.raises(jinja2.TemplateNotFound):
        env.get_template("../secret.txt")


# ---------------------------------------------------------------- state-end.yaml


@pytest.fixture(scope="module")
def season_end(season_245) -> tuple[Path, str]:  # noqa: ANN001
    """A campaign and the state-end.yaml text of its first season (played once, in memory:
    ``conftest.season_245``)."""
    camp, run = season_245
    assert run.state_text
    return camp, run.state_text


def _club_lines(text: str) -> list[int]:
    """0-based line numbers of each league club's first line (``  - name: …``)."""
    lines = text.split("\n")
    start = lines.index("league:")
    return [i for i in range(start, len(lines)) if lines[i].startswith("  - name: ")]


def _set(text: str, club: int, key: str, value: str) -> tuple[str, int, int]:
    """``league[club].<key>`` set to ``value``; the text and the value's 1-based line and column."""
    lines = text.split("\n")
    first = _club_lines(text)[club]
    prefix = "  - name: " if key == "name" else f"    {key}: "
    i = next(j for j in range(first, len(lines)) if lines[j].startswith(prefix))
    lines[i] = prefix + value
    return "\n".join(lines), i + 1, len(prefix) + 1


def _get(text: str, club: int, key: str) -> str:
    lines = text.split("\n")
    first = _club_lines(text)[club]
    prefix = "  - name: " if key == "name" else f"    {key}: "
    return next(line for line in lines[first:] if line.startswith(prefix))[len(prefix):]


def _load(text: str) -> dict:
    return RULESET.load_state(text, "state-end.yaml", RES)


def test_the_state_as_written_loads(season_end: tuple[Path, str], state_245: tuple[str, dict]) -> None:
    text, state = state_245  # _load(text), done once per session (test_seasons reads it too)
    assert text == season_end[1]
    assert len(state["league"]) == 23 and state["club"]["city"] not in {c["city"] for c in state["league"]}


def test_a_club_in_an_unknown_city_is_refused(season_end: tuple[Path, str]) -> None:
    text, line, col = _set(season_end[1], 2, "city", "亚特兰蒂斯")
    with pytest.raises(CampaignError) as err:
        _load(text)
    message = str(err.value)
    assert message.startswith(f"state-end.yaml:{line}:{col}: league[2].city: 应为以下之一：布拉斯、玛吉克、")
    assert message.endswith("实际是 '亚特兰蒂斯'")


def test_a_removed_club_is_refused(season_end: tuple[Path, str]) -> None:
    text = season_end[1]
    starts = _club_lines(text)
    city = _get(text, 3, "city")
    lines = text.split("\n")
    del lines[starts[3]:starts[4]]
    with pytest.raises(CampaignError) as err:
        _load("\n".join(lines))
    league_line = lines.index("league:") + 1
    assert str(err.value) == (f"state-end.yaml:{league_line + 1}:3: league: 只有 22 支球队，联赛需要 23 支（除我方以外"
                              f"每座城市一支）：{city}没有球队（球队不能删掉）")


def test_a_club_moved_to_another_city_is_refused(season_end: tuple[Path, str]) -> None:
    text = season_end[1]
    a, b = _get(text, 1, "city"), _get(text, 2, "city")
    slug = _get(text, 1, "slug")
    text, line, col = _set(text, 1, "city", b)
    text, _, _ = _set(text, 2, "city", a)
    with pytest.raises(CampaignError) as err:
        _load(text)
    assert str(err.value) == (f"state-end.yaml:{line}:{col}: league[1].city: {b!r} 不是这支球队的城市："
                              f"它原来在{a}（slug {slug!r}），球队不能搬家")


@pytest.mark.parametrize(("key", "club", "value_of", "message"), [
    ("city", 0, "ours", "{v!r} 是我方球队的城市（一座城市只有一支球队）"),
    ("city", 1, 0, "{v!r} 与 league[0] 重复（一座城市只有一支球队）"),
    ("name", 0, "ours", "{v!r} 是我方球队的名字"),
    ("name", 2, 1, "{v!r} 与 league[1] 重复"),
])
def test_two_clubs_in_one_city_or_with_one_name_are_refused(season_end: tuple[Path, str], key: str, club: int,
                                                          value_of: int | str, message: str) -> None:
    text = season_end[1]
    if value_of == "ours":
        value = re.search(rf"^  {key}: (\S+)$", text, re.M).group(1)  # type: ignore[union-attr]
    else:
        value = _get(text, int(value_of), key)
    text, line, col = _set(text, club, key, value)
    with pytest.raises(CampaignError) as err:
        _load(text)
    assert str(err.value) == f"state-end.yaml:{line}:{col}: league[{club}].{key}: " + message.format(v=value)


def test_a_name_that_would_break_a_roll_id_is_refused_in_the_state_too(season_end: tuple[Path, str]) -> None:
    text = season_end[1]
    m = re.search(r"^players:\n(?:  #.*\n)*  - \{name: ([^,]+),", text, re.M)
    assert m
    text = text[: m.start(1)] + "卡尔 穆勒" + text[m.end(1):]
    line = text.count("\n", 0, m.start(1)) + 1
    col = m.start(1) - text.rfind("\n", 0, m.start(1))
    with pytest.raises(CampaignError) as err:
        _load(text)
    assert str(err.value) == (f"state-end.yaml:{line}:{col}: players[0].name: '卡尔 穆勒' 不能含有空格"
                              f"（会破坏掷骰编号或封存行）")


def test_season_two_refuses_a_moved_club_and_writes_nothing(season_end: tuple[Path, str], tmp_path: Path) -> None:
    camp, text = season_end
    a, b = _get(text, 1, "city"), _get(text, 2, "city")
    text, line, col = _set(text, 1, "city", b)
    text, _, _ = _set(text, 2, "city", a)
    out = tmp_path / "out"
    (out / "s01").mkdir(parents=True)
    state = out / "s01" / "state-end.yaml"
    state.write_text(text, encoding="utf-8")
    res = _python_m("season", str(camp), "--season", "2", "--out", str(out))
    assert res.returncode == 1
    assert f"错误：{state}:{line}:{col}: league[1].city: {b!r} 不是这支球队的城市" in res.stdout + res.stderr
    assert "Traceback" not in res.stdout + res.stderr
    assert not (out / "s02").exists()


# ---------------------------------------------------------------- control characters and deep nesting (issue 22)



CONTROLS = [pytest.param("\x00", "YAML 不允许控制字符 U+0000（NUL）", id="NUL"),
            pytest.param("\x1b", "YAML 不允许控制字符 U+001B（ESC）", id="ESC")]


@pytest.mark.parametrize(("char", "name"), CONTROLS)
def test_a_control_character_in_a_campaign_is_one_located_line(tmp_path: Path, char: str, name: str) -> None:
    camp = campaign_file(tmp_path)
    text = camp.read_text(encoding="utf-8")
    camp.write_text(text + f"# 注释{char}[31m\n", encoding="utf-8")
    line = text.count("\n") + 1
    one_error_line(_python_m("check", str(camp)), f"错误：{camp}:{line}:5: {name}")


@pytest.mark.parametrize(("char", "name"), CONTROLS)
def test_a_control_character_in_an_override_table_is_one_located_line(tmp_path: Path, char: str, name: str) -> None:
    camp = campaign_file(tmp_path)
    folder = tmp_path / "tables" / "purasbar"
    folder.mkdir(parents=True)
    text = (ROOT / "tables" / "purasbar" / "colours.yaml").read_text(encoding="utf-8")
    (folder / "colours.yaml").write_text(f"# {char}\n" + text, encoding="utf-8")
    one_error_line(_python_m("check", str(camp)), f"错误：{folder / 'colours.yaml'}:1:3: {name}")


def _season_two(camp: Path, out: Path, state_text: str) -> subprocess.CompletedProcess[str]:
    """``month --season 2 --month 1`` from a first season whose state-end.yaml is ``state_text``."""
    (out / "s01").mkdir(parents=True)
    (out / "s01" / "state-end.yaml").write_text(state_text, encoding="utf-8")
    return _python_m("month", str(camp), "--season", "2", "--month", "1", "--out", str(out))


@pytest.mark.parametrize(("char", "name"), CONTROLS)
def test_a_control_character_in_a_state_file_is_one_located_line(season_end: tuple[Path, str], tmp_path: Path,
                                                                 char: str, name: str) -> None:
    camp, text = season_end
    lines = text.split("\n")
    i = next(j for j, line in enumerate(lines) if line.startswith("  - name: "))
    lines[i] = lines[i].replace("name: ", f"name: 坏{char}", 1)
    res = _season_two(camp, tmp_path / "out", "\n".join(lines))
    one_error_line(res, f"{tmp_path / 'out' / 's01' / 'state-end.yaml'}:{i + 1}:12: {name}")
    assert not (tmp_path / "out" / "s02").exists()


@pytest.mark.parametrize("deep", ["[" * 100_000 + "]" * 100_000, "\n" + "- " * 100_000 + "x",
                                  "\n" + "".join(" " * i + "-\n" for i in range(1, 700))],
                         ids=["flow", "dashes", "indented"])
def test_a_very_deep_list_in_a_state_file_is_one_located_line(season_end: tuple[Path, str], tmp_path: Path,
                                                              deep: str) -> None:
    """libyaml's composer recursed in C until the process crashed (flow brackets, ``- - -`` runs); nesting by
    indentation came back to Python deeper than anything may walk. The deep key comes first in the season's
    state: the locating parser stops there, instead of reading the 900 lines before it (a second a run)."""
    camp, text = season_end
    res = _season_two(camp, tmp_path / "out", f"deep: {deep}\n" + text)
    message = one_error_line(res, "映射和列表嵌套超过 64 层")
    assert re.match(rf"错误：{re.escape(str(tmp_path / 'out' / 's01' / 'state-end.yaml'))}:\d+:\d+: ", message)


def test_a_fast_loaded_document_is_never_deeper_than_the_limit() -> None:
    for text in ("a: " + "[" * 65 + "]" * 65, "a:\n" + "".join(" " * i + "-\n" for i in range(0, 140, 2)),
                 "- " * 70 + "x\n"):
        with pytest.raises(yamlio.FastPathError, match="deep nesting"):
            yamlio.load_plain_fast(text)
    assert yamlio.load_plain_fast("a: " + "[" * 60 + "]" * 60 + "\n")["a"]
