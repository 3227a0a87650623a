"""The README's promises about the campaign file (issue 22): ``tally --write`` keeps its mode and owner and
writes through its link, two writers at once both land their votes, and the locks need no POSIX-only module.
(Exports and ``verify``: tests/core/test_export.py and test_crash.py; names and titles: test_names.py.)"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
import time
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import pytest

from anko_writer import output
from anko_writer.errors import OutputError
from anko_writer.tally import campaign as tally_campaign
from anko_writer.yamlio import load_yaml_text
from tests.util import campaign_file

ROOT = Path(__file__).resolve().parents[2]


def _decide(key: str, formation: str, pause: float = 0.0,
            barrier: threading.Barrier | None = None) -> Any:
    """A stand-in for :func:`set_decisions` that writes ``decisions.<key>.formation`` (after ``barrier``, then
    ``pause`` seconds: both writers have read the campaign before either writes)."""
    def decide(doc: MutableMapping[str, Any], count: object, force: bool) -> list[str]:
        if barrier is not None:
            barrier.wait(timeout=30)
        time.sleep(pause)
        decisions = doc.get("decisions")
        if not isinstance(decisions, MutableMapping):
            decisions = doc["decisions"] = {}
        decisions[key] = {"formation": formation}
        return [f"decisions.{key}.formation = {formation}"]
    return decide


def _decisions(path: Path) -> dict[str, Any]:
    doc = load_yaml_text(path.read_text(encoding="utf-8"), path)
    return {k: dict(v) for k, v in (doc.get("decisions") or {}).items()}


# ---------------------------------------------------------------- tally --write: mode, owner, links


@pytest.mark.skipif(os.name != "posix", reason="permission bits are POSIX")
def test_a_0600_campaign_stays_0600(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = campaign_file(tmp_path)
    path.chmod(0o600)
    before = os.stat(path)
    monkeypatch.setattr(tally_campaign, "set_decisions", _decide("s1m4", "4 3 3"))
    assert tally_campaign.write_campaign(path, object(), force=False)  # type: ignore[arg-type]
    after = os.stat(path)
    assert stat.S_IMODE(after.st_mode) == 0o600
    assert (after.st_uid, after.st_gid) == (before.st_uid, before.st_gid)
    assert _decisions(path) == {"s1m4": {"formation": "4 3 3"}}
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no lock or temp file left


@pytest.mark.skipif(os.name != "posix", reason="symbolic links need privileges on Windows")
def test_a_linked_campaign_is_written_through_its_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "real").mkdir()
    real = campaign_file(tmp_path / "real")
    real.chmod(0o640)
    (tmp_path / "host").mkdir()
    link = tmp_path / "host" / "campaign.yaml"
    link.symlink_to(real)
    monkeypatch.setattr(tally_campaign, "set_decisions", _decide("s1m4", "4 3 3"))
    tally_campaign.write_campaign(link, object(), force=False)  # type: ignore[arg-type]
    assert link.is_symlink() and os.readlink(link) == str(real)  # the link stays a link
    assert _decisions(real) == {"s1m4": {"formation": "4 3 3"}}  # the real campaign got the vote
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o640
    assert sorted(p.name for p in (tmp_path / "host").iterdir()) == ["campaign.yaml"]


def test_atomic_write_keeps_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "a.txt"
    target.write_text("旧\n", encoding="utf-8")
    target.chmod(0o600)
    output.atomic_write(target, "新\n")
    assert target.read_text(encoding="utf-8") == "新\n"
    if os.name == "posix":
        assert stat.S_IMODE(os.stat(target).st_mode) == 0o600


# ---------------------------------------------------------------- tally --write: two at once


def test_two_writers_at_once_both_land(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = campaign_file(tmp_path)
    barrier = threading.Barrier(2)
    lock = threading.Lock()
    plans = {"s1m4": "4 3 3", "s1m5": "5 4 1"}
    errors: list[BaseException] = []

    def decide(doc: MutableMapping[str, Any], count: object, force: bool) -> list[str]:
        with lock:
            key = next(k for k in list(plans) if plans[k])
            formation, plans[key] = plans[key], ""
        return _decide(key, formation, pause=0.3)(doc, count, force)

    def run() -> None:
        try:
            barrier.wait(timeout=30)  # both start together: without the lock both read the same campaign
            tally_campaign.write_campaign(path, object(), force=False)  # type: ignore[arg-type]
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    monkeypatch.setattr(tally_campaign, "set_decisions", decide)
    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors
    assert _decisions(path) == {"s1m4": {"formation": "4 3 3"}, "s1m5": {"formation": "5 4 1"}}


def test_two_processes_at_once_both_land(tmp_path: Path) -> None:
    """The same with two real processes: the second waits for the first's lock."""
    path = campaign_file(tmp_path)
    code = ("import sys, time; from pathlib import Path; from anko_writer.tally import campaign as c\n"
            "def decide(doc, count, force):\n"
            "    time.sleep(float(sys.argv[3])); doc['decisions'][sys.argv[1]] = {'formation': sys.argv[2]}; return ['x']\n"
            "c.set_decisions = decide\n"
            "c.write_campaign(Path(sys.argv[4]), None, False)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    first = subprocess.Popen([sys.executable, "-c", code, "s1m4", "4 3 3", "1.0", str(path)], env=env, cwd=ROOT)
    time.sleep(0.4)  # the first is inside its read-modify-write
    second = subprocess.run([sys.executable, "-c", code, "s1m5", "5 4 1", "0", str(path)], env=env, cwd=ROOT,
                            timeout=120)
    assert first.wait(timeout=120) == 0 and second.returncode == 0
    assert _decisions(path) == {"s1m4": {"formation": "4 3 3"}, "s1m5": {"formation": "5 4 1"}}


def test_no_posix_only_module_is_needed(tmp_path: Path) -> None:
    """Windows has no ``fcntl``: the command line imports, answers ``--version`` and takes its locks without it."""
    code = ("import sys; sys.modules['fcntl'] = None\n"
            "import warnings; warnings.simplefilter('ignore')\n"
            "from anko_writer import cli, output\n"
            "with output.locked(sys.argv[1]): pass\n"
            "with output.locked_file(sys.argv[2]): pass\n"
            "sys.argv = ['anko-writer', '--version']; cli.main()\n")
    (tmp_path / "c.yaml").write_text("x: 1\n", encoding="utf-8")
    res = subprocess.run([sys.executable, "-c", code, str(tmp_path / "out"), str(tmp_path / "c.yaml")],
                         capture_output=True, text=True, cwd=ROOT, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("anko-writer ") and "Traceback" not in res.stderr


def test_a_held_campaign_lock_times_out_with_one_message(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("x: 1\n", encoding="utf-8")
    with output.locked_file(path):
        errors: list[str] = []

        def other() -> None:
            try:
                with output.locked_file(path, wait=0.2):
                    pass
            except OutputError as err:
                errors.append(str(err))
        t = threading.Thread(target=other)
        t.start()
        t.join(timeout=30)
    assert errors == [f"{path}: 另一个 anko-writer 进程已经占用它 0.2 秒；请等它完成后再试"]
