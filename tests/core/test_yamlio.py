"""Round-trip YAML loading: positions, located errors, refused tags, comment-preserving dumps."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from anko_writer import yamlio
from anko_writer.errors import CampaignError, InputError
from anko_writer.yamlio import dump_yaml, load_yaml, position, to_plain

DOC = """\
# campaign
title: 雷希特的冬天   # shown as the thread title
club:
  name: 雷希特竞技
  colours: [红, 白]
players:
  - name: 卡尔
    age: 24
  -   name: 汉斯
"""


def write(tmp_path: Path, text: str, name: str = "campaign.yaml") -> Path:
    """Write ``text`` as UTF-8 and return the path."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(path: Path) -> InputError:
    """The InputError loading ``path`` raises."""
    with pytest.raises(InputError) as info:
        load_yaml(path)
    return info.value


def test_positions_are_one_based(tmp_path: Path) -> None:
    data = load_yaml(write(tmp_path, DOC))
    assert position(data) == (2, 1)
    assert position(data, "club", part="key") == (3, 1)
    assert position(data["club"], "name") == (4, 9)
    assert position(data["club"], "name", part="key") == (4, 3)
    assert position(data["club"]["colours"], 1) == (5, 16)
    assert position(data["players"], 1) == (9, 7)
    assert position(data["players"][0], "age") == (8, 10)


def test_position_falls_back_to_the_container(tmp_path: Path) -> None:
    data = load_yaml(write(tmp_path, DOC))
    assert position(data["club"], "missing") == (4, 3)
    assert position(data["players"], 7) == (7, 3)
    assert position({"plain": 1}, "plain") is None


def test_syntax_error_has_line_and_col(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, "a: 1\nb: [1, 2\n"))
    assert str(err) == f"{tmp_path / 'campaign.yaml'}:3:1: YAML 语法错误：expected ',' or ']', but got '<stream end>'"
    assert (err.location.line, err.location.col, err.key) == (3, 1, "")


def test_bad_indentation_is_a_syntax_error(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, "a:\n  b: 1\n c: 2\n"))
    assert (err.location.line, err.location.col) == (3, 2)
    assert err.message == "YAML 语法错误：expected <block end>, but found '<block mapping start>'"


def test_two_documents_read_as_one_sentence(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, "a: 1\n---\nb: 2\n"))
    assert err.message == "YAML 语法错误：expected a single document in the stream, but found another document"
    assert err.location.line == 2


def test_duplicate_key_is_an_error(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, "club:\n  name: a\n  city: b\n  name: c\n"))
    assert str(err) == f"{tmp_path / 'campaign.yaml'}:4:3: 重复的键 'name'（第 2 行已经定义过）"


def test_missing_file(tmp_path: Path) -> None:
    err = error_of(tmp_path / "nope.yaml")
    assert str(err) == f"{tmp_path / 'nope.yaml'}: 找不到文件"


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "gbk.yaml"
    path.write_bytes("# 战役\n名字: 雷希特\n".encode("gbk"))
    err = error_of(path)
    assert str(err) == f"{path}: 不是 UTF-8 文本（第 1 行的字节 0xd2）"  # 战 (d5 bd) decodes; 役 (d2 db) does not
    path.write_bytes(b"title: ok\nname: \xff\n")
    assert error_of(path).message == "不是 UTF-8 文本（第 2 行的字节 0xff）"


def test_error_class_is_chosen_by_caller(tmp_path: Path) -> None:
    with pytest.raises(CampaignError):
        load_yaml(write(tmp_path, "a: [\n"), CampaignError)


@pytest.mark.parametrize(
    "text, tag",
    [
        ("x: !!python/object/apply:os.system [echo hi]\n", "!!python/object/apply:os.system"),
        ("x: !!python/object:collections.OrderedDict {a: 1}\n", "!!python/object:collections.OrderedDict"),
        ("x: !!python/name:os.system\n", "!!python/name:os.system"),
        ("x: !custom 3\n", "!custom"),
    ],
)
def test_object_tags_are_refused(tmp_path: Path, text: str, tag: str) -> None:
    err = error_of(write(tmp_path, text))
    assert (err.location.line, err.location.col) == (1, 4)
    assert err.message == f"不支持的标签 {tag!r}（这里的 YAML 只是纯数据，会构造对象的标签一律拒绝）"


def test_standard_tags_still_work(tmp_path: Path) -> None:
    data = load_yaml(write(tmp_path, "a: !!str 433\nb: !!int '7'\nc: !!float 1\nd: !!str 雷希特\n"))
    assert to_plain(data) == {"a": "433", "b": 7, "c": 1.0, "d": "雷希特"}
    assert type(data["a"]) is str
    del data["c"]  # ruamel writes it back as `!!float '1'`, still a float
    assert dump_yaml(data) == "a: '433'\nb: 7\nd: 雷希特\n"


def test_to_plain_strips_ruamel_types(tmp_path: Path) -> None:
    data = to_plain(load_yaml(write(tmp_path, "a: {b: [1, 2.5, 0x10, true, ~]}\nt: |\n  多行\n")))
    assert data == {"a": {"b": [1, 2.5, 16, True, None]}, "t": "多行\n"}
    assert type(data) is dict and type(data["a"]["b"]) is list
    assert [type(v) for v in data["a"]["b"]] == [int, float, int, bool, type(None)]
    assert type(data["t"]) is str


def test_dump_round_trip_keeps_comments_order_and_unicode(tmp_path: Path) -> None:
    data = load_yaml(write(tmp_path, DOC))
    assert dump_yaml(data) == DOC.replace("  -   name: 汉斯", "  - name: 汉斯")
    data["club"]["name"] = "玛吉克联"
    data["club"].insert(1, "city", "雷希特")
    out = dump_yaml(data)
    assert "  name: 玛吉克联\n  city: 雷希特\n" in out
    assert "title: 雷希特的冬天   # shown as the thread title\n" in out


def test_dump_style() -> None:
    long_text = "长" * 200
    out = dump_yaml({"a": {"b": [1, {"c": 2, "d": 3}]}, "long": long_text})
    assert out == f"a:\n  b:\n    - 1\n    - c: 2\n      d: 3\nlong: {long_text}\n"


def test_doctests() -> None:
    assert doctest.testmod(yamlio).failed == 0
