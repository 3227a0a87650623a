"""The console entry point's quick exit (issue 29): the same files, output and status as a normal exit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NORMAL = "import sys; from anko_writer.cli import main; sys.argv[0] = 'anko-writer'; main()"
"""The command line with the interpreter's own teardown (what ``cli.main`` does in any process)."""


def _run(argv: list[str], quick: bool, cache: Path) -> subprocess.CompletedProcess[bytes]:
    """One process of the command line: through ``python -m anko_writer`` (quick) or ``cli.main`` (normal)."""
    head = [sys.executable, "-m", "anko_writer"] if quick else [sys.executable, "-c", NORMAL]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ANKO_WRITER_CACHE": str(cache)}
    return subprocess.run([*head, *argv], capture_output=True, cwd=ROOT, env=env)


def _tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by its relative path, with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_season_writes_the_same_files_and_output(tmp_path: Path) -> None:
    """A season through the quick exit writes every file, and prints every line, a normal exit does."""
    done = {}
    for quick in (False, True):
        out = tmp_path / f"out-{quick}"
        done[quick] = _run(["season", "campaigns/recht.yaml", "--season", "1", "--out", str(out)], quick,
                           tmp_path / "cache")
        assert done[quick].returncode == 0, done[quick].stderr
    assert _tree(tmp_path / "out-True") == _tree(tmp_path / "out-False") != {}
    assert done[True].stdout.replace(b"out-True", b"out-False") == done[False].stdout != b""


@pytest.mark.parametrize("argv", [["--version"], ["check", "campaigns/recht.yaml"], ["season", "campaigns/recht.yaml"],
                                  ["check", "no-such-campaign.yaml"], ["no-such-command"]])
def test_status_and_streams_as_a_normal_exit(argv: list[str], tmp_path: Path) -> None:
    """Success, bad input (1) and a usage error (2) exit with the same status and the same full output."""
    quick, normal = (_run(argv, q, tmp_path / "cache") for q in (True, False))
    named = quick.stderr.replace(b"python -m anko_writer", b"anko-writer")  # Click names the program as run
    assert (quick.returncode, quick.stdout, named) == (normal.returncode, normal.stdout, normal.stderr)
    assert quick.stdout or quick.stderr


def test_atexit_handlers_run_and_late_output_is_flushed(tmp_path: Path) -> None:
    """An ``atexit`` handler still runs, and what it prints (unflushed) still arrives."""
    code = ("import atexit, runpy, sys; sys.argv = ['anko-writer', '--version']\n"
            "atexit.register(lambda: sys.stdout.write('late'))\n"
            "runpy.run_module('anko_writer', run_name='__main__')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "ANKO_WRITER_CACHE": str(tmp_path)})
    assert done.returncode == 0 and done.stdout.endswith(b"late")


def test_a_text_exit_code_is_printed_with_status_1() -> None:
    """``SystemExit`` with a text prints it on stderr and exits 1, as the interpreter does."""
    code = ("import anko_writer.__main__ as m\n"
            "try:\n    m.quick_exit('gone')\nexcept BaseException as e:\n    print('raised', e)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (done.returncode, done.stdout, done.stderr) == (1, "", "gone\n")
