"""The shared three-season CLI run's chapter JSON (``conftest.three``), read back once per process.

Several files read every chapter of that run back with :func:`~anko_writer.compact.expand` (39 files, about 1.3 s
each time); the folder is built once a run and only read, so each file's record is read once here and shared.
The records are the tests' to read, never to change (copy one before editing it)."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from anko_writer.compact import expand


@functools.cache
def _record(path: Path, stamp: tuple[int, int]) -> dict[str, Any]:
    """The chapter JSON at ``path`` read back (``stamp``: its size and modification time, so an edited file is read
    again)."""
    return expand(json.loads(path.read_text(encoding="utf-8")))


def record(path: Path) -> dict[str, Any]:
    """The chapter JSON at ``path`` (a file of the shared run) read back by :func:`expand`; shared: read only."""
    st = path.stat()
    return _record(path.resolve(), (st.st_size, st.st_mtime_ns))


def records(folder: Path, pattern: str) -> list[tuple[Path, dict[str, Any]]]:
    """Every chapter JSON under ``folder`` matching ``pattern``, in name order, with :func:`record` of it."""
    return [(p, record(p)) for p in sorted(folder.glob(pattern))]
