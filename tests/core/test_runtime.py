"""The run's collector settings (:mod:`anko_writer.runtime`, issue 29 round 3)."""

from __future__ import annotations

import dataclasses
import gc
import sys
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer import cache, runtime
from anko_writer.runtime import GC_THRESHOLD, dataclass_code_cached, tune_gc


def test_the_thresholds_are_pinned() -> None:
    assert GC_THRESHOLD == (1_000_000, 50, 100)


def test_tune_gc_sets_them_and_freezes_what_is_loaded() -> None:
    saved = gc.get_threshold()
    try:
        tune_gc()
        assert gc.get_threshold() == GC_THRESHOLD
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*saved)


# ---------------------------------------------------------------------------------------------
# dataclass_code_cached: the generated methods compiled once, across runs (issue 29 round 5)

ONLY_311 = pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the cache serves Python 3.11's dataclasses")
"""The code cache replaces Python 3.11's ``dataclasses._create_fn`` alone."""

OPTIONS = st.fixed_dictionaries({"frozen": st.booleans(), "order": st.booleans(), "eq": st.booleans(),
                                 "repr": st.booleans(), "slots": st.booleans(), "kw_only": st.booleans(),
                                 "unsafe_hash": st.booleans()})
FIELDS = st.lists(st.sampled_from(["int", "str = 'x'", "list[int] = dataclasses.field(default_factory=list)",
                                   "ClassVar[int] = 3", "dataclasses.InitVar[int] = 0", "'Any' = None",
                                   "tuple[int, ...] = dataclasses.field(default=(), repr=False, compare=False)"]),
                  max_size=5)


def _define(options: dict[str, Any], fields: list[str], name: str) -> type:
    """A dataclass with ``fields`` (defaulted ones last, as Python asks) under ``options``."""
    fields = sorted(fields, key=lambda f: "=" in f)
    body = "".join(f"    f{i}: {f}\n" for i, f in enumerate(fields)) or "    pass\n"
    if options["order"] and not options["eq"]:
        options = {**options, "order": False}
    if options["unsafe_hash"] and options["frozen"]:
        options = {**options, "unsafe_hash": False}
    space: dict[str, Any] = {"dataclasses": dataclasses, "ClassVar": ClassVar, "Any": Any}
    exec(f"@dataclasses.dataclass(**options)\nclass {name}:\n{body}", {**space, "options": options}, space)  # noqa: S102
    made: type = space[name]
    return made


def _methods(cls: type) -> dict[str, Any]:
    """What describes each generated method: its code, name, annotations and defaults."""
    found = {}
    for name, f in vars(cls).items():
        code = getattr(f, "__code__", None)
        if code is not None and code.co_filename == "<string>":
            found[name] = (code, code.co_filename, code.co_qualname, f.__qualname__, f.__annotations__,
                           f.__defaults__, f.__kwdefaults__)
    return found


@ONLY_311
@settings(max_examples=60, deadline=None)
@given(OPTIONS, FIELDS)
def test_a_cached_method_is_the_method_dataclasses_compiles(options: dict[str, Any], fields: list[str]) -> None:
    """Inside the block (compiled, then taken from the codes), the methods are those dataclasses makes itself."""
    plain = _methods(_define(options, fields, "C"))
    with dataclass_code_cached():
        first = _methods(_define(options, fields, "C"))
    with dataclass_code_cached():
        again = _methods(_define(options, fields, "C"))
    assert plain == first == again
    assert plain  # every dataclass has at least its __init__


@ONLY_311
def test_a_second_run_compiles_nothing_and_the_stdlib_is_restored(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run after one that stored the codes compiles none of them; after the block dataclasses is itself again."""
    plain = dataclasses._create_fn  # type: ignore[attr-defined]
    options = {"frozen": True, "order": True, "eq": True, "repr": True, "slots": False, "kw_only": False,
               "unsafe_hash": False}
    with dataclass_code_cached():
        _define(options, ["int", "str = 'x'"], "Stored")
    compiled: list[str] = []

    def counted(*args: Any, **options: Any) -> Any:
        compiled.append(args[0])
        return compile(*args, **options)

    monkeypatch.setattr(runtime, "compile", counted, raising=False)
    with dataclass_code_cached():
        made = _define(options, ["int", "str = 'x'"], "Stored")
    assert compiled == []
    assert made(1) < made(2) and repr(made(1)) == "Stored(f0=1, f1='x')"
    assert dataclasses._create_fn is plain  # type: ignore[attr-defined]


@ONLY_311
def test_without_the_cache_the_block_runs_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ANKO_WRITER_CACHE=off``: dataclasses is left as it is inside the block."""
    monkeypatch.setenv(cache.ENV, "off")
    plain = dataclasses._create_fn  # type: ignore[attr-defined]
    with dataclass_code_cached():
        assert dataclasses._create_fn is plain  # type: ignore[attr-defined]


@pytest.mark.parametrize("payload", [b"", b"not marshal", b"\xe9", None, 3])
def test_an_unreadable_entry_gives_no_codes(payload: object) -> None:
    assert runtime.loaded_codes(payload) == {}


@ONLY_311
def test_without_globals_a_method_runs_in_dataclasses_globals_as_there() -> None:
    """``_create_fn`` called with no globals (dataclasses itself always passes the class's module's): the function
    lives in dataclasses' globals, as ``exec(txt, None, ns)`` there gives."""
    made = runtime._create_fn_with(runtime._Codes(lambda name: None))("f", ["x"], ["return x + 1"])
    plain = dataclasses._create_fn("f", ["x"], ["return x + 1"])  # type: ignore[attr-defined]
    assert made.__globals__ is plain.__globals__ is vars(dataclasses)
    assert made.__code__ == plain.__code__ and made(1) == plain(1) == 2
