"""Fixtures shared by several test files: the built-in campaign played for three seasons."""

from __future__ import annotations

import compileall
import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from typer.testing import CliRunner

from anko_writer import prebuilt
from anko_writer.campaign import load_campaign
from anko_writer.cli import app
from anko_writer.runtime import GC_THRESHOLD
from tests import wheel_hook
from tests.shared import shared

# No per-example time limit: a wall-clock limit inside a test fails on a busy machine, not on a wrong rule.
settings.register_profile("anko", deadline=None)
settings.load_profile("anko")

BUILT_IN = Path(__file__).parent.parent / "campaigns" / "recht.yaml"
ROOT = Path(__file__).resolve().parent.parent
"""The checkout (its package and tests are compiled once a run: :func:`_compile_once`)."""


def pytest_configure(config: pytest.Config) -> None:
    """Build what the package ships built (:mod:`anko_writer.prebuilt`) once for the whole run, before
    pytest-xdist starts its workers, and name it in ``ANKO_WRITER_PREBUILT`` for them and every process they
    start: a clean clone has no ``anko_writer/_prebuilt``, and without it each worker and each
    ``ANKO_WRITER_CACHE=off`` run compiled every template and parsed every phrase bank again (issue 29). A
    run that sets the variable itself (``off``: compile everything) keeps it; the tests of the folder and of the
    cache name their own."""
    gc.set_threshold(*GC_THRESHOLD)  # collect as the CLI does (without its freeze, which tests check): 20–30 % less CPU
    if os.environ.get("PYTEST_XDIST_WORKER"):
        _read_rewritten()
        return
    building = _start_prebuild() if os.environ.get(prebuilt.ENV) is None else None
    _compile_once()
    _rewrite_once(config)
    if building is None:
        return
    folder, process = building
    record = folder.with_name(folder.name + "-hook.json")
    if wheel_hook.finish(process, record)["returncode"] != 0:  # again here, so that its error is the run's
        from anko_writer import prebuilder
        prebuilder.build(folder)
    os.environ[prebuilt.ENV] = str(folder)
    os.environ[wheel_hook.RECORD] = str(record)
    prebuilt._present.cache_clear()

    def remove() -> None:
        os.environ.pop(prebuilt.ENV, None)
        os.environ.pop(wheel_hook.RECORD, None)
        prebuilt._present.cache_clear()
        shutil.rmtree(folder, ignore_errors=True)
        record.unlink(missing_ok=True)
    config.add_cleanup(remove)


def _start_prebuild() -> tuple[Path, subprocess.Popen[str]]:
    """Start building the prebuilt folder (:func:`anko_writer.prebuilder.build`, 4–5 s) in a process of its own,
    so that it runs beside :func:`_compile_once` and :func:`_rewrite_once` (5–6 s) on the other core: as the
    wheel's hook builds it, every import but its build requirements refused (:mod:`tests.wheel_hook`, whose
    record the hook's test reads instead of building again)."""
    folder = Path(tempfile.mkdtemp(prefix="anko-prebuilt-"))
    return folder, wheel_hook.start(folder)


_NOT_COMPILED = re.compile(r"[/\\](?:test_[^/\\]*|conftest)\.py$")
"""The files pytest compiles itself, its asserts rewritten (:func:`_compile_once` leaves them)."""


def _compile_once() -> None:
    """Compile the package's and the tests' helper modules into their ``__pycache__`` once, here before the
    workers start, as an install does: under ``PYTHONDONTWRITEBYTECODE`` (set on this project's machines) no
    process writes bytecode, so each worker and each command a test starts compiled every module it imports
    again (the CLI tests' CPU −27 %, issue 29). An up-to-date file is left as it is; a folder that cannot be
    written is skipped (each process then compiles for itself, as before)."""
    for folder in (ROOT / "anko_writer", ROOT / "tests"):
        try:
            compileall.compile_dir(folder, quiet=2, rx=_NOT_COMPILED)
        except OSError:
            continue


REWRITTEN = "ANKO_TEST_REWRITTEN"
"""The run's folder of assert-rewritten test modules (:func:`_rewrite_once`), named for pytest-xdist's workers."""


def _rewrite_once(config: pytest.Config) -> None:
    """With pytest-xdist, rewrite the asserts of the test modules the run asks for once, here before the workers
    start: otherwise each worker rewrote every test file itself (4.5 s of its collection's 9, issue 29). Under
    ``PYTHONDONTWRITEBYTECODE`` into a temporary folder that the workers' loader reads (:func:`_read_rewritten`;
    nothing is written beside the sources, the folder goes at the end of the run); else into pytest's own cache
    beside them, only the files whose entry is missing or stale (:func:`_rewrite_stale`: a fresh clone's first run)."""
    if config.getoption("dist", "no") == "no" or config.option.collectonly or os.environ.get(REWRITTEN):
        return  # one process (``--collect-only``: this one) rewrites what it collects
    tests = Path(__file__).resolve().parent
    if not sys.dont_write_bytecode:
        _rewrite_stale(config, [fn for fn in sorted(tests.rglob("*.py")) if _rewritten_by_pytest(config, fn)])
        return
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, _rewrite_test, _write_pyc, assertstate_key
        state = config.stash[assertstate_key]
    except (ImportError, KeyError):  # another pytest: the workers rewrite as before
        return
    folder = Path(tempfile.mkdtemp(prefix="anko-rewritten-"))
    try:
        for fn in sorted(tests.rglob("*.py")):
            if _rewritten_by_pytest(config, fn):
                pyc = _rewritten(folder, tests, fn) / (fn.name[:-3] + PYC_TAIL)
                pyc.parent.mkdir(parents=True, exist_ok=True)
                source_stat, code = _rewrite_test(fn, config)
                if not _write_pyc(state, code, source_stat, pyc):
                    raise OSError(f"could not write {pyc}")
    except Exception:  # noqa: BLE001 (pytest's private rewriter changed, or a file failed: the workers rewrite)
        shutil.rmtree(folder, ignore_errors=True)
        return
    os.environ[REWRITTEN] = str(folder)

    def remove() -> None:
        os.environ.pop(REWRITTEN, None)
        shutil.rmtree(folder, ignore_errors=True)
    config.add_cleanup(remove)


def _rewritten_by_pytest(config: pytest.Config, fn: Path) -> bool:
    """Whether pytest rewrites the asserts of ``fn`` in this run: a test file the arguments ask for, or a conftest."""
    return (fn.name.startswith("test_") and _asked(config, fn)) or fn.name == "conftest.py"


def _rewrite_stale(config: pytest.Config, files: list[Path]) -> list[Path]:
    """Rewrite each of ``files`` whose entry in pytest's own cache (``__pycache__``, pytest's tag) is missing or
    stale, as pytest's loader would write it (:func:`_rewrite_once` when bytecode may be written): the files
    rewritten. A file that cannot be read or written is left to the workers, which rewrite it as before."""
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, _rewrite_test, _write_pyc, assertstate_key, get_cache_dir
        state = config.stash[assertstate_key]
    except (ImportError, KeyError):  # another pytest: the workers rewrite as before
        return []
    done = []
    for fn in files:
        pyc = get_cache_dir(fn) / (fn.name[:-3] + PYC_TAIL)
        try:
            if _read_pyc(fn, pyc) is not None:
                continue
            pyc.parent.mkdir(parents=True, exist_ok=True)
            source_stat, code = _rewrite_test(fn, config)
            if _write_pyc(state, code, source_stat, pyc):
                done.append(fn)
        except Exception:  # noqa: BLE001 (unreadable, unwritable or not Python: pytest's loader says so itself)
            continue
    return done


def _rewritten(folder: Path, tests: Path, fn: Path) -> Path:
    """Where ``folder`` keeps the rewritten code of the test file ``fn`` (its folder's path under ``tests``)."""
    return folder.joinpath(*fn.parent.relative_to(tests).parts)


def _read_rewritten() -> None:
    """In a pytest-xdist worker, pytest's loader looks for the test files' rewritten code in the run's folder
    (:func:`_rewrite_once`), and checks each file's modification time and size as for any ``.pyc``."""
    folder = os.environ.get(REWRITTEN)
    if not folder or not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    from _pytest.assertion import rewrite

    tests, original = Path(__file__).resolve().parent, rewrite.get_cache_dir

    def cache_dir(file_path: Path) -> Path:
        """The run's folder for a file of ``tests``, pytest's own choice for any other."""
        path = Path(file_path).resolve()
        return _rewritten(Path(folder), tests, path) if tests in path.parents else original(file_path)
    rewrite.get_cache_dir = cache_dir  # type: ignore[assignment]  # the loader reads this module global at each import


def _asked(config: pytest.Config, fn: Path) -> bool:
    """Whether the run's arguments (``tests/core``, ``tests/x.py::test_y``, none: the test paths) hold ``fn``."""
    for arg in config.args:
        path = Path(config.invocation_params.dir, arg.split("::")[0]).resolve()
        if fn == path or path in fn.parents:
            return True
    return False


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """At a pytest-xdist worker's end, collect its garbage once, then freeze what survives: pytest's
    unraisable-exception check then collects five times over (``gc_collect_harder``, after every
    ``pytest_unconfigure``), and each pass walked the worker's whole heap again — 2–4 million live
    objects, the tests' caches of played seasons — 7–12 s of CPU a worker, its last seconds of wall time
    (issue 29). The one collection here runs under pytest's hook still in place, so an exception raised by
    the last tests' garbage is reported as before; what pytest's passes collect after it is what is new."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        gc.collect()
        gc.freeze()


@pytest.fixture(autouse=True)
def _gc_as_configured() -> Iterator[None]:
    """After each test, the collector as :func:`pytest_configure` set it: a test that runs the console entry
    point in this process (``cli.main``, ``audit --jobs 1``) has the CLI's ``tune_gc`` freeze every object then
    alive, and left frozen, the process never collected them again and each later in-process run walked them
    all to count them (``commands._freeze_again``): 3.6 % of the suite's samples (issue 29)."""
    yield
    if gc.get_freeze_count():
        gc.unfreeze()
    gc.set_threshold(*GC_THRESHOLD)


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
