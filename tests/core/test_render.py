"""The template layer: filters, sandbox, error reporting, phrase picking, prose check, resources."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anko_writer import hidden, render, resources
from anko_writer.dice import Roll
from anko_writer.errors import AnkoError, TableError, TemplateError
from anko_writer.render import Phraser, find_problems, render_chapter
from anko_writer.resources import Resources


def make_templates(root: Path, files: dict[str, str], ruleset: str = "fake") -> Resources:
    """Write template files under ``root/templates/<ruleset>/`` and return resources over them."""
    folder = root / "templates" / ruleset
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return Resources(ruleset, root)


# --- filters ------------------------------------------------------------------------------------


def test_money() -> None:
    assert render.money(1250000) == "1,250,000 P$"
    assert render.money(0) == "0 P$"
    assert render.money(-500) == "−500 P$"


def test_dice_shown_and_hidden() -> None:
    assert render.dice({"expr": "1D30", "dice": [19], "total": 19, "hidden": False, "id": "a#1"}) == "「1D30＝19」"
    assert render.dice({"expr": "D100", "dice": [57], "total": 57, "hidden": True, "id": "a#2"}) == "「D100＝？？？」"
    assert render.dice(("1D18+17", 30)) == "「1D18+17＝30」"
    assert render.dice("D100", 5) == "「D100＝5」"
    assert render.dice(Roll("x#1", "攻势骰", "1D30", (4,), 4)) == "「1D30＝4」"


def test_signed_uses_spaced_signs() -> None:
    assert [render.signed(v) for v in (2, -2, 0)] == ["+ 2", "− 2", "+ 0"]


@pytest.mark.parametrize(
    ("n", "text"),
    [(0, "零"), (1, "一"), (3, "三"), (10, "十"), (12, "十二"), (20, "二十"), (23, "二十三"),
     (100, "一百"), (105, "一百零五"), (110, "一百一十"), (1001, "一千零一"), (-2, "负二")],
)
def test_cn_num(n: int, text: str) -> None:
    assert render.cn_num(n) == text


def test_pct_thousands_list() -> None:
    assert render.pct(0.57) == "57%"
    assert render.pct(0.125, 1) == "12.5%"
    assert render.thousands(12500) == "12,500"
    assert render.cn_list(["甲", "乙", "丙"]) == "甲、乙、丙"


def test_filters_in_template(tmp_path: Path) -> None:
    res = make_templates(tmp_path, {"t.md.j2": "攻势值 = 41 − 37 + {{ r | dice }} {{ 2 | signed }}，奖金 {{ 50000 | money }}\n"})
    roll = {"expr": "1D30", "dice": [19], "total": 19, "hidden": False, "id": "a#1"}
    assert render_chapter(res, "t.md.j2", {"r": roll}) == "攻势值 = 41 − 37 + 「1D30＝19」 + 2，奖金 50,000 P$\n"


def test_seal_and_reveal_filters_match_hidden(tmp_path: Path) -> None:
    res = make_templates(tmp_path, {"t.md.j2": "{{ r | dice }}{{ r | seal }}\n{{ r | reveal }}\n"})
    record = {"id": "s1/x#1", "purpose": "重伤", "expr": "D100", "dice": [42], "total": 42, "hidden": True}
    roll = Roll("s1/x#1", "重伤", "D100", (42,), 42, True)
    text = render_chapter(res, "t.md.j2", {"r": record}, seed=7)
    assert text == f"「D100＝？？？」{hidden.seal_line(roll, 7)}\n{hidden.reveal_line(roll, 7)}\n"


# --- environment and errors -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    ["{{ ''.__class__.__mro__ }}", "{{ x.__class__ }}", "{{ x.__init__.__globals__ }}",
     "{% for c in ''.__class__.__base__.__subclasses__() %}{{ c }}{% endfor %}"],
)
def test_sandbox_blocks_internals(tmp_path: Path, source: str) -> None:
    res = make_templates(tmp_path, {"evil.md.j2": source})
    with pytest.raises(TemplateError) as info:
        render_chapter(res, "evil.md.j2", {"x": "s"})
    assert "evil.md.j2" in str(info.value)


def test_strict_undefined_names_template_and_line(tmp_path: Path) -> None:
    res = make_templates(tmp_path, {"ch.md.j2": "# 标题\n\n{{ missing_name }}\n"})
    with pytest.raises(TemplateError) as info:
        render_chapter(res, "ch.md.j2", {})
    message = str(info.value)
    assert "ch.md.j2:3" in message and "missing_name" in message
    assert "\n" not in message


def test_undefined_in_included_template_names_that_file(tmp_path: Path) -> None:
    res = make_templates(tmp_path, {"main.md.j2": "a\n{% include 'part.md.j2' %}\n", "part.md.j2": "x\ny\n{{ nope.x }}\n"})
    with pytest.raises(TemplateError, match=r"part\.md\.j2:3"):
        render_chapter(res, "main.md.j2", {})


def test_syntax_error_names_line(tmp_path: Path) -> None:
    res = make_templates(tmp_path, {"bad.md.j2": "ok\n{% if %}\n"})
    with pytest.raises(TemplateError, match=r"bad\.md\.j2:2"):
        render_chapter(res, "bad.md.j2", {})


def test_missing_template(tmp_path: Path) -> None:
    res = make_templates(tmp_path, {"a.md.j2": ""})
    with pytest.raises(TemplateError, match="nothere.md.j2"):
        render_chapter(res, "nothere.md.j2", {})


def test_python_error_in_template_becomes_template_error(tmp_path: Path) -> None:
    res = make_templates(tmp_path, {"div.md.j2": "{{ 1 / 0 }}\n"})
    with pytest.raises(TemplateError, match=r"div\.md\.j2:1"):
        render_chapter(res, "div.md.j2", {})


def test_normalization(tmp_path: Path) -> None:
    res = make_templates(tmp_path, {"n.md.j2": "\n\n标题  \n\n\n\n\n\n正文\t\n  {% if true %}\n行\n  {% endif %}\n\n\n"})
    assert render_chapter(res, "n.md.j2", {}) == "标题\n\n\n正文\n行\n"


def test_campaign_templates_override_builtin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    builtin = tmp_path / "pkg"
    monkeypatch.setattr(resources, "builtin_dir", lambda kind: builtin / kind)
    make_templates(builtin, {"a.md.j2": "内置 A\n", "b.md.j2": "内置 B {% include 'a.md.j2' %}"})
    res = make_templates(tmp_path / "camp", {"a.md.j2": "自定 A\n"})
    assert res.search_path("templates") == [tmp_path / "camp/templates/fake", builtin / "templates/fake"]
    assert render_chapter(res, "b.md.j2", {}) == "内置 B 自定 A\n"


def test_resources_find_and_error(tmp_path: Path) -> None:
    (tmp_path / "tables" / "fake").mkdir(parents=True)
    (tmp_path / "tables" / "fake" / "events.yaml").write_text("x: 1\n", encoding="utf-8")
    res = Resources("fake", tmp_path)
    assert res.table_path("events.yaml") == tmp_path / "tables" / "fake" / "events.yaml"
    with pytest.raises(AnkoError, match=r"在 .*tables/fake.* 里找不到表 nope\.yaml"):
        res.table_path("nope.yaml")


def test_builtin_dir_exists_for_checkout() -> None:
    for kind in ("templates", "tables"):
        assert resources.builtin_dir(kind).name == kind


# --- phrases ----------------------------------------------------------------------------------------

BANK = {"goal": ["进了！", "破门！", "得分！", "球进网窝！"], "save": ["扑出！"]}


def test_phraser_is_deterministic() -> None:
    salts = [(m, "穆勒") for m in range(1, 40)]
    first = [Phraser(BANK).pick("goal", *s) for s in salts]
    a, b = Phraser(BANK), Phraser(BANK)
    assert [a.pick("goal", *s) for s in salts] == [b.pick("goal", *s) for s in salts]
    assert first == [Phraser(BANK).pick("goal", *s) for s in salts]


@given(
    n=st.integers(min_value=1, max_value=7),
    salts=st.lists(st.tuples(st.integers(0, 120), st.text(max_size=4)), min_size=1, max_size=60),
)
def test_phraser_no_immediate_repeat_and_full_cover(n: int, salts: list[tuple[int, str]]) -> None:
    bank = {"e": [f"句{i}" for i in range(n)]}
    p = Phraser(bank)
    picks = [p.pick("e", *s) for s in salts]
    if n > 1:
        assert all(x != y for x, y in zip(picks, picks[1:], strict=False))
    for start in range(0, len(picks) - n + 1, n):
        assert sorted(picks[start : start + n]) == sorted(bank["e"])


def test_phraser_single_option_and_unknown_event() -> None:
    p = Phraser(BANK)
    assert [p.pick("save", i) for i in range(3)] == ["扑出！"] * 3
    with pytest.raises(TemplateError, match="nope"):
        p.pick("nope")


def test_phrase_global_renders_variables_and_is_fresh_per_chapter(tmp_path: Path) -> None:
    res = make_templates(
        tmp_path,
        {
            "phrases.yaml": "goal:\n  - '{{ who }}破门！'\n  - '{{ who }}推射得手！'\n  - '{{ who }}头球攻门得分！'\n",
            "c.md.j2": "{% for m in minutes %}{{ phrase('goal', m, who='穆勒') }}\n{% endfor %}",
        },
    )
    first = render_chapter(res, "c.md.j2", {"minutes": [3, 17, 44]})
    assert sorted(first.splitlines()) == ["穆勒头球攻门得分！", "穆勒推射得手！", "穆勒破门！"]
    assert render_chapter(res, "c.md.j2", {"minutes": [3, 17, 44]}) == first


def test_phrase_error_is_template_error(tmp_path: Path) -> None:
    res = make_templates(tmp_path, {"phrases.yaml": "goal: '{{ who }}破门'\n", "c.md.j2": "x\n{{ phrase('goal', 1) }}\n"})
    with pytest.raises(TemplateError, match=r"c\.md\.j2:2.*goal"):
        render_chapter(res, "c.md.j2", {})


def test_bad_phrase_bank(tmp_path: Path) -> None:
    path = tmp_path / "phrases.yaml"
    path.write_text("save: 扑出！\ngoal: [1, 2]\n", encoding="utf-8")
    with pytest.raises(TableError, match=r"phrases\.yaml:2:7: goal: 应为一条措辞或非空的措辞列表"):
        render.load_phrases(path)
    path.write_text("goal: [\n", encoding="utf-8")
    with pytest.raises(TableError, match=r"phrases\.yaml:2"):
        render.load_phrases(path)
    path.write_text("goal:\n  - 好球\n  - {{ who }}破门\n", encoding="utf-8")
    with pytest.raises(TableError, match=r"phrases\.yaml:3:.*quote a phrasing that starts with '\{\{'"):
        render.load_phrases(path)


# --- prose check ------------------------------------------------------------------------------------


def test_find_problems_clean_prose() -> None:
    roll = Roll("s1/league/r05/雷希特-玛吉克#3", "重伤", "D100", (42,), 42, True)
    md = (
        "# 第一赛季 · 第三月\n\n"
        "雷希特进攻：攻势值 = 41 − 37 + 「1D30＝19」 + 2（主场）= 25 > 15，形成射门！\n"
        "射门球员「D100＝12」→ 前锋 卡尔·穆勒（ATK 52，GK 8）；预算 1,250,000 P$。\n"
        "| 球队 | 积分 |\n|---|---|\n| 雷希特 | 3 |\n"
        f"赛前核心重伤判定「D100＝？？？」{hidden.seal_line(roll, 7)}\n"
        f"{hidden.reveal_line(roll, 7)}\n"
        "3D100 与 D68 都可以。\n"
    )
    assert find_problems(md) == []


@pytest.mark.parametrize("md", ["射门,球进了。", "什么?真的", "比分:二比一", "主场(雷希特)", "好!"])
def test_find_problems_half_width_punctuation(md: str) -> None:
    problems = find_problems(md)
    assert problems and "half-width" in problems[0] and problems[0].startswith("line 1:")


def test_find_problems_ascii_words() -> None:
    problems = find_problems("他的 shot 很好，ATK 与 DEF 都高。\n第二行 the 结束。")
    assert len(problems) == 2
    assert "'shot'" in problems[0] and problems[1].startswith("line 2:") and "'the'" in problems[1]


def test_find_problems_repeated_sentence() -> None:
    assert find_problems("球进了！球进了！比赛继续。") == ["sentence repeated: 球进了"]
    assert find_problems("球进了！比赛继续。球进了！") == []


def test_find_problems_skips_fenced_code_blocks() -> None:
    """A monospace diagram in a fence is not prose (ASCII, half-width marks, identical rows); the prose
    around it is still checked, with its own line numbers, and an unclosed fence runs to the end."""
    diagram = "```\n#     ||     #\n..A..||..b,c..\n..A..||..b,c..\n```"
    assert find_problems(f"开球：\n{diagram}\n图例：A 穆勒。") == []
    assert find_problems("~~~~\nKick off (x)\n~~~\nstill code\n~~~~\n射门,球进了。") == [
        "line 6: half-width ',' next to Chinese text: 射门,球进了。"]
    assert find_problems("前文 shot。\n```text\nshot, shot\n") == ["line 1: ASCII word 'shot' in prose: 前文 shot。"]
    assert find_problems("球进了！\n```\nx\n```\n球进了！") == ["sentence repeated: 球进了"]


def test_a_template_that_is_not_utf8_is_one_located_error(tmp_path: Path) -> None:
    res = make_templates(tmp_path, {"main.md.j2": "{% include 'part.md.j2' %}\n"})
    part = tmp_path / "templates" / "fake" / "part.md.j2"
    part.write_bytes("第一行\n".encode() + "第二行".encode("gbk"))
    with pytest.raises(TemplateError) as err:
        render_chapter(res, "main.md.j2", {})
    assert str(err.value) == f"{part}: 不是 UTF-8 文本（第 2 行的字节 0xb5）"
