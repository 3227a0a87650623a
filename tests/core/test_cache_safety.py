"""The disk cache is safe wherever it points (issue 22): a folder or entry that is not the user's alone is never
read, a planted entry never runs, and a corrupt, foreign, misnamed or ill-shaped entry (or a FIFO in its place)
is built again: the command runs as with no cache, never fails, never hangs."""

from __future__ import annotations

import hashlib
import hmac
import os
import pickle
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from anko_writer import cache, prebuilt
from tests.shared import shared

ROOT = Path(__file__).resolve().parents[2]
CAMPAIGN = ROOT / "campaigns" / "recht.yaml"
POSIX = pytest.mark.skipif(os.name == "nt", reason="owners, modes and FIFOs are POSIX")


def cli(*args: str, folder: Path | str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m anko_writer ARGS`` with the cache at ``folder``, from the project root."""
    env = {**os.environ, cache.ENV: str(folder), "PYTHONPATH": str(ROOT), prebuilt.ENV: "off"}  # every kind cached
    return subprocess.run([sys.executable, "-m", "anko_writer", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=timeout, env=env)


def month(folder: Path, out: Path) -> bytes:
    """Month 1 of the built-in campaign with the cache at ``folder``: the chapter's bytes."""
    res = cli("month", str(CAMPAIGN), "--season", "1", "--month", "1", "--out", str(out), folder=folder)
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    return (out / "s01" / "m01.md").read_bytes()


@pytest.fixture(scope="module")
def primed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes]:
    """A cache filled by one month-1 run, and that run's chapter: built once a run, even across pytest-xdist's
    workers (:func:`tests.shared.shared`); tests change only a copy (:func:`copy_of`)."""
    def build(tmp: Path) -> None:
        month(tmp / "cache", tmp / "out")
        assert len(list((tmp / "cache").rglob("*" + cache.SUFFIX))) > 10
    tmp = shared(tmp_path_factory, "cache-safety-primed", build)
    return tmp / "cache", (tmp / "out" / "s01" / "m01.md").read_bytes()


def copy_of(primed: tuple[Path, bytes], tmp_path: Path) -> Path:
    """A private copy of the primed cache."""
    shutil.copytree(primed[0], tmp_path / "cache")
    return tmp_path / "cache"


def entries(folder: Path) -> list[Path]:
    """Every entry of the cache at ``folder``, by kind and name."""
    return sorted(folder.rglob("*" + cache.SUFFIX))


class Plant:
    """A pickle that, when loaded, creates the file ``marker`` (what a planted entry would run)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (str(self.marker), "w"))


def entry_names(kind: str, parts: list[str | bytes]) -> list[str]:
    """The file names an entry of ``kind`` for ``parts`` has had (format 1: ``.pickle``; format 2)."""
    names = []
    for fmt, suffix in (("1", ".pickle"), ("2", cache.SUFFIX)):
        saved = cache.FORMAT
        cache.FORMAT = fmt
        try:
            stamp = cache.code_stamp.__wrapped__()  # type: ignore[attr-defined]
        finally:
            cache.FORMAT = saved
        names.append(cache.digest([stamp, kind, *parts]) + suffix)
    return names


def plant(folder: Path, marker: Path, key: bytes = b"k" * 32) -> None:
    """Plant entries for the built-in campaign's YAML in ``folder``: raw pickles under both formats' names,
    and format-2 entries whose HMAC is made with ``key`` (also planted as the folder's key)."""
    (folder / "yaml").mkdir(parents=True, exist_ok=True)
    (folder / cache.KEY_FILE).write_bytes(key)
    payload = pickle.dumps(Plant(marker))
    for name in entry_names("yaml", [CAMPAIGN.read_text(encoding="utf-8")]):
        path = folder / "yaml" / name
        label = f"yaml/{name}".encode()
        mac = hmac.new(key, len(label).to_bytes(4, "big") + label + b"p" + payload, hashlib.sha256).digest()
        path.write_bytes(cache._MAGIC + b"p" + mac + payload if name.endswith(cache.SUFFIX) else payload)


@POSIX
def test_a_planted_entry_in_a_world_writable_folder_never_runs(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    marker = tmp_path / "ran"
    plant(shared, marker)
    # the private fallback planted too, writable by all: refused as well
    fallback = shared / f"anko-writer-{os.getuid()}"
    plant(fallback, marker)
    for folder in (shared, fallback, shared / "yaml", fallback / "yaml"):
        folder.chmod(0o777)
    res = cli("check", str(CAMPAIGN), folder=shared)
    assert res.returncode == 0, res.stderr
    assert not marker.exists()
    assert res.stderr.count("warning:") == 1 and "running without the cache" in res.stderr


@POSIX
def test_a_world_writable_folder_moves_the_cache_to_a_private_one_inside(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    marker = tmp_path / "ran"
    plant(shared, marker)
    for _ in range(2):
        res = cli("check", str(CAMPAIGN), folder=shared)
        assert res.returncode == 0 and not marker.exists(), res.stderr
        assert res.stderr.count("warning:") == 1 and "using" in res.stderr
    private = shared / f"anko-writer-{os.getuid()}"
    assert stat.S_IMODE(private.stat().st_mode) == 0o700 and entries(private)


@POSIX
def test_an_entry_or_folder_others_may_write_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path / "c"))
    path = cache.entry_path("demo", ["x"])
    cache.store(path, {"a": 1})
    assert path is not None and cache.load(path) == (True, {"a": 1})
    path.chmod(0o666)
    assert cache.load(path) == (False, None)
    path.chmod(0o600)
    path.parent.chmod(0o777)
    cache._KINDS.clear()
    assert cache.load(path) == (False, None)
    path.parent.chmod(0o700)
    cache._KINDS.clear()
    assert cache.load(path) == (True, {"a": 1})
    if os.getuid() == 0:  # only root can give a file away
        os.chown(path, 65534, 65534)
        assert cache.load(path) == (False, None)


def test_plain_data_and_bytes_are_stored_without_pickle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path / "c"))
    head = len(cache._MAGIC)
    for value, tag in (({"p": ["甲", "乙"]}, b"j"), (b"\x00code", b"b"), ((1, 2), b"p")):
        path = cache.entry_path("demo", [repr(value)])
        cache.store(path, value)
        assert path is not None and path.read_bytes()[head:head + 1] == tag
        assert cache.load(path) == (True, value)


def test_a_corrupted_entry_is_rebuilt_and_the_campaign_runs(primed: tuple[Path, bytes], tmp_path: Path) -> None:
    folder = copy_of(primed, tmp_path)
    for i, entry in enumerate(entries(folder)):
        data = entry.read_bytes()
        entry.write_bytes(data[: len(data) // 2] if i % 2 else data[:-1] + bytes([data[-1] ^ 1]))
    assert month(folder, tmp_path / "out") == primed[1]
    assert month(folder, tmp_path / "again") == primed[1]


def test_a_sound_entry_under_another_name_is_rebuilt(primed: tuple[Path, bytes], tmp_path: Path) -> None:
    """Each kind's entries rotated: every one is well formed and was written by this user, but for another
    key (another YAML file, another template) — the HMAC names its entry, so none is used."""
    folder = copy_of(primed, tmp_path)
    for kind in folder.iterdir():
        found = entries(kind) if kind.is_dir() else []
        datas = [e.read_bytes() for e in found]
        for entry, data in zip(found, datas[1:] + datas[:1], strict=False):
            entry.write_bytes(data)
    assert month(folder, tmp_path / "out") == primed[1]


def test_a_well_formed_entry_of_the_wrong_shape_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An authenticated entry holding the wrong kind of value (an older build's, a bug's) is refused by the
    reader's check and built again."""
    monkeypatch.setenv(cache.ENV, str(tmp_path / "c"))
    calls = []

    def build() -> dict[str, list[str]]:
        calls.append(1)
        return {"goal": ["破门"]}
    path = cache.entry_path("phrases", ["goal: 破门"])
    cache.store(path, ["not", "a", "bank"])
    shape = lambda v: isinstance(v, dict)  # noqa: E731
    assert cache.cached("phrases", ["goal: 破门"], build, shape) == {"goal": ["破门"]} and calls == [1]
    assert cache.cached("phrases", ["goal: 破门"], build, shape) == {"goal": ["破门"]} and calls == [1]


@POSIX
def test_a_fifo_in_place_of_an_entry_does_not_hang(primed: tuple[Path, bytes], tmp_path: Path) -> None:
    folder = copy_of(primed, tmp_path)
    for entry in entries(folder):
        entry.unlink()
        os.mkfifo(entry, 0o600)
    assert month(folder, tmp_path / "out") == primed[1]  # the old cache blocked on the first FIFO it opened


@POSIX
def test_the_default_folder_left_group_writable_is_made_private_without_a_word(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A ``~/.cache/anko-writer`` of this user's made 0775 by an older version or a umask is tightened to 0700
    (a folder the host named in ANKO_WRITER_CACHE is never changed: the cache moves out of it instead)."""
    monkeypatch.delenv(cache.ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = tmp_path / "anko-writer"
    folder.mkdir()
    folder.chmod(0o775)
    assert cache.cached("demo", ["x"], lambda: 1) == 1
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and entries(folder)
    assert capsys.readouterr().err == ""


def test_a_file_named_as_the_cache_folder_is_one_warning_and_no_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    monkeypatch.setenv(cache.ENV, str(tmp_path / "file"))
    for _ in range(3):
        assert cache.cached("demo", ["x"], lambda: 1) == 1
    assert capsys.readouterr().err == f"warning: cache folder {tmp_path / 'file'} is not a folder; running without the cache\n"
