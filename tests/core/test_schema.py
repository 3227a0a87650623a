"""The typed schema: plain Python out, the first error out with file:line:col and the key path."""

from __future__ import annotations

import doctest
import re
import textwrap
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anko_writer import schema
from anko_writer.errors import CampaignError, InputError, TableError
from anko_writer.schema import (
    Bool,
    Check,
    Data,
    DictOf,
    Enum,
    Field,
    Float,
    Int,
    Line,
    List,
    Map,
    Name,
    Secret,
    Str,
    describe,
    validate,
)
from anko_writer.yamlio import load_yaml_text

FILE = "campaign.yaml"

PLAYER = Map(
    {
        "name": Field(Str(), doc="Full name."),
        "position": Field(Enum(["FW", "MF", "DF", "GK"])),
        "age": Field(Int(min=15, max=45)),
        "rating": Field(Float(min=0, max=1), default=0.5),
    }
)
DECISION = Map(
    {
        "formation": Field(Enum(["433", "442", "541"])),
        "order": Field(List(Int(min=1)), required=False),
        "note": Field(Data(), required=False),
    }
)
SCHEMA = Map(
    {
        "title": Field(Str()),
        "seed": Field(Int(min=0), doc="Campaign seed."),
        "club": Field(
            Map(
                {
                    "name": Field(Str()),
                    "city": Field(Str()),
                    "stadium": Field(Str(), default="市立球场"),
                    "colours": Field(List(Str(), min_len=1, max_len=3), required=False),
                }
            )
        ),
        "players": Field(List(PLAYER, min_len=1)),
        "options": Field(Map({"reveal_delay": Field(Int(min=1, max=99), default=2), "bbcode": Field(Bool(), default=False)}), default={}),
        "decisions": Field(
            DictOf(Str(pattern=r"s\d+m\d+", pattern_doc="s<season>m<month>"), DECISION),
            default={},
        ),
    }
)

GOOD = """\
# 雷希特 campaign
title: 雷希特的冬天
seed: 42
club:
  name: 雷希特竞技   # home club
  city: 雷希特
  colours: [红, 白]
players:
  - name: 卡尔·穆勒
    position: FW
    age: 24
  - name: 汉斯
    position: MF
    age: 19
    rating: 1
  - name: 奥托
    position: DF
    age: 30
  - name: 约翰
    position: GK
    age: 33
options:
  reveal_delay: 3
decisions:
  s1m5:
    formation: '433'
    order: [3, 1, 2]
    note: {free: [1, text]}
"""


def check(text: str, node: schema.Node = SCHEMA, error: type[InputError] = CampaignError) -> Any:
    """Load ``text`` as campaign.yaml and validate it."""
    return validate(load_yaml_text(textwrap.dedent(text), FILE), node, FILE, error)


def error_of(text: str, node: schema.Node = SCHEMA, error: type[InputError] = CampaignError) -> str:
    """The one-line error validating ``text`` raises."""
    with pytest.raises(error) as info:
        check(text, node, error)
    return str(info.value)


def edit(old: str, new: str) -> str:
    """GOOD with one exact substring replaced."""
    assert GOOD.count(old) == 1, old
    return GOOD.replace(old, new)


def assert_plain(value: Any) -> None:
    """Only builtin container and scalar types, all the way down."""
    assert type(value) in (dict, list, str, int, float, bool, type(None)), type(value)
    if type(value) is dict:
        for k, v in value.items():
            assert_plain(k)
            assert_plain(v)
    elif type(value) is list:
        for v in value:
            assert_plain(v)


def test_good_document_becomes_plain_python_with_defaults() -> None:
    data = check(GOOD)
    assert_plain(data)
    assert data["club"] == {"name": "雷希特竞技", "city": "雷希特", "stadium": "市立球场", "colours": ["红", "白"]}
    assert data["players"][0] == {"name": "卡尔·穆勒", "position": "FW", "age": 24, "rating": 0.5}
    assert data["players"][1]["rating"] == 1.0 and type(data["players"][1]["rating"]) is float
    assert data["options"] == {"reveal_delay": 3, "bbcode": False}
    assert data["decisions"] == {"s1m5": {"formation": "433", "order": [3, 1, 2], "note": {"free": [1, "text"]}}}
    assert list(data) == ["title", "seed", "club", "players", "options", "decisions"]


def test_defaults_are_copies() -> None:
    node = Map({"xs": Field(List(Int()), default=[])})
    a, b = check("{}", node), check("{}", node)
    a["xs"].append(1)
    assert b == {"xs": []}


def test_wrong_enum_value() -> None:
    text = edit("position: GK", "position: ST")
    assert error_of(text) == "campaign.yaml:20:15: players[3].position: 应为以下之一：FW、MF、DF、GK，实际是 'ST'"


def test_wrong_enum_value_did_you_mean() -> None:
    assert error_of(edit("position: MF", "position: mf")).endswith(
        "campaign.yaml:13:15: players[1].position: 应为以下之一：FW、MF、DF、GK，实际是 'mf'；是不是想写 'MF'？"
    )
    assert error_of(edit("position: DF", "position: DFF")) == (
        "campaign.yaml:17:15: players[2].position: 应为以下之一：FW、MF、DF、GK，实际是 'DFF'；是不是想写 'DF'？"
    )


def test_enum_number_for_text_suggests_quoting() -> None:
    assert error_of(edit("formation: '433'", "formation: 433")) == (
        "campaign.yaml:26:16: decisions.s1m5.formation: 应为以下之一：433、442、541，实际是 433；是不是想写 '433'？"
    )


def test_unknown_key_with_did_you_mean() -> None:
    text = edit("  city: 雷希特\n", "  city: 雷希特\n  staduim: 北湾球场\n")
    assert error_of(text) == "campaign.yaml:7:3: club: 未知的键 'staduim'；是不是想写 'stadium'？"


def test_unknown_key_lists_allowed() -> None:
    text = edit("seed: 42\n", "seed: 42\nweather: rain\n")
    assert error_of(text) == (
        "campaign.yaml:4:1: 未知的键 'weather'（可用的键：title、seed、club、players、options、decisions）"
    )


def test_missing_required_key_at_root_and_nested() -> None:
    assert error_of(edit("seed: 42\n", "")) == "campaign.yaml:2:1: 缺少必填的键 'seed'"
    assert error_of(edit("  city: 雷希特\n", "")) == "campaign.yaml:5:3: club: 缺少必填的键 'city'"


def test_int_out_of_range() -> None:
    assert error_of(edit("age: 30", "age: 120")) == (
        "campaign.yaml:18:10: players[2].age: 应在 15 到 45 之间，实际是 120"
    )
    assert error_of(edit("seed: 42", "seed: -1")) == "campaign.yaml:3:7: seed: 应不小于 0，实际是 -1"
    assert error_of("x: 7\n", Map({"x": Field(Int(max=5))})) == "campaign.yaml:1:4: x: 应不大于 5，实际是 7"


def test_wrong_types() -> None:
    assert error_of(edit("age: 30", "age: abc")) == "campaign.yaml:18:10: players[2].age: 应为整数，实际是 'abc'"
    assert error_of(edit("age: 30", "age: true")) == "campaign.yaml:18:10: players[2].age: 应为整数，实际是 true"
    assert error_of(edit("age: 30", "age: 30.5")) == "campaign.yaml:18:10: players[2].age: 应为整数，实际是 30.5"
    club = "club:\n  name: 雷希特竞技   # home club\n  city: 雷希特\n  colours: [红, 白]\n"
    assert error_of(edit(club, "club: [a, b]\n")) == "campaign.yaml:4:7: club: 应为映射，实际是 列表"
    assert error_of(edit("players:\n", "players: many\nx:\n")).startswith(
        "campaign.yaml:8:10: players: 应为列表，实际是 'many'"
    )
    assert error_of("- 1\n", SCHEMA) == "campaign.yaml:1:1: 应为映射，实际是 列表"


def test_empty_value_is_reported_at_its_key() -> None:
    assert error_of(edit("  city: 雷希特\n", "  city:\n")) == "campaign.yaml:6:3: club.city: 应为字符串，实际是 空值"


def test_bad_dictof_key() -> None:
    assert error_of(edit("  s1m5:", "  s1x5:")) == "campaign.yaml:25:3: decisions: 键 's1x5' 不符合格式 s<season>m<month>"
    assert error_of("1: a\n", DictOf(Str(), Str())) == "campaign.yaml:1:1: 键 1：应为字符串，实际是 1"


def test_nested_list_index_path() -> None:
    assert error_of(edit("order: [3, 1, 2]", "order: [3, x, 2]")) == (
        "campaign.yaml:27:16: decisions.s1m5.order[1]: 应为整数，实际是 'x'"
    )
    assert error_of(edit("order: [3, 1, 2]", "order: [3, 1, 0]")) == (
        "campaign.yaml:27:19: decisions.s1m5.order[2]: 应不小于 1，实际是 0"
    )


def test_list_length() -> None:
    assert error_of(edit("colours: [红, 白]", "colours: []")) == "campaign.yaml:7:12: club.colours: 至少应有 1 项，实际是 0 项"
    assert error_of(edit("colours: [红, 白]", "colours: [红, 白, 蓝, 黑]")) == (
        "campaign.yaml:7:12: club.colours: 至多应有 3 项，实际是 4 项"
    )


def test_strings() -> None:
    assert error_of(edit("title: 雷希特的冬天", "title: ''")) == "campaign.yaml:2:8: title: 不能为空"
    assert error_of("a: xy\n", Map({"a": Field(Str(min_len=3))})) == (
        "campaign.yaml:1:4: a: 至少应有 3 个字符，实际是 2 个"
    )
    assert error_of("a: 5\n", Map({"a": Field(Str())})) == "campaign.yaml:1:4: a: 应为字符串，实际是 5"
    assert error_of("a: b\n", Map({"a": Field(Str(pattern=r"\d+"))})) == "campaign.yaml:1:4: a: 'b' 不符合格式 \\d+"
    choices = Map({"a": Field(Str(choices=["left", "right"]))})
    assert check("a: left\n", choices) == {"a": "left"}
    assert error_of("a: rihgt\n", choices) == "campaign.yaml:1:4: a: 应为以下之一：left、right，实际是 'rihgt'；是不是想写 'right'？"


def test_floats_and_bools() -> None:
    node = Map({"f": Field(Float(min=0, max=1)), "b": Field(Bool(), required=False)})
    assert check("f: 1\nb: true\n", node) == {"f": 1.0, "b": True}
    assert error_of("f: 1.5\n", node) == "campaign.yaml:1:4: f: 应在 0 到 1 之间，实际是 1.5"
    assert error_of("f: false\n", node) == "campaign.yaml:1:4: f: 应为数字，实际是 false"
    assert error_of("f: .nan\n", node) == "campaign.yaml:1:4: f: 应为数字，实际是 nan"
    assert error_of("f: 0\nb: yes\n", node) == "campaign.yaml:2:4: b: 应为 true 或 false，实际是 'yes'"


def test_unknown_key_in_extra_free_map_goes_to_extra() -> None:
    node = Map({"effect": Field(Str())}, extra=Int())
    assert check("effect: x\nbonus: 3\n", node) == {"effect": "x", "bonus": 3}
    assert error_of("effect: x\nbonus: many\n", node) == "campaign.yaml:2:8: bonus: 应为整数，实际是 'many'"


def test_check_rules() -> None:
    one_gk = Check(
        List(Str()),
        lambda xs: None if xs.count("GK") <= 1 else (len(xs) - 1 - xs[::-1].index("GK"), "a second GK"),
        doc="At most one GK.",
    )
    node = Map({"lineup": Field(one_gk), "n": Field(Check(Int(), lambda n: "must be even" if n % 2 else None))})
    assert check("lineup: [GK, FW]\nn: 2\n", node) == {"lineup": ["GK", "FW"], "n": 2}
    assert error_of("lineup:\n  - GK\n  - FW\n  - GK\nn: 2\n", node) == "campaign.yaml:4:5: lineup[2]: a second GK"
    assert error_of("lineup: []\nn: 3\n", node) == "campaign.yaml:2:4: n: must be even"
    assert "| `lineup` | list of string | required | At most one GK. |" in describe(node)
    documented = Map({"lineup": Field(one_gk, doc="Starting eleven.")})
    assert "| `lineup` | list of string | required | Starting eleven. Rule: At most one GK. |" in describe(documented)


def test_error_class_is_chosen_by_caller() -> None:
    with pytest.raises(TableError) as info:
        check("seed: x\n", Map({"seed": Field(Int())}), TableError)
    assert (info.value.location.line, info.value.location.col, info.value.key) == (1, 7, "seed")
    assert info.value.message == "应为整数，实际是 'x'"


def test_plain_python_input_has_no_positions() -> None:
    with pytest.raises(CampaignError) as info:
        validate({"club": {"name": 3}}, Map({"club": Field(Map({"name": Field(Str())}))}), "state.json")
    assert str(info.value) == "state.json: club.name: 应为字符串，实际是 3"


def test_odd_keys_are_bracketed_in_paths() -> None:
    node = DictOf(Str(), Map({"x": Field(Int())}))
    assert error_of("'a.b':\n  x: y\n", node) == "campaign.yaml:2:6: ['a.b'].x: 应为整数，实际是 'y'"


def test_describe_lists_every_key() -> None:
    text = describe(SCHEMA)
    lines = text.splitlines()
    assert lines[:2] == ["| Key | Type | Required | Description |", "|---|---|---|---|"]
    assert "| `seed` | integer (≥ 0) | required | Campaign seed. |" in lines
    assert "| `club.stadium` | string | default: `\"市立球场\"` |  |" in lines
    assert "| `club.colours` | list of string (1–3 items) | optional |  |" in lines
    assert "| `players[].position` | one of `FW`, `MF`, `DF`, `GK` | required |  |" in lines
    assert "| `players[].name` | string | required | Full name. |" in lines
    assert "| `decisions.<s<season>m<month>>` | mapping | optional |  |" in lines
    assert "| `decisions.<s<season>m<month>>.formation` | one of `433`, `442`, `541` | required |  |" in lines


@given(st.integers(min_value=-1000, max_value=1000))
def test_int_bounds_property(n: int) -> None:
    node = Int(min=-5, max=5)
    if -5 <= n <= 5:
        assert node.convert(n) == n
    else:
        with pytest.raises(schema.Invalid, match=rf"^应在 -5 到 5 之间，实际是 {n}$"):
            node.convert(n)


@given(st.text(min_size=1, max_size=8))
def test_enum_accepts_only_its_values(word: str) -> None:
    values = ["FW", "MF", "DF", "GK"]
    if word in values:
        assert Enum(values).convert(word) == word
    else:
        with pytest.raises(schema.Invalid) as info:
            Enum(values).convert(word)
        assert info.value.message.startswith(f"应为以下之一：FW、MF、DF、GK，实际是 {word!r}")


def test_doctests() -> None:
    assert doctest.testmod(schema).failed == 0


def test_name_refuses_what_breaks_a_roll_id_at_its_key() -> None:
    node = Map({"title": Field(Str()), "players": Field(List(Map({"name": Field(schema.Name())})))})
    doc = load_yaml_text("title: 雷希特 的 冬天\nplayers:\n  - name: 卡尔·穆勒\n  - name: 卡尔 穆勒\n", FILE)
    with pytest.raises(CampaignError) as info:
        validate(doc, node, FILE)
    assert str(info.value) == ("campaign.yaml:4:11: players[1].name: '卡尔 穆勒' 不能含有空格"
                               "（会破坏掷骰编号或封存行）")
    assert describe(node).splitlines()[-1] == "| `players[].name` | name (no whitespace or ｜〕〔＝\\|#/[]<>) | required |  |"


@given(st.text(min_size=1, max_size=6))
def test_a_name_never_holds_a_delimiter_or_whitespace(text: str) -> None:
    try:
        name = schema.Name().convert(text)
    except schema.Invalid:
        return
    assert not any(c.isspace() or c in schema.NAME_DELIMITERS for c in name)


def test_check_places_an_error_deep_inside_with_a_path() -> None:
    node = Check(Map({"league": Field(List(Map({"city": Field(Str())})))}),
                 lambda d: (("league", 1, "city"), "moved") if d["league"][1]["city"] == "乙" else None)
    doc = load_yaml_text("league:\n  - city: 甲\n  - city: 乙\n", FILE)
    with pytest.raises(CampaignError) as info:
        validate(doc, node, FILE)
    assert str(info.value) == "campaign.yaml:3:11: league[1].city: moved"
    missing = Check(Map({"league": Field(List(Str()), default=[])}), lambda d: (("league", 0, "city"), "none"))
    with pytest.raises(CampaignError) as info:
        validate(load_yaml_text("{}\n", FILE), missing, FILE)
    assert str(info.value) == "campaign.yaml:1:1: league[0].city: none"


# ---------------------------------------------------------------- messages in Chinese (issue 28)


_QUOTED = r"'[^']*'|\"[^\"]*\"|`[^`]*`"

BROKEN = [
    ("a: 4\n", Map({"a": Field(Int(min=1, max=3))})),
    ("a: 0\n", Map({"a": Field(Int(min=1))})),
    ("a: 9\n", Map({"a": Field(Int(max=3))})),
    ("a: x\n", Map({"a": Field(Int())})),
    ("a: 1.5\n", Map({"a": Field(Float(max=1))})),
    ("a: []\n", Map({"a": Field(Float())})),
    ("a: {}\n", Map({"a": Field(Bool())})),
    ("a: 2026-01-02\n", Map({"a": Field(Str())})),
    ("a: ''\n", Map({"a": Field(Str())})),
    ("a: ab\n", Map({"a": Field(Str(min_len=3))})),
    ("a: b\n", Map({"a": Field(Str(pattern=r"\d+"))})),
    ("a: 左边\n", Map({"a": Field(Str(choices=["左", "右"]))})),  # the allowed values are the schema's words
    ("a: 卡尔 穆勒\n", Map({"a": Field(Name())})),
    ("a: '[b]x'\n", Map({"a": Field(Name())})),
    ("a: \"x\\u200by\"\n", Map({"a": Field(Name())})),
    ("a: \"x\\ty\"\n", Map({"a": Field(Name())})),
    ("a: \"x\\ny\"\n", Map({"a": Field(Line())})),
    ("a: []\n", Map({"a": Field(List(Str(), min_len=1))})),
    ("a: [x, y]\n", Map({"a": Field(List(Str(), max_len=1))})),
    ("a: x\n", Map({"a": Field(List(Str()))})),
    ("a: [1]\n", Map({"a": Field(Map({}))})),
    ("b: 1\n", Map({"a": Field(Int(), required=False)})),
    ("aa: 1\n", Map({"a": Field(Int(), required=False), "ab": Field(Int(), required=False)})),
    ("{}\n", Map({"a": Field(Int())})),
    ("x1: 1\n", DictOf(Str(pattern=r"\d+"), Int())),
    ("a: 12.5\n", Map({"a": Field(Secret(min=0))})),
    ("a: -3\n", Map({"a": Field(Secret(min=0))})),
]


@pytest.mark.parametrize(("text", "node"), BROKEN)
def test_every_schema_message_is_chinese(text: str, node: schema.Node) -> None:
    """Past the ``file:line:col: key:`` prefix a message is Chinese: once the values it quotes (and the YAML
    words ``true``/``false``) are taken out, no English word is left, and every message holds Chinese text."""
    message = error_of(text, node).split(": ", 1)[1]
    message = message.split(": ", 1)[1] if message.startswith("a: ") else message
    bare = re.sub(_QUOTED, "", message)
    assert re.search(r"[\u4e00-\u9fff]", bare), message
    assert not re.findall(r"[A-Za-z]{2,}", re.sub(r"\b(true|false|U\+[0-9A-F]{4})\b", "", bare)), message
    assert not re.search(r"[\u4e00-\u9fff][,;:?!()]|[,;:?!()][\u4e00-\u9fff]", bare), message


def test_type_names_are_chinese() -> None:
    """A value of the wrong kind is named in Chinese: 空值、列表、映射、集合、日期, and the rarer types by their kind."""
    import datetime

    assert [schema.show(v) for v in (None, [1], {}, {1}, datetime.date(2026, 1, 2))] == \
        ["空值", "列表", "映射", "集合", "日期（2026-01-02）"]
    assert schema.show(b"x") == "字节串"
