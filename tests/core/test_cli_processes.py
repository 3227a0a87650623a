"""Processes and special files through the real CLI (issue 22): a FIFO never hangs a command, a bad or
unreachable ``--scheduler`` is one line within seconds, and ``kill -9`` of ``audit --jobs 2`` takes its workers
with it."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.shared import shared
from tests.util import campaign_file, one_error_line

ROOT = Path(__file__).resolve().parents[2]
POSIX = pytest.mark.skipif(os.name == "nt", reason="FIFOs and kill -9 are POSIX")


def cli(*args: str | Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m anko_writer ARGS`` from the project root (a hang fails the test at ``timeout``)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "anko_writer", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, timeout=timeout, env=env)



@POSIX
@pytest.mark.parametrize("command", [["check"], ["month", "--season", "1", "--month", "1"], ["audit", "--seasons", "1"]])
def test_a_fifo_as_the_campaign_is_one_line_and_no_hang(tmp_path: Path, command: list[str]) -> None:
    fifo = tmp_path / "campaign.yaml"
    os.mkfifo(fifo)
    res = cli(command[0], fifo, *command[1:], timeout=30)
    one_error_line(res, f"错误：{fifo}: 是管道（FIFO），不是普通文件")


@POSIX
@pytest.mark.parametrize("kind, name", [("tables", "colours.yaml"), ("templates", "phrases.yaml"),
                                        ("templates", "chapter.md.j2")])
def test_a_fifo_as_an_override_table_or_template_never_hangs(tmp_path: Path, kind: str, name: str) -> None:
    """A FIFO table is refused in one line; a FIFO template or phrase bank is not a file the search path
    finds (the built-in one serves). Either way the command ends."""
    camp = campaign_file(tmp_path)
    folder = tmp_path / kind / "purasbar"
    folder.mkdir(parents=True)
    os.mkfifo(folder / name)
    res = cli("month", camp, "--season", "1", "--month", "1", "--out", tmp_path / "out", timeout=60)
    assert "Traceback" not in res.stderr
    if kind == "tables":
        one_error_line(res, f"{folder / name}: 是管道（FIFO），不是普通文件")
    else:
        assert res.returncode == 0, res.stderr


def test_a_scheduler_that_is_not_an_address_is_one_line(tmp_path: Path) -> None:
    camp = campaign_file(tmp_path)
    res = cli("audit", camp, "--seasons", "2", "--scheduler", "not a url", "--out", tmp_path / "audit")
    one_error_line(res, "--scheduler: 'not a url' 不是调度器地址；应为 tcp://HOST:PORT")
    assert not (tmp_path / "audit").exists()


def test_an_unreachable_scheduler_fails_within_seconds(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    camp = campaign_file(tmp_path)
    began = time.monotonic()
    res = cli("audit", camp, "--seasons", "2", "--scheduler", "tcp://127.0.0.1:1", "--scheduler-timeout", "1",
              "--out", tmp_path / "audit")
    one_error_line(res, "--scheduler: tcp://127.0.0.1:1 在 1 秒内没有 Dask 调度器应答")
    assert time.monotonic() - began < 25  # Dask's own default waited 30 s; connecting has what the host gave


@POSIX
def test_kill_9_of_audit_takes_its_workers_with_it(tmp_path: Path) -> None:
    psutil = pytest.importorskip("psutil")
    camp = campaign_file(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "anko_writer", "audit", str(camp), "--seasons", "200",
                             "--jobs", "2", "--out", str(tmp_path / "audit")], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: list = []  # type: ignore[type-arg]
    try:
        parent = psutil.Process(proc.pid)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(workers) < 2:
            workers = [p for p in parent.children(recursive=True) if p.cmdline()[:1] == [sys.executable]
                       or "python" in p.name()]
            time.sleep(0.2)
        assert len(workers) >= 2, "the pool never started"
        time.sleep(1.0)  # the workers are busy playing seasons
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        _, alive = psutil.wait_procs(workers, timeout=5)
        assert not alive, f"workers still running 5 s after kill -9 of their parent: {[p.pid for p in alive]}"
    finally:
        if proc.poll() is None:
            proc.kill()
        for p in workers:
            try:
                p.kill()
            except psutil.Error:
                pass


@pytest.fixture(scope="module")
def month_one(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """OUT after ``month --season 1 --month 1`` of the generated campaign, written once a run
    (:func:`tests.shared.shared`); tests that change it work on a copy (:func:`out_copy`)."""
    def build(tmp: Path) -> None:
        assert cli("month", campaign_file(tmp), "--season", "1", "--month", "1", "--out", tmp / "out").returncode == 0
    return shared(tmp_path_factory, "cli-processes-month1", build) / "out"


def out_copy(month_one: Path, tmp_path: Path) -> Path:
    """A private copy of :func:`month_one`'s OUT."""
    return Path(shutil.copytree(month_one, tmp_path / "out"))


@POSIX
def test_a_fifo_as_the_profile_is_one_line_and_no_hang(month_one: Path, tmp_path: Path) -> None:
    out = out_copy(month_one, tmp_path)
    fifo = tmp_path / "mine.yaml"
    os.mkfifo(fifo)
    one_error_line(cli("export", out, "--forum", fifo, timeout=30), f"{fifo}: 是管道（FIFO），不是普通文件")


@POSIX
@pytest.mark.parametrize("command", [["export", "--forum", "nga"], ["verify"]])
def test_a_fifo_as_a_chapter_is_one_line_and_no_hang(month_one: Path, tmp_path: Path, command: list[str]) -> None:
    out = out_copy(month_one, tmp_path)
    fifo = out / "s01" / "m02.md"
    os.mkfifo(fifo)
    one_error_line(cli(command[0], out, *command[1:], timeout=30), f"{fifo}: 是管道（FIFO），不是普通文件")


@POSIX
def test_a_fifo_where_a_chapter_goes_is_refused_not_read(tmp_path: Path) -> None:
    """``month`` checks what it would overwrite: a FIFO there is neither read (it would block) nor replaced."""
    camp = campaign_file(tmp_path)
    out = tmp_path / "out"
    (out / "s01").mkdir(parents=True)
    fifo = out / "s01" / "m01.md"
    os.mkfifo(fifo)
    res = cli("month", camp, "--season", "1", "--month", "1", "--out", out, timeout=60)
    one_error_line(res, f"{fifo}: 已存在，但不是文件")
    assert fifo.is_fifo()


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, list[str]], Path]:
    """``new --ruleset RULESET --seed 506843264357733541 OPTIONS``'s folder, written the first time a run asks
    for the ruleset (:func:`tests.shared.shared`) and then shared by both typos of its seed (read only: copy it)."""
    def folder(ruleset: str, options: list[str]) -> Path:
        """The folder ``new`` wrote for ``ruleset``."""
        def build(tmp: Path) -> None:
            res = cli("new", tmp / "c", "--ruleset", ruleset, "--seed", "506843264357733541", *options)
            assert res.returncode == 0, res.stderr
        return shared(tmp_path_factory, f"cli-processes-new-{ruleset}", build) / "c"
    return folder


@pytest.mark.parametrize("ruleset, options", [("purasbar", ["--city", "雷希特"]),
                                              ("bloodbowl", ["--option", "team=铁砧", "--option", "race=dwarf"]),
                                              ("ball", [])])
@pytest.mark.parametrize("typo", ["50684326435773.35", "-506843264357733541"])
def test_a_mistyped_seed_is_never_repeated_in_its_error(made: Callable[[str, list[str]], Path], tmp_path: Path,
                                                        ruleset: str, options: list[str], typo: str) -> None:
    """The seed opens every sealed die: an error about a mistyped one says what is wrong, not the value."""
    shutil.copytree(made(ruleset, options), tmp_path / "c")
    camp = next((tmp_path / "c").glob("*.yaml"))
    text = camp.read_text(encoding="utf-8")
    assert "seed: 506843264357733541" in text
    camp.write_text(text.replace("seed: 506843264357733541", f"seed: {typo}"), encoding="utf-8")
    line = one_error_line(cli("check", camp), f"{camp}:", "seed:", "此值保密")
    assert typo.lstrip("-") not in line and "5068432643577" not in line
