"""Output: atomic writes, the manifest, and protection of hand-edited chapters."""

from __future__ import annotations

import doctest
import hashlib
import json
import os
import stat
from pathlib import Path

import pytest

import anko_writer
from anko_writer import output
from anko_writer.errors import OutputError
from anko_writer.output import (
    atomic_write,
    chapter_paths,
    dump_json,
    index_path,
    plan_writes,
    read_manifest,
    write_files,
)

FILES = {
    "s01/m01.md": "# 第一赛季 · 第一月\n\n雷希特竞技 2 : 1 玛吉克联\n",
    "s01/m01.json": dump_json({"season": 1, "month": 1, "球队": "雷希特竞技"}),
    "s01/index.md": "# 第一赛季\n",
}


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _no_temp_files(out: Path) -> bool:
    return not [p for p in out.rglob("*") if p.name.endswith(".tmp")]


def test_doctests() -> None:
    assert doctest.testmod(output).failed == 0


def test_paths() -> None:
    assert chapter_paths(1, 3) == ("s01/m03.md", "s01/m03.json")
    assert chapter_paths(12, 12) == ("s12/m12.md", "s12/m12.json")
    assert index_path(1) == "s01/index.md"
    with pytest.raises(ValueError):
        chapter_paths(0, 1)
    with pytest.raises(ValueError):
        chapter_paths(1, -1)


def test_dump_json_style() -> None:
    text = dump_json({"z": 1, "名字": ["卡尔·穆勒"]})
    assert text == '{\n "z": 1,\n "名字": ["卡尔·穆勒"]\n}\n'
    nested = dump_json({"k": [{"a": 1}, ["b"]]})
    assert nested == '{\n "k": [\n  {"a":1},\n  ["b"]\n ]\n}\n'
    assert dump_json({"z": 1, "名字": ["卡尔·穆勒"]}) == text
    with pytest.raises(ValueError):
        dump_json({"x": float("nan")})


def test_manifest_round_trip(tmp_path: Path) -> None:
    written = write_files(tmp_path, FILES)
    assert sorted(written) == sorted(tmp_path / k for k in FILES)
    for rel, text in FILES.items():
        assert (tmp_path / rel).read_bytes() == text.encode("utf-8")
    raw = (tmp_path / "manifest.json").read_text(encoding="utf-8")
    doc = json.loads(raw)
    assert doc["version"] == anko_writer.__version__
    assert doc["files"] == {rel: _sha(text) for rel, text in FILES.items()}
    assert list(doc["files"]) == sorted(FILES)
    assert raw.endswith("}\n") and "\n \"files\": {\n" in raw
    assert read_manifest(tmp_path) == doc["files"]


def test_manifest_merges_entries(tmp_path: Path) -> None:
    write_files(tmp_path, {"s01/m01.md": "一\n"})
    write_files(tmp_path, {"s01/m02.md": "二\n"})
    assert set(read_manifest(tmp_path)) == {"s01/m01.md", "s01/m02.md"}


def test_regenerating_own_files_is_allowed(tmp_path: Path) -> None:
    write_files(tmp_path, FILES)
    new = dict(FILES, **{"s01/m01.md": "# 重写\n"})
    written = write_files(tmp_path, new)
    assert written == [tmp_path / "s01/m01.md"]  # unchanged files are not rewritten
    assert (tmp_path / "s01/m01.md").read_text(encoding="utf-8") == "# 重写\n"
    assert read_manifest(tmp_path)["s01/m01.md"] == _sha("# 重写\n")


def test_hand_edit_blocks_the_whole_write(tmp_path: Path) -> None:
    write_files(tmp_path, FILES)
    edited = tmp_path / "s01/m01.md"
    edited.write_text(FILES["s01/m01.md"] + "作者的补充说明。\n", encoding="utf-8")
    index = tmp_path / "s01/index.md"
    os.utime(index, ns=(1_000_000_000, 1_000_000_000))
    manifest_before = (tmp_path / "manifest.json").read_bytes()
    new = {
        "s01/index.md": "# 第一赛季（更新）\n",
        "s01/m01.md": "# 新版本\n",
        "s01/m02.md": "# 第二月\n",
    }
    with pytest.raises(OutputError) as exc:
        write_files(tmp_path, new)
    msg = str(exc.value)
    assert str(edited) in msg and "被手工改过" in msg and "--force" in msg
    assert index.read_text(encoding="utf-8") == FILES["s01/index.md"]
    assert index.stat().st_mtime_ns == 1_000_000_000
    assert not (tmp_path / "s01/m02.md").exists()
    assert (tmp_path / "manifest.json").read_bytes() == manifest_before
    assert "作者的补充说明" in edited.read_text(encoding="utf-8")


def test_force_overwrites(tmp_path: Path) -> None:
    write_files(tmp_path, FILES)
    edited = tmp_path / "s01/m01.md"
    edited.write_text("手改\n", encoding="utf-8")
    write_files(tmp_path, {"s01/m01.md": "# 新版本\n"}, force=True)
    assert edited.read_text(encoding="utf-8") == "# 新版本\n"
    assert read_manifest(tmp_path)["s01/m01.md"] == _sha("# 新版本\n")
    write_files(tmp_path, {"s01/m01.md": "# 第三版\n"})  # ours again: no force needed


def test_file_not_in_manifest_is_protected(tmp_path: Path) -> None:
    foreign = tmp_path / "s01/m01.md"
    foreign.parent.mkdir(parents=True)
    foreign.write_text("别人的文件\n", encoding="utf-8")
    with pytest.raises(OutputError, match="m01.md"):
        write_files(tmp_path, {"s01/m01.md": "# 我们的\n", "s01/m02.md": "x\n"})
    assert foreign.read_text(encoding="utf-8") == "别人的文件\n"
    assert not (tmp_path / "s01/m02.md").exists()
    assert not (tmp_path / "manifest.json").exists()


def test_identical_content_passes_even_if_unrecorded(tmp_path: Path) -> None:
    same = tmp_path / "s01/m01.md"
    same.parent.mkdir(parents=True)
    same.write_text("一样\n", encoding="utf-8")
    plan_writes(tmp_path, {"s01/m01.md": "一样\n"}, force=False)
    assert write_files(tmp_path, {"s01/m01.md": "一样\n"}) == []
    assert read_manifest(tmp_path) == {"s01/m01.md": _sha("一样\n")}


def test_bad_relative_paths_rejected(tmp_path: Path) -> None:
    for rel in ["../escape.md", "/abs.md", "manifest.json", "s01\\m01.md", ""]:
        with pytest.raises(OutputError):
            write_files(tmp_path / "out", {rel: "x"})
    assert not (tmp_path / "escape.md").exists()


def test_atomic_write_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b.md"
    atomic_write(target, "第一行\r\n第二行\n")
    assert target.read_bytes() == "第一行\n第二行\n".encode()
    atomic_write(target, "覆盖\n")
    assert target.read_text(encoding="utf-8") == "覆盖\n"
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["b.md"]
    write_files(tmp_path, FILES)
    assert _no_temp_files(tmp_path)


def test_atomic_write_failure_keeps_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "c.md"
    atomic_write(target, "旧\n")

    def boom(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OutputError, match="c.md"):
        atomic_write(target, "新\n")
    assert target.read_text(encoding="utf-8") == "旧\n"
    assert _no_temp_files(tmp_path)


@pytest.mark.parametrize("force", [False, True])
def test_wrong_kind_in_the_way_is_refused_even_with_force(tmp_path: Path, force: bool) -> None:
    (tmp_path / "a/s01/m01.md").mkdir(parents=True)
    with pytest.raises(OutputError, match=r"s01/m01\.md: 已存在，但不是文件"):
        write_files(tmp_path / "a", FILES, force=force)
    (tmp_path / "b").mkdir()
    (tmp_path / "b/s01").write_text("不是文件夹\n", encoding="utf-8")
    with pytest.raises(OutputError, match=r"b/s01: 已存在，但不是文件夹"):
        write_files(tmp_path / "b", FILES, force=force)
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a", "b", "m01.md", "s01", "s01"]


@pytest.mark.skipif(os.name != "posix", reason="permission bits are POSIX")
def test_a_rewritten_chapter_keeps_its_mode(tmp_path: Path) -> None:
    write_files(tmp_path, {"s01/m01.md": "一\n"})
    (tmp_path / "s01/m01.md").chmod(0o600)
    write_files(tmp_path, {"s01/m01.md": "二\n"})
    assert stat.S_IMODE(os.stat(tmp_path / "s01/m01.md").st_mode) == 0o600
