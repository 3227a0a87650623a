"""Bad campaign input: one located message naming file, line and key (DESIGN §6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from anko_writer.campaign import load_campaign
from anko_writer.errors import InputError
from tests.util import campaign_file


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    path = campaign_file(tmp_path)
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def test_good_campaign_loads(tmp_path: Path) -> None:
    c = load_campaign(campaign_file(tmp_path))
    assert c.ruleset == "purasbar" and c.seed == 245 and c.data["decisions"] == {}


def test_bad_position(tmp_path: Path) -> None:
    path = _broken(tmp_path, "position: FW", "position: ST")
    with pytest.raises(InputError) as e:
        load_campaign(path)
    line = _line_of(path, "position: ST")
    msg = str(e.value)
    assert msg.startswith(f"{path}:{line}:")
    assert ".position: 应为以下之一：FW、MF、DF、GK，实际是 'ST'" in msg
    assert "players[" in msg


def test_unknown_city(tmp_path: Path) -> None:
    path = _broken(tmp_path, "city: 雷希特", "city: 雷希持")
    with pytest.raises(InputError) as e:
        load_campaign(path)
    assert str(e.value).startswith(f"{path}:{_line_of(path, 'city: 雷希持')}:")
    assert "club.city: 应为以下之一：布拉斯" in str(e.value) and "是不是想写 '雷希特'" in str(e.value)


def test_unknown_ruleset_names_the_installed_ones(tmp_path: Path) -> None:
    path = _broken(tmp_path, "ruleset: purasbar", "ruleset: purasbr")
    with pytest.raises(InputError) as e:
        load_campaign(path)
    msg = str(e.value)
    assert msg.startswith(f"{path}:{_line_of(path, 'ruleset: purasbr')}:10: ruleset: 未知的规则集 'purasbr'（已安装：")
    assert "、purasbar、" in msg and msg.endswith("）；是不是想写 'purasbar'？")


def test_a_vote_for_a_player_not_in_the_squad(tmp_path: Path) -> None:
    path = campaign_file(tmp_path, extra="decisions:\n  s1m1:\n    penalties: [无名氏]\n")
    with pytest.raises(InputError) as e:
        load_campaign(path)
    assert str(e.value).endswith(": decisions: s1m1.penalties[0]: 球队里没有名叫 '无名氏' 的球员"), str(e.value)


def test_unknown_key_did_you_mean(tmp_path: Path) -> None:
    path = _broken(tmp_path, "  stadium:", "  staduim:")
    with pytest.raises(InputError, match=r":13:3: club: 未知的键 'staduim'；是不是想写 'stadium'？"):
        load_campaign(path)


def test_broken_yaml(tmp_path: Path) -> None:
    path = _broken(tmp_path, "title: ", "title: [unclosed ")
    with pytest.raises(InputError) as e:
        load_campaign(path)
    assert str(e.value).startswith(f"{path}:") and "YAML 语法错误" in str(e.value)


def test_ability_out_of_range(tmp_path: Path) -> None:
    path = campaign_file(tmp_path)
    text = path.read_text(encoding="utf-8")
    i = text.index("initial_abilities: {ATK: ") + len("initial_abilities: {ATK: ")
    j = text.index(",", i)
    path.write_text(text[:i] + "120" + text[j:], encoding="utf-8")
    line = _line_of(path, "initial_abilities: {ATK: 120")
    with pytest.raises(InputError) as e:
        load_campaign(path)
    assert str(e.value) == f"{path}:{line}:{i - text.rindex(chr(10), 0, i)}: club.initial_abilities.ATK: 应在 1 到 99 之间，实际是 120"


def test_bad_decision_key_and_formation(tmp_path: Path) -> None:
    path = _broken(tmp_path, "decisions: {}", "decisions:\n  s1x5: {formation: 4 3 3}")
    with pytest.raises(InputError, match=r"decisions: 键 's1x5' 不符合格式 s<season>m<month>"):
        load_campaign(path)
    path = _broken(tmp_path, "decisions: {}", "decisions:\n  s1m5: {formation: 4 2 4}")
    with pytest.raises(InputError, match=r"decisions\.s1m5\.formation: 应为以下之一：4 4 2、4 3 3、5 4 1、3 5 2"):
        load_campaign(path)


def test_duplicate_player_name(tmp_path: Path) -> None:
    path = campaign_file(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    first = next(i for i, ln in enumerate(lines) if ln.startswith("  - {name: "))
    name = lines[first].split("name: ")[1].split(",")[0]
    second = first + 1
    other = lines[second].split("name: ")[1].split(",")[0]
    lines[second] = lines[second].replace(f"name: {other},", f"name: {name},")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=rf"players\[1\]: 名字 '{name}' 与 players\[0\] 重复"):
        load_campaign(path)


def test_squad_limit(tmp_path: Path) -> None:
    path = campaign_file(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    role = next(ln for ln in lines if "core: false" in ln)
    at = lines.index(role)
    extra = [role.replace("name: ", f"name: 替补{i}号") for i in range(20)]
    path.write_text("\n".join(lines[:at] + extra + lines[at:]) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"players: 一支球队至多 33 名球员"):
        load_campaign(path)


def test_output_outside_the_campaign_folder(tmp_path: Path) -> None:
    """``output:`` may only name a folder inside the campaign's own (``--out`` is the way out)."""
    path = _broken(tmp_path, "decisions: {}", "decisions: {}\noutput: ../posts")
    campaign = load_campaign(path)  # loading is fine: ``--out`` may still be given
    with pytest.raises(InputError) as e:
        campaign.output_dir()
    assert str(e.value) == (f"{path}:{_line_of(path, 'output: ../posts')}:9: output: '../posts' 指向战役文件夹之外；"
                            "要写到那里，请用 --out 指定")
    inside = _broken(tmp_path, "decisions: {}", "decisions: {}\noutput: posts/s")
    assert load_campaign(inside).output_dir() == tmp_path / "posts/s"
