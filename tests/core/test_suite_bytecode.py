"""tests/conftest.py's rewritten test modules: with pytest-xdist the run rewrites the test modules' asserts once,
before the workers start — under ``PYTHONDONTWRITEBYTECODE`` into a temporary folder the workers read, else into
pytest's own cache where an entry is missing or stale; what a worker loads must be what it would have rewritten
itself."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.conftest import REWRITTEN

ROOT = Path(__file__).resolve().parents[2]
AHEAD = pytest.mark.skipif(
    not (sys.dont_write_bytecode and os.environ.get("PYTEST_XDIST_WORKER")),
    reason="only pytest-xdist's workers under PYTHONDONTWRITEBYTECODE read rewritten modules ahead")


@AHEAD
def test_a_rewritten_test_module_is_what_pytest_rewrites(pytestconfig: pytest.Config) -> None:
    """The controller rewrote this file and the conftests before the workers started."""
    from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, _rewrite_test, get_cache_dir

    for fn in (Path(__file__), ROOT / "tests" / "conftest.py", ROOT / "tests" / "ball" / "conftest.py"):
        pyc = get_cache_dir(fn) / (fn.name[:-3] + PYC_TAIL)
        assert pyc.is_relative_to(os.environ[REWRITTEN]), pyc
        read = _read_pyc(fn, pyc)
        assert read is not None, f"{pyc}: missing or stale"
        assert read == _rewrite_test(fn, pytestconfig)[1]  # code objects compare by bytecode, constants, names, lines


@AHEAD
def test_any_other_module_keeps_pytests_own_folder() -> None:
    from _pytest.assertion.rewrite import get_cache_dir

    assert get_cache_dir(ROOT / "anko_writer" / "cli.py") == ROOT / "anko_writer" / "__pycache__"
    assert not Path(os.environ[REWRITTEN]).is_relative_to(ROOT)  # nothing beside the sources


def test_a_missing_or_stale_entry_is_rewritten_ahead_and_a_fresh_one_left(pytestconfig: pytest.Config,
                                                                          tmp_path: Path) -> None:
    """Where bytecode may be written (a fresh clone's first run), the controller fills pytest's own cache ahead of
    the workers (``_rewrite_stale``): a file without an entry, or whose source changed, is rewritten as pytest's
    loader would; an up-to-date entry is left as it is; a file that is not Python is left to the workers."""
    from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, _rewrite_test, get_cache_dir

    from tests.conftest import _rewrite_stale

    fn, bad = tmp_path / "test_x.py", tmp_path / "test_bad.py"
    fn.write_text("def test_x():\n    assert 1 + 1 == 2\n", encoding="utf-8")
    bad.write_text("def (:\n", encoding="utf-8")
    pyc = get_cache_dir(fn) / (fn.name[:-3] + PYC_TAIL)
    assert _rewrite_stale(pytestconfig, [fn, bad]) == [fn]
    assert _read_pyc(fn, pyc) == _rewrite_test(fn, pytestconfig)[1]
    assert _rewrite_stale(pytestconfig, [fn]) == []
    fn.write_text("def test_x():\n    assert 2 + 2 == 4  # changed\n", encoding="utf-8")
    assert _rewrite_stale(pytestconfig, [fn]) == [fn]
    assert _read_pyc(fn, pyc) == _rewrite_test(fn, pytestconfig)[1]
