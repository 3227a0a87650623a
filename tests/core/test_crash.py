"""Crashes and concurrent runs lose nothing (issue 9 §3): staged writes, the commit journal, the lock.

Real processes are killed with SIGKILL at named points of :func:`anko_writer.output.write_files`
through the test-only hook ``ANKO_WRITER_TEST_PAUSE=<point>:kill`` (``<point>:<seconds>`` sleeps
instead). One ``season`` and one ``month`` run of the real CLI are killed; every other point is hit
with a tiny writer process (same code, no simulation) so the suite stays fast.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from anko_writer import output
from anko_writer.cli import app
from anko_writer.errors import OutputError
from anko_writer.output import JOURNAL, LOCK, STAGE_PREFIX, locked, read_manifest, write_files
from tests.shared import shared

ROOT = Path(__file__).resolve().parents[2]
CAMPAIGN = ROOT / "campaigns" / "recht.yaml"
runner = CliRunner()

OLD = {"s01/m01.md": "# 第一月\n", "s01/m01.json": '{"month": 1}\n', "s01/index.md": "# 第一赛季\n"}
NEW = {
    "s01/m01.md": "# 第一月（重写）\n",  # replaced
    "s01/m01.json": '{"month": 1}\n',  # unchanged: not staged
    "s01/m02.md": "# 第二月\n",  # a new file in an existing folder
    "s02/m01.md": "# 第二赛季\n",  # a new folder, moved in whole
}
NEW_MOVES = ["s01/m01.md", "s01/m02.md", "s02", "manifest.json"]
PRE_JOURNAL = ["locked", "staged"]
POST_JOURNAL = [f"committing@{k}" for k in range(len(NEW_MOVES))] + ["committed"]
WRITER = "import json, sys; from anko_writer.output import write_files; write_files(sys.argv[1], json.loads(sys.argv[2]))"


def tree(out: Path, private: bool = True) -> dict[str, object]:
    """Everything under ``out`` (links not followed): file bytes, ``"dir"`` or ``("link", target)``;
    ``private=False`` leaves out the tool's hidden ``.anko-*`` entries (lock file, stages)."""
    found: dict[str, object] = {}
    for folder, dirs, files in os.walk(out):
        for name in dirs + files:
            path = Path(folder, name)
            rel = path.relative_to(out).as_posix()
            if not private and rel.startswith(".anko-"):
                continue
            if path.is_symlink():
                found[rel] = ("link", os.readlink(path))
            else:
                found[rel] = "dir" if path.is_dir() else path.read_bytes()
    return found


def leftovers(out: Path) -> list[str]:
    """The tool's private or temporary files still under ``out``."""
    return sorted(rel for rel in tree(out) if rel.split("/")[0].startswith(".anko-") or rel.endswith(".tmp"))


def stages(out: Path) -> list[Path]:
    """The stage folders under ``out``."""
    return sorted(out.glob(STAGE_PREFIX + "*"))


def cli(*args: object) -> Result:
    """The CLI in this process (warm caches: a month takes a fraction of a second)."""
    return runner.invoke(app, [str(a) for a in args])


def spawn(args: list[str], pause: str | None = None) -> subprocess.Popen[str]:
    """A real process of this Python, with the test hook set to ``pause``."""
    env = {k: v for k, v in os.environ.items() if k != output.TEST_PAUSE_ENV}
    if pause:
        env[output.TEST_PAUSE_ENV] = pause
    return subprocess.Popen([sys.executable, *args], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def killed(proc: subprocess.Popen[str]) -> None:
    """Wait for ``proc`` and check that it died of SIGKILL (the hook fired)."""
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == -signal.SIGKILL, err


def copy(src: Path, dst: Path) -> Path:
    """A copy of an output folder (symlinks kept as links)."""
    shutil.copytree(src, dst, symlinks=True)
    return dst


# --- real CLI runs: one month killed before its commit, one season killed in the middle of it ------


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """OUT after ``month 1`` (the "before"), and clean ``month 2`` and ``season`` runs on top of it: built once
    a run, even across pytest-xdist's workers (:func:`tests.shared.shared`); tests change only copies."""
    def build(tmp: Path) -> None:
        base = tmp / "base"
        assert cli("month", CAMPAIGN, "--season", "1", "--month", "1", "--out", base).exit_code == 0
        for name, args in (("month2", ["month", "--month", "2"]), ("season", ["season"])):
            out = copy(base, tmp / name)
            res = cli(args[0], CAMPAIGN, "--season", "1", *args[1:], "--out", out)
            assert res.exit_code == 0, res.output
            assert not leftovers(out)
    tmp = shared(tmp_path_factory, "crash-real", build)
    return {name: tmp / name for name in ("base", "month2", "season")}


def test_month_killed_after_staging_leaves_out_as_it_was(real: dict[str, Path], tmp_path: Path) -> None:
    out = copy(real["base"], tmp_path / "out")
    before = tree(out)
    args = ["-m", "anko_writer", "month", str(CAMPAIGN), "--season", "1", "--month", "2", "--out", str(out)]
    killed(spawn(args, "staged:kill"))
    [stage] = stages(out)  # everything staged, no journal: the run had not decided to commit
    assert (stage / "s01/m02.md").is_file() and not (stage / JOURNAL).exists()
    assert tree(out, private=False) == before
    with locked(out):  # what the next run does first: drop the stage
        assert not stages(out)
    assert tree(out) == before  # byte for byte, the dead run's lock file and stage gone too
    res = cli("month", CAMPAIGN, "--season", "1", "--month", "2", "--out", out)
    assert res.exit_code == 0, res.output
    assert res.stdout.count("已写入 ") == 2
    assert tree(out) == tree(real["month2"])


def test_season_killed_mid_commit_is_finished_by_the_next_run(real: dict[str, Path], tmp_path: Path) -> None:
    out = copy(real["base"], tmp_path / "out")
    before = tree(out)
    killed(spawn(["-m", "anko_writer", "season", str(CAMPAIGN), "--season", "1", "--out", str(out)], "committing@5:kill"))
    [stage] = stages(out)
    moves = json.loads((stage / JOURNAL).read_text(encoding="utf-8"))["moves"]
    assert len(moves) > 6 and moves[-1] == "manifest.json"
    half = tree(out, private=False)
    assert half != before and half != tree(real["season"])  # five files moved, the manifest not yet
    assert half["manifest.json"] == before["manifest.json"]
    res = cli("season", CAMPAIGN, "--season", "1", "--out", out)  # no --force needed
    assert res.exit_code == 0, res.output
    assert "已写入 " not in res.stdout and "未改动：" in res.stdout  # the journal finished it all
    assert tree(out) == tree(real["season"])
    assert not leftovers(out)


# --- every kill point, with a small writer process -----------------------------------------------


@pytest.fixture
def small(tmp_path: Path) -> tuple[Path, Path]:
    """OUT holding OLD, and the reference result of writing NEW on top of it."""
    out = tmp_path / "out"
    write_files(out, OLD)
    ref = copy(out, tmp_path / "ref")
    write_files(ref, NEW)
    return out, ref


def test_journal_lists_the_moves(small: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    out, _ = small
    seen: list[list[str]] = []
    real_roll = output._roll_forward

    def spy(o: Path, stage: Path) -> None:
        seen.append(json.loads((stage / JOURNAL).read_text(encoding="utf-8"))["moves"])
        real_roll(o, stage)

    monkeypatch.setattr(output, "_roll_forward", spy)
    write_files(out, NEW)
    assert seen == [NEW_MOVES]


@pytest.mark.parametrize("point", PRE_JOURNAL + POST_JOURNAL)
def test_killed_at_any_point(small: tuple[Path, Path], point: str) -> None:
    out, ref = small
    before = tree(out)
    killed(spawn(["-c", WRITER, str(out), json.dumps(NEW)], f"{point}:kill"))
    assert (out / LOCK).read_text(encoding="ascii").strip().isdigit()  # the dead run's lock file
    if point in PRE_JOURNAL:
        assert tree(out, private=False) == before
    else:
        assert len(stages(out)) == 1 and (stages(out)[0] / JOURNAL).is_file()
    with locked(out):  # the next run's first step: finish or drop, before it reads anything
        assert not stages(out)
    assert tree(out) == (before if point in PRE_JOURNAL else tree(ref))
    assert write_files(out, NEW) == ([] if point not in PRE_JOURNAL else [out / "s01/m01.md", out / "s01/m02.md", out / "s02/m01.md"])
    assert tree(out) == tree(ref) and not leftovers(out)


# --- a full disk, and other failures while staging or committing ----------------------------------


def _fail_on(monkeypatch: pytest.MonkeyPatch, n: int, exc: BaseException) -> None:
    """Make the ``n``-th low-level staged write raise ``exc``."""
    calls = []
    real_write = output._write_new

    def write(path: Path, data: bytes) -> None:
        calls.append(path)
        if len(calls) == n:
            raise exc
        real_write(path, data)

    monkeypatch.setattr(output, "_write_new", write)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])  # three files, the manifest, the journal
def test_full_disk_while_staging_changes_nothing(small: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    out, ref = small
    before = tree(out)
    _fail_on(monkeypatch, n, OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
    with pytest.raises(OutputError) as exc:
        write_files(out, NEW)
    msg = str(exc.value)
    assert "\n" not in msg and "No space left on device" in msg and f"{out} 里什么也没有改动" in msg
    assert tree(out) == before  # no stage, no lock file, no new folder
    monkeypatch.undo()
    write_files(out, NEW)
    assert tree(out) == tree(ref)


def test_full_disk_on_a_fresh_out_leaves_no_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fail_on(monkeypatch, 2, OSError(errno.ENOSPC, "No space left on device"))
    with pytest.raises(OutputError, match=r"/new/out/s01/m01\.json: 无法写入：No space left on device"):
        write_files(tmp_path / "new" / "out", OLD)
    assert list(tmp_path.iterdir()) == []


def test_interrupt_while_staging_removes_the_stage(small: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    out, _ = small
    before = tree(out)
    _fail_on(monkeypatch, 2, KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        write_files(out, NEW)
    assert tree(out) == before


def test_failed_commit_keeps_its_journal_for_the_next_run(small: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    out, ref = small
    calls = []
    real_replace = os.replace

    def replace(src: object, dst: object) -> None:
        calls.append(dst)
        if len(calls) == 3:  # the journal, one move, then the disk fails
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real_replace(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OutputError, match="下一次在这里运行 anko-writer 时会补完") as exc:
        write_files(out, NEW)
    assert "\n" not in str(exc.value)
    monkeypatch.undo()
    assert (stages(out)[0] / JOURNAL).is_file() and not (out / LOCK).exists()
    assert write_files(out, NEW) == []  # the journal was finished before anything was compared
    assert tree(out) == tree(ref) and not leftovers(out)


def test_stale_stage_and_temp_files_are_removed(small: tuple[Path, Path]) -> None:
    out, ref = small
    (out / ".anko-stage-0badc0de/s01").mkdir(parents=True)
    (out / ".anko-stage-0badc0de/s01/m01.md").write_text("半截\n", encoding="utf-8")
    (out / "s01/.m01.md.deadbeef.tmp").write_text("半截\n", encoding="utf-8")
    (out / "s01/.notes.tmp").write_text("主持人的\n", encoding="utf-8")  # not ours: kept
    write_files(out, NEW)
    assert tree(out) == {**tree(ref), "s01/.notes.tmp": "主持人的\n".encode()}


# --- one run at a time -----------------------------------------------------------------------------


def test_second_cli_run_is_refused_at_once(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with locked(out):
        before = tree(out)
        proc = spawn(["-m", "anko_writer", "month", str(CAMPAIGN), "--season", "1", "--month", "1", "--out", str(out)])
        _, err = proc.communicate(timeout=120)  # held for the whole test: a waiting run would hang here
        assert tree(out) == before
    assert proc.returncode == 1
    assert err == f"错误：{out}: 另一个 anko-writer 进程（pid {os.getpid()}）正在这里写入；请等它写完\n"
    assert not out.exists()  # the lock's folder was ours and stayed empty


def test_lock_of_a_running_then_dead_process(small: tuple[Path, Path]) -> None:
    out, ref = small
    proc = spawn(["-c", WRITER, str(out), json.dumps(NEW)], "locked:60")
    try:
        deadline = time.monotonic() + 60
        while not (out / LOCK).is_file() or (out / LOCK).read_text(encoding="ascii").strip() != str(proc.pid):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.02)
        with pytest.raises(OutputError) as exc:
            write_files(out, {"s01/m03.md": "三\n"})
        assert str(exc.value) == f"{out}: 另一个 anko-writer 进程（pid {proc.pid}）正在这里写入；请等它写完"
    finally:
        proc.kill()
        proc.wait()
    assert (out / LOCK).exists()  # SIGKILL left the file; the kernel dropped the lock
    started = time.monotonic()
    write_files(out, NEW)
    assert time.monotonic() - started < 5
    assert tree(out) == tree(ref) and not leftovers(out)


def test_lock_file_with_a_dead_pid_does_not_block(small: tuple[Path, Path]) -> None:
    out, ref = small
    (out / LOCK).write_text("999999999\n", encoding="ascii")
    write_files(out, NEW)
    assert tree(out) == tree(ref)


def test_lock_is_reentrant_and_tidy(tmp_path: Path) -> None:
    out = tmp_path / "a" / "b"
    with locked(out):
        assert (out / LOCK).read_text(encoding="ascii") == f"{os.getpid()}\n"
        with locked(out):
            pass
        write_files(out, OLD)
        assert (out / LOCK).exists()
    assert sorted(os.listdir(out)) == ["manifest.json", "s01"]
    with locked(tmp_path / "c" / "d"):
        pass
    assert sorted(os.listdir(tmp_path)) == ["a"]  # created, unused, removed


def test_out_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "out").write_text("x", encoding="utf-8")
    with pytest.raises(OutputError, match="已存在，但不是文件夹"):
        write_files(tmp_path / "out", OLD)


# --- links -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("force", [False, True])
@pytest.mark.parametrize("name", ["s01", "s01/m01.md", "manifest.json"])
def test_symlink_under_out_is_refused(small: tuple[Path, Path], tmp_path: Path, name: str, force: bool) -> None:
    out, _ = small
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.move(out / name, elsewhere / "real")
    (out / name).symlink_to(elsewhere / "real")
    before, outside = tree(out), tree(elsewhere)
    with pytest.raises(OutputError) as exc:
        write_files(out, NEW, force=force)
    assert str(exc.value).startswith(f"{out / name}: 是符号链接")
    assert tree(out) == before and tree(elsewhere) == outside


def test_symlink_refused_by_the_cli(real: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (out / "s01").symlink_to(tmp_path / "elsewhere")
    res = cli("month", CAMPAIGN, "--season", "1", "--month", "1", "--out", out)
    assert res.exit_code == 1
    assert res.stderr == (f"错误：{out / 's01'}: 是符号链接；anko-writer 不经由链接写入"
                          "（请换成真正的文件或文件夹）\n")
    assert os.listdir(tmp_path / "elsewhere") == [] and sorted(os.listdir(out)) == ["s01"]


def test_reserved_names_are_refused(tmp_path: Path) -> None:
    for rel in (LOCK, ".anko-stage-1/x.md", "manifest.json"):
        with pytest.raises(OutputError, match="留给工具自己的文件"):
            write_files(tmp_path / "out", {rel: "x"})
    assert not (tmp_path / "out").exists()


def test_manifest_not_utf8_is_one_located_error(small: tuple[Path, Path]) -> None:
    out, _ = small
    (out / "manifest.json").write_bytes("{\"files\": {\"名\": 1}}\n".encode("gbk"))
    with pytest.raises(OutputError) as exc:
        read_manifest(out)
    assert str(exc.value) == f"{out / 'manifest.json'}: 不是 UTF-8 文本（第 1 行的字节 0xc3）"


# --- readers recover first: export and verify right after a crash mid-commit ------------------------


@pytest.mark.parametrize("command", ["export", "verify"])
def test_export_and_verify_finish_a_half_moved_commit_first(small: tuple[Path, Path], command: str) -> None:
    out, ref = small
    killed(spawn(["-c", WRITER, str(out), json.dumps(NEW)], "committing@1:kill"))  # s01/m01.md moved, the rest not
    assert (out / "s01/m01.md").read_text(encoding="utf-8") == NEW["s01/m01.md"] and not (out / "s02").exists()
    res = cli(command, out, *(["--forum", "tieba"] if command == "export" else []))
    assert res.exit_code == 0, res.output
    assert not stages(out)
    chapters = {k: v for k, v in tree(out).items() if k.startswith("s0")}
    assert chapters == {k: v for k, v in tree(ref).items() if k.startswith("s0")}
    if command == "export":  # every chapter of the finished commit was cut, none from the half-moved state
        index = (out / "export/tieba/发帖顺序.txt").read_text(encoding="utf-8")
        assert "s01/001-m01-1.txt" in index and "s01/002-m02-1.txt" in index and "s02/001-m01-1.txt" in index


def test_verify_of_a_folder_being_written_is_refused(small: tuple[Path, Path]) -> None:
    out, _ = small
    proc = spawn(["-c", WRITER, str(out), json.dumps(NEW)], "committing@1:60")
    try:
        deadline = time.monotonic() + 60
        while not (stages(out) and (stages(out)[0] / JOURNAL).is_file() and (out / "s01/m01.md").read_text(
                encoding="utf-8") == NEW["s01/m01.md"]):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.02)
        res = cli("verify", out)
        assert res.exit_code == 1 and "正在这里写入；请等它写完" in res.output
    finally:
        proc.kill()
        proc.wait()


# --- an export re-cut into fewer posts, killed after its moves: the stale posts still go ------------

CUT = {"export/x/001-a.txt": "甲\n", "export/x/002-b.txt": "乙\n", "export/x/s02/003-c.txt": "丙\n",
       "export/x/发帖顺序.txt": "1 2 3\n"}
RECUT = {"export/x/001-a.txt": "甲乙丙\n", "export/x/发帖顺序.txt": "1\n"}
RECUT_WRITER = ("import json, sys; from anko_writer.output import write_files; "
                "write_files(sys.argv[1], json.loads(sys.argv[2]), replace_under='export/x')")


@pytest.mark.parametrize("point", ["committing@3", "committing@4", "committed"])
def test_a_recut_killed_after_its_moves_leaves_no_stale_post(tmp_path: Path, point: str) -> None:
    out = tmp_path / "out"
    write_files(out, CUT, replace_under="export/x")
    killed(spawn(["-c", RECUT_WRITER, str(out), json.dumps(RECUT)], f"{point}:kill"))  # 3 moves, then removals
    assert read_manifest(out).keys() == {*RECUT}  # the manifest moved in: it no longer lists the stale posts
    with locked(out):  # what the next run (or export, or verify) does first
        pass
    assert {k: v for k, v in tree(out).items() if k.startswith("export")} == {
        "export": "dir", "export/x": "dir", **{k: v.encode() for k, v in RECUT.items()}}
    assert not leftovers(out)


def test_a_recut_removes_stale_posts_in_its_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    write_files(out, CUT, replace_under="export/x")
    seen: list[dict[str, list[str]]] = []
    real_roll = output._roll_forward

    def spy(o: Path, stage: Path) -> None:
        seen.append(json.loads((stage / JOURNAL).read_text(encoding="utf-8")))
        real_roll(o, stage)

    monkeypatch.setattr(output, "_roll_forward", spy)
    write_files(out, RECUT, replace_under="export/x")
    assert seen == [{"moves": ["export/x/001-a.txt", "export/x/发帖顺序.txt", "manifest.json"],
                     "removes": ["export/x/002-b.txt", "export/x/s02/003-c.txt"]}]


@pytest.mark.parametrize("command", ["export", "month"])
def test_a_very_deep_manifest_is_one_located_error(tmp_path: Path, command: str) -> None:
    out = tmp_path / "out"
    write_files(out, OLD)
    (out / "manifest.json").write_text('{"files": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    args = {"export": ["export", out, "--forum", "tieba"],
            "month": ["month", CAMPAIGN, "--season", "1", "--month", "1", "--out", out]}[command]
    res = cli(*args)
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit)
    assert res.output == f"错误：{out / 'manifest.json'}: 清单无法读取（嵌套太深）；请恢复它，或者用 --force\n"


def test_a_held_lock_refuses_a_second_taker_naming_the_pid(tmp_path: Path) -> None:
    """The lock is per open file (``flock``): a second taking in this very process is refused like another's."""
    with locked(tmp_path) as out:
        with pytest.raises(OutputError, match=f"pid {os.getpid()}"):
            output._acquire(out)
    lock = output._acquire(tmp_path)  # let go: free again
    output._release(tmp_path, lock)
    assert not (tmp_path / LOCK).exists()


@pytest.mark.skipif(os.name != "posix", reason="flock is POSIX's; Windows locks through filelock")
def test_taking_the_lock_loads_no_filelock(tmp_path: Path) -> None:
    """issue 29: every writing command takes the lock, and filelock's import costs ~15 ms of CPU."""
    code = ("import sys; from pathlib import Path; from anko_writer.output import locked\n"
            f"with locked(Path({str(tmp_path)!r})): pass\n"
            "print('filelock' in sys.modules)")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and res.stdout.strip() == "False", res.stdout + res.stderr
