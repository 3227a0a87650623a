"""Folders the tests build once and then only read, shared by pytest-xdist's workers; what several rulesets'
tests ask of a campaign file."""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from anko_writer import ruleset as registry
from anko_writer.campaign import load_campaign


def shared(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], object]) -> Path:
    """A folder built once per test run and then only read, even when pytest-xdist runs the suite on
    several workers: the first worker builds it under a file lock, the others reuse it."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder, shared by the workers
    folder, done = root / f"shared-{name}", root / f"shared-{name}.done"
    with open(root / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            build(folder)
            done.touch()
    return folder


def case_data(path: Path) -> Any:
    """A case file of the tests (``tests/sanguo/*_cases.yaml`` …) as ruamel.yaml's safe loader reads it, parsed by
    libyaml (:func:`anko_writer.yamlio.load_plain_fast`, YAML 1.2 scalars) unless that declines it: these files
    are read while the workers collect, each by both (0.67 s a worker with ruamel.yaml alone, issue 29).
    ``tests/core/test_case_files.py`` checks that every case file reads the same both ways."""
    from anko_writer.yamlio import FastPathError, load_plain_fast

    text = path.read_text(encoding="utf-8")
    try:
        return load_plain_fast(text)
    except FastPathError:
        from ruamel.yaml import YAML
        return YAML(typ="safe").load(text)


def opening_vote(camp: Path) -> dict[str, Any]:
    """Chapter 0's vote record for the campaign file ``camp`` as it stands (what ``anko-writer tally`` counts)."""
    c = load_campaign(camp)
    return dict(registry.get(c.ruleset).opening_vote(c, c.resources()) or {})
