"""One ``syncfs`` for a stage (:class:`anko_writer.output._Batch`) writes what an ``fsync`` of each file writes.

The batch is used only where it keeps the per-file guarantee (Linux ≥ 5.8, a local journalling file system);
these tests compare both ways on random file sets, count the system calls each way makes, and check that a
failed batch sync is a failed write that leaves OUT as it was.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anko_writer import output
from anko_writer.errors import OutputError
from anko_writer.output import BATCH_OFF_ENV, write_files

from .test_crash import tree

NAMES = st.sampled_from(["a.md", "b.json", "s01/m01.md", "s01/m02.json", "s01/x/deep.md", "s02/index.md", "c.yaml"])
TEXTS = st.text(alphabet=st.sampled_from("ab\n\r中文，。{}\"\\"), max_size=40)
FILES = st.dictionaries(NAMES, TEXTS, min_size=1, max_size=7)


def _batched(tmp: Path) -> bool:
    """Whether this machine stages ``tmp``'s files in one batch."""
    probe = tmp / "probe"
    probe.mkdir()
    batch = output._Batch.open(probe)
    if batch is not None:
        batch.close()
    probe.rmdir()
    return batch is not None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=FILES, second=FILES)
def test_batch_writes_what_fsync_each_writes(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch,
                                             first: dict[str, str], second: dict[str, str]) -> None:
    tmp = tmp_path_factory.mktemp("batch")
    with monkeypatch.context() as m:
        m.setenv(BATCH_OFF_ENV, "1")
        each = [write_files(tmp / "each", files) for files in (first, second)]
    batched = [write_files(tmp / "batch", files) for files in (first, second)]
    assert [[p.relative_to(tmp / "each") for p in w] for w in each] == \
        [[p.relative_to(tmp / "batch") for p in w] for w in batched]
    assert tree(tmp / "each") == tree(tmp / "batch")


def test_one_syncfs_instead_of_an_fsync_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not _batched(tmp_path):
        pytest.skip("no batch on this system: every file is fsynced (the path the other tests cover)")
    calls: list[str] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1])
    real_open = output._Batch.open

    def counted(stage: Path) -> output._Batch | None:
        batch = real_open(stage)
        if batch is None:
            return None
        return output._Batch(batch.fd, lambda fd: (calls.append("syncfs"), batch.syncfs(fd))[1])

    monkeypatch.setattr(output._Batch, "open", staticmethod(counted))
    files = {f"s01/m{k:02}.md": f"第{k}章\n" for k in range(1, 21)}
    write_files(tmp_path / "out", files)
    # one syncfs for 20 files, the manifest and two folders; then the journal and its folder, OUT twice
    assert calls == ["syncfs", "fsync", "fsync", "fsync", "fsync"]
    calls.clear()
    monkeypatch.setenv(BATCH_OFF_ENV, "1")
    write_files(tmp_path / "out2", files)
    assert calls.count("syncfs") == 0 and calls.count("fsync") == 21 + 2 + 4  # and the stage and its s01 folder


def test_a_failed_batch_sync_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not _batched(tmp_path):
        pytest.skip("no batch on this system")
    out = tmp_path / "out"
    write_files(out, {"s01/m01.md": "旧\n"})
    before = tree(out)
    real_open = output._Batch.open

    def failing(stage: Path) -> output._Batch | None:
        batch = real_open(stage)
        assert batch is not None

        def syncfs(fd: int) -> int:
            raise OSError(errno.EIO, os.strerror(errno.EIO))

        return output._Batch(batch.fd, syncfs)

    monkeypatch.setattr(output._Batch, "open", staticmethod(failing))
    with pytest.raises(OutputError, match=f"{out}: 无法写入：Input/output error（{out} 里什么也没有改动）"):
        write_files(out, {"s01/m01.md": "新\n", "s01/m02.md": "新\n"})
    assert tree(out) == before


@pytest.mark.parametrize(("release", "sysname", "fs", "batched"), [
    ("6.18.44-fc", "Linux", "ext4", True),
    ("5.8.0", "Linux", "xfs", True),
    ("5.7.19", "Linux", "ext4", False),  # syncfs returned 0 after a write-back error before 5.8
    ("6.1.0", "Linux", "nfs", False),
    ("6.1.0", "Linux", "fuse.sshfs", False),
    ("6.1.0", "Linux", "overlay", False),
    ("23.1.0", "Darwin", "apfs", False),
])
def test_batch_only_where_it_keeps_fsyncs_guarantee(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, release: str,
                                                    sysname: str, fs: str, batched: bool) -> None:
    if not hasattr(os, "uname"):
        pytest.skip("no uname")
    dev = os.stat(tmp_path).st_dev
    line = f"29 1 {os.major(dev)}:{os.minor(dev)} / / rw,relatime shared:1 - {fs} /dev/x rw\n"
    real = os.uname()
    monkeypatch.setattr(os, "uname", lambda: os.uname_result((sysname, real.nodename, release, real.version,
                                                               real.machine)))
    monkeypatch.setattr(output, "_mountinfo", lambda: line)
    monkeypatch.setattr(output, "_libc_syncfs", lambda: (lambda fd: 0))
    batch = output._Batch.open(tmp_path)
    assert (batch is not None) == batched
    if batch is not None:
        batch.close()


def test_a_device_named_by_two_types_is_not_batched() -> None:
    dev = os.makedev(8, 1)
    text = "1 0 8:1 / / rw - ext4 /dev/a rw\n2 0 8:1 /x /mnt rw - nfs host:/ rw\n"
    assert output._fs_type(dev, text) is None
    assert output._fs_type(dev, text.splitlines()[0]) == "ext4"


# --- the plan checks each folder once: the same refusals as checking it for every file --------------------

SETUPS = st.lists(st.tuples(st.sampled_from(["s01", "s01/m01.md", "s02", "s01/x", "a.md"]),
                            st.sampled_from(["file", "dir", "link"])), max_size=3)


def _make(out: Path, setup: list[tuple[str, str]]) -> None:
    """Put files, folders and links in OUT where the plan looks (the first of each path wins)."""
    out.mkdir(parents=True)
    for rel, kind in setup:
        path = out / rel
        if os.path.lexists(path) or not path.parent.is_dir() or path.parent.is_symlink():
            continue
        if kind == "file":
            path.write_text("手写\n", encoding="utf-8")
        elif kind == "dir":
            path.mkdir()
        else:
            path.symlink_to(out.parent)


def _outcome(out: Path, files: dict[str, str], force: bool) -> object:
    """What writing ``files`` does: the error's text, or the tree it leaves."""
    try:
        write_files(out, files, force)
    except OutputError as e:
        return str(e).replace(str(out), "OUT")
    return tree(out)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(setup=SETUPS, files=FILES, force=st.booleans())
def test_the_plan_refuses_what_a_check_of_every_file_refuses(tmp_path_factory: pytest.TempPathFactory,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             setup: list[tuple[str, str]], files: dict[str, str],
                                                             force: bool) -> None:
    tmp = tmp_path_factory.mktemp("plan")
    _make(tmp / "a" / "out", setup)
    _make(tmp / "b" / "out", setup)
    fast = _outcome(tmp / "a" / "out", files, force)
    real = output._check_target
    with monkeypatch.context() as m:
        m.setattr(output, "_check_target", lambda out, norm, checked=None: real(out, norm, None))
        plain = _outcome(tmp / "b" / "out", files, force)
    if isinstance(fast, dict) and isinstance(plain, dict):
        fast = {k: ("link", "") if isinstance(v, tuple) else v for k, v in fast.items()}
        plain = {k: ("link", "") if isinstance(v, tuple) else v for k, v in plain.items()}
    assert fast == plain
