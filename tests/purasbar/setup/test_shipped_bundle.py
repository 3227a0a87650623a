"""Issue 29 round 7: the 群英杯's table bundle ships in ``_prebuilt`` (:func:`anko_writer.prebuilt.shipped`).

The shipped bundle must be the bundle a run builds from the same files, wherever the package is installed; a
campaign's override, an edited table or edited code finds none and builds as before.
"""

from __future__ import annotations

import os
import pickle
import shutil
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest

from anko_writer import cache, prebuilder, prebuilt
from anko_writer.resources import builtin_dir
from anko_writer.rulesets.purasbar import RULESET
from anko_writer.rulesets.purasbar.setup import tables as bundle
from tests.shared import shared


@pytest.fixture(scope="session")
def once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ``_prebuilt`` of the 群英杯 alone, built once a run (2.5 s a build): each test reads a copy."""
    def build(tmp: Path) -> None:
        prebuilder.build(tmp / "prebuilt", {"purasbar": "anko_writer.rulesets.purasbar:RULESET"})
    return shared(tmp_path_factory, "prebuilt-purasbar", build) / "prebuilt"


@pytest.fixture()
def folder(once: Path, tmp_path: Path) -> Iterator[Path]:
    """A freshly built ``_prebuilt`` of the 群英杯 alone (a copy of :func:`once`'s, which a test may damage),
    read instead of the package's; no cache folder."""
    built = tmp_path / "prebuilt"
    shutil.copytree(once, built)
    with mock.patch.dict(os.environ, {prebuilt.ENV: str(built), cache.ENV: "off"}):
        prebuilt._present.cache_clear()
        bundle.forget()
        try:
            yield built
        finally:
            prebuilt._present.cache_clear()
            bundle.forget()


def _resources(campaign_folder: Path | None = None) -> object:
    return RULESET.resources(campaign_folder)


def test_the_shipped_bundle_is_the_bundle_built_from_the_same_files(folder: Path) -> None:
    """The bundle read from the folder is the one built from the tables (equal, the same pickle), not a rebuild."""
    assert len(list((folder / prebuilt.BUNDLES).glob("*.pickle"))) == 1
    with mock.patch.object(bundle, "_read", side_effect=AssertionError("built, not read from the folder")):
        shipped = bundle.load_purasbar_tables(_resources())  # type: ignore[arg-type]
    built = bundle._read(_resources())  # type: ignore[arg-type]
    assert shipped == built
    root = builtin_dir("tables")  # and field for field, those that compare not too (a pickle of each, read back)
    assert pickle.dumps(shipped) == pickle.dumps(prebuilt.load_rooted(prebuilt.dump_rooted(built, root), root))


def test_its_paths_follow_the_tables_folder(tmp_path: Path) -> None:
    """Every path under the tables' folder is kept relative: read under another root, it lies there."""
    built = bundle._read(_resources())  # type: ignore[arg-type]
    root = builtin_dir("tables")
    data = prebuilt.dump_rooted(built, root)
    assert str(root).encode() not in data
    moved = prebuilt.load_rooted(data, tmp_path / "elsewhere")
    assert moved.facilities.path == tmp_path / "elsewhere" / "purasbar" / "facilities.yaml"
    assert built.facilities.path == root / "purasbar" / "facilities.yaml"
    assert prebuilt.load_rooted(data, root) == built


def test_an_override_finds_no_shipped_bundle(folder: Path, tmp_path: Path) -> None:
    """A campaign folder's own table is read (and the shipped bundle, for other files, is not used)."""
    own = tmp_path / "camp" / "tables" / "purasbar"
    own.mkdir(parents=True)
    text = (builtin_dir("tables") / "purasbar" / "fans.yaml").read_text(encoding="utf-8")
    (own / "fans.yaml").write_text(text + "# 本地的\n", encoding="utf-8")
    with mock.patch.object(bundle, "_read", wraps=bundle._read) as read:
        found = bundle.load_purasbar_tables(_resources(tmp_path / "camp"))  # type: ignore[arg-type]
    assert read.call_count == 1
    assert found.fans == bundle._read(_resources()).fans  # type: ignore[arg-type]


def test_edited_code_or_tables_find_no_shipped_bundle(folder: Path) -> None:
    """The key holds every module's source and every table's bytes: either edited, the bundle is built."""
    stamp = bundle.tables_stamp(_resources())  # type: ignore[arg-type]
    parts: list[bytes | str] = []
    for path, _ in stamp:
        parts += [Path(path).relative_to(builtin_dir("tables")).as_posix(), Path(path).read_bytes()]
    key = prebuilt.bundle_key(bundle.KIND, parts)
    assert (folder / prebuilt.BUNDLES / f"{key}.pickle").is_file()
    assert prebuilt.bundle_key(bundle.KIND, [*parts[:-1], b"edited"]) != key
    with mock.patch.object(prebuilt, "package_digest", lambda: "edited code"):
        assert prebuilt.bundle_key(bundle.KIND, parts) != key
        with mock.patch.object(bundle, "_read", wraps=bundle._read) as read:
            bundle.load_purasbar_tables(_resources())  # type: ignore[arg-type]
        assert read.call_count == 1


def test_a_damaged_bundle_is_built_again(folder: Path) -> None:
    """A truncated shipped bundle is never an error: the tables are read."""
    (entry,) = (folder / prebuilt.BUNDLES).glob("*.pickle")
    entry.write_bytes(entry.read_bytes()[:100])
    with mock.patch.object(bundle, "_read", wraps=bundle._read) as read:
        bundle.load_purasbar_tables(_resources())  # type: ignore[arg-type]
    assert read.call_count == 1


def test_the_package_digest_reads_every_module() -> None:
    """:func:`prebuilt.package_digest` changes with any module's source (here: one byte of ``dice.py``)."""
    before = prebuilt.package_digest()
    source = Path(prebuilt.__file__).with_name("dice.py").read_bytes()
    real = Path.read_bytes

    def edited(self: Path) -> bytes:
        return source + b"#" if self.name == "dice.py" else real(self)

    prebuilt.package_digest.cache_clear()
    try:
        with mock.patch.object(Path, "read_bytes", edited):
            assert prebuilt.package_digest() != before
    finally:
        prebuilt.package_digest.cache_clear()
    assert prebuilt.package_digest() == before
