"""tests/conftest.py's bytecode compiled once a run (``_compile_once``): every module of the package and every
helper module of the tests has an up-to-date ``__pycache__`` file before any test runs, so no process the suite
starts compiles them again under ``PYTHONDONTWRITEBYTECODE``."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _fresh(source: Path) -> bool:
    """Whether ``source``'s cached bytecode exists and was compiled from it (the header's time and size)."""
    pyc = Path(importlib.util.cache_from_source(str(source)))
    try:
        header = pyc.read_bytes()[:16]
    except OSError:
        return False
    stat = source.stat()
    return (header[:4] == importlib.util.MAGIC_NUMBER and int.from_bytes(header[4:8], "little") == 0
            and int.from_bytes(header[8:12], "little") == int(stat.st_mtime) & 0xFFFFFFFF
            and int.from_bytes(header[12:16], "little") == stat.st_size & 0xFFFFFFFF)


def _modules() -> list[Path]:
    helpers = [p for p in (ROOT / "tests").rglob("*.py") if not p.name.startswith("test_") and p.name != "conftest.py"]
    return sorted((ROOT / "anko_writer").rglob("*.py")) + sorted(helpers)


def test_every_module_is_compiled_before_the_tests_run() -> None:
    if not os.access(ROOT / "anko_writer", os.W_OK):
        pytest.skip("the package's folder cannot be written: each process compiles for itself")
    stale = [str(p.relative_to(ROOT)) for p in _modules() if not _fresh(p)]
    assert stale == []


def test_the_test_files_are_left_to_pytest() -> None:
    from tests.conftest import _NOT_COMPILED

    assert _NOT_COMPILED.search(str(ROOT / "tests" / "core" / "test_dice.py"))
    assert _NOT_COMPILED.search(str(ROOT / "tests" / "conftest.py"))
    assert not _NOT_COMPILED.search(str(ROOT / "tests" / "shared.py"))
    assert not _NOT_COMPILED.search(str(ROOT / "anko_writer" / "cli.py"))


def test_collect_only_rewrites_nothing_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--collect-only`` collects in the controller, which rewrites what it imports itself: the rewrite ahead
    for the workers (``_rewrite_once``) would be the same work done twice, so it is skipped."""
    import sys
    from types import SimpleNamespace

    from tests import conftest

    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.delenv(conftest.REWRITTEN, raising=False)
    config = SimpleNamespace(option=SimpleNamespace(collectonly=True), getoption=lambda name, default=None: "load")
    conftest._rewrite_once(config)  # type: ignore[arg-type]
    assert conftest.REWRITTEN not in os.environ
