"""tests/conftest.py's rewritten test modules: with pytest-xdist under ``PYTHONDONTWRITEBYTECODE`` the run
rewrites the test modules' asserts once, into a temporary folder the workers read; what a worker loads from
there must be what it would have rewritten itself."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.conftest import REWRITTEN

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(
    not (sys.dont_write_bytecode and os.environ.get("PYTEST_XDIST_WORKER")),
    reason="only pytest-xdist's workers under PYTHONDONTWRITEBYTECODE read rewritten modules ahead")


def test_a_rewritten_test_module_is_what_pytest_rewrites(pytestconfig: pytest.Config) -> None:
    """The controller rewrote this file and the conftests before the workers started."""
    from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, _rewrite_test, get_cache_dir

    for fn in (Path(__file__), ROOT / "tests" / "conftest.py", ROOT / "tests" / "ball" / "conftest.py"):
        pyc = get_cache_dir(fn) / (fn.name[:-3] + PYC_TAIL)
        assert pyc.is_relative_to(os.environ[REWRITTEN]), pyc
        read = _read_pyc(fn, pyc)
        assert read is not None, f"{pyc}: missing or stale"
        assert read == _rewrite_test(fn, pytestconfig)[1]  # code objects compare by bytecode, constants, names, lines


def test_any_other_module_keeps_pytests_own_folder() -> None:
    from _pytest.assertion.rewrite import get_cache_dir

    assert get_cache_dir(ROOT / "anko_writer" / "cli.py") == ROOT / "anko_writer" / "__pycache__"
    assert not Path(os.environ[REWRITTEN]).is_relative_to(ROOT)  # nothing beside the sources
