"""tests/conftest.py's bytecode folder: under ``PYTHONDONTWRITEBYTECODE`` the run compiles the package and
rewrites the test modules once, into a temporary ``PYTHONPYCACHEPREFIX``; what the workers load from there must
be what they would have compiled or rewritten themselves, and the processes they start still write nothing."""

from __future__ import annotations

import importlib.util
import marshal
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OURS = bool(os.environ.get("PYTHONDONTWRITEBYTECODE")) and bool(sys.pycache_prefix)
needs_folder = pytest.mark.skipif(not OURS, reason="this run compiles nothing ahead (no PYTHONDONTWRITEBYTECODE)")


def _code(pyc: Path) -> object:
    """The code object a ``.pyc`` holds (its 16-byte header skipped)."""
    return marshal.loads(pyc.read_bytes()[16:])


@needs_folder
def test_a_rewritten_test_module_is_what_pytest_rewrites(pytestconfig: pytest.Config) -> None:
    """With pytest-xdist, the controller rewrote this file and the conftests before the workers started."""
    from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, _rewrite_test, get_cache_dir

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        pytest.skip("one process rewrites what it collects itself")
    for fn in (Path(__file__), ROOT / "tests" / "conftest.py", ROOT / "tests" / "ball" / "conftest.py"):
        pyc = get_cache_dir(fn) / (fn.name[:-3] + PYC_TAIL)
        assert str(pyc).startswith(sys.pycache_prefix or "?"), pyc
        read = _read_pyc(fn, pyc)
        assert read is not None, f"{pyc}: missing or stale"
        assert read == _rewrite_test(fn, pytestconfig)[1]  # code objects compare by their bytecode, constants, names, lines


@needs_folder
def test_a_compiled_module_is_what_python_compiles() -> None:
    for fn in (ROOT / "anko_writer" / "cli.py", ROOT / "anko_writer" / "rulesets" / "ball" / "ruleset.py",
               ROOT / "tests" / "util.py"):
        pyc = Path(importlib.util.cache_from_source(str(fn)))
        assert str(pyc).startswith(sys.pycache_prefix or "?") and pyc.exists(), pyc
        assert _code(pyc) == compile(fn.read_bytes(), str(fn), "exec", dont_inherit=True)


@needs_folder
def test_the_processes_the_tests_start_read_the_folder_and_write_nothing() -> None:
    assert os.environ.get("PYTHONPYCACHEPREFIX") == sys.pycache_prefix and os.environ.get("PYTHONDONTWRITEBYTECODE")
    assert sys.dont_write_bytecode
