"""Fixtures shared by several test files: the built-in campaign played for three seasons."""

from __future__ import annotations

import compileall
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from typer.testing import CliRunner

from anko_writer import prebuilt
from anko_writer.campaign import load_campaign
from anko_writer.cli import app
from tests.shared import shared

# No per-example time limit: a wall-clock limit inside a test fails on a busy machine, not on a wrong rule.
settings.register_profile("anko", deadline=None)
settings.load_profile("anko")

BUILT_IN = Path(__file__).parent.parent / "campaigns" / "recht.yaml"


def pytest_configure(config: pytest.Config) -> None:
    """Build what the package ships built (:mod:`anko_writer.prebuilt`) once for the whole run, before
    pytest-xdist starts its workers, and name it in ``ANKO_WRITER_PREBUILT`` for them and every process they
    start: a clean clone has no ``anko_writer/_prebuilt``, and without it each worker and each
    ``ANKO_WRITER_CACHE=off`` run compiled every template and parsed every phrase bank again (issue 29). A
    run that sets the variable itself (``off``: compile everything) keeps it; the tests of the folder and of the
    cache name their own."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    _bytecode_once(config)
    if os.environ.get(prebuilt.ENV) is not None:
        return
    from anko_writer import prebuilder

    folder = Path(tempfile.mkdtemp(prefix="anko-prebuilt-"))
    prebuilder.build(folder)
    os.environ[prebuilt.ENV] = str(folder)
    prebuilt._present.cache_clear()

    def remove() -> None:
        os.environ.pop(prebuilt.ENV, None)
        prebuilt._present.cache_clear()
        shutil.rmtree(folder, ignore_errors=True)
    config.add_cleanup(remove)


def _bytecode_once(config: pytest.Config) -> None:
    """Under ``PYTHONDONTWRITEBYTECODE`` (and no ``PYTHONPYCACHEPREFIX`` of the run's own), compile the package
    and the tests' helpers once into a temporary folder named in ``PYTHONPYCACHEPREFIX``, and (with pytest-xdist)
    rewrite the asserts of the test modules the run asks for there once: otherwise both workers and every
    ``python -m anko_writer`` a test starts compiled every module from source again, and each worker rewrote
    every test file (issue 29). Nothing is written beside the sources, the folder goes at the end of the run,
    and the processes the tests start still write nothing."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX") or sys.pycache_prefix:
        return
    folder = tempfile.mkdtemp(prefix="anko-pycache-")
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix = folder
    root = Path(__file__).parent.parent
    for tree in (root / "anko_writer", root / "tests"):
        compileall.compile_dir(tree, quiet=2, workers=1)
    _rewrite_tests(config, root / "tests")

    def remove() -> None:
        os.environ.pop("PYTHONPYCACHEPREFIX", None)
        sys.pycache_prefix = None
        shutil.rmtree(folder, ignore_errors=True)
    config.add_cleanup(remove)


def _rewrite_tests(config: pytest.Config, tests: Path) -> None:
    """Each test module's assert-rewritten code, written where pytest's own loader looks for it (in
    ``sys.pycache_prefix``), as it would write it itself if it were allowed to. Pytest's loader checks each
    file's modification time and size before using it, as for any ``.pyc``; with another pytest that names
    these functions otherwise, the workers rewrite as before."""
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, _rewrite_test, _write_pyc, assertstate_key, get_cache_dir
        state = config.stash[assertstate_key]
    except (ImportError, KeyError):
        return
    if config.getoption("dist", "no") == "no":  # one process: it rewrites each module it collects, once anyway
        return
    for fn in sorted(tests.rglob("*.py")):
        if (fn.name.startswith("test_") and _asked(config, fn)) or fn.name == "conftest.py":
            cache = get_cache_dir(fn)
            cache.mkdir(parents=True, exist_ok=True)
            source_stat, code = _rewrite_test(fn, config)
            _write_pyc(state, code, source_stat, cache / (fn.name[:-3] + PYC_TAIL))


def _asked(config: pytest.Config, fn: Path) -> bool:
    """Whether the run's arguments (``tests/core``, ``tests/x.py::test_y``, none: the test paths) hold ``fn``."""
    for arg in config.args:
        path = Path(config.invocation_params.dir, arg.split("::")[0]).resolve()
        if fn == path or path in fn.parents:
            return True
    return False


@pytest.fixture(scope="session", autouse=True)
def _cache_in_tmp(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN202
    """The run's cache (anko_writer.cache) in a temporary folder, never the user's own."""
    patch = pytest.MonkeyPatch()
    patch.setenv("ANKO_WRITER_CACHE", str(tmp_path_factory.mktemp("cache")))
    yield
    patch.undo()


@pytest.fixture(scope="session")
def three(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """The built-in campaign played for three seasons through the CLI, each from the last one's state
    file: the output folder and the campaign seed."""
    def build(tmp: Path) -> None:
        shutil.copy(BUILT_IN, tmp / "recht.yaml")
        for s in (1, 2, 3):
            res = CliRunner().invoke(app, ["season", str(tmp / "recht.yaml"), "--season", str(s), "--out",
                                           str(tmp / "out")])
            assert res.exit_code == 0, res.output
    tmp = shared(tmp_path_factory, "three", build)
    return tmp / "out", load_campaign(tmp / "recht.yaml").seed


@pytest.fixture(scope="session")
def season_245(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    """Season 1 of the generated 雷希特 campaign (:func:`tests.util.campaign_file`, seed 245) played once in
    memory, months 1 to 12: (campaign path, season run). Shared by every file that plays this very season;
    read it, never change it (deep-copy a record before editing it)."""
    from tests.util import campaign_file, season_run
    camp = campaign_file(tmp_path_factory.mktemp("season245"))
    return camp, season_run(245)


@pytest.fixture(scope="session")
def season_245_cli(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The same campaign's season 1 written by ``anko-writer season`` (``out/s01``): (campaign path, out).
    Shared; tests that write must copy ``out`` first."""
    from tests.util import campaign_file

    def build(tmp: Path) -> None:
        res = CliRunner().invoke(app, ["season", str(campaign_file(tmp)), "--season", "1", "--out", str(tmp / "out")])
        assert res.exit_code == 0, res.output
    tmp = shared(tmp_path_factory, "season245cli", build)
    return next(tmp.glob("*.yaml")), tmp / "out"


@pytest.fixture(scope="session")
def state_245(season_245) -> tuple[str, dict]:  # noqa: ANN001
    """``season_245``'s state-end.yaml text and the ruleset's ``load_state`` of it, parsed once (about 1.5 s)
    for the files that check that this very text loads. Read only."""
    from anko_writer.rulesets.purasbar import RULESET
    from tests.util import RES
    text = season_245[1].state_text
    return text, RULESET.load_state(text, "state-end.yaml", RES)
