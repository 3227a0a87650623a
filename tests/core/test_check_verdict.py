"""Issue 29: a passed ``check`` is remembered (:mod:`anko_writer.verdict`) and replayed only while every file it
could read is the same; a failing check always runs and names file, line and key."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer import verdict
from tests.core.test_cli_lean import REMEMBERED_CHECK_NEEDS_NOT as REMEMBERED_NEEDS_NOT

ROOT = Path(__file__).resolve().parents[2]



def _check(campaign: Path, cache: Path, report: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """``anko-writer check CAMPAIGN`` as a process (cwd: the campaign's folder); with ``report``, its last stdout
    line lists which of those modules it imported."""
    code = ("import atexit, sys, runpy; sys.argv = ['anko-writer', 'check', sys.argv[1]]\n"
            f"atexit.register(lambda: print(sorted(set({report!r}) & set(sys.modules))))\n"
            "runpy.run_module('anko_writer', run_name='__main__')\n")
    env = {**os.environ, "ANKO_WRITER_CACHE": str(cache), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code, campaign.name], capture_output=True, text=True,
                          cwd=campaign.parent, env=env)


def _campaign(tmp_path: Path, seed: str | None = None) -> Path:
    """A copy of the shipped 雷希特 campaign in its own folder (optionally with another seed line)."""
    folder = tmp_path / "c"
    folder.mkdir()
    text = (ROOT / "campaigns" / "recht.yaml").read_text(encoding="utf-8")
    if seed is not None:
        text = "\n".join(seed if line.startswith("seed:") else line for line in text.splitlines()) + "\n"
    path = folder / "recht.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _out(done: subprocess.CompletedProcess[str]) -> list[str]:
    """The process's stdout lines without the module report."""
    return done.stdout.splitlines()[:-1]


def test_a_second_check_is_replayed_without_yaml_schema_or_ruleset(tmp_path: Path) -> None:
    """The same files checked twice print the same lines; the second imports none of the checking modules."""
    campaign, cache = _campaign(tmp_path), tmp_path / "cache"
    first = _check(campaign, cache, REMEMBERED_NEEDS_NOT)
    second = _check(campaign, cache, REMEMBERED_NEEDS_NOT)
    assert first.returncode == second.returncode == 0
    assert _out(first) == _out(second) == ["通过：recht.yaml（purasbar: 雷希特竞技的群英杯之路）"]
    assert first.stderr == second.stderr
    assert first.stdout.splitlines()[-1] != "[]"  # the first one did check
    assert second.stdout.splitlines()[-1] == "[]"


def test_a_weak_seed_warning_is_replayed_on_stderr(tmp_path: Path) -> None:
    """The warning a pass printed is printed again, on stderr, word for word."""
    campaign, cache = _campaign(tmp_path, "seed: 1267"), tmp_path / "cache"
    first, second = _check(campaign, cache), _check(campaign, cache)
    assert "警告：recht.yaml:" in first.stderr and "种子只有 4 位数字" in first.stderr
    assert (second.stdout, second.stderr, second.returncode) == (first.stdout, first.stderr, first.returncode)


def test_an_edited_campaign_is_checked_again_and_named_at_its_line(tmp_path: Path) -> None:
    """A campaign broken after a pass gets its located message, not the old pass."""
    campaign, cache = _campaign(tmp_path), tmp_path / "cache"
    assert _check(campaign, cache).returncode == 0
    lines = campaign.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("seed:"))
    lines[at] = "seed: 十七"
    campaign.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = _check(campaign, cache)
    assert done.returncode == 1
    assert done.stderr.startswith(f"错误：recht.yaml:{at + 1}:7: seed:"), done.stderr


def test_an_added_override_table_is_read_by_the_next_check(tmp_path: Path) -> None:
    """A table added to the campaign's folder after a pass (a broken one here) makes the check run again."""
    campaign, cache = _campaign(tmp_path), tmp_path / "cache"
    assert _check(campaign, cache).returncode == 0
    tables = campaign.parent / "tables" / "purasbar"
    tables.mkdir(parents=True)
    shutil.copy(ROOT / "tables" / "purasbar" / "cities.yaml", tables / "cities.yaml")
    assert _check(campaign, cache).returncode == 0  # the same table, now the campaign's own
    (tables / "cities.yaml").write_text("rows: [\n", encoding="utf-8")
    done = _check(campaign, cache)
    assert done.returncode == 1 and "cities.yaml:" in done.stderr, done.stderr


def test_a_failing_check_is_never_remembered(tmp_path: Path) -> None:
    """A campaign that fails its check fails the same way every time, and leaves no verdict behind."""
    campaign, cache = _campaign(tmp_path, "seed: [1]"), tmp_path / "cache"
    first, second = _check(campaign, cache), _check(campaign, cache)
    assert first.returncode == second.returncode == 1
    assert first.stderr == second.stderr and "seed" in first.stderr
    assert not (cache / verdict.KIND).exists() or not list((cache / verdict.KIND).iterdir())


def test_without_the_cache_a_check_still_checks(tmp_path: Path) -> None:
    """``ANKO_WRITER_CACHE=off``: nothing is remembered and the check passes as before."""
    campaign = _campaign(tmp_path)
    assert _check(campaign, Path("off")).returncode == 0
    assert _check(campaign, Path("off")).stdout == _check(campaign, Path("off")).stdout


NAMES = st.text(alphabet="abc", min_size=1, max_size=3)


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(NAMES, st.binary(max_size=8), min_size=1, max_size=5), st.data())
def test_any_change_to_a_searched_folder_changes_its_digest(files: dict[str, bytes], data: st.DataObject) -> None:
    """Editing, adding or removing any file of a searched folder gives another digest; the same files, the same."""
    import tempfile

    folder = Path(tempfile.mkdtemp())
    try:
        for name, body in files.items():
            (folder / name).write_bytes(body)
        before = verdict.contents([str(folder)])
        assert verdict.contents([str(folder)]) == before
        name = data.draw(st.sampled_from(sorted(files)))
        change = data.draw(st.sampled_from(["edit", "remove", "add"]))
        if change == "edit":
            (folder / name).write_bytes(files[name] + b"!")
        elif change == "remove":
            (folder / name).unlink()
        else:
            (folder / (name + "-new")).write_bytes(b"")
        assert verdict.contents([str(folder)]) != before
    finally:
        shutil.rmtree(folder)
